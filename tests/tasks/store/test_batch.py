"""HeldBatch: the writer lock and one journaled batch held across phases, left exactly once."""

from __future__ import annotations

from pathlib import Path

import pytest

from tasks.store.atomic import atomic_write_text
from tasks.store.batch import HeldBatch
from tasks.store.journal import batch_open, pending_batch
from tasks.store.operation import writing_operation
from tasks.store.settings import load_settings

NOW = "2026-03-24T22:40:05Z"


def _open(root: Path) -> HeldBatch:
    return HeldBatch.open(load_settings(root, fixed_clock=NOW), "ingest")


def test_finish_commits_what_the_phases_wrote_and_releases_the_lock(tmp_path: Path) -> None:
    root = tmp_path / "memory"
    batch = _open(root)
    with batch.phase() as operation:
        atomic_write_text(operation.root / "page.md", "kept\n")
    assert batch.held and batch_open(root)
    batch.finish()
    batch.finish()  # a second finish does nothing
    assert not batch.held and not batch_open(root) and not pending_batch(root)
    assert (root / "page.md").read_text(encoding="utf-8") == "kept\n"
    with writing_operation(load_settings(root, fixed_clock=NOW), "bootstrap"):
        pass  # the lock is free again


def test_a_failing_phase_discards_rolls_back_and_releases_once(tmp_path: Path) -> None:
    root = tmp_path / "memory"
    root.mkdir()
    (root / "page.md").write_text("before\n", encoding="utf-8")
    batch = _open(root)
    discarded: list[str] = []
    with pytest.raises(RuntimeError, match="boom"), batch.phase(lambda: discarded.append("x")):
        atomic_write_text(root / "page.md", "half\n")
        raise RuntimeError("boom")
    batch.abort(RuntimeError("late"), lambda: discarded.append("y"))  # nothing left to abort
    assert discarded == ["x"] and not batch.held
    assert (root / "page.md").read_text(encoding="utf-8") == "before\n"
    assert not pending_batch(root)
    with writing_operation(load_settings(root, fixed_clock=NOW), "bootstrap"):
        pass
