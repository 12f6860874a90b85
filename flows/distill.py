"""distill: new or changed sources -> entity pages and knowledge graph facts.

Extraction runs in batches on the flow's task runner (threads by default); one writer merges.
"""

from __future__ import annotations

from prefect import flow, task
from prefect.cache_policies import NO_CACHE
from prefect.task_runners import ThreadPoolTaskRunner

from schemas.report import MemoryOperationReport
from tasks.distill import ExtractOutcome, SourceInput, distill_memory, extract_batch
from tasks.operation import writing_operation
from tasks.settings import load_settings


@task(name="extract-facts-batch", cache_policy=NO_CACHE)
def extract_batch_task(items: list[SourceInput]) -> list[ExtractOutcome]:
    return extract_batch(items)


def extract_on_task_runner(groups: list[list[SourceInput]]) -> list[ExtractOutcome]:
    """Submit every batch, then collect results in submission order (deterministic)."""
    futures = [extract_batch_task.submit(group) for group in groups]
    return [outcome for future in futures for outcome in future.result()]


@flow(name="distill", task_runner=ThreadPoolTaskRunner(max_workers=2))
def distill_flow(root: str | None = None, reread_all: bool = False) -> MemoryOperationReport:
    """Distill sources not distilled yet (all of them with reread_all) into pages and the graph."""
    settings = load_settings(root)
    with writing_operation(settings, "distill") as operation:
        return distill_memory(
            operation,
            reread_all=reread_all,
            extractor=extract_on_task_runner,
            batch_size=settings.distill_batch_size,
        )
