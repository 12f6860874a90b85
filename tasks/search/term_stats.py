"""FTS5's BM25 for one-token phrases, from statistics a warm process keeps across index states.

FTS5 scores a phrase's every match to rank it (`ORDER BY rank`): a prefix such as `case*`
matching 105,000 observations costs 130-200 ms, on every index state, since each write changes
the statistics the scores depend on. But a row's score depends on the state only through four
numbers: its bm25 term for a phrase is (fts5_aux.c, fts5Bm25Function)

    idf * (f * (k1 + 1)) / (f + k1 * (1 - b + b * D / avgdl)),   k1 = 1.2, b = 0.75,

where f is the phrase's weighted count in the row (each instance adds its column's weight), D
the row's length in tokens (its `fts_docsize` entry), avgdl the index's tokens over its rows
(the averages record, `fts_data` row 1) and idf = log((rows - hits + 0.5) / (hits + 0.5)),
floored at 1e-6, hits being the rows that match the phrase. f and D belong to the row and never
change while it lives; rows, tokens and hits are counts. So a process keeps, per phrase, the
matching rows and their f, and per index unit its D, and after a write it updates only the rows
that changed, then evaluates the same expression in the same order: the same doubles, bit for bit
(tests/tasks/search/test_term_stats.py compares them with FTS5's own ranks, and a process checks
a sample against FTS5 once before it relies on them).

Which rows changed: the index writes units (its FTS5 rows, same ids) only with their page's
`docs` row or their entity's `entities` row, deletes them together, and never updates either
(tasks/search/index.py); a page's row carries its file's time and size (and path), an entity's
row a digest of everything its units hold, and entity rows change only with the graph signature
recorded in the same transaction. So the units of every page or entity whose row differs
between two states are the rows that changed (their new units are read, a few rows a write).
Each state is then checked against the index's own counts (FTS5's rows and tokens, the newest
unit): a change seen any other way drops the kept statistics, which are read again. Not seen:
a page file rewritten to the same size within the same file-time tick and re-indexed under the
same ids, the blind spot update_index's own staleness check has too.

The snippets of a prefix that stands for one index term are asked for that term (query.py's
`_snippet_match`): FTS5 expands a prefix anew in every statement, 2.5 ms a snippet at 105,000
rows. And the unit-vector matrix after a write reads only the rows of the units a change added
(`with_changes`, query.py's `unit_vectors`).
"""

from __future__ import annotations

import math
import sqlite3
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

import orjson

from tasks.search.index import BM25_WEIGHTS, FTS_COLUMNS, TOKENIZER

T = TypeVar("T")
K1, B = 1.2, 0.75  # (fts5_aux.c's constants)
IDF_FLOOR = 1e-6
ENTITY_OWNER = 1 << 40  # an entity's units are owned by ENTITY_OWNER + its code
# The deltas kept (one per index state seen); a phrase further behind is read again.
MAX_DELTAS = 64
# More changed rows than this since a phrase was kept: read it again from the index.
MAX_CARRIED = 20_000
# The phrase statistics kept, in rows (ids and weighted counts: 16 bytes each), and phrases.
MEMO_ROWS = 600_000
MEMO_PHRASES = 4_000
# Rows compared with FTS5's own ranks before a process relies on its own (once per index file).
CHECK_ROWS = 64
_RANK = f"bm25({', '.join(map(str, BM25_WEIGHTS))})"
# Off in a one-shot process: reading the statistics first costs more than FTS5's scoring of a
# few phrases (0.3-0.5 s at 110,000 rows); a warm server turns it on (keep_term_statistics).
_ENABLED: list[bool] = [False]


def keep_term_statistics(on: bool = True) -> None:
    """Score one-token phrases from statistics kept across index states (a warm process)."""
    _ENABLED[0] = on
    if not on:
        with _LOCK:
            _TRACKERS.clear()
            _PHRASES.clear()


