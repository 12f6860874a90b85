"""Ingest's writer phases as tasks: open, one apply per prepared batch (taking that batch's
future), finish. Batch N is applied while batch N+1 is still being prepared; the lock is
released on any failure; a lock timeout is retried only before anything is written; under
Prefect the task graph shows each batch's edge into the writer."""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

import pytest
from filelock import FileLock

from flows.ingest import ingest_flow, open_ingest_task, prepare_batch_task
from schemas.report import Problem
from tasks.ingest import IngestWriter
from tasks.store.errors import LockTimeoutError
from tasks.store.lock import lock_paths, memory_root_lock
from tasks.store.settings import MembankSettings
from tests.prefect_runs import last_flow_run_task_runs
from tests.snapshots import snapshot


def notes_folder(tmp_path: Path, count: int = 5) -> Path:
    folder = tmp_path / "notes"
    folder.mkdir()
    for number in range(count):
        (folder / f"note-{number}.md").write_text(
            f"# Note {number}\n\nWhat note {number} says about the queue.\n", encoding="utf-8")
    return folder


def _batch_names(batch: list[Any]) -> list[str]:
    return [Path(item.path).name for item in batch]


def pipelining_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[list[str], bool]:
    """Ingest 5 notes (5 batches) where batch 2 is prepared only once the writer has applied
    batch 1: a writer that waited for every batch would never see that happen."""
    applied: list[str] = []
    first_applied = threading.Event()
    real_prepare, real_apply = prepare_batch_task.fn, IngestWriter.apply

    def prepare(batch: list[Any], settings: MembankSettings) -> list[Any]:
        if _batch_names(batch) == ["note-1.md"]:
            first_applied.wait(timeout=20)
        return real_prepare(batch, settings)

    def apply(self: IngestWriter, results: Any) -> None:
        results = list(results)
        applied.extend(Path(r.input.path).name for r in results if not isinstance(r, Problem))
        real_apply(self, results)
        first_applied.set()

    monkeypatch.setattr(prepare_batch_task, "fn", prepare)
    monkeypatch.setattr(IngestWriter, "apply", apply)
    report = ingest_flow(paths=[str(notes_folder(tmp_path))], root=str(tmp_path / "root"),
                         distill=False)
    assert report.status == "success", report.problems
    return applied, first_applied.is_set()


