"""tasks/checks/scan_pool.py: batches in forked workers give the serial result, in order."""

from __future__ import annotations

import os
import threading
from collections.abc import Sequence
from pathlib import Path

import orjson
import pytest

from tasks.checks import scan_pool
from tasks.checks.scan import cache_bytes, scan_memory
from tasks.store.pages import new_page_meta, render_page


def _pids(batch: Sequence[int]) -> list[tuple[int, int]]:
    return [(item * item, os.getpid()) for item in batch]


@pytest.fixture
def small_pool(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(scan_pool, "PARALLEL_MIN", 10)
    monkeypatch.setattr(scan_pool, "BATCH", 7)


def test_batches_run_in_workers_in_order_and_alongside_once(small_pool: None) -> None:
    calls: list[int] = []
    got = scan_pool.map_batches(_pids, list(range(50)), lambda: calls.append(1))
    assert [square for square, _ in got] == [n * n for n in range(50)]
    assert calls == [1]
    if scan_pool.usable_workers(50) > 1:
        assert os.getpid() not in {pid for _, pid in got}


def test_serial_below_the_threshold_or_beside_another_thread(small_pool: None) -> None:
    calls: list[int] = []
    got = scan_pool.map_batches(_pids, list(range(5)), lambda: calls.append(1))
    assert {pid for _, pid in got} == {os.getpid()} and calls == [1]
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
    parallel = scan_memory(tmp_path)
    monkeypatch.setattr(scan_pool, "PARALLEL_MIN", 10**9)
    serial = scan_memory(tmp_path)
    assert cache_bytes(parallel) == cache_bytes(serial)
    assert list(parallel.files) == list(serial.files)
    assert parallel.changed == serial.changed and parallel.bytes_read == serial.bytes_read
    assert orjson.loads(cache_bytes(serial))["files"]["wiki/concepts/bad.md"]["facts"]["problem"]