@dataclass
class Tracker:
    """What a process knows of one index file's state: page and entity signatures, each unit's
    owner and length, FTS5's counts, and the units each state change removed and added."""

    file: tuple[object, ...]
    state: tuple[object, ...]
    docs: Any  # per page, ascending: (doc id, mtime_ns, size, path length) (int64, n x 4)
    entities: tuple[str | None, list[tuple[str, str]]]  # graph signature, (key, digest) by key
    codes: dict[str, int]
    owner: Any  # per unit id: its page's doc id, ENTITY_OWNER + its entity's code, or -1
    length: Any  # per unit id: its FTS5 row's length in tokens (0: no such unit)
    rows: int
    tokens: int
    version: int = 0
    deltas: list[tuple[int, Any, Any]] = field(default_factory=list)  # (version, gone, new)
    checked: bool = False  # its scores were compared with FTS5's
    sound: bool = True  # and were equal


_LOCK = threading.Lock()
_TRACKERS: dict[tuple[object, ...], Tracker] = {}
# (file, token, prefix) -> (version, row ids ascending, weighted counts, the terms seen)
_PHRASES: dict[tuple[object, ...], tuple[int, Any, Any, frozenset[str]]] = {}


def usable(conn: sqlite3.Connection) -> bool:
    """Turned on, over the index's own tables ranked as the index ranks them (else FTS5 is
    asked)."""
    if not _ENABLED[0]:
        return False
    names = {row[0] for row in conn.execute(
        "SELECT name FROM sqlite_master WHERE name IN ('docs', 'units', 'entities', 'fts_docsize',"
        " 'fts_config', 'meta')")}
    if len(names) < 6:
        return False
    rank = conn.execute("SELECT v FROM fts_config WHERE k = 'rank'").fetchone()
    return rank is not None and rank[0] == _RANK and all(w > 0 for w in BM25_WEIGHTS)


def phrase_scores(conn: sqlite3.Connection, state: tuple[object, ...], token: str,
                  prefix: bool) -> tuple[Any, Any] | None:
    """(row ids ascending, bm25 term) of every row matching the one-token phrase `token` (a
    prefix when `prefix`) in the index state `state` (tasks/search/query.py's key), or None
    when this process cannot score it itself."""
    import numpy as np

    with _LOCK:
        began = not conn.in_transaction
        if began:
            conn.execute("BEGIN")  # (one state for every read below)
        try:
            tracker = _tracker(conn, state)
            if tracker is None or not tracker.sound:
                return None
            ids, weighted = _phrase(conn, tracker, token, prefix)
            if not tracker.checked:
                tracker.checked = True
                tracker.sound = _agrees(conn, tracker, token, prefix, (ids, weighted))
                if not tracker.sound:
                    return None
        finally:
            if began:
                conn.execute("COMMIT")
    if not len(ids) or not tracker.rows:
        return ids, np.zeros(len(ids), dtype=np.float64)
    return ids, bm25(weighted, tracker.length[ids], len(ids), tracker.rows, tracker.tokens)


def with_changes(conn: sqlite3.Connection, state: tuple[object, ...],
                 since: tuple[object, int] | None, read: Callable[[Any, Any], T]
                 ) -> tuple[tuple[object, int], T] | None:
    """`read(gone, new)` in one read transaction of the index state `state`, with the units
    gone and the units new (live now) since `since` (a mark this returned before), or (None,
    None) when those are not known; and the mark of this state. None when this process keeps
    no statistics (or they disagree with the index)."""
    import numpy as np

    with _LOCK:
        if not usable(conn):
            return None
        began = not conn.in_transaction
        if began:
            conn.execute("BEGIN")
        try:
            tracker = _tracker(conn, state)
            if tracker is None or not tracker.sound:
                return None
            steps = [(gone, new) for version, gone, new in tracker.deltas
                     if since is not None and since[0] == tracker.file and version > since[1]]
            if since is None or since[0] != tracker.file or \
                    len(steps) != tracker.version - since[1]:
                return (tracker.file, tracker.version), read(None, None)
            gone = np.concatenate([np.zeros(0, np.int64)] + [g for g, _n in steps]
                                  + [n for _g, n in steps])
            new = np.unique(np.concatenate([np.zeros(0, np.int64)] + [n for _g, n in steps]))
            return (tracker.file, tracker.version), read(gone, new[tracker.owner[new] >= 0])
        finally:
            if began:
                conn.execute("COMMIT")


