"""tasks/checks/scan_pool.py: batches in forked workers give the serial result, in order."""

from __future__ import annotations

import os
import threading
from collections.abc import Sequence
from pathlib import Path

import orjson
import pytest

from schemas.graph import KnowledgeGraph
from tasks.checks import scan_pool
from tasks.checks.scan import cache_bytes, scan_memory
from tasks.store.graph_store import save_graph
from tasks.store.pages import new_page_meta, render_page


def _pids(batch: Sequence[int]) -> list[tuple[int, int]]:
    return [(item * item, os.getpid()) for item in batch]


@pytest.fixture
def small_pool(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(scan_pool, "PARALLEL_MIN", 10)
    monkeypatch.setattr(scan_pool, "BATCH", 7)


def test_batches_run_in_workers_in_order_first_batch_first(small_pool: None) -> None:
    got = scan_pool.map_batches(_pids, list(range(50)), first=[100, 101])
    assert [square for square, _ in got] == [n * n for n in (100, 101, *range(50))]
    if scan_pool.usable_workers(52) > 1:
        assert os.getpid() not in {pid for _, pid in got}


def test_serial_below_the_threshold_or_beside_another_thread(small_pool: None) -> None:
    got = scan_pool.map_batches(_pids, list(range(5)), first=[7])
    assert got == [(49, os.getpid()), *((n * n, os.getpid()) for n in range(5))]
    stop = threading.Event()
    other = threading.Thread(target=stop.wait)
    other.start()
    try:
        assert scan_pool.usable_workers(10_000) == 1
    finally:
        stop.set()
        other.join()


def test_scan_in_workers_equals_the_serial_scan(tmp_path: Path, small_pool: None,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """Pages parsed in forked workers: the same files, facts and cache bytes as serially."""
    for n in range(40):
        meta = new_page_meta("2026-01-10T08:00:00Z", type="concept", title=f"Page {n}",
                             description=f"Page {n}.", child_of=["wiki/concepts/index.md"])
        body = f"# Page {n}\n\nSee [next](p{n + 1}.md).\n"
        (tmp_path / "wiki/concepts").mkdir(parents=True, exist_ok=True)
        (tmp_path / f"wiki/concepts/p{n}.md").write_text(render_page(meta, body))
    (tmp_path / "wiki/concepts/bad.md").write_bytes(b"---\ntitle: [\n---\n\xff")
    (tmp_path / "context").mkdir()
    (tmp_path / ".membank").mkdir()
    save_graph(tmp_path / "context/knowledge-graph.index.jsonc", KnowledgeGraph.model_validate({
        "graphGeneratedAtUtc": "2026-01-10T08:00:00Z", "relations": [],
        "entities": [{"entityName": "alpha", "entityType": "service",
                      "observations": ["owner: a", "x y"]}]}), now_iso="2026-01-10T08:00:00Z")
    parallel = scan_memory(tmp_path)
    monkeypatch.setattr(scan_pool, "PARALLEL_MIN", 10**9)
    serial = scan_memory(tmp_path)
    assert cache_bytes(parallel) == cache_bytes(serial)
    assert list(parallel.files) == list(serial.files)
    assert parallel.changed == serial.changed and parallel.bytes_read == serial.bytes_read
    assert parallel.transient == serial.transient
    assert len(parallel.transient["context/knowledge-graph.index.jsonc"]["obs_digests"]) == 2
    assert orjson.loads(cache_bytes(serial))["files"]["wiki/concepts/bad.md"]["facts"]["problem"]


def test_trim_heap_hands_back_what_the_c_heap_kept() -> None:
    """Blocks freed between blocks still held stay in glibc's heap until malloc_trim."""
    import platform

    from tasks.checks.scan_pool import trim_heap

    def rss() -> int:
        return int(Path("/proc/self/statm").read_text().split()[1]) * os.sysconf("SC_PAGE_SIZE")

    if platform.libc_ver()[0] != "glibc":
        assert trim_heap() is False
        return
    big, kept = [], []
    for i in range(5000):  # 16 KB blocks (glibc's heap) with small held blocks between them
        big.append(bytes(16000) + bytes([i % 256]))
        kept.append(bytes(600) + bytes([i % 256]))
    del big
    before = rss()
    assert trim_heap() is True
    assert rss() < before - 40_000_000  # most of the 80 MB of holes
    assert len(kept) == 5000


def test_collector_paused_leaves_the_collector_as_it_found_it() -> None:
    import gc

    assert gc.isenabled()
    with scan_pool.collector_paused():
        assert not gc.isenabled()
    assert gc.isenabled()
    with pytest.raises(RuntimeError), scan_pool.collector_paused():
        raise RuntimeError("a gate failed")
    assert gc.isenabled()
    gc.disable()
    try:
        with scan_pool.collector_paused():
            assert not gc.isenabled()
        assert not gc.isenabled()  # paused by someone else: left paused
    finally:
        gc.enable()


class _Node:
    def __init__(self) -> None:
        self.me = self  # a cycle: only the cyclic collector frees it


def test_what_a_pause_kept_goes_to_the_oldest_generation_unvisited() -> None:
    """walk.resume_collector: the objects made and kept in a paused block are in the oldest
    generation after it (no young collection goes over them), the young count starts again,
    and a cycle the block made is still freed by a full collection."""
    import gc
    import weakref

    with scan_pool.collector_paused():
        kept = [[i] for i in range(20_000)]  # (lists are always tracked)
        cycle = _Node()
    gone = weakref.ref(cycle)
    del cycle
    assert gc.isenabled() and gc.get_count()[0] < 100
    young = {id(o) for o in gc.get_objects(generation=0)}
    oldest = {id(o) for o in gc.get_objects(generation=2)}
    assert id(kept) in oldest and id(kept[123]) in oldest and id(kept) not in young
    gc.collect(0)
    assert gone() is not None  # a young collection does not see it
    gc.collect()
    assert gone() is None


def _pid_and(value: int) -> tuple[int, int]:
    return os.getpid(), value * 2


def test_an_aside_call_runs_in_a_child_and_hands_back_its_value(small_pool: None) -> None:
    aside = scan_pool.run_aside(lambda: _pid_and(21), items=50)
    pid, value = aside.result()
    assert value == 42 and aside.result() == (pid, 42)  # asked again: the same
    if scan_pool.usable_workers(50) > 1:
        assert pid != os.getpid()
    here = scan_pool.run_aside(lambda: _pid_and(21), items=5)  # below the threshold: here
    assert here.result() == (os.getpid(), 42)


def test_an_aside_call_sees_this_process_as_at_the_fork_and_changes_nothing_here(
        small_pool: None) -> None:
    held = {"pages": [1, 2, 3]}

    def change() -> list[int]:
        held["pages"].append(4)
        return list(held["pages"])

    aside = scan_pool.run_aside(change, items=50)
    if scan_pool.usable_workers(50) > 1:
        held["pages"].append(9)  # after the fork: the child never sees it
        assert aside.result() == [1, 2, 3, 4]
        assert held["pages"] == [1, 2, 3, 9]
    else:
        assert aside.result() == [1, 2, 3, 4]


def test_an_aside_call_raises_its_exception_here(small_pool: None) -> None:
    def fail() -> None:
        raise ValueError("a gate failed")

    aside = scan_pool.run_aside(fail, items=50)
    with pytest.raises(ValueError, match="a gate failed"):
        aside.result()
    with pytest.raises(ValueError):
        aside.result()
    # run here (too few items, or no fork where threads run: CI's case), the same: raised on
    # result(), not at the call, so the caller's handling is one for both
    here = scan_pool.run_aside(fail, items=5)
    with pytest.raises(ValueError, match="a gate failed"):
        here.result()


def test_a_child_that_dies_without_an_answer_is_an_aside_lost(small_pool: None) -> None:
    if scan_pool.usable_workers(50) < 2:
        pytest.skip("no fork here")
    aside = scan_pool.run_aside(lambda: os._exit(3), items=50)
    with pytest.raises(scan_pool.AsideLost):
        aside.result()


def test_an_aside_call_runs_here_beside_another_thread(small_pool: None) -> None:
    stop = threading.Event()
    other = threading.Thread(target=stop.wait)
    other.start()
    try:
        assert scan_pool.run_aside(lambda: _pid_and(1), items=10_000).result() == (os.getpid(), 2)
    finally:
        stop.set()
        other.join()
