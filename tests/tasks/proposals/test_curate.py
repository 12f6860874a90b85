"""memory_curate's operations: supersede, merge, link, unlink; never deleting a fact."""

from __future__ import annotations

from pathlib import Path

import pytest

from tasks.proposals.curate import CurateRequest, curate
from tasks.store.errors import InputError
from tasks.store.pages import read_page
from tasks.store.settings import load_settings
from tests.proposal_fixtures import EXISTING, TOPIC_HUB, seed_memory

NOW = "2026-03-26T12:00:00Z"
FOLDER_HUB = "wiki/concepts/index.md"


@pytest.fixture
def root(tmp_path: Path) -> Path:
    seed_memory(tmp_path / "m")
    return tmp_path / "m"


def run(root: Path, **fields: object) -> list[str]:
    report = curate(load_settings(root, fixed_clock=NOW), CurateRequest(**fields))  # type: ignore[arg-type]
    return [a.path for a in report.artifacts if a.why.startswith("memory_curate")]


def test_supersede_a_page_links_both_ways_and_deletes_nothing(root: Path) -> None:
    before = read_page(root / EXISTING).body
    written = run(root, op="supersede", pageId=EXISTING, supersededByPageId=TOPIC_HUB)
    assert written == [EXISTING, TOPIC_HUB]
    page = read_page(root / EXISTING)
    assert page.meta["superseded_by"] == [TOPIC_HUB] and page.body == before
    assert read_page(root / TOPIC_HUB).meta["supersedes"] == [EXISTING]
    assert run(root, op="supersede", pageId=EXISTING, supersededByPageId=TOPIC_HUB) == []
    assert f"updated: {TOPIC_HUB}" in (root / "log.md").read_text()


def test_supersede_a_section_keeps_its_old_text(root: Path) -> None:
    page = read_page(root / EXISTING)
    anchor = next(line[3:].strip().lower() for line in page.body.splitlines() if line.startswith("## "))
    old_line = page.body.split(f"## {anchor.capitalize()}", 1)[-1].strip().splitlines()[0]
    assert run(root, op="supersede", pageId=EXISTING, section=anchor,
               supersededByPageId=TOPIC_HUB, supersededBySection="overview") == [EXISTING]
    body = read_page(root / EXISTING).body
    assert "Superseded by [" in body and "#overview" in body
    assert "## Superseded" in body and f"> {old_line}" in body


def test_merge_keeps_the_source_page_and_the_older_text(root: Path) -> None:
    written = run(root, op="merge", pageId=TOPIC_HUB, sourcePageId=EXISTING,
                  targetSection="overview", mergedContent="Everything about failures, and retries.")
    assert sorted(written) == sorted([TOPIC_HUB, EXISTING])
    target = read_page(root / TOPIC_HUB)
    assert "Everything about failures, and retries." in target.body
    assert "> Everything about surviving failures." in target.body  # under Superseded
    assert target.meta["supersedes"] == [EXISTING]
    assert (root / EXISTING).is_file()
    assert read_page(root / EXISTING).meta["superseded_by"] == [TOPIC_HUB]


def test_link_and_unlink_a_typed_link(root: Path) -> None:
    assert run(root, op="link", pageId=EXISTING, kind="derived-from",
               toPath="raw/2026-03-20T10-00-00Z__design-notes.md") == [EXISTING]
    assert read_page(root / EXISTING).meta["derived_from"] == ["raw/2026-03-20T10-00-00Z__design-notes.md"]
    assert run(root, op="unlink", pageId=EXISTING,
               linkId="derived-from:raw/2026-03-20T10-00-00Z__design-notes.md") == [EXISTING]
    assert "derived_from" not in read_page(root / EXISTING).meta


@pytest.mark.parametrize(("fields", "words"), [
    ({"op": "delete", "pageId": EXISTING}, "not served"),
    ({"op": "supersede", "pageId": "../outside.md", "supersededByPageId": TOPIC_HUB}, "inside the memory"),
    ({"op": "supersede", "pageId": EXISTING, "supersededByPageId": "wiki/none.md"}, "existing wiki page"),
    ({"op": "supersede", "pageId": EXISTING, "supersededByPageId": EXISTING}, "itself"),
    ({"op": "link", "pageId": EXISTING, "kind": "likes", "toPath": TOPIC_HUB}, "typed link"),
    ({"op": "link", "pageId": EXISTING, "kind": "child-of", "toPath": "wiki/nope.md"}, "not an existing"),
    ({"op": "supersede", "pageId": EXISTING, "section": "nope", "supersededByPageId": TOPIC_HUB}, "no section"),
    ({"op": "link", "pageId": EXISTING, "extra": {"childPaths": ["x"]}}, "not used"),
])
def test_bad_requests_are_one_clear_error_and_change_nothing(root: Path, fields: dict[str, object],
                                                              words: str) -> None:
    before = {p: p.read_bytes() for p in root.rglob("*.md")}
    with pytest.raises(InputError, match=words):
        run(root, **fields)
    assert {p: p.read_bytes() for p in root.rglob("*.md")} == before


def _listed(root: Path, hub: str) -> str:
    return read_page(root / hub).body


