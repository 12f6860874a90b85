"""Distill: ingested sources -> entity pages, graph entities, observations and relations.

    plan_distill       which raw assets are new (or all, with --all); cheap: manifest + state only
    extract_batch      read raw text + extract_facts, per batch (pure; runs on a task runner)
    apply_distill      the single writer: resolve names through the registry, merge into the graph
                       (one dict-keyed pass), supersede what was replaced, write graph, registry,
                       entity pages, candidates inbox, distill state, hub, index.md and log.md

A run with nothing new reads only the manifest and the state and writes nothing.
"""

from __future__ import annotations

import hashlib
import re
import time
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from schemas.distill_inbox import CandidateEvidence, CandidateInbox, DistillCandidate, TombstoneList
from schemas.distill_state import DistilledSource, DistillState
from schemas.graph import (
    RELATION_ORIGINS_KEY,
    RELATION_TYPE_PATTERN,
    SUPERSEDED_RELATIONS_KEY,
    EntityRegistry,
    GraphRelation,
    RegistryEntry,
    SupersededObservation,
    entity_key,
    relation_data_key,
)
from schemas.raw_manifest import RawAsset, RawManifest
from schemas.report import ArtifactRecord, GraphDelta, MemoryOperationReport, Problem
from tasks.atomic import announce
from tasks.catalog import CatalogEntry, update_hub, update_index
from tasks.entity_pages import (
    ENTITY_HUB,
    EntityPageContext,
    entity_page_meta,
    entity_sources,
    merge_hand_sections,
    render_entity_body,
)
from tasks.errors import AmbiguousNameError, MembankError
from tasks.extract import (
    DECISION_TYPE,
    DEFAULT_LINKED_TYPE,
    SUBJECT_DOCUMENT_TYPE,
    EntityFact,
    Extraction,
    MentionMatcher,
    NameRef,
    SourceRef,
    SupersededFact,
    extract_facts,
    find_mentions,
    is_meaningful_name,
)
from tasks.graph_store import (
    empty_graph,
    empty_registry,
    graph_data,
    load_candidate_inbox,
    load_distill_state,
    load_graph_data,
    load_manifest,
    load_registry,
    load_tombstones,
    normalize_graph_data,
    normalize_registry,
    save_candidate_inbox,
    save_distill_state,
    save_graph_data,
    save_registry,
)
from tasks.html_source import HTML_SUFFIXES, html_to_markdown
from tasks.layout import MemoryLayout
from tasks.logbook import record_operation
from tasks.names import slug_from_title
from tasks.operation import Operation
from tasks.pages import split_page, write_page
from tasks.record_graph import (
    PENDING_KEY,
    PendingLinks,
    RecordIndex,
    apply_record_links,
    mark_record_logs,
    pending_record_links,
)
from tasks.search.refresh import refresh_search_index
from tasks.stores.distill_store import (
    STORE_RECORD_KEY,
    merge_store_tombstones,
    replacements_in_graph,
)
from tasks.stores.extract import extract_store_file
from tasks.versions import REINSTATED_KEY, current_of_reverted, replaced_asset_ids, version_pages

DECISION_PREFIX = "Decision: "
MAX_CANDIDATE_EVIDENCE = 3
PAGE_KEY = "entityPage"  # registry extension: the entity's page, fixed at creation
RECORD_KEY = "recordKey"  # registry extension: a decision record's file stem
_RELATION_TYPE_RE = re.compile(RELATION_TYPE_PATTERN.removeprefix("^").removesuffix("$"))
PAGE_WRITE_THREADS = 8  # I/O bound (fsync): threads overlap the waits


# --------------------------------------------------------------------------- planning


@dataclass(frozen=True, slots=True)
class SourceInput:
    ref: SourceRef
    raw_file: Path
    store_role: str | None = None  # the raw asset's storeRole: read by tasks/stores/extract.py


@dataclass(slots=True)
class ExtractOutcome:
    extraction: Extraction | None
    problem: Problem | None = None


@dataclass
class DistillPlan:
    to_read: list[SourceInput] = field(default_factory=list)
    # old asset id -> the asset that replaces it (read in this run)
    replaced: dict[str, RawAsset] = field(default_factory=dict)
    # assets recorded without being read: superseded before they were ever distilled
    skipped: list[tuple[RawAsset, str]] = field(default_factory=list)
    state: dict[str, DistilledSource] = field(default_factory=dict)
    state_stamp: str | None = None
    problems: list[Problem] = field(default_factory=list)
    # asset id read as a reverted path's current version -> the source pages of every version
    # of that path: facts those versions retired come back when this one states them again
    reverted_pages: dict[str, frozenset[str]] = field(default_factory=dict)

    @property
    def empty(self) -> bool:
        return not self.to_read and not self.skipped


