"""Where map steps run: threads (default), processes, or a Dask cluster through prefect-dask.

Map steps submit one task run per BATCH to the configured runner and return results in input
order; a single writer then applies them, so the result does not depend on the runner.

With threads, a step whose work is pure-Python parsing can hand it to `forked_workers`: threads
share one GIL, so the parsers and the writer would otherwise take turns on one core.
"""

from __future__ import annotations

import gc
import multiprocessing
import sys
import warnings
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, TypeVar

from flows.engine.stage import stage_logger
from tasks.store.settings import MembankSettings

R = TypeVar("R")


def split_batches(items: Sequence[R], *, workers: int, max_batch: int = 256) -> list[list[R]]:
    """Cut items into contiguous batches: at least one per worker, none bigger than max_batch."""
    if not items:
        return []
    count = max(workers, -(-len(items) // max_batch))
    size = -(-len(items) // count)
    return [list(items[i : i + size]) for i in range(0, len(items), size)]


def can_fork() -> bool:
    return sys.platform.startswith("linux") and "fork" in multiprocessing.get_all_start_methods()


@contextmanager
def forked_workers(count: int, *, initializer: Callable[[], None] | None = None
                   ) -> Iterator[ProcessPoolExecutor]:
    """`count` worker processes forked from this one, for pure CPU-bound functions.

    Forked, not spawned: a child starts in milliseconds with every module imported, where a
    spawned one imports the main module (and so Prefect) again, seconds each, which is what
    makes Prefect's process runner slow to start. Forking a process that has threads is safe
    only when the children take no lock another thread might have held at the fork, so they
    run pure functions alone: read a file, decode, parse, count tokens with a tokenizer they
    load themselves (`initializer`); never Prefect, logging, hashing or the network.
    """
    pool = ProcessPoolExecutor(count, mp_context=multiprocessing.get_context("fork"),
                               initializer=initializer)
    try:
        # Objects inherited from this process go to the permanent GC generation first, so the
        # children's collections never walk them: that was a tenth of their time, and every
        # walk copied the parent's pages (copy-on-write). The parent thaws them at once.
        gc.freeze()
        try:
            with warnings.catch_warnings():
                # Python 3.12+ warns on every fork of a threaded process; the children are pure.
                warnings.filterwarnings("ignore", category=DeprecationWarning, message=r".*fork\(\)")
                pool.submit(int).result()  # fork every worker now, before any batch thread starts
        finally:
            gc.unfreeze()
        yield pool
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def parse_in_processes(settings: MembankSettings, total_bytes: int) -> bool:
    """Whether a map step over `total_bytes` of sources runs its batches in forked workers
    (see MembankSettings.parse_processes_min_bytes)."""
    threshold = settings.parse_processes_min_bytes
    return settings.task_runner == "threads" and threshold >= 0 and total_bytes >= threshold and can_fork()


# The forked workers of the map step that runs now (workers_for): a task finds them here, not
# in a parameter (Prefect would record the pool as one of the task run's inputs). Task runners
# that run tasks in threads copy the context, so the batches see the flow's value.
_FORKED_WORKERS: ContextVar[ProcessPoolExecutor | None] = ContextVar(
    "membank_forked_workers", default=None)


@contextmanager
def workers_for(settings: MembankSettings, total_bytes: int, *,
                initializer: Callable[[], None] | None = None
                ) -> Iterator[ProcessPoolExecutor | None]:
    """Forked workers when `parse_in_processes` says so (else None), which are also
    `current_workers()` while the context is open."""
    if not parse_in_processes(settings, total_bytes):
        yield None
        return
    with forked_workers(settings.task_workers, initializer=initializer) as pool, using_workers(pool):
        yield pool


@contextmanager
def using_workers(pool: ProcessPoolExecutor | None) -> Iterator[None]:
    """`pool` as `current_workers()` for what runs in this context."""
    token = _FORKED_WORKERS.set(pool)
    try:
        yield
    finally:
        _FORKED_WORKERS.reset(token)


def current_workers() -> ProcessPoolExecutor | None:
    """The forked workers the current map step may hand its pure work to, if any."""
    return _FORKED_WORKERS.get()


def call_in_worker(workers: ProcessPoolExecutor | None, function: Callable[..., R], *args: Any) -> R:
    """`function(*args)` in one of the forked `workers`; here when there are none, or when a
    worker died (killed for memory, say), so one lost process costs time, not the run."""
    if workers is None:
        return function(*args)
    try:
        return workers.submit(function, *args).result()
    except BrokenProcessPool as exc:
        stage_logger().warning("a forked worker died (%s); running %s here instead", exc,
                       getattr(function, "__name__", "the batch"))
        return function(*args)
