"""The graph's facts after writes by entity, from the facts the cache holds and the entities the
writes changed (tasks/store/graph_delta.py), without reading the rest of the file.

A check right after an ingest found the graph changed and read all of it again (423 MB at
100,000 pages: the largest piece of that check). The ingest's distill wrote a few entities; it
recorded which, with their earlier bytes, the entities whose relation rows changed and the
relations that left both lists. So the facts are the cached ones with those entities' shares
taken out (computed from their earlier bytes) and their new shares put in, and the relations'
facts computed from the new frame: the same facts, in the same order, as a read of the whole
file (tests/tasks/checks/test_graph_delta.py holds the equality).

The observation digests of the whole graph are not made: the erased-facts gate gets an
ErasedDelta instead (the digests the changed entities and relations have now, and those they
had and lost), which gives its result when the cache and the observation baseline are the pair
the last repair run saved (the caller's condition: tasks/checks/reconcile/verdict.py
bookkeeping_holds): then what the baseline holds beyond the cached graph is already among the
erased facts the cache records. Of the relations (50,000 at 100,000 pages) only those whose
digests can answer the gate's questions are hashed (_asked_sources). Anything else (a graph
not written by entity, another file identity, a graph not normalized, an entity key with a
"|", which would let two entities' digests meet) returns None: the caller reads the whole
file.
"""

from __future__ import annotations

import os
from collections.abc import Collection
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

import orjson

from schemas.common import name_key
from schemas.graph import entity_key
from schemas.relation_vocabulary import RELATION_VERBS
from tasks.checks.facts import (
    ConflictFacts,
    EntityRow,
    ErasedDelta,
    FileEntry,
    GraphFacts,
    ObservationRow,
)
from tasks.checks.graph_facts import (
    EntityPart,
    entity_part,
    relation_digests,
    relation_rows,
    rows_digest,
)
from tasks.store.graph_delta import GraphDelta, digested_rows, graph_delta
from tasks.store.graph_order import increasing
from tasks.store.graph_segments import GraphSegments


@dataclass
class DeltaRead:
    facts: GraphFacts
    erased: ErasedDelta
    bytes_read: int


_PER_ENTITY = ("superseded_unlinked", "active_and_superseded", "not_atomic")


def read_graph_delta(graph_file: Path, cached: FileEntry,
                     erased: Collection[str] | None = None) -> DeltaRead | None:
    """The graph's facts from `cached` (the cache's entry of the graph) and the recorded
    writes since; None when they cannot be had so (see the module doc). `erased`: the
    digests of the cache's erased facts (the gate asks whether the graph holds each again),
    when known: then only the relations whose digests can answer a question are hashed
    (_asked_sources); None: every relation is."""
    old_facts = cast(GraphFacts, cached["facts"])
    if old_facts.get("problem") is not None or old_facts.get("normalized") is not True:
        return None
    delta = graph_delta(graph_file, [cached["size"], cached["mtime_ns"], cached["ctime_ns"],
                                     cached["ino"]])
    segments = GraphSegments.load(graph_file) if delta is not None else None
    if delta is None or segments is None:
        return None
    try:
        return _read(segments, old_facts, delta, erased)
    except (OSError, ValueError, KeyError, TypeError, AttributeError, IndexError):
        return None  # a shape the whole-file path reads and names


