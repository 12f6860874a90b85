"""What every `membank` command shares: the --root and --json options, the consoles, and the
one-line error exit. Its own module so command modules import it without importing the CLI
(flows/cli/app.py imports them to register their commands)."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, NoReturn, TypeVar

import typer
from rich.console import Console

from tasks.store.errors import MembankError, from_os_error

# Lazy for start-up: tasks.store.contracts loads only when an error is described.

T = TypeVar("T")

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


_OWN_PACKAGES = frozenset({"flows", "tasks", "schemas"})


def missing_dependency(exc: ModuleNotFoundError) -> str:
    """The line for a package pyproject.toml requires that this environment lacks (installed
    before the requirement was added): not a bug in membank, and reinstalling mends it."""
    return (f"a required package is not installed: {exc.name} (hint: install membank's "
            "dependencies again: `.venv/bin/pip install -e .` in the project, as README's first "
            "command does)")


def one_line_errors(action: Callable[[], T],
                    explain: Callable[[Exception], str | None] | None = None) -> T:
    """`action()`, with every failure turned into one line on stderr and its exit code: our
    typed errors as they say, invalid settings, expected OS failures (disk full, permission
    denied), and `explain(exc)` for a command's own expected errors. Anything else is a bug and
    says so (MEMBANK_DEBUG=1 shows the traceback)."""
    from pydantic import ValidationError

    from tasks.store.contracts import describe_validation_error

    try:
        return action()
    except MembankError as exc:
        fail(exc.one_line(), exc.exit_code)
    except ValidationError as exc:
        fail(f"invalid setting: {describe_validation_error(exc)}", 2)
    except KeyboardInterrupt:
        fail("interrupted", 2)
    except Exception as exc:
        typed = from_os_error(exc) if isinstance(exc, OSError) else None
        if typed is not None:
            fail(typed.one_line(), typed.exit_code)
        if isinstance(exc, ModuleNotFoundError) and (exc.name or "").partition(".")[0] not in _OWN_PACKAGES:
            fail(missing_dependency(exc), 2)
        explained = explain(exc) if explain is not None else None
        if explained is not None:
            fail(explained, 2)
        if os.environ.get("MEMBANK_DEBUG"):
            raise
        fail(f"internal error: {type(exc).__name__}: {exc} (a bug: rerun with MEMBANK_DEBUG=1 "
             "for the traceback and report it)", 2)