def expansion(state: tuple[object, ...], token: str) -> frozenset[str] | None:
    """The index terms the prefix `token` stands for in the index state `state` (a superset:
    a term whose rows were all deleted may stay), when this process keeps them."""
    with _LOCK:
        tracker = _TRACKERS.get(state[:3])
        known = _PHRASES.get((state[:3], token, True))
        if tracker is None or tracker.state != state or known is None or known[0] != tracker.version:
            return None
        return known[3]


def bm25(weighted: Any, length: Any, hits: int, rows: int, tokens: int) -> Any:
    """FTS5's bm25 term of one phrase for rows of these weighted counts and lengths, computed
    as fts5Bm25Function computes it (the same operations in the same order)."""
    idf = math.log((rows - hits + 0.5) / (hits + 0.5))
    if idf <= 0.0:
        idf = IDF_FLOOR
    avgdl = float(tokens) / float(rows)
    return 0.0 + idf * ((weighted * (K1 + 1.0)) / (weighted + K1 * (1 - B + B * length / avgdl)))


_TOKENS: dict[str, str | None] = {}
MEMO_TOKENS = 50_000


def one_token(conn: sqlite3.Connection, text: str) -> str | None:
    """The one token the index's tokenizer makes of `text` (a phrase's text), else None (no
    token, or several: such a phrase is left to FTS5). Once per text in a process."""
    if text not in _TOKENS:
        if len(_TOKENS) >= MEMO_TOKENS:
            _TOKENS.clear()
        conn.execute(f"CREATE VIRTUAL TABLE IF NOT EXISTS temp.phrase_words USING fts5(word, "
                     f"tokenize='{TOKENIZER}')")
        conn.execute("CREATE VIRTUAL TABLE IF NOT EXISTS temp.phrase_tokens "
                     "USING fts5vocab(temp, phrase_words, 'instance')")
        conn.execute("DELETE FROM temp.phrase_words")
        conn.execute("INSERT INTO temp.phrase_words(rowid, word) VALUES (1, ?)", (text,))
        found = conn.execute("SELECT term FROM temp.phrase_tokens").fetchall()
        token = found[0][0] if len(found) == 1 else None
        _TOKENS[text] = token if token and ord(token[-1]) < 0x10FFFF else None
    return _TOKENS[text]


# Tracking the index's state ---------------------------------------------------------------


def _tracker(conn: sqlite3.Connection, state: tuple[object, ...]) -> Tracker | None:
    """The tracker of the connection's index file, brought to `state` (read anew when the file
    is another one, or a state's counts disagree with what the changes seen add up to)."""
    file = state[:3]
    tracker = _TRACKERS.get(file)
    if tracker is not None and tracker.state != state:
        if not _advance(conn, tracker, state):
            tracker = None
    if tracker is None:
        _TRACKERS.clear()
        _PHRASES.clear()  # (their versions were this tracker's)
        tracker = _load(conn, state)
        if tracker is None:
            return None
        _TRACKERS[file] = tracker
    return tracker


