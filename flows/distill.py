"""distill: new or changed sources -> entity pages and knowledge graph facts.

The flow holds the writer lock from the plan to the last write, so the plan and the writer see
one state of the memory. Inside it, three task steps:

    plan-distill          which raw assets to read (manifest + state only)
    extract-facts-batch   one run per batch on the flow's task runner (threads by default;
                          large runs in forked workers, see flows.runners.workers_for)
    apply-distill         the single writer, given the plan and the batches' futures
                          (drawn in plan order as they finish)

The lock and the clock are taken in the flow body, the only place a recoverable error
(tasks.errors) can arise, so the tasks have nothing to retry.
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from contextlib import AbstractContextManager, nullcontext, suppress
from typing import Any

from flows.orchestration import stage_flow, stage_task
from flows.runners import call_in_worker, current_workers, workers_for
from schemas.report import MemoryOperationReport
from tasks.distill import (
    DistillPlan,
    DistillSource,
    ExtractOutcome,
    batches,
    distill_planned,
    extract_batch,
    nothing_to_distill,
    plan_distill,
)
from tasks.layout import MemoryLayout
from tasks.operation import Operation, writing_operation
from tasks.settings import MembankSettings, load_settings


@stage_task(name="plan-distill")
def plan_distill_task(layout: MemoryLayout, reread_all: bool) -> DistillPlan:
    return plan_distill(layout, reread_all=reread_all)


@stage_task(name="extract-facts-batch")
def extract_batch_task(items: list[DistillSource]) -> list[ExtractOutcome]:
    """Extract one batch here, or in one of the step's forked workers (workers_for)."""
    return call_in_worker(current_workers(), extract_batch, items)


class PlannedBatches:
    """The plan and the extract step's futures, one per batch; iterating gives the outcomes in
    plan order as the batches finish. One object, not a collection: Prefect walks a task's
    collection arguments looking for futures, twice per call, and finds none here; the walk of a
    10,000-source plan alone takes 0.7 s (measured), its extractions more."""

    def __init__(self, plan: DistillPlan, futures: Sequence[Any]) -> None:
        self.plan = plan
        self._futures = list(futures)

    def __iter__(self) -> Iterator[ExtractOutcome]:
        for future in self._futures:
            yield from future.result()


@stage_task(name="apply-distill")
def apply_distill_task(
    operation: Operation, planned: PlannedBatches, started: float
) -> MemoryOperationReport:
    """Merge every extraction and write each file once; `started`: when planning began."""
    return distill_planned(operation, planned.plan, planned, started)


def _raw_bytes(groups: list[list[DistillSource]]) -> int:
    total = 0
    for group in groups:
        for item in group:
            with suppress(OSError):  # a missing raw file is reported by the extraction
                total += item.raw_file.stat().st_size
    return total


def _extract_workers(
    settings: MembankSettings, groups: list[list[DistillSource]]
) -> AbstractContextManager[ProcessPoolExecutor | None]:
    # One batch has nothing to run beside it: no workers to fork.
    return workers_for(settings, _raw_bytes(groups)) if len(groups) > 1 else nullcontext()


def _extract_step(settings: MembankSettings, groups: list[list[DistillSource]]) -> list[Any]:
    """The futures of one extract run per batch; one batch on threads runs here, as one run."""
    if len(groups) == 1 and settings.task_runner == "threads":
        done: Future[list[ExtractOutcome]] = Future()
        done.set_result(extract_batch_task(items=groups[0]))
        return [done]
    return extract_batch_task.map("items", groups)


@stage_flow(name="distill")
def distill_flow(root: str | None = None, reread_all: bool = False) -> MemoryOperationReport:
    """Distill sources not distilled yet (all of them with reread_all) into pages and the graph."""
    settings = load_settings(root)
    with writing_operation(settings, "distill") as operation:
        started = time.perf_counter()
        plan = plan_distill_task(operation.layout, reread_all)
        if plan.empty:
            return nothing_to_distill(operation.report, plan)
        groups = batches(plan.to_read, settings.distill_batch_size)
        with _extract_workers(settings, groups):
            futures = _extract_step(settings, groups)
            return apply_distill_task(operation, PlannedBatches(plan, futures), started)
