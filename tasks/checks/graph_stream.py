"""The graph's facts read entity by entity, never the whole document at once.

The knowledge graph is one JSON document (718 MB at 100,000 pages once reconcile marked stale
facts); parsed whole into dicts it took 3 GB and most of a check's memory. When the file is
exactly as distill wrote it, tasks/store/graph_segments.py knows where each entity's bytes sit,
so a scan reads the frame (relations, extra keys) once and then one entity at a time: the same
facts and observation digests as tasks/checks/graph_facts.py computes over the whole document
(tests/tasks/checks/test_graph_stream.py holds the equality), with only one entity in memory.

Trusted as the whole-document path trusts a file membank wrote (orjson, no validation);
anything unexpected (a span that is not an object, a missing key) gives None and the caller
reads the file whole.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import orjson

from schemas.common import name_key
from schemas.graph import STALE_OBSERVATIONS_KEY, entity_key
from schemas.relation_vocabulary import RELATION_VERBS
from tasks.checks.entity_rows import graph_digests
from tasks.checks.facts import GraphFacts, GraphTransient
from tasks.checks.graph_facts import (
    _NAME_MARKUP_RE,
    _entity_facts,
    _relation_digests,
    graph_is_normalized,
    observation_digests,
)
from tasks.store.graph_segments import GraphSegments
from tasks.store.written import as_written

_CHUNK = 1 << 23


def _entities(segments: GraphSegments, fd: int) -> Iterator[dict[str, Any]]:
    spans = segments.spans
    for start, end in zip(spans.starts, spans.ends, strict=True):
        entity = orjson.loads(os.pread(fd, end - start, start))
        if not isinstance(entity, dict):
            raise TypeError("an entity span is not an object")
        yield entity


def _touching(relations: list[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    """Entity key -> the relations from or to it (once each), in file order."""
    touching: dict[str, list[dict[str, Any]]] = {}
    for relation in relations:
        source = entity_key(relation["sourceEntityName"])
        target = entity_key(relation["targetEntityName"])
        touching.setdefault(source, []).append(relation)
        if target != source:
            touching.setdefault(target, []).append(relation)
    return touching


def _empty_facts(frame: dict[str, Any]) -> GraphFacts:
    relations = frame["relations"]
    return {"problem": None, "entities_without_evidence": [], "names_with_markup": [],
            "unknown_relation_types": sorted({r["relationType"] for r in relations} - RELATION_VERBS),
            "entities": [], "relations": len(relations), "normalized": True,
            "superseded_unlinked": [], "active_and_superseded": [], "conflicts": [],
            "not_atomic": [], "dangling_relations": [], "entity_rows": {}, "stale_marked": 0}


class _Accumulator:
    """graph_facts' passes over the entities, made one entity at a time."""

    def __init__(self, frame: dict[str, Any]) -> None:
        self.relations: list[dict[str, Any]] = frame["relations"]
        self.facts = _empty_facts(frame)
        self.digests: dict[str, str] = {}
        self.names: set[str] = set()
        self.stating = {name_key(r[end]) for r in self.relations if r.get("relationProvenance")
                        for end in ("sourceEntityName", "targetEntityName")}
        self.touching = _touching(self.relations)
        self.previous_key: str | None = None

    def add(self, entity: dict[str, Any]) -> None:
        facts = self.facts
        name = entity["entityName"]
        key = name_key(name)
        if not entity.get("observations") and not entity.get("observationProvenance") \
                and not entity.get("supersededObservations") and key not in self.stating:
            facts["entities_without_evidence"].append(name)
        if _NAME_MARKUP_RE.match(name.strip()):
            facts["names_with_markup"].append(name)
        if facts["normalized"] and ((self.previous_key is not None and not self.previous_key < key)
                                    or not graph_is_normalized({"entities": [entity],
                                                                "relations": []})):
            facts["normalized"] = False
        self.previous_key = key
        _entity_facts(entity, facts)
        self.names.add(key)
        facts["entity_rows"].update(graph_digests(
            {"entities": [entity], "relations": self.touching.get(entity_key(name), [])}))
        facts["stale_marked"] += len(entity.get(STALE_OBSERVATIONS_KEY) or ())
        self.digests.update(observation_digests({"entities": [entity], "relations": []}))

    def finish(self, frame: dict[str, Any]) -> tuple[GraphFacts, GraphTransient]:
        facts = self.facts
        facts["entities_without_evidence"].sort()
        facts["names_with_markup"].sort()
        if facts["normalized"]:
            facts["normalized"] = graph_is_normalized({"entities": [], "relations": self.relations})
        facts["dangling_relations"] = [
            (r["sourceEntityName"], r["relationType"], r["targetEntityName"])
            for r in self.relations
            if name_key(r["sourceEntityName"]) not in self.names
            or name_key(r["targetEntityName"]) not in self.names]
        self.digests.update(_relation_digests(frame))
        return facts, {"obs_digests": self.digests}


def file_hash(path: Path) -> tuple[str, int]:
    """The sha256 of a file read in chunks (scan.content_hash of its bytes) and its size."""
    digest = hashlib.sha256()
    size = 0
    with path.open("rb") as handle:
        while chunk := handle.read(_CHUNK):
            digest.update(chunk)
            size += len(chunk)
    return digest.hexdigest(), size


def graph_entities(path: Path) -> Iterator[dict[str, Any]] | None:
    """The entities of a graph file membank wrote, as plain dicts in file order: one at a time
    when its spans are recorded, else from one orjson parse; None when the file is not as
    membank wrote it (the caller validates it). Raises OSError, ValueError (orjson) or
    TypeError when the file does not read so."""
    segments = GraphSegments.load(path)
    if segments is not None:
        return _entities_of(segments)
    if not as_written(path):
        return None
    entities = orjson.loads(path.read_bytes())["entities"]
    if not isinstance(entities, list):
        raise TypeError("entities is not a list")
    return iter(entities)


def _entities_of(segments: GraphSegments) -> Iterator[dict[str, Any]]:
    fd = os.open(segments.graph_file, os.O_RDONLY)
    try:
        yield from _entities(segments, fd)
    finally:
        os.close(fd)


def graph_segments(path: Path) -> GraphSegments | None:
    """The entity spans of a graph file as distill wrote it (None: read it whole)."""
    return GraphSegments.load(path)


def graph_facts_by_entity(segments: GraphSegments) -> tuple[GraphFacts, GraphTransient] | None:
    """The facts of the graph file `segments` was loaded for, read entity by entity; None
    when a span does not read as an entity (the caller reads the file whole)."""
    try:
        frame = segments.frame()
        accumulator = _Accumulator(frame)
        fd = os.open(segments.graph_file, os.O_RDONLY)
        try:
            for entity in _entities(segments, fd):
                accumulator.add(entity)
        finally:
            os.close(fd)
        return accumulator.finish(frame)
    except (OSError, orjson.JSONDecodeError, KeyError, TypeError, AttributeError):
        return None
