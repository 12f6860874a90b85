"""nightly: the scheduled job. Reconcile (repairing what is safe), then the freshness and
privacy audits; closing_health_checks is also how `run` ends."""

from __future__ import annotations

from flows.engine.stage import stage_flow
from flows.freshness import freshness_task
from flows.health import checked_and_published
from flows.privacy import privacy_task
from flows.reconcile import reconcile_task
from schemas.report import MemoryOperationReport
from tasks.health.summary import summary_line
from tasks.store.layout import HEALTH_DIR
from tasks.store.operation import begin_operation, roll_up_stages
from tasks.store.report import HealthFigures, StageReport
from tasks.store.settings import MembankSettings, load_settings


def closing_health_checks(settings: MembankSettings, summary: StageReport, *,
                          privacy: bool = False) -> None:
    """reconcile (repairing what is safe) then the freshness audit (then, with `privacy`, the
    privacy audit), each published, appended to `summary`'s stages, with the one health line
    both jobs end with."""
    reconcile_report, reconcile_health = reconcile_task(settings)
    summary.adopt(checked_and_published(settings, reconcile_report, reconcile_health))
    freshness_report, freshness_health = freshness_task(settings)
    summary.adopt(checked_and_published(settings, freshness_report, freshness_health))
    line = f"{summary_line(reconcile_health)}; freshness {freshness_health.status}"
    files = "latest-reconcile.json, latest-freshness.json"
    if privacy:
        privacy_report, privacy_health = privacy_task(settings)
        summary.adopt(checked_and_published(settings, privacy_report, privacy_health))
        line += f"; privacy {privacy_health.status}"
        files += ", latest-privacy.json"
    summary.note_figures(HealthFigures(health_summary=f"{line} -> {HEALTH_DIR}/{files}"))


@stage_flow(name="nightly-reconcile")
def nightly_flow(root: str | None = None) -> MemoryOperationReport:
    """reconcile -> freshness audit -> privacy audit; each writes its health summary under
    context/health/."""
    settings = load_settings(root)
    summary = begin_operation(settings, "reconcile").stage
    closing_health_checks(settings, summary, privacy=True)
    return roll_up_stages(summary)
