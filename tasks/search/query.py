"""`membank search`: ranked full-text search over the derived index (BM25 from SQLite FTS5).

User text never reaches FTS5 as syntax: it is cut into words and each word is quoted, so
quotes, operators (AND, OR, NOT, NEAR), parentheses, column filters and stray `*` are plain
text. A trailing `*` on a word is kept as a prefix search. The words are OR-ed: BM25 ranks pages
that match more of them higher, and a paraphrase that shares only some words still finds a page.
"""

from __future__ import annotations

import os
import re
import sqlite3
import stat
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

import orjson

from schemas.search import SearchHit, SearchResult
from tasks.search import term_stats
from tasks.search.dates import query_period
from tasks.search.index import TOKENIZER, index_file
from tasks.search.semantic import MIN_SIMILARITY, query_vector, similarities
from tasks.search.sync import read_index
from tasks.search.vector_memo import (
    VectorState,
    changed_rows,
    page_rows,
    row_arrays,
    state_of,
    with_pages,
)
from tasks.store.errors import InputError
from tasks.store.layout import ENTITY_HUB, GRAPH_FILE, MemoryLayout, hub_path

MAX_TERMS = 32
UNRANKED_MIN_ROWS = 20_000
MAX_LIMIT = 200
_WORD_RE = re.compile(r"(\w+)(\*?)")
# Words so common they only add noise to an OR query; dropped when the query has other words.
STOPWORDS = frozenset(
    "a an and are as at be by can do does for from how i in is it its of on or our so that the "
    "their them there these this to was we were what when where which who why will with you "
    "your".split()
)
_SNIPPET = "snippet(fts, -1, '**', '**', '…', 14)"


@dataclass(frozen=True)
class SearchOptions:
    types: tuple[str, ...] = ()
    hub: str | None = None
    limit: int = 10
    include_superseded: bool = False
    folders: tuple[str, ...] = ()  # only pages whose path starts with one of these
    semantic: bool = False  # hybrid: fuse BM25 with the pages' semantic similarity (RRF)
    after: str | None = None  # ISO day: only pages (and facts of sources) dated on or after it
    before: str | None = None  # ISO day: ... on or before it
    period: tuple[str, str] | None = None  # the days the query names: hits dated in it go first


class QueryError(InputError):
    """A query that cannot be searched (empty, no words, bad limit): a usage error."""

    exit_code = 2


def query_terms(text: str) -> list[str]:
    """The words of `text` as FTS5 terms (each a quoted string, `*` kept as a prefix marker)."""
    seen: dict[str, bool] = {}
    for word, star in _WORD_RE.findall(text.lower()):
        word = word.strip("_")
        if word:
            seen[word] = seen.get(word, False) or bool(star)
    words = [w for w in seen if w not in STOPWORDS] or list(seen)
    return [f"{w}*" if seen[w] else w for w in words[:MAX_TERMS]]


def fts_match(terms: Sequence[str]) -> str:
    parts = []
    for term in terms:
        word = term.rstrip("*")
        parts.append(f'"{word}"*' if term.endswith("*") else f'"{word}"')
    return " OR ".join(parts)


def normalize_hub(hub: str) -> str:
    hub = hub.strip().strip("/")
    if hub.startswith("./"):
        hub = hub[2:]
    return hub if hub.endswith(".md") else hub_path(hub)


def _filters(options: SearchOptions) -> tuple[str, list[object]]:
    where, params = [], []
    types = [t.strip().lower() for t in options.types if t.strip()]
    if "hub" not in types:
        where.append("(d.is_hub IS NULL OR d.is_hub = 0)")
    if not options.include_superseded:
        where.append("u.superseded = 0 AND d.superseded_by IS NULL AND (p.superseded_by IS NULL)")
    if types:
        marks = ",".join("?" * len(types))
        obs = 1 if {"observation", "entity"} & set(types) else 0
        where.append(f"(d.type IN ({marks}) OR d.entity_type IN ({marks}) OR p.type IN ({marks})"
                     f" OR (u.entity IS NOT NULL AND (? = 1 OR e.type IN ({marks}))))")
        params += [*types, *types, *types, obs, *types]
    if options.folders:
        where.append("(" + " OR ".join("d.path LIKE ? ESCAPE '\\'" for _ in options.folders) + ")")
        params += [f.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
                   for f in options.folders]
    if options.hub:
        where.append("(coalesce(p.hub, d.hub) = ? OR (u.entity IS NOT NULL AND ? = ?))")
        params += [normalize_hub(options.hub), normalize_hub(options.hub), ENTITY_HUB]
    if options.after:  # (an undated page is out of any period)
        where.append(f"{_DOC_DATE} >= ?")
        params.append(options.after)
    if options.before:
        where.append(f"{_DOC_DATE} <= ?")
        params.append(options.before)
    return (" AND ".join(where) or "1"), params


_TOP = "SELECT rowid, rank FROM fts WHERE fts MATCH ? ORDER BY rank LIMIT ?"
_FIRST = "SELECT rowid, 0.0 FROM fts WHERE fts MATCH ? LIMIT ?"  # no word ranks: index order
# The day a unit is about: its shard's source, its page, or (a fact) the source it came from.
_DOC_DATE = "coalesce(p.doc_date, d.doc_date, s.doc_date)"
_DETAILS = f"""
SELECT u.id, u.entity, u.anchor, u.heading, u.superseded, u.superseded_by, u.source_page,
       d.path, d.parent, d.title, d.type, d.entity_type, d.hub, d.updated_at, d.superseded_by,
       e.name, e.type, e.page, p.title, p.type, p.hub, p.updated_at, p.superseded_by,
       {_DOC_DATE}
FROM units u
LEFT JOIN docs d ON d.id = u.doc_id
LEFT JOIN docs p ON p.path = d.parent
LEFT JOIN docs s ON s.path = u.source_page
LEFT JOIN entities e ON e.key = u.entity
WHERE u.id IN (SELECT value FROM json_each(?)) AND {{filters}}
"""
_SNIPPET_OF = f"SELECT {_SNIPPET} FROM fts WHERE fts MATCH ? AND rowid = ?"


