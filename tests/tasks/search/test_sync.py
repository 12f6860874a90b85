"""The index is never silently wrong: tied to the writer's batch (rolled back, failed or killed
updates are seen by the next reader), corrupt files rebuilt, `reconcile --check` reports it."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from filelock import FileLock

from tasks.checks.reconcile import reconcile_memory
from tasks.search import index as search_index
from tasks.search.index import build_index, index_file, index_status, stale_pages
from tasks.search.query import SearchOptions, search
from tasks.search.refresh import refresh_search_index
from tasks.search.sync import BEHIND_WARNING, rebuild_index
from tasks.store.atomic import atomic_write_text, remove_file
from tasks.store.errors import LockTimeoutError
from tasks.store.journal import read_generation
from tasks.store.layout import MemoryLayout
from tasks.store.lock import lock_paths
from tasks.store.operation import begin_operation, writing_operation
from tasks.store.pages import render_page
from tasks.store.settings import load_settings
from tests.conftest import REPO_ROOT
from tests.memory_builder import PREFIX
from tests.tasks.search.search_memory import SYNTHESIS, build_search_memory

NOW = "2026-03-24T22:40:05Z"
NEW_PAGE = f"wiki/concepts/{PREFIX}__ocelot-notes.md"


@pytest.fixture
def layout(tmp_path: Path) -> MemoryLayout:
    layout = build_search_memory(tmp_path / "mem")
    build_index(layout)
    return layout


def hit_paths(layout: MemoryLayout, query: str) -> list[str]:
    return [h.path for h in search(layout, query, SearchOptions(limit=20)).hits]


def extend_synthesis(layout: MemoryLayout, line: str) -> None:
    path = layout.root / SYNTHESIS
    atomic_write_text(path, path.read_text() + f"\n{line}\n")


def write_new_page(layout: MemoryLayout) -> None:
    """As a writer does: through the atomic writer (journaled inside a batch)."""
    atomic_write_text(layout.root / NEW_PAGE, render_page(
        {"type": "concept", "title": "Ocelot notes", "description": "Notes."},
        "# Ocelot notes\n\nAn ocelot.\n"))


def reconcile_check_codes(layout: MemoryLayout) -> set[str]:
    settings = load_settings(layout.root, fixed_clock=NOW)
    _report, summary = reconcile_memory(begin_operation(settings, "reconcile"), check=True)
    return {f.code for f in summary.findings}


# D22: a rolled-back batch's index update is not what search answers from ------------------


def test_search_never_answers_from_a_rolled_back_batch(layout: MemoryLayout) -> None:
    settings = load_settings(layout.root, fixed_clock=NOW)
    with pytest.raises(RuntimeError), writing_operation(settings, "propose") as operation:
        extend_synthesis(layout, "The ocelot rule was proposed here.")
        refresh_search_index(operation, [SYNTHESIS])
        assert hit_paths(layout, "ocelot") == [SYNTHESIS]  # the writer reads its own batch
        raise RuntimeError("a later step of the batch fails: everything is rolled back")
    assert "ocelot" not in (layout.root / SYNTHESIS).read_text()
    assert hit_paths(layout, "ocelot") == []
    assert hit_paths(layout, "third retry")[0] == SYNTHESIS
    assert stale_pages(layout) == []


def test_search_after_a_killed_batch_recovers_and_answers_from_the_old_pages(
        layout: MemoryLayout) -> None:
    code = ("import os, sys\n"
            "from pathlib import Path\n"
            "from tasks.search.refresh import refresh_search_index\n"
            "from tasks.store.atomic import atomic_write_text\n"
            "from tasks.store.operation import writing_operation\n"
            "from tasks.store.settings import load_settings\n"
            "root, rel = Path(sys.argv[1]), sys.argv[2]\n"
            "with writing_operation(load_settings(root), 'propose') as operation:\n"
            "    atomic_write_text(root / rel, (root / rel).read_text() + '\\nAn ocelot rule.\\n')\n"
            "    refresh_search_index(operation, [rel])\n"
            "    os._exit(9)  # killed before the commit\n")
    done = subprocess.run([sys.executable, "-c", code, str(layout.root), SYNTHESIS],
                          cwd=REPO_ROOT, capture_output=True, text=True, check=False)
    assert done.returncode == 9, done.stderr
    assert "ocelot" in (layout.root / SYNTHESIS).read_text()  # the killed batch's state
    assert hit_paths(layout, "ocelot") == []  # the reader recovered the root first
    assert "ocelot" not in (layout.root / SYNTHESIS).read_text()
    assert index_status(layout)[1]["generation"] == read_generation(layout.root)


# D21: a failed index update is seen and caught up; the real error is not masked -----------


def _fail_like_a_full_disk(monkeypatch: pytest.MonkeyPatch) -> None:
    """SQLite rolls a transaction back by itself on SQLITE_FULL or an I/O error; the update's
    own ROLLBACK then finds no transaction."""
    def flush(self: search_index._Rows) -> None:
        self.conn.execute("ROLLBACK")
        raise sqlite3.OperationalError("database or disk is full")

    monkeypatch.setattr(search_index._Rows, "flush", flush)


def test_a_failed_index_update_keeps_the_real_error_and_the_next_search_catches_up(
        layout: MemoryLayout, monkeypatch: pytest.MonkeyPatch) -> None:
    settings = load_settings(layout.root, fixed_clock=NOW)
    with monkeypatch.context() as patch:
        _fail_like_a_full_disk(patch)
        with writing_operation(settings, "ingest") as operation:
            write_new_page(layout)
            assert refresh_search_index(operation, [NEW_PAGE]) is None
    warnings = operation.report.memory_health.consistency_warnings
    assert len(warnings) == 1 and "database or disk is full" in warnings[0], warnings
    assert "cannot rollback" not in warnings[0]
    assert "search_index_stale" in reconcile_check_codes(layout)
    assert hit_paths(layout, "ocelot") == [NEW_PAGE]
    assert "search_index_stale" not in reconcile_check_codes(layout)


def test_a_batch_that_writes_pages_without_updating_the_index_is_caught_up(
        layout: MemoryLayout) -> None:
    """e.g. forget, or a page a stage wrote after its own index update."""
    settings = load_settings(layout.root, fixed_clock=NOW)
    with writing_operation(settings, "forget"):
        remove_file(layout.root / SYNTHESIS)
        write_new_page(layout)
    assert hit_paths(layout, "ocelot") == [NEW_PAGE]
    assert SYNTHESIS not in hit_paths(layout, "retry budget")


def test_an_index_behind_from_before_is_fully_checked_by_the_next_batch(
        layout: MemoryLayout) -> None:
    """A batch committed pages whose index update failed; the next batch's update finds them."""
    write_new_page(layout)
    (layout.root / ".membank/generation").write_text("an-earlier-batch.4\n")
    settings = load_settings(layout.root, fixed_clock=NOW)
    with writing_operation(settings, "ingest") as operation:
        extend_synthesis(layout, "A wombat line.")
        refresh_search_index(operation, [SYNTHESIS])
    assert stale_pages(layout) == []
    assert index_status(layout)[1]["generation"] == read_generation(layout.root)
    assert hit_paths(layout, "wombat") == [SYNTHESIS]
    assert hit_paths(layout, "ocelot") == [NEW_PAGE]


