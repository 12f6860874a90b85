"""Read, normalize and write the knowledge graph, the entity registry and the raw manifest.

Normalization is the spec's: dedup keys with first-seen-wins, entities sorted by name,
relations by source -> type -> target, observations lexicographically.

The rule is written in four places, each for a measured reason (about 3x, 0.2 s per 100,000
observations, against building models); change one, change all four.
- `normalize_graph` here: on pydantic models (the reference);
- `normalize_graph_data` here: on the file's plain dicts (distill's hot path), with the
  TypedDict mirrors of the models;
- `tasks.store.graph_order.graph_is_normalized`: a check without copying, for reconcile;
- distill's `GraphMerge`: folds duplicates as it merges, first seen wins.

Tests hold them to the same results: tests/tasks/store/test_graph_fast_path.py (the dict path
against the models), tests/tasks/checks/test_scan.py (the check) and the distill goldens (the merge).
"""

from __future__ import annotations

import os
import re
import threading
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, TypeVar

import orjson
from pydantic import BaseModel

from schemas.distill_inbox import CandidateInbox, TombstoneList
from schemas.distill_state import DistillState
from schemas.graph import (
    KNOWLEDGE_GRAPH_DATA,
    RELATION_ORIGINS_KEY,
    EntityRegistry,
    GraphEntity,
    GraphRelation,
    KnowledgeGraph,
    RegistryEntry,
    entity_key,
    observation_key,
    relation_data_key,
    relation_key,
)
from schemas.raw_manifest import RawManifest
from tasks.store.atomic import atomic_write_bytes
from tasks.store.contracts import validate_model
from tasks.store.filememo import file_identity
from tasks.store.jsonc import dumps_json, read_jsonc_file
from tasks.store.written import as_written, record_written


def empty_graph(now_iso: str) -> KnowledgeGraph:
    return KnowledgeGraph(graphGeneratedAtUtc=now_iso, entities=[], relations=[])


def empty_registry(now_iso: str) -> EntityRegistry:
    return EntityRegistry(registryGeneratedAtUtc=now_iso, entries=[])


MANIFEST_STAMP = "manifestGeneratedAtUtc"
REGISTRY_STAMP = "registryGeneratedAtUtc"


def empty_manifest(now_iso: str) -> RawManifest:
    return RawManifest(manifestGeneratedAtUtc=now_iso, assets=[])


def load_graph(path: Path) -> KnowledgeGraph:
    # Fast path: files we write are plain JSON, parsed and validated in one step by pydantic-core
    # (about 30% faster on a graph of 100,000 observations). Anything else (comments, trailing
    # commas, a broken field) takes the JSONC path, which names the file and field on error.
    try:
        return KnowledgeGraph.model_validate_json(path.read_bytes())
    except (OSError, ValueError):
        pass
    data = read_jsonc_file(path)
    return validate_model(KnowledgeGraph, data, file=path)


def load_graph_data(path: Path) -> dict[str, Any]:
    """The graph as plain dicts (the file's JSON shape), validated like load_graph.

    For hot paths: pydantic-core checks the same constraints (schemas/graph.py *Data mirrors)
    but builds dicts instead of 100,000+ model instances. A file the fast path cannot read
    (comments, trailing commas, a broken field) goes through load_graph, whose errors name the
    file and field. A file exactly as membank last wrote it (tasks/store/written.py) is parsed
    with orjson alone."""
    try:
        if as_written(path):  # as membank wrote it: validated when it was written
            data = orjson.loads(path.read_bytes())
            if isinstance(data, dict):
                return data
        # The TypedDict is the validated shape; callers take it as the plain dict it is.
        return dict(KNOWLEDGE_GRAPH_DATA.validate_json(path.read_bytes()))
    except (OSError, ValueError):
        pass
    return graph_data(load_graph(path))


def graph_data(graph: KnowledgeGraph) -> dict[str, Any]:
    """A validated graph model as plain dicts (every list present)."""
    return graph.model_dump(mode="json")


M = TypeVar("M", bound=BaseModel)


