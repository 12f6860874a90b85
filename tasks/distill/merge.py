"""The pure core of distill: extractions merged into the graph and the registry.

    GraphMerge          the graph as plain dicts keyed by the spec's dedup keys
    merge_extractions   subjects (pass 1), what each source states (pass 2), record links,
                        mentions of registered names (pass 3), then supersession of replaced
                        source versions and superseded decision records

No I/O here: the memory comes in loaded (MergeInputs; its graph data and registry entries are
merged into in place, not copied: the graph may hold 100,000+ observations), sources read in
earlier runs come through a port (EarlierSources), and tasks/distill/apply.py writes the result.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable, Iterator, Mapping, MutableMapping, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from typing import Any

from schemas.graph import (
    RELATION_ORIGINS_KEY,
    RELATION_TYPE_PATTERN,
    SUPERSEDED_RELATIONS_KEY,
    GraphRelation,
    RegistryEntry,
    SupersededObservation,
    entity_key,
    relation_data_key,
)
from schemas.raw_manifest import RawAsset
from schemas.report import GraphDelta
from tasks.distill.log_dates import settle_log_dates
from tasks.distill.plan import DistillPlan
from tasks.distill.record_graph import (
    PendingLinks,
    RecordIndex,
    apply_record_links,
    mark_record_logs,
    pending_record_links,
    record_log,
)
from tasks.distill.registry_rows import LoadedRegistry
from tasks.distill.resolve import Forgotten, Resolver
from tasks.extract import (
    DECISION_TYPE,
    SUBJECT_DOCUMENT_TYPE,
    EntityFact,
    Extraction,
    NameRef,
    ObservationFact,
    SourceRef,
    SupersededFact,
    mention_lines,
)
from tasks.extract.common_capitals import capital_only, common_capitalised
from tasks.extract.genre_subjects import named_in_a_sentence
from tasks.memstores.distill_hooks import STORE_RECORD_KEY, replacements_in_graph
from tasks.store.graph_segments import GraphSegments
from tasks.store.graph_store import normalize_graph_data
from tasks.store.versions import REINSTATED_KEY

DECISION_PREFIX = "Decision: "
_RELATION_TYPE_RE = re.compile(RELATION_TYPE_PATTERN.removeprefix("^").removesuffix("$"))


def _with_lists(entity: dict[str, Any]) -> dict[str, Any]:
    entity.setdefault("observations", [])
    entity.setdefault("observationProvenance", [])
    entity.setdefault("supersededObservations", [])
    return entity


class LazyEntities(MutableMapping[str, dict[str, Any]]):
    """GraphMerge's entities read from the graph file one at a time, as the merge asks for
    them (tasks/store/graph_segments.py): a run that touches a few entities of 100,000 parses
    those few. Iterating over all of them reads them all (the rare whole-graph passes)."""

    def __init__(self, segments: GraphSegments) -> None:
        self.segments = segments
        self.loaded: dict[str, dict[str, Any]] = {}

    def __getitem__(self, key: str) -> dict[str, Any]:
        entity = self.loaded.get(key)
        if entity is None:
            if key not in self.segments.index:
                raise KeyError(key)
            entity = self.loaded[key] = _with_lists(self.segments.entity(key))
        return entity

    def __setitem__(self, key: str, entity: dict[str, Any]) -> None:
        self.loaded[key] = entity

    def __delitem__(self, key: str) -> None:
        raise TypeError("graph entities are never removed")

    def __iter__(self) -> Iterator[str]:
        yield from self.segments.spans.keys
        yield from (key for key in self.loaded if key not in self.segments.index)

    def __len__(self) -> int:
        return len(self.segments.index.keys() | self.loaded.keys())

    def __contains__(self, key: object) -> bool:
        return key in self.loaded or key in self.segments.index



class GraphMerge:
    """The graph as plain dicts (the file's JSON shape) keyed by the spec's dedup keys: every add
    is O(1), first seen wins. Dicts, not models: a graph of 100,000+ observations is loaded,
    merged and written without building a pydantic object per observation; what enters is
    validated (load_graph_data on the way in, the registry's names, GraphRelation's type rule).
    With `segments` (the graph file as distill last wrote it) `graph` is its frame (stamp,
    relations, extra keys) and entities are read as the merge asks for them (LazyEntities)."""

    def __init__(self, graph: dict[str, Any], now_iso: str,
                 segments: GraphSegments | None = None) -> None:
        self.now_iso = now_iso
        self.stamp = graph["graphGeneratedAtUtc"]
        self.extra = {k: v for k, v in graph.items()
                      if k not in ("entities", "relations", SUPERSEDED_RELATIONS_KEY)}
        # Relations no current source states any more: kept, never deleted (see retire_asset).
        self.superseded_relations: list[dict[str, Any]] = list(graph.get(SUPERSEDED_RELATIONS_KEY) or [])
        self.entities: MutableMapping[str, dict[str, Any]] = (
            LazyEntities(segments) if segments is not None else {})
        for entity in graph.get("entities") or ():
            _with_lists(entity)
            key = entity_key(entity["entityName"])
            kept = self.entities.get(key)
            if kept is None:
                self.entities[key] = entity
            else:  # a hand-merged duplicate: fold it into the first
                kept["observations"].extend(entity["observations"])
                kept["observationProvenance"].extend(entity["observationProvenance"])
                kept["supersededObservations"].extend(entity["supersededObservations"])
        self.relations: dict[str, dict[str, Any]] = {}
        self.pairs: set[tuple[str, str]] = set()
        for relation in graph["relations"]:
            source = entity_key(relation["sourceEntityName"])
            target = entity_key(relation["targetEntityName"])
            key = f"{source}|{entity_key(relation['relationType'])}|{target}"
            if key not in self.relations:
                self.relations[key] = relation
                self.pairs.add((source, target))
        self._observed: dict[str, set[str]] = {}
        self._superseded_text: dict[str, set[str]] = {}
        self._provenance: dict[str, set[tuple[str, str, int, int]]] = {}
        self.touched: set[str] = set()
        self._by_origin: dict[str, list[str]] | None = None  # see _relations_from
        # raw asset id -> keys of the entities whose provenance named it when read (built on
        # the first call of _holding) or gained it in this run (observe_in): see _holding
        self._by_asset: dict[str, set[str]] | None = None
        self._gained: dict[str, set[str]] = {}
        self.reinstatable: dict[str, frozenset[str]] = {}  # DistillPlan.reverted_pages
        self.reinstated = 0
        # Plain int counters (a pydantic attribute assignment per observation costs ~0.2 s on
        # 100,000 of them); `delta` builds the report's GraphDelta once.
        self.counts = dict.fromkeys(GraphDelta.model_fields, 0)

    @property
    def delta(self) -> GraphDelta:
        return GraphDelta(**self.counts)

    def entity(self, entry: RegistryEntry) -> dict[str, Any]:
        key = entity_key(entry.canonicalName)
        entity = self.entities.get(key)
        if entity is None:
            entity = {
                "entityName": entry.canonicalName,
                "entityType": entry.entityType,
                "observations": [],
                "observationProvenance": [],
                "supersededObservations": [],
            }
            self.entities[key] = entity
            self.counts["entities_added_count"] += 1
            self.touched.add(key)
        elif entity["entityType"] != entry.entityType:
            entity["entityType"] = entry.entityType
            self.touched.add(key)
        return entity

    def _observed_set(self, key: str, entity: dict[str, Any]) -> set[str]:
        seen = self._observed.get(key)
        if seen is None:
            seen = self._observed[key] = {text.strip() for text in entity["observations"]}
            self._superseded_text[key] = {
                s["observation"].strip() for s in entity["supersededObservations"]
            }
            self._provenance[key] = {
                (p["observation"], p["rawAssetId"], p["lineStart"], p["lineEnd"])
                for p in entity["observationProvenance"]
            }
        return seen

    def observe_in(self, entity: dict[str, Any], key: str, fact: ObservationFact,
                   source: SourceRef) -> None:
        """Add an observation of `source` to `entity` (its key `key`), with its provenance."""
        seen = self._observed.get(key)
        if seen is None:
            seen = self._observed_set(key, entity)
        text = fact.text.strip()
        if text in self._superseded_text[key] and not self._reinstate(entity, key, text, source):
            return  # a superseded fact stays superseded (unless its own version came back)
        if text not in seen:
            seen.add(text)
            entity["observations"].append(text)
            self.counts["observations_added_count"] += 1
            self.touched.add(key)
        start, end, typed = fact.line_start, fact.line_end, fact.typed
        where = (text, source.asset_id, start, end)
        if where not in self._provenance[key]:
            self._provenance[key].add(where)
            self._gained.setdefault(source.asset_id, set()).add(key)
            # ObservationProvenance's fields, in its order; line numbers kept >= 1.
            entity["observationProvenance"].append(
                {
                    "observation": text,
                    "sourcePage": source.source_page,
                    "rawAssetId": source.asset_id,
                    "lineStart": max(start, 1),
                    "lineEnd": max(end, start, 1),
                    **({STORE_RECORD_KEY: typed} if typed else {}),
                }
            )
            self.touched.add(key)

    def _reinstate(self, entity: dict[str, Any], key: str, text: str, source: SourceRef) -> bool:
        """Make active again a fact that a later version of its source retired, now that the
        source was reverted to the version that states it (every superseded entry of the text
        must be such a retirement). The entries move to REINSTATED_KEY with when and why."""
        pages = self.reinstatable.get(source.asset_id)
        if not pages:
            return False
        mine = [s for s in entity["supersededObservations"] if s["observation"].strip() == text]
        if not mine or not all(s.get("rawAssetId") == source.asset_id and s.get("supersededBy") in pages
                               for s in mine):
            return False
        entity["supersededObservations"] = [
            s for s in entity["supersededObservations"] if s["observation"].strip() != text]
        history = entity.setdefault(REINSTATED_KEY, [])
        for old in mine:
            history.append({**old, "reinstatedAtUtc": self.now_iso, "reinstatedBy": source.source_page,
                            "reinstatedReason": "its source was reverted to the version that states it"})
        self._superseded_text[key].discard(text)
        self.reinstated += 1
        self.touched.add(key)
        return True

    def repage(self, asset_id: str, page: str) -> None:
        """Evidence from a reinstated raw asset names its current page, the revert's (facts the
        intermediate version also stated kept the earlier page of the same bytes)."""
        for key in self._holding(asset_id):
            for where in self.entities[key]["observationProvenance"]:
                if where["rawAssetId"] == asset_id and where["sourcePage"] != page:
                    where["sourcePage"] = page
                    self.touched.add(key)
        for key in self._relations_from(asset_id):
            relation = self.relations[key]
            origins = _origins(relation)
            if any(o.get("rawAssetId") == asset_id and o.get("sourcePage") != page for o in origins):
                for origin in origins:
                    if origin.get("rawAssetId") == asset_id:
                        origin["sourcePage"] = page
                relation[RELATION_ORIGINS_KEY] = sorted(
                    origins, key=lambda o: (str(o.get("sourcePage")), str(o.get("rawAssetId"))))

    def retire_fact(self, entity: dict[str, Any], fact: SupersededFact, source: SourceRef,
                    by: str | None) -> None:
        """A fact its source marks retired: supersede it if active, else record it superseded
        (once) with its provenance, so source history stays reachable."""
        key = entity_key(entity["entityName"])
        self._observed_set(key, entity)
        origin = {"observation": fact.text, "sourcePage": source.source_page,
                  "rawAssetId": source.asset_id, "lineStart": max(fact.line_start, 1),
                  "lineEnd": max(fact.line_end, fact.line_start, 1)}
        if fact.text in self._observed[key]:
            if self.supersede(key, fact.text, by=by, reason=fact.reason, origin=[origin]) and fact.typed:
                entity["supersededObservations"][-1][STORE_RECORD_KEY] = fact.typed
            return
        if fact.text in self._superseded_text[key]:
            return
        entry = SupersededObservation(
            observation=fact.text, supersededAtUtc=self.now_iso, supersededBy=by,
            reason=fact.reason, **{k: v for k, v in origin.items() if k != "observation"},
        ).model_dump(mode="json")
        if fact.typed:
            entry[STORE_RECORD_KEY] = fact.typed
        entity["supersededObservations"].append(entry)
        self._superseded_text[key].add(fact.text)
        self.counts["superseded_records_count"] += 1
        self.touched.add(key)

    def relate(self, source: RegistryEntry, relation_type: str, target: RegistryEntry,
               origin: SourceRef | None = None) -> None:
        """Add a relation (first seen wins) and note `origin`, the source that states it."""
        source_key, target_key = entity_key(source.canonicalName), entity_key(target.canonicalName)
        if source_key == target_key:
            return
        self._by_origin = None  # an origin may be added
        key = f"{source_key}|{entity_key(relation_type)}|{target_key}"  # the spec's relation key
        known = self.relations.get(key)
        if known is not None:
            if origin is not None:
                _note_origin(known, origin)
            return
        if not _RELATION_TYPE_RE.fullmatch(relation_type):
            GraphRelation(  # raises the contract's error for a bad relation type
                sourceEntityName=source.canonicalName,
                targetEntityName=target.canonicalName,
                relationType=relation_type,
            )
        self.entity(source)
        self.entity(target)
        self.relations[key] = relation = {
            "sourceEntityName": source.canonicalName,
            "targetEntityName": target.canonicalName,
            "relationType": relation_type,
        }
        if origin is not None:
            _note_origin(relation, origin)
        self.pairs.add((source_key, target_key))
        self.counts["relations_added_count"] += 1
        self.touched.update({source_key, target_key})

    def supersede(
        self,
        key: str,
        text: str,
        *,
        by: str | None,
        reason: str,
        origin: list[dict[str, Any]] | None = None,
    ) -> bool:
        """Move an active observation to supersededObservations (never deleted)."""
        entity = self.entities.get(key)
        if entity is None:
            return False
        seen = self._observed_set(key, entity)
        if text not in seen:
            return False
        seen.discard(text)
        entity["observations"] = [o for o in entity["observations"] if o.strip() != text]
        origin = (origin or []) + [
            p for p in entity["observationProvenance"] if p["observation"] == text
        ]
        entity["observationProvenance"] = [
            p for p in entity["observationProvenance"] if p["observation"] != text
        ]
        extra: dict[str, object] = {}
        if origin:
            first = min(origin, key=lambda p: (p["sourcePage"], p["lineStart"]))
            extra = {
                "sourcePage": first["sourcePage"],
                "rawAssetId": first["rawAssetId"],
                "lineStart": first["lineStart"],
                "lineEnd": first["lineEnd"],
            }
        entity["supersededObservations"].append(
            SupersededObservation(
                observation=text,
                supersededAtUtc=self.now_iso,
                supersededBy=by,
                reason=reason,
                **extra,
            ).model_dump(mode="json")
        )
        self._superseded_text[key].add(text)
        self.counts["superseded_records_count"] += 1
        self.touched.add(key)
        return True

    def retire_asset(self, old_asset: str, replacement: RawAsset) -> None:
        """Facts only the old version of a source supported become superseded by the new one."""
        for key in self._holding(old_asset):
            entity = self.entities[key]
            if not any(p["rawAssetId"] == old_asset for p in entity["observationProvenance"]):
                continue
            self._observed_set(key, entity)
            old_provenance = [
                p for p in entity["observationProvenance"] if p["rawAssetId"] == old_asset
            ]
            old_texts = {p["observation"] for p in old_provenance}
            entity["observationProvenance"] = [
                p for p in entity["observationProvenance"] if p["rawAssetId"] != old_asset
            ]
            self._provenance[key] = {k for k in self._provenance[key] if k[1] != old_asset}
            self.touched.add(key)
            still = {p["observation"] for p in entity["observationProvenance"]}
            for text in sorted(old_texts - still):
                self.supersede(
                    key,
                    text,
                    by=replacement.sourcePage,
                    reason="the new version of its source no longer states it",
                    origin=[p for p in old_provenance if p["observation"] == text],
                )
        self._retire_relations(old_asset, replacement)

    def _holding(self, asset_id: str) -> list[str]:
        """Keys of the entities whose provenance may name raw asset `asset_id` (sorted): those
        that named it when read (the graph file's recorded spans when read by entity, else one
        pass over the entities on the first call) and those that gained it in this run. A
        superset of the truth (retiring and superseding only remove provenance), so a revert's
        repage and the retirement of each replaced version cost the entities of that version,
        not every entity of the graph times every version."""
        if self._by_asset is None:
            self._by_asset = {}
            if not isinstance(self.entities, LazyEntities):
                for key, entity in self.entities.items():
                    for where in entity["observationProvenance"]:
                        self._by_asset.setdefault(str(where["rawAssetId"]), set()).add(key)
        read = (self.entities.segments.with_asset(asset_id)
                if isinstance(self.entities, LazyEntities) else self._by_asset.get(asset_id, ()))
        return sorted({*read, *self._gained.get(asset_id, ())})

    def _relations_from(self, asset_id: str) -> list[str]:
        """Keys of the relations an origin of raw asset `asset_id` states. Indexed in one pass
        on the first call (a merge retires its replaced versions last, and retiring only
        removes origins, so the index stays a superset of the truth)."""
        if self._by_origin is None:
            self._by_origin = {}
            for key, relation in self.relations.items():
                for origin in _origins(relation):
                    self._by_origin.setdefault(str(origin.get("rawAssetId")), []).append(key)
        return [key for key in dict.fromkeys(self._by_origin.get(asset_id, ()))
                if key in self.relations]

    def _retire_relations(self, old_asset: str, replacement: RawAsset) -> None:
        """Relations only the old version stated move to supersededRelations. Relations with
        no recorded origin (hand-written, or distilled before origins were kept) stay."""
        retired = False
        for key in self._relations_from(old_asset):  # graph() sorts; no order needed here
            relation = self.relations[key]
            origins = _origins(relation)
            old = [o for o in origins if o.get("rawAssetId") == old_asset]
            if not old:
                continue
            kept = [o for o in origins if o.get("rawAssetId") != old_asset]
            if kept:
                relation[RELATION_ORIGINS_KEY] = kept
                continue
            del self.relations[key]
            retired = True
            entry = {name: value for name, value in relation.items() if name != RELATION_ORIGINS_KEY}
            entry.update(supersededAtUtc=self.now_iso, supersededBy=replacement.sourcePage,
                         reason="the new version of its source no longer states it",
                         sourcePage=old[0].get("sourcePage"), rawAssetId=old_asset)
            self.superseded_relations.append(entry)
            self.counts["superseded_records_count"] += 1
            self.touched.update({entity_key(relation["sourceEntityName"]),
                                 entity_key(relation["targetEntityName"])})
        if retired:
            self.pairs = {(entity_key(r["sourceEntityName"]), entity_key(r["targetEntityName"]))
                          for r in self.relations.values()}

    def graph(self) -> dict[str, Any]:
        """The normalized graph in the file's JSON shape (normalize_graph_data)."""
        return self._normalized(list(self.entities.values()))

    def _normalized(self, entities: list[dict[str, Any]]) -> dict[str, Any]:
        extra = {k: v for k, v in self.extra.items() if k != "graphGeneratedAtUtc"}
        if self.superseded_relations:
            extra[SUPERSEDED_RELATIONS_KEY] = sorted(
                self.superseded_relations,
                key=lambda r: (relation_data_key(r), str(r.get("supersededAtUtc")),
                               str(r.get("supersededBy") or "")),
            )
        return normalize_graph_data(
            {"graphGeneratedAtUtc": self.stamp, "entities": entities, "relations": [], **extra},
            keyed_relations=self.relations)  # (keyed as relation_data_key keys them)

    @property
    def segments(self) -> GraphSegments | None:
        """The graph file's spans when the merge reads entities from it (LazyEntities)."""
        return self.entities.segments if isinstance(self.entities, LazyEntities) else None

    def changes(self) -> tuple[dict[str, dict[str, Any]], dict[str, Any]]:
        """What graph() would give for the touched entities (entity key -> normalized entity)
        and the rest of the document after `entities` (relations, extra keys). Every entity
        not touched is as it was read: normalized already in a file distill wrote."""
        touched = [self.entities[key] for key in sorted(self.touched) if key in self.entities]
        data = self._normalized(touched)
        changed = {entity_key(entity["entityName"]): entity for entity in data["entities"]}
        return changed, {k: v for k, v in data.items() if k not in ("graphGeneratedAtUtc", "entities")}


