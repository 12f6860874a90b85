"""The derived full-text index: `<root>/.membank/search.sqlite3`, SQLite FTS5 (stdlib sqlite3).

Never the source of truth: it can always be rebuilt from the pages and the graph. A full build
writes a new database beside the old one and renames it into place, so a crash leaves the old
index; an incremental update is one SQLite transaction, so a crash leaves the old state (SQLite
rolls back its journal on the next open). A database that cannot be read, of another schema
version, or not marked complete is detected on open and rebuilt.

One FTS row per page section (title, description, headings, body) and one per graph observation
(title = entity name and aliases, body = the observation); `units` says what each row is. With
semantic ranking, each passage of a page (a section, or a part of a long one:
tasks/search/sections.py) has a vector too (`vectors`, with the unit of its section).

Cost that follows the change: an update re-embeds only the texts whose vector the page's rows do
not hold already (a vector depends on its text alone; a short section's text is known from its
rows: `_held_vectors`); an update after a graph write that recorded what it changed reads those
entities' rows alone. A full build streams the graph entity by entity when membank wrote the file
(tasks/search/graph_stream.py), so its memory does not hold the whole graph.
"""

from __future__ import annotations

import hashlib
import os
import re
import sqlite3
import sys
import tempfile
import threading
from collections import Counter
from collections.abc import Iterable, Iterator
from contextlib import closing, suppress
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

import orjson

from tasks.search.index_checked import (
    checked_identity,
    in_step_cache,
    record_checked,
    recorded_cache,
    recorded_identity,
)
from tasks.search.pages import PageRecord, PageStat, is_indexable, page_stat, read_page_record, walk_pages
from tasks.search.sections import PASSAGE_CHARS, PageSection
from tasks.search.semantic import embed, passage_text
from tasks.store.atomic import check_write_target, ensure_folder
from tasks.store.errors import MembankError, RootBoundaryError, from_os_error
from tasks.store.file_versions import file_signature
from tasks.store.file_versions import graph_signature as store_graph_signature
from tasks.store.filememo import file_identity
from tasks.store.journal import open_journal, read_generation
from tasks.store.layout import MemoryLayout

if TYPE_CHECKING:
    from concurrent.futures import Executor

    from tasks.store.graph_segments import GraphChanges

SCHEMA_VERSION = "11"  # 11: an ingested document's front matter is not a section heading
INDEX_NAME = "search.sqlite3"
# FTS5 columns and their BM25 weights: a title match outweighs a heading, a heading the body.
FTS_COLUMNS = ("title", "description", "headings", "body")
BM25_WEIGHTS = (8.0, 4.0, 3.0, 1.0)
TOKENIZER = "porter unicode61 remove_diacritics 2"
OBSERVATION_SECTION = "observations"
SUPERSEDED_SECTION = "superseded-facts"

IndexState = Literal["ok", "missing", "corrupt", "stale"]
# The meta key of the memory generation the index reflects (tasks/store/journal.py).
GENERATION_KEY = "generation"
# The meta key of the pages a build or update could not read (JSON: path -> [mtime_ns, size]).
SKIPPED_KEY = "skipped"

_SCHEMA = f"""
CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE docs(
    id INTEGER PRIMARY KEY, path TEXT UNIQUE NOT NULL, parent TEXT, type TEXT NOT NULL,
    entity_type TEXT, title TEXT NOT NULL, description TEXT NOT NULL, hub TEXT,
    updated_at TEXT, superseded_by TEXT, is_hub INTEGER NOT NULL, doc_date TEXT,
    mtime_ns INTEGER NOT NULL, size INTEGER NOT NULL);
CREATE TABLE units(
    id INTEGER PRIMARY KEY, doc_id INTEGER, entity TEXT, anchor TEXT NOT NULL,
    heading TEXT NOT NULL, text TEXT NOT NULL, superseded INTEGER NOT NULL DEFAULT 0,
    superseded_by TEXT, source_page TEXT);
CREATE TABLE entities(
    key TEXT PRIMARY KEY, name TEXT NOT NULL, type TEXT NOT NULL, page TEXT, digest TEXT NOT NULL);
CREATE TABLE relations(
    source TEXT NOT NULL, type TEXT NOT NULL, target TEXT NOT NULL, superseded INTEGER NOT NULL,
    reason TEXT);
CREATE INDEX relations_source ON relations(source);
CREATE INDEX relations_target ON relations(target);
CREATE TABLE aliases(form TEXT NOT NULL, entity TEXT NOT NULL);
CREATE VIRTUAL TABLE fts USING fts5({", ".join(FTS_COLUMNS)}, tokenize='{TOKENIZER}');
CREATE TABLE vectors(id INTEGER PRIMARY KEY, unit_id INTEGER NOT NULL, vec BLOB NOT NULL);
CREATE VIRTUAL TABLE fts_terms USING fts5vocab(fts, 'row');
"""
# Made once a build's rows are in (one sort each, cheaper than keeping them through the inserts).
_UNIT_INDEXES = """
CREATE INDEX units_doc ON units(doc_id);
CREATE INDEX units_entity ON units(entity);
CREATE INDEX vectors_unit ON vectors(unit_id);
"""


class SearchIndexError(MembankError):
    """The search index cannot be used (no FTS5, unwritable state folder)."""


@dataclass
class IndexUpdate:
    """What one build or update did, for reports and benchmarks."""

    action: Literal["built", "updated", "unchanged", "absent"]
    pages_indexed: int = 0
    pages_removed: int = 0
    entities_indexed: int = 0
    problems: list[str] = field(default_factory=list)


def index_file(layout: MemoryLayout) -> Path:
    return layout.state_dir / INDEX_NAME


def writable_index_file(layout: MemoryLayout) -> Path:
    """The index file, after checking that writing it stays inside the root: `.membank/` is
    a real folder (made if missing) and the file is not a symlink (RootBoundaryError)."""
    target = index_file(layout)
    ensure_folder(target.parent)
    check_write_target(target)
    return target