def _hit(row: tuple[Any, ...], rank: float) -> tuple[tuple[str, ...], SearchHit]:
    """A details row as a hit (its last column: the day the document is about)."""
    doc_date = row[-1]
    key, hit = _plain_hit(row[:-1], rank)
    return key, hit.model_copy(update={"doc_date": doc_date}) if doc_date else hit


def _plain_hit(row: tuple[Any, ...], rank: float) -> tuple[tuple[str, ...], SearchHit]:
    (_uid, entity, anchor, heading, superseded, superseded_by, source_page,
     path, parent, title, ptype, etype, hub, updated, doc_superseded_by,
     ename, etype2, epage, ptitle, pptype, phub, pupdated, psuperseded_by) = row
    score, snippet = round(-rank, 4), ""
    if entity is not None:
        target = epage or source_page or GRAPH_FILE
        hit = SearchHit(kind="observation", path=target, title=ename, page_type="entity",
                        entity_type=etype2, hub=ENTITY_HUB if epage else None,
                        anchor=anchor, section=heading, snippet=snippet, score=score,
                        superseded=bool(superseded), superseded_by=superseded_by,
                        source_page=source_page)
        return ("observation", ename.lower(), str(superseded)), hit
    if parent and ptitle is not None:  # a shard: the hit is its source, the shard is the part
        hit = SearchHit(kind="page", path=parent, title=ptitle, page_type=pptype, hub=phub,
                        anchor=anchor, section=heading, snippet=snippet, score=score,
                        updated_at=pupdated, part=path,
                        superseded=psuperseded_by is not None, superseded_by=psuperseded_by)
        return ("page", parent), hit
    hit = SearchHit(kind="page", path=path, title=title, page_type=ptype, entity_type=etype,
                    hub=hub, anchor=anchor, section=heading, snippet=snippet, score=score,
                    updated_at=updated, superseded=doc_superseded_by is not None,
                    superseded_by=doc_superseded_by)
    return ("page", path), hit


# A word's stems depend on the tokenizer alone: a warm process asks SQLite once per word.
_STEMS: dict[str, frozenset[str]] = {}
MEMO_STEM_WORDS = 50_000


def _stems(conn: sqlite3.Connection, words: Sequence[str]) -> list[set[str]]:
    """The index's tokens for each word (its tokenizer's stems), read from a temporary FTS5
    table with the same tokenizer (once per word in a process)."""
    missing = [word for word in dict.fromkeys(words) if word not in _STEMS]
    if missing:
        if len(_STEMS) + len(missing) > MEMO_STEM_WORDS:
            _STEMS.clear()
        _STEMS.update(zip(missing, map(frozenset, _tokenized(conn, missing)), strict=True))
    return [set(_STEMS[word]) for word in words]


def _tokenized(conn: sqlite3.Connection, words: Sequence[str]) -> list[set[str]]:
    conn.execute(f"CREATE VIRTUAL TABLE IF NOT EXISTS temp.query_words USING fts5(word, "
                 f"tokenize='{TOKENIZER}')")
    conn.execute("CREATE VIRTUAL TABLE IF NOT EXISTS temp.query_stems "
                 "USING fts5vocab(temp, query_words, 'instance')")
    conn.execute("DELETE FROM temp.query_words")
    conn.executemany("INSERT INTO temp.query_words(rowid, word) VALUES (?, ?)",
                     enumerate(words, 1))
    stems: list[set[str]] = [set() for _ in words]
    for doc, term in conn.execute("SELECT doc, term FROM temp.query_stems"):
        stems[doc - 1].add(term)
    return stems


def prune_common_terms(conn: sqlite3.Connection, terms: Sequence[str]) -> list[str]:
    """Drop words found in more than half the index's rows while rarer words remain."""
    return plan_terms(conn, terms)[0]


def plan_terms(conn: sqlite3.Connection, terms: Sequence[str]) -> tuple[list[str], bool]:
    """The words to match, and whether ranking them means anything.

    BM25 gives a word found in more than half the rows an IDF of about zero (FTS5 floors it
    to 1e-6): it cannot change the order of rows that match a rarer word, yet scoring its rows
    costs the most (every row of a 100,000-observation graph holding "observation"). So such
    words are dropped while a rarer indexed word remains; when none does, every match scores
    about zero and the matches are taken in index order without scoring them (False)."""
    plain = [t for t in terms if not t.endswith("*")]
    if not plain:
        return list(terms), True
    rows = conn.execute("SELECT coalesce(max(id), 0) FROM units").fetchone()[0]
    stems = _stems(conn, plain)
    frequency = _term_rows(conn, {s for group in stems for s in group})
    common = {word for word, group in zip(plain, stems, strict=True)
              if group and all(frequency.get(s, 0) * 2 > rows for s in group)}
    found = {word for word, group in zip(plain, stems, strict=True)
             if any(frequency.get(s, 0) for s in group)}
    kept = [t for t in terms if t not in common]
    if any(t in found or t.endswith("*") for t in kept):
        return kept, True
    # No rarer word is in the index: the common words are all there is and all score about
    # zero; on a big index, skip scoring them (a small one is cheap to rank anyway).
    return list(terms), not common or rows < UNRANKED_MIN_ROWS


_KNOWN: dict[tuple[object, ...], dict[object, Any]] = {}
_GRAPH_KNOWN: dict[tuple[object, ...], dict[object, Any]] = {}


