"""Hybrid ranking: unit vectors (wordllama, loaded from its wheel with no download), one per
section or passage of every page, kept in the index like the text, fused with BM25."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest

from schemas.search import SearchHit
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
    """(vectors, units of pages): one vector a passage, a section of a short page."""
    with closing(sqlite3.connect(index_file(layout))) as conn:
        return (conn.execute("SELECT count(*) FROM vectors").fetchone()[0],
                conn.execute("SELECT count(*) FROM units WHERE doc_id IS NOT NULL").fetchone()[0])


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


def wordllama_model() -> object:
    """wordllama's own loader and inference, as tasks/search/semantic.py once called them."""
    import wordllama
    from wordllama import WordLlama

    return WordLlama.load(dim=semantic.DIMENSIONS, cache_dir=Path(wordllama.__file__).parent,
                          disable_download=True)


def test_the_model_gives_wordllamas_vectors_bit_for_bit() -> None:
    """model() reads wordllama's files and pools each text without padding; its vectors are
    wordllama's own, bit for bit, in batches that mix short texts with long ones (the padding
    it skips) and past one batch of 64."""
    import numpy as np

    words = "cache eviction Postgres replica failover lag runbook on-call".split()
    texts = [" ".join(words[(n + k) % len(words)] for k in range(n * 37 % 900 + 1))
             for n in range(150)]
    texts += ["", "x", "The 2024-03-05 outage of `auth-svc` (INC-42).", "émigré ✅ 東京 \t tabs  "]
    theirs_model: Any = wordllama_model()
    with np.errstate(invalid="ignore"):  # (the empty text: 0/0, NaN in both)
        ours = semantic.model().embed(texts, norm=True)
        theirs = theirs_model.embed(texts, norm=True)
    assert ours.dtype == theirs.dtype == np.float32
    same = (ours.view(np.uint32) == theirs.view(np.uint32)) | (np.isnan(ours) & np.isnan(theirs))
    assert same.all()
    assert np.array_equal(semantic.query_vector(texts[3]), theirs[3])


def test_vectors_are_derived_and_kept_current_like_the_text(layout: MemoryLayout) -> None:
    build_index(layout, semantic=True)
    vectors, units = vector_count(layout)
    assert vectors == units > 0  # (no section long enough to cut)
    page = f"wiki/concepts/{PREFIX}__caching.md"
    write(layout.root, page, {"type": "concept", "title": "Caching", "description": "Caches."},
          "# Caching\n\nKeep hot data in memory.\n\n## Eviction\n\nLeast recently used first.\n")
    update_index(layout, [page])
    assert vector_count(layout) == (units + 2, units + 2)
    (layout.root / page).unlink()
    update_index(layout, [page])
    assert vector_count(layout) == (units, units)


def test_a_long_page_is_found_by_its_section_past_the_first_pages_of_text(layout: MemoryLayout) -> None:
    """The similarity side covers the whole page: a question about its last section finds it,
    named by that section's anchor, though the page opens with 20,000 characters of other text."""
    page = f"wiki/concepts/{PREFIX}__handbook.md"
    filler = "".join(f"## Chapter {n}\n\n" + "Quarterly budget spreadsheets and invoices.\n\n" * 90
                     + "\n\n" for n in range(5))
    write(layout.root, page, {"type": "concept", "title": "Handbook", "description": "Office."},
          filler + "## Feeding the aquarium\n\nGoldfish get flakes twice a day, never more.\n")
    build_index(layout, semantic=True)
    vectors, units = vector_count(layout)
    assert vectors > units  # the long chapters are cut into passages
    hit = search(layout, "goldfish flakes", HYBRID).hits[0]  # BM25's hit names its section
    assert (hit.path, hit.anchor) == (page, "feeding-the-aquarium")
    from tasks.search.query import _semantic  # and the similarity side's, in other words
    from tasks.search.sync import read_index

    def similar(conn: sqlite3.Connection) -> list[tuple[str, str]]:
        from tasks.search.query import _DETAILS, _filters, _Lookup

        filters, params = _filters(SearchOptions())
        lookup = _Lookup(conn, layout, _DETAILS.format(filters=filters), params)
        return [(h.path, h.anchor) for h, _unit in _semantic(lookup, "how often are the fish fed", 10)]

    found = read_index(layout, similar, semantic=True)[0]
    assert (page, "feeding-the-aquarium") in found[:3]


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


def _page(path: str) -> SearchHit:
    return SearchHit(kind="page", path=path, title=path, page_type="note", snippet="", score=1.0)


POSTMORTEM = "wiki/sources/postmortem.md"


def test_an_observation_at_bm25_rank_1_counts_for_its_page_in_the_fusion() -> None:
    """BM25's best hit is an observation read from the postmortem, whose own page is further
    down; similarity agrees on other pages. Fused per document, the postmortem stays first (fused
    per hit, the pages both lists agree on passed it: issue 28, the genre set's "duplex option")."""
    fact = SearchHit(kind="observation", path="wiki/entities/fetch-wrapper.md", title="fetch wrapper",
                     page_type="entity", snippet="", score=25.0, source_page=POSTMORTEM)
    lexical = [(fact, 1), (_page("a"), 2), (_page("b"), 3), (_page("c"), 4), (_page(POSTMORTEM), 5)]
    similar = [(_page("x"), 6), (_page("b"), 3), (_page(POSTMORTEM), 5), (_page("a"), 2), (_page("c"), 4)]
    fused = fuse(lexical, similar)
    assert [(h.kind, h.path) for h, _unit in fused] == [
        ("observation", fact.path), ("page", "b"), ("page", "a"), ("page", POSTMORTEM),
        ("page", "c"), ("page", "x")]  # the page's own hit keeps its own place: no crowding
    # an entity page read from that one source counts for it too
    entity = _page("wiki/entities/readable-stream.md")
    fused = fuse(lexical[:4], [(_page("x"), 6), (_page("b"), 3), (entity, 7), (_page("a"), 2)],
                 sources={entity.path: POSTMORTEM})
    assert [h.path for h, _unit in fused[:3]] == [fact.path, "b", "a"]


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


def test_convert_takes_the_rows_of_the_ids_used_once_and_no_others() -> None:
    """StaticModel.convert fills the float32 table for exactly the token ids a text uses, repeated
    and unsorted ids included, and leaves every other row unconverted."""
    import numpy as np

    model = semantic.StaticModel.__new__(semantic.StaticModel)
    model.stored = (np.arange(40, dtype=np.float32) / 8).astype(np.float16).reshape(10, 4)
    model.table = np.full((10, 4), -1.0, dtype=np.float32)
    model.converted = np.zeros(10, dtype=bool)
    model.convert(np.array([7, 2, 7, 0, 2]))
    assert model.converted.tolist() == [n in {0, 2, 7} for n in range(10)]
    assert np.array_equal(model.table[[0, 2, 7]], model.stored[[0, 2, 7]].astype(np.float32))
    assert (model.table[[1, 3, 4, 5, 6, 8, 9]] == -1.0).all()
    model.stored[2] = 0  # a converted row is not read again
    model.convert(np.array([2, 9]))
    assert model.table[2].tolist() == [1.0, 1.125, 1.25, 1.375] and model.converted[9]