def readable_index_file(layout: MemoryLayout) -> Path:
    """The index file, refused when `.membank/` or the file is a symlink: an index read through
    one answers with data from outside the root (two lstat calls: cheap enough per query)."""
    target = index_file(layout)
    for path in (target.parent, target):
        if os.path.islink(path):
            raise RootBoundaryError(
                f"refusing to read the search index through a symlink: {path} -> "
                f"{os.readlink(path)}", file=path,
                hint="replace the symlink with a real folder (or remove it) and rerun")
    return target


@lru_cache(maxsize=1)
def require_fts5() -> None:
    """Fail clearly when this Python's SQLite was compiled without FTS5."""
    with closing(sqlite3.connect(":memory:")) as conn:
        try:
            conn.execute("CREATE VIRTUAL TABLE probe USING fts5(body)")
        except sqlite3.OperationalError as exc:
            raise SearchIndexError(
                f"SQLite {sqlite3.sqlite_version} has no FTS5 module ({exc})",
                hint="use a Python whose sqlite3 is built with FTS5 (python.org and most "
                "distributions' builds are)",
            ) from exc


def _connect(path: Path) -> sqlite3.Connection:
    conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    conn.execute("PRAGMA synchronous=NORMAL")
    return conn


def graph_signature(layout: MemoryLayout) -> str:
    return store_graph_signature(layout.graph_file, layout.registry_file)


def _meta(conn: sqlite3.Connection) -> dict[str, str]:
    return dict(conn.execute("SELECT key, value FROM meta").fetchall())


def _set_meta(conn: sqlite3.Connection, **values: str) -> None:
    conn.executemany("INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)", values.items())


# One SQL row to insert (its columns as the INSERT statement names them).
_SqlRow = tuple[object, ...]
# One fact of an entity: (anchor, heading, text, superseded, superseded by, source page).
_FactRow = tuple[str, str, str, int, str | None, str | None]


class _Rows:
    """Rows to insert, with ids assigned here, written with one executemany per table (a build
    of 10,000 pages would otherwise make 100,000+ single-row statements)."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn
        self.next_doc: int = conn.execute("SELECT coalesce(max(id), 0) FROM docs").fetchone()[0] + 1
        self.next_unit: int = conn.execute("SELECT coalesce(max(id), 0) FROM units").fetchone()[0] + 1
        self.docs: list[_SqlRow] = []
        self.units: list[_SqlRow] = []
        self.fts: list[_SqlRow] = []
        self.entities: list[_SqlRow] = []
        self.vectors: list[tuple[int, bytes]] = []

    def unit(self, doc_id: int | None, entity: str | None, fact: _FactRow,
             fts: tuple[str, str, str, str]) -> int:
        """One unit of a page (`doc_id`) or an entity: its columns, and its full-text fields."""
        unit_id, self.next_unit = self.next_unit, self.next_unit + 1
        self.units.append((unit_id, doc_id, entity, *fact))
        self.fts.append((unit_id, *fts))
        return unit_id

    def facts(self, entity: str, facts: list[_FactRow], title: str) -> None:
        """An entity's units, one per fact; its name and aliases (`title`) go with the first
        only. (One comprehension a table: a build makes 1,000,000 of them at 100,000 pages.)"""
        first, self.next_unit = self.next_unit, self.next_unit + len(facts)
        numbered = list(zip(range(first, self.next_unit), facts, strict=True))
        self.units += [(unit_id, None, entity, *fact) for unit_id, fact in numbered]
        at = len(self.fts)
        self.fts += [(unit_id, "", "", fact[1], fact[2]) for unit_id, fact in numbered]
        if facts and title:
            self.fts[at] = (first, title, "", facts[0][1], facts[0][2])

    def page(self, record: PageRecord, vectors: list[tuple[int, bytes]] | None = None) -> None:
        """A page's row and its units, one per section (with `vectors`, (section index,
        vector) of its passages)."""
        doc_id, self.next_doc = self.next_doc, self.next_doc + 1
        self.docs.append((doc_id, record.path, record.parent, record.page_type, record.entity_type,
                          record.title, record.description, record.hub, record.updated_at,
                          record.superseded_by, int(record.is_hub), record.doc_date,
                          record.mtime_ns, record.size))
        title = " ".join((record.title, *record.aliases))
        # Title and description go with the first section only: a title match lands on the top
        # of the page, and a body match on the section that holds it. An empty body is still
        # found by its title and description.
        units: list[int] = []
        for n, section in enumerate(record.sections or (_EMPTY_SECTION,)):
            headings = " ".join((section.heading, *section.subheadings))
            units.append(self.unit(doc_id, None, (section.anchor, section.heading, "", 0, None,
                                                  None),
                                   (title if n == 0 else "", record.description if n == 0 else "",
                                    headings, section.text)))
        self.vectors += [(units[index], vector) for index, vector in vectors or ()]

    def flush(self) -> None:
        conn = self.conn
        conn.executemany("INSERT INTO docs(id, path, parent, type, entity_type, title, description,"
                         " hub, updated_at, superseded_by, is_hub, doc_date, mtime_ns, size)"
                         " VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)", self.docs)
        conn.executemany("INSERT INTO entities(key, name, type, page, digest) VALUES (?,?,?,?,?)",
                         self.entities)
        conn.executemany("INSERT INTO units(id, doc_id, entity, anchor, heading, text, superseded,"
                         " superseded_by, source_page) VALUES (?,?,?,?,?,?,?,?,?)", self.units)
        conn.executemany("INSERT INTO fts(rowid, title, description, headings, body)"
                         " VALUES (?,?,?,?,?)", self.fts)
        conn.executemany("INSERT INTO vectors(unit_id, vec) VALUES (?, ?)", self.vectors)
        self.docs, self.units, self.fts, self.entities, self.vectors = [], [], [], [], []


def _delete_page(conn: sqlite3.Connection, path: str) -> bool:
    row = conn.execute("SELECT id FROM docs WHERE path = ?", (path,)).fetchone()
    if row is None:
        return False
    conn.execute("DELETE FROM fts WHERE rowid IN (SELECT id FROM units WHERE doc_id = ?)", row)
    conn.execute("DELETE FROM vectors WHERE unit_id IN (SELECT id FROM units WHERE doc_id = ?)",
                 row)
    conn.execute("DELETE FROM units WHERE doc_id = ?", row)
    conn.execute("DELETE FROM docs WHERE id = ?", row)
    return True


_EMPTY_SECTION = PageSection("", "", (), "")


# Graph observations ------------------------------------------------------------------------


def _load_graph_parts(layout: MemoryLayout, problems: list[str],
                      changes: GraphChanges | None = None,
                      ) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
    """The graph (plain dicts) and registry entries by entity key; absent files are empty, and
    so is one that cannot be read (its error goes to `problems`: the pages are still indexed,
    and the entities once the file is repaired, which changes its signature). With `changes`
    (changes_since), the graph's entities are those of its keys alone."""
    from tasks.search.graph_stream import GraphStream
    from tasks.store.graph_store import RegistryRowsByKey, handed_over, load_graph_data
    from tasks.store.jsonc import read_jsonc_file
    from tasks.store.written import as_written

    graph: dict[str, Any] = {"entities": [], "relations": []}
    data: object = None
    try:
        if changes is not None:
            segments = changes.segments
            # (the frame, relations and all, is read only when the write changed it and did
            # not record the relations it changed)
            frame = changes.frame_changed and changes.relations is None
            graph = {**(segments.frame() if frame else {}), "entities": [
                segments.entity(key) for key in changes.keys if key in segments.index]}
        elif as_written(layout.graph_file):  # (one entity at a time: a full build's memory)
            graph = {"entities": GraphStream(layout.graph_file)}
        elif layout.graph_file.exists():
            graph = load_graph_data(layout.graph_file)
        # (the entries this process's distill just left, by key, while the file is that
        # write: not read, parsed and keyed again, 50,000 entries at 100,000 pages)
        keyed = handed_over(layout.registry_file, RegistryRowsByKey)
        if keyed is not None:
            return graph, keyed
        if layout.registry_file.exists():
            data = read_jsonc_file(layout.registry_file)
    except (MembankError, OSError) as exc:
        problems.append(f"graph observations not indexed: {exc}")
    registry: dict[str, dict[str, Any]] = {}
    if isinstance(data, dict):
        for entry in data.get("entries") or ():
            if isinstance(entry, dict) and isinstance(entry.get("canonicalName"), str):
                registry[entry["canonicalName"].strip().lower()] = entry
    return graph, registry


