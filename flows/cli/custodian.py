"""`membank custodian status|list|subjects PATH`: memory-custodian's read commands (`status`,
`list --status active`, `subject list`) over the docs/memory/ tree at or under PATH.

Read-only: the write commands (add, subject add, enable, migrate, compact) stay the
memory-custodian CLI's own (MC24). Exit 0, or 2 when there is no tree; never imports Prefect."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, NoReturn

import orjson
import typer
from rich.console import Console

from tasks.store.errors import MembankError

if TYPE_CHECKING:
    from tasks.memstores.custodian import CustodianTree

custodian_app = typer.Typer(help="Read a repository's MemoryCustodian docs/memory/ tree "
                            "(status, entries, Subjects; read-only).", no_args_is_help=True)
_out = Console(soft_wrap=True, highlight=False)
_err = Console(stderr=True, soft_wrap=True, highlight=False)

PathArgument = Annotated[Path, typer.Argument(help="The docs/memory/ folder, or a repository "
                                              "holding it.")]
JsonOption = Annotated[bool, typer.Option("--json", help="Print JSON on stdout.")]


def _tree(path: Path) -> tuple[str, CustodianTree]:
    import os

    from tasks.memstores.check import custodian_roots
    from tasks.memstores.custodian import read_custodian

    try:
        [root] = custodian_roots(path)[:1]
    except MembankError as exc:
        _err.print(f"membank: error: {exc.one_line()}", markup=False)
        raise typer.Exit(2) from None
    shown = str(root) if path.is_absolute() else os.path.relpath(root, Path.cwd())
    return shown, read_custodian(root)


def _json(document: object) -> NoReturn:
    sys.stdout.write(orjson.dumps(document, option=orjson.OPT_INDENT_2).decode() + "\n")
    raise typer.Exit(0)


@custodian_app.command("status")
def custodian_status(path: PathArgument, as_json: JsonOption = False) -> None:
    """Protocol version, entries by Status, Subjects, and each budgeted file's tokens with its
    NEAR LIMIT / OVER BUDGET state."""
    from tasks.memstores.custodian_views import status_view
    from tasks.store.settings import load_settings
    from tasks.store.tokens import count_tokens

    shown, tree = _tree(path)
    encoding = load_settings().tokenizer_encoding
    view = status_view(tree, lambda texts: count_tokens(texts, encoding, threads=1))
    if as_json:
        _json({"store": shown, **view})
    _out.print(f"{shown}: protocol {view['protocol_version'] or '?'}"
               f"{'' if view['manifest'] else ' (no manifest.md: incomplete setup)'}", markup=False)
    entries = view["entries"]
    assert isinstance(entries, dict)
    _out.print("entries: " + (", ".join(f"{k} {v}" for k, v in entries.items()) or "none")
               + f"; subjects {view['subjects']}; files {view['files']}", markup=False)
    budgets = view["budgets"]
    assert isinstance(budgets, list)
    for item in budgets:
        _out.print(f"{item['file']}: {item['tokens']}/{item['budget']} tokens "
                   f"({item['tokens'] * 100 // item['budget']} %) {item['state']}", markup=False)


@custodian_app.command("list")
def custodian_list(
    path: PathArgument,
    status: Annotated[str | None, typer.Option(
        "--status", help="Only entries with this Status (active, superseded, candidate, "
        "promoted, rejected).")] = None,
    as_json: JsonOption = False,
) -> None:
    """Every entry (of one Status): Entry ID, Status, file:line and title, in file order."""
    from tasks.memstores.custodian_views import entry_rows

    shown, tree = _tree(path)
    rows = entry_rows(tree, status)
    if as_json:
        _json({"store": shown, "entries": rows})
    for row in rows:
        _out.print(f"{row['id']}  {row['status']}  {row['file']}:{row['line']}  {row['title']}",
                   markup=False)


@custodian_app.command("subjects")
def custodian_subjects(path: PathArgument, as_json: JsonOption = False) -> None:
    """`subject list`: every Subject of subjects.md with its status, kind and aliases."""
    from tasks.memstores.custodian_views import subject_rows

    shown, tree = _tree(path)
    rows = subject_rows(tree)
    if as_json:
        _json({"store": shown, "subjects": rows})
    for row in rows:
        aliases = row["aliases"]
        assert isinstance(aliases, list)
        _out.print(f"{row['id']}  {row['status'] or 'active'}  {row['kind'] or '-'}  "
                   f"{row['name']}" + (f"  (aliases: {', '.join(aliases)})" if aliases else ""),
                   markup=False)
