"""What every `membank` command shares: the --root and --json options, the consoles, and the
one-line error exit. Its own module so command modules import it without importing the CLI
(flows/cli.py imports them to register their commands)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, NoReturn

import typer
from rich.console import Console

stdout = Console(soft_wrap=True)
stderr = Console(stderr=True, soft_wrap=True)

RootOption = Annotated[
    Path | None,
    typer.Option("--root", help="Memory root folder (default ./.memories or MEMBANK_ROOT).",
                 show_default=False),
]
JsonOption = Annotated[bool, typer.Option("--json", help="Print the report as JSON on stdout.")]


def fail(message: str, code: int) -> NoReturn:
    """One line on stderr, then exit with `code` (2 could not run, 1 found problems)."""
    stderr.print(f"membank: error: {message}", markup=False, highlight=False)
    raise typer.Exit(code)


def root_arg(root: Path | None) -> str | None:
    return str(root) if root is not None else None
