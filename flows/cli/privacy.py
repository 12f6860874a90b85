"""`membank audit privacy` and `membank forget`: plain functions the CLI registers.

Neither imports Prefect: they run the stage code in-process (the privacy audit is read-only;
forget is one writer under the root lock)."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Annotated, NoReturn

import typer

from flows.cli.common import JsonOption, RootOption, fail, one_line_errors, stdout
from flows.render import render_report
from schemas.report import MemoryOperationReport

# Lazy for start-up: each command imports its flow and stages when it runs (`membank --help`
# costs 0.34 s CPU; with every command's modules imported, 3.4 s).

if TYPE_CHECKING:
    from tasks.privacy.forget import ForgetRequest, Mode


def render_forget(report: MemoryOperationReport) -> None:
    """The whole plan (or what was done), one line per change with its reason; nothing capped."""
    figures = report.figures
    head = "plan (nothing changed)" if not figures.get("applied") else "applied"
    stdout.print(f"forget --mode {figures.get('mode')}: {head}", markup=False, highlight=False)
    for item in report.artifacts:
        stdout.print(f"  {item.action:<9} {item.path}: {item.why}", markup=False, highlight=False)
    for problem in report.problems:
        stdout.print(f"  problem {problem.one_line()}", markup=False, highlight=False)
    counts = ", ".join(f"{k} {v}" for k, v in figures.items()
                       if k not in {"mode", "applied", "erasure_boundary", "next", "plan",
                                    "history_check"})
    stdout.print(counts, markup=False, highlight=False)
    stdout.print(f"plan {figures.get('plan')}", markup=False, highlight=False)
    if figures.get("history_check"):
        stdout.print(f"history check: {figures['history_check']}", markup=False, highlight=False)
    stdout.print(str(figures.get("erasure_boundary", "")), markup=False, highlight=False)
    if figures.get("next"):
        stdout.print(str(figures["next"]), markup=False, highlight=False)


def run_in_process(action: Callable[[], MemoryOperationReport], as_json: bool,
                   render: Callable[[MemoryOperationReport], None] | None = None) -> NoReturn:
    """Like flows.cli.stages.execute, without a Prefect run: print the report, exit with its code."""
    report = one_line_errors(action)
    if as_json:
        sys.stdout.write(report.model_dump_json(indent=2) + "\n")
    elif render is not None:
        render(report)
    else:
        render_report(stdout, report)
    raise typer.Exit(report.exit_code())


def privacy_audit_report(root: str | None, accept_all: bool = False) -> MemoryOperationReport:
    """Run the audit and write its health summary (no Prefect artifacts outside a flow)."""
    from tasks.health.files import record_health
    from tasks.privacy.audit import privacy_audit
    from tasks.store.operation import reading_operation, writing_operation
    from tasks.store.settings import load_settings

    settings = load_settings(root)
    if accept_all:
        with writing_operation(settings, "audit") as operation:
            report, summary = privacy_audit(operation, accept_all=True)
    else:
        with reading_operation(settings, "audit") as operation:
            report, summary = privacy_audit(operation)
    paths = record_health(settings, summary)
    from tasks.health.summary import summary_line
    from tasks.store.report import HealthFigures, StageReport

    stage = StageReport.resume(report)
    stage.note_figures(HealthFigures(health=summary.status,
                                     health_summary=summary_line(summary, paths["latest"])))
    return stage.finish()


def audit_privacy(
    root: RootOption = None,
    accept_all: Annotated[bool, typer.Option(
        "--update-baseline", help="Record every current finding in <root>/.secrets.baseline "
        "(accepted from then on; mark real ones \"is_secret\": true).")] = False,
    as_json: JsonOption = False,
) -> None:
    """Secrets and personal data stored in raw/, wiki/, context/ and proposals/.

    Findings name file, line, kind and a masked preview; never the value. Writes nothing but
    its health summary (kind privacy) and, with --update-baseline, the baseline; exit 0 none
    found, 1 found, 2 could not run."""
    run_in_process(lambda: privacy_audit_report(str(root) if root is not None else None, accept_all),
                   as_json)


def forget_report(root: str | None, request: ForgetRequest, *, apply: bool) -> MemoryOperationReport:
    from tasks.privacy.forget import forget_operation
    from tasks.store.operation import Operation, reading_operation, writing_operation
    from tasks.store.settings import load_settings

    settings = load_settings(root)

    def forget_with(operation: Operation) -> MemoryOperationReport:
        report: MemoryOperationReport = forget_operation(operation, request, apply=apply)
        return report

    if not apply:  # the plan reads a consistent root (a killed writer's batch recovered first)
        with reading_operation(settings, "forget") as operation:
            return forget_with(operation)
    with writing_operation(settings, "forget") as operation:
        return forget_with(operation)


def forget(  # noqa: PLR0913 (a typer command: its parameters are its CLI options)
    topic: Annotated[str | None, typer.Argument(help="Text to forget, matched case-insensitively.")] = None,
    entity: Annotated[str | None, typer.Option("--id", help="An entity (canonical name or alias): "
                                               "forget it and every name of it.")] = None,
    source: Annotated[str | None, typer.Option("--source", help="A raw source (raw/ path, asset id "
                                               "or ingested path): forget what came from it.")] = None,
    mode: Annotated[str, typer.Option("--mode", help="soft (active memory, tombstone names it), "
                                      "hard (also superseded history; hashed guard) or purge "
                                      "(also deletes the raw files).")] = "soft",
    apply: Annotated[bool, typer.Option("--apply", help="Carry the plan out (with --confirm-plan); "
                                        "without it nothing changes.")] = False,
    confirm_plan: Annotated[str | None, typer.Option(
        "--confirm-plan", metavar="HASH", help="With --apply: the hash of the plan you reviewed "
        "(the plan prints it); a different plan is refused.")] = None,
    allow_broad: Annotated[bool, typer.Option(
        "--allow-broad-match", help="With --apply: accept a short topic and remove the plan's "
        "needs_rewrite units (prose, tables, code) whole.")] = False,
    history_check: Annotated[bool, typer.Option(
        "--history-check", help="Also list the git commits that still hold it (bounded local "
        "evidence; git history is never rewritten).")] = False,
    root: RootOption = None,
    as_json: JsonOption = False,
) -> None:
    """Forget a topic, an entity or a source: print the complete plan, or apply it with --apply.

    The topic matches whole words of content, not paths. Whole list items and sections are
    removed, never part of a line; a match in prose, a table or code is marked needs_rewrite
    and --apply refuses it until rewritten (or --allow-broad-match). Pages left empty go, with
    their hub and index.md entries; a tombstone stops distill and ingest bringing it back.
    --apply takes --confirm-plan HASH of the plan shown. The report states the erasure
    boundary (git history, clones and backups outside the root are not touched)."""
    if mode not in {"soft", "hard", "purge"}:
        fail(f"--mode must be soft, hard or purge, not {mode!r}", 2)
    from tasks.privacy.forget import ForgetRequest

    chosen: Mode = "hard" if mode == "hard" else "purge" if mode == "purge" else "soft"
    request = ForgetRequest(topic=topic, entity=entity, source=source, mode=chosen,
                            confirm_plan=confirm_plan, allow_broad=allow_broad,
                            history_check=history_check)
    run_in_process(lambda: forget_report(str(root) if root is not None else None, request,
                                         apply=apply), as_json, render_forget)
