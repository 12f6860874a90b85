"""`membank check mem|custodian PATH`: audit a .mem JSONL store or a MemoryCustodian tree.

Read-only: never writes into the store or the memory root, never imports Prefect. Exit 0 no
warning or error, 1 findings, 2 could not run (missing path, no store)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Any, NoReturn

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


# The merge status of several trees is the least established one.
_MERGE_ORDER = ("CLEAR", "REVIEW", "CONFLICT", "unavailable")


def _finish(audit: object, as_json: bool, reviews: list[Any] | None = None) -> NoReturn:
    from tasks.memstores.check import StoreAudit

    assert isinstance(audit, StoreAudit)
    status = max((r.status for r in reviews), key=_MERGE_ORDER.index) if reviews else None
    if as_json:
        document: dict[str, Any] = {"kind": audit.kind, "stores": audit.stores,
                                    "counts": audit.counts}
        if reviews is not None:
            document["status"] = status
            document["merge_review"] = [r.model_dump(mode="json") for r in reviews]
        document["findings"] = [f.model_dump(mode="json") for f in audit.findings]
        sys.stdout.write(orjson.dumps(document, option=orjson.OPT_INDENT_2).decode() + "\n")
    else:
        for item in audit.findings:
            _out.print(f"{item.path}: {item.severity} {item.code}: {item.message}", markup=False)
        for review in reviews or []:
            base = f"base {review.base[:12]}" if review.base else "no merge base"
            _out.print(f"merge review of {review.store} against {review.ref} ({base}): "
                       f"{review.status}: {review.detail}", markup=False)
        problems = sum(1 for f in audit.findings if f.severity != "info")
        figures = ", ".join(f"{k} {v}" for k, v in sorted(audit.counts.items()))
        verdict = f"{problems} finding(s)" if problems else "ok"
        merge = f"; merge status {status}" if status else ""
        _out.print(f"membank check {audit.kind}: {verdict} in {', '.join(audit.stores)} "
                   f"({figures}){merge}", markup=False)
    raise typer.Exit(audit.exit_code())


def _fail(exc: MembankError) -> NoReturn:
    _err.print(f"membank: error: {exc.one_line()}", markup=False)
    raise typer.Exit(2)


@check_app.command("mem")
def check_mem(path: PathArgument, as_json: JsonOption = False) -> None:
    """Apply mem-jsonl.md's rules (§2-§7) to every .mem/ store at or under PATH."""
    from tasks.memstores.check import audit_mem

    try:
        audit = audit_mem(path)
    except MembankError as exc:
        _fail(exc)
    _finish(audit, as_json)


@check_app.command("custodian")
def check_custodian(  # noqa: PLR0913 (a typer command: its parameters are its CLI options)
    path: PathArgument,
    as_json: JsonOption = False,
    every: Annotated[bool, typer.Option("--all", help="Every memory directory under PATH, "
                                        "not only the first.")] = False,
    reachability: Annotated[bool, typer.Option(
        "--reachability", help="Only the reachability rule: active entries that no manifest "
        "route or module loads.")] = False,
    conflicts: Annotated[bool, typer.Option(
        "--conflicts", help="Only the conflict rules: structural owners, Subject collisions, "
        "duplicate ids, supersession, reconciliation records, Exception-To links.")] = False,
    merge_base: Annotated[str | None, typer.Option(
        "--merge-base", metavar="REF", help="With --conflicts (implied): merge-aware review of "
        "merging REF into HEAD in a git work tree: CLEAR, REVIEW, CONFLICT or unavailable.")
    ] = None,
) -> None:
    """Apply MemoryCustodian's rules (manifest routes, admission, scopes, reachability,
    conflicts, supersession, token budgets, freshness, brief.md and the project's AGENTS.md /
    CLAUDE.md / GEMINI.md) to the docs/memory/ tree at or under PATH."""
    from tasks.memstores.check import audit_custodian, audit_merge, custodian_options
    from tasks.memstores.check_custodian import CONFLICT_CODES
    from tasks.store.clock import clock_from_settings, iso_utc
    from tasks.store.settings import load_settings

    reviews = None
    try:
        settings = load_settings()
        options = custodian_options(settings, iso_utc(clock_from_settings(settings).now()))
        audit = audit_custodian(path, options, every=every)
        if merge_base is not None:
            reviews, merged = audit_merge(path, merge_base, every=every)
            audit.findings += merged
    except MembankError as exc:
        _fail(exc)
    selected: set[str] = set()
    if reachability:
        selected |= {"mc_entry_unreachable", "mc_manifest_missing"}
    if conflicts or merge_base is not None:
        selected |= CONFLICT_CODES
    if selected:
        audit.findings = [f for f in audit.findings if f.code in selected]
    _finish(audit, as_json, reviews)