def _load_model(model: type[M], path: Path) -> M:
    """As load_graph: files we write are plain JSON, parsed and validated in one step by
    pydantic-core (about twice as fast as a parse, then a validation of the Python objects);
    anything else takes the JSONC path, whose errors name the file and field."""
    try:
        return model.model_validate_json(path.read_bytes())
    except (OSError, ValueError):
        pass
    return validate_model(model, read_jsonc_file(path), file=path)


def load_registry(path: Path) -> EntityRegistry:
    return _load_model(EntityRegistry, path)


def load_manifest(path: Path) -> RawManifest:
    """The raw manifest; the one this process just saved there, while the file is still that
    write (see hand_over), else the file validated."""
    saved = handed_over(path, RawManifest)
    return saved if saved is not None else _load_model(RawManifest, path)


# A model this process saved, by the path and identity of the file it wrote: the next load of
# that file in the process (ingest saves the manifest, then its distill plans from it) takes
# the model instead of validating the file again (10 MB at 100,000 pages: ~0.19 s). Handed
# over once: a loader that changes the model (the next ingest) must not leave a changed model
# behind for a file that did not change. Any other write of the file (a hand edit, another
# process) gives it another identity, and it is read and validated as before.
_SAVED: dict[str, tuple[list[int], BaseModel | dict[str, Any]]] = {}
_SAVED_GUARD = threading.Lock()


def _fresh_saved_guard() -> None:
    """In a forked child (reconcile's scan workers, the index build's): the guard another thread
    of the parent held at the fork would stay held there for ever (as tasks.store.written's)."""
    global _SAVED_GUARD
    _SAVED_GUARD = threading.Lock()


os.register_at_fork(after_in_child=_fresh_saved_guard)


def hand_over(path: Path, saved: BaseModel | dict[str, Any]) -> None:
    """Keep what this process saved to `path` (or found there: the file's data, unchanged) for
    its next reader in the process, while the file is that write (handed_over)."""
    identity = file_identity(path) if as_written(path) else None
    with _SAVED_GUARD:
        if identity is None:
            _SAVED.pop(str(path), None)
        else:
            _SAVED[str(path)] = (identity, saved)


Saved = TypeVar("Saved", bound=BaseModel | dict[str, Any])


def handed_over(path: Path, kind: type[Saved]) -> Saved | None:
    """What this process last saved to `path` (a model, or plain data: `kind`), while the file
    is still that write; handed over once."""
    with _SAVED_GUARD:
        kept = _SAVED.get(str(path))
        if kept is None or not isinstance(kept[1], kind):
            return None  # (what was saved is another kind: left for its reader)
        del _SAVED[str(path)]
    if kept[0] != file_identity(path):
        return None
    return kept[1] if as_written(path) else None


def _merge_entity(kept: GraphEntity, extra: GraphEntity) -> None:
    kept.observations.extend(extra.observations)
    kept.observationProvenance.extend(extra.observationProvenance)
    kept.supersededObservations.extend(extra.supersededObservations)


def normalize_graph(graph: KnowledgeGraph) -> KnowledgeGraph:
    """Dedup (first seen wins) and sort, as spec/memory-bank.md says. Returns a new graph."""
    entities: dict[str, GraphEntity] = {}
    for entity in graph.entities:
        key = entity_key(entity.entityName)
        if key in entities:
            _merge_entity(entities[key], entity)
        else:
            # Shallow copy with fresh lists: the input graph is never mutated, and no deep copy
            # (it costs seconds on a graph of 100,000 observations).
            entities[key] = entity.model_copy(update={
                "observations": list(entity.observations),
                "observationProvenance": list(entity.observationProvenance),
                "supersededObservations": list(entity.supersededObservations),
            })
    for entity in entities.values():
        seen: dict[str, str] = {}
        for text in entity.observations:
            seen.setdefault(observation_key(entity.entityName, text), text.strip())
        entity.observations = sorted(seen.values())
        provenance = {
            (p.observation, p.sourcePage, p.lineStart, p.lineEnd): p
            for p in reversed(entity.observationProvenance)
        }
        entity.observationProvenance = sorted(
            provenance.values(), key=lambda p: (p.observation, p.sourcePage, p.lineStart, p.lineEnd)
        )
        superseded = {(s.observation, s.supersededBy): s for s in reversed(entity.supersededObservations)}
        entity.supersededObservations = sorted(
            superseded.values(), key=lambda s: (s.observation, s.supersededBy or "")
        )
    relations: dict[str, GraphRelation] = {}
    for relation in graph.relations:
        relations.setdefault(relation_key(relation), relation)
    return graph.model_copy(
        update={
            "entities": sorted(entities.values(), key=lambda e: entity_key(e.entityName)),
            "relations": [relations[key] for key in sorted(relations)],
        }
    )


