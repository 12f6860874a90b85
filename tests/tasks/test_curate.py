"""memory_curate's operations: supersede, merge, link, unlink; never deleting a fact."""

from __future__ import annotations

from pathlib import Path

import pytest

from tasks.curate import CurateRequest, curate
from tasks.store.errors import InputError
from tasks.store.pages import read_page
from tasks.store.settings import load_settings
from tests.proposal_fixtures import EXISTING, TOPIC_HUB, seed_memory

NOW = "2026-03-26T12:00:00Z"


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
