"""bootstrap: create the missing core tree, an empty graph and registry, index.md and log.md."""

from __future__ import annotations

from flows.engine.stage import WRITER_RETRIES, stage_flow, stage_task
from schemas.report import MemoryOperationReport
from tasks.bootstrap import bootstrap_memory
from tasks.store.operation import writing_operation
from tasks.store.settings import MembankSettings, load_settings


@stage_task(name="bootstrap-memory-root", **WRITER_RETRIES)
def bootstrap_memory_task(settings: MembankSettings) -> MemoryOperationReport:
    with writing_operation(settings, "bootstrap") as operation:
        return bootstrap_memory(operation)


@stage_flow(name="bootstrap")
def bootstrap_flow(root: str | None = None) -> MemoryOperationReport:
    """Create what is missing of the memory tree; change nothing that exists."""
    return bootstrap_memory_task(load_settings(root))
