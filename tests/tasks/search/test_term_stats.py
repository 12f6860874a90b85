"""BM25 of one-token phrases from statistics kept across index states: the same doubles, bit for
bit, and the same order, as FTS5's own ranks, in every state the index goes through (pages
added, rewritten under reused ids, deleted; entities changed), and FTS5 asked when the kept
statistics disagree with the index."""

from __future__ import annotations

import random
import sqlite3
from collections.abc import Iterator
from contextlib import closing
from pathlib import Path

import numpy as np
import pytest

from schemas.graph import KnowledgeGraph
from tasks.search import query, term_stats
from tasks.search.index import build_index, connect_index, update_index
from tasks.search.query import SearchOptions, search
from tasks.store.graph_store import load_graph, save_graph
from tasks.store.layout import MemoryLayout
from tests.memory_builder import EARLIER, PREFIX, page_meta, write
from tests.tasks.search.search_memory import build_search_memory

WORDS = ["retry", "retries", "budget", "lease", "lock", "timeout", "queue", "case", "cases",
         "casework", "upload"]
# One-token phrases as fts_match writes them: plain, prefixes, a stemmed prefix, absent.
PHRASES = ['"retri"', '"retri"*', '"case"*', '"case"', '"lock"', '"budget"', '"upload"*',
           '"absent"', '"caseworkers"*', '"q"*']


@pytest.fixture
def kept() -> Iterator[None]:
    was = term_stats._ENABLED[0]
    term_stats.keep_term_statistics()
    yield
    term_stats.keep_term_statistics(was)


@pytest.fixture
def off() -> Iterator[None]:
    """As a one-shot process (an in-process MCP server built by another test turns it on)."""
    was = term_stats._ENABLED[0]
    term_stats.keep_term_statistics(False)
    yield
    term_stats.keep_term_statistics(was)


def _page(rng: random.Random, n: int) -> tuple[str, str]:
    title = " ".join(rng.choices(WORDS, k=rng.randrange(1, 4)))
    sections = "\n\n".join(f"## {' '.join(rng.choices(WORDS, k=2))} {n} {s}\n\n"
                           + " ".join(rng.choices(WORDS, k=rng.randrange(0, 160)))
                           for s in range(rng.randrange(1, 4)))
    return title, f"# {title}\n\n{sections}\n"


def _write_page(root: Path, rng: random.Random, n: int) -> str:
    rel = f"wiki/synthesis/{PREFIX}__note-{n:03d}.md"
    title, body = _page(rng, n)
    write(root, rel, page_meta("synthesis", title or "note", "wiki/synthesis/index.md"), body)
    return rel


def _memory(root: Path, pages: int = 60) -> tuple[MemoryLayout, list[str]]:
    layout = build_search_memory(root)
    rng = random.Random(3)
    written = [_write_page(root, rng, n) for n in range(pages)]
    graph = load_graph(layout.graph_file)
    entity = graph.entities[0]
    entity.observations += [" ".join(rng.choices(WORDS, k=rng.randrange(1, 9))) + f" {i}"
                            for i in range(300)]
    save_graph(layout.graph_file, KnowledgeGraph.model_validate(graph.model_dump()), now_iso=EARLIER)
    build_index(layout)
    return layout, written


def _same_as_fts5(conn: sqlite3.Connection) -> None:
    for phrase in PHRASES:
        carried = query._carried_scores(conn, phrase)
        assert carried is not None, phrase
        ids, ranks = query._columns(conn.execute(query._ROWS_OF, (phrase,)))
        assert carried[0].tolist() == ids.tolist(), phrase
        assert (-carried[1]).tolist() == ranks.tolist(), phrase  # (floats compared with ==)
        whole = conn.execute(query._TOP, (phrase, -1)).fetchall()
        for pool in (1, 7, 50, -1):
            best = query._best_first(*carried, pool)
            assert list(zip(best[0].tolist(), best[1].tolist(), strict=True)) == \
                whole[:pool if pool >= 0 else None], (phrase, pool)


