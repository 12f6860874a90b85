"""Hybrid ranking: page vectors (wordllama, loaded from its wheel with no download) kept in the
index like the text, fused with BM25."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from tasks.search import semantic
from tasks.search.index import build_index, index_file, index_state, update_index
from tasks.search.query import SearchOptions, fuse, search
from tasks.store.layout import MemoryLayout
from tests.memory_builder import PREFIX, write
from tests.tasks.search.search_memory import SHARD_INDEX, SYNTHESIS, build_search_memory

HYBRID = SearchOptions(semantic=True)


@pytest.fixture
def layout(tmp_path: Path) -> MemoryLayout:
    return build_search_memory(tmp_path / "mem")


def vector_count(layout: MemoryLayout) -> tuple[int, int]:
    with closing(sqlite3.connect(index_file(layout))) as conn:
        return (conn.execute("SELECT count(*) FROM vectors").fetchone()[0],
                conn.execute("SELECT count(*) FROM docs").fetchone()[0])


def test_the_model_loads_from_the_wheel_without_any_download(monkeypatch: pytest.MonkeyPatch) -> None:
    import requests

    def no_network(*args: object, **kwargs: object) -> None:
        raise AssertionError("a download was attempted")

    monkeypatch.setattr(requests, "get", no_network)
    monkeypatch.setattr(requests.Session, "request", no_network)
    semantic.model.cache_clear()
    vectors = semantic.matrix(semantic.embed(["a redis cache", "an in-memory key-value store"]))
    assert vectors.shape == (2, semantic.DIMENSIONS)
    assert abs(float((vectors[0].astype("float32") ** 2).sum()) - 1.0) < 0.01


def test_vectors_are_derived_and_kept_current_like_the_text(layout: MemoryLayout) -> None:
    build_index(layout, semantic=True)
    vectors, docs = vector_count(layout)
    assert vectors == docs > 0
    page = f"wiki/concepts/{PREFIX}__caching.md"
    write(layout.root, page, {"type": "concept", "title": "Caching", "description": "Caches."},
          "# Caching\n\nKeep hot data in memory.\n")
    update_index(layout, [page])
    assert vector_count(layout) == (docs + 1, docs + 1)
    (layout.root / page).unlink()
    update_index(layout, [page])
    assert vector_count(layout) == (docs, docs)


def test_a_lexical_index_is_rebuilt_with_vectors_when_hybrid_ranking_wants_them(layout: MemoryLayout) -> None:
    build_index(layout)
    assert vector_count(layout)[0] == 0
    assert index_state(layout, semantic=True) == "corrupt"
    assert search(layout, "third retry", HYBRID).hits[0].path == SYNTHESIS
    assert vector_count(layout)[0] > 0


def test_hybrid_keeps_lexical_matches_on_top_with_their_anchor_and_snippet(layout: MemoryLayout) -> None:
    hit = search(layout, "zebrafish rotation", HYBRID).hits[0]
    assert (hit.path, hit.anchor) == (SHARD_INDEX, "pager-rotation") and "**zebrafish**" in hit.snippet
    assert search(layout, "retry budget", HYBRID) == search(layout, "retry budget", HYBRID)


def test_fusion_adds_ranks_and_keeps_the_lexical_form() -> None:
    from schemas.search import SearchHit

    def hit(path: str, anchor: str = "") -> SearchHit:
        return SearchHit(kind="page", path=path, title=path, page_type="note", snippet="",
                         score=1.0, anchor=anchor)

    fused = fuse([(hit("a", "lexical"), 1), (hit("b"), 2)], [(hit("b"), 3), (hit("a"), 4)])
    assert [h.path for h, _unit in fused] == ["a", "b"]  # equal sums: ties break on the path
    assert fused[0][0].anchor == "lexical"
    only = fuse([(hit("a"), 1)], [(hit("c"), 5), (hit("a"), 1)])
    assert [h.path for h, _unit in only] == ["a", "c"]


def test_a_superseded_record_is_preceded_by_what_replaced_it(layout: MemoryLayout) -> None:
    from schemas.graph import GraphRelation
    from tasks.store.graph_store import load_graph, normalize_graph, save_graph
    from tests.memory_builder import ORCHESTRATOR, PLANNER

    graph = load_graph(layout.graph_file)
    graph.relations.append(GraphRelation(sourceEntityName="planner", targetEntityName="orchestrator",
                                         relationType="supersedes"))
    save_graph(layout.graph_file, normalize_graph(graph), now_iso="2026-03-24T22:40:05Z")
    hits = search(layout, "main-orchestrator", HYBRID).hits
    assert hits[0].path == PLANNER
    replaced = next(h for h in hits if h.path == ORCHESTRATOR and h.kind == "page")
    assert replaced.superseded_by == "planner"
    lexical = search(layout, "main-orchestrator").hits  # BM25 alone stays BM25
    assert lexical[0].path != PLANNER


def test_browse_ranks_a_page_first_on_its_title_in_other_words_with_hybrid_ranking(
        layout: MemoryLayout) -> None:
    from tasks.search.browse import browse

    assert browse(layout, "Retry budgets for uploading", semantic=True).nearest[0].path == SYNTHESIS


def test_the_kept_vector_matrix_after_a_change_equals_a_fresh_one(layout: MemoryLayout) -> None:
    """A warm process converts again only the rows whose stored vector changed: a page added,
    a page rewritten under the id a deleted one had, a page removed."""
    import numpy as np

    from tasks.search import query

    def fresh_and_kept() -> tuple[tuple[list[int], object], tuple[list[int], object]]:
        with closing(sqlite3.connect(index_file(layout))) as conn:
            kept = query.page_vectors(conn, layout)
            rows = conn.execute("SELECT doc_id, vec FROM vectors ORDER BY doc_id").fetchall()
        return ([d for d, _v in rows], semantic.matrix([v for _d, v in rows])), kept

    build_index(layout, semantic=True)
    (ids, fresh), (kept_ids, kept) = fresh_and_kept()
    assert ids == kept_ids and np.array_equal(fresh, kept)
    page = f"wiki/concepts/{PREFIX}__caching.md"
    for body in ("Keep hot data in memory.", "Evict the coldest entry first.", None):
        if body is None:
            (layout.root / page).unlink()
        else:
            write(layout.root, page, {"type": "concept", "title": "Caching",
                                      "description": "Caches."}, f"# Caching\n\n{body}\n")
        update_index(layout, [page])
        (ids, fresh), (kept_ids, kept) = fresh_and_kept()
        assert ids == kept_ids and np.array_equal(fresh, kept)
