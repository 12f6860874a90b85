"""nightly: the scheduled job. Reconcile (repairing what is safe), then the freshness and
privacy audits."""

from __future__ import annotations

from flows.health import closing_health_checks
from flows.orchestration import stage_flow
from schemas.report import MemoryOperationReport
from tasks.store.operation import begin_operation, combine_stages
from tasks.store.settings import load_settings


@stage_flow(name="nightly-reconcile")
def nightly_flow(root: str | None = None) -> MemoryOperationReport:
    """reconcile -> freshness audit -> privacy audit; each writes its health summary under
    context/health/."""
    settings = load_settings(root)
    summary = begin_operation(settings, "reconcile").report
    closing_health_checks(settings, summary, privacy=True)
    return combine_stages(summary)