def _signatures(conn: sqlite3.Connection, kept: Tracker | None = None
                ) -> tuple[Any, tuple[str | None, list[tuple[str, str]]]]:
    """Each page's row (id, file time and size, path length), and the graph signature with
    each entity's (key, digest): a page row is never updated, only deleted and inserted (its
    units with it); entity rows change only with the graph signature the index records in
    the same transaction (`kept`'s entities are reused while it is the same)."""
    import numpy as np

    docs = conn.execute("SELECT id, mtime_ns, size, length(path) FROM docs ORDER BY id").fetchall()
    table = np.array(docs, dtype=np.int64).reshape(len(docs), 4)
    graph = conn.execute("SELECT value FROM meta WHERE key = 'graph_signature'").fetchone()
    signature = graph[0] if graph is not None else None
    if kept is not None and signature is not None and kept.entities[0] == signature:
        return table, kept.entities
    return table, (signature, conn.execute("SELECT key, digest FROM entities ORDER BY key"
                                           ).fetchall())


def _changed_docs(old: Any, new: Any) -> tuple[list[int], list[int]]:
    """(pages of `old` gone or changed, pages of `new` added or changed), by their rows."""
    import numpy as np

    if not len(old) or not len(new):
        return old[:, 0].tolist(), new[:, 0].tolist()
    at = np.minimum(np.searchsorted(old[:, 0], new[:, 0]), len(old) - 1)
    same = (old[at] == new).all(axis=1)
    still = np.zeros(len(old), dtype=bool)
    still[at[same]] = True
    return old[~still, 0].tolist(), new[~same, 0].tolist()


def _changed_entities(old: list[tuple[str, str]], new: list[tuple[str, str]]
                      ) -> tuple[list[str], list[str]]:
    if old == new:  # (a page write leaves the graph alone)
        return [], []
    before, after = dict(old), dict(new)
    return ([k for k, digest in old if after.get(k) != digest],
            [k for k, digest in new if before.get(k) != digest])


def _counts(conn: sqlite3.Connection) -> tuple[int, int]:
    """FTS5's row count and total tokens (its averages record, as bm25 reads them)."""
    row = conn.execute("SELECT block FROM fts_data WHERE id = 1").fetchone()
    values = _varints(row[0]) if row is not None and row[0] else [0]
    return values[0], sum(values[1:1 + len(FTS_COLUMNS)])


def _load(conn: sqlite3.Connection, state: tuple[object, ...]) -> Tracker | None:
    import numpy as np

    docs, entities = _signatures(conn)
    codes = {key: n for n, (key, _digest) in enumerate(entities[1])}
    rows, tokens = _counts(conn)
    top = conn.execute("SELECT coalesce(max(id), 0) FROM units").fetchone()[0]
    owner = np.full(top + 1, -1, dtype=np.int64)
    length = np.zeros(top + 1, dtype=np.int64)
    units = conn.execute("SELECT id, doc_id, entity FROM units").fetchall()
    _own(owner, codes, units)
    ids, lengths = _lengths(conn, None)
    length[ids] = lengths
    tracker = Tracker(state[:3], state, docs, entities, codes, owner, length, rows, tokens)
    return tracker if _consistent(conn, tracker) else None


def _own(owner: Any, codes: dict[str, int], units: list[tuple[int, int | None, str | None]]) -> None:
    import numpy as np

    if units:
        ids = np.fromiter((u[0] for u in units), dtype=np.int64, count=len(units))
        owner[ids] = np.fromiter((u[1] if u[1] is not None else
                                  ENTITY_OWNER + codes[u[2]] if u[2] in codes else -2
                                  for u in units), dtype=np.int64, count=len(units))


def _consistent(conn: sqlite3.Connection, tracker: Tracker) -> bool:
    """The units seen are the index's: as many as FTS5's rows, as long in all, and the newest
    is the index's newest unit."""
    import numpy as np

    live = np.flatnonzero(tracker.owner >= 0)
    top = conn.execute("SELECT coalesce(max(id), 0) FROM units").fetchone()[0]
    return bool(len(live) == tracker.rows and int(tracker.length[live].sum()) == tracker.tokens
                and (int(live[-1]) if len(live) else 0) == top
                and not (tracker.owner == -2).any())