def test_a_reader_beside_a_running_writer_answers_with_a_warning(layout: MemoryLayout) -> None:
    write_new_page(layout)
    (layout.root / ".membank").mkdir(exist_ok=True)
    (layout.root / ".membank/generation").write_text("another-writer.3\n")
    with FileLock(str(lock_paths(layout.root)[0]), is_singleton=False):
        result = search(layout, "ocelot")
    assert result.warnings == [BEHIND_WARNING] and result.hits == []
    assert hit_paths(layout, "ocelot") == [NEW_PAGE]  # once the writer is gone


def test_rebuild_waits_for_the_writer_lock(layout: MemoryLayout) -> None:
    """D21(b): a rebuild beside a writer's batch would lose the batch's index updates."""
    with FileLock(str(lock_paths(layout.root)[0]), is_singleton=False), \
            pytest.raises(LockTimeoutError, match="locked by another writer"):
        rebuild_index(layout, wait=0.1)
    assert rebuild_index(layout, wait=0.1).action == "built"


def test_a_rebuild_sweeps_the_temp_file_of_a_killed_rebuild(layout: MemoryLayout) -> None:
    """D23 rerun (bench_trials): `search --rebuild` killed at its rename leaves
    .membank/.search.sqlite3.<8 chars>.tmp; the rerun, under the writer lock, removes it."""
    orphan = layout.root / ".membank" / ".search.sqlite3.7xwwooei.tmp"
    orphan.write_bytes(b"half an index")
    assert rebuild_index(layout, wait=0.1).action == "built"
    assert not orphan.exists()
    assert sorted(p.name for p in (layout.root / ".membank").iterdir() if p.name.endswith(".tmp")) == []