def _index_file_state(conn: sqlite3.Connection) -> tuple[object, ...] | None:
    """(file, device, inode, mtime, size, the header's change counter, the WAL's time and
    size) of the connection's database file; None for an in-memory or vanished one."""
    file = next((row[2] for row in conn.execute("PRAGMA database_list") if row[1] == "main"), "")
    try:
        with open(file, "rb") as handle:
            header = handle.read(28)
            found = os.fstat(handle.fileno())
    except OSError:
        return None
    try:
        wal = os.stat(f"{file}-wal")
        wal_state: tuple[int, int] = (wal.st_mtime_ns, wal.st_size)
    except OSError:
        wal_state = (0, 0)
    return (file, found.st_dev, found.st_ino, found.st_mtime_ns, found.st_size, header[24:28],
            wal_state)


def index_memo(conn: sqlite3.Connection) -> dict[object, Any]:
    """Answers that hold until the index changes (rows per term, ranked matches), kept for the
    process (a warm server asks again and again): keyed by the database file's identity and
    the change counter its header carries (each commit, by any process, bumps it; a WAL
    file, were there one, counts too)."""
    key = _index_file_state(conn)
    if key is None:
        return {}  # (an in-memory or vanished database: nothing is kept)
    if key not in _KNOWN:
        _KNOWN.clear()
        _KNOWN[key] = {}
    return _KNOWN[key]


def graph_memo(conn: sqlite3.Connection) -> dict[object, Any]:
    """Answers read from the index's graph tables (registry aliases, entity pages), kept across
    page writes: those tables change only when the index takes in a changed graph or registry
    (tasks/search/index.py `_sync_entities`, which records their signature in `meta` in the
    same transaction) or is built anew (a new file). Keyed by the file's identity and that
    signature: a page write (the server's own memory_write) keeps them."""
    state = _index_file_state(conn)
    if state is None:
        return {}
    meta = dict(conn.execute("SELECT key, value FROM meta WHERE key IN "
                             "('graph_signature', 'schema_version')").fetchall())
    key = (*state[:3], meta.get("graph_signature"), meta.get("schema_version"))
    if key not in _GRAPH_KNOWN:
        _GRAPH_KNOWN.clear()
        _GRAPH_KNOWN[key] = {}
    return _GRAPH_KNOWN[key]


# The most index terms whose row counts a warm process keeps per index state.
MEMO_TERMS = 100_000


def _term_rows(conn: sqlite3.Connection, stems: set[str]) -> dict[str, int]:
    """How many index rows hold each stem (fts5vocab counts a common term's whole doclist:
    milliseconds each, so a warm process remembers them)."""
    known: dict[str, int] = index_memo(conn).setdefault("terms", {})
    missing = sorted(stems - known.keys())
    if missing:
        if len(known) + len(missing) > MEMO_TERMS:  # (a server that is never written to)
            known.clear()
        marks = ",".join("?" * len(missing))
        found = dict(conn.execute(f"SELECT term, doc FROM fts_terms WHERE term IN ({marks})",
                                  missing))
        known.update({term: found.get(term, 0) for term in missing})
    return {term: known[term] for term in stems}


# The longest name, in words, that a query's words are looked up as.
NAME_WORDS = 4
# A one-word name of letters this short is not looked up ("s3" is): two letters are mostly a
# verb or a function word ("go to the vet", "go live"), and expanding "go" to the Go language's
# names ("golang", "go 1.18") filled a question about a dog with Go's pages.
SHORTEST_NAME = 3


# Queries in one graph state after which a process keeps the whole alias table.
ALIAS_TABLE_AFTER = 4


def _alias_forms(conn: sqlite3.Connection, said: set[str]) -> dict[str, list[str]]:
    """Each of the `said` forms that is a registry name or alias -> all the forms of its entity
    (a form of several entities: the last entity in key order), in form order. The whole table
    (100,000 forms at 100,000 pages: 0.3 s to read into a mapping) is graph_memo'd once a
    process has asked ALIAS_TABLE_AFTER times in the same graph state (a warm server); before,
    each query (a one-shot search, retrieve's few) asks SQL for the entities of its own forms
    (a scan of the table: 50 ms at 100,000 forms)."""
    known = graph_memo(conn)
    asked = known.get("aliases asked", 0)
    if "aliases" not in known and asked < ALIAS_TABLE_AFTER:
        known["aliases asked"] = asked + 1
        marks = ",".join("?" * len(said))
        rows = conn.execute(f"SELECT form, entity FROM aliases WHERE entity IN (SELECT max(entity)"
                            f" FROM aliases WHERE form IN ({marks}) GROUP BY form)"
                            " ORDER BY entity, form", sorted(said)).fetchall()
        return {form: forms for forms in _by_entity(rows).values() for form in forms
                if form in said}
    if "aliases" not in known:
        rows = conn.execute("SELECT form, entity FROM aliases ORDER BY entity, form").fetchall()
        known["aliases"] = {form: forms for forms in _by_entity(rows).values() for form in forms}
    forms: dict[str, list[str]] = known["aliases"]
    return forms


def _by_entity(rows: Iterable[tuple[str, str]]) -> dict[str, list[str]]:
    """(form, entity) rows in entity order -> each entity's forms."""
    by_entity: dict[str, list[str]] = {}
    for form, entity in rows:
        by_entity.setdefault(entity, []).append(form)
    return by_entity


def alias_terms(conn: sqlite3.Connection, terms: Sequence[str]) -> list[str]:
    """The registry's other names for the names a query says (its words, up to NAME_WORDS in a
    row): "Postgres" adds "postgresql" when the registry lists it as an alias. Each is one
    more term (a phrase when it has several words), OR-ed with the query's own."""
    words = _plain(terms)
    said = {" ".join(words[i:i + n]) for n in range(1, NAME_WORDS + 1)
            for i in range(len(words) - n + 1)
            if n > 1 or len(words[i]) >= SHORTEST_NAME or not words[i].isalpha()}
    forms = _alias_forms(conn, said) if said else {}
    extra: dict[str, None] = {}
    for phrase in sorted(said):
        for form in forms.get(phrase, ()):
            if form not in said and not set(form.split()) <= set(words):
                extra[form] = None
    return list(extra)[: max(0, MAX_TERMS - len(terms))]