def _origins(relation: dict[str, Any]) -> list[dict[str, Any]]:
    origins = relation.get(RELATION_ORIGINS_KEY)
    if not isinstance(origins, list):
        return []
    return [o for o in origins if isinstance(o, dict)]


def _note_origin(relation: dict[str, Any], origin: SourceRef) -> None:
    """Record that `origin` states this relation (sorted, once per raw asset)."""
    origins = _origins(relation)
    if any(o.get("rawAssetId") == origin.asset_id for o in origins):
        return
    origins.append({"sourcePage": origin.source_page, "rawAssetId": origin.asset_id})
    relation[RELATION_ORIGINS_KEY] = sorted(origins, key=lambda o: (str(o.get("sourcePage")),
                                                                   str(o.get("rawAssetId"))))



# --------------------------------------------------------------------------- merge_extractions

# Sources read in earlier runs that mention any of `names` (surface form -> canonical name),
# excluding the assets `read_now`: read again for their mentions only (tasks/distill/plan.py).
EarlierSources = Callable[[Mapping[str, str], AbstractSet[str]], list[Extraction]]


@dataclass(frozen=True)
class MergeInputs:
    """The memory a merge starts from, loaded: the graph file's data, the registry, the
    forgotten topics, and the operation's time."""

    graph: dict[str, Any]
    registry: LoadedRegistry
    forgotten: Forgotten
    now_iso: str
    segments: GraphSegments | None = None  # then `graph` is the file's frame (GraphMerge)