# D24: a corrupt index is rebuilt by the reader and reported by reconcile --check -----------


def _zero_the_middle(path: Path) -> None:
    """Keep the header and the first pages (meta), zero the rest but the last page."""
    size = path.stat().st_size
    start, end = 8192, max(8192, size - 4096)
    with path.open("r+b") as handle:
        handle.seek(start)
        handle.write(b"\0" * (end - start))


def test_an_index_zeroed_mid_file_is_reported_and_rebuilt_by_a_read(layout: MemoryLayout) -> None:
    expected = hit_paths(layout, "retry budget")
    _zero_the_middle(index_file(layout))
    assert index_status(layout)[0] == "ok"  # its header and meta still read
    assert "search_index_corrupt" in reconcile_check_codes(layout)
    assert hit_paths(layout, "retry budget") == expected
    assert "search_index_corrupt" not in reconcile_check_codes(layout)


def test_a_folder_in_the_index_place_is_rebuilt_or_reported(layout: MemoryLayout) -> None:
    from tasks.search.browse import browse
    from tasks.search.index import SearchIndexError

    expected = hit_paths(layout, "retry budget")
    index_file(layout).unlink()
    index_file(layout).mkdir()
    assert "search_index_corrupt" in reconcile_check_codes(layout)
    assert hit_paths(layout, "retry budget") == expected
    index_file(layout).unlink()
    index_file(layout).mkdir()
    (index_file(layout) / "keep.txt").write_text("not ours to remove")
    with pytest.raises(SearchIndexError, match="holds a folder"):
        browse(layout, "retry budget")
    assert (index_file(layout) / "keep.txt").exists()


def test_cli_search_rebuilds_a_zeroed_index(layout: MemoryLayout) -> None:
    from typer.testing import CliRunner

    from flows.cli.app import app

    _zero_the_middle(index_file(layout))
    result = CliRunner().invoke(app, ["search", "retry budget", "--root", str(layout.root)],
                                env={"MEMBANK_SEARCH_SEMANTIC": "0"})  # the index as built
    assert result.exit_code == 0, result.output
    assert SYNTHESIS in result.stdout and "internal error" not in result.output
    assert os.path.isfile(index_file(layout))


def test_a_catch_up_that_fails_still_answers_with_a_warning(
        layout: MemoryLayout, monkeypatch: pytest.MonkeyPatch) -> None:
    from tasks.search import sync

    def broken(*_args: object, **_kwargs: object) -> None:
        raise sqlite3.OperationalError("disk I/O error")

    (layout.root / ".membank/generation").write_text("a-later-batch.2\n")
    monkeypatch.setattr(sync, "update_index", broken)
    result = search(layout, "third retry")
    assert result.hits and result.hits[0].path == SYNTHESIS
    assert len(result.warnings) == 1 and "disk I/O error" in result.warnings[0]