def plan_distill(layout: MemoryLayout, *, reread_all: bool = False) -> DistillPlan:
    """Which assets to read: new ones (not in the distill state), or every current one."""
    plan = DistillPlan()
    if not layout.raw_manifest_file.exists():
        return plan
    manifest = load_manifest(layout.raw_manifest_file)
    if layout.distill_state_file.exists():
        state = load_distill_state(layout.distill_state_file)
        plan.state = {entry.assetId: entry for entry in state.sources}
        plan.state_stamp = state.stateGeneratedAtUtc
    forgotten_assets = {str(i) for t in load_tombstones(layout.tombstones_file).tombstones
                        for i in (t.model_extra or {}).get("assetIds", [])}
    by_id = {asset.assetId: asset for asset in manifest.assets}
    replaced_by = {a.supersedesAssetId: a.assetId for a in manifest.assets if a.supersedesAssetId}
    reverted = current_of_reverted(manifest)
    if reverted:
        _plan_reverted(plan, layout, manifest, reverted, forgotten_assets, reread_all=reread_all)
    for asset in sorted(manifest.assets, key=lambda a: (a.rawPath, a.assetId)):
        if asset.originalPath in reverted:
            continue  # planned by _plan_reverted
        known = asset.assetId in plan.state
        if asset.assetId in replaced_by:
            if not known:
                plan.skipped.append((asset, replaced_by[asset.assetId]))
            continue
        if known and not reread_all:
            continue
        if asset.assetId in forgotten_assets:
            continue  # `membank forget` removed what it said; its raw copy is never read again
        if not asset.sourcePage:
            plan.problems.append(
                Problem(
                    file=asset.rawPath,
                    code="missing_source_page",
                    message="raw asset has no source page in the manifest, so its facts cannot be traced",
                    hint="re-run `membank ingest` for this source",
                )
            )
            continue
        ref = SourceRef(asset.assetId, asset.sourcePage, asset.rawPath, asset.originalPath)
        role = (asset.model_extra or {}).get("storeRole")
        plan.to_read.append(SourceInput(ref, layout.root / asset.rawPath,
                                        role if isinstance(role, str) else None))
        if not known:
            previous = asset.supersedesAssetId
            seen: set[str] = set()
            while previous and previous not in seen:
                seen.add(previous)
                if previous in plan.state:
                    plan.replaced[previous] = asset
                older = by_id.get(previous)
                previous = older.supersedesAssetId if older else None
    return plan


def _plan_reverted(plan: DistillPlan, layout: MemoryLayout, manifest: RawManifest, heads: dict[str, RawAsset],
                   forgotten_assets: set[str], *, reread_all: bool) -> None:
    """Paths that went back to earlier bytes (tasks/versions.py): the current version is read
    again when its source page is not the one distilled (a revert makes a new page), and the
    version it replaced is retired; every other version of the path is history."""
    by_id = {asset.assetId: asset for asset in manifest.assets}
    pages = version_pages(manifest)
    for asset in sorted(manifest.assets, key=lambda a: (a.rawPath, a.assetId)):
        head = heads.get(asset.originalPath)
        if head is not None and asset.assetId != head.assetId and asset.assetId not in plan.state:
            plan.skipped.append((asset, head.assetId))
    for path in sorted(heads):
        head = heads[path]
        known = plan.state.get(head.assetId)
        fresh = known is not None and known.sourcePage == head.sourcePage
        if (fresh and not reread_all) or head.assetId in forgotten_assets or not head.sourcePage:
            continue
        ref = SourceRef(head.assetId, head.sourcePage, head.rawPath, head.originalPath)
        role = (head.model_extra or {}).get("storeRole")
        plan.to_read.append(SourceInput(ref, layout.root / head.rawPath,
                                        role if isinstance(role, str) else None))
        plan.reverted_pages[head.assetId] = frozenset(pages.get(path, ()))
        previous, seen = head.supersedesAssetId, {head.assetId}
        while not fresh and previous and previous not in seen:
            seen.add(previous)
            if previous in plan.state:
                plan.replaced[previous] = head
            older = by_id.get(previous)
            previous = older.supersedesAssetId if older else None


def extract_batch(items: Sequence[SourceInput]) -> list[ExtractOutcome]:
    """Read each raw file once and extract its facts; a bad file is a problem, not a failure."""
    outcomes = []
    for item in items:
        try:
            text = item.raw_file.read_bytes().decode("utf-8")
            if item.raw_file.suffix.lower() in HTML_SUFFIXES:  # read as its source page shows it
                text = html_to_markdown(text).markdown
        except FileNotFoundError:
            outcomes.append(
                ExtractOutcome(
                    None,
                    Problem(
                        file=item.ref.raw_path,
                        code="raw_missing",
                        message="raw file listed in the manifest is missing",
                        hint="restore raw/ from git; raw files are never modified or deleted",
                    ),
                )
            )
            continue
        except UnicodeDecodeError as exc:
            outcomes.append(
                ExtractOutcome(
                    None,
                    Problem(
                        file=item.ref.raw_path,
                        code="raw_not_utf8",
                        message=f"invalid UTF-8 at byte {exc.start}",
                        hint="distill reads text sources only",
                    ),
                )
            )
            continue
        except OSError as exc:
            outcomes.append(
                ExtractOutcome(
                    None,
                    Problem(
                        file=item.ref.raw_path,
                        code="raw_unreadable",
                        message=f"cannot read: {exc.strerror}",
                    ),
                )
            )
            continue
        stored = extract_store_file(text, item.ref, item.store_role) if item.store_role else None
        if stored is not None:  # a memory store's file: its own structure, not prose
            outcomes.extend(ExtractOutcome(extraction) for extraction in stored)
            continue
        outcomes.append(ExtractOutcome(extract_facts(text, item.ref)))
    return outcomes


def batches(items: Sequence[SourceInput], size: int) -> list[list[SourceInput]]:
    return [list(items[start : start + size]) for start in range(0, len(items), size)]


def extract_serial(groups: list[list[SourceInput]]) -> list[ExtractOutcome]:
    return [outcome for group in groups for outcome in extract_batch(group)]


# --------------------------------------------------------------------------- forgetting


class Forgotten:
    """Tombstoned topics: entity names/aliases equal to a topic, observations containing one."""

    def __init__(self, tombstones: TombstoneList) -> None:
        topics = sorted({t.topic.strip().lower() for t in tombstones.tombstones if t.topic.strip()})
        self.topics = frozenset(topics)
        # Guards of a hard forget: the sha256 of the casefolded topic's words (never the topic).
        self.guards = frozenset(str((t.model_extra or {}).get("topicSha256"))
                                for t in tombstones.tombstones if (t.model_extra or {}).get("topicSha256"))
        self._pattern = (
            re.compile("|".join(rf"(?<!\w){re.escape(t)}(?!\w)" for t in topics), re.I)
            if topics
            else None
        )

    def name(self, *names: str) -> bool:
        if self.guards and any(_guard_of(n) in self.guards for n in names):
            return True
        return bool(self.topics) and any(n.strip().lower() in self.topics for n in names)

    def text(self, text: str) -> bool:
        if self.guards and _guarded_words(text, self.guards):
            return True
        return bool(self._pattern and self._pattern.search(text))