# The ranked match lists a warm process keeps per index state, in rows (16 bytes each), and
# in lists (a query that matches nothing is a list too: under real traffic, one per miss).
MEMO_MATCH_ROWS = 400_000
MEMO_MATCH_LISTS = 2_000
# The per-phrase scores it keeps per index state (each phrase's every match), in rows and
# phrases.
MEMO_PHRASE_ROWS = 600_000
MEMO_PHRASES = 4_000
# A pool this wide is retrieve's, whose folder-filtered queries then grow past it: every match
# is taken at once (one ranking; returning a row costs a microsecond or two).
FETCH_ALL_POOL = 1_000
# A MATCH as fts_match writes it: quoted phrases (a trailing `*`: a prefix), OR-ed.
_PHRASE_RE = re.compile(r'"[^"]*"\*?')
_ROWS_OF = "SELECT rowid, rank FROM fts WHERE fts MATCH ?"  # (in rowid order, not sorted)


def ranked_matches(conn: sqlite3.Connection, match: str, pool: int, ranked: bool = True
                   ) -> list[tuple[int, float]]:
    """The first `pool` matches of `match`, best first (index order when not `ranked`).

    A ranked OR of phrases is every match at once (`ranked_phrases`); one phrase, or matches in
    index order, are FTS5's own with a LIMIT that grows with the pool. A warm process keeps
    the longest list it fetched per query while the index is unchanged (a shorter pool is a
    prefix of a longer one): retrieve's three queries and a phrasing asked again rank once
    (at most MEMO_MATCH_ROWS rows kept, oldest dropped)."""
    import numpy as np

    memo: dict[tuple[str, bool], tuple[Any, Any, bool]] = \
        index_memo(conn).setdefault("matches", {})
    known = memo.pop((match, ranked), None)
    if known is None or (len(known[0]) < pool and not known[2]):
        wanted = pool if known is None and pool < FETCH_ALL_POOL else -1  # (LIMIT -1: all)
        phrases = fts_phrases(match) if ranked else []
        if len(phrases) > 1:
            known = (*ranked_phrases(conn, phrases), True)
        elif phrases and (scored := _carried_scores(conn, phrases[0])) is not None:
            known = _best_first(*scored, wanted)
        else:  # (one phrase: nothing to add up, and its list is rarely asked for again)
            ids, ranks = _columns(conn.execute(_TOP if ranked else _FIRST, (match, wanted)))
            known = (ids, ranks, wanted < 0 or len(ids) < pool)
    memo[(match, ranked)] = known  # (most recently used last)
    _bound(memo, MEMO_MATCH_ROWS, MEMO_MATCH_LISTS)
    ids, ranks = np.asarray(known[0][:pool]).tolist(), np.asarray(known[1][:pool]).tolist()
    return list(zip(ids, ranks, strict=True))


def _columns(cursor: sqlite3.Cursor) -> tuple[Any, Any]:
    """A (rowid, rank) cursor's rows as two arrays (int64, float64), read in chunks (no list of
    100,000 tuples at once)."""
    import numpy as np

    ids, ranks = [np.zeros(0, dtype=np.int64)], [np.zeros(0, dtype=np.float64)]
    while chunk := cursor.fetchmany(8192):
        ids.append(np.fromiter((row[0] for row in chunk), dtype=np.int64, count=len(chunk)))
        ranks.append(np.fromiter((row[1] for row in chunk), dtype=np.float64, count=len(chunk)))
    return np.concatenate(ids), np.concatenate(ranks)


def fts_phrases(match: str) -> list[str]:
    """The phrases of a MATCH that fts_match wrote (OR-ed quoted phrases), else []. (A phrase
    said twice is scored twice by FTS5: it stays twice.)"""
    phrases = _PHRASE_RE.findall(match)
    return phrases if " OR ".join(phrases) == match else []


def ranked_phrases(conn: sqlite3.Connection, phrases: Sequence[str]) -> tuple[Any, Any]:
    """Every match of the OR of `phrases` (rowids, ranks) in the order FTS5's `ORDER BY rank`
    gives them, from each phrase's own scores, kept per index state.

    FTS5's bm25 is a sum of one term per phrase of the query, each a function of that phrase
    and the row alone (the phrase's IDF, its weighted frequency in the row, the row's length),
    added in phrase order to 0.0, negated. So a row's rank for an OR of phrases is the negated
    sum, in the same order, of the scores each phrase alone gives it: bit for bit the same
    double. FTS5 sorts by rank, ties in rowid order; so does this. A warm server sees the same
    common words ("source", "document") in many queries beside a rare one: each phrase's
    matches are scored once per index state instead of all of them in every query
    (tests/tasks/search/test_query.py compares the two on SQLite itself)."""
    import numpy as np

    scored = [_phrase_scores(conn, phrase) for phrase in phrases]
    ids = np.unique(np.concatenate([rows for rows, _score in scored]))
    score = np.zeros(len(ids), dtype=np.float64)
    for rows, part in scored:  # (in phrase order; a phrase lists a row once)
        score[np.searchsorted(ids, rows)] += part
    rank = -score
    order = np.lexsort((ids, rank))
    return ids[order], rank[order]


def _best_first(ids: Any, scores: Any, pool: int) -> tuple[Any, Any, bool]:
    """The best `pool` (-1: all) of these rows (ids ascending) as FTS5's `ORDER BY rank LIMIT
    pool` gives them: rank (the negated score) ascending, ties in rowid order; and whether
    that is every row."""
    import numpy as np

    rank = -scores
    keep = np.arange(len(rank))
    if 0 <= pool < len(rank):
        keep = np.flatnonzero(rank <= np.partition(rank, pool - 1)[pool - 1]) if pool else keep[:0]
    order = keep[np.argsort(rank[keep], kind="stable")]  # (stable: ties stay in rowid order)
    if 0 <= pool < len(order):
        order = order[:pool]
    return ids[order], rank[order], len(order) == len(rank)