def _advance(conn: sqlite3.Connection, tracker: Tracker, state: tuple[object, ...]) -> bool:
    """Bring `tracker` to `state`: the units of pages and entities whose rows changed are gone,
    their new units read; False when the result disagrees with FTS5's counts."""
    import numpy as np

    docs, entities = _signatures(conn, tracker)
    gone, new_docs = _changed_docs(tracker.docs, docs)
    gone_entities, new_entities = _changed_entities(tracker.entities[1], entities[1])
    gone += [ENTITY_OWNER + tracker.codes[k] for k in gone_entities]
    for key in new_entities:
        tracker.codes.setdefault(key, len(tracker.codes))
    removed = np.flatnonzero(np.isin(tracker.owner, gone)) if gone else np.zeros(0, np.int64)
    tracker.owner[removed] = -1
    tracker.length[removed] = 0
    units = conn.execute(
        "SELECT id, doc_id, entity FROM units WHERE doc_id IN (SELECT value FROM json_each(?))"
        " UNION ALL SELECT id, doc_id, entity FROM units WHERE entity IN"
        " (SELECT value FROM json_each(?))",
        (orjson.dumps(new_docs).decode(), orjson.dumps(new_entities).decode())).fetchall()
    added = np.array(sorted(u[0] for u in units), dtype=np.int64)
    if len(added):
        top = int(added[-1]) + 1
        if top > len(tracker.owner):
            tracker.owner = np.concatenate([tracker.owner, np.full(top - len(tracker.owner), -1)])
            tracker.length = np.concatenate([tracker.length, np.zeros(top - len(tracker.length),
                                                                      dtype=np.int64)])
        if (tracker.owner[added] != -1).any():
            return False  # (a unit id that is still someone's: not a change the index makes)
        _own(tracker.owner, tracker.codes, units)
        ids, lengths = _lengths(conn, added)
        tracker.length[ids] = lengths
    tracker.docs, tracker.entities, tracker.state = docs, entities, state
    tracker.rows, tracker.tokens = _counts(conn)
    tracker.version += 1
    tracker.deltas = [*tracker.deltas[-(MAX_DELTAS - 1):], (tracker.version, removed, added)]
    return _consistent(conn, tracker)


def _lengths(conn: sqlite3.Connection, ids: Any) -> tuple[Any, Any]:
    """(ids, lengths in tokens) of these FTS5 rows (None: all), from `fts_docsize`."""
    import numpy as np

    if ids is None:
        found = conn.execute("SELECT id, sz FROM fts_docsize").fetchall()
    else:
        found = conn.execute("SELECT id, sz FROM fts_docsize WHERE id IN "
                             "(SELECT value FROM json_each(?))", (orjson.dumps(ids.tolist()).decode(),)
                             ).fetchall()
    rows = np.fromiter((row[0] for row in found), dtype=np.int64, count=len(found))
    sizes = [row[1] for row in found]
    counts = np.fromiter(map(len, sizes), dtype=np.int64, count=len(sizes))
    return rows, _varint_sums(np.frombuffer(b"".join(sizes), dtype=np.uint8), counts)


def _varint_sums(data: Any, counts: Any) -> Any:
    """The sum of the SQLite varints in each of consecutive records of `counts` bytes (a
    varint is 7 bits a byte, high bit set on all but its last byte; FTS5's sizes never reach
    the 9-byte form)."""
    import numpy as np

    if not len(data):
        return np.zeros(len(counts), dtype=np.int64)
    last = (data & 0x80) == 0
    which = np.r_[0, np.cumsum(last)[:-1]]  # (each byte's varint)
    ends = np.flatnonzero(last)
    shift = 7 * (ends[which] - np.arange(len(data)))
    values = np.zeros(len(ends), dtype=np.int64)
    np.add.at(values, which, (data & 0x7F).astype(np.int64) << shift)
    record = np.repeat(np.arange(len(counts)), counts)[ends]  # (each varint's record)
    sums = np.zeros(len(counts), dtype=np.int64)
    np.add.at(sums, record, values)
    return sums