_RELATION_COLUMNS = ("source", "type", "target", "superseded", "reason")


def _relation_rows(graph: dict[str, Any]) -> list[tuple[Any, ...]]:
    """The relations table's rows of a graph's relations, current then superseded, by
    lowercased entity key."""
    from schemas.graph import SUPERSEDED_RELATIONS_KEY

    rows = [(r["sourceEntityName"].strip().lower(), r["relationType"],
             r["targetEntityName"].strip().lower(), 0, None) for r in graph.get("relations") or ()]
    for old in graph.get(SUPERSEDED_RELATIONS_KEY) or ():
        if isinstance(old, dict) and {"sourceEntityName", "relationType", "targetEntityName"} <= set(old):
            rows.append((str(old["sourceEntityName"]).strip().lower(), str(old["relationType"]),
                         str(old["targetEntityName"]).strip().lower(), 1, old.get("reason")))
    return rows


def _sync_relations(conn: sqlite3.Connection, graph: dict[str, Any]) -> None:
    """All relations, current and superseded, by lowercased entity key (updated by row)."""
    _replace_rows(conn, "relations", _RELATION_COLUMNS, _relation_rows(graph))


def _sync_relation_parts(conn: sqlite3.Connection, parts: dict[str, list[list[Any]]]) -> bool:
    """The relations table brought from the graph the index reflects to the graph the last
    write made, by the parts of the relation lists that write changed (relation_middles in
    tasks/store/graph_segments.py: the lists' common head and tail are the same rows before
    and after): the rows _replace_rows would delete and insert, in its order, without reading
    the frame's 50,000 relations and the table's rows (~0.13 s of cpu at 100,000 pages for a
    decision note that adds a relation). _replace_rows deletes a row's copies of lowest rowid
    and inserts the wanted rows that find no copy left, in their order; so here a row with
    fewer copies wanted than held loses its copies of lowest rowid, and a row with more wanted
    is inserted at its last occurrences in the new part, which holds all of them only when the
    table has no copy beyond the old part's (checked: else False, nothing changed, and the
    caller compares the whole table)."""
    old = _relation_rows({key: pair[0] for key, pair in parts.items()})
    new = _relation_rows({key: pair[1] for key, pair in parts.items()})
    held, wanted = Counter(old), Counter(new)
    where = "source = ? AND type = ? AND target = ? AND superseded = ? AND reason IS ?"
    surplus: list[int] = []
    for row in held.keys() | wanted.keys():
        found = [rowid for (rowid,) in conn.execute(
            f"SELECT rowid FROM relations WHERE {where} ORDER BY rowid", row)]
        if len(found) < held[row] or (wanted[row] > held[row] and len(found) != held[row]):
            return False  # the table is not the old graph's, or holds copies outside the part
        surplus += found[:max(0, held[row] - wanted[row])]
    missing: list[tuple[Any, ...]] = []
    for row in new:  # (each wanted row takes one held copy, as in _replace_rows)
        if held[row]:
            held[row] -= 1
        else:
            missing.append(row)
    surplus.sort()
    for at in range(0, len(surplus), 500):
        part = surplus[at:at + 500]
        conn.execute(f"DELETE FROM relations WHERE rowid IN ({', '.join('?' for _ in part)})", part)
    names, marks = ", ".join(_RELATION_COLUMNS), ", ".join("?" for _ in _RELATION_COLUMNS)
    conn.executemany(f"INSERT INTO relations({names}) VALUES ({marks})", missing)
    return True