def _guard_of(text: str) -> str:
    return hashlib.sha256(" ".join(text.casefold().split()).encode("utf-8")).hexdigest()


def _guarded_words(text: str, guards: frozenset[str], longest: int = 6) -> bool:
    """Does any run of up to `longest` words of `text` hash to a guard? (Topics of a hard
    forget are kept only as hashes, so they are found by hashing what could be them.)"""
    words = re.findall(r"[\w'-]+", text.casefold())
    for size in range(1, longest + 1):
        for start in range(len(words) - size + 1):
            if _guard_of(" ".join(words[start:start + size])) in guards:
                return True
    return False


# --------------------------------------------------------------------------- resolution


class Resolver:
    """Names -> registry entries by the spec's canonicalKey / aliasKey; registers new ones."""

    def __init__(self, registry: EntityRegistry, forgotten: Forgotten) -> None:
        self.entries: dict[str, RegistryEntry] = {}
        self.lookup: dict[str, str] = {}
        self.forgotten = forgotten
        self.added: list[str] = []
        self.changed = False
        for entry in registry.entries:
            self.entries[entity_key(entry.canonicalName)] = entry
        for key in self.entries:
            self.lookup[key] = key
        for key, entry in self.entries.items():
            for alias in entry.aliases:
                self.lookup.setdefault(entity_key(alias), key)

    def find(self, name: str) -> RegistryEntry | None:
        key = self.lookup.get(entity_key(name))
        return self.entries[key] if key is not None else None

    def forgotten_entry(self, entry: RegistryEntry) -> bool:
        return self.forgotten.name(entry.canonicalName, *entry.aliases)

    def add_alias(self, entry: RegistryEntry, alias: str) -> None:
        key = entity_key(alias)
        if not is_meaningful_name(alias) or key in self.lookup:
            return
        entry.aliases.append(alias.strip())
        self.lookup[key] = entity_key(entry.canonicalName)
        self.changed = True

    def register(self, name: str, entity_type: str, aliases: Iterable[str] = ()) -> RegistryEntry:
        entry = RegistryEntry(
            canonicalName=name.strip(), aliases=[], entityType=entity_type or DEFAULT_LINKED_TYPE
        )
        key = entity_key(entry.canonicalName)
        self.entries[key] = entry
        self.lookup[key] = key
        self.added.append(key)
        self.changed = True
        for alias in aliases:
            self.add_alias(entry, alias)
        return entry

    def resolve(
        self, ref: NameRef, *, aliases: Sequence[str] = (), explicit_type: bool = False
    ) -> RegistryEntry | None:
        """The entry a name refers to (registering it when new); None when it was forgotten."""
        if self.forgotten.name(*ref.names, *aliases):
            return None
        for name in ref.names:
            entry = self.find(name)
            if entry is not None:
                if self.forgotten_entry(entry):
                    return None
                for alias in aliases:
                    self.add_alias(entry, alias)
                if (
                    explicit_type
                    and entry.entityType == DEFAULT_LINKED_TYPE
                    and ref.entity_type != entry.entityType
                ):
                    entry.entityType = ref.entity_type
                    self.changed = True
                return entry
        return self.register(ref.display, ref.entity_type, [*aliases, *ref.names[1:]])

    def resolve_subject(self, extraction: Extraction) -> RegistryEntry | None:
        subject = extraction.subject
        assert subject is not None
        if extraction.record_key is None:
            return self.resolve(
                subject.ref, aliases=subject.aliases, explicit_type=subject.explicit_type
            )
        # A decision record is identified by its file; two records may share a title.
        record = extraction.record_key
        if self.forgotten.name(subject.ref.display, *subject.aliases):
            return None
        by_record = self.find(record)
        if by_record is not None:
            if self.forgotten_entry(by_record):
                return None
            self.add_alias(by_record, subject.ref.display)
            self._mark_record(by_record, record)
            return by_record
        by_title = self.find(subject.ref.display)
        if by_title is not None and self.forgotten_entry(by_title):
            return None
        if by_title is not None and getattr(by_title, RECORD_KEY, None) in (None, record):
            for alias in subject.aliases:
                self.add_alias(by_title, alias)
            if by_title.entityType == DEFAULT_LINKED_TYPE:
                by_title.entityType = DECISION_TYPE
            self._mark_record(by_title, record)
            return by_title
        name = subject.ref.display if by_title is None else f"{subject.ref.display} ({record})"
        entry = self.register(name, DECISION_TYPE, subject.aliases)
        self._mark_record(entry, record)
        return entry

    def _mark_record(self, entry: RegistryEntry, record: str) -> None:
        if getattr(entry, RECORD_KEY, None) != record and getattr(entry, RECORD_KEY, None) is None:
            setattr(entry, RECORD_KEY, record)
            self.changed = True

    def mention_matcher(self) -> MentionMatcher:
        names: dict[str, str] = {}
        for entry in self.entries.values():
            if entry.entityType == SUBJECT_DOCUMENT_TYPE or self.forgotten_entry(entry):
                continue
            names.setdefault(entry.canonicalName, entry.canonicalName)
            for alias in entry.aliases:
                if alias != getattr(entry, RECORD_KEY, None):
                    names.setdefault(alias, entry.canonicalName)
        return MentionMatcher(names)

    def registry(self, now_iso: str, stamp: str | None) -> EntityRegistry:
        return EntityRegistry(
            registryGeneratedAtUtc=stamp or now_iso, entries=list(self.entries.values())
        )


# --------------------------------------------------------------------------- graph merge