# A one-phrase MATCH as fts_match writes it: its text, and `*` for a prefix.
_ONE_PHRASE_RE = re.compile(r'"([^"]*)"(\*?)')


def _carried_scores(conn: sqlite3.Connection, phrase: str) -> tuple[Any, Any] | None:
    """(rowids ascending, bm25 term) of a one-token phrase from the statistics this process
    keeps across index states (tasks/search/term_stats.py); None: FTS5 must score it."""
    found = _ONE_PHRASE_RE.fullmatch(phrase)
    state = _index_file_state(conn)
    if found is None or state is None:
        return None
    memo = index_memo(conn)
    if "carry" not in memo:
        memo["carry"] = term_stats.usable(conn)
    token = term_stats.one_token(conn, found[1]) if memo["carry"] else None
    if token is None:
        return None
    return term_stats.phrase_scores(conn, state, token, bool(found[2]))


def _snippet_match(conn: sqlite3.Connection, match: str) -> str:
    """`match` with each prefix phrase that stands for one index term written as that term:
    FTS5 expands a prefix anew in every statement (2.5 ms per snippet for one matching 105,000
    rows), and the one term has the same instances, so the same snippet."""
    state = _index_file_state(conn)
    if state is None or not index_memo(conn).get("carry") or not (phrases := fts_phrases(match)):
        return match
    out = []
    for phrase in phrases:
        found = _ONE_PHRASE_RE.fullmatch(phrase)
        token = term_stats.one_token(conn, found[1]) if found and found[2] else None
        terms = term_stats.expansion(state, token) if token else None
        term = next(iter(terms)) if terms is not None and len(terms) == 1 else None
        out.append(f'"{term}"' if term and term_stats.one_token(conn, term) == term else phrase)
    return " OR ".join(out)


def _phrase_scores(conn: sqlite3.Connection, phrase: str) -> tuple[Any, Any]:
    """(rowids ascending, score) of every row matching one phrase: its bm25 term, the negated
    rank FTS5 gives the phrase alone; a one-token phrase from the statistics kept across
    index states, another kept per index state (at most MEMO_PHRASE_ROWS rows, least
    recently used dropped)."""
    carried = _carried_scores(conn, phrase)
    if carried is not None:
        return carried
    memo: dict[str, tuple[Any, Any]] = index_memo(conn).setdefault("phrases", {})
    known = memo.pop(phrase, None)
    if known is None:
        ids, ranks = _columns(conn.execute(_ROWS_OF, (phrase,)))
        known = (ids, -ranks)
    memo[phrase] = known
    _bound(memo, MEMO_PHRASE_ROWS, MEMO_PHRASES)
    return known


def _bound(memo: dict[Any, tuple[Any, ...]], rows: int, entries: int) -> None:
    """Drop the least recently used entries (first in `memo`) while the entries hold more than
    `rows` rows (an entry's first item is its row ids) or there are more than `entries`; the
    newest stays."""
    held = sum(len(entry[0]) for entry in memo.values())
    while len(memo) > 1 and (held > rows or len(memo) > entries):
        held -= len(memo.pop(next(iter(memo)))[0])


def entity_pages(conn: sqlite3.Connection) -> dict[str, str]:
    """Entity key by its page path, kept per graph state (the caller must not change it)."""
    known = graph_memo(conn)
    if "pages" not in known:
        known["pages"] = dict(conn.execute("SELECT page, key FROM entities WHERE page IS NOT NULL"))
    pages: dict[str, str] = known["pages"]
    return pages


@dataclass(frozen=True)
class _Lookup:
    """Where hits are looked up: the index, the memory root, and the details query with the
    search's filters (`details` takes a JSON list of unit ids, then `params`)."""

    conn: sqlite3.Connection
    layout: MemoryLayout
    details: str
    params: list[object]

    def rows(self, units: list[int]) -> sqlite3.Cursor:
        """The details of these units, of those that pass the filters."""
        return self.conn.execute(self.details, [orjson.dumps(units).decode(), *self.params])

    def on_disk(self, path: str) -> bool:
        """A regular file (never a symlink: one may lead out of the root)."""
        try:
            return stat.S_ISREG(os.lstat(os.path.join(self.layout.root, path)).st_mode)
        except OSError:
            return False


def _lexical(lookup: _Lookup, match: str, limit: int, ranked: bool = True
             ) -> list[tuple[SearchHit, int]]:
    """BM25: the best unit per page (and per entity's current or superseded facts), existing
    files only, best first. FTS5 ranks a pool of matches; a pool too small to fill `limit`
    after filtering and grouping grows, until every match has been seen."""
    # Ranking costs the same for any LIMIT (FTS5 scores every match), so start with a pool
    # large enough that grouping and filters rarely need a second round.
    pool = max(limit * 40, 400)
    while True:
        top = ranked_matches(lookup.conn, match, pool, ranked)
        best: dict[tuple[str, ...], tuple[SearchHit, int]] = {}
        for unit, rank, row in _passing(lookup, top):
            key, hit = _hit(row, rank)
            if key not in best and lookup.on_disk(hit.part or hit.path):
                best[key] = (hit, unit)
                if len(best) >= limit * 4:  # deeper ranks barely move a fused or cut list
                    break
        if len(best) >= limit or len(top) < pool:
            break
        pool *= 4
    return sorted(best.values(), key=lambda pair: (-pair[0].score, pair[0].path, pair[0].kind,
                                                   pair[0].anchor))


# The first slice of ranked units whose details are looked up (then twice as many each time).
DETAILS_SLICE = 64