def _replace_rows(conn: sqlite3.Connection, table: str, columns: tuple[str, ...],
                  rows: list[tuple[Any, ...]]) -> None:
    """Make a table hold exactly `rows` (as a multiset), writing only the rows that differ:
    nothing when it already does (a rerun leaves the index file byte-identical), and for one
    relation added at 100,000 pages one insert, not 50,000 rows deleted and inserted again
    (~0.2 s). Queries read these tables as sets (ORDER BY their columns), so where a row sits
    changes no answer; an empty table gets `rows` in their order, as a build wrote them."""
    names = ", ".join(columns)
    marks = ", ".join("?" for _ in columns)
    insert = f"INSERT INTO {table}({names}) VALUES ({marks})"
    held: dict[tuple[Any, ...], list[int]] = {}
    for rowid, *row in conn.execute(f"SELECT rowid, {names} FROM {table}"):
        held.setdefault(tuple(row), []).append(rowid)
    if not held:
        conn.executemany(insert, rows)
        return
    missing: list[tuple[Any, ...]] = []
    for row in rows:  # (each wanted row takes one held copy; what is left over goes)
        ids = held.get(row)
        if ids:
            ids.pop()
        else:
            missing.append(row)
    surplus = sorted(rowid for ids in held.values() for rowid in ids)
    for at in range(0, len(surplus), 500):
        part = surplus[at:at + 500]
        conn.execute(f"DELETE FROM {table} WHERE rowid IN ({', '.join('?' for _ in part)})", part)
    conn.executemany(insert, missing)


def _sync_aliases(conn: sqlite3.Connection, registry: dict[str, dict[str, Any]],
                  keys: list[str] | None = None) -> None:
    """Every registry name and alias (its words, lowercased) with its entity's key: a query
    naming one is expanded with the others. Rewritten whole, or with `keys` (changes_since's:
    every entry whose names changed since the registry the index saw is among them, as for the
    entity rows) only those entities' rows: at 100,000 pages the whole table (100,000 forms)
    cost ~0.7 s cpu per ingest that added one entity. Queries read the table as a set (ORDER
    BY entity, form), so where its rows sit does not change an answer."""
    if keys is None:
        _replace_rows(conn, "aliases", ("form", "entity"), sorted(_alias_rows(registry.items())))
        return
    rows = _alias_rows((key, registry[key]) for key in keys if key in registry)
    held = _where_in(conn, "SELECT form, entity FROM aliases", "entity", keys)
    if sorted(held) == sorted(rows):
        return
    for at in range(0, len(keys), 500):
        part = keys[at:at + 500]
        conn.execute(f"DELETE FROM aliases WHERE entity IN ({', '.join('?' for _ in part)})", part)
    conn.executemany("INSERT INTO aliases(form, entity) VALUES (?, ?)", sorted(rows))


def _alias_rows(entries: Iterable[tuple[str, dict[str, Any]]]) -> set[tuple[str, str]]:
    rows = set()
    for key, entry in entries:
        names = [entry["canonicalName"], *(a for a in entry.get("aliases") or () if isinstance(a, str))]
        for name in names:
            form = name_form(name)
            if form:
                rows.add((form, key))
    return rows


def name_form(name: str) -> str:
    """A name as the alias table and the query expansion compare it: its words, lowercased."""
    return " ".join(_NAME_WORD_RE.findall(name.lower()))


_NAME_WORD_RE = re.compile(r"[^\W_]+")


def _entity_rows(entity: dict[str, Any], entry: dict[str, Any] | None) -> tuple[str, list[_FactRow]]:
    """(digest, FTS/unit rows) of one entity: active observations, then superseded ones."""
    aliases = [a for a in (entry or {}).get("aliases") or () if isinstance(a, str)]
    page = (entry or {}).get("entityPage")
    source_of = {p["observation"]: p.get("sourcePage")
                 for p in entity.get("observationProvenance") or ()}.get
    # (comprehensions: a build makes 1,000,000 of these rows at 100,000 pages)
    rows: list[_FactRow] = [(OBSERVATION_SECTION, "Observations", text, 0, None, source_of(text))
                            for text in entity.get("observations") or ()]
    rows += [(SUPERSEDED_SECTION, "Superseded facts", old["observation"], 1,
              old.get("supersededBy"), old.get("sourcePage"))
             for old in entity.get("supersededObservations") or ()]
    digest_input = [entity["entityName"], entity["entityType"], aliases, page, rows]
    digest = hashlib.sha256(orjson.dumps(digest_input)).hexdigest()
    return digest, rows


def _sync_entities(conn: sqlite3.Connection, layout: MemoryLayout, problems: list[str]) -> int:
    """Re-index the observations of entities whose facts changed; drop entities that are gone.
    When the last graph write recorded what it changed since the graph this index reflects
    (tasks/store/graph_segments.py), only those entities are read and compared. The graph's
    schema, stream and segments are imported here: an update that finds the graph unchanged
    (its signature) needs none of them (~0.1 s of CPU at start-up)."""
    from tasks.search.graph_stream import GraphStream
    from tasks.store.graph_segments import changes_since

    held = _meta(conn).get("graph_signature")
    changes = changes_since(layout.graph_file, layout.registry_file, held)
    graph, registry = _load_graph_parts(layout, problems, changes)
    entities = graph["entities"]
    keys = None if changes is None else sorted(set(changes.keys))
    if held is None or held.rsplit("|", 1)[-1] != file_signature(layout.registry_file):
        _sync_aliases(conn, registry, keys)  # (the registry the index saw: its aliases are there)
    known = dict(_where_in(conn, "SELECT key, digest FROM entities", "key", keys))
    # (asked only for the entities whose registry entry names no page: a scan of every page's
    # row, ~0.02 s at 100,000 pages, which a change of entities with pages need not pay)
    untitled = None if keys is None else [
        key for key in keys if not (registry.get(key) or {}).get("entityPage")]
    pages_by_title = dict(_where_in(
        conn, "SELECT lower(title), min(path) FROM docs WHERE type = 'entity'", "lower(title)",
        untitled, " GROUP BY lower(title)"))
    seen: set[str] = set()
    changed = 0
    rows = _Rows(conn)
    for entity in entities:
        key = entity["entityName"].strip().lower()
        if key in seen:  # a duplicated entity (graph_not_normalized): first seen wins
            continue
        entry = registry.get(key)
        digest, facts = _entity_rows(entity, entry)
        seen.add(key)
        if known.get(key) == digest:
            continue
        if key in known:
            _delete_entity(conn, key)
        changed += 1
        # An entity's page: the registry's entityPage, else the entity page titled like it.
        page = (entry or {}).get("entityPage") or pages_by_title.get(key)
        rows.entities.append((key, entity["entityName"], entity["entityType"], page, digest))
        # The entity's name and aliases are matched on its page (and the first fact), not on
        # every fact: a name query would otherwise rank all of an entity's facts, 100,000+ rows.
        title = " ".join([entity["entityName"], *((entry or {}).get("aliases") or ())])
        rows.facts(key, facts, "" if page else title)
        if len(rows.units) > 20_000:
            rows.flush()
    rows.flush()
    if changes is not None and changes.frame_changed and changes.relations is not None:
        if not _sync_relation_parts(conn, changes.relations):
            _sync_relations(conn, changes.segments.frame())
    elif changes is None or changes.frame_changed:  # (a stream's frame is read at its end)
        _sync_relations(conn, entities.frame if isinstance(entities, GraphStream) else graph)
    for key in (set(known) if changes is None else set(changes.keys) & set(known)) - seen:
        _delete_entity(conn, key)
        changed += 1
    return changed


