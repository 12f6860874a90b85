"""The distill writer's phases: the lock is held from open (which plans) to finish, so nothing
else reads or writes the root in between; an abort rolls back what was written."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from tasks.distill.plan import extract_batch
from tasks.distill.writer import DistillWriter
from tasks.store.errors import LockTimeoutError
from tasks.store.lock import memory_root_read_lock
from tasks.store.settings import load_settings
from tests.conftest import FIXED_NOW
from tests.snapshots import snapshot
from tests.stored_sources import bootstrap, store_source


def other_reader(root: Path) -> BaseException | None:
    """Try to read the root from another thread (the writer lock is re-entrant within a
    process; a reader in another thread waits like any other), briefly; the error it met."""
    found: list[BaseException] = []

    def run() -> None:
        try:
            with memory_root_read_lock(root, timeout=0.2):
                pass
        except BaseException as exc:  # handed back to the test
            found.append(exc)

    thread = threading.Thread(target=run)
    thread.start()
    thread.join()
    return found[0] if found else None


@pytest.fixture
def root(tmp_path: Path) -> Path:
    path = tmp_path / ".memories"
    bootstrap(path, FIXED_NOW)
    store_source(path, "a.md", "---\nentity: Ledger\n---\n\n- [fact] Ledger keeps entries\n")
    return path


def test_lock_held_from_open_to_finish(root: Path) -> None:
    writer = DistillWriter.open(load_settings(root, fixed_clock=FIXED_NOW))
    assert [item.ref.raw_path for item in writer.plan.to_read] and not writer.plan.empty
    error = other_reader(root)
    assert isinstance(error, LockTimeoutError) and error.recoverable
    report = writer.finish(extract_batch(writer.plan.to_read))
    assert report.figures["sources_read"] == 1 and report.status == "success"
    assert other_reader(root) is None


def test_abort_rolls_back_and_releases(root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import tasks.distill.apply as apply

    before = snapshot(root)
    writer = DistillWriter.open(load_settings(root, fixed_clock=FIXED_NOW))

    def fail(*args: object, **kwargs: object) -> bool:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(apply, "save_candidate_inbox", fail)  # after graph, pages, registry
    with pytest.raises(OSError):
        writer.finish(extract_batch(writer.plan.to_read))
    assert snapshot(root) == before
    assert other_reader(root) is None
    writer.abort(RuntimeError("late"))  # a second abort does nothing
