"""nightly: the scheduled job. Reconcile (repairing what is safe), then the freshness and
privacy audits."""

from __future__ import annotations

from prefect import flow

from flows.freshness import freshness_task
from flows.privacy import privacy_task
from flows.reconcile import attach_health, publish_health_task, reconcile_task
from schemas.report import MemoryOperationReport
from tasks.health import HEALTH_DIR, one_line
from tasks.operation import begin_operation, combine_stages
from tasks.settings import load_settings


@flow(name="nightly-reconcile", log_prints=False)
def nightly_flow(root: str | None = None) -> MemoryOperationReport:
    """reconcile -> freshness audit -> privacy audit; each writes its health summary under
    context/health/."""
    settings = load_settings(root)
    summary = begin_operation(settings, "reconcile").report
    reconcile_report, reconcile_health = reconcile_task(settings)
    summary.stages.append(attach_health(reconcile_report, reconcile_health,
                                        publish_health_task(settings, reconcile_health)))
    freshness_report, freshness_health = freshness_task(settings)
    summary.stages.append(attach_health(freshness_report, freshness_health,
                                        publish_health_task(settings, freshness_health)))
    privacy_report, privacy_health = privacy_task(settings)
    summary.stages.append(attach_health(privacy_report, privacy_health,
                                        publish_health_task(settings, privacy_health)))
    summary.figures["health_summary"] = (
        f"{one_line(reconcile_health)}; freshness {freshness_health.status}; privacy "
        f"{privacy_health.status} -> {HEALTH_DIR}/latest-reconcile.json, latest-freshness.json, "
        "latest-privacy.json")
    return combine_stages(summary)