class GraphMerge:
    """The graph as plain dicts (the file's JSON shape) keyed by the spec's dedup keys: every add
    is O(1), first seen wins. Dicts, not models: a graph of 100,000+ observations is loaded,
    merged and written without building a pydantic object per observation; what enters is
    validated (load_graph_data on the way in, the registry's names, GraphRelation's type rule)."""

    def __init__(self, graph: dict[str, Any], now_iso: str) -> None:
        self.now_iso = now_iso
        self.stamp = graph["graphGeneratedAtUtc"]
        self.extra = {k: v for k, v in graph.items()
                      if k not in ("entities", "relations", SUPERSEDED_RELATIONS_KEY)}
        # Relations no current source states any more: kept, never deleted (see retire_asset).
        self.superseded_relations: list[dict[str, Any]] = list(graph.get(SUPERSEDED_RELATIONS_KEY) or [])
        self.entities: dict[str, dict[str, Any]] = {}
        for entity in graph["entities"]:
            entity.setdefault("observations", [])
            entity.setdefault("observationProvenance", [])
            entity.setdefault("supersededObservations", [])
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

    def observe(
        self, entry: RegistryEntry, text: str, source: SourceRef, start: int, end: int
    ) -> None:
        entity = self.entity(entry)
        self.observe_in(entity, entity_key(entity["entityName"]), text, source, start, end)

    def observe_in(
        self, entity: dict[str, Any], key: str, text: str, source: SourceRef, start: int, end: int,
        typed: dict[str, Any] | None = None,
    ) -> None:
        seen = self._observed.get(key)
        if seen is None:
            seen = self._observed_set(key, entity)
        text = text.strip()
        if text in self._superseded_text[key] and not self._reinstate(entity, key, text, source):
            return  # a superseded fact stays superseded (unless its own version came back)
        if text not in seen:
            seen.add(text)
            entity["observations"].append(text)
            self.counts["observations_added_count"] += 1
            self.touched.add(key)
        where = (text, source.asset_id, start, end)
        if where not in self._provenance[key]:
            self._provenance[key].add(where)
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
        for key, entity in self.entities.items():
            for where in entity["observationProvenance"]:
                if where["rawAssetId"] == asset_id and where["sourcePage"] != page:
                    where["sourcePage"] = page
                    self.touched.add(key)
        for relation in self.relations.values():
            origins = _origins(relation)
            if any(o.get("rawAssetId") == asset_id and o.get("sourcePage") != page for o in origins):
                for origin in origins:
                    if origin.get("rawAssetId") == asset_id:
                        origin["sourcePage"] = page
                relation[RELATION_ORIGINS_KEY] = sorted(
                    origins, key=lambda o: (str(o.get("sourcePage")), str(o.get("rawAssetId"))))

    def retire_fact(self, entity: dict[str, Any], key: str, fact: SupersededFact,
                    source: SourceRef, by: str | None) -> None:
        """A fact its source marks retired: supersede it if active, else record it superseded
        (once) with its provenance, so source history stays reachable."""
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
        for key, entity in self.entities.items():
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

    def _retire_relations(self, old_asset: str, replacement: RawAsset) -> None:
        """Relations only the old version stated move to supersededRelations. Relations with
        no recorded origin (hand-written, or distilled before origins were kept) stay."""
        retired = False
        for key, relation in list(self.relations.items()):  # graph() sorts; no order needed here
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
        extra = {k: v for k, v in self.extra.items() if k != "graphGeneratedAtUtc"}
        if self.superseded_relations:
            extra[SUPERSEDED_RELATIONS_KEY] = sorted(
                self.superseded_relations,
                key=lambda r: (relation_data_key(r), str(r.get("supersededAtUtc")),
                               str(r.get("supersededBy") or "")),
            )
        return normalize_graph_data(
            {
                "graphGeneratedAtUtc": self.stamp,
                "entities": list(self.entities.values()),
                "relations": list(self.relations.values()),
                **extra,
            }
        )


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


# --------------------------------------------------------------------------- apply


@dataclass
class _Resolved:
    extraction: Extraction
    subject: RegistryEntry