_ENTITY_FIELDS = ("entityName", "entityType", "observations", "observationProvenance",
                  "supersededObservations")
_PROVENANCE_FIELDS = ("observation", "sourcePage", "rawAssetId", "lineStart", "lineEnd")
_SUPERSEDED_FIELDS = ("observation", "supersededAtUtc", "supersededBy", "reason")
_RELATION_FIELDS = ("sourceEntityName", "targetEntityName", "relationType")
_GRAPH_FIELDS = ("graphGeneratedAtUtc", "entities", "relations")


def _in_model_order(item: dict[str, Any], fields: tuple[str, ...]) -> dict[str, Any]:
    """Keys as model_dump orders them: the model's fields (None when absent), then extras."""
    if tuple(item) == fields:
        return item
    ordered = {name: item.get(name) for name in fields}
    ordered.update((key, value) for key, value in item.items() if key not in ordered)
    return ordered


def normalize_graph_data(data: dict[str, Any],
                         keyed_relations: Mapping[str, dict[str, Any]] | None = None
                         ) -> dict[str, Any]:
    """normalize_graph on plain dicts, returning the file's JSON shape: the same dedup keys,
    first-seen-wins, sorting and key order as graph_text(normalize_graph(graph)), without
    building a model per observation. The input is not mutated. `keyed_relations`: the
    relations by relation_data_key already, first seen kept (distill's GraphMerge), taken
    instead of data["relations"] and not keyed again (50,000 relations at every distill)."""
    entities: dict[str, dict[str, Any]] = {}
    lists: dict[str, tuple[list[str], list[dict[str, Any]], list[dict[str, Any]]]] = {}
    for entity in data["entities"]:
        key = entity_key(entity["entityName"])
        kept = lists.get(key)
        if kept is None:
            entities[key] = entity
            kept = lists[key] = ([], [], [])
        kept[0].extend(entity.get("observations") or ())
        kept[1].extend(entity.get("observationProvenance") or ())
        kept[2].extend(entity.get("supersededObservations") or ())
    out_entities = []
    for key in sorted(entities):
        entity = entities[key]
        observations, provenance, superseded = lists[key]
        out: dict[str, Any] = {
            "entityName": entity["entityName"],
            "entityType": entity["entityType"],
            "observations": sorted({text.strip() for text in observations}),
        }
        if provenance:
            by_where = {
                (p["observation"], p["sourcePage"], p["lineStart"], p["lineEnd"]): p
                for p in reversed(provenance)
            }
            out["observationProvenance"] = [
                _in_model_order(by_where[where], _PROVENANCE_FIELDS) for where in sorted(by_where)
            ]
        if superseded:
            by_link = {(s["observation"], s.get("supersededBy")): s for s in reversed(superseded)}
            out["supersededObservations"] = [
                _in_model_order(s, _SUPERSEDED_FIELDS)
                for s in sorted(
                    by_link.values(), key=lambda s: (s["observation"], s.get("supersededBy") or "")
                )
            ]
        for name, value in entity.items():
            if name not in _ENTITY_FIELDS:
                out[name] = value
        out_entities.append(out)
    relations = keyed_relations
    if relations is None:
        relations = {}
        for relation in data["relations"]:
            relations.setdefault(relation_data_key(relation), relation)
    result = {
        "graphGeneratedAtUtc": data["graphGeneratedAtUtc"],
        "entities": out_entities,
        "relations": [_in_model_order(relations[key], _RELATION_FIELDS) for key in sorted(relations)],
    }
    result.update((key, value) for key, value in data.items() if key not in _GRAPH_FIELDS)
    return result