def _varints(data: bytes) -> list[int]:
    """SQLite varints (as FTS5 writes its size records)."""
    out, i = [], 0
    while i < len(data):
        value = 0
        for n in range(9):
            byte = data[i]
            i += 1
            if n == 8:
                value = (value << 8) | byte
                break
            value = (value << 7) | (byte & 0x7F)
            if not byte & 0x80:
                break
        out.append(value)
    return out


# One phrase's rows ------------------------------------------------------------------------


def _phrase(conn: sqlite3.Connection, tracker: Tracker, token: str, prefix: bool
            ) -> tuple[Any, Any]:
    """(row ids ascending, weighted counts) of the phrase in the tracker's state: kept ones
    brought up to date by the changes since, else read from the index."""
    import numpy as np

    key = (tracker.file, token, prefix)
    known = _PHRASES.pop(key, None)
    since = [(gone, new) for version, gone, new in tracker.deltas
             if known is not None and version > known[0]]
    if known is not None and (known[0] == tracker.version or (
            len(since) == tracker.version - known[0]
            and sum(len(new) for _gone, new in since) <= MAX_CARRIED)):
        ids, weighted, terms = known[1], known[2], known[3]
        if since:
            gone = np.concatenate([g for g, _n in since] + [n for _g, n in since])
            keep = ~np.isin(ids, gone)
            new = np.unique(np.concatenate([n for _g, n in since]))
            new = new[tracker.owner[new] >= 0]
            more, more_weighted, more_terms = _instances(conn, token, prefix, new)
            ids = np.concatenate([ids[keep], more])
            weighted = np.concatenate([weighted[keep], more_weighted])
            order = np.argsort(ids, kind="stable")
            ids, weighted = ids[order], weighted[order]
            terms |= more_terms  # (a term whose rows all went stays: never too few)
    else:
        ids, weighted, terms = _first_read(conn, tracker, token, prefix)
    _PHRASES[key] = (tracker.version, ids, weighted, terms)
    held = sum(len(entry[1]) for entry in _PHRASES.values())
    while len(_PHRASES) > 1 and (held > MEMO_ROWS or len(_PHRASES) > MEMO_PHRASES):
        held -= len(_PHRASES.pop(next(iter(_PHRASES)))[1])
    return ids, weighted


def _first_read(conn: sqlite3.Connection, tracker: Tracker, token: str, prefix: bool
                ) -> tuple[Any, Any, frozenset[str]]:
    """A phrase's rows and weighted counts read from the index: a plain word's from FTS5's own
    scores of it, inverted (a weighted count is a whole number; each is checked by scoring it
    again), as fast as FTS5's ranking of it; a prefix's (or a row that does not check) from
    its instances (which also name the terms a prefix stands for; a word with many instances
    per row, 240,000 in 3,000 rows, is slow to read that way)."""
    import numpy as np

    if not prefix and tracker.rows:
        found = conn.execute("SELECT rowid, rank FROM fts WHERE fts MATCH ?", (f'"{token}"',)
                             ).fetchall()
        ids = np.fromiter((row[0] for row in found), dtype=np.int64, count=len(found))
        score = -np.fromiter((row[1] for row in found), dtype=np.float64, count=len(found))
        idf = math.log((tracker.rows - len(ids) + 0.5) / (len(ids) + 0.5))
        idf = idf if idf > 0.0 else IDF_FLOOR
        length = tracker.length[ids]
        part = score / idf
        room = K1 * (1 - B + B * length / (float(tracker.tokens) / float(tracker.rows)))
        weighted = np.rint(part * room / np.maximum((K1 + 1.0) - part, 1e-300))
        if len(ids) and (weighted >= 1).all() and np.array_equal(
                bm25(weighted, length, len(ids), tracker.rows, tracker.tokens), score):
            return ids, weighted, frozenset({token})
        if not len(ids):
            return ids, score, frozenset()
    return _instances(conn, token, prefix, None)


