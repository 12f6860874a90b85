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

`run_aside` runs one call in a forked child while this process goes on with other work (the
check of the next run's scan beside the cache's save and the search index check): the same
rules decide whether a fork is taken; otherwise the call runs here, at once.
"""

from __future__ import annotations

import gc
import multiprocessing
import os
import pickle
import threading
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from typing import Generic, TypeVar

from tasks.checks.walk import resume_collector

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


class AsideLost(RuntimeError):
    """The child running an aside call ended without handing back its result (killed)."""


class Aside(Generic[R]):
    """One call's result: computed here already, or by a forked child, read on `result()`."""

    def __init__(self, *, value: R | None = None, child: tuple[int, int] | None = None,
                 error: BaseException | None = None) -> None:
        self._value = value
        self._child = child  # (pid, the read end of its pipe)
        self._error = error

    def result(self) -> R:
        """The call's return value (it waits for the child); its exception is raised here;
        AsideLost when the child died without an answer. Asked again, the same outcome."""
        if self._child is not None:
            pid, fd = self._child
            self._child = None
            with os.fdopen(fd, "rb") as pipe:
                payload = pipe.read()
            os.waitpid(pid, 0)
            try:
                ok, value = pickle.loads(payload)
            except Exception as exc:  # an empty or cut pipe: the child is gone
                ok, value = False, AsideLost(f"the aside child {pid} gave no result ({exc})")
            if ok:
                self._value = value
            else:
                self._error = value
        if self._error is not None:
            raise self._error
        return self._value  # type: ignore[return-value]


def run_aside(call: Callable[[], R], items: int) -> Aside[R]:
    """`call` in a forked child when `items` (what it works through) is worth a process and a
    fork is safe here (usable_workers), else here and now. The child sees this process as it is
    at the fork and must write nothing: it hands back its return value (or exception),
    pickled through a pipe, and exits without running this process's exit handlers."""
    if usable_workers(items) < 2:
        return _here(call)
    read_end, write_end = os.pipe()
    try:
        pid = os.fork()
    except OSError:
        os.close(read_end)
        os.close(write_end)
        return _here(call)
    if pid == 0:  # the child
        os.close(read_end)
        try:
            try:
                payload = pickle.dumps((True, call()), pickle.HIGHEST_PROTOCOL)
            except BaseException as exc:  # handed to the parent, raised there
                try:
                    payload = pickle.dumps((False, exc), pickle.HIGHEST_PROTOCOL)
                except Exception:  # an exception that does not pickle: its text
                    payload = pickle.dumps((False, RuntimeError(f"{type(exc).__name__}: {exc}")))
            with os.fdopen(write_end, "wb") as pipe:
                pipe.write(payload)
        finally:
            os._exit(0)
    os.close(write_end)
    return Aside(child=(pid, read_end))


def _here(call: Callable[[], R]) -> Aside[R]:
    """`call` run here and now, its exception kept for `result()` as a child's would be: the
    caller handles both alike, whether a fork was taken or not."""
    try:
        return Aside(value=call())
    except Exception as exc:
        return Aside(error=exc)


@contextmanager
def collector_paused() -> Iterator[None]:
    """The cyclic garbage collector off for the block (as it was after): a full scan and its
    checks make millions of dicts, lists and tuples and keep most of them, so each generation-2
    collection they start walks every object the scan holds, more often the more it holds
    (about 15 % of a full reconcile's cpu at 30,000 pages, growing faster than the pages).
    They make next to no cycles; what they do make is freed by the next full collection after
    (walk.resume_collector: what the block kept goes to the oldest generation, unvisited)."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if collecting:
            resume_collector()


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
