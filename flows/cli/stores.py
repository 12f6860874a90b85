"""`membank check mem|custodian PATH`: audit a .mem JSONL store or a MemoryCustodian tree.

Read-only: never writes into the store or the memory root, never imports Prefect. Exit 0 no
warning or error, 1 findings, 2 could not run (missing path, no store)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, NoReturn

import orjson
import typer
from rich.console import Console

from tasks.store.errors import MembankError

# Lazy for start-up: each command imports its flow and stages when it runs (`membank --help`
# costs 0.34 s CPU; with every command's modules imported, 3.4 s).

check_app = typer.Typer(help="Check a repository's own memory store against its rules (read-only).",
                        no_args_is_help=True)
_out = Console(soft_wrap=True, highlight=False)
_err = Console(stderr=True, soft_wrap=True, highlight=False)

PathArgument = Annotated[Path, typer.Argument(help="The store folder, or a repository holding it.")]
JsonOption = Annotated[bool, typer.Option("--json", help="Print the findings as JSON on stdout.")]


def _finish(audit: object, as_json: bool) -> NoReturn:
    from tasks.memstores.audit import StoreAudit

    assert isinstance(audit, StoreAudit)
    if as_json:
        document = {"kind": audit.kind, "stores": audit.stores, "counts": audit.counts,
                    "findings": [f.model_dump(mode="json") for f in audit.findings]}
        sys.stdout.write(orjson.dumps(document, option=orjson.OPT_INDENT_2).decode() + "\n")
    else:
        for item in audit.findings:
            _out.print(f"{item.path}: {item.severity} {item.code}: {item.message}", markup=False)
        problems = sum(1 for f in audit.findings if f.severity != "info")
        figures = ", ".join(f"{k} {v}" for k, v in sorted(audit.counts.items()))
        verdict = f"{problems} finding(s)" if problems else "ok"
        _out.print(f"membank check {audit.kind}: {verdict} in {', '.join(audit.stores)} ({figures})",
                   markup=False)
    raise typer.Exit(audit.exit_code())


def _fail(exc: MembankError) -> NoReturn:
    _err.print(f"membank: error: {exc.one_line()}", markup=False)
    raise typer.Exit(2)


@check_app.command("mem")
def check_mem(path: PathArgument, as_json: JsonOption = False) -> None:
    """Apply mem-jsonl.md's rules (§2-§7) to every .mem/ store at or under PATH."""
    from tasks.memstores.audit import audit_mem

    try:
        audit = audit_mem(path)
    except MembankError as exc:
        _fail(exc)
    _finish(audit, as_json)


@check_app.command("custodian")
def check_custodian(
    path: PathArgument,
    as_json: JsonOption = False,
    every: Annotated[bool, typer.Option("--all", help="Every memory directory under PATH, "
                                        "not only the first.")] = False,
    reachability: Annotated[bool, typer.Option(
        "--reachability", help="Only the reachability rule: active entries that no manifest "
        "route or module loads.")] = False,
) -> None:
    """Apply MemoryCustodian's rules (manifest routes, admission, scopes, reachability,
    conflicts, supersession, token budgets, freshness, brief.md and the project's AGENTS.md /
    CLAUDE.md / GEMINI.md) to the docs/memory/ tree at or under PATH."""
    from tasks.memstores.audit import audit_custodian, custodian_options
    from tasks.store.clock import clock_from_settings, iso_utc
    from tasks.store.settings import load_settings

    try:
        settings = load_settings()
        options = custodian_options(settings, iso_utc(clock_from_settings(settings).now()))
        audit = audit_custodian(path, options, every=every)
    except MembankError as exc:
        _fail(exc)
    if reachability:
        audit.findings = [f for f in audit.findings
                          if f.code in ("mc_entry_unreachable", "mc_manifest_missing")]
    _finish(audit, as_json)
