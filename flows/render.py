"""Readable rendering of reports for people (rich); --json prints the model instead."""

from __future__ import annotations

from collections import Counter

from rich.console import Console
from rich.markup import escape

from schemas.report import MemoryOperationReport

_STATUS_STYLE = {"success": "green", "partial": "yellow", "failed": "red"}
_MAX_LISTED = 15
# Figures printed on their own, as the last line (the health summary of reconcile/audit/run).
_LAST_LINE_FIGURES = ("health_summary",)


def _summary_line(report: MemoryOperationReport) -> str:
    actions = Counter(a.action for a in report.artifacts)
    parts = [f"{count} {action.replace('_', ' ')}" for action, count in sorted(actions.items())]
    delta = report.graph_delta
    if any(delta.model_dump().values()):
        parts.append(
            f"graph +{delta.entities_added_count} entities +{delta.relations_added_count} relations "
            f"+{delta.observations_added_count} observations, {delta.superseded_records_count} superseded"
        )
    parts += [f"{k}: {v}" for k, v in report.figures.items() if k not in _LAST_LINE_FIGURES]
    if report.problems:
        parts.append(f"{len(report.problems)} problem(s)")
    return ", ".join(parts) or "nothing to do"


def _warnings(report: MemoryOperationReport) -> list[str]:
    """Consistency warnings of the run and its stages that no problem line already says (e.g.
    a search index update that failed after the write succeeded)."""
    said = {p.one_line() for r in (report, *report.stages) for p in r.problems}
    found = [w for r in (report, *report.stages) for w in r.memory_health.consistency_warnings]
    return [w for w in dict.fromkeys(found) if w not in said]


def render_report(console: Console, report: MemoryOperationReport) -> None:
    style = _STATUS_STYLE[report.status]
    console.print(
        f"[bold]{report.mode}[/] [{style}]{report.status}[/] at {report.memory_write_timestamp_utc}: "
        f"{escape(_summary_line(report))}"
    )
    for stage in report.stages:
        stage_style = _STATUS_STYLE[stage.status]
        summary = escape(_summary_line(stage))
        console.print(f"  {stage.mode:<10} [{stage_style}]{stage.status:<8}[/] {summary}")
    if not report.stages:
        changed = [a for a in report.artifacts if a.action not in {"unchanged", "read"}]
        for artifact in changed[:_MAX_LISTED]:
            console.print(f"  {artifact.action:<10} {escape(artifact.path)}", highlight=False)
        if len(changed) > _MAX_LISTED:
            console.print(f"  ... and {len(changed) - _MAX_LISTED} more (--json lists all)")
    for problem in report.problems:
        console.print(f"  [red]{problem.code}[/] {escape(problem.one_line())}", highlight=False)
    for warning in _warnings(report):
        console.print(f"  [yellow]warning[/] {escape(warning)}", highlight=False)
    for key in _LAST_LINE_FIGURES:
        if key in report.figures:
            console.print(escape(str(report.figures[key])), highlight=False)
