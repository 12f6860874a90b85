"""The write-ahead undo journal: rollback, commit, recovery, orphan temp files, reader lock."""

from __future__ import annotations

import os
import stat
import time
from pathlib import Path

import pytest

from tasks.checks.reconcile import reconcile_memory
from tasks.store import atomic
from tasks.store.atomic import StagedWrites, atomic_write_text, change_mode, remove_file
from tasks.store.errors import LockTimeoutError
from tasks.store.journal import (
    WriteJournal,
    journal_batch,
    journal_dir,
    pending_batch,
    recover,
    temp_files,
)
from tasks.store.lock import memory_root_lock
from tasks.store.operation import reading_operation, writing_operation
from tasks.store.settings import load_settings
from tests import snapshots
from tests.memory_builder import NOW, build_healthy_memory

TEMP = ".page.md.abcd1234.tmp"


def _root(tmp_path: Path) -> Path:
    root = tmp_path / "memory"
    (root / "wiki").mkdir(parents=True)
    (root / "proposals/inbox").mkdir(parents=True)
    (root / "wiki/old.md").write_text("---\ntitle: old\n---\n\nold body\n", encoding="utf-8")
    (root / "proposals/inbox/p.md").write_text("proposal\n", encoding="utf-8")
    return root


def _write_everything(root: Path) -> None:
    atomic_write_text(root / "wiki/old.md", "---\ntitle: new\n---\n\nnew body\n")
    atomic_write_text(root / "wiki/old.md", "---\ntitle: newer\n---\n\nnewer body\n")
    atomic_write_text(root / "wiki/made.md", "---\ntitle: made\n---\n\nmade\n")
    with StagedWrites() as staged:
        staged.stage(root / "raw/a.txt", b"a", validate=False, mode=0o444)
        staged.stage(root / "raw/b.txt", b"b", validate=False)
        staged.commit()
    assert remove_file(root / "proposals/inbox/p.md")
    atomic_write_text(root / ".membank/cache.json", "{}")  # reconcile's cache: journaled too


def _fail_a_batch(root: Path) -> None:
    """Write everything in one batch, then raise before it commits."""
    with pytest.raises(RuntimeError), journal_batch(root):
        _write_everything(root)
        raise RuntimeError("a failed write")


def test_a_batch_that_raises_is_rolled_back_at_once(tmp_path: Path) -> None:
    root = _root(tmp_path)
    before = snapshots.snapshot(root)
    _fail_a_batch(root)
    assert snapshots.snapshot(root) == before
    assert not pending_batch(root)


def test_a_killed_batch_is_rolled_back_by_the_next_recover(tmp_path: Path) -> None:
    root = _root(tmp_path)
    before = snapshots.snapshot(root)
    journal = WriteJournal(root)  # what a killed process leaves: a journal nobody committed
    atomic.register_recorder(journal)
    try:
        _write_everything(root)
    finally:
        atomic.unregister_recorder(journal)
    assert pending_batch(root) and snapshots.snapshot(root) != before
    recovery = recover(root)
    assert snapshots.snapshot(root) == before
    assert recovery.rolled_back == [".membank/cache.json", "proposals/inbox/p.md", "raw/a.txt",
                                    "raw/b.txt", "wiki/made.md", "wiki/old.md"]
    assert not (root / ".membank/cache.json").exists()
    assert not pending_batch(root) and not recover(root).changed  # idempotent


def test_a_committed_batch_stays_and_leaves_no_journal(tmp_path: Path) -> None:
    root = _root(tmp_path)
    with journal_batch(root):
        _write_everything(root)
    assert (root / "wiki/old.md").read_text(encoding="utf-8").startswith("---\ntitle: newer")
    assert not (root / "proposals/inbox/p.md").exists()
    # the memory's new generation (tasks/search/sync.py compares the index's with it)
    assert sorted(os.listdir(root / ".membank")) == ["cache.json", "generation"]


def test_a_commit_interrupted_after_its_commit_point_is_kept(tmp_path: Path) -> None:
    root = _root(tmp_path)
    journal = WriteJournal(root)
    atomic.register_recorder(journal)
    try:
        _write_everything(root)
    finally:
        atomic.unregister_recorder(journal)
    after = snapshots.snapshot(root, skip=(".membank",))
    os.rename(journal_dir(root), root / ".membank/journal-done-1-x")  # killed right after this
    recovery = recover(root)
    assert recovery.committed_cleanup and not recovery.rolled_back
    assert snapshots.snapshot(root, skip=(".membank",)) == after
    assert not pending_batch(root)


