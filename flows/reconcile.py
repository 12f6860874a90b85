"""reconcile: validate every quality gate, repair what is safe, emit the health summary."""

from __future__ import annotations

from flows.engine.stage import WRITER_RETRIES, stage_flow, stage_task
from flows.health import checked_and_published
from schemas.health import HealthSummary
from schemas.report import MemoryOperationReport
from tasks.checks.reconcile import reconcile_memory
from tasks.store.operation import reading_operation, writing_operation
from tasks.store.settings import MembankSettings, load_settings


@stage_task(name="reconcile-memory-root", **WRITER_RETRIES)
def reconcile_task(
    settings: MembankSettings, check: bool = False
) -> tuple[MemoryOperationReport, HealthSummary]:
    """One batch over the whole root: cached scan, checks, repairs (unless check)."""
    if check:
        with reading_operation(settings, "reconcile") as operation:
            return reconcile_memory(operation, check=True)
    with writing_operation(settings, "reconcile") as operation:
        return reconcile_memory(operation, check=False)


@stage_flow(name="reconcile")
def reconcile_flow(root: str | None = None, check: bool = False) -> MemoryOperationReport:
    """Validate the memory against every quality gate; repair what is safe unless check.
    A check writes its health summary, but does not redraw the knowledge view (graph.html)."""
    settings = load_settings(root)
    return checked_and_published(settings, *reconcile_task(settings, check),
                                 draw_graph_view=not check)