def _passing(lookup: _Lookup, top: list[tuple[int, float]]
             ) -> Iterator[tuple[int, float, tuple[Any, ...]]]:
    """(unit, rank, details row) of the ranked units that pass the filters, in rank order,
    looked up a slice at a time: a search stops at limit * 4 hits, most often within its
    first few dozen units of a pool of 400 (a unit's row does not depend on the others)."""
    start, size = 0, DETAILS_SLICE
    while start < len(top):
        part = top[start:start + size]
        found = {row[0]: row for row in lookup.rows([unit for unit, _rank in part])}
        for unit, rank in part:
            if unit in found:
                yield unit, rank, found[unit]
        start, size = start + size, size * 2


def _semantic(lookup: _Lookup, text: str, limit: int) -> list[tuple[SearchHit, int]]:
    """Pages by the cosine similarity of their best passage's vector to the query's (above
    MIN_SIMILARITY), through the same filters, best first; the hit names that passage's section
    and its score is the similarity."""
    return semantic_pages(lookup, text, limit)[0]


def semantic_pages(lookup: _Lookup, text: str, limit: int
                   ) -> tuple[list[tuple[SearchHit, int]], list[float]]:
    """_semantic's hits, and each one's whole-page similarity (its page's mean passage vector:
    summed for these pages alone, vector_memo.page_rows)."""
    state = unit_vectors(lookup.conn, lookup.layout, whole=bool(PAGE_WEIGHT))
    units, docs = state.units, state.docs
    if not units:
        return [], []
    query = query_vector(text)
    similarity = similarities(state.vectors, query)
    if PAGE_WEIGHT:  # each unit's score leans on its whole page's
        similarity = (1 - PAGE_WEIGHT) * similarity + PAGE_WEIGHT * similarities(
            state.pages, query)[docs]
    wanted: dict[int, int] = {}  # page -> its best unit's row
    for i in _best_rows(similarity, limit * SEMANTIC_POOL):
        if similarity[i] < MIN_SIMILARITY or len(wanted) >= limit * 4:
            break
        wanted.setdefault(int(docs[i]), i)
    found = {row[0]: row for row in lookup.rows([units[i] for i in wanted.values()])}
    whole = dict(zip(wanted, similarities(page_rows(state, list(wanted)), query).tolist(),
                     strict=True))
    best: dict[tuple[str, ...], tuple[SearchHit, int]] = {}
    page_scores: dict[tuple[str, ...], float] = {}
    for page, i in wanted.items():
        row = found.get(units[i])
        if row is None:
            continue
        key, hit = _hit(row, -float(similarity[i]))
        if key not in best and lookup.on_disk(hit.part or hit.path):
            best[key] = (hit, units[i])
            page_scores[key] = whole[page]
    return list(best.values()), list(page_scores.values())


# How many units per wanted page the semantic side looks at (a long page has many).
SEMANTIC_POOL = 16
# A unit's similarity is (1 - w) * its own + w * its page's (the normalized mean of the page's
# passage vectors). 0: a page is as similar as its best passage. 0.3 and 0.5 lifted similarity
# alone on the ADR and genre sets but cost the chat set 0.07 MRR under the gates, below BM25
# alone (benchmarks/bench_relevance_results.md), so the page mean is off.
PAGE_WEIGHT = 0.0


def _best_rows(similarity: Any, count: int) -> list[int]:
    """The rows of the `count` highest similarities, best first (ties by row: stable)."""
    import numpy as np

    if count < len(similarity):
        top = np.argpartition(-similarity, count)[:count]
        return [int(i) for i in top[np.lexsort((top, -similarity[top]))]]
    return [int(i) for i in np.argsort(-similarity, kind="stable")]


# The kept state, and its term_stats mark (None: not tracked).
_VECTORS: dict[tuple[str, int, int], tuple[VectorState, tuple[object, int] | None]] = {}
_VECTOR_ROWS = ("SELECT v.id, v.unit_id, u.doc_id, v.vec FROM vectors v "
                "JOIN units u ON u.id = v.unit_id")
_VECTOR_BATCH = 4096  # rows fetched at a time into the arrays (vector_memo.row_arrays)


def unit_vectors(conn: sqlite3.Connection, layout: MemoryLayout, *, whole: bool = False
                 ) -> VectorState:
    """Every unit vector as one matrix, with each row's unit id and its page's row of the pages
    (with `whole`, the page matrix too: each page's unit vectors summed, unit length); kept for
    the process while the index file is unchanged (an agent process that asks again pays for it
    once), and after a change only what changed is converted (and, when the page matrix is kept,
    summed) again (tasks/search/vector_memo.py).
    A warm server that keeps term statistics reads only the rows of the units a change added
    (tasks/search/term_stats.py says which)."""
    stat = index_file(layout).stat()
    key = (str(index_file(layout)), stat.st_mtime_ns, stat.st_size)
    if key not in _VECTORS:
        kept, mark = next(iter(_VECTORS.values()), (None, None))

        def every_row() -> VectorState:
            bound = conn.execute("SELECT count(*) FROM vectors").fetchone()[0]
            cursor = conn.execute(f"{_VECTOR_ROWS} ORDER BY v.id")
            return state_of(row_arrays(iter(lambda: cursor.fetchmany(_VECTOR_BATCH), []), bound),
                            kept)

        def read(gone: Any, new: Any) -> VectorState:
            if gone is None or kept is None:
                return every_row()
            fetched = conn.execute(f"{_VECTOR_ROWS} WHERE v.unit_id IN (SELECT value FROM "
                                   "json_each(?))", (orjson.dumps(new.tolist()).decode(),)
                                   ).fetchall()
            rows, unchanged = changed_rows(kept, gone, fetched)
            ids = rows[0]
            count, top = conn.execute("SELECT count(*), coalesce(max(id), 0) FROM vectors").fetchone()
            if count != len(ids) or (len(ids) and top != ids[-1]):  # (not what the units say)
                return every_row()
            return state_of(rows, kept, unchanged)

        file_state = _index_file_state(conn)
        tracked = term_stats.with_changes(conn, file_state, mark, read) \
            if file_state is not None else None
        if tracked is not None:
            mark, state = tracked
        else:
            state, mark = read(None, None), None
        _VECTORS.clear()
        _VECTORS[key] = (state, mark)
    state, mark = _VECTORS[key]
    if whole and state.pages is None:  # (kept: the next state's pages then follow the change)
        state = with_pages(state)
        _VECTORS[key] = (state, mark)
    return state


