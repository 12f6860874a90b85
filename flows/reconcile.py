"""reconcile: validate every quality gate, repair what is safe, emit the health summary."""

from __future__ import annotations

from prefect import flow, task
from prefect.cache_policies import NO_CACHE

from schemas.health import HealthSummary
from schemas.report import MemoryOperationReport
from tasks.health import emit_health_event, one_line, publish_prefect_artifacts, write_health
from tasks.operation import reading_operation, writing_operation
from tasks.reconcile import reconcile_memory
from tasks.settings import MembankSettings, load_settings


@task(name="reconcile-memory-root", cache_policy=NO_CACHE)
def reconcile_task(
    settings: MembankSettings, check: bool = False
) -> tuple[MemoryOperationReport, HealthSummary]:
    """One batch over the whole root: cached scan, checks, repairs (unless check)."""
    if check:
        with reading_operation(settings, "reconcile") as operation:
            return reconcile_memory(operation, check=True)
    with writing_operation(settings, "reconcile") as operation:
        return reconcile_memory(operation, check=False)


@task(name="publish-health-summary", cache_policy=NO_CACHE)
def publish_health_task(settings: MembankSettings, summary: HealthSummary) -> dict[str, str]:
    """Write context/health/ files and the Prefect artifacts (markdown summary, findings); when
    the memory is not healthy, emit a membank.health.* event for automations."""
    paths = write_health(settings.resolved_root(), summary, keep_days=settings.health_history_days)
    publish_prefect_artifacts(summary)
    emitted = emit_health_event(summary)
    if emitted:
        paths["event"] = emitted
    return paths


def attach_health(report: MemoryOperationReport, summary: HealthSummary,
                  paths: dict[str, str]) -> MemoryOperationReport:
    report.figures["health"] = summary.status
    report.figures["health_summary"] = one_line(summary, paths["latest"])
    if "pruned" in paths:
        report.figures["health_history_pruned"] = int(paths["pruned"])
    return report


@flow(name="reconcile", log_prints=False)
def reconcile_flow(root: str | None = None, check: bool = False) -> MemoryOperationReport:
    """Validate the memory against every quality gate; repair what is safe unless check."""
    settings = load_settings(root)
    report, summary = reconcile_task(settings, check)
    return attach_health(report, summary, publish_health_task(settings, summary))
