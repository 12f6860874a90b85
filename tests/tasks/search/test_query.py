"""Search: ranking fields, filters, shards as parts of their source, superseded facts, and any
query text giving results or one clear error."""

from __future__ import annotations

from pathlib import Path

import pytest

from tasks.search.query import QueryError, SearchOptions, fts_match, query_terms, search
from tasks.store.layout import MemoryLayout
from tests.memory_builder import CONCEPT, ORCHESTRATOR
from tests.tasks.search.search_memory import OLD_SOURCE, SHARD, SHARD_INDEX, SYNTHESIS, build_search_memory


@pytest.fixture(scope="module")
def layout(tmp_path_factory: pytest.TempPathFactory) -> MemoryLayout:
    return build_search_memory(tmp_path_factory.mktemp("search") / "mem")


def test_a_hit_carries_path_title_type_hub_anchor_snippet_score_and_time(layout: MemoryLayout) -> None:
    hit = search(layout, "third retry").hits[0]
    assert (hit.kind, hit.path, hit.title, hit.page_type) == (
        "page", SYNTHESIS, "Upload retry budget", "synthesis")
    assert (hit.hub, hit.anchor, hit.section) == ("wiki/synthesis/index.md", "evidence", "Evidence")
    assert "**third**" in hit.snippet and "**retry**" in hit.snippet
    assert hit.score > 0 and hit.updated_at == "2026-01-10T08:00:00Z"
    assert not hit.superseded


def test_explicit_anchors_and_deeper_headings_land_on_their_section(layout: MemoryLayout) -> None:
    assert search(layout, "exponential jitter").hits[0].anchor == "retry-budget"
    assert search(layout, "backoff").hits[0].anchor == "retry-budget"


def test_a_title_match_ranks_above_a_body_mention(layout: MemoryLayout) -> None:
    hits = search(layout, "delegation").hits
    assert hits[0].path == CONCEPT and hits[0].anchor == ""


def test_a_shard_hit_is_a_hit_on_its_source_with_the_shard_as_part(layout: MemoryLayout) -> None:
    hit = search(layout, "zebrafish").hits[0]
    assert (hit.path, hit.part, hit.page_type, hit.anchor) == (
        SHARD_INDEX, SHARD, "source-index", "pager-rotation")


def test_superseded_facts_are_excluded_unless_asked_and_always_labelled(layout: MemoryLayout) -> None:
    assert search(layout, "quokka").hits == []
    hits = search(layout, "quokka", SearchOptions(include_superseded=True)).hits
    assert {h.kind for h in hits} == {"page", "observation"}
    assert all(h.superseded for h in hits)
    page = next(h for h in hits if h.kind == "page")
    assert page.path == OLD_SOURCE and page.superseded_by
    fact = next(h for h in hits if h.kind == "observation")
    assert (fact.title, fact.anchor) == ("orchestrator", "superseded-facts")
    assert fact.superseded_by == "Coordinates thinker, planner and executor"


def test_observations_are_found_with_their_entity_and_source(layout: MemoryLayout) -> None:
    hits = search(layout, "thinker executor", SearchOptions(types=("observation",))).hits
    assert hits[0].kind == "observation" and hits[0].title == "orchestrator"
    assert hits[0].path == ORCHESTRATOR and hits[0].source_page


def test_aliases_from_the_registry_find_the_entity(layout: MemoryLayout) -> None:
    hits = search(layout, "main-orchestrator").hits
    assert hits and hits[0].title == "orchestrator"


def test_type_and_hub_filters(layout: MemoryLayout) -> None:
    only = search(layout, "orchestrator", SearchOptions(types=("concept",))).hits
    assert [h.path for h in only] == [CONCEPT]
    under = search(layout, "orchestrator planner", SearchOptions(hub="wiki/concepts")).hits
    assert [h.path for h in under] == [CONCEPT]
    hubs = search(layout, "entities", SearchOptions(types=("hub",))).hits
    assert hubs and all(h.path.endswith("index.md") for h in hubs)
    assert not any(h.path.endswith("/index.md") for h in search(layout, "entities").hits)


