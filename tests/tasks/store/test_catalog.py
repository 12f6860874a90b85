from pathlib import Path

from tasks.store.catalog import (
    CatalogEntry,
    parse_entry_lines,
    read_index_entries,
    update_hub,
    update_index,
)
from tasks.store.layout import MemoryLayout
from tasks.store.pages import read_page

T0, T1 = "2026-03-24T22:40:05Z", "2026-03-25T00:00:00Z"
SOURCE = CatalogEntry("wiki/sources/2026-03-24T22-40-05Z__design-notes.md", "Design [notes]",
                      "How the store is laid out.")
ENTITY = CatalogEntry("wiki/entities/2026-03-24T22-40-05Z__orchestrator.md", "orchestrator", "A service.")


def test_index_lists_entries_by_category_and_parses_back(tmp_path: Path) -> None:
    layout = MemoryLayout(tmp_path)
    assert update_index(layout, [ENTITY, SOURCE], now_iso=T0).created
    body = read_page(layout.index_file).body
    assert body.index("## Sources") < body.index(SOURCE.path) < body.index("## Entities") < body.index(ENTITY.path)
    assert read_index_entries(layout) == {SOURCE.path: SOURCE, ENTITY.path: ENTITY}


def test_index_update_is_idempotent_and_upserts(tmp_path: Path) -> None:
    layout = MemoryLayout(tmp_path)
    update_index(layout, [SOURCE], now_iso=T0)
    assert not update_index(layout, [SOURCE], now_iso=T1).changed
    renamed = CatalogEntry(SOURCE.path, "Design notes v2", SOURCE.description)
    assert update_index(layout, [renamed], now_iso=T1).changed
    assert read_index_entries(layout)[SOURCE.path].title == "Design notes v2"
    update_index(layout, [ENTITY], now_iso=T1, replace_all=True)
    assert list(read_index_entries(layout)) == [ENTITY.path]


def test_hub_lists_children_with_relative_links(tmp_path: Path) -> None:
    layout = MemoryLayout(tmp_path)
    update_hub(layout, "wiki/sources/index.md", [SOURCE], now_iso=T0)
    page = read_page(tmp_path / "wiki/sources/index.md")
    assert page.meta["type"] == "hub" and page.meta["child_of"] == ["index.md"]
    assert "](2026-03-24T22-40-05Z__design-notes.md)" in page.body
    assert parse_entry_lines(page.body, base="wiki/sources") == {SOURCE.path: SOURCE}
    assert not update_hub(layout, "wiki/sources/index.md", [SOURCE], now_iso=T1).changed
