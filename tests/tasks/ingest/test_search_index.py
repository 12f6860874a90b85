"""The run that ingests leaves the search index current, built if it was missing, so the first
search after an ingest finds it warm (issue 30 item 4)."""

from __future__ import annotations

from pathlib import Path

from tasks.ingest import collect_inputs, prepare_batch, write_ingest
from tasks.search.index import index_file, index_status
from tasks.search.query import SearchOptions, search
from tasks.store.layout import MemoryLayout
from tasks.store.settings import load_settings
from tests.conftest import FIXED_NOW

NOTE = "# Ocelot feeding plan\n\nThe ocelot eats at dawn; the keeper logs each meal.\n"


def ingest(root: Path, path: Path) -> None:
    settings = load_settings(root, fixed_clock=FIXED_NOW, search_semantic=False)
    inputs, problems = collect_inputs([str(path)])
    write_ingest(settings, prepare_batch(inputs, settings), problems)


def test_ingest_builds_a_missing_index_and_the_first_search_is_warm(tmp_path: Path) -> None:
    root = tmp_path / "memory"
    note = tmp_path / "ocelot-feeding-plan.md"
    note.write_text(NOTE, encoding="utf-8")
    ingest(root, note)
    layout = MemoryLayout(root.resolve())
    assert index_status(layout)[0] == "ok"
    built = index_file(layout).stat()
    hits = search(layout, "ocelot", SearchOptions(limit=5, semantic=False)).hits
    assert any("ocelot" in hit.path for hit in hits), hits
    after = index_file(layout).stat()
    assert (after.st_ino, after.st_mtime_ns) == (built.st_ino, built.st_mtime_ns)  # not rebuilt


def test_next_ingest_updates_the_index_it_built(tmp_path: Path) -> None:
    root = tmp_path / "memory"
    note = tmp_path / "ocelot-feeding-plan.md"
    note.write_text(NOTE, encoding="utf-8")
    ingest(root, note)
    note.write_text(NOTE + "\nThe margay eats at dusk.\n", encoding="utf-8")
    ingest(root, note)
    layout = MemoryLayout(root.resolve())
    assert index_status(layout)[0] == "ok"
    assert search(layout, "margay", SearchOptions(limit=5, semantic=False)).hits