def normalize_registry(registry: EntityRegistry) -> EntityRegistry:
    """Dedup (first seen wins, aliases merged) and sort, as the spec says. Returns a new
    registry; an entry that is normalized already is shared with the input, not copied (a
    copy per entry costs seconds at 50,000 entries), and the input is never mutated."""
    entries: dict[str, RegistryEntry] = {}
    merged: dict[str, list[str]] = {}  # key -> aliases of every entry of that key, in order
    for entry in registry.entries:
        key = entity_key(entry.canonicalName)
        if key in entries:
            merged.setdefault(key, list(entries[key].aliases)).extend(entry.aliases)
        else:
            entries[key] = entry
    out: list[RegistryEntry] = []
    for key in sorted(entries):
        entry = entries[key]
        if key not in merged and normal_aliases(entry.aliases, key):
            out.append(entry)  # (most entries: no dict, sort and compare of its aliases)
            continue
        normal = normalized_aliases(merged.get(key, entry.aliases), key)
        out.append(entry if normal == entry.aliases and key not in merged
                   else entry.model_copy(update={"aliases": normal}))
    return registry.model_copy(update={"entries": out})


def normalized_aliases(aliases: list[str], key: str) -> list[str]:
    """The aliases of the entry keyed `key` as normalize_registry leaves them: trimmed, first
    of each alias key kept, none keyed empty or `key`, sorted by alias key."""
    kept: dict[str, str] = {}
    for alias in aliases:
        alias_key = entity_key(alias)
        if alias_key and alias_key != key:
            kept.setdefault(alias_key, alias.strip())
    return [kept[alias_key] for alias_key in sorted(kept)]


def normal_aliases(aliases: list[str], key: str) -> bool:
    """Whether normalize_registry leaves these aliases of the entry keyed `key` as they are:
    each trimmed, its key neither empty nor `key`, the keys strictly increasing (so no
    duplicate, and sorted)."""
    previous = ""
    for alias in aliases:
        alias_key = entity_key(alias)
        if not alias_key or alias_key == key or alias_key <= previous or alias != alias.strip():
            return False
        previous = alias_key
    return True


def _graph_dict(graph: KnowledgeGraph) -> dict[str, Any]:
    data = graph.model_dump(mode="json")
    # Keep the file readable for spec-only readers: drop empty extension lists.
    for entity in data["entities"]:
        for key in ("observationProvenance", "supersededObservations"):
            if not entity.get(key):
                entity.pop(key, None)
    return data


def entity_as_saved(entity: dict[str, Any]) -> dict[str, Any]:
    """One entity of a graph file as membank wrote it (tasks/store/written.py: validated on
    the way in), in the shape save_graph writes its model: the model's fields in order (their
    defaults when absent), then its extension keys; empty provenance lists dropped."""
    out = _in_model_order(entity, _ENTITY_FIELDS)
    out["observations"] = out["observations"] or []
    for key, fields in (("observationProvenance", _PROVENANCE_FIELDS),
                        ("supersededObservations", _SUPERSEDED_FIELDS)):
        if out.get(key):
            out[key] = [_in_model_order(row, fields) for row in out[key]]
        else:
            out.pop(key, None)
    return out


def rest_as_saved(frame: dict[str, Any]) -> dict[str, Any]:
    """A graph file's keys after its entities (relations, extension keys), as `entity_as_saved`:
    the shape save_graph writes them in (a relation's null relationProvenance left out)."""
    rest = {key: value for key, value in frame.items() if key not in ("graphGeneratedAtUtc", "entities")}
    relations = []
    for relation in frame["relations"]:
        ordered = _in_model_order(relation, (*_RELATION_FIELDS, RELATION_ORIGINS_KEY))
        if ordered[RELATION_ORIGINS_KEY] is None:
            del ordered[RELATION_ORIGINS_KEY]
        else:
            ordered[RELATION_ORIGINS_KEY] = [_in_model_order(o, ("sourcePage", "rawAssetId"))
                                             for o in ordered[RELATION_ORIGINS_KEY]]
        relations.append(ordered)
    rest["relations"] = relations
    return rest