def _where_in(conn: sqlite3.Connection, query: str, column: str, values: list[str] | None,
              tail: str = "") -> list[tuple[Any, ...]]:
    """The rows of `query` (+ `tail`), or with `values` those whose `column` is one of them
    (an update that changed a few entities reads their rows, not 50,000)."""
    if values is None:
        return conn.execute(query + tail).fetchall()
    found: list[tuple[Any, ...]] = []
    joiner = " AND " if " WHERE " in query else " WHERE "
    for at in range(0, len(values), 500):
        part = values[at:at + 500]
        marks = ", ".join("?" for _ in part)
        found += conn.execute(f"{query}{joiner}{column} IN ({marks}){tail}", part).fetchall()
    return found


def _delete_entity(conn: sqlite3.Connection, key: str) -> None:
    conn.execute("DELETE FROM fts WHERE rowid IN (SELECT id FROM units WHERE entity = ?)", (key,))
    conn.execute("DELETE FROM units WHERE entity = ?", (key,))
    conn.execute("DELETE FROM entities WHERE key = ?", (key,))


# Build, open, update ------------------------------------------------------------------------


_PARALLEL_MIN_PAGES = 2_000
_CHUNK = 250


Read = tuple[str, "PageRecord | str", "list[tuple[int, bytes]] | None"]


# The vectors a page's index rows hold already, by the text each was computed from.
Known = dict[str, bytes]


def read_page_records(root: Path, items: list[tuple[str, os.stat_result | None]],
                      semantic: bool, known: dict[str, Known] | None = None,
                      pool: Executor | None = None) -> list[Read]:
    """_read_chunk; `known`: by page, vectors held already (a text found there is not
    embedded again: a vector depends on its text alone). `pool`: see _read_all."""
    if pool is None or len(items) <= _CHUNK:
        return _read_chunk(root, items, semantic, known)
    chunks = [items[i:i + _CHUNK] for i in range(0, len(items), _CHUNK)]
    return [read for chunk in _read_in_pool(pool, root, chunks, semantic, known)
            for read in chunk]


def _read_chunk(root: Path, items: list[tuple[str, os.stat_result | None]],
                semantic: bool = False, known: dict[str, Known] | None = None) -> list[Read]:
    """Page records (and, with `semantic`, their vectors) of a chunk of pages; a page that
    cannot be read gives its error line."""
    out: list[Read] = []
    for rel, stat in items:
        try:
            out.append((rel, read_page_record(root, rel, stat), None))
        except (MembankError, OSError) as exc:
            out.append((rel, str(exc), None))
    return _with_vectors(out, known) if semantic else out


def _with_vectors(out: list[Read], known: dict[str, Known] | None = None) -> list[Read]:
    """The chunk's records with their passages' vectors (`known`: see read_page_records),
    embedded as one list in the chunk's order."""
    records = [(i, r, r.embed_texts()) for i, (_rel, r, _v) in enumerate(out)
               if isinstance(r, PageRecord)]
    held = known or {}
    wanted = [text for _i, r, texts in records for _n, text in texts
              if text not in held.get(r.path, {})]
    vectors = iter(embed(wanted))
    for i, record, texts in records:
        found = held.get(record.path, {})
        out[i] = (record.path, record, [(n, found[text] if text in found else next(vectors))
                                        for n, text in texts])
    return out


def _read_in_pool(pool: Executor, root: Path,
                  chunks: list[list[tuple[str, os.stat_result | None]]], semantic: bool,
                  known: dict[str, Known] | None = None) -> Iterator[list[Read]]:
    """Each chunk's records, in order: parsed in `pool`'s processes, embedded here as each
    comes back (one memo of the embedding's words, and this process embeds chunk n while the
    pool parses the chunks after it). A pool that breaks (a worker killed) hands the chunks
    left to this process: a lost worker costs time, not the index."""
    from concurrent.futures.process import BrokenProcessPool

    done = 0
    try:
        for parsed in pool.map(_read_chunk, [root] * len(chunks), chunks):
            done += 1
            yield _with_vectors(parsed, known) if semantic else parsed
    except BrokenProcessPool:
        for chunk in chunks[done:]:
            yield _read_chunk(root, chunk, semantic, known)


def _held_vectors(conn: sqlite3.Connection, path: str) -> Known:
    """The vectors page `path`'s rows hold, by their text, for the sections short enough to be
    one passage whole (tasks/search/sections.py: their passage is the section): its text is
    then known from the rows (title, description, heading, body), as embed_texts makes it."""
    row = conn.execute("SELECT id, title, description FROM docs WHERE path = ?", (path,)).fetchone()
    if row is None:
        return {}
    doc_id, title, description = row
    held: Known = {}
    first = True  # (the page's first passage holds its description)
    for heading, body, count, vector in conn.execute(
            "SELECT u.heading, f.body, count(v.id), min(v.vec) FROM units u JOIN fts f"
            " ON f.rowid = u.id JOIN vectors v ON v.unit_id = u.id WHERE u.doc_id = ?"
            " GROUP BY u.id ORDER BY u.id", (doc_id,)):
        if count == 1 and len(body) <= PASSAGE_CHARS * 3 // 2:
            held[passage_text(title, description if first else "", heading, body)] = vector
        first = False
    return held