@dataclass
class MergeResult:
    merge: GraphMerge  # the merged graph (merge.graph() normalizes it), touched entity keys
    resolver: Resolver  # the registry after the merge
    warnings: list[str]  # consistency warnings (names rejected as non-meaningful)
    unresolved: dict[str, PendingLinks]  # raw asset -> record links that resolve to no record
    # raw asset -> (its folder/stem, the entity) of each plain document of this run (DistilledSource)
    documents: dict[str, tuple[str, str]] = field(default_factory=dict)
    # raw asset -> (the entity, its entry keys) of each decision log of this run (DistilledSource)
    entry_keys: dict[str, tuple[str, tuple[str, ...]]] = field(default_factory=dict)


@dataclass
class ResolvedSource:
    extraction: Extraction
    subject: RegistryEntry


def merge_extractions(memory: MergeInputs, extractions: Sequence[Extraction], plan: DistillPlan,
                      earlier: EarlierSources) -> MergeResult:
    """Merge `extractions` (in their `order`) into the graph and the registry; supersede what
    the sources replaced. No I/O but through `earlier`, the port to sources read in earlier
    runs; record links that resolve to nothing are added to their extraction's candidates."""
    merge = GraphMerge(memory.graph, memory.now_iso, memory.segments)
    merge.reinstatable = plan.reverted_pages
    for extraction in extractions:
        if extraction.source.asset_id in plan.reverted_pages:
            merge.repage(extraction.source.asset_id, extraction.source.source_page)
    merger = _Merger(merge, Resolver(memory.registry, memory.forgotten), memory.forgotten)
    date_warnings = settle_log_dates(extractions)
    merger.subjects(extractions)  # pass 1, so links between sources of this run resolve to them
    merger.statements(_record_replacements(extractions, merge))  # pass 2
    # Sources distilled in earlier runs that mention a name first registered in this run join
    # pass 3, as they would have had both been distilled in one run. Without them a mention
    # would depend on batching: one ingest of two folders relates a source to a name the other
    # folder brings; two ingests would not.
    read_now = {extraction.source.asset_id for extraction in extractions}
    resolver = merger.resolver
    merger.subjects(earlier(resolver.new_mention_names(), read_now))
    unresolved = merger.record_links(plan, read_now)
    merger.mentions()  # pass 3, now that every name of this run is known
    _retire_replaced_versions(merge, plan, read_now)
    _supersede_records(merge, merger.resolved)
    return MergeResult(merge, resolver, [*_rejected_names(extractions), *date_warnings], unresolved,
                       merger.documents, merger.entry_keys)