def test_the_limit_is_kept_and_results_are_deterministic(layout: MemoryLayout) -> None:
    first = search(layout, "orchestrator planner", SearchOptions(limit=2))
    assert len(first.hits) == 2
    assert search(layout, "orchestrator planner", SearchOptions(limit=2)) == first


HOSTILE = [
    '"', '""', "'", '"unbalanced quote', "NEAR(retry budget, 2)", "retry NEAR budget",
    "retry AND OR NOT budget", "(retry", "retry)", "*", "***", "retry*", "*retry", "^retry",
    "title:retry", "-retry", "+retry", "retry OR", "{retry budget}", "r\x00etry", "\\",
    "x" * 10_000, "retry " * 2_000, "日本語の検索", "Ünïcödé façade", "🙂 retry", "SELECT * FROM docs;",
    "'; DROP TABLE docs; --", "\n\t ", "NOT", "AND", "a", "%", "_",
]


@pytest.mark.parametrize("text", HOSTILE, ids=range(len(HOSTILE)))
def test_any_query_text_gives_results_or_one_clear_error(layout: MemoryLayout, text: str) -> None:
    try:
        result = search(layout, text)
    except QueryError as exc:
        assert "\n" not in exc.one_line() and exc.exit_code == 2
        return
    assert isinstance(result.hits, list)


def test_operators_are_words_and_prefix_stars_are_kept() -> None:
    assert query_terms('NEAR("a" b) AND c*') == ["near", "b", "c*"]
    assert fts_match(["near", "c*"]) == '"near" OR "c"*'
    assert len(query_terms(" ".join(f"w{i}" for i in range(500)))) == 32


def test_empty_and_wordless_queries_are_usage_errors(layout: MemoryLayout) -> None:
    with pytest.raises(QueryError, match="the query is empty"):
        search(layout, "   ")
    with pytest.raises(QueryError, match="no words"):
        search(layout, "*** ---")
    with pytest.raises(QueryError, match="--limit"):
        search(layout, "retry", SearchOptions(limit=0))


def test_unicode_is_folded(layout: MemoryLayout, tmp_path: Path) -> None:
    assert search(layout, "ÉVIDENCE").hits[0].path == SYNTHESIS


def test_words_in_most_rows_are_dropped_only_beside_rarer_indexed_words(layout: MemoryLayout) -> None:
    import sqlite3
    from contextlib import closing

    from tasks.search.index import index_file
    from tasks.search.query import prune_common_terms

    with closing(sqlite3.connect(index_file(layout))) as conn:
        rows = conn.execute("SELECT max(id) FROM units").fetchone()[0]
        common = [t for (t, d) in conn.execute("SELECT term, doc FROM fts_terms") if d * 2 > rows]
        assert common, "the fixture has a word in most rows"
        word = common[0]
        assert prune_common_terms(conn, [word, "zebrafish"]) == ["zebrafish"]
        assert prune_common_terms(conn, [word, "notindexedanywhere"]) == [word, "notindexedanywhere"]
        assert prune_common_terms(conn, [word]) == [word]


def test_only_common_words_on_a_big_index_are_matched_without_scoring(
        layout: MemoryLayout, monkeypatch: pytest.MonkeyPatch) -> None:
    import sqlite3
    from contextlib import closing

    from tasks.search import query
    from tasks.search.index import index_file

    with closing(sqlite3.connect(index_file(layout))) as conn:
        rows = conn.execute("SELECT max(id) FROM units").fetchone()[0]
        word = next(t for (t, d) in conn.execute("SELECT term, doc FROM fts_terms") if d * 2 > rows)
        assert query.plan_terms(conn, [word, "zebrafish"]) == (["zebrafish"], True)
        assert query.plan_terms(conn, [word, "notindexed"]) == ([word, "notindexed"], True)
        monkeypatch.setattr(query, "UNRANKED_MIN_ROWS", 1)
        assert query.plan_terms(conn, [word, "notindexed"]) == ([word, "notindexed"], False)
    assert search(layout, f"{word} notindexed").hits  # still answered, in index order


