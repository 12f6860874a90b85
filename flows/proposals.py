"""proposals: the write gate for pages that agents' dream and proposal legs submit."""

from __future__ import annotations

from pathlib import Path

from prefect import flow, task
from prefect.cache_policies import NO_CACHE

from schemas.report import MemoryOperationReport
from tasks.proposals import process_in_chunks
from tasks.settings import MembankSettings, load_settings


@task(name="gate-and-apply-proposals", cache_policy=NO_CACHE)
def propose_batch_task(
    settings: MembankSettings, files: list[str] | None = None
) -> MemoryOperationReport:
    """One batch: gate every proposal in order, apply the accepted ones, file every one."""
    return process_in_chunks(settings, [Path(f) for f in files or []] or None)


@flow(name="proposals", log_prints=False)
def proposals_flow(
    files: list[str] | None = None, root: str | None = None
) -> MemoryOperationReport:
    """Gate the given proposal files, or everything in <root>/proposals/inbox/."""
    return propose_batch_task(load_settings(root), files)
