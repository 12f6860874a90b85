"""freshness audit: page and hub ages, changed sources, unconfirmed observations."""

from __future__ import annotations

from prefect import flow, task
from prefect.cache_policies import NO_CACHE

from flows.reconcile import attach_health, publish_health_task
from schemas.health import HealthSummary
from schemas.report import MemoryOperationReport
from tasks.freshness import freshness_audit
from tasks.operation import reading_operation
from tasks.settings import MembankSettings, load_settings


@task(name="audit-freshness", cache_policy=NO_CACHE)
def freshness_task(settings: MembankSettings) -> tuple[MemoryOperationReport, HealthSummary]:
    """One batch over the whole root; reads only."""
    with reading_operation(settings, "audit") as operation:
        return freshness_audit(operation)


@flow(name="freshness-audit", log_prints=False)
def freshness_flow(root: str | None = None) -> MemoryOperationReport:
    """What is going stale; writes nothing but its health summary."""
    settings = load_settings(root)
    report, summary = freshness_task(settings)
    return attach_health(report, summary, publish_health_task(settings, summary))