def test_kept_phrase_scores_equal_fts5s_ranks_in_every_state(tmp_path: Path, kept: None) -> None:
    layout, written = _memory(tmp_path / "mem")
    rng = random.Random(11)
    with closing(connect_index(layout)) as conn:
        _same_as_fts5(conn)
    tracker = next(iter(term_stats._TRACKERS.values()))
    changes = [
        [_write_page(layout.root, rng, 100)],  # a new page
        [_write_page(layout.root, rng, 100)],  # the newest page rewritten (its ids reused)
        [_write_page(layout.root, rng, 5), _write_page(layout.root, rng, 101)],
        [written[7]],  # deleted below
        [_write_page(layout.root, rng, 9)] * 2,
        [f"wiki/synthesis/{PREFIX}__note-009.md", _write_page(layout.root, rng, 102)],  # the newest
    ]  # (deleted, another added in the same update)
    (layout.root / written[7]).unlink()
    for step, pages in enumerate(changes):
        if step == 5:
            (layout.root / pages[0]).unlink()
        if step == 3:
            graph = load_graph(layout.graph_file)  # and an entity's facts change
            graph.entities[0].observations[:5] = ["cases lock budget retry"] * 5
            save_graph(layout.graph_file, graph, now_iso=EARLIER)
        update_index(layout, pages)
        with closing(connect_index(layout)) as conn:
            _same_as_fts5(conn)
        assert term_stats._TRACKERS.get(tracker.file) is tracker  # (carried, not read again)
    assert tracker.version == len(changes)


def test_search_answers_are_the_same_with_kept_statistics(tmp_path: Path, off: None) -> None:
    layout, _written = _memory(tmp_path / "mem", pages=30)
    queries = ["case*", "retry budget", "lock timeout case*", "upload* queue", "absent*", "lock*",
               "retr* budget"]  # (lock*, retr*: one term each: snippets asked for that term)
    rng = random.Random(2)
    for n in range(3):  # (the kept statistics carried across the writes between)
        term_stats._ENABLED[0] = False
        query._KNOWN.clear()  # (per-state answers, among them whether to use them)
        plain = [search(layout, q, SearchOptions(limit=5)) for q in queries]
        term_stats._ENABLED[0] = True
        query._KNOWN.clear()
        warm = [search(layout, q, SearchOptions(limit=5)) for q in queries]
        assert warm == plain, n
        update_index(layout, [_write_page(layout.root, rng, 200 + n)])
    assert next(iter(term_stats._TRACKERS.values())).version == 2


def test_a_change_the_pages_do_not_explain_means_reading_the_statistics_again(
        tmp_path: Path, kept: None) -> None:
    layout, _written = _memory(tmp_path / "mem", pages=10)
    with closing(connect_index(layout)) as conn:
        _same_as_fts5(conn)
    tracker = next(iter(term_stats._TRACKERS.values()))
    with closing(connect_index(layout)) as conn:  # (an FTS5 row no page or entity owns)
        conn.execute("INSERT INTO fts(rowid, title, description, headings, body) "
                     "VALUES (99999, 'case', '', '', 'case case lock')")
        conn.execute("INSERT INTO units(id, doc_id, entity, anchor, heading, text) "
                     "VALUES (99999, NULL, NULL, '', '', '')")
    with closing(connect_index(layout)) as conn:
        assert query._carried_scores(conn, '"case"*') is None  # (the index has no owner for it)
        assert term_stats._TRACKERS.get(tracker.file) is None
        conn.execute("DELETE FROM units WHERE id = 99999")
        conn.execute("DELETE FROM fts WHERE rowid = 99999")
    with closing(connect_index(layout)) as conn:
        _same_as_fts5(conn)


def test_a_one_shot_process_lets_fts5_score(tmp_path: Path, off: None) -> None:
    layout, _written = _memory(tmp_path / "mem", pages=5)
    with closing(connect_index(layout)) as conn:
        assert query._carried_scores(conn, '"case"*') is None
        assert term_stats.one_token(conn, "source document") is None  # (two tokens)
        assert term_stats.one_token(conn, "Cases") == "case"