RRF_K = 60
# The semantic side's evidence gates, tuned on benchmarks/bench_relevance.py's development sets
# (ADR paraphrases, other genres, a chat, headings). Similarity is fused only when BM25 is unsure
# and similarity is not: equal-weight fusion everywhere lost 0.6 MRR on heading queries and hurt
# conversations (their sessions all look alike to a static embedding), while on paraphrased
# questions, where BM25 shares few words with the answer, it gains 0.07 MRR.
# BM25 is sure when its best hit's title or heading is the query, or its score leads the
# next by LEXICAL_MARGIN; similarity is unsure when its best two are within SEMANTIC_MARGIN.
# With passage vectors (issue 28 item 1) a page ranks by its best passage, but whether
# similarity has a clear leader is judged on the pages' whole-page vectors (the normalized mean
# of their passages' vectors, as the gate was first tuned on page vectors): on the development
# sets, in bench_relevance's memory and in tests/tasks/search/test_fusion_gate.py's smaller one,
# margin 0.05 on whole pages kept the chat and genre sets at or above BM25 alone in both, where
# a margin on best passages had to trade one against the other
# (benchmarks/bench_relevance_results.md).
LEXICAL_MARGIN = 1.2
SEMANTIC_MARGIN = 0.05
WHOLE_PAGE_GATE = True


def _plain(terms: Sequence[str]) -> list[str]:
    return [term.rstrip("*") for term in terms]


def lexical_is_sure(lexical: Sequence[tuple[SearchHit, int]], terms: Sequence[str]) -> bool:
    """True when BM25's ranking needs no help from similarity: its best hit's title or
    section heading is the query, or its score leads the next one's by LEXICAL_MARGIN."""
    if not lexical:
        return False
    best, words = lexical[0][0], _plain(terms)
    if words in (_plain(query_terms(best.title)), _plain(query_terms(best.section))):
        return True
    if len(lexical) == 1:
        return True
    runner_up = lexical[1][0].score
    return runner_up <= 0 or best.score >= LEXICAL_MARGIN * runner_up


def similarity_is_sure(similar: Sequence[tuple[SearchHit, int]]) -> bool:
    """True when the best page by similarity stands out (its score is the cosine similarity;
    the default gate applies `leads` to whole-page similarities instead)."""
    return leads([hit.score for hit, _unit in similar])


def leads(scores: Sequence[float]) -> bool:
    """True when the best of these similarities leads the next by SEMANTIC_MARGIN."""
    if len(scores) < 2:
        return bool(scores)
    first, second = sorted(scores, reverse=True)[:2]
    return first - second >= SEMANTIC_MARGIN


def gated_similarity(lookup: _Lookup, lexical: Sequence[tuple[SearchHit, int]],
                     terms: Sequence[str], limit: int) -> list[tuple[SearchHit, int]]:
    """The similarity ranking to fuse with BM25's: empty where the gates say it cannot help
    (computed only when BM25 is unsure)."""
    if lexical_is_sure(lexical, terms):
        return []
    similar, whole = semantic_pages(lookup, " ".join(_plain(terms)), limit)
    return similar if (leads(whole) if WHOLE_PAGE_GATE else similarity_is_sure(similar)) else []


_Key = tuple[str, str, bool]


def _hit_key(hit: SearchHit) -> _Key:
    """One hit per page, or per entity for observations (as the lexical side groups them)."""
    return hit.kind, hit.path if hit.kind == "page" else hit.title.lower(), hit.superseded


def document_key(hit: SearchHit, sources: Mapping[str, str] | None = None) -> _Key:
    """The document a hit counts for in the fusion: an observation counts for the source page it
    was read from, an entity page whose observations all come from one source page (`sources`,
    `entity_sources`) for that page, any other hit for itself."""
    if hit.kind == "observation" and hit.source_page:
        return "page", hit.source_page, hit.superseded
    if hit.kind == "page" and sources and hit.path in sources:
        return "page", sources[hit.path], hit.superseded
    return _hit_key(hit)


def entity_sources(conn: sqlite3.Connection) -> dict[str, str]:
    """Entity page -> the one source page all its observations were read from (entities read
    from several sources are left out), kept per graph state (the caller must not change it)."""
    known = graph_memo(conn)
    if "sources" not in known:
        known["sources"] = dict(conn.execute(
            "SELECT e.page, min(u.source_page) FROM entities e JOIN units u ON u.entity = e.key"
            " WHERE e.page IS NOT NULL AND u.source_page IS NOT NULL GROUP BY e.page"
            " HAVING count(DISTINCT u.source_page) = 1"))
    sources: dict[str, str] = known["sources"]
    return sources