def test_warm_answers_are_dropped_when_another_connection_commits(tmp_path: Path) -> None:
    import sqlite3
    from contextlib import closing

    from tasks.search.query import _term_rows, index_memo

    db = tmp_path / "index.sqlite3"
    with closing(sqlite3.connect(db, isolation_level=None)) as reader, \
            closing(sqlite3.connect(db, isolation_level=None)) as writer:
        writer.execute("CREATE VIRTUAL TABLE fts USING fts5(body)")
        writer.execute("CREATE VIRTUAL TABLE fts_terms USING fts5vocab(fts, 'row')")
        writer.execute("INSERT INTO fts(body) VALUES ('retry budget')")
        assert _term_rows(reader, {"retry", "lease"}) == {"retry": 1, "lease": 0}
        assert index_memo(reader)["terms"] == {"retry": 1, "lease": 0}  # kept for the next query
        writer.execute("INSERT INTO fts(body) VALUES ('retry lease')")
        assert _term_rows(reader, {"retry", "lease"}) == {"retry": 2, "lease": 1}


def test_a_name_is_expanded_with_its_registry_aliases(tmp_path: Path) -> None:
    """The graph helps ranking: a query saying "Postgres" finds a page that only says
    "PostgreSQL" when the registry lists the one as an alias of the other (and back)."""
    from schemas.graph import RegistryEntry
    from tasks.search.index import update_index
    from tasks.store.graph_store import load_registry, normalize_registry, save_registry
    from tests.memory_builder import EARLIER, PREFIX, page_meta, write

    layout = build_search_memory(tmp_path / "mem")
    page = f"wiki/concepts/{PREFIX}__database-choice.md"
    write(layout.root, page, page_meta("concept", "Database choice", "wiki/concepts/index.md"),
          "# Database choice\n\nThe billing service stores invoices in PostgreSQL 15.\n")
    assert search(layout, "Postgres").hits == []
    registry = load_registry(layout.registry_file)
    registry.entries.append(RegistryEntry(canonicalName="PostgreSQL", aliases=["Postgres", "pg"],
                                          entityType="technology"))
    save_registry(layout.registry_file, normalize_registry(registry), now_iso=EARLIER)
    update_index(layout, [page])  # (as a writer does)
    assert [hit.path for hit in search(layout, "postgres").hits] == [page]
    assert search(layout, "where do we keep invoices in Postgres?").hits[0].path == page
    assert search(layout, "invoices in PostgreSQL").hits[0].path == page
    assert search(layout, "Postgres", SearchOptions(semantic=True)).hits[0].path == page


def test_a_two_letter_word_is_not_read_as_a_name(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                                 ) -> None:
    """"go to the vet" is no question about the Go language: a two-letter word of letters is
    not expanded with a registry entry's aliases ("golang" would add Go's pages)."""
    from schemas.graph import RegistryEntry
    from tasks.search import query
    from tasks.search.index import update_index
    from tasks.store.graph_store import load_registry, normalize_registry, save_registry
    from tests.memory_builder import EARLIER, PREFIX, page_meta, write

    layout = build_search_memory(tmp_path / "mem")
    dog = f"wiki/concepts/{PREFIX}__dog-at-the-vet.md"
    go = f"wiki/concepts/{PREFIX}__golang-services.md"
    write(layout.root, dog, page_meta("concept", "Weekend", "wiki/concepts/index.md"),
          "# Weekend\n\nThe dog had to go to the vet on Saturday: a thorn in its paw.\n")
    write(layout.root, go, page_meta("concept", "Golang services", "wiki/concepts/index.md"),
          "# Golang services\n\nOur golang services are built with golang 1.22; golang tooling.\n")
    registry = load_registry(layout.registry_file)
    registry.entries.append(RegistryEntry(canonicalName="Go", aliases=["golang"],
                                          entityType="technology"))
    save_registry(layout.registry_file, normalize_registry(registry), now_iso=EARLIER)
    update_index(layout, [dog, go])
    question = "why did the dog go to the vet?"
    assert [hit.path for hit in search(layout, question).hits] == [dog]
    monkeypatch.setattr(query, "SHORTEST_NAME", 2)  # as before: "go" read as the name Go
    assert go in [hit.path for hit in search(layout, question).hits]
    assert [hit.path for hit in search(layout, "golang services").hits][0] == go


