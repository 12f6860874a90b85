"""The map steps give the same bytes on every task runner: threads, processes and Dask."""

from __future__ import annotations

from pathlib import Path

import pytest

from flows.runners import split_batches, task_runner_for
from tasks.settings import load_settings
from tests.conftest import CORPUS
from tests.flows.test_bootstrap_flow import snapshot


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
    if not folder.is_dir():
        pytest.skip("shared corpus not present")
    return [str(p) for p in sorted(folder.glob("2020*.md"))] + [str(CORPUS / "large" / "CHANGELOG.md")]


def ingest_and_distill(root: Path) -> dict[str, bytes]:
    from flows.ingest import ingest_flow

    report = ingest_flow(paths=small_corpus(), root=str(root))
    assert report.status in {"success", "partial"}, report.problems
    return {k: v for k, v in snapshot(root).items() if not k.startswith("context/health/")}


@pytest.mark.e2e
def test_process_and_dask_runners_give_the_same_bytes_as_threads(
    prefect_server: None, tmp_path: Path, fixed_clock_env: str, monkeypatch: pytest.MonkeyPatch
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