def test_sizes_are_summed_from_sqlite_varints() -> None:
    def encoded(value: int) -> bytes:
        groups = [value & 0x7F]
        while value := value >> 7:
            groups.append(value & 0x7F)
        groups.reverse()
        return bytes([g | 0x80 for g in groups[:-1]] + [groups[-1]])

    rng = random.Random(1)
    records = [b"".join(encoded(rng.choice([0, 1, 127, 128, 300, 20_000, rng.randrange(1 << 40)]))
                        for _ in range(rng.randrange(0, 6))) for _ in range(2_000)]
    sums = term_stats._varint_sums(np.frombuffer(b"".join(records), dtype=np.uint8),
                                   np.array([len(r) for r in records], dtype=np.int64))
    assert sums.tolist() == [sum(term_stats._varints(r)) for r in records]


def test_the_vectors_kept_across_changes_equal_a_fresh_read(tmp_path: Path, kept: None) -> None:
    """A warm server reads only the vector rows of the units a change added: the matrices equal
    a fresh read of every row, in every state."""
    from tasks.search.query import _VECTOR_ROWS, _VECTORS, unit_vectors
    from tasks.search.vector_memo import vector_state, with_pages

    layout, written = _memory(tmp_path / "mem", pages=12)
    build_index(layout, semantic=True)
    rng = random.Random(5)
    _VECTORS.clear()
    (layout.root / written[3]).unlink()
    for step, pages in enumerate([[], [_write_page(layout.root, rng, 300)],
                                  [_write_page(layout.root, rng, 300), written[3]],
                                  [_write_page(layout.root, rng, 1), _write_page(layout.root, rng, 301)]]):
        update_index(layout, pages)
        with closing(connect_index(layout)) as conn:
            state = unit_vectors(conn, layout, whole=step % 2 == 1)  # (page matrix kept or not)
            fresh = with_pages(vector_state(
                conn.execute(f"{_VECTOR_ROWS} ORDER BY v.id").fetchall(), None))
        assert state.units == fresh.units and np.array_equal(state.docs, fresh.docs)
        assert state.vectors.tobytes() == fresh.vectors.tobytes()
        matrix, fresh_matrix = with_pages(state).pages, fresh.pages
        assert matrix is not None and fresh_matrix is not None
        assert matrix.tobytes() == fresh_matrix.tobytes()
        mark = next(iter(_VECTORS.values()))[1]
        assert mark is not None and mark[1] == step  # (tracked: only the changes were read)


def test_a_prefix_that_stands_for_one_term_is_snippeted_as_that_term(tmp_path: Path, kept: None
                                                                     ) -> None:
    layout, _written = _memory(tmp_path / "mem", pages=8)
    with closing(connect_index(layout)) as conn:
        match = '"lock"* OR "case"* OR "budget"'
        query.ranked_matches(conn, match, 40)
        assert query._snippet_match(conn, match) == '"lock" OR "case"* OR "budget"'  # (casework)
        for row in conn.execute("SELECT rowid FROM fts WHERE fts MATCH ?", (match,)).fetchall():
            assert conn.execute(query._SNIPPET_OF, (match, row[0])).fetchone() == conn.execute(
                query._SNIPPET_OF, ('"lock" OR "case"* OR "budget"', row[0])).fetchone()


def test_scores_that_differ_from_fts5s_are_never_used(tmp_path: Path, kept: None,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """A process compares a sample with FTS5's ranks first: a formula that disagrees (here a
    wrong k1) is never used, and FTS5 ranks as before."""
    layout, _written = _memory(tmp_path / "mem", pages=8)
    monkeypatch.setattr(term_stats, "K1", 1.25)
    with closing(connect_index(layout)) as conn:
        assert query._carried_scores(conn, '"case"*') is None
        assert query._carried_scores(conn, '"lock"') is None
        match = '"case"* OR "lock"'
        assert query.ranked_matches(conn, match, 30) == conn.execute(query._TOP, (match, 30)).fetchall()