def test_a_shorter_pool_of_ranked_matches_is_a_prefix_of_a_longer_one(tmp_path: Path) -> None:
    """ranked_matches serves a pool from a longer list it fetched: that holds only because FTS5
    sorts every match before the LIMIT applies (ties included), checked here on SQLite itself."""
    import sqlite3
    from contextlib import closing

    from tasks.search.query import _TOP, index_memo, ranked_matches

    db = tmp_path / "index.sqlite3"
    with closing(sqlite3.connect(db, isolation_level=None)) as conn:
        conn.execute("CREATE VIRTUAL TABLE fts USING fts5(body)")
        conn.executemany("INSERT INTO fts(body) VALUES (?)",
                         [(f"retry {'budget ' * (i % 7)}lease{i % 3}",) for i in range(3000)])
        whole = conn.execute(_TOP, ('"retry" OR "budget"', 5000)).fetchall()
        assert len({rank for _row, rank in whole}) < len(whole)  # (ties, many)
        for pool in (1, 40, 400, 1600, 2999):
            assert conn.execute(_TOP, ('"retry" OR "budget"', pool)).fetchall() == whole[:pool]
        assert ranked_matches(conn, '"retry" OR "budget"', 400) == whole[:400]
        assert ranked_matches(conn, '"retry" OR "budget"', 40) == whole[:40]  # from the memo
        assert len(index_memo(conn)["matches"]) == 1
        assert ranked_matches(conn, '"retry" OR "budget"', 800) == whole[:800]  # (grew: all)
        assert index_memo(conn)["matches"]['"retry" OR "budget"', True][2]  # nothing more to rank
        assert ranked_matches(conn, '"retry" OR "budget"', 6400) == whole
        conn.execute("INSERT INTO fts(body) VALUES ('budget budget budget')")  # a new state
        fresh = conn.execute(_TOP, ('"retry" OR "budget"', 10)).fetchall()
        assert ranked_matches(conn, '"retry" OR "budget"', 10) == fresh != whole[:10]


