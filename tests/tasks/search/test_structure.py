"""The root structure surface: hubs by their own updatedAt, hubsByRecent by subtree freshness,
navigation start points children-rich first, the Memory Map."""

from __future__ import annotations

from pathlib import Path

from tasks.search.structure import memory_map, navigation, root_structure
from tests.memory_builder import PREFIX, page_meta, write
from tests.tasks.search.search_memory import build_search_memory

LATE = "2026-05-01T00:00:00Z"


def test_a_child_newer_than_its_hub_moves_the_hub_up_in_hubs_by_recent(tmp_path: Path) -> None:
    layout = build_search_memory(tmp_path / "m")
    child = f"wiki/synthesis/{PREFIX}__late-synthesis.md"
    write(layout.root, child, page_meta("synthesis", "Late synthesis", "wiki/synthesis/index.md",
                                     when=LATE), "# Late synthesis\n\nWritten after every hub.\n")
    (layout.root / ".membank" / "search.sqlite3").unlink(missing_ok=True)
    surface = root_structure(layout)
    synthesis = next(h for h in surface.hubs if h.path == "wiki/synthesis/index.md")
    assert synthesis.updatedAt == LATE and synthesis.childrenCount == 2
    assert surface.hubs[-1].path == "wiki/synthesis/index.md"  # its own updated_at ties: by path
    assert surface.hubsByRecent[0].path == "wiki/synthesis/index.md"
    own = [h.path for h in surface.hubs]
    assert own != [h.path for h in surface.hubsByRecent]  # the two orders differ exactly here
    assert surface.nearest[0].path == child and surface.index.path == "index.md"


def test_navigation_and_the_memory_map(tmp_path: Path) -> None:
    layout = build_search_memory(tmp_path / "m")
    starts = navigation(layout).startPoints
    assert starts[0].pageType == "index" and starts[0].childrenCount == len(starts) - 1
    counts = [s.childrenCount for s in starts[1:]]
    assert counts == sorted(counts, reverse=True)
    text = memory_map(layout)
    assert text.startswith("# Memory Map") and "- wiki/sources/index.md: " in text
    assert text == memory_map(layout)  # stable digest


def test_a_warm_process_sees_the_structure_change_with_the_index(tmp_path: Path) -> None:
    from tasks.search.index import update_index

    layout = build_search_memory(tmp_path / "m")
    before = root_structure(layout)  # kept: the hubs and newest pages of this index state
    assert root_structure(layout) == before
    child = f"wiki/synthesis/{PREFIX}__later-synthesis.md"
    write(layout.root, child, page_meta("synthesis", "Later synthesis", "wiki/synthesis/index.md",
                                     when=LATE), "# Later synthesis\n\nWritten last.\n")
    update_index(layout, [child])
    after = root_structure(layout)
    assert after.nearest[0].path == child and after.hubsByRecent[0].path == "wiki/synthesis/index.md"
    (layout.root / child).unlink()  # a page gone from disk is never served, index or not
    assert child not in [p.path for p in root_structure(layout).nearest]
    index_text = (layout.root / "index.md").read_text()
    (layout.root / "index.md").write_text(index_text.replace("title: ", "title: Renamed ", 1))
    assert root_structure(layout).index.title.startswith("Renamed")
