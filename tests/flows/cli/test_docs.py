"""README.md's command table is the CLI: every command has a row, and every option of a
command is named in its row (--root and --json are described once above the table). The table
reads in one pass: each row says what its command does in one short line, and the detail is in
a section per command below it."""

from __future__ import annotations

import re
from typing import Any

import typer.main

from flows.cli.app import app
from tests.conftest import REPO_ROOT

DESCRIBED_ONCE = {"--root", "--json", "--help"}


def cli_commands() -> dict[str, Any]:
    """`name` or `group name` -> the (click) command, for every command the CLI has."""
    group: Any = typer.main.get_command(app)
    found: dict[str, Any] = {}
    for name, command in group.commands.items():
        if hasattr(command, "commands"):
            found.update({f"{name} {sub}": c for sub, c in command.commands.items()})
        else:
            found[name] = command
    return found


def readme_rows() -> dict[str, str]:
    """The command table's rows by command name (`membank audit freshness ...` -> `audit freshness`)."""
    rows: dict[str, str] = {}
    for line in (REPO_ROOT / "README.md").read_text().splitlines():
        if not line.startswith("| `membank "):
            continue
        first_cell = line.split(" | ", 1)[0]  # may name several: `membank a X` / `membank b Y`
        for match in re.finditer(r"`membank ([a-z][a-z-]*(?: [a-z][a-z-]*)*)", first_cell):
            rows.setdefault(match.group(1), line)
    return rows


def test_every_command_has_a_readme_row_naming_its_options() -> None:
    rows = readme_rows()
    for name, command in cli_commands().items():
        assert name in rows, f"README.md's command table has no row for `membank {name}`"
        options = {opt for p in command.params if p.param_type_name == "option" for opt in p.opts}
        for option in sorted(options - DESCRIBED_ONCE):
            assert option in rows[name], f"`membank {name}`: {option} is not in its README row"


def test_every_readme_row_is_a_command() -> None:
    commands = cli_commands()
    for name in readme_rows():
        assert name in commands, f"README.md describes `membank {name}`, which does not exist"


ROW_WORDS = 20


def test_every_row_is_one_short_line_with_its_section_below() -> None:
    readme = (REPO_ROOT / "README.md").read_text()
    headings = [line for line in readme.splitlines() if line.startswith("### ")]
    table_end = readme.index("\n\n", readme.index("| command | what it does |"))
    for name, row in readme_rows().items():
        what = row.rstrip(" |").rsplit(" | ", 1)[1]
        assert len(what.split()) <= ROW_WORDS, f"`membank {name}`: its row says {len(what.split())} words"
        assert any(f"`membank {name}`" in heading for heading in headings), f"no section for `membank {name}`"
        section = readme.index(next(h for h in headings if f"`membank {name}`" in h))
        assert section > table_end, f"`membank {name}`: its section is above the table"