def test_the_kept_match_lists_stay_within_their_row_budget(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import sqlite3
    from contextlib import closing

    from tasks.search import query

    monkeypatch.setattr(query, "MEMO_MATCH_ROWS", 50)
    with closing(sqlite3.connect(tmp_path / "index.sqlite3", isolation_level=None)) as conn:
        conn.execute("CREATE VIRTUAL TABLE fts USING fts5(body)")
        conn.executemany("INSERT INTO fts(body) VALUES (?)", [(f"w{i % 5} x",) for i in range(100)])
        for word in ("w0", "w1", "w2", "w3"):
            assert len(query.ranked_matches(conn, f'"{word}"', 400)) == 20
        kept = query.index_memo(conn)["matches"]
        assert [match for match, _ranked in kept] == ['"w2"', '"w3"']  # the oldest dropped


def test_a_words_stems_are_asked_of_sqlite_once_per_process(tmp_path: Path) -> None:
    import sqlite3
    from contextlib import closing

    from tasks.search import query

    with closing(sqlite3.connect(tmp_path / "words.sqlite3")) as conn:
        stems = query._stems(conn, ["retries", "budgeting"])
    assert stems == [{"retri"}, {"budget"}]

    class NoSQLite:
        def execute(self, *args: object) -> None:
            raise AssertionError("asked again")

    assert query._stems(NoSQLite(), ["budgeting", "retries"]) == [{"budget"}, {"retri"}]  # type: ignore[arg-type]


def _weighted_fts(conn: object, rows: list[tuple[str, str, str, str]]) -> None:
    """An FTS5 table shaped and ranked as the index's (four columns, weighted BM25)."""
    from tasks.search.index import BM25_WEIGHTS, FTS_COLUMNS, TOKENIZER

    execute = conn.execute  # type: ignore[attr-defined]
    execute(f"CREATE VIRTUAL TABLE fts USING fts5({', '.join(FTS_COLUMNS)}, tokenize='{TOKENIZER}')")
    execute(f"INSERT INTO fts(fts, rank) VALUES ('rank', 'bm25({', '.join(map(str, BM25_WEIGHTS))})')")
    conn.executemany("INSERT INTO fts VALUES (?, ?, ?, ?)", rows)  # type: ignore[attr-defined]


def test_an_or_of_phrases_ranks_as_fts5_ranks_it_bit_for_bit(tmp_path: Path) -> None:
    """ranked_phrases adds up each phrase's own scores: the same ranks (floats compared with ==)
    and the same order, ties in rowid order, as FTS5's ORDER BY rank over the whole MATCH,
    with the index's column weights, prefix phrases and phrases of several words."""
    import random
    import sqlite3
    from contextlib import closing

    from tasks.search.query import _TOP, fts_phrases, ranked_matches, ranked_phrases

    rng = random.Random(5)
    words = ["retry", "budget", "lease", "lock", "timeout", "queue", "retries", "budgeting"]
    rows = [tuple(" ".join(rng.choices(words, k=rng.randrange(0, n))) for n in (3, 6, 4, 30))
            for _ in range(4000)]
    with closing(sqlite3.connect(tmp_path / "index.sqlite3", isolation_level=None)) as conn:
        _weighted_fts(conn, rows)  # type: ignore[arg-type]
        matches = ['"retry" OR "budget"', '"lease" OR "retri"* OR "lock timeout"',
                   '"queue" OR "lock" OR "lease" OR "budget" OR "timeout"', '"timeout" OR "absent"',
                   '"budget" OR "retry" OR "budget"']
        for match in matches:
            whole = conn.execute(_TOP, (match, -1)).fetchall()
            assert len({rank for _row, rank in whole}) < len(whole)  # (ties, many)
            ids, ranks = ranked_phrases(conn, fts_phrases(match))
            assert list(zip(ids.tolist(), ranks.tolist(), strict=True)) == whole
            assert ranked_matches(conn, match, 400) == whole[:400]
    assert fts_phrases('"a" OR "b c"* OR "a"') == ['"a"', '"b c"*', '"a"']
    assert fts_phrases('a OR "b"') == fts_phrases('"a" AND "b"') == []  # (not fts_match's)


def test_the_kept_phrase_scores_stay_within_their_row_budget(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import sqlite3
    from contextlib import closing

    from tasks.search import query

    monkeypatch.setattr(query, "MEMO_PHRASE_ROWS", 50)
    with closing(sqlite3.connect(tmp_path / "index.sqlite3", isolation_level=None)) as conn:
        conn.execute("CREATE VIRTUAL TABLE fts USING fts5(body)")
        conn.executemany("INSERT INTO fts(body) VALUES (?)", [(f"w{i % 5} x",) for i in range(100)])
        for word in ("w0", "w1", "w2", "w3"):
            assert len(query.ranked_matches(conn, f'"{word}" OR "y"', 400)) == 20
        assert list(query.index_memo(conn)["phrases"]) == ['"w2"', '"w3"', '"y"']  # (LRU)


def test_alias_forms_and_entity_pages_are_kept_across_page_writes_not_graph_changes(
        tmp_path: Path) -> None:
    """graph_memo's answers hold while the graph tables do: a page write (a new index state)
    keeps them; a registry change, which the index takes in with its signature, drops them."""
    from contextlib import closing

    from schemas.graph import RegistryEntry
    from tasks.search import query
    from tasks.search.index import connect_index, update_index
    from tasks.store.graph_store import load_registry, normalize_registry, save_registry
    from tests.memory_builder import EARLIER, PREFIX, page_meta, write

    layout = build_search_memory(tmp_path / "mem")
    for _ in range(query.ALIAS_TABLE_AFTER):  # (each asks SQL for its own forms)
        search(layout, "warm up")
    with closing(connect_index(layout)) as conn:
        forms = query._alias_forms(conn, {"warm up"})  # (then the whole table, kept)
        pages = query.entity_pages(conn)
    page = f"wiki/concepts/{PREFIX}__database-choice.md"
    write(layout.root, page, page_meta("concept", "Database choice", "wiki/concepts/index.md"),
          "# Database choice\n\nInvoices live in PostgreSQL 15.\n")
    update_index(layout, [page])
    with closing(connect_index(layout)) as conn:
        assert query._alias_forms(conn, {"x"}) is forms and query.entity_pages(conn) is pages
    registry = load_registry(layout.registry_file)
    registry.entries.append(RegistryEntry(canonicalName="PostgreSQL", aliases=["Postgres"],
                                          entityType="technology"))
    save_registry(layout.registry_file, normalize_registry(registry), now_iso=EARLIER)
    update_index(layout, [page])
    with closing(connect_index(layout)) as conn:
        first = query._alias_forms(conn, {"postgres", "mysql"})
        assert first == {"postgres": ["postgres", "postgresql"]}
        for _ in range(query.ALIAS_TABLE_AFTER - 1):
            query._alias_forms(conn, {"x"})
        assert query._alias_forms(conn, {"x"}) is not forms
        assert query._alias_forms(conn, {"x"})["postgres"] == ["postgres", "postgresql"]


def test_a_first_querys_own_alias_forms_are_the_whole_tables(tmp_path: Path) -> None:
    """A one-shot query asks SQL for its own forms only: each maps to the forms of the same
    entity as the whole table's mapping gives (a form of two entities: the last in key order)."""
    import sqlite3
    from contextlib import closing

    from tasks.search import query

    rows = [("pg", "postgresql"), ("postgres", "postgresql"), ("postgresql", "postgresql"),
            ("pg", "pgbouncer"), ("pgbouncer", "pgbouncer"), ("go", "go"), ("golang", "go"),
            ("mysql", "mysql")]
    with closing(sqlite3.connect(tmp_path / "index.sqlite3")) as conn:
        conn.execute("CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL)")
        conn.execute("CREATE TABLE aliases(form TEXT NOT NULL, entity TEXT NOT NULL)")
        conn.executemany("INSERT INTO aliases VALUES (?, ?)", rows)
        conn.commit()
        said = {"pg", "golang", "pgbouncer", "sqlite", "go lang"}
        first = query._alias_forms(conn, said)  # (targeted)
        for _ in range(query.ALIAS_TABLE_AFTER - 1):
            assert query._alias_forms(conn, said) == first
        whole = query._alias_forms(conn, said)  # (the whole table, kept)
        assert first == {form: whole[form] for form in said if form in whole}
        assert first["pg"] == ["pg", "postgres", "postgresql"] and "go" not in first
        assert query._alias_forms(conn, {"x"}) is whole


def test_the_kept_lists_and_term_counts_are_bounded_in_entries_too(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Misses are entries of no rows: a server that is never written to (one index state) and
    asked ever new queries keeps at most MEMO_MATCH_LISTS lists, MEMO_PHRASES phrases and
    MEMO_TERMS term counts."""
    import sqlite3
    from contextlib import closing

    from tasks.search import query

    monkeypatch.setattr(query, "MEMO_MATCH_LISTS", 3)
    monkeypatch.setattr(query, "MEMO_PHRASES", 4)
    monkeypatch.setattr(query, "MEMO_TERMS", 5)
    with closing(sqlite3.connect(tmp_path / "index.sqlite3", isolation_level=None)) as conn:
        conn.execute("CREATE VIRTUAL TABLE fts USING fts5(body)")
        conn.execute("CREATE VIRTUAL TABLE fts_terms USING fts5vocab(fts, 'row')")
        conn.executemany("INSERT INTO fts(body) VALUES (?)", [(f"w{i % 5} x",) for i in range(100)])
        for n in range(10):
            assert query.ranked_matches(conn, f'"miss{n}" OR "x"', 10) != []
            assert query.ranked_matches(conn, f'"miss{n}"', 10) == []
            query._term_rows(conn, {f"miss{n}"})
        memo = query.index_memo(conn)
        assert list(memo["matches"]) == [('"miss8"', True), ('"miss9" OR "x"', True),
                                         ('"miss9"', True)]
        assert list(memo["phrases"]) == ['"miss7"', '"miss8"', '"miss9"', '"x"']
        assert sorted(memo["terms"]) == [f"miss{n}" for n in range(5, 10)]  # (cleared when full)