def _read_all(root: Path, items: list[tuple[str, os.stat_result | None]], workers: int,
              semantic: bool, pool: Executor | None = None) -> Iterator[Read]:
    """Every page's record in path order; big memories are parsed in forked worker processes
    (pure-Python markdown and YAML parsing would otherwise run on one core). `pool`: worker
    processes the caller forked while it could (a writer's map step: tasks/ingest), used
    when this process has threads and so may not fork."""
    # (here, not at the top: an update's process needs neither, ~0.05 s of import)
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    chunks = [items[i:i + _CHUNK] for i in range(0, len(items), _CHUNK)]
    # Fork only a single-threaded process: a child of a threaded one (a Prefect run) could
    # inherit a lock some other thread held at the fork.
    fork = (sys.platform.startswith("linux") and threading.active_count() == 1
            and "fork" in multiprocessing.get_all_start_methods())
    if pool is not None and len(chunks) > 1:
        for result in _read_in_pool(pool, root, chunks, semantic):
            yield from result
        return
    if workers < 2 or len(items) < _PARALLEL_MIN_PAGES or not fork:
        for chunk in chunks:
            yield from _read_chunk(root, chunk, semantic)
        return
    with ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("fork")) as pool:
        for result in pool.map(_read_chunk, [root] * len(chunks), chunks,
                               [semantic] * len(chunks)):
            yield from result


def _build_temp(target: Path) -> Path:
    """A new empty file beside `target` named like tasks/store/atomic.py's temp files, so that a
    crash's leftover is swept by the next writer's recovery and reported by reconcile."""
    try:
        fd, name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    except OSError as exc:
        raise (from_os_error(exc, target) or exc) from exc
    try:
        os.fchmod(fd, 0o644)  # as the atomic writer's files (mkstemp makes 0600)
    finally:
        os.close(fd)
    return Path(name)


def memory_generation(layout: MemoryLayout) -> str:
    """The generation of the memory as this process sees it: its open batch's (content written
    so far), else the committed one (tasks/store/journal.py)."""
    journal = open_journal(layout.root)
    return journal.generation() if journal is not None else read_generation(layout.root)


def _replaceable(target: Path) -> None:
    """Make room for the new index file: an empty folder in its place is removed; anything
    else that is not a file is reported (never removed)."""
    if target.is_dir():
        try:
            target.rmdir()
        except OSError as exc:
            raise SearchIndexError(
                "the search index's place holds a folder, not a database file", file=target,
                hint="move that folder away; membank then rebuilds the index") from exc


def build_index(layout: MemoryLayout, *, workers: int = 2, semantic: bool = False,
                generation: str | None = None, pool: Executor | None = None) -> IndexUpdate:
    """Build the whole index into a new file and rename it over the old one; with `semantic`,
    each page's vector too (updates then keep them current). The index records `generation`
    (default: the memory's, read before the pages are) as the state it reflects. Call it under
    the writer lock (tasks/search/sync.py), or a writer may change pages as they are read.
    `pool`: processes to parse the pages in (_read_all)."""
    require_fts5()
    target = writable_index_file(layout)
    generation = memory_generation(layout) if generation is None else generation
    temp = _build_temp(target)
    update = IndexUpdate("built")
    try:
        with closing(_connect(temp)) as conn:
            conn.execute("PRAGMA journal_mode=OFF")  # a crash leaves only this temp file
            conn.execute("PRAGMA cache_size=-65536")  # (64 MB: FTS5 merges and B-tree inserts)
            conn.executescript(_SCHEMA)
            # The rank column is BM25 with the column weights: `ORDER BY rank LIMIT n` is then
            # sorted inside FTS5 (faster than ORDER BY bm25(...) over every match).
            weights = ", ".join(str(w) for w in BM25_WEIGHTS)
            conn.execute(f"INSERT INTO fts(fts, rank) VALUES ('rank', 'bm25({weights})')")
            conn.execute("BEGIN")
            signature = graph_signature(layout)
            rows = _Rows(conn)
            pages: list[tuple[str, os.stat_result | None]] = list(walk_pages(layout.root))
            stats, skipped = dict(pages), {}
            for rel, record, vectors in _read_all(layout.root, pages, workers, semantic,
                                                        pool):
                if isinstance(record, str):
                    update.problems.append(f"{rel}: {record}")
                    if (stat := stats.get(rel)) is not None:
                        skipped[rel] = _file_signature(stat)
                    continue
                rows.page(record, vectors)
                update.pages_indexed += 1
                if len(rows.units) > 5_000:
                    rows.flush()
            rows.flush()
            update.entities_indexed = _sync_entities(conn, layout, update.problems)
            for statement in _UNIT_INDEXES.strip().splitlines():
                conn.execute(statement)
            _set_meta(conn, schema_version=SCHEMA_VERSION, graph_signature=signature,
                      semantic="1" if semantic else "0", complete="1",
                      **{GENERATION_KEY: generation, SKIPPED_KEY: orjson.dumps(skipped).decode()})
            conn.execute("COMMIT")
            conn.execute("PRAGMA optimize")
        _replaceable(target)
        os.replace(temp, target)
    except BaseException:
        with suppress(FileNotFoundError):
            temp.unlink()
        raise
    record_checked(layout, file_identity(target))  # membank's own committed file, as a verdict
    return update


def index_status(layout: MemoryLayout, *, semantic: bool = False
                 ) -> tuple[IndexState, dict[str, str]]:
    """ok, missing or corrupt, and the index's meta, from the database alone (cheap: no walk of
    the pages). An index without page vectors is not usable (`corrupt`: rebuilt) when
    `semantic` ranking wants them."""
    path = readable_index_file(layout)
    if not os.path.lexists(path):
        return "missing", {}
    try:
        with closing(_connect(path)) as conn:
            meta = _meta(conn)
    except sqlite3.DatabaseError:
        return "corrupt", {}
    if meta.get("schema_version") != SCHEMA_VERSION or meta.get("complete") != "1":
        return "corrupt", meta
    if semantic and meta.get("semantic") != "1":
        return "corrupt", meta
    return "ok", meta


def index_state(layout: MemoryLayout, *, semantic: bool = False) -> IndexState:
    return index_status(layout, semantic=semantic)[0]


