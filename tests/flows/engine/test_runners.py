"""The map steps give the same bytes on every task runner (threads, processes, Dask) and with
forked preparers."""

from __future__ import annotations

import gc
import os
from pathlib import Path

import pytest

from flows.engine.prefect_env import task_runner_for
from flows.engine.runners import (
    can_fork,
    current_workers,
    forked_workers,
    split_batches,
    using_workers,
    workers_for,
)
from flows.engine.stage import stage_flow, stage_task
from tasks.store.settings import load_settings
from tests.conftest import CORPUS
from tests.snapshots import snapshot


def test_split_batches_covers_items_in_order() -> None:
    items = list(range(10))
    batches = split_batches(items, workers=3, max_batch=4)
    assert [x for batch in batches for x in batch] == items
    assert len(batches) >= 3 and max(len(b) for b in batches) <= 4
    assert split_batches([], workers=2) == []


def test_runner_choice_follows_settings(monkeypatch: pytest.MonkeyPatch) -> None:
    from prefect.task_runners import ProcessPoolTaskRunner, ThreadPoolTaskRunner

    assert isinstance(task_runner_for(load_settings()), ThreadPoolTaskRunner)
    monkeypatch.setenv("MEMBANK_TASK_RUNNER", "processes")
    assert isinstance(task_runner_for(load_settings()), ProcessPoolTaskRunner)


def small_corpus() -> list[str]:
    folder = CORPUS / "thomvaill-log4brains-adrs"
    return [str(p) for p in sorted(folder.glob("2020*.md"))] + [str(CORPUS / "large" / "CHANGELOG.md")]


def ingest_and_distill(root: Path) -> dict[str, bytes]:
    from flows.ingest import ingest_flow

    report = ingest_flow(paths=small_corpus(), root=str(root))
    assert report.status in {"success", "partial"}, report.problems
    return {k: v for k, v in snapshot(root).items() if not k.startswith("context/health/")}