def _rejected_names(extractions: Sequence[Extraction]) -> list[str]:
    return [f"{extraction.source.source_page}: rejected non-meaningful name {name!r}"
            + (f"; its facts are kept on {extraction.subject.ref.names[0]!r}"
               if extraction.subject is not None and index == 0 else "")
            for extraction in extractions
            for index, name in enumerate(extraction.rejected_names)]


def _record_replacements(extractions: Sequence[Extraction], merge: GraphMerge) -> dict[str, str]:
    """Old record id -> the id that replaces it, stated by this run's stores (or, for a
    retired fact that names no replacement, by observations already in the graph)."""
    replaced_by = {old: new for e in extractions for old, new in e.replaced_by.items()}
    if any(f.record_id not in replaced_by and not f.by
           for e in extractions for f in e.superseded_facts):
        replaced_by = {**replacements_in_graph(merge.entities.values()), **replaced_by}
    return replaced_by


# The entity types a document may be about by a term the registry already holds.
SUBJECT_TYPES = frozenset({"technology", "system", "service", "component", "team"})
# The entity types a document is about when it writes their registered name in full, once.
NAMED_TYPES = frozenset({"person", "team"})
# A code span's candidate (tasks/extract/candidates.py).
CODE_TERM = "code_term"
# Lines a registered subject is named on before the document is about it rather than mentions it.
ABOUT_MENTIONS = 2