def apply_distill(
    operation: Operation,
    plan: DistillPlan,
    outcomes: list[ExtractOutcome],
    *,
    timings: dict[str, float] | None = None,
) -> MemoryOperationReport:
    """The single writer: merge every extraction, then write each file once."""
    layout, now, report = operation.layout, operation.now_iso, operation.report
    timings = {} if timings is None else timings
    started = time.perf_counter()
    report.problems.extend(plan.problems)
    registry = (
        load_registry(layout.registry_file)
        if layout.registry_file.exists()
        else empty_registry(now)
    )
    graph = (
        load_graph_data(layout.graph_file)
        if layout.graph_file.exists()
        else graph_data(empty_graph(now))
    )
    forgotten = Forgotten(load_tombstones(layout.tombstones_file))
    resolver = Resolver(registry, forgotten)
    merge = GraphMerge(graph, now)
    merge.reinstatable = plan.reverted_pages
    warnings: list[str] = []

    extractions: list[Extraction] = []
    for outcome in outcomes:
        if outcome.problem is not None:
            report.problems.append(outcome.problem)
        elif outcome.extraction is not None:
            extractions.append(outcome.extraction)
    extractions.sort(key=lambda extraction: extraction.order)  # stable: registries first
    for extraction in extractions:
        if extraction.source.asset_id in plan.reverted_pages:
            merge.repage(extraction.source.asset_id, extraction.source.source_page)
    if any(extraction.tombstones for extraction in extractions):  # forgotten before anything
        forgotten = resolver.forgotten = Forgotten(
            merge_store_tombstones(operation, extractions))

    # Pass 1: subjects (so links between sources of this run resolve to them).
    resolved: list[_Resolved] = []
    bare: list[Extraction] = []
    for extraction in extractions:
        for name in extraction.rejected_names:
            warnings.append(
                f"{extraction.source.source_page}: rejected non-meaningful name {name!r}"
            )
        if extraction.subject is None:
            continue
        if _is_bare(extraction):
            bare.append(extraction)  # an entity only if it turns out to mention known ones
            continue
        entry = resolver.resolve_subject(extraction)
        if entry is not None:
            resolved.append(_Resolved(extraction, entry))

    replaced_by = {old: new for e in extractions for old, new in e.replaced_by.items()}
    if any(f.record_id not in replaced_by and not f.by for e in extractions for f in e.superseded_facts):
        replaced_by = {**replacements_in_graph(merge.entities.values()), **replaced_by}

    # Pass 2: named entities and relation endpoints.
    def endpoint(
        ref: NameRef, subject: RegistryEntry, subject_ref: NameRef, facts: dict[NameRef, EntityFact]
    ) -> RegistryEntry | None:
        if ref is subject_ref:
            return subject
        fact = facts.get(ref)
        return resolver.resolve(
            ref,
            aliases=fact.aliases if fact else (),
            explicit_type=bool(fact and fact.explicit_type),
        )

    for item in resolved:
        extraction, subject = item.extraction, item.subject
        assert extraction.subject is not None
        subject_ref = extraction.subject.ref
        facts = {fact.ref: fact for fact in extraction.entities}
        subject_entity = merge.entity(subject)
        for fact in extraction.entities:
            endpoint(fact.ref, subject, subject_ref, facts)
        for relation in extraction.relations:
            source = endpoint(relation.source, subject, subject_ref, facts)
            target = endpoint(relation.target, subject, subject_ref, facts)
            if source is not None and target is not None:
                merge.relate(source, relation.relation_type, target, extraction.source)
        for ref, observation in extraction.entity_observations:
            other = endpoint(ref, subject, subject_ref, facts)
            if other is not None and not forgotten.text(observation.text):
                merge.observe_in(
                    merge.entity(other), entity_key(other.canonicalName), observation.text,
                    extraction.source, observation.line_start, observation.line_end,
                )
        subject_key = entity_key(subject.canonicalName)
        for observation in extraction.observations:
            if forgotten.text(observation.text):
                continue
            merge.observe_in(
                subject_entity,
                subject_key,
                observation.text,
                extraction.source,
                observation.line_start,
                observation.line_end,
                observation.typed,
            )
        for fact in extraction.superseded_facts:
            if not forgotten.text(fact.text):
                merge.retire_fact(subject_entity, subject_key, fact, extraction.source,
                                  replaced_by.get(fact.record_id or "") or fact.by)

    # Sources distilled in earlier runs that mention a name first registered in this run join
    # pass 3, as they would have had both been distilled in one run.
    for extraction in _earlier_sources_mentioning_new_names(layout, plan, resolver, extractions):
        if extraction.subject is None:  # a log's index or template page: no entity, as in pass 1
            continue
        if _is_bare(extraction):
            bare.append(extraction)
            continue
        entry = resolver.resolve_subject(extraction)
        if entry is not None:
            resolved.append(_Resolved(extraction, entry))

    # Record-to-record links, resolved against the decision records of each log.
    records = [(item.extraction, item.subject) for item in resolved if item.extraction.record_key]
    resolver.changed |= mark_record_logs(records)
    read_now = {extraction.source.asset_id for extraction in extractions}
    pending = [
        (links, entry)
        for links in pending_record_links(plan.state.values(), read_now)
        if (entry := resolver.find(links.subject)) is not None
    ]
    unresolved: dict[str, PendingLinks] = {}
    if pending or any(extraction.record_links for extraction, _ in records):
        index = RecordIndex.build(resolver.entries.values(), RECORD_KEY)
        unresolved = apply_record_links(merge, records, pending, index, resolver.forgotten_entry)

    # Pass 3: mentions of registered names, now that every name of this run is known.
    matcher = resolver.mention_matcher()
    for extraction in bare:
        if find_mentions(extraction.prose, matcher):
            entry = resolver.resolve_subject(extraction)
            if entry is not None:
                resolved.append(_Resolved(extraction, entry))
    for item in resolved:
        for name in sorted(find_mentions(item.extraction.prose, matcher)):
            target = resolver.find(name)
            if target is None or target is item.subject or resolver.forgotten_entry(target):
                continue
            if item.extraction.is_decision_record and target.entityType == DECISION_TYPE:
                continue  # records relate only by what they state (links, ids), not by names
            pair = (entity_key(item.subject.canonicalName), entity_key(target.canonicalName))
            if pair in merge.pairs or pair[::-1] in merge.pairs:
                continue  # already related more precisely (depends_on, supersedes, ...)
            merge.relate(item.subject, "mentions", target, item.extraction.source)

    # Supersession: replaced source versions, then decision records.
    read_ok = {extraction.source.asset_id for extraction in extractions}
    for old_asset, replacement in sorted(plan.replaced.items()):
        if replacement.assetId in read_ok:  # an unreadable new version retires nothing
            merge.retire_asset(old_asset, replacement)
    superseded_records: dict[str, str | None] = {}
    for relation in merge.relations.values():
        if relation["relationType"] == "supersedes":
            superseded_records.setdefault(
                entity_key(relation["targetEntityName"]), relation["sourceEntityName"]
            )
    for item in resolved:
        if item.extraction.record_superseded:
            superseded_records.setdefault(entity_key(item.subject.canonicalName), None)
    for key, by in sorted(superseded_records.items()):
        entity = merge.entities.get(key)
        if entity is None:
            continue
        for text in [o for o in entity["observations"] if o.startswith(DECISION_PREFIX)]:
            reason = (
                f"the decision record was superseded by {by}"
                if by
                else "the record's status says superseded"
            )
            merge.supersede(key, text, by=by, reason=reason)
    report.graph_delta = merge.delta
    timings["merge_seconds"] = time.perf_counter() - started

    # Writes: registry and graph.
    write_started = time.perf_counter()
    new_graph = merge.graph()
    graph_changed = save_graph_data(layout.graph_file, new_graph, now_iso=now)
    _artifact(report, layout, layout.graph_file, graph_changed, "knowledge graph")
    timings["graph_write_seconds"] = time.perf_counter() - write_started

    page_entries = _write_pages(operation, merge, new_graph, resolver, extractions, plan, warnings)
    new_registry = normalize_registry(resolver.registry(now, registry.registryGeneratedAtUtc))
    registry_changed = save_registry(layout.registry_file, new_registry, now_iso=now)
    _artifact(report, layout, layout.registry_file, registry_changed, "entity registry")

    _write_candidates(operation, extractions, resolver, forgotten)
    _write_state(operation, plan, extractions, unresolved)
    if page_entries:
        hub = update_hub(layout, ENTITY_HUB, page_entries, now_iso=now)
        if hub.changed:
            report.artifacts.append(
                ArtifactRecord(path=ENTITY_HUB, why="entities hub", action="updated")
            )
        index = update_index(layout, page_entries, now_iso=now)
        if index.changed:
            report.artifacts.append(
                ArtifactRecord(path="index.md", why="catalog of records", action="updated")
            )
    timings["write_seconds"] = time.perf_counter() - write_started

    report.figures.update(
        {
            "sources_read": len(extractions),
            "entities": len(new_graph["entities"]),
            "observations": sum(len(e["observations"]) for e in new_graph["entities"]),
        }
    )
    if merge.reinstated:
        report.figures["observations_reinstated"] = merge.reinstated
    report.memory_health.consistency_warnings = sorted(set(warnings))[:50]
    if report.problems:
        report.status = "partial"
    if record_operation(layout, report):
        report.artifacts.append(
            ArtifactRecord(path="log.md", why="operation timeline", action="updated")
        )
    return report


