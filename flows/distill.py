"""distill: new or changed sources -> entity pages and knowledge graph facts.

Extraction runs in batches on the flow's task runner (threads by default; large runs in forked
workers, see flows.runners.workers_for); one writer merges.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from contextlib import nullcontext, suppress

from flows.orchestration import stage_flow, stage_task
from flows.runners import call_in_worker, map_batches, workers_for
from schemas.report import MemoryOperationReport
from tasks.distill import DistillSource, ExtractOutcome, distill_memory, extract_batch
from tasks.operation import writing_operation
from tasks.settings import MembankSettings, load_settings


@stage_task(name="extract-facts-batch")
def extract_batch_task(
    items: list[DistillSource], workers: ProcessPoolExecutor | None = None
) -> list[ExtractOutcome]:
    return call_in_worker(workers, extract_batch, items)


def _raw_bytes(groups: list[list[DistillSource]]) -> int:
    total = 0
    for group in groups:
        for item in group:
            with suppress(OSError):  # a missing raw file is reported by the extraction
                total += item.raw_file.stat().st_size
    return total


def extractor_on_task_runner(
    settings: MembankSettings,
) -> Callable[[list[list[DistillSource]]], list[ExtractOutcome]]:
    """Extraction over batches on the configured task runner, results in submission order."""

    def extract(groups: list[list[DistillSource]]) -> list[ExtractOutcome]:
        # One batch has nothing to run beside it: no workers to fork.
        workers = workers_for(settings, _raw_bytes(groups)) if len(groups) > 1 else nullcontext()
        with workers as pool:
            outcomes = map_batches(extract_batch_task, groups, settings, parameter="items",
                                   workers=pool)
        return [outcome for batch in outcomes for outcome in batch]

    return extract


@stage_flow(name="distill")
def distill_flow(root: str | None = None, reread_all: bool = False) -> MemoryOperationReport:
    """Distill sources not distilled yet (all of them with reread_all) into pages and the graph."""
    settings = load_settings(root)
    with writing_operation(settings, "distill") as operation:
        return distill_memory(
            operation,
            reread_all=reread_all,
            extractor=extractor_on_task_runner(settings),
            batch_size=settings.distill_batch_size,
        )
