"""FolderSlugs: a slug's first file name, by lookups among the names or from the map of every
slug, the same either way; slugs added by the caller count as taken."""

from __future__ import annotations

from pathlib import Path

from tasks.store import folder_slugs
from tasks.store.folder_slugs import FolderSlugs


def entity_page_slug(name: str) -> str | None:  # (as tasks/distill/entity_pages.py names pages)
    return name[:-3].split("__", 1)[1] if name.endswith(".md") and "__" in name else None


NAMES = ["2026-02-01T00-00-00Z__cache.md", "2026-01-01T00-00-00Z__cache.md",  # first by name
         "2026-01-01T00-00-00Z__a__cache.md",  # slug "a__cache", not "cache"
         "2026-01-01T00-00-00Z__cache.md.bak", "cache.md", "__.md", ".md", "notes.txt",
         "2026-03-01T00-00-00Z__ledger-2.md", "2026-03-01T00-00-00Z__ledger.md", "x__a__cache.md"]
ASKED = ["cache", "a__cache", "ledger", "ledger-2", "", "missing", "md", "a", "cache.md"]
FIRST = {"cache": "2026-01-01T00-00-00Z__cache.md", "a__cache": "2026-01-01T00-00-00Z__a__cache.md",
         "ledger": "2026-03-01T00-00-00Z__ledger.md", "ledger-2": "2026-03-01T00-00-00Z__ledger-2.md",
         "": "__.md"}


def folder(tmp_path: Path) -> Path:
    for name in NAMES:
        (tmp_path / name).write_text("x")
    return tmp_path


def test_a_slugs_first_name_by_lookups_and_by_the_map_agree(tmp_path: Path) -> None:
    where = folder(tmp_path)
    assert FolderSlugs(where, entity_page_slug).slug_map() == FIRST
    looked_up = FolderSlugs(where, entity_page_slug)
    assert [looked_up.first(slug) for slug in ASKED] == [FIRST.get(slug) for slug in ASKED]
    assert looked_up._map is None  # (a few slugs: no map of the folder)
    many = FolderSlugs(where, entity_page_slug)
    others = [f"{number}-other" for number in range(folder_slugs.SCANS_BEFORE_MAP)]
    answers = [many.first(slug) for slug in [*others, *ASKED]]  # past the scans: the map
    assert many._map is not None
    assert answers == [None] * len(others) + [FIRST.get(slug) for slug in ASKED]


def test_the_versions_of_one_slug_take_one_scan(tmp_path: Path) -> None:
    for number in ["", *(f"-{n}" for n in range(2, 30))]:
        (tmp_path / f"2026-01-01T00-00-00Z__note{number}.md").write_text("x")
    slugs = FolderSlugs(tmp_path, entity_page_slug)
    slug, number = "note", 1
    while slug in slugs:
        number += 1
        slug = f"note-{number}"
    assert slug == "note-30"
    assert list(slugs._near) == ["note"] and slugs._map is None


def test_added_slugs_are_taken_and_a_missing_folder_has_none(tmp_path: Path) -> None:
    slugs = FolderSlugs(folder(tmp_path), entity_page_slug)
    assert "cache" in slugs and "new" not in slugs
    slugs.add("new")
    assert "new" in slugs and slugs.first("new") is None  # (taken, but no file of it on disk)
    gone = FolderSlugs(tmp_path / "missing", entity_page_slug)
    assert "cache" not in gone and gone.slug_map() == {}