# The file's bytes with its generated-at stamp set to the given one.
Encoder = Callable[[str], bytes]


def _data_encoder(data: dict[str, Any], stamp_key: str) -> Encoder:
    return lambda stamp: _dumps({**data, stamp_key: stamp})


def _model_encoder(model: BaseModel, stamp_key: str) -> Encoder:
    """The bytes _dumps writes for model.model_dump(mode="json", exclude_none=True), from
    pydantic-core's own encoder (serde_json's two-space pretty printer: the same layout, escapes
    and number forms as orjson's OPT_INDENT_2; tests/tasks/store/test_graph_store.py holds them
    together) without building the dicts first: the registry's 50,000 entries at 100,000 pages
    took 0.15 s to dump and 0.02 s to encode, 0.04 s this way."""
    def encode(stamp: str) -> bytes:
        stamped = model if getattr(model, stamp_key) == stamp else model.model_copy(update={stamp_key: stamp})
        return stamped.model_dump_json(indent=2, exclude_none=True).encode() + b"\n"
    return encode


def _save_stamped(path: Path, encode: Encoder, stamp_key: str, now_iso: str) -> bool:
    """Write the file, refreshing its generated-at stamp only when something else changed."""
    return _save_stamped_at(path, encode, stamp_key, now_iso)[0]


def _save_stamped_at(path: Path, encode: Encoder, stamp_key: str, now_iso: str) -> tuple[bool, Any]:
    """_save_stamped, and the stamp the file holds afterwards.

    The temp file is not parsed again before the rename (atomic_write_bytes' check): its bytes
    are a JSON encoder's output, JSON by construction, and the only edit, the stamp's swap,
    puts a clock string where one was. Re-parsing cost every ingest ~0.15 s cpu at 100,000
    pages (manifest 10 MB, registry 7 MB, distill state 5 MB)."""
    old_data: bytes | None = None
    old_stamp: Any = None
    try:
        raw = path.read_bytes()
        # The stamp is near the top of files we write: read it without parsing the whole file.
        found = re.search(rb'"%s": "([^"\\]*)"' % re.escape(stamp_key).encode(), raw[:4096])
        old_stamp = found.group(1).decode("utf-8") if found else orjson.loads(raw).get(stamp_key)
        old_data = raw
    except (FileNotFoundError, UnicodeDecodeError, orjson.JSONDecodeError, AttributeError):
        old_data, old_stamp = None, None
    if old_stamp is not None:
        encoded = encode(old_stamp)
        if encoded == old_data:
            return _written(path, False, encoded), old_stamp
        old_pair = f'"{stamp_key}": "{old_stamp}"'.encode()
        new_pair = f'"{stamp_key}": "{now_iso}"'.encode()
        if encoded.count(old_pair) == 1:
            encoded = encoded.replace(old_pair, new_pair, 1)
            return _written(path, atomic_write_bytes(path, encoded, validate=False), encoded), now_iso
    encoded = encode(now_iso)
    return _written(path, atomic_write_bytes(path, encoded, validate=False), encoded), now_iso


def _written(path: Path, wrote: bool, content: bytes) -> bool:
    """Record a context file as holding what membank writes (data validated on the way in),
    whether it was just written or already held those very bytes, so readers may trust it
    while its identity stays, or a copy of it by its sha256 (tasks/store/written.py)."""
    record_written(path, content)
    return wrote


def _dumps(value: Any) -> bytes:
    """dumps_json(value) as UTF-8 bytes, without the round trip through str."""
    return orjson.dumps(value, option=orjson.OPT_INDENT_2 | orjson.OPT_APPEND_NEWLINE)


def graph_text(graph: KnowledgeGraph) -> str:
    return dumps_json(_graph_dict(graph))


def save_graph(path: Path, graph: KnowledgeGraph, *, now_iso: str) -> bool:
    return _save_stamped(path, _data_encoder(_graph_dict(graph), "graphGeneratedAtUtc"),
                         "graphGeneratedAtUtc", now_iso)