def is_bare(extraction: Extraction) -> bool:
    """A plain document that states no fact: not worth an entity unless it mentions one."""
    subject = extraction.subject
    return (
        subject is not None
        and subject.ref.entity_type == SUBJECT_DOCUMENT_TYPE
        and not extraction.is_decision_record
        and not extraction.observations
        and not extraction.relations
        and not extraction.entities
        and not subject.aliases
        and not extraction.record_links
    )


@dataclass
class _Merger:
    """The passes of one merge, over the sources resolved so far."""

    merge: GraphMerge
    resolver: Resolver
    forgotten: Forgotten
    resolved: list[ResolvedSource] = field(default_factory=list)
    bare: list[Extraction] = field(default_factory=list)  # entities only if they mention one
    documents: dict[str, tuple[str, str]] = field(default_factory=dict)  # plain_documents()
    entry_keys: dict[str, tuple[str, tuple[str, ...]]] = field(default_factory=dict)  # log_entry_keys()

    def subjects(self, extractions: Sequence[Extraction]) -> None:
        """Resolve each source's subject (a log's index or template page has none)."""
        for extraction in extractions:
            if extraction.subject is None:
                continue
            if is_bare(extraction):
                self.bare.append(extraction)
                continue
            entry = self.resolver.resolve_subject(extraction)
            if entry is not None:
                self.resolved.append(ResolvedSource(extraction, entry))

    def statements(self, replaced_by: Mapping[str, str]) -> None:
        """What each resolved source states: named entities, relations, observations (its
        subject's and other entities'), and facts it retires."""
        for item in self.resolved:
            facts = {fact.ref: fact for fact in item.extraction.entities}
            subject_entity = self.merge.entity(item.subject)  # created first, as before its facts
            for fact in item.extraction.entities:
                self._endpoint(fact.ref, item, facts)
            self._relations(item, facts)
            self._observations(item, facts, subject_entity)
            for retired in item.extraction.superseded_facts:
                if not self.forgotten.mentions_forgotten(retired.text):
                    self.merge.retire_fact(subject_entity, retired, item.extraction.source,
                                           replaced_by.get(retired.record_id or "") or retired.by)

    def _endpoint(self, ref: NameRef, item: ResolvedSource,
                  facts: Mapping[NameRef, EntityFact]) -> RegistryEntry | None:
        subject = item.extraction.subject
        if subject is not None and ref is subject.ref:
            return item.subject
        fact = facts.get(ref)
        return self.resolver.resolve(ref, aliases=fact.aliases if fact else (),
                                     explicit_type=bool(fact and fact.explicit_type))

    def _relations(self, item: ResolvedSource, facts: Mapping[NameRef, EntityFact]) -> None:
        for relation in item.extraction.relations:
            source = self._endpoint(relation.source, item, facts)
            target = self._endpoint(relation.target, item, facts)
            if source is not None and target is not None:
                self.merge.relate(source, relation.relation_type, target, item.extraction.source)

    def _observations(self, item: ResolvedSource, facts: Mapping[NameRef, EntityFact],
                      subject_entity: dict[str, Any]) -> None:
        merge, forgotten, source = self.merge, self.forgotten, item.extraction.source
        for ref, observation in item.extraction.entity_observations:
            other = self._endpoint(ref, item, facts)
            if other is not None and not forgotten.mentions_forgotten(observation.text):
                merge.observe_in(merge.entity(other), entity_key(other.canonicalName),
                                 observation, source)
        subject_key = entity_key(item.subject.canonicalName)
        for observation in item.extraction.observations:
            if not forgotten.mentions_forgotten(observation.text):
                merge.observe_in(subject_entity, subject_key, observation, source)

    def record_links(self, plan: DistillPlan, read_now: AbstractSet[str]) -> dict[str, PendingLinks]:
        """Record-to-record links, resolved against the decision records of each log (and the
        links earlier runs left unresolved). Returns those that still resolve to nothing."""
        resolver = self.resolver
        # (taken now: a bare page resolved later, by its mentions, is no link target in any run)
        self.documents = self.plain_documents()
        records = [(item.extraction, item.subject) for item in self.resolved
                   if item.extraction.record_key or item.extraction.document_key]
        mark_record_logs(records)
        self.entry_keys = self.log_entry_keys()
        pending = [(links, entry) for links in pending_record_links(
                       (source for _asset_id, source in plan.state.having("pendingRecordLinks")), read_now)
                   if (entry := resolver.find(links.subject)) is not None]
        if not pending and not any(extraction.record_links for extraction, _ in records):
            return {}
        documents = [(log, stem, entry) for log, stem, name in sorted(self._documents(plan, read_now))
                     if (entry := resolver.find(name)) is not None]
        # (RecordIndex takes the entries with a recordKey: those alone are made models)
        index = RecordIndex.build((entry for _key, entry in resolver.entries.having("recordKey")),
                                  documents)
        logs = [*self.entry_keys.values(), *self._earlier_entry_keys(plan, read_now)]
        for name, keys in sorted(logs):
            if (entry := resolver.find(name)) is not None:
                index.add_entry_keys(entry, keys)
        return apply_record_links(self.merge, records, pending, index, resolver)

    def log_entry_keys(self) -> dict[str, tuple[str, tuple[str, ...]]]:
        """Raw asset -> (entity name, entry keys) of this run's decision logs (DistilledSource)."""
        return {item.extraction.source.asset_id: (item.subject.canonicalName, tuple(keys))
                for item in self.resolved if (keys := item.extraction.entry_keys)}

    @staticmethod
    def _earlier_entry_keys(
        plan: DistillPlan, read_now: AbstractSet[str]
    ) -> list[tuple[str, tuple[str, ...]]]:
        """The entry keys of the decision logs earlier runs distilled (the distill state)."""
        return [(entry.entryEntity, tuple(entry.entryKeys))
                for asset_id, entry in plan.state.having("entryKeys")
                if asset_id not in read_now and entry.entryKeys and entry.entryEntity]

    def plain_documents(self) -> dict[str, tuple[str, str]]:
        """Raw asset -> (folder/stem, entity name) of this run's plain documents."""
        return {item.extraction.source.asset_id: (
                    posixpath.join(record_log(item.extraction.source), key), item.subject.canonicalName)
                for item in self.resolved if (key := item.extraction.document_key)}

    def _documents(self, plan: DistillPlan, read_now: AbstractSet[str]) -> set[tuple[str, str, str]]:
        """(folder, file stem, entity name) of every plain document: this run's, and those
        earlier runs distilled (the distill state), so a link finds a page by its file."""
        found = {(*posixpath.split(path), name) for path, name in self.documents.values()}
        found |= {(*posixpath.split(entry.documentKey), entry.documentEntity)
                  for asset_id, entry in plan.state.having("documentKey")
                  if asset_id not in read_now and entry.documentKey and entry.documentEntity}
        return found

    def mentions(self) -> None:
        """Bare sources that mention a registered name become entities; a document is about
        the registered systems its unsure subject terms name; every resolved source relates to
        the names it mentions, unless already related more precisely."""
        matcher = self.resolver.mention_matcher(  # (resolved grows from bare only, below)
            text for extraction in [*self.bare, *(item.extraction for item in self.resolved)]
            for _number, text in extraction.prose)
        found: dict[int, dict[str, list[int]]] = {}  # a bare source's mentions, by id: read once
        bare_resolved: list[ResolvedSource] = []
        for extraction in self.bare:
            found[id(extraction)] = mention_lines(extraction.prose, matcher)
            if found[id(extraction)] or self._known_terms(extraction):
                entry = self.resolver.resolve_subject(extraction)
                if entry is not None:
                    bare_resolved.append(ResolvedSource(extraction, entry))
        self.resolved.extend(bare_resolved)
        for item in self.resolved:
            for known in [*self._known_terms(item.extraction), *self._named_in_code(item.extraction)]:
                if known is not item.subject and self._may_mention(item, known, "about"):
                    self.merge.relate(item.subject, "about", known, item.extraction.source)
        for item in self.resolved:
            mentioned = found.get(id(item.extraction))
            if mentioned is None:
                mentioned = mention_lines(item.extraction.prose, matcher)
            if mentioned:
                self._relate_mentioned(item, mentioned)
        self._drop_unrelated(bare_resolved)

    def _drop_unrelated(self, bare_resolved: Sequence[ResolvedSource]) -> None:
        """A bare source whose mentions all proved asides (a common word: "Code" in a licence's
        "Source code") relates to nothing: it gets no graph entity, so it keeps no registry
        entry either (a registry entry with no entity is a reconcile finding)."""
        for item in bare_resolved:
            if entity_key(item.subject.canonicalName) in self.merge.entities:
                continue
            self.resolved.remove(item)
            self.resolver.unregister(item.subject)

    def _relate_mentioned(self, item: ResolvedSource, mentioned: Mapping[str, list[int]]) -> None:
        prose_of = dict(item.extraction.prose)
        visible: str | None = None  # the document's prose, joined when a common word asks
        for name in sorted(mentioned):
            target = self.resolver.find(name)
            if target is None:
                continue
            if common_capitalised(target.canonicalName) and not _in_title(
                    target.canonicalName, item.subject.canonicalName):
                # "Field", "Runs", "Pipeline": registered from a document that names them, and
                # an ordinary word in the others ("a JSONb field") unless written as a name
                # there, or the title's word ("Array result types" is about results)
                visible = visible if visible is not None else "\n".join(prose_of.values())
                if capital_only(target.canonicalName, visible):
                    continue
            # A registered subject written on two lines or more is one the document is about
            # (the registry as evidence: a term already an entity elsewhere), not an aside;
            # so is one written once where a sentence says what it did or is, not in passing.
            often = len(mentioned[name]) >= ABOUT_MENTIONS or named_in_a_sentence(
                prose_of.get(mentioned[name][0], ""), [target.canonicalName, *target.aliases])
            about = often and target.entityType in SUBJECT_TYPES or _named_in_full(
                target, [prose_of.get(number, "") for number in mentioned[name]])
            kind = "about" if about else "mentions"
            if self._may_mention(item, target, kind):
                self.merge.relate(item.subject, kind, target, item.extraction.source)

    def _known_terms(self, extraction: Extraction) -> list[RegistryEntry]:
        """The registered systems, services, components, technologies and teams that the
        document's unsure subject terms name (a term already an entity elsewhere)."""
        known: list[RegistryEntry] = []
        for names in extraction.subject_terms:
            found = [e for name in names if (e := self.resolver.find(name)) is not None]
            entry = found[0] if found else None
            if (entry is not None and entry.entityType in SUBJECT_TYPES and entry not in known
                    and not self.resolver.forgotten_entry(entry)):
                known.append(entry)
        return known

    def _named_in_code(self, extraction: Extraction) -> list[RegistryEntry]:
        """The registered systems the document writes by their name in a code span, the span
        the whole name (`docsight-ocr-jobs`, `booking-api`; not `kubectl get pods`): a team
        writes its own systems so, and prose, where mentions are found, leaves code out."""
        named: list[RegistryEntry] = []
        for candidate in extraction.candidates:
            if candidate.kind != CODE_TERM:
                continue
            entry = self.resolver.find(candidate.term)
            if (entry is not None and entry.entityType in SUBJECT_TYPES and entry not in named
                    and not self.resolver.forgotten_entry(entry)):
                named.append(entry)
        return named

    def _may_mention(self, item: ResolvedSource, target: RegistryEntry, relation_type: str) -> bool:
        if target is item.subject or self.resolver.forgotten_entry(target):
            return False
        if item.extraction.is_decision_record and target.entityType == DECISION_TYPE:
            return False  # records relate only by what they state (links, ids), not by names
        pair = (entity_key(item.subject.canonicalName), entity_key(target.canonicalName))
        if f"{pair[0]}|{relation_type}|{pair[1]}" in self.merge.relations:
            return True  # the same relation: this source is one more origin of it, in any order
        # already related more precisely (depends_on, supersedes, ...)?
        return pair not in self.merge.pairs and pair[::-1] not in self.merge.pairs