def test_the_writer_applies_a_batch_while_the_next_is_prepared(
    tmp_path: Path, fixed_clock_env: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MEMBANK_PARSE_PROCESSES_MIN_BYTES", "-1")  # batches in threads
    applied, in_time = pipelining_run(tmp_path, monkeypatch)
    assert in_time and applied == [f"note-{n}.md" for n in range(5)]


def test_the_phases_give_the_bytes_of_one_writer_call(tmp_path: Path, fixed_clock_env: str) -> None:
    from tasks.ingest import collect_inputs, prepare_batch, write_ingest
    from tasks.store.settings import load_settings

    folder = notes_folder(tmp_path, 7)
    (folder / "broken.json").write_text("{", encoding="utf-8")
    flowed = ingest_flow(paths=[str(folder)], root=str(tmp_path / "flow"), distill=False)
    settings = load_settings(tmp_path / "one-call")
    inputs, problems = collect_inputs([str(folder)])
    whole = write_ingest(settings, prepare_batch(inputs, settings), problems)
    assert flowed.model_dump(exclude={"figures"}) == whole.model_dump(exclude={"figures"})
    skip = (".membank", "context/health")
    assert snapshot(tmp_path / "flow", skip=skip) == snapshot(tmp_path / "one-call", skip=skip)


def _lock_is_free(root: Path) -> bool:
    try:
        with memory_root_lock(root, timeout=0.1):
            return True
    except LockTimeoutError:
        return False


def failing_batch_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """note-3's batch fails to prepare after the earlier batches were applied: the error
    reaches the caller, the lock is free and nothing of the run is left."""
    root = tmp_path / "root"
    folder = notes_folder(tmp_path)
    ingest_flow(paths=[str(folder / "note-0.md")], root=str(root), distill=False)
    skip = (".membank", "context/health")
    before = snapshot(root, skip=skip)
    real_prepare = prepare_batch_task.fn

    def prepare(batch: list[Any], settings: MembankSettings) -> list[Any]:
        if _batch_names(batch) == ["note-3.md"]:
            raise RuntimeError("the preparer broke")
        return real_prepare(batch, settings)

    monkeypatch.setattr(prepare_batch_task, "fn", prepare)
    with pytest.raises(RuntimeError, match="the preparer broke"):
        ingest_flow(paths=[str(folder)], root=str(root), distill=False)
    assert _lock_is_free(root)
    assert snapshot(root, skip=skip) == before  # note-1 and note-2 were rolled back


def test_a_batch_that_fails_releases_the_lock_and_writes_nothing(
    tmp_path: Path, fixed_clock_env: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    failing_batch_run(tmp_path, monkeypatch)


@pytest.mark.e2e
def test_under_prefect_a_batch_that_fails_releases_the_lock(
    orchestrated: None, tmp_path: Path, fixed_clock_env: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    failing_batch_run(tmp_path, monkeypatch)


def test_a_lock_held_too_long_is_retried_before_anything_is_written(
    tmp_path: Path, fixed_clock_env: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = tmp_path / "root"
    root.mkdir()
    monkeypatch.setenv("MEMBANK_LOCK_TIMEOUT_SECONDS", "0.2")
    monkeypatch.setattr(open_ingest_task, "retry_delay_seconds", 0.5)
    held = threading.Event()

    def other_writer() -> None:  # the lock file taken as another process would take it
        lock_file = lock_paths(root)[0]
        lock_file.parent.mkdir(parents=True, exist_ok=True)
        with FileLock(str(lock_file), is_singleton=False):
            held.set()
            time.sleep(0.4)  # two lock timeouts: the first open fails, the retry waits

    holder = threading.Thread(target=other_writer)
    holder.start()
    held.wait(timeout=5)
    opened: list[int] = []
    real_open = IngestWriter.open.__func__  # type: ignore[attr-defined]

    def counting_open(cls: type[IngestWriter], settings: MembankSettings, problems: Any = ()) -> Any:
        opened.append(1)
        return real_open(cls, settings, problems)

    monkeypatch.setattr(IngestWriter, "open", classmethod(counting_open))
    report = ingest_flow(paths=[str(notes_folder(tmp_path))], root=str(root), distill=False)
    holder.join()
    assert len(opened) == 2 and report.figures["files_ingested"] == 5
    assert _lock_is_free(root)


@pytest.mark.e2e
def test_under_prefect_each_batch_is_an_edge_into_the_writer(
    orchestrated: None, tmp_path: Path, fixed_clock_env: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MEMBANK_PARSE_PROCESSES_MIN_BYTES", "-1")
    applied, in_time = pipelining_run(tmp_path, monkeypatch)
    assert in_time and applied == [f"note-{n}.md" for n in range(5)]
    task_runs = last_flow_run_task_runs("ingest", {"finish-ingest": 1, "apply-ingest-batch": 5,
                                                   "prepare-sources-batch": 5, "open-ingest": 1})
    by_id = {task_run.id: task_run for task_run in task_runs}

    def upstream(task_run: Any, parameter: str) -> Any:
        (only,) = task_run.task_inputs[parameter]
        return by_id[only.id]

    (finish,) = [t for t in task_runs if t.name.startswith("finish-ingest")]
    chain, step = [], upstream(finish, "writer")  # the writer steps, followed back to open
    while step.name.startswith("apply-ingest-batch"):
        chain.append(step)
        step = upstream(step, "writer")
    assert step.name.startswith("open-ingest") and len(chain) == 5
    prepared = {upstream(step, "prepared").id for step in chain}
    assert prepared == {t.id for t in task_runs if t.name.startswith("prepare-sources-batch")}
    assert len(prepared) == 5
