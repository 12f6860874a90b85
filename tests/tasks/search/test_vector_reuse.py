"""An update embeds only the texts whose vector the page's rows do not hold already: the
vectors it writes are those a full build computes, bit for bit."""

from __future__ import annotations

import shutil
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

import tasks.search.index as search_index
from tasks.search.index import build_index, index_file, update_index
from tasks.search.semantic import embed
from tasks.store.layout import MemoryLayout
from tests.memory_builder import page_meta, write
from tests.tasks.search.search_memory import SYNTHESIS, build_search_memory

LONG = "\n\n".join(f"Paragraph {n} about the wombat ledger and its replicas. " * 12
                   for n in range(12))
PAGES = {
    SYNTHESIS: ("Upload retry budget", "# Upload retry budget\n\nHow many times an upload is "
                "retried.\n\n## Evidence\n\nForty failed uploads.\n\n## Budget\n\nThree.\n"),
    "wiki/concepts/long.md": ("Long page", f"## Intro\n\nShort.\n\n## Long\n\n{LONG}\n\n"
                              "## Tail\n\nThe end.\n"),
    "wiki/concepts/empty.md": ("Empty page", ""),
}
# Each step: page -> (title, body); None keeps the page as it was.
STEPS = [
    {"wiki/concepts/long.md": ("Long page", f"## Intro\n\nShort, changed.\n\n## Long\n\n{LONG}"
                               "\n\n## Tail\n\nThe end.\n")},
    {SYNTHESIS: ("Upload retry budget", "# Upload retry budget\n\nHow many times an upload is "
                 "retried.\n\n## Evidence\n\nForty failed uploads.\n\n## Budget\n\nFour.\n")},
    {SYNTHESIS: ("Upload retries", "# Upload retry budget\n\nHow many times an upload is "
                 "retried.\n\n## Evidence\n\nForty failed uploads.\n\n## Budget\n\nFour.\n"),
     "wiki/concepts/empty.md": ("Empty page", "## Now\n\nSomething.\n")},
    {"wiki/concepts/empty.md": ("Empty again", ""),
     "wiki/concepts/long.md": ("Long page", f"Preamble first.\n\n## Intro\n\nShort.\n\n## Long"
                               f"\n\n{LONG}\n\n## Tail\n\nThe end.\n")},
]


def _write(root: Path, pages: dict[str, tuple[str, str]]) -> None:
    for rel, (title, body) in pages.items():
        write(root, rel, page_meta("concept", title, "wiki/concepts/index.md"), body)


def _vectors(layout: MemoryLayout) -> list[tuple[object, ...]]:
    with closing(sqlite3.connect(index_file(layout))) as conn:
        return sorted(conn.execute(
            "SELECT d.path, u.anchor, u.heading, v.vec FROM vectors v JOIN units u ON"
            " u.id = v.unit_id JOIN docs d ON d.id = u.doc_id").fetchall())


def test_an_update_reuses_held_vectors_and_equals_a_full_build(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    layout = build_search_memory(tmp_path / "mem")
    _write(layout.root, PAGES)
    build_index(layout, semantic=True)
    embedded: list[str] = []

    def counting(texts: list[str]) -> list[bytes]:
        embedded.extend(texts)
        return embed(texts)

    monkeypatch.setattr(search_index, "embed", counting)
    for step in STEPS:
        embedded.clear()
        _write(layout.root, step)
        update_index(layout, list(step))
        texts = sum(len(search_index.read_page_record(layout.root, rel).embed_texts())
                    for rel in step)
        assert 0 < len(embedded) < texts or step is STEPS[2]  # (a new title: every text)
        if step is STEPS[0]:  # the changed section and the long one's passages, not the tail
            assert not any("The end." in text for text in embedded)
        fresh = tmp_path / "fresh"
        shutil.rmtree(fresh, ignore_errors=True)
        shutil.copytree(layout.root, fresh)
        build_index(MemoryLayout(fresh), semantic=True)
        assert _vectors(layout) == _vectors(MemoryLayout(fresh))


def test_an_unchanged_page_reindexed_embeds_only_its_long_sections(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    layout = build_search_memory(tmp_path / "mem")
    _write(layout.root, PAGES)
    build_index(layout, semantic=True)
    before = _vectors(layout)
    embedded: list[str] = []
    monkeypatch.setattr(search_index, "embed",
                        lambda texts: embedded.extend(texts) or embed(texts))
    update_index(layout, list(PAGES))
    assert _vectors(layout) == before
    assert embedded and all("Paragraph" in text for text in embedded)