def test_orphan_temp_files_are_removed_except_in_the_inbox(tmp_path: Path) -> None:
    root = _root(tmp_path)
    for folder in ("wiki", ".membank", "proposals/inbox", "raw/assets"):
        (root / folder).mkdir(parents=True, exist_ok=True)
        (root / folder / TEMP).write_bytes(b"half")
    (root / "wiki/.hand-made-hidden.md").write_text("mine\n", encoding="utf-8")
    assert temp_files(root) == [f".membank/{TEMP}", f"raw/assets/{TEMP}", f"wiki/{TEMP}"]
    assert recover(root).temp_files_removed == [f".membank/{TEMP}", f"raw/assets/{TEMP}",
                                                f"wiki/{TEMP}"]
    assert (root / "proposals/inbox" / TEMP).exists()
    assert (root / "wiki/.hand-made-hidden.md").exists()


def _killed_in_a_hold(root: Path, rel: str) -> None:
    """A writer killed in its hold after creating the temp file `rel` (as a crash leaves it)."""
    pid = os.fork()
    if pid == 0:
        try:
            with memory_root_lock(root, timeout=5):
                (root / rel).write_bytes(b"half")
                os._exit(137)
        finally:
            os._exit(1)
    assert os.waitpid(pid, 0)[1] >> 8 == 137


def test_reconcile_check_reports_orphan_temps_and_a_writer_removes_them(tmp_path: Path) -> None:
    root = tmp_path / "memory"
    build_healthy_memory(root)
    _killed_in_a_hold(root, f"wiki/entities/{TEMP}")
    settings = load_settings(root, fixed_clock=NOW)
    with reading_operation(settings, "reconcile") as operation:
        _report, summary = reconcile_memory(operation, check=True)
    orphans = [f for f in summary.findings if f.code == "orphan_temp_file"]
    assert [f.path for f in orphans] == [f"wiki/entities/{TEMP}"]
    assert orphans[0].severity == "warning"
    from tasks.store.operation import writing_operation

    with writing_operation(settings, "reconcile") as operation:
        assert operation.report.figures["recovered_temp_files_removed"] == 1
        _report, summary = reconcile_memory(operation, check=False)
    assert not (root / "wiki/entities" / TEMP).exists()
    assert "orphan_temp_file" not in {f.code for f in summary.findings}


def _hold_writer_lock_in_child(root: Path) -> tuple[int, int]:
    """Fork a child that holds the writer lock until we close our end of a pipe."""
    ready_r, ready_w = os.pipe()
    stop_r, stop_w = os.pipe()
    pid = os.fork()
    if pid == 0:
        try:
            os.close(ready_r)
            os.close(stop_w)
            with memory_root_lock(root, timeout=5):
                os.write(ready_w, b"1")
                os.read(stop_r, 1)
        finally:
            os._exit(0)
    os.close(ready_w)
    os.close(stop_r)
    assert os.read(ready_r, 1) == b"1"
    os.close(ready_r)
    return pid, stop_w


def test_a_reader_waits_for_the_writer(tmp_path: Path) -> None:
    root = tmp_path / "memory"
    build_healthy_memory(root)
    pid, stop = _hold_writer_lock_in_child(root)
    try:
        settings = load_settings(root, fixed_clock=NOW, lock_timeout_seconds=0.3)
        started = time.monotonic()
        with pytest.raises(LockTimeoutError, match="being written"), \
                reading_operation(settings, "audit"):
            pass
        assert time.monotonic() - started >= 0.3
    finally:
        os.close(stop)
        os.waitpid(pid, 0)
    with reading_operation(settings, "audit") as operation:  # the writer is gone
        assert operation.root == root.resolve()


def test_a_reader_recovers_a_killed_writers_batch_before_reading(tmp_path: Path) -> None:
    root = tmp_path / "memory"
    build_healthy_memory(root)
    before = snapshots.snapshot(root, skip=(".membank",))
    journal = WriteJournal(root.resolve())
    atomic.register_recorder(journal)
    try:
        atomic_write_text(root / "index.md", "---\ntitle: half\n---\n\nhalf a batch\n")
    finally:
        atomic.unregister_recorder(journal)
    settings = load_settings(root, fixed_clock=NOW)
    with reading_operation(settings, "reconcile") as operation:
        assert snapshots.snapshot(root, skip=(".membank",)) == before
        assert operation.report.figures["recovered_rolled_back_files"] == 1


