"""freshness audit: page and hub ages, changed sources, unconfirmed observations."""

from __future__ import annotations

from flows.engine.stage import stage_flow, stage_task
from flows.health import checked_and_published
from schemas.health import HealthSummary
from schemas.report import MemoryOperationReport
from tasks.checks.freshness import freshness_audit
from tasks.store.operation import reading_operation
from tasks.store.settings import MembankSettings, load_settings


@stage_task(name="audit-freshness")
def freshness_task(settings: MembankSettings) -> tuple[MemoryOperationReport, HealthSummary]:
    """One batch over the whole root; reads only."""
    with reading_operation(settings, "audit") as operation:
        return freshness_audit(operation)


@stage_flow(name="freshness-audit")
def freshness_flow(root: str | None = None) -> MemoryOperationReport:
    """What is going stale; writes nothing but its health summary."""
    settings = load_settings(root)
    return checked_and_published(settings, *freshness_task(settings))