def _instances(conn: sqlite3.Connection, token: str, prefix: bool, ids: Any
               ) -> tuple[Any, Any, frozenset[str]]:
    """(row ids ascending, weighted counts) of the rows holding `token` (or a token it begins,
    with `prefix`): every row of the index (ids None), or of the rows `ids`, copied into a
    temporary FTS5 table with the same tokenizer (its instances are the same)."""
    import numpy as np

    table = "fts_instances"
    if ids is None:
        conn.execute("CREATE VIRTUAL TABLE IF NOT EXISTS temp.fts_instances "
                     "USING fts5vocab(main, fts, 'instance')")
    else:
        if not len(ids):
            return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.float64), frozenset()
        columns = ", ".join(FTS_COLUMNS)
        conn.execute(f"CREATE VIRTUAL TABLE IF NOT EXISTS temp.fts_copy USING fts5({columns}, "
                     f"tokenize='{TOKENIZER}')")
        conn.execute("CREATE VIRTUAL TABLE IF NOT EXISTS temp.fts_copy_instances "
                     "USING fts5vocab(temp, fts_copy, 'instance')")
        conn.execute("DELETE FROM temp.fts_copy")
        conn.execute(f"INSERT INTO temp.fts_copy(rowid, {columns}) SELECT rowid, {columns} "
                     "FROM main.fts WHERE rowid IN (SELECT value FROM json_each(?))",
                     (orjson.dumps(ids.tolist()).decode(),))
        table = "fts_copy_instances"
    if prefix:
        upper = token[:-1] + chr(ord(token[-1]) + 1)  # (UTF-8 byte order; one_token refuses U+10FFFF)
        found = conn.execute(f"SELECT doc, col, term FROM temp.{table} WHERE term >= ? AND "
                             "term < ?", (token, upper)).fetchall()
    else:
        found = conn.execute(f"SELECT doc, col, term FROM temp.{table} WHERE term = ?",
                             (token,)).fetchall()
    weights = dict(zip(FTS_COLUMNS, BM25_WEIGHTS, strict=True))
    docs = np.fromiter((row[0] for row in found), dtype=np.int64, count=len(found))
    each = np.fromiter((weights[row[1]] for row in found), dtype=np.float64, count=len(found))
    rows, at = np.unique(docs, return_inverse=True)
    weighted = np.zeros(len(rows), dtype=np.float64)
    np.add.at(weighted, at, each)  # (integer weights: any order of adding gives the same sum)
    return rows, weighted, frozenset(row[2] for row in found)


def _agrees(conn: sqlite3.Connection, tracker: Tracker, token: str, prefix: bool,
            rows: tuple[Any, Any]) -> bool:
    """The scores of these (row ids, weighted counts) equal FTS5's ranks of the same rows (a
    sample of CHECK_ROWS), bit for bit."""
    import numpy as np

    ids, weighted = rows
    if not len(ids):
        return True
    sample = ids[np.linspace(0, len(ids) - 1, min(CHECK_ROWS, len(ids))).astype(np.int64)]
    sample = np.unique(sample)
    mine = bm25(weighted[np.searchsorted(ids, sample)], tracker.length[sample], len(ids),
                tracker.rows, tracker.tokens)
    phrase = f'"{token}"*' if prefix else f'"{token}"'
    theirs = dict(conn.execute("SELECT rowid, rank FROM fts WHERE fts MATCH ? AND rowid IN "
                               "(SELECT value FROM json_each(?))",
                               (phrase, orjson.dumps(sample.tolist()).decode())).fetchall())
    return all(theirs.get(int(row)) == -float(score) for row, score in zip(sample, mine, strict=True))