def test_without_hard_links_the_old_version_is_copied(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    import errno

    def no_links(source: object, target: object) -> None:
        raise OSError(errno.EPERM, "Operation not permitted")

    monkeypatch.setattr(atomic.fs, "link", no_links)
    root = _root(tmp_path)
    before = snapshots.snapshot(root)
    _fail_a_batch(root)
    assert snapshots.snapshot(root) == before


def test_a_nested_writing_operation_joins_the_open_batch(tmp_path: Path) -> None:
    from tasks.store.operation import writing_operation

    root = _root(tmp_path)
    before = snapshots.snapshot(root)
    settings = load_settings(root, fixed_clock=NOW)
    with pytest.raises(RuntimeError), writing_operation(settings, "ingest"):
        atomic_write_text(root / "wiki/made.md", "---\ntitle: made\n---\n\nmade\n")
        with writing_operation(settings, "distill"):  # must not roll back the outer batch
            assert (root / "wiki/made.md").exists()
            atomic_write_text(root / "wiki/old.md", "---\ntitle: new\n---\n\nnew\n")
        assert (root / "wiki/old.md").read_text(encoding="utf-8").endswith("new\n")
        raise RuntimeError("the outer batch fails")
    assert snapshots.snapshot(root) == before


def test_a_reader_inside_the_writers_own_operation_reads_its_open_batch(tmp_path: Path) -> None:
    from tasks.store.operation import writing_operation

    root = _root(tmp_path)
    settings = load_settings(root, fixed_clock=NOW)
    with writing_operation(settings, "reconcile"):
        atomic_write_text(root / "wiki/made.md", "---\ntitle: made\n---\n\nmade\n")
        with reading_operation(settings, "audit"):  # no wait, and no rollback of the batch
            assert (root / "wiki/made.md").exists()
    assert (root / "wiki/made.md").exists() and not pending_batch(root)


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_a_permission_change_is_rolled_back_by_the_next_recover(tmp_path: Path) -> None:
    root = _root(tmp_path)
    page = root / "wiki/old.md"
    page.chmod(0o644)
    journal = WriteJournal(root)  # a killed batch that had changed a file's permission bits
    atomic.register_recorder(journal)
    try:
        assert change_mode(page, 0o444) and not change_mode(page, 0o444)
    finally:
        atomic.unregister_recorder(journal)
    assert _mode(page) == 0o444
    assert recover(root).rolled_back == ["wiki/old.md"]
    assert _mode(page) == 0o644 and not pending_batch(root)


def test_reconciles_raw_permission_repair_is_rolled_back_with_its_batch(tmp_path: Path) -> None:
    """D26: reconcile's chmod of a raw file back to read-only survived its batch's rollback."""
    root = tmp_path / "memory"
    build_healthy_memory(root)
    raw = sorted(p for p in (root / "raw").rglob("*") if p.is_file())[0]
    raw.chmod(0o644)
    with pytest.raises(RuntimeError, match="a later step"), \
            writing_operation(load_settings(root, fixed_clock=NOW), "reconcile") as operation:
        report, _summary = reconcile_memory(operation, check=False)
        assert raw.relative_to(root).as_posix() in {a.path for a in report.artifacts}
        assert _mode(raw) == 0o444
        raise RuntimeError("a later step failed")
    assert _mode(raw) == 0o644


def test_the_generation_changes_with_committed_content_only(tmp_path: Path) -> None:
    """Derived data (the search index) compares it with the one it recorded."""
    from tasks.store.journal import journal_batch, read_generation

    root = tmp_path / "mem"
    (root / "wiki").mkdir(parents=True)
    assert read_generation(root) == ""
    with journal_batch(root) as journal:
        atomic_write_text(root / "wiki/a.md", "# A\n")
        atomic_write_text(root / "wiki/a.md", "# A again\n")
        assert journal.written_since(journal.base_generation) == ["wiki/a.md", "wiki/a.md"]
        middle = journal.generation()
        atomic_write_text(root / "wiki/b.md", "# B\n")
        assert journal.written_since(middle) == ["wiki/b.md"]
        assert journal.written_since("someone-else.3") is None
    committed = read_generation(root)
    assert committed == journal.generation() and committed.endswith(".3")
    with pytest.raises(RuntimeError), journal_batch(root):
        atomic_write_text(root / "wiki/a.md", "# A rolled back\n")
        raise RuntimeError("fail the batch")
    assert read_generation(root) == committed
    with journal_batch(root):  # bookkeeping and health output are not memory content
        atomic_write_text(root / ".membank/cache.json", "{}")
        atomic_write_text(root / "context/health/latest.json", "{}")
    assert read_generation(root) == committed


def test_a_long_running_writer_sweeps_only_after_another_process_held_the_lock(
        tmp_path: Path) -> None:
    import subprocess
    import sys

    from tasks.store import journal
    from tasks.store.journal import sweep_after_others_only

    root = _root(tmp_path)
    (root / "wiki").mkdir(parents=True, exist_ok=True)
    sweep_after_others_only(root)

    def removed() -> list[str]:
        with memory_root_lock(root, timeout=5):
            return recover(root).temp_files_removed

    (root / "wiki" / TEMP).write_bytes(b"half")
    assert removed() == [f"wiki/{TEMP}"]  # the first hold of this process sweeps
    (root / "wiki" / TEMP).write_bytes(b"half")  # (no process can leave one between our holds)
    assert removed() == []  # the holder record is still ours: no walk
    holder = ("import sys; from pathlib import Path; from tasks.store.lock import memory_root_lock\n"
              "with memory_root_lock(Path(sys.argv[1]), timeout=5): pass\n")
    subprocess.run([sys.executable, "-c", holder, str(root)], check=True,
                   env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[3])})
    state_temp = f".membank/{TEMP}"  # (a search index is also built under the shared lock)
    (root / state_temp).write_bytes(b"half")
    # another process held it and released it cleanly: only .membank/ is swept
    assert removed() == [state_temp]
    orphan = "wiki/.old.md.zz99yy88.tmp"
    _killed_in_a_hold(root, orphan)
    assert removed() == sorted([f"wiki/{TEMP}", orphan])  # a process killed in it: swept
    (root / "wiki" / TEMP).write_bytes(b"half")
    with pytest.raises(RuntimeError), memory_root_lock(root, timeout=5):
        raise RuntimeError("a hold that ends in an error")
    assert removed() == [f"wiki/{TEMP}"]  # after an error: swept
    (root / "wiki" / TEMP).write_bytes(b"half")
    (root / state_temp).write_bytes(b"half")
    journal._swept[Path(os.path.abspath(root))] -= journal.SWEEP_EVERY_SECONDS
    assert removed() == [state_temp]  # and at least every SWEEP_EVERY_SECONDS (a clean hold
    # before: .membank/ only)
    journal._sweep_after_others.discard(Path(os.path.abspath(root)))
    _killed_in_a_hold(root, orphan)
    assert removed() == sorted([f"wiki/{TEMP}", orphan])  # any other process: every writer
    # sweeps after a hold that did not end cleanly


def test_one_command_walks_the_root_for_temp_files_once(tmp_path: Path) -> None:
    """Within one_sweep_per_call (ingest, then distill) only the first writer batch sweeps;
    outside it, every batch does, the whole root when the hold before it did not end cleanly."""
    from tasks.store.journal import one_sweep_per_call

    root = tmp_path / "memory"
    build_healthy_memory(root)
    settings = load_settings(root, fixed_clock=NOW)
    _killed_in_a_hold(root, f"wiki/{TEMP}")
    with one_sweep_per_call():
        with writing_operation(settings, "ingest") as operation:
            assert operation.report.figures["recovered_temp_files_removed"] == 1
        (root / "wiki" / TEMP).write_bytes(b"half")  # (only a crash of another process could)
        with writing_operation(settings, "distill") as operation:
            assert "recovered_temp_files_removed" not in operation.report.figures
    with writing_operation(settings, "distill") as operation:  # after a clean hold: .membank/
        assert "recovered_temp_files_removed" not in operation.report.figures
    _killed_in_a_hold(root, f"wiki/entities/{TEMP}")
    with writing_operation(settings, "distill") as operation:  # after a crash: the whole root
        assert operation.report.figures["recovered_temp_files_removed"] == 2