def _read(segments: GraphSegments, old_facts: GraphFacts, delta: GraphDelta,
          erased: Collection[str] | None = None) -> DeltaRead | None:
    old, ends, gone = delta.old, delta.ends, delta.gone
    keys = segments.spans.keys
    old_rows: dict[str, EntityRow] = dict(zip(old_facts["entity_rows"], old_facts["entities"],
                                              strict=True))
    if len(old_rows) != len(old_facts["entities"]) or any("|" in key for key in keys):
        return None
    index = segments.index
    if any(key not in old_rows and key not in old for key in keys):
        return None
    for key, data in old.items():
        if (data is None) == (key in old_rows):
            return None  # the record and the cached graph disagree on this entity
    removed = [key for key in old_rows if key not in index]
    if any(key not in old for key in removed):
        return None
    frame = segments.frame()
    relations = frame["relations"]
    keyed = _keyed_ends(relations) if isinstance(relations, list) else None
    if keyed is None:
        return None  # relations not deduplicated: the recorded rows cannot tell every change
    # entities read from the file: the changed ones, those whose relation rows changed, the
    # sources of relations gone (their observations may carry such a digest), and those whose
    # counts say they may lack evidence (whether they have provenance is not cached)
    reread = {key for key in old if key in index} | (ends & index.keys())
    reread |= {entity_key(source) for source, _, _ in gone} & index.keys()
    reread |= {key for key in keys if key not in old and old_rows[key][2] == 0
               and old_rows[key][3] == 0}
    size = 0
    new_parts: dict[str, EntityPart] = {}
    for key in sorted(reread, key=index.__getitem__):
        row = index[key]
        data = segments.read(segments.spans.starts[row], segments.spans.ends[row])
        size += len(data)
        entity = orjson.loads(data)
        if not isinstance(entity, dict) or entity_key(entity["entityName"]) != key:
            return None
        new_parts[key] = entity_part(entity)
    old_parts = {key: entity_part(orjson.loads(data)) for key, data in old.items()
                 if data is not None}
    old_parts.update((key, part) for key, part in new_parts.items() if key not in old)
    affected = new_parts.keys() | old_parts.keys()
    facts = _facts(_Shares(keys, index, old_facts, old_rows, new_parts, old_parts, affected),
                   relations, keyed)
    return DeltaRead(facts, _erased_delta(frame, delta, new_parts, old_parts, erased),
                     size + segments.head_end + os.path.getsize(segments.graph_file)
                     - segments.tail_start)


def _keyed_ends(relations: list[dict[str, Any]]) -> list[tuple[str, str]] | None:
    """Each relation's source and target entity keys, made once for the passes that ask (the
    order, the evidence, the dangling relations, the pages' rows: 50,000 relations at 100,000
    pages, four name keys each asked twice before); None when the relations are not strictly
    increasing by relation_key (not deduplicated)."""
    ends = [(entity_key(r["sourceEntityName"]), entity_key(r["targetEntityName"]))
            for r in relations]
    # relation_key(r), its two entity keys taken from `ends`
    if not increasing(f"{source}|{name_key(r['relationType'])}|{target}"
                      for r, (source, target) in zip(relations, ends, strict=True)):
        return None
    return ends


def _erased_delta(frame: dict[str, Any], delta: GraphDelta, new_parts: dict[str, EntityPart],
                  old_parts: dict[str, EntityPart], erased: Collection[str] | None
                  ) -> ErasedDelta:
    """The digests the changed entities and the relations have now (those the gate can ask
    about: _asked_sources) and those the changed entities and relations had and lost."""
    texts: dict[str, str] = {}
    for part in new_parts.values():
        texts.update(part.digests)
    present = set(texts)
    had: dict[str, str] = {}
    asked: set[str] = set()  # the entities whose digests had are not all answered yet
    for key in delta.old:
        if key in old_parts:
            digests = old_parts[key].digests
            had.update(digests)
            if any(digest not in present for digest in digests):
                asked.add(key)
    had.update(relation_digests(delta.gone))
    asked.update(entity_key(source) for source, _, _ in delta.gone)
    rows = digested_rows(frame)
    sources = _asked_sources(asked, present, erased)
    if sources is not None:
        rows = {row for row in rows if entity_key(row[0]) in sources or "|" in row[0]}
    texts.update(relation_digests(rows))
    present.update(texts)
    lost = {digest: text for digest, text in had.items() if digest not in present}
    return ErasedDelta(frozenset(present), lost, texts if sources is None else None)