@pytest.mark.e2e
def test_process_and_dask_runners_give_the_same_bytes_as_threads(
    orchestrated: None, tmp_path: Path, fixed_clock_env: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("prefect_dask")
    threads = ingest_and_distill(tmp_path / "threads")
    monkeypatch.setenv("MEMBANK_TASK_RUNNER", "processes")
    processes = ingest_and_distill(tmp_path / "processes")
    assert processes == threads
    monkeypatch.setenv("MEMBANK_TASK_RUNNER", "dask")  # a local Dask cluster of 2 processes
    dask = ingest_and_distill(tmp_path / "dask")
    assert threads.keys() == dask.keys()
    assert threads == dask
    assert any(path.startswith("wiki/sources/shards/") for path in dask)


def test_in_process_process_pool_gives_the_same_bytes_as_threads(
    tmp_path: Path, fixed_clock_env: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    threads = ingest_and_distill(tmp_path / "threads")
    monkeypatch.setenv("MEMBANK_TASK_RUNNER", "processes")  # spawned workers, no Prefect
    monkeypatch.setenv("MEMBANK_DISTILL_BATCH_SIZE", "2")
    assert ingest_and_distill(tmp_path / "processes") == threads


# Forked preparers: module-level functions, so the pool can send them to its children.
_CHILD_STATE: dict[str, str] = {}


def _mark_child() -> None:
    _CHILD_STATE["initialized"] = "yes"


def _child_view(value: int) -> tuple[int, int, str]:
    return os.getpid(), value * 2, _CHILD_STATE.get("initialized", "no")


def test_forked_workers_run_functions_in_children_and_thaw_the_parent() -> None:
    if not can_fork():
        pytest.skip("forked workers need Linux")
    with forked_workers(2, initializer=_mark_child) as pool:
        assert gc.get_freeze_count() == 0  # the parent's objects are collectable again
        results = list(pool.map(_child_view, range(6)))
    assert [doubled for _, doubled, _ in results] == [0, 2, 4, 6, 8, 10]
    assert all(pid != os.getpid() for pid, _, _ in results)
    assert {state for _, _, state in results} == {"yes"} and "initialized" not in _CHILD_STATE


def test_parse_in_processes_follows_the_settings(monkeypatch: pytest.MonkeyPatch) -> None:
    from flows.engine.runners import parse_in_processes

    if not can_fork():
        pytest.skip("forked workers need Linux")
    default = load_settings()
    assert parse_in_processes(default, default.parse_processes_min_bytes)
    assert not parse_in_processes(default, default.parse_processes_min_bytes - 1)
    monkeypatch.setenv("MEMBANK_PARSE_PROCESSES_MIN_BYTES", "-1")
    assert not parse_in_processes(load_settings(), 10**12)
    monkeypatch.setenv("MEMBANK_PARSE_PROCESSES_MIN_BYTES", "0")
    assert parse_in_processes(load_settings(), 0)
    monkeypatch.setenv("MEMBANK_TASK_RUNNER", "processes")  # its batches already run in processes
    assert not parse_in_processes(load_settings(), 10**12)


def test_forked_preparers_give_the_same_bytes_as_threads(
    tmp_path: Path, fixed_clock_env: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    if not can_fork():
        pytest.skip("forked workers need Linux")
    import flows.engine.runners

    used: list[int] = []
    real = flows.engine.runners.forked_workers

    def recording(count: int, **kwargs: object) -> object:
        used.append(count)
        return real(count, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(flows.engine.runners, "forked_workers", recording)
    monkeypatch.setenv("MEMBANK_DISTILL_BATCH_SIZE", "2")  # several extraction batches
    monkeypatch.setenv("MEMBANK_PARSE_PROCESSES_MIN_BYTES", "-1")
    in_threads = ingest_and_distill(tmp_path / "threads")
    assert used == []
    monkeypatch.setenv("MEMBANK_PARSE_PROCESSES_MIN_BYTES", "0")
    forked = ingest_and_distill(tmp_path / "forked")
    assert used == [2, 2]  # ingest's preparers, then distill's extractors
    assert forked == in_threads
    assert any(path.startswith("wiki/sources/shards/") for path in forked)



def test_the_ingests_index_is_parsed_in_its_forked_preparers(
    tmp_path: Path, fixed_clock_env: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The search index the ingest builds at its end has its pages parsed in the map step's
    forked workers (its process has threads: it may not fork its own), with the same rows."""
    if not can_fork():
        pytest.skip("forked workers need Linux")
    import sqlite3

    import tasks.search.index as search_index
    from flows.ingest import ingest_flow

    pooled: list[int] = []
    real = search_index._read_in_pool

    def recording(pool: object, root: Path, chunks: list[object], *args: object) -> object:
        pooled.append(len(chunks))
        return real(pool, root, chunks, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(search_index, "_read_in_pool", recording)
    monkeypatch.setattr(search_index, "_CHUNK", 3)
    monkeypatch.setenv("MEMBANK_SEARCH_SEMANTIC", "false")

    def rows(root: Path) -> list[tuple[object, ...]]:
        ingest_flow(paths=small_corpus(), root=str(root), distill=False)
        with sqlite3.connect(root / ".membank" / "search.sqlite3") as conn:
            return conn.execute("SELECT d.path, u.anchor, f.title, f.headings, f.body FROM docs d"
                                " JOIN units u ON u.doc_id = d.id JOIN fts f ON f.rowid = u.id"
                                " ORDER BY u.id").fetchall()

    monkeypatch.setenv("MEMBANK_PARSE_PROCESSES_MIN_BYTES", "-1")
    in_threads = rows(tmp_path / "threads")
    assert pooled == [] and in_threads
    monkeypatch.setenv("MEMBANK_PARSE_PROCESSES_MIN_BYTES", "0")
    assert rows(tmp_path / "forked") == in_threads
    assert pooled and pooled[0] > 1


def test_a_dead_forked_preparer_means_the_batch_is_prepared_in_thread(
    tmp_path: Path
) -> None:
    if not can_fork():
        pytest.skip("forked workers need Linux")
    from concurrent.futures.process import BrokenProcessPool

    from flows.ingest import prepare_batch_task
    from tasks.ingest import collect_inputs, prepare_batch

    settings = load_settings(tmp_path / "root")
    inputs, _ = collect_inputs(small_corpus()[:3])
    with forked_workers(1) as pool:
        with pytest.raises(BrokenProcessPool):
            pool.submit(os._exit, 1).result()  # the worker dies as an out-of-memory kill would
        with using_workers(pool):
            prepared = prepare_batch_task(batch=inputs, settings=settings)
    expected = prepare_batch(inputs, settings)
    assert [(p.input, p.text, p.token_count) for p in prepared] == [  # type: ignore[union-attr]
        (p.input, p.text, p.token_count) for p in expected]  # type: ignore[union-attr]


@stage_task(name="sees-forked-workers")
def _sees_forked_workers(value: int) -> bool:
    return current_workers() is not None


@stage_flow(name="forked-workers-probe")
def _forked_workers_probe(root: str | None = None) -> list[bool]:
    with workers_for(load_settings(root), 10**12):
        return [future.result() for future in _sees_forked_workers.map(value=[1, 2, 3])]


def test_map_steps_find_the_forked_workers_without_a_parameter(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    if not can_fork():
        pytest.skip("forked workers need Linux")
    monkeypatch.setenv("MEMBANK_ORCHESTRATION", "local")
    assert _forked_workers_probe(root=str(tmp_path)) == [True, True, True]
    assert current_workers() is None  # only while the map step's context is open


@pytest.mark.e2e
def test_under_prefect_map_steps_find_the_forked_workers(orchestrated: None, tmp_path: Path) -> None:
    if not can_fork():
        pytest.skip("forked workers need Linux")
    assert _forked_workers_probe(root=str(tmp_path)) == [True, True, True]
