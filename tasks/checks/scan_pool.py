"""Read many changed files on every core (a full reconcile parses 100,000 pages).

`map_batches` runs a batch function over the items in a process pool of forked workers and
returns the results merged in the items' order, so the outcome is the serial one, byte for byte
(a long item can go first in a batch of its own: the scan's graph, streamed in a worker, so
this process never holds its parse's garbage). Forked
workers start with the modules already imported. A fork is taken only where it is safe and pays:
enough items, more than one usable core, a process with no other thread (a fork copies locks
other threads may hold: under an orchestrator's worker threads, Dask's included, the work stays
serial) and not a daemonic process (one may not have children). Otherwise, or when the pool
breaks, the batches run here, one after the other.
"""

from __future__ import annotations

import gc
import multiprocessing
import os
import threading
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from typing import TypeVar

T = TypeVar("T")
R = TypeVar("R")
PARALLEL_MIN = 2000  # items below which a pool costs more than it saves
BATCH = 500  # items per task sent to a worker
MAX_WORKERS = 4


def usable_workers(items: int) -> int:
    """How many worker processes `items` items are worth here (1: serial)."""
    if items < PARALLEL_MIN or threading.active_count() > 1:
        return 1
    if multiprocessing.current_process().daemon or "fork" not in multiprocessing.get_all_start_methods():
        return 1
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        cores = os.cpu_count() or 1
    return max(1, min(cores, MAX_WORKERS))


def map_batches(run: Callable[[Sequence[T]], list[R]], items: Sequence[T],
                first: Sequence[T] = ()) -> list[R]:
    """`run` over `first` (one batch of its own, started first: a long one) and then `items`
    in batches, in worker processes when it pays; the results of `first` then `items`, in
    their order."""
    batches = ([first] if first else []) + [items[i : i + BATCH] for i in range(0, len(items), BATCH)]
    if usable_workers(len(items) + len(first)) > 1:
        try:
            with ProcessPoolExecutor(usable_workers(len(items) + len(first)),
                                     mp_context=multiprocessing.get_context("fork")) as pool:
                # What the children inherit goes to the permanent GC generation while they are
                # forked (at the first submit), so their collections never walk (and copy) it.
                gc.freeze()
                try:
                    futures: list[Future[list[R]]] = [pool.submit(run, batch) for batch in batches]
                finally:
                    gc.unfreeze()
                return [result for future in futures for result in future.result()]
        except (BrokenProcessPool, OSError):
            pass  # a worker died or could not start: the batches run here
    return [result for batch in batches for result in run(batch)]


@contextmanager
def collector_paused() -> Iterator[None]:
    """The cyclic garbage collector off for the block (as it was after): a full scan and its
    checks make millions of dicts, lists and tuples and keep most of them, so each generation-2
    collection they start walks every object the scan holds, more often the more it holds
    (about 15 % of a full reconcile's cpu at 30,000 pages, growing faster than the pages).
    They make next to no cycles; what they do make is freed by the next collection after."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if collecting:
            gc.enable()


def trim_heap() -> bool:
    """Hand the C heap's free pages back to the system (glibc malloc_trim; True when it
    released any). Python's own small-object arenas go back when empty, but the large blocks
    (the tables of dicts of a million entries, the cache's bytes) come from glibc's heap,
    which keeps what is freed inside it: called once a scan's biggest temporaries are gone,
    before the search index build forks workers that start with this process's pages."""
    import ctypes
    import platform

    if platform.libc_ver()[0] != "glibc":
        return False
    try:
        return bool(ctypes.CDLL(None).malloc_trim(0))
    except (OSError, AttributeError):
        return False
