"""The commands that run the pipeline's flows: init, ingest, distill, run, reconcile, audit
freshness, health, propose, serve. Each imports its flow when it runs (start-up stays small);
flows/cli/app.py registers them."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, NoReturn, cast

# Quiet when healthy: Prefect's INFO chatter is for `membank serve`, not for one-shot commands.
os.environ.setdefault("PREFECT_LOGGING_LEVEL", "WARNING")

import typer

from flows.cli.common import JsonOption, RootOption, fail, one_line_errors, root_arg, stdout
from flows.render import render_report
from schemas.report import MemoryOperationReport
from tasks.store.errors import MembankError
from tasks.store.regex_cache import compiled_from_cache

# Lazy for start-up: each command imports its flow and stages when it runs (`membank --help`
# costs 0.34 s CPU; with every command's modules imported, 3.4 s). The command modules imported
# above import nothing heavy at module level.

if TYPE_CHECKING:
    from schemas.health import HealthKind



def execute(action: Callable[[], MemoryOperationReport], as_json: bool,
            root: Path | None = None) -> NoReturn:
    """Run a flow, print its report, exit with its code; errors become one clear line.

    Settings and the root are checked first, so a bad one costs no flow (and no Prefect)."""
    from tasks.store.operation import check_root
    from tasks.store.settings import load_settings

    def checked_then_run() -> MemoryOperationReport:
        check_root(load_settings(root_arg(root)).resolved_root())
        return action()

    report = one_line_errors(checked_then_run)
    if as_json:
        sys.stdout.write(report.model_dump_json(indent=2) + "\n")
    elif load_settings(root_arg(root)).output_format == "markdown":
        sys.stdout.write(report.to_markdown())
    else:
        render_report(stdout, report)
    raise typer.Exit(report.exit_code())


def init(root: RootOption = None, as_json: JsonOption = False) -> None:
    """Create the memory tree, an empty graph and registry, index.md and log.md (idempotent)."""
    from flows.bootstrap import bootstrap_flow

    execute(lambda: bootstrap_flow(root=root_arg(root)), as_json, root)


def ingest(  # noqa: PLR0913 (a typer command: its parameters are its CLI options)
    paths: Annotated[list[Path], typer.Argument(help="Files, folders (walked recursively, sorted) "
                                                     "or glob patterns to ingest.")],
    root: RootOption = None,
    no_distill: Annotated[bool, typer.Option("--no-distill", help="Only ingest; do not distill "
                                             "the new sources afterwards.")] = False,
    allow_secrets: Annotated[bool, typer.Option("--allow-secrets", help="Store sources in which "
                                                "a secret was found anyway (recorded).")] = False,
    allow_long: Annotated[bool, typer.Option("--allow-long", help="Ingest MemoryCustodian files "
                                             "over their token budget anyway (reported).")] = False,
    as_json: JsonOption = False,
) -> None:
    """Store sources in raw/, write source (and shard) pages, then distill what is new.

    Markdown, plain text (.txt, .log), JSON / JSON Lines and HTML (shown as markdown).
    Identical bytes are a dedupe hit; a changed file is a new version that supersedes the old
    page; sources over the page limit become an index page plus shard pages. --no-distill
    stops after ingest."""
    from flows.cli.heap import keep_freed_heap

    keep_freed_heap()  # (its page faults: see the module)
    with compiled_from_cache("ingest"):  # (its ~1,300 patterns: see the module)
        from flows.ingest import ingest_flow

        if not no_distill:  # (flows.ingest imports it when it distills: its patterns here)
            import flows.distill  # noqa: F401

    execute(lambda: ingest_flow(paths=[str(p) for p in paths], root=root_arg(root),
                                distill=not no_distill, allow_secrets=allow_secrets,
                                allow_long=allow_long), as_json, root)


def distill(
    root: RootOption = None,
    reread_all: Annotated[
        bool, typer.Option("--all", help="Re-read every source, not only new ones.")
    ] = False,
    as_json: JsonOption = False,
) -> None:
    """Distill new or changed sources into entity pages and the knowledge graph."""
    with compiled_from_cache("distill"):  # (its ~1,300 patterns: see the module)
        from flows.distill import distill_flow

    execute(lambda: distill_flow(root=root_arg(root), reread_all=reread_all), as_json, root)


def run(
    paths: Annotated[list[Path] | None, typer.Argument(help="Sources to ingest first.")] = None,
    root: RootOption = None,
    as_json: JsonOption = False,
) -> None:
    """The main job: every stage in order, then a short summary."""
    with compiled_from_cache("run"):  # (its ~1,300 patterns: see the module)
        from flows.run import run_flow

    execute(lambda: run_flow(paths=[str(p) for p in paths or []], root=root_arg(root)), as_json, root)


def reconcile(
    root: RootOption = None,
    check: Annotated[bool, typer.Option("--check", help="Validate only: write nothing but the "
                                        "health summary.")] = False,
    as_json: JsonOption = False,
) -> None:
    """Validate every quality gate, repair what is safe, report the rest (exit 0 healthy).

    Repairs: sort and dedup, index.md and hub resync, missing entity pages and registry entries,
    conflicting facts superseded with a link to the newer one. Never deletes a file or a fact.
    """
    if check:  # writes only its summary and ends; a repair run forks workers (scan_pool)
        from flows.cli.heap import keep_freed_heap

        keep_freed_heap()  # (its page faults: see the module)
    from flows.reconcile import reconcile_flow

    execute(lambda: reconcile_flow(root=root_arg(root), check=check), as_json, root)


def audit_freshness(root: RootOption = None, as_json: JsonOption = False) -> None:
    """What is going stale: page and hub ages, changed sources, unconfirmed observations.

    Writes nothing but its health summary; exit 0 healthy, 1 degraded or failing.
    """
    from flows.freshness import freshness_flow

    execute(lambda: freshness_flow(root=root_arg(root)), as_json, root)


def health(
    root: RootOption = None,
    output_format: Annotated[str, typer.Option("--format", help="json, md or prom.")] = "md",
    kind: Annotated[str | None, typer.Option("--kind", help="reconcile, freshness or privacy (default: "
                                             "the latest of either).")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Same as --format json.")] = False,
) -> None:
    """Print the latest health summary; exit 0 healthy, 1 degraded or failing, 2 none yet."""
    from tasks.health.files import load_latest
    from tasks.health.summary import prometheus_text, summary_markdown
    from tasks.store.settings import load_settings

    output_format = "json" if as_json else output_format
    if output_format not in {"json", "md", "prom"}:
        fail(f"--format must be json, md or prom, not {output_format!r}", 2)
    if kind not in {None, "reconcile", "freshness", "privacy"}:
        fail(f"--kind must be reconcile, freshness or privacy, not {kind!r}", 2)
    try:
        known = cast("HealthKind | None", kind)  # checked against the kinds above
        summary = load_latest(load_settings(root_arg(root)).resolved_root(), known)
    except MembankError as exc:
        fail(exc.one_line(), 2)
    if output_format == "json":
        sys.stdout.write(summary.model_dump_json(indent=2) + "\n")
    elif output_format == "prom":
        sys.stdout.write(prometheus_text(summary))
    else:
        sys.stdout.write(summary_markdown(summary))
    raise typer.Exit(summary.exit_code())


def propose(
    files: Annotated[
        list[Path] | None,
        typer.Argument(help="Proposal files (.md with frontmatter, or .json); none: the inbox."),
    ] = None,
    root: RootOption = None,
    as_json: JsonOption = False,
) -> None:
    """Gate proposals from dream/proposal legs: apply, reject with a reason, or dedupe."""
    from flows.proposals import proposals_flow

    execute(lambda: proposals_flow(files=[str(f) for f in files or []], root=root_arg(root)),
            as_json, root)


def serve(root: RootOption = None, as_json: JsonOption = False) -> None:
    """Serve every deployment with its schedule (starts the local Prefect server if needed).

    With --json, the served deployments are printed as one JSON line before serving starts."""
    from deployments.serve import serve_all
    from tasks.store.settings import load_settings

    try:
        serve_all(load_settings(root_arg(root)), as_json=as_json)
    except MembankError as exc:
        fail(exc.one_line(), exc.exit_code)
    except KeyboardInterrupt:
        raise typer.Exit(0) from None