def connect_index(layout: MemoryLayout) -> sqlite3.Connection:
    """A connection to the index file as it is (readers go through tasks/search/sync.py's
    read_index, which makes it usable and current first)."""
    require_fts5()
    return _connect(readable_index_file(layout))


def _reindex_pages(conn: sqlite3.Connection, layout: MemoryLayout, wanted: list[str],
                   update: IndexUpdate, pool: Executor | None = None) -> None:
    """Drop the rows of `wanted` pages and index those that are (still) regular page files;
    one that cannot be read is remembered as skipped at its size and time."""
    semantic = _meta(conn).get("semantic") == "1"
    present = {rel: found for rel in wanted
               if is_indexable(rel) and (found := page_stat(layout.root, rel)) is not None}
    known = {rel: _held_vectors(conn, rel) for rel in present} if semantic else None
    records = {rel: (record, vectors) for rel, record, vectors
               in read_page_records(layout.root, list(present.items()), semantic, known, pool)}
    skipped = _skipped(conn)
    rows = _Rows(conn)
    for rel in wanted:
        was_indexed = _delete_page(conn, rel)
        skipped.pop(rel, None)
        record, vectors = records.get(rel, (None, None))
        if isinstance(record, PageRecord):
            rows.page(record, vectors)
            update.pages_indexed += 1
            continue
        if isinstance(record, str):
            update.problems.append(f"{rel}: {record}")
            skipped[rel] = _file_signature(present[rel])
        update.pages_removed += was_indexed
    rows.flush()
    _set_meta(conn, **{SKIPPED_KEY: orjson.dumps(skipped).decode()})


def _file_signature(stat: PageStat) -> list[int]:
    return [stat.st_mtime_ns, stat.st_size]


def _skipped(conn: sqlite3.Connection) -> dict[str, list[int]]:
    """Pages that could not be indexed, with the [mtime_ns, size] they had then: the index
    has seen them, so they are not stale until they change."""
    try:
        found = orjson.loads(_meta(conn).get(SKIPPED_KEY) or "{}")
    except orjson.JSONDecodeError:
        return {}
    return found if isinstance(found, dict) else {}


def update_index(layout: MemoryLayout, pages: Iterable[str], *, graph: bool = True,
                 generation: str | None = None, pool: Executor | None = None) -> IndexUpdate:
    """Re-index the given root-relative pages (deleted ones are dropped) and, when the graph or
    registry changed since the index saw them, the observations of the entities that changed;
    with `generation`, record it (in the same transaction) as the memory state the index now
    reflects: only when these pages are all that changed since its recorded one.

    An index that does not exist yet is left absent (the next search builds it); one that
    cannot be read is rebuilt whole. `pool`: processes to parse the pages in
    (read_page_records)."""
    state = index_state(layout)
    if state == "missing":
        return IndexUpdate("absent")
    if state == "corrupt":
        return build_index(layout, generation=generation)
    update = IndexUpdate("updated")
    path = writable_index_file(layout)
    with closing(_connect(path)) as conn:
        conn.execute("BEGIN IMMEDIATE")
        # no other writer until the commit: from a file whose deep check passed, the record
        # follows this transaction to the file it leaves (tasks/search/index_checked.py)
        recorded = recorded_identity(layout)
        follows = recorded is not None and recorded == file_identity(path)
        in_step = recorded_cache(layout) if follows else None
        try:
            _reindex_pages(conn, layout, sorted(set(pages)), update, pool)
            signature = graph_signature(layout)
            if graph and _meta(conn).get("graph_signature") != signature:
                update.entities_indexed = _sync_entities(conn, layout, update.problems)
                _set_meta(conn, graph_signature=signature)
            if generation is not None:
                _set_meta(conn, **{GENERATION_KEY: generation})
            conn.execute("COMMIT")
        except BaseException:
            # SQLite may have rolled back already (a full disk, an I/O error): a ROLLBACK
            # then fails, and its error must not hide the real one.
            if conn.in_transaction:
                with suppress(sqlite3.Error):
                    conn.execute("ROLLBACK")
            raise
    record_checked(layout, file_identity(path) if follows else None, cache=in_step)
    if not (update.pages_indexed or update.pages_removed or update.entities_indexed):
        update.action = "unchanged"
    return update


@dataclass(frozen=True)
class PagesSince:
    """The root's pages against the reconcile cache a check was made from (reconcile's scan by
    the change): `cache`, that cache file's identity; `others`, the pages whose stat is not the
    cache's (new, changed, unreadable, or in folders the cache leaves out), with their stats;
    `kept`, how many pages kept the cache's stat; `gone`, the cache's files no longer there;
    `pages`: every page (pages_of_walk), for the whole comparison."""

    pages: list[tuple[str, PageStat]]
    cache: list[int]
    others: list[tuple[str, PageStat]]
    kept: int
    gone: list[str]


_LOOKUP_BATCH = 500  # paths per query (SQLite allows 999 parameters at least)


def _entries_of(conn: sqlite3.Connection, paths: list[str]) -> dict[str, list[int]]:
    """The index's [mtime_ns, size] of those of `paths` it holds."""
    found: dict[str, list[int]] = {}
    for at in range(0, len(paths), _LOOKUP_BATCH):
        batch = paths[at:at + _LOOKUP_BATCH]
        found.update((p, [m, s]) for p, m, s in conn.execute(
            f"SELECT path, mtime_ns, size FROM docs WHERE path IN ({','.join('?' * len(batch))})",
            batch))
    return found


def _stale_since(layout: MemoryLayout, since: PagesSince) -> list[str] | None:
    """stale_pages from the pages that left the cache's stats alone, when the index is in step
    with that cache (index_checked.in_step_cache): a page that kept the cache's stat kept its
    entry (or membank's own update wrote the same one), so only `since.others` and
    `since.gone` are looked up, and the entries counted: one more than those pages and the
    kept ones is a path indexed but gone (None: then the whole comparison lists it, as it does
    whatever else is uncertain)."""
    path = index_file(layout)
    if since.cache != in_step_cache(layout, path):
        return None
    looked = [rel for rel, _ in since.others] + since.gone
    with closing(_connect(path)) as conn:
        total = conn.execute("SELECT count(*) FROM docs").fetchone()[0]
        skipped = _skipped(conn)
        total += len(skipped.keys() - _entries_of(conn, sorted(skipped)).keys())
        entries = _entries_of(conn, looked)
        graph_seen = _meta(conn).get("graph_signature")
    entries.update((rel, skipped[rel]) for rel in looked if rel in skipped)
    if total != since.kept + len(entries):
        return None
    stale = {rel for rel, stat in since.others if entries.get(rel) != _file_signature(stat)}
    stale.update(rel for rel in since.gone if rel in entries)
    if graph_seen != graph_signature(layout):
        stale.add(layout.relative(layout.graph_file))
    return sorted(stale)


