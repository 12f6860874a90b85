"""proposals: the write gate for pages that agents' dream and proposal legs submit."""

from __future__ import annotations

from pathlib import Path

from flows.engine.stage import WRITER_RETRIES, stage_flow, stage_task
from schemas.report import MemoryOperationReport
from tasks.proposals.apply import process_in_chunks
from tasks.store.settings import MembankSettings, load_settings


@stage_task(name="gate-and-apply-proposals", **WRITER_RETRIES)
def propose_batch_task(
    settings: MembankSettings, files: list[str] | None = None
) -> MemoryOperationReport:
    """One batch: gate every proposal in order, apply the accepted ones, file every one."""
    return process_in_chunks(settings, [Path(f) for f in files or []] or None)


@stage_flow(name="proposals")
def proposals_flow(
    files: list[str] | None = None, root: str | None = None
) -> MemoryOperationReport:
    """Gate the given proposal files, or everything in <root>/proposals/inbox/."""
    return propose_batch_task(load_settings(root), files)