def save_graph_data(path: Path, data: dict[str, Any], *, now_iso: str) -> bool:
    """save_graph for the output of normalize_graph_data (already in the file's JSON shape)."""
    return _save_stamped(path, _data_encoder(data, "graphGeneratedAtUtc"), "graphGeneratedAtUtc",
                         now_iso)


def save_registry(path: Path, registry: EntityRegistry, *, now_iso: str) -> bool:
    return _save_stamped(path, _model_encoder(registry, REGISTRY_STAMP), REGISTRY_STAMP, now_iso)


def save_registry_data(path: Path, data: dict[str, Any], *, now_iso: str) -> bool:
    """save_registry for the registry as plain data in the file's JSON shape (rows of a file
    membank wrote, and entries dumped as the model dumps them: tasks/distill/registry_rows.py)."""
    return _save_stamped(path, _data_encoder(data, REGISTRY_STAMP), REGISTRY_STAMP, now_iso)


class RegistryRowsByKey(dict[str, dict[str, Any]]):
    """A registry file's entries (each in the file's JSON shape) by entity key: what a distill
    hands over (hand_over) to the search index's update after it, which looks entries up by
    key and would otherwise read, parse and key the file again (50,000 entries)."""


def save_manifest(path: Path, manifest: RawManifest, *, now_iso: str) -> bool:
    """Write the manifest (its stamp refreshed only on a real change); the model is handed
    over to this process's next load_manifest of the file (see hand_over), so the caller
    changes it no more."""
    wrote, stamp = _save_stamped_at(path, _model_encoder(manifest, MANIFEST_STAMP),
                                    MANIFEST_STAMP, now_iso)
    hand_over(path, manifest if stamp == manifest.manifestGeneratedAtUtc
               else manifest.model_copy(update={MANIFEST_STAMP: stamp}))
    return wrote


def save_manifest_data(path: Path, data: dict[str, Any], *, now_iso: str) -> bool:
    """save_manifest for the manifest as plain data in the file's JSON shape (rows of a file
    membank wrote, and assets dumped as the model dumps them: tasks/store/manifest_rows.py);
    the data is handed over as save_manifest hands over its model."""
    wrote, stamp = _save_stamped_at(path, _data_encoder(data, MANIFEST_STAMP), MANIFEST_STAMP,
                                    now_iso)
    hand_over(path, data if stamp == data.get(MANIFEST_STAMP) else {**data, MANIFEST_STAMP: stamp})
    return wrote


def load_distill_state(path: Path) -> DistillState:
    return _load_model(DistillState, path)


def save_distill_state(path: Path, state: DistillState, *, now_iso: str) -> bool:
    return _save_stamped(path, _model_encoder(state, "stateGeneratedAtUtc"), "stateGeneratedAtUtc",
                         now_iso)


def save_distill_state_data(path: Path, data: dict[str, Any], *, now_iso: str) -> bool:
    """save_distill_state for the state as plain data in the file's JSON shape (rows of a file
    membank wrote, and sources dumped as the model dumps them: tasks/distill/state_rows.py)."""
    return _save_stamped(path, _data_encoder(data, "stateGeneratedAtUtc"), "stateGeneratedAtUtc",
                         now_iso)


def load_tombstones(path: Path) -> TombstoneList:
    """The forgotten topics; a missing file means nothing was forgotten."""
    if not path.exists():
        return TombstoneList()
    return validate_model(TombstoneList, read_jsonc_file(path), file=path)


def load_candidate_inbox(path: Path, now_iso: str) -> CandidateInbox:
    if not path.exists():
        return CandidateInbox(candidatesGeneratedAtUtc=now_iso)
    return validate_model(CandidateInbox, read_jsonc_file(path), file=path)


def save_candidate_inbox(path: Path, inbox: CandidateInbox, *, now_iso: str) -> bool:
    data = inbox.model_dump(mode="json", exclude_none=True)
    if not data.get("pendingCandidates"):
        data.pop("pendingCandidates", None)
    return _save_stamped(path, _data_encoder(data, "candidatesGeneratedAtUtc"),
                         "candidatesGeneratedAtUtc", now_iso)