def _named_in_full(target: RegistryEntry, lines: Sequence[str]) -> bool:
    """Is a registered person or team written by its whole name of two words or more, as
    registered ("Ines Varga", "Fab Automation"), on one of `lines`? A name another document
    gave a role (an author, an owner, a responder) is one person or team, not an ordinary
    phrase: named in full even once (a participant, a reviewer, an escalation contact), the
    document is about them."""
    name = target.canonicalName
    if target.entityType not in NAMED_TYPES or len(name.split()) < 2 or not name[:1].isupper():
        return False
    whole = re.compile(rf"(?<![\w-]){re.escape(name)}(?![\w-])")
    return any(name in line and whole.search(line) for line in lines)


def _in_title(word: str, title: str) -> bool:
    """Is the common word `word` ("Results") a word of `title` ("Array result types"), singular
    or plural?"""
    stem = word.lower().removesuffix("s") if len(word) > 3 else word.lower()
    return re.search(rf"\b{re.escape(stem)}(?:e?s)?\b", title.lower()) is not None


def _retire_replaced_versions(merge: GraphMerge, plan: DistillPlan, read_ok: AbstractSet[str]) -> None:
    for old_asset, replacement in sorted(plan.replaced.items()):
        if replacement.assetId in read_ok:  # an unreadable new version retires nothing
            merge.retire_asset(old_asset, replacement)


def _supersede_records(merge: GraphMerge, resolved: Sequence[ResolvedSource]) -> None:
    """The decisions of a superseded record (by a `supersedes` relation, or its own status)
    become superseded observations."""
    superseded: dict[str, str | None] = {}
    for relation in merge.relations.values():
        if relation["relationType"] == "supersedes":
            superseded.setdefault(entity_key(relation["targetEntityName"]),
                                  relation["sourceEntityName"])
    for item in resolved:
        if item.extraction.record_superseded:
            superseded.setdefault(entity_key(item.subject.canonicalName), None)
    for key, by in sorted(superseded.items()):
        entity = merge.entities.get(key)
        if entity is None:
            continue
        reason = (f"the decision record was superseded by {by}" if by
                  else "the record's status says superseded")
        for text in [o for o in entity["observations"] if o.startswith(DECISION_PREFIX)]:
            merge.supersede(key, text, by=by, reason=reason)