def _earlier_sources_mentioning_new_names(
    layout: MemoryLayout, plan: DistillPlan, resolver: Resolver, extractions: list[Extraction]
) -> list[Extraction]:
    """Current sources distilled in an earlier run whose text names an entity registered in
    this run, extracted again (for their mentions only), in raw path order.

    Without them a mention would depend on batching: one ingest of two folders relates a
    source to a name the other folder brings; two ingests would not."""
    names: dict[str, str] = {}
    for key in resolver.added:
        entry = resolver.entries[key]
        if entry.entityType == SUBJECT_DOCUMENT_TYPE or resolver.forgotten_entry(entry):
            continue
        for name in (entry.canonicalName, *entry.aliases):
            if name != getattr(entry, RECORD_KEY, None):
                names.setdefault(name, entry.canonicalName)
    matcher = MentionMatcher(names)
    if not matcher or not plan.state or not layout.raw_manifest_file.exists():
        return []
    # The matcher's rule, loosened, as one regex over the lowercased text (a name's words with
    # non-word characters between; no lookarounds, which would make it 2x slower): the matcher
    # then tokenizes only the few files that pass. About 0.6 s for 10,000 small sources.
    spelled = {r"\W+".join(map(re.escape, re.findall(r"\w+", name.lower()))) for name in names}
    probe = re.compile("|".join(sorted(w for w in spelled if w)))
    read_now = {extraction.source.asset_id for extraction in extractions}
    manifest = load_manifest(layout.raw_manifest_file)
    heads = current_of_reverted(manifest)
    replaced = replaced_asset_ids(manifest, heads)
    again: list[SourceInput] = []
    for asset in sorted(manifest.assets, key=lambda a: (a.rawPath, a.assetId)):
        if asset.originalPath in heads:
            asset = heads[asset.originalPath] if asset.assetId == heads[asset.originalPath].assetId else asset
        if (asset.assetId not in plan.state or asset.assetId in read_now
                or asset.assetId in replaced or asset.assetId in plan.replaced
                or not asset.sourcePage):
            continue
        raw_file = layout.root / asset.rawPath
        try:
            text = raw_file.read_bytes().decode("utf-8", errors="replace")
        except OSError:
            continue  # reported when it is read for its own facts
        if probe.search(text.lower()) and matcher.find(text):
            ref = SourceRef(asset.assetId, asset.sourcePage, asset.rawPath, asset.originalPath)
            again.append(SourceInput(ref, raw_file))
    return [o.extraction for o in extract_batch(again) if o.extraction is not None]


def _is_bare(extraction: Extraction) -> bool:
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
    )


def _artifact(
    report: MemoryOperationReport, layout: MemoryLayout, path: Path, changed: bool, why: str
) -> None:
    if changed:
        report.artifacts.append(
            ArtifactRecord(path=layout.relative(path), why=why, action="updated")
        )


def _existing_pages(layout: MemoryLayout) -> dict[str, str]:
    """slug -> root-relative page path of the entity pages on disk (one folder listing)."""
    found: dict[str, str] = {}
    if layout.entities.is_dir():
        for name in sorted(layout.entities.iterdir()):
            if name.suffix == ".md" and "__" in name.name:
                found.setdefault(name.stem.split("__", 1)[1], f"wiki/entities/{name.name}")
    return found


def _page_for(
    operation: Operation, entry: RegistryEntry, on_disk: dict[str, str], used: set[str]
) -> str:
    """The entity's page path: fixed at creation (kept in the registry), found by slug otherwise;
    a slug already taken by another entity gets a numeric suffix."""
    known = getattr(entry, PAGE_KEY, None)
    if isinstance(known, str) and known:
        return known
    try:
        base = slug_from_title(entry.canonicalName)
    except AmbiguousNameError:  # e.g. "Data!" or a name without latin letters: still a page
        base = f"entity-{hashlib.sha256(entry.canonicalName.encode()).hexdigest()[:12]}"
    slug, counter = base, 1
    while True:
        existing = on_disk.get(slug)
        if existing is not None:
            if existing not in used and _page_is_for(operation.layout.root / existing, entry):
                path = existing
                break
        elif slug not in used:
            path = f"wiki/entities/{operation.prefix}__{slug}.md"
            break
        counter += 1
        slug = f"{base}-{counter}"
    setattr(entry, PAGE_KEY, path)
    used.update({path, slug})
    return path