def test_reparent_moves_a_child_under_a_topic_hub_and_back(root: Path) -> None:
    body_before = read_page(root / EXISTING).body
    written = run(root, op="reparent", pageId=TOPIC_HUB, childPaths=[EXISTING],
                  reason="retries belong to resilience")
    assert sorted(written) == sorted([EXISTING, FOLDER_HUB, TOPIC_HUB])
    page = read_page(root / EXISTING)
    assert page.meta["child_of"] == [TOPIC_HUB] and page.body == body_before  # no text dropped
    assert "[Retry policy](2026-03-20T10-00-00Z__retry-policy.md)" in _listed(root, TOPIC_HUB)
    assert "retry-policy" not in _listed(root, FOLDER_HUB)
    assert "[Resilience]" in _listed(root, FOLDER_HUB)  # the other child stays listed
    assert "Everything about surviving failures." in _listed(root, TOPIC_HUB)  # overview kept
    assert f"({EXISTING})" in (root / "index.md").read_text()  # still catalogued
    assert f"updated: {EXISTING}" in (root / "log.md").read_text()
    assert run(root, op="reparent", pageId=TOPIC_HUB, childPaths=[EXISTING]) == []  # idempotent
    back = run(root, op="reparent", pageId="wiki/concepts", childPaths=[EXISTING])
    assert sorted(back) == sorted([EXISTING, FOLDER_HUB, TOPIC_HUB])
    assert read_page(root / EXISTING).meta["child_of"] == [FOLDER_HUB]
    assert "retry-policy" in _listed(root, FOLDER_HUB)
    assert "retry-policy" not in _listed(root, TOPIC_HUB)


def test_reparent_is_seen_by_the_search_index(root: Path) -> None:
    from tasks.search.query import SearchOptions, search
    from tasks.store.layout import MemoryLayout

    layout = MemoryLayout(root.resolve())
    search(layout, "retry")  # builds the index
    run(root, op="reparent", pageId=TOPIC_HUB, childPaths=[EXISTING])
    hits = search(layout, "retry policy", SearchOptions(hub=TOPIC_HUB)).hits
    assert [h.path for h in hits] == [EXISTING]


@pytest.mark.parametrize(("fields", "words"), [
    ({"op": "reparent", "pageId": TOPIC_HUB}, "childPaths is missing"),
    ({"op": "reparent", "pageId": EXISTING, "childPaths": [TOPIC_HUB]}, "not a hub"),
    ({"op": "reparent", "pageId": TOPIC_HUB, "childPaths": [TOPIC_HUB]}, "cycle"),
    ({"op": "reparent", "pageId": TOPIC_HUB, "childPaths": [FOLDER_HUB]}, "cannot be re-parented"),
    ({"op": "reparent", "pageId": "wiki/synthesis", "childPaths": [EXISTING]}, "not in wiki/synthesis"),
    ({"op": "reparent", "pageId": TOPIC_HUB, "childPaths": ["../x.md"]}, "inside the memory"),
    ({"op": "reparent", "pageId": TOPIC_HUB, "childPaths": [EXISTING, "wiki/concepts/no.md"]},
     "existing wiki page"),
    ({"op": "merge", "pageId": TOPIC_HUB, "sourcePageId": EXISTING, "childPaths": [EXISTING]},
     "childPaths is not used by op merge"),
    ({"op": "link", "pageId": EXISTING, "kind": "derived-from", "toPath": TOPIC_HUB,
      "toSection": "nowhere"}, "has no section #nowhere"),
    ({"op": "link", "pageId": EXISTING, "kind": "child-of", "toPath": TOPIC_HUB,
      "toSection": "overview"}, "not a section"),
    ({"op": "supersede", "pageId": EXISTING, "supersededByPageId": TOPIC_HUB, "limit": 0},
     "limit must be 1 or more"),
    ({"op": "reparent", "pageId": TOPIC_HUB, "childPaths": [EXISTING], "limit": 2},
     "would write 3 pages, over limit 2"),
])
def test_bad_reparents_are_one_clear_error_and_change_nothing(root: Path, fields: dict[str, object],
                                                              words: str) -> None:
    before = {p: p.read_bytes() for p in root.rglob("*.md")}
    with pytest.raises(InputError, match=words):
        run(root, **fields)
    assert {p: p.read_bytes() for p in root.rglob("*.md")} == before


def test_a_reparent_that_fails_midway_is_rolled_back(root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import tasks.proposals.curate as curate_module

    before = {p: p.read_bytes() for p in root.rglob("*.md")}

    def broken(*_args: object, **_kwargs: object) -> object:
        raise OSError("disk full")

    monkeypatch.setattr(curate_module, "update_index", broken)
    with pytest.raises(OSError):
        run(root, op="reparent", pageId=TOPIC_HUB, childPaths=[EXISTING])
    assert {p: p.read_bytes() for p in root.rglob("*.md")} == before


def test_a_link_into_a_section_names_its_anchor_and_is_not_a_dead_link(root: Path) -> None:
    from tasks.checks.reconcile.gates import _resolve_typed
    from tasks.checks.scan import scan_memory

    assert run(root, op="link", pageId=EXISTING, kind="derived-from", toPageId=TOPIC_HUB,
               toSection="#Overview", limit=1) == [EXISTING]
    assert read_page(root / EXISTING).meta["derived_from"] == [f"{TOPIC_HUB}#overview"]
    assert _resolve_typed(scan_memory(root), f"{TOPIC_HUB}#overview") == TOPIC_HUB
    assert run(root, op="unlink", pageId=EXISTING, linkId=f"derived-from:{TOPIC_HUB}#overview") == [
        EXISTING]
    assert "derived_from" not in read_page(root / EXISTING).meta