def stale_pages(layout: MemoryLayout, folder: str | None = None,
                pages: Iterable[tuple[str, PageStat]] | PagesSince | None = None) -> list[str]:
    """Pages whose file and index entry disagree (new, changed, removed), sorted. With
    `folder`, only the pages directly in it (the proposal gate's look at where it writes).
    `pages`: walk_pages of the root, from a walk the caller made (pages_of_walk), or those
    pages against the reconcile cache a check by the change was made from (PagesSince: only
    the pages that left the cache's stats are looked up when the index is in step with that
    cache, _stale_since)."""
    if isinstance(pages, PagesSince):
        found = _stale_since(layout, pages) if folder is None else None
        if found is not None:
            return found
        pages = pages.pages
    like = "%" if folder is None else f"{folder}/%"
    with closing(_connect(index_file(layout))) as conn:
        indexed = {p: [m, s] for p, m, s in conn.execute(
            "SELECT path, mtime_ns, size FROM docs WHERE path LIKE ?", (like,))}
        indexed.update(_skipped(conn))
        graph_seen = _meta(conn).get("graph_signature")
    if folder is not None:
        indexed = {p: s for p, s in indexed.items() if os.path.dirname(p) == folder}
    stale: set[str] = set()
    if folder is not None:
        pages = _folder_pages(layout, folder)
    for rel, stat in walk_pages(layout.root) if pages is None else pages:
        if indexed.pop(rel, None) != _file_signature(stat):
            stale.add(rel)
    stale.update(indexed)  # indexed but gone
    if folder is None and graph_seen != graph_signature(layout):
        stale.add(layout.relative(layout.graph_file))
    return sorted(stale)


def _folder_pages(layout: MemoryLayout, folder: str) -> list[tuple[str, os.stat_result]]:
    """walk_pages of one folder's own files (none when the folder is reached by a symlink)."""
    if not is_indexable(f"{folder}/page.md"):
        return []
    path = os.path.join(layout.root, folder)
    real = os.path.normpath(os.path.join(os.path.realpath(layout.root), folder))
    try:
        if os.path.realpath(path) != real:
            return []
        entries = list(os.scandir(path))
    except OSError:
        return []
    found = []
    for entry in entries:
        rel = f"{folder}/{entry.name}"
        with suppress(OSError):
            if is_indexable(rel) and entry.is_file(follow_symlinks=False):
                found.append((rel, entry.stat(follow_symlinks=False)))
    return sorted(found)


def check_index(layout: MemoryLayout, *, deep: bool = True, semantic: bool = False,
                passed: list[int] | None = None,
                pages: Iterable[tuple[str, PageStat]] | PagesSince | None = None
                ) -> tuple[IndexState, list[str]]:
    """The index's state and, when stale, the pages it disagrees on. `deep` runs SQLite's
    quick_check too (reads every page of the database: for reconcile, not for each query),
    unless `passed` (deep_check_ahead's answer) is the index file's identity now, or the file
    is the one index_checked's record names (its deep check passed, or membank's own updates
    led to it from such a file). `pages`: stale_pages's, from the caller's walk."""
    state = index_state(layout, semantic=semantic)
    if state != "ok":
        return state, []
    path = index_file(layout)
    if (deep and not (passed is not None and passed == file_identity(path))
            and checked_identity(layout, path) is None):
        try:
            with closing(_connect(path)) as conn:
                if not _deep_ok(conn):
                    return "corrupt", []
        except sqlite3.DatabaseError:
            return "corrupt", []
    stale = stale_pages(layout, pages=pages)
    return ("stale" if stale else "ok"), stale


def _deep_ok(conn: sqlite3.Connection) -> bool:
    """SQLite's quick_check (every page of the database) and a full-text query pass."""
    if conn.execute("PRAGMA quick_check").fetchone() != ("ok",):
        return False
    conn.execute("SELECT count(*) FROM fts WHERE fts MATCH 'integrity'").fetchone()
    return True


def deep_check_ahead(layout: MemoryLayout) -> list[int] | None:
    """check_index's deep check of the index file as it is now, made ahead (reconcile runs it
    in a child beside its first check pass): the file's identity when the check passed and the
    file did not change during it, else None (then check_index makes the check itself). Opened
    read-only: it never creates, rolls back or writes the file."""
    path = index_file(layout)
    before = file_identity(path)
    if before is None:
        return None
    try:
        with closing(sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)) as conn:
            ok = _deep_ok(conn)
    except sqlite3.Error:
        return None
    return before if ok and file_identity(path) == before else None


def ensure_index(layout: MemoryLayout, *, deep: bool = True, semantic: bool = False,
                 passed: list[int] | None = None) -> tuple[IndexState, IndexUpdate]:
    """Reconcile's repair: rebuild a missing or corrupt index, re-index what went stale; the
    index then reflects every page, and records the memory's generation."""
    generation = memory_generation(layout)
    checked = file_identity(index_file(layout)) if deep else None
    state, stale = check_index(layout, deep=deep, semantic=semantic, passed=passed)
    if checked is not None and state in {"ok", "stale"}:  # its deep check passed
        record_checked(layout, checked if file_identity(index_file(layout)) == checked else None)
    if state in {"missing", "corrupt"}:
        return state, build_index(layout, semantic=semantic, generation=generation)
    if state == "stale":
        return state, update_index(layout, stale, generation=generation)
    if index_status(layout)[1].get(GENERATION_KEY) != generation:
        update_index(layout, [], graph=False, generation=generation)
    return state, IndexUpdate("unchanged")
