"""privacy audit as a Prefect task and flow, for the nightly job and deployments.

The one-shot CLI command (`membank audit privacy`) runs the same stage code in-process without
Prefect (flows/cli_privacy.py)."""

from __future__ import annotations

from prefect import flow, task
from prefect.cache_policies import NO_CACHE

from flows.reconcile import attach_health, publish_health_task
from schemas.health import HealthSummary
from schemas.report import MemoryOperationReport
from tasks.operation import begin_operation
from tasks.privacy.audit import privacy_audit
from tasks.settings import MembankSettings, load_settings


@task(name="audit-privacy", cache_policy=NO_CACHE)
def privacy_task(settings: MembankSettings) -> tuple[MemoryOperationReport, HealthSummary]:
    """Secrets and personal data stored under the root; reads only."""
    return privacy_audit(begin_operation(settings, "audit"))


@flow(name="privacy-audit", log_prints=False)
def privacy_flow(root: str | None = None) -> MemoryOperationReport:
    """Writes nothing but its health summary."""
    settings = load_settings(root)
    report, summary = privacy_task(settings)
    return attach_health(report, summary, publish_health_task(settings, summary))