def fuse(*rankings: list[tuple[SearchHit, int]], limit: int | None = None,
         sources: Mapping[str, str] | None = None) -> list[tuple[SearchHit, int]]:
    """Reciprocal-rank fusion per document: each ranking ranks documents by their first hit
    (an observation counts for its source page, `document_key`), and a document scores the sum
    of 1 / (60 + rank) over the rankings it is in; its first-seen hit (BM25's when it has one)
    takes that score. So an observation at BM25 rank 1 and its page further down are one
    document at rank 1, not two that the pages both lists agree on pass. The document's other
    hits keep their own fused score (sum over their own ranks), so they do not crowd the top.
    A hit keeps the lexical form (anchor and snippet of its match) when it has one."""
    documents: dict[_Key, float] = {}
    scores: dict[_Key, float] = {}
    chosen: dict[_Key, tuple[SearchHit, int]] = {}
    first: dict[_Key, _Key] = {}  # document -> its first-seen hit
    for ranking in rankings:
        seen: set[_Key] = set()
        for rank, (hit, unit) in enumerate(ranking, 1):
            doc, key = document_key(hit, sources), _hit_key(hit)
            if doc not in seen:
                seen.add(doc)
                documents[doc] = documents.get(doc, 0.0) + 1.0 / (RRF_K + len(seen))
            scores[key] = scores.get(key, 0.0) + 1.0 / (RRF_K + rank)
            chosen.setdefault(key, (hit, unit))
            first.setdefault(doc, key)
    for doc, key in first.items():  # (a document scores at least as much as any of its hits)
        scores[key] = max(scores[key], documents[doc])
    order = sorted(scores, key=lambda k: (-round(scores[k] * 1000, 4), chosen[k][0].path,
                                          chosen[k][0].kind, chosen[k][0].anchor))
    return [(chosen[k][0].model_copy(update={"score": round(scores[k] * 1000, 4)}), chosen[k][1])
            for k in order[:limit]]


SUPERSEDING_RELATIONS = ("supersedes", "partially_supersedes")


def _replacements(lookup: _Lookup, ranked: list[tuple[SearchHit, int]]
                  ) -> list[tuple[SearchHit, int]]:
    """The graph's word on supersession: a hit on a record that another one supersedes (a
    `supersedes` relation) names it, and the replacing record's page comes just before it."""
    pages = entity_pages(lookup.conn)
    out: list[tuple[SearchHit, int]] = []
    placed: set[tuple[str, str]] = set()
    for hit, unit in ranked:
        if (hit.kind, hit.path) in placed:
            continue
        key = hit.title.strip().lower() if hit.kind == "observation" else pages.get(hit.path)
        row = lookup.conn.execute(
            "SELECT e.name, e.page FROM relations r JOIN entities e ON e.key = r.source "
            f"WHERE r.target = ? AND r.superseded = 0 AND r.type IN {SUPERSEDING_RELATIONS} "
            "ORDER BY e.key LIMIT 1", (key,)).fetchone() if key else None
        if row is not None:
            hit = hit.model_copy(update={"superseded_by": hit.superseded_by or row[0]})
            successor = _successor(lookup, ranked, row[1], hit.score)
            if successor is not None and ("page", row[1]) not in placed:
                out.append(successor)
                placed.add(("page", row[1]))
        out.append((hit, unit))
        placed.add((hit.kind, hit.path))
    return out


def _successor(lookup: _Lookup, ranked: list[tuple[SearchHit, int]], page: str | None,
               score: float) -> tuple[SearchHit, int] | None:
    """The replacing record's page hit: its own hit when ranked, else one made for it."""
    if not page:
        return None
    for hit, unit in ranked:
        if hit.kind == "page" and hit.path == page:
            return hit, unit
    first = lookup.conn.execute("SELECT min(u.id) FROM units u JOIN docs d ON d.id = u.doc_id"
                                " WHERE d.path = ?", (page,)).fetchone()[0]
    found = lookup.rows([first]).fetchone() if first is not None else None
    if found is None or not lookup.on_disk(page):
        return None
    return _hit(found, -score)[1], first


def in_period_first(ranked: list[tuple[SearchHit, int]], period: tuple[str, str]
                    ) -> list[tuple[SearchHit, int]]:
    """Hits about a day of the period the query names before the others (each group in its
    order): a question about August 2025 wants the pages dated then, not every page that
    mentions the year."""
    first, last = period
    return sorted(ranked, key=lambda pair: not (pair[0].doc_date
                                                and first <= pair[0].doc_date <= last))


def run_query(conn: sqlite3.Connection, layout: MemoryLayout, terms: Sequence[str],
              options: SearchOptions) -> list[SearchHit]:
    """Ranked hits: BM25, or with options.semantic BM25 fused with semantic similarity."""
    kept, rankable = plan_terms(conn, [*terms, *alias_terms(conn, terms)])
    match = fts_match(kept)
    filters, params = _filters(options)
    lookup = _Lookup(conn, layout, _DETAILS.format(filters=filters), params)
    ranked = _lexical(lookup, match, options.limit, rankable)
    if options.semantic:
        similar = gated_similarity(lookup, ranked, terms, options.limit)
        depth = options.limit * 4 if options.period else options.limit  # (room to lift)
        sources = entity_sources(conn) if similar else None
        ranked = _replacements(lookup, fuse(ranked, similar, limit=depth, sources=sources))
    if options.period:
        ranked = in_period_first(ranked, options.period)
    out, marked = [], _snippet_match(conn, match)
    for hit, unit in ranked[: options.limit]:
        snippet = conn.execute(_SNIPPET_OF, (marked, unit)).fetchone()
        if snippet is None:  # found by similarity alone: no word of the query to mark
            snippet = conn.execute("SELECT substr(coalesce(nullif(description, ''), title), 1, 160)"
                                   " FROM docs WHERE path = ?", (hit.part or hit.path,)).fetchone()
        out.append(hit.model_copy(update={"snippet": snippet[0] if snippet else ""}))
    return out


def search(layout: MemoryLayout, text: str, options: SearchOptions | None = None) -> SearchResult:
    """Search the memory; an unusable query is an InputError with one clear line."""
    options = options or SearchOptions()
    if not 1 <= options.limit <= MAX_LIMIT:
        raise QueryError(f"--limit must be between 1 and {MAX_LIMIT}, not {options.limit}")
    terms = query_terms(text)
    if not terms:
        raise QueryError("the query has no words to search for" if text.strip()
                         else "the query is empty", hint="search for one or more words")
    if options.period is None:
        options = replace(options, period=query_period(text))

    # a broken index is derived data: rebuilt and read again, else one line saying how to fix it
    hits, warnings = read_index(layout, lambda conn: run_query(conn, layout, terms, options),
                                semantic=options.semantic)
    return SearchResult(query=text, terms=list(terms), hits=hits, warnings=warnings)
