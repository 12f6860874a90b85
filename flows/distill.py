"""distill: new or changed sources -> entity pages and knowledge graph facts.

Three task steps; the writer lock is held from the first to the last (tasks/distill/writer.py),
so the plan and the writes see one state of the memory:

    open-distill          take the writer lock and plan which raw assets to read (manifest +
                          state only); retried on a recoverable error, as nothing is written yet
    (extraction cache)    the planned sources whose extraction is kept for their bytes and this
                          code are read from it (tasks/distill/extraction_cache.py), not extracted
    extract-facts-batch   one run per batch of the others on the flow's task runner (threads by
                          default; large runs in forked workers, see flows.engine.runners.workers_for)
    apply-distill         the single writer, given the open writer and the batches' futures
                          (waited for: an edge from each); commits and releases the lock
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from contextlib import AbstractContextManager, nullcontext, suppress
from typing import Any

from flows.engine.runners import call_in_worker, current_workers, workers_for
from flows.engine.stage import WRITER_RETRIES, stage_flow, stage_task
from schemas.report import MemoryOperationReport
from tasks.checks.scan_pool import collector_paused
from tasks.distill.extraction_cache import CACHE_FILE, ExtractionCache, Lookup, encoded_entry
from tasks.distill.plan import (
    DistillSource,
    ExtractOutcome,
    batches,
    extract_each,
    fewer_collections,
)
from tasks.distill.writer import DistillWriter
from tasks.store.settings import MembankSettings, load_settings


# Retried on a recoverable error (the lock held by another writer past the timeout, the clock
# unreadable): nothing of the distill is written before this phase returns.
@stage_task(name="open-distill", **WRITER_RETRIES)
def open_distill_task(settings: MembankSettings, reread_all: bool) -> DistillWriter:
    """Take the writer lock and plan."""
    return DistillWriter.open(settings, reread_all=reread_all)


@stage_task(name="extract-facts-batch")
def extract_batch_task(items: list[DistillSource]) -> list[list[ExtractOutcome]]:
    """Extract one batch here, or in one of the step's forked workers (workers_for); the
    outcomes grouped by item."""
    return call_in_worker(current_workers(), extract_each, items)


class Extracted:
    """Every planned source's outcomes in plan order: the cached ones, and the others drawn from
    the batches' futures as they finish; once all are drawn, the fresh extractions are kept in
    the cache. One object, not a collection: Prefect walks a task's collection arguments looking
    for futures, twice per call, and would find none here; the walk of a 10,000-source plan
    alone takes 0.7 s (measured), its extractions more."""

    def __init__(self, items: Sequence[DistillSource], lookup: Lookup, futures: Sequence[Any],
                 cache: ExtractionCache) -> None:
        self._items, self._lookup, self._futures = items, lookup, list(futures)
        self._cache = cache

    def __iter__(self) -> Iterator[ExtractOutcome]:
        fresh = (outcomes for future in self._futures for outcomes in future.result())
        entries = []
        for item, cached, key in zip(self._items, self._lookup.cached, self._lookup.keys,
                                     strict=True):
            if cached is not None:
                yield from cached
                continue
            outcomes = next(fresh)
            entry = encoded_entry(item, key, outcomes)  # (before the merge sees them)
            if entry is not None:
                entries.append(entry)
            yield from outcomes
        self._cache.store(entries)


@stage_task(name="apply-distill")
def apply_distill_task(writer: DistillWriter, extracted: Extracted) -> MemoryOperationReport:
    """Merge every extraction and write each file once; release the lock. The cyclic collector
    is paused meanwhile (tasks/checks/scan_pool.py): the writer loads the registry (50,000
    models at 100,000 pages), snapshots it twice and merges, and keeps all of it to the end, so
    each collection walks it again; its collections were 0.16 s of a one-note ingest's 3.7 s
    of cpu there. It makes next to no cycles (a whole ingest with the collector off left 1,994
    unreachable objects), and those are freed by the first collection after."""
    with collector_paused():
        return writer.finish(extracted)


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
    if not groups:  # every source was in the extraction cache
        return []
    if len(groups) == 1 and settings.task_runner == "threads":
        done: Future[list[list[ExtractOutcome]]] = Future()
        done.set_result(extract_batch_task(items=groups[0]))
        return [done]
    return extract_batch_task.map(items=groups)


@stage_flow(name="distill")
def distill_flow(root: str | None = None, reread_all: bool = False) -> MemoryOperationReport:
    """Distill sources not distilled yet (all of them with reread_all) into pages and the graph."""
    with fewer_collections():  # (forked extraction workers inherit it)
        return _distill(load_settings(root), reread_all)


def _distill(settings: MembankSettings, reread_all: bool) -> MemoryOperationReport:
    writer = open_distill_task(settings, reread_all)
    try:
        if writer.plan.empty:
            return writer.finish(())  # nothing to read: nothing written, the lock released
        items = writer.plan.to_read
        cache = ExtractionCache(settings.root / CACHE_FILE)
        try:
            lookup = cache.lookup(items)
            groups = batches(lookup.missing(items), settings.distill_batch_size)
            with _extract_workers(settings, groups):
                futures = _extract_step(settings, groups)
                # wait_for: each batch is an edge into the writer (merging starts once all are
                # in); a batch whose run failed raises its error here.
                return apply_distill_task.waiting_for(futures)(
                    writer, Extracted(items, lookup, futures, cache))
        finally:
            cache.close()
    except BaseException as exc:
        writer.abort(exc)  # a batch that failed, an interrupt: nothing half-written
        raise