def _page_is_for(path: Path, entry: RegistryEntry) -> bool:
    try:
        meta = split_page(path.read_text(encoding="utf-8"), file=path).meta
    except (OSError, MembankError):
        return False
    name = str(meta.get("entity_name") or meta.get("title") or "")
    return (
        not name
        or entity_key(name) == entity_key(entry.canonicalName)
        or entity_key(name) in {entity_key(a) for a in entry.aliases}
    )


def _write_pages(
    operation: Operation,
    merge: GraphMerge,
    graph: dict[str, Any],
    resolver: Resolver,
    extractions: list[Extraction],
    plan: DistillPlan,
    warnings: list[str],
) -> list[CatalogEntry]:
    layout, report, now = operation.layout, operation.report, operation.now_iso
    if not merge.touched:
        return []
    on_disk = _existing_pages(layout)
    used: set[str] = set()
    for registered in resolver.entries.values():
        page = getattr(registered, PAGE_KEY, None)
        if isinstance(page, str):
            used.update({page, page.rsplit("__", 1)[-1].removesuffix(".md")})
    page_of: dict[str, str] = {}
    touched = sorted(merge.touched)
    for key in touched:
        entry = resolver.entries.get(key)
        if entry is not None:
            page_of[key] = _page_for(operation, entry, on_disk, used)
    for key, entry in resolver.entries.items():
        page = getattr(entry, PAGE_KEY, None)
        if isinstance(page, str) and key not in page_of:
            page_of[key] = page
            for alias in entry.aliases:
                page_of.setdefault(entity_key(alias), page)
    titles = {s.sourcePage: str(getattr(s, "title", "") or "") for s in plan.state.values()}
    assets = {s.sourcePage: s.assetId for s in plan.state.values()}
    for extraction in extractions:
        titles[extraction.source.source_page] = extraction.title
        assets[extraction.source.source_page] = extraction.source.asset_id
    context = EntityPageContext(page_of, titles, assets)
    outgoing: dict[str, list[dict[str, Any]]] = {}
    incoming: dict[str, list[dict[str, Any]]] = {}
    touched_set = set(touched)
    for relation in graph["relations"]:
        source, target = (
            entity_key(relation["sourceEntityName"]),
            entity_key(relation["targetEntityName"]),
        )
        if source in touched_set:
            outgoing.setdefault(source, []).append(relation)
        if target in touched_set:
            incoming.setdefault(target, []).append(relation)
    by_key = {entity_key(e["entityName"]): e for e in graph["entities"]}
    tags: dict[str, set[str]] = {}
    for extraction in extractions:
        if extraction.subject is not None and extraction.subject.tags:
            entry = resolver.find(extraction.subject.ref.display)
            if entry is not None:
                tags.setdefault(entity_key(entry.canonicalName), set()).update(
                    extraction.subject.tags
                )
    entries: list[CatalogEntry] = []
    jobs: list[tuple[str, Path, dict[str, Any], str, str]] = []
    for key in touched:
        entity, entry = by_key.get(key), resolver.entries.get(key)
        if entity is None or entry is None:
            continue
        page = page_of[key]
        path = layout.root / page
        try:
            old = split_page(path.read_text(encoding="utf-8"), file=path) if path.exists() else None
        except MembankError as exc:
            report.problems.append(
                Problem(
                    file=page,
                    code="invalid_entity_page",
                    message=exc.cause,
                    hint="fix the page's frontmatter; distill will not overwrite it",
                )
            )
            continue
        body = render_entity_body(
            page, entity, outgoing.get(key, []), incoming.get(key, []), context
        )
        body = merge_hand_sections(body, old.body if old else None)
        sources = entity_sources(entity)
        old_tags = old.meta.get("tags") if old else None
        page_tags = sorted(
            tags.get(key, set()) | set(old_tags if isinstance(old_tags, list) else [])
        )
        meta = entity_page_meta(entity, list(entry.aliases), page_tags, sources)
        if old is not None:
            meta = {**{k: v for k, v in old.meta.items() if k not in meta}, **meta}
        else:
            meta["utc_datetime_prefix"] = page.rsplit("/", 1)[-1].split("__", 1)[0]
        name, entity_type = entity["entityName"], entity["entityType"]
        jobs.append((page, path, meta, body, name))
        entries.append(CatalogEntry(page, name, f"{entity_type.replace('_', ' ')} entity"))
    # Each page is its own atomic write; their fsyncs overlap in a few I/O threads. Results come
    # back in order, so the report is deterministic.
    announce([job[1] for job in jobs])  # one journal record for every page (tasks/journal.py)
    with ThreadPoolExecutor(max_workers=PAGE_WRITE_THREADS) as pool:
        written = list(pool.map(lambda job: write_page(job[1], job[2], job[3], now_iso=now), jobs))
    for (page, _path, _meta, _body, name), result in zip(jobs, written, strict=True):
        if result.changed:
            report.artifacts.append(
                ArtifactRecord(
                    path=page,
                    why=f"entity page of {name}",
                    action="created" if result.created else "updated",
                )
            )
    return entries


