"""privacy audit: secrets and personal data stored under the root (reads only).

`membank audit privacy` runs it in-process like every one-shot command; the nightly job runs it
after reconcile and the freshness audit."""

from __future__ import annotations

from flows.engine.stage import stage_flow, stage_task
from flows.health import checked_and_published
from schemas.health import HealthSummary
from schemas.report import MemoryOperationReport
from tasks.privacy.audit import privacy_audit
from tasks.store.operation import reading_operation
from tasks.store.settings import MembankSettings, load_settings


@stage_task(name="audit-privacy")
def privacy_task(settings: MembankSettings) -> tuple[MemoryOperationReport, HealthSummary]:
    """Secrets and personal data stored under the root; reads only, like the other audits
    under the shared lock, so no writer's batch is read half-done."""
    with reading_operation(settings, "audit") as operation:
        return privacy_audit(operation)


@stage_flow(name="privacy-audit")
def privacy_flow(root: str | None = None) -> MemoryOperationReport:
    """Writes nothing but its health summary."""
    settings = load_settings(root)
    return checked_and_published(settings, *privacy_task(settings))
