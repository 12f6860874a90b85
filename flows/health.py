"""The health tail every checking flow shares: write the summary's files, publish it to
Prefect when tracked (markdown and table artifacts, a membank.health.* event for automations),
attach it to the stage report. Prefect is imported only inside a tracked run."""

from __future__ import annotations

from pathlib import Path

from flows.engine.stage import in_prefect_run, stage_task
from schemas.health import HealthSummary
from schemas.report import MemoryOperationReport
from tasks.health.files import record_health
from tasks.health.summary import findings_table, summary_line, summary_markdown
from tasks.store.report import HealthFigures, StageReport
from tasks.store.settings import MembankSettings


@stage_task(name="publish-health-summary")
def publish_health_task(settings: MembankSettings, summary: HealthSummary, *,
                        draw_graph_view: bool = True) -> dict[str, str]:
    """Write context/health/ files (the knowledge view unless not `draw_graph_view`); under
    Prefect also the artifacts (markdown summary, findings) and, when the memory is not
    healthy, a membank.health.* event for automations."""
    paths = record_health(settings, summary, draw_graph_view=draw_graph_view)
    if in_prefect_run():
        publish_prefect_artifacts(summary, settings.resolved_root() / paths["dashboard"])
        emitted = emit_health_event(summary)
        if emitted:
            paths["event"] = emitted
    return paths


def attach_health(report: MemoryOperationReport, summary: HealthSummary,
                  paths: dict[str, str]) -> MemoryOperationReport:
    stage = StageReport.resume(report)
    stage.note_figures(HealthFigures(
        health=summary.status, health_summary=summary_line(summary, paths["latest"]),
        health_history_pruned=int(paths["pruned"]) if "pruned" in paths else None))
    return stage.finish()


def checked_and_published(settings: MembankSettings, report: MemoryOperationReport,
                          summary: HealthSummary, *, draw_graph_view: bool = True
                          ) -> MemoryOperationReport:
    return attach_health(report, summary, publish_health_task(
        settings, summary, draw_graph_view=draw_graph_view))


def publish_prefect_artifacts(summary: HealthSummary, dashboard: Path | None = None) -> bool:
    """A markdown summary (linking the dashboard file) and a findings table, when running
    inside a Prefect flow or task."""
    if not in_prefect_run():
        return False
    from prefect.artifacts import create_markdown_artifact, create_table_artifact

    markdown = summary_markdown(summary)
    if dashboard is not None:
        markdown += f"\nDashboard: [{dashboard}]({dashboard.resolve().as_uri()})\n"
    create_markdown_artifact(markdown=markdown,
                             key=f"membank-{summary.kind}-health",
                             description=summary_line(summary))
    create_table_artifact(table=findings_table(summary) or [{"severity": "", "code": "none",
                                                             "path": "", "message": "no findings",
                                                             "hint": ""}],
                          key=f"membank-{summary.kind}-findings",
                          description=f"{summary.kind} findings ({summary.status})")
    return True


def health_event(summary: HealthSummary) -> tuple[str, dict[str, str], dict[str, object]] | None:
    """The Prefect event an unhealthy summary raises: (name, resource, payload), or None."""
    if summary.status == "healthy":
        return None
    resource = {
        "prefect.resource.id": f"membank.memory-root.{summary.project}",
        "prefect.resource.name": summary.root,
        "membank.kind": summary.kind,
    }
    payload: dict[str, object] = {
        "status": summary.status,
        "status_rule": summary.status_rule,
        "generated_at": summary.generated_at,
        "counts": summary.counts.model_dump(mode="json"),
    }
    return f"membank.health.{summary.status}", resource, payload


def emit_health_event(summary: HealthSummary) -> str | None:
    """Emit membank.health.degraded / .failing so Prefect automations can alert."""
    event = health_event(summary)
    if event is None:
        return None
    from prefect.events import emit_event

    name, resource, payload = event
    emit_event(event=name, resource=resource, payload=payload)
    return name