def _write_candidates(
    operation: Operation, extractions: list[Extraction], resolver: Resolver, forgotten: Forgotten
) -> None:
    """Merge this run's weaker guesses into the inbox: one pass, counted once per raw asset."""
    layout, now = operation.layout, operation.now_iso
    inbox = load_candidate_inbox(layout.candidates_file, now)
    found: dict[str, DistillCandidate] = {}
    assets: dict[str, set[str]] = {}
    evidence: dict[str, dict[tuple[str, int, str], CandidateEvidence]] = {}
    for candidate in [*inbox.candidates, *inbox.pendingCandidates]:
        key = entity_key(candidate.term)
        found[key] = candidate
        assets[key] = set(candidate.rawAssetIds)
        evidence[key] = {(e.sourcePage, e.lineStart, e.rawAssetId): e for e in candidate.evidence}
    for extraction in extractions:
        source = extraction.source
        for fact in extraction.candidates:
            key = entity_key(fact.term)
            candidate = found.get(key)
            if candidate is None:
                candidate = found[key] = DistillCandidate(
                    term=fact.term, kind=fact.kind, occurrences=fact.count
                )
                assets[key], evidence[key] = set(), {}
            elif source.asset_id in assets[key]:
                continue  # already counted (a re-read with --all)
            else:
                candidate.occurrences += fact.count
            assets[key].add(source.asset_id)
            where = (source.source_page, fact.line, source.asset_id)
            if where not in evidence[key] and (
                len(evidence[key]) < MAX_CANDIDATE_EVIDENCE or where < max(evidence[key])
            ):
                evidence[key][where] = CandidateEvidence(
                    sourcePage=source.source_page,
                    rawAssetId=source.asset_id,
                    lineStart=fact.line,
                    lineEnd=fact.line,
                    excerpt=fact.excerpt,
                )
                if len(evidence[key]) > MAX_CANDIDATE_EVIDENCE:
                    del evidence[key][max(evidence[key])]
    kept, pending = [], []
    for key in sorted(found):
        candidate = found[key]
        if (
            resolver.find(candidate.term) is not None
            or forgotten.name(candidate.term)
            or forgotten.text(candidate.term)
        ):
            continue
        candidate.rawAssetIds = sorted(assets[key])
        candidate.evidence = [evidence[key][where] for where in sorted(evidence[key])]
        # A code term seen once is kept aside, not dropped: its count goes on in the next run,
        # so the inbox is the same however the sources were batched across runs.
        rare = candidate.kind == "code_term" and candidate.occurrences < 2
        (pending if rare else kept).append(candidate)
    inbox = CandidateInbox(candidatesGeneratedAtUtc=inbox.candidatesGeneratedAtUtc,
                           candidates=kept, pendingCandidates=pending)
    if save_candidate_inbox(layout.candidates_file, inbox, now_iso=now):
        operation.report.artifacts.append(
            ArtifactRecord(
                path=layout.relative(layout.candidates_file),
                why="candidates inbox (weaker guesses)",
            )
        )


def _write_state(
    operation: Operation,
    plan: DistillPlan,
    extractions: list[Extraction],
    unresolved: dict[str, PendingLinks],
) -> None:
    layout, now = operation.layout, operation.now_iso
    state = dict(plan.state)
    for asset, entry in plan.state.items():  # pending record links that resolved this run
        if PENDING_KEY in (entry.__pydantic_extra__ or {}) and asset not in unresolved:
            state[asset] = DistilledSource(
                **{k: v for k, v in entry.model_dump().items() if k != PENDING_KEY}
            )
    for extraction in extractions:
        source = extraction.source
        old = state.get(source.asset_id)
        state[source.asset_id] = DistilledSource(
            assetId=source.asset_id,
            sourcePage=source.source_page,
            distilledAtUtc=old.distilledAtUtc if old and old.sourcePage == source.source_page else now,
            title=extraction.title,
        )
    for asset, links in unresolved.items():
        if asset in state:
            state[asset] = DistilledSource(
                **{**state[asset].model_dump(), PENDING_KEY: links.as_json()}
            )
    for asset, replaced_by in plan.skipped:
        if asset.assetId not in state:
            state[asset.assetId] = DistilledSource(
                assetId=asset.assetId,
                sourcePage=asset.sourcePage or "",
                distilledAtUtc=now,
                supersededByAssetId=replaced_by,
            )
    document = DistillState(
        stateGeneratedAtUtc=plan.state_stamp or now, sources=[state[key] for key in sorted(state)]
    )
    if save_distill_state(layout.distill_state_file, document, now_iso=now):
        operation.report.artifacts.append(
            ArtifactRecord(
                path=layout.relative(layout.distill_state_file), why="which sources are distilled"
            )
        )


# --------------------------------------------------------------------------- one call


Extractor = Callable[[list[list[SourceInput]]], list[ExtractOutcome]]


def distill_memory(
    operation: Operation,
    *,
    reread_all: bool = False,
    extractor: Extractor = extract_serial,
    batch_size: int = 200,
) -> MemoryOperationReport:
    """plan -> extract (via `extractor`, e.g. Prefect tasks) -> apply. Nothing new: no write."""
    started = time.perf_counter()
    plan = plan_distill(operation.layout, reread_all=reread_all)
    report = operation.report
    if plan.empty:
        report.problems.extend(plan.problems)
        if report.problems:
            report.status = "partial"
        report.figures["sources_read"] = 0
        return report
    outcomes = extractor(batches(plan.to_read, batch_size))
    extract_seconds = time.perf_counter() - started
    timings: dict[str, float] = {}
    apply_distill(operation, plan, outcomes, timings=timings)
    refresh_search_index(operation)
    total = time.perf_counter() - started
    report.figures.update(
        {
            "extract_seconds": round(extract_seconds, 3),
            "merge_seconds": round(timings.get("merge_seconds", 0.0), 3),
            "graph_write_seconds": round(timings.get("graph_write_seconds", 0.0), 3),
            "write_seconds": round(timings.get("write_seconds", 0.0), 3),
            "sources_per_second": round(len(plan.to_read) / total, 1) if total else 0,
        }
    )
    return report