def _asked_sources(asked: set[str], present: set[str],
                   erased: Collection[str] | None) -> set[str] | None:
    """The entity keys whose relations' digests can answer the erased-facts gate's questions
    (is each digest the changed entities and relations had, and each erased one, still in the
    graph?) once the changed entities' own digests (`present`) answered what they can:
    `asked`, the keys of the entities and of the relations' sources whose digests are still
    open; None: every relation's. A digest is blake2b of "<entity key>|<text>", and no entity
    key holds a "|" (_read), so a relation's digest can equal one of an entity's facts, or of
    a relation, only when its source has that key (or a source name with a "|": always
    hashed). An erased fact's entity is not known from its digest: one not answered so asks
    for every relation."""
    if erased is None or any(digest not in present for digest in erased):
        return None
    return asked


@dataclass
class _Shares:
    """The cached facts and the shares of the entities read again, old and new."""

    keys: list[str]  # the file's entity keys, in order
    index: dict[str, int]  # key -> its place
    old_facts: GraphFacts
    old_rows: dict[str, EntityRow]  # key -> its cached row
    new_parts: dict[str, EntityPart]  # the entities read again, as they are now
    old_parts: dict[str, EntityPart]  # the same, and those removed, as the cache saw them
    affected: set[str]


def _facts(shares: _Shares, relations: list[dict[str, Any]], keyed: list[tuple[str, str]]
           ) -> GraphFacts:
    """The graph's facts from the shares; `keyed`: each relation's entity keys (_keyed_ends)."""
    keys, index, old_facts = shares.keys, shares.index, shares.old_facts
    old_rows, new_parts, old_parts = shares.old_rows, shares.new_parts, shares.old_parts
    affected = shares.affected
    def place(name: str) -> int:
        return index[entity_key(name)]

    facts: GraphFacts = {
        "problem": None, "entities_without_evidence": [], "names_with_markup": [],
        "unknown_relation_types": [], "entities": [], "relations": len(relations),
        "normalized": True, "superseded_unlinked": [], "active_and_superseded": [],
        "conflicts": [], "not_atomic": [], "dangling_relations": [], "entity_rows": {},
        "stale_marked": 0}
    facts["entities"] = [new_parts[key].row if key in new_parts else old_rows[key] for key in keys]
    for name in _PER_ENTITY:
        items: list[ObservationRow] = [item for item in old_facts[name]  # type: ignore[literal-required]
                                       if entity_key(item[0]) not in affected]
        for part in new_parts.values():
            items += part.facts[name]  # type: ignore[literal-required]
        facts[name] = sorted(items, key=lambda item: place(item[0]))  # type: ignore[literal-required]
    conflicts: list[ConflictFacts] = [c for c in old_facts["conflicts"]
                                      if entity_key(c["entity"]) not in affected]
    for part in new_parts.values():
        conflicts += part.facts["conflicts"]
    facts["conflicts"] = sorted(conflicts, key=lambda c: place(c["entity"]))
    markup = [name for name in old_facts["names_with_markup"] if entity_key(name) not in affected]
    for part in new_parts.values():
        markup += part.facts["names_with_markup"]
    facts["names_with_markup"] = sorted(markup)
    facts["stale_marked"] = (old_facts["stale_marked"]
                             - sum(p.facts["stale_marked"] for p in old_parts.values())
                             + sum(p.facts["stale_marked"] for p in new_parts.values()))
    facts["normalized"] = all(part.normalized for part in new_parts.values())  # relations: _read
    stating = {key for r, pair in zip(relations, keyed, strict=True)
               if r.get("relationProvenance") for key in pair}
    facts["entities_without_evidence"] = sorted(
        part.row[0] for key, part in new_parts.items() if part.unevidenced and key not in stating)
    facts["unknown_relation_types"] = sorted({r["relationType"] for r in relations}
                                             - RELATION_VERBS)
    facts["dangling_relations"] = [
        (r["sourceEntityName"], r["relationType"], r["targetEntityName"])
        for r, (source, target) in zip(relations, keyed, strict=True)
        if source not in index or target not in index]
    shown = relation_rows(relations, new_parts.keys(), keyed)
    old_digests = old_facts["entity_rows"]
    facts["entity_rows"] = {
        key: rows_digest(new_parts[key].rows, shown.get(key, [])) if key in new_parts
        else old_digests[key] for key in keys}
    return facts
