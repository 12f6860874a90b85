"""Repairs: small repair objects the gates plan, and `apply_repairs`, the one writer.

Repairs never delete a file or a fact. Each applied repair is recorded as an artifact and as an
info finding whose code is the repair's own (`repaired_<what>`), never derived from its prose.
"""

from __future__ import annotations

import stat
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal, TypeVar

from schemas.graph import KnowledgeGraph, RegistryEntry, SupersededObservation, entity_key
from schemas.health import Finding
from tasks.checks.scan import Scan, kind_of
from tasks.distill.entity_pages import (
    EntityPageContext,
    EntityPageSet,
    allocate_page_paths,
    plan_entity_pages,
)
from tasks.health.findings import finding
from tasks.store.atomic import atomic_write_text, change_mode
from tasks.store.catalog import CatalogEntry, hub_meta, index_meta, render_hub_body, render_index_body
from tasks.store.errors import MembankError
from tasks.store.graph_store import (
    load_graph,
    load_registry,
    normalize_graph,
    normalize_registry,
    save_graph,
    save_registry,
)
from tasks.store.layout import (
    ENTITY_FOLDER,
    GRAPH_FILE,
    INDEX_FILE,
    REGISTRY_FILE,
    WIKI_HUBS,
    MemoryLayout,
)
from tasks.store.operation import Operation
from tasks.store.page_writes import write_page
from tasks.store.pages import read_page, render_page

Action = Literal["created", "updated", "superseded"]


@dataclass(frozen=True)
class NormalizeGraph:
    pass


@dataclass(frozen=True)
class NormalizeRegistry:
    pass


@dataclass(frozen=True)
class DropActiveSuperseded:
    """An observation both active and superseded stays only as superseded."""

    entity: str
    text: str


@dataclass(frozen=True)
class Supersede:
    """A conflicting older fact moves to supersededObservations, linked to the newer one."""

    entity: str
    old: str
    new: str
    reason: str


@dataclass(frozen=True)
class RegisterEntity:
    name: str
    entity_type: str


@dataclass(frozen=True)
class CreateEntityPage:
    name: str
    entity_type: str


@dataclass(frozen=True)
class RerenderEntityPage:
    """An entity page whose Observations and Relations differ from the graph: rendered again
    from the graph (the sections a person added are kept)."""

    name: str


@dataclass(frozen=True)
class RestoreCreatedAt:
    page: str
    original: str


@dataclass(frozen=True)
class AttachOrphan:
    page: str
    hub: str


@dataclass(frozen=True)
class ResyncIndex:
    entries: list[CatalogEntry]


@dataclass(frozen=True)
class ResyncHub:
    hub: str
    children: list[CatalogEntry]


@dataclass(frozen=True)
class MakeReadOnly:
    raw: str


Repair = (NormalizeGraph | NormalizeRegistry | DropActiveSuperseded | Supersede | RegisterEntity
          | CreateEntityPage | RerenderEntityPage | RestoreCreatedAt | AttachOrphan | ResyncIndex
          | ResyncHub | MakeReadOnly)
R = TypeVar("R", bound=Repair)


@dataclass
class RepairPlan:
    """The repairs the gates planned, in the order they planned them."""

    repairs: list[Repair] = field(default_factory=list)

    def empty(self) -> bool:
        return not self.repairs

    def of(self, kind: type[R]) -> list[R]:
        return [r for r in self.repairs if isinstance(r, kind)]

    def has(self, *kinds: type[Repair]) -> bool:
        return any(isinstance(r, kinds) for r in self.repairs)


@dataclass
class _Writer:
    """Records each applied repair as an artifact and a `repaired_<code>` info finding."""

    operation: Operation
    scan: Scan
    repaired: list[Finding]

    def done(self, path: str, code: str, why: str, action: Action = "updated") -> None:
        self.operation.stage.note_artifact(path, why, action)
        self.repaired.append(finding(f"repaired_{code}", "info", path, why))


def _edit_graph(writer: _Writer, graph: KnowledgeGraph, plan: RepairPlan) -> KnowledgeGraph:
    now, report = writer.operation.now_iso, writer.operation.report
    by_key = {entity_key(e.entityName): e for e in graph.entities}
    for drop in plan.of(DropActiveSuperseded):
        entity = by_key[entity_key(drop.entity)]
        entity.observations = [o for o in entity.observations if o.strip() != drop.text.strip()]
    for change in plan.of(Supersede):
        entity = by_key[entity_key(change.entity)]
        entity.observations = [o for o in entity.observations if o.strip() != change.old]
        entity.supersededObservations.append(SupersededObservation(
            observation=change.old, supersededAtUtc=now, supersededBy=change.new,
            reason=change.reason))
        report.graph_delta.superseded_records_count += 1
    graph = normalize_graph(graph)
    if save_graph(writer.operation.layout.graph_file, graph, now_iso=now):
        writer.done(GRAPH_FILE, "graph_normalized",
                    "graph normalized: sorted, deduplicated, conflicts superseded",
                    "superseded" if plan.has(Supersede) else "updated")
    return graph


def _edit_registry(writer: _Writer, plan: RepairPlan) -> None:
    layout, now = writer.operation.layout, writer.operation.now_iso
    registry = load_registry(layout.registry_file)
    for new in plan.of(RegisterEntity):
        registry.entries.append(RegistryEntry(canonicalName=new.name, entityType=new.entity_type))
    if save_registry(layout.registry_file, normalize_registry(registry), now_iso=now):
        writer.done(REGISTRY_FILE, "registry_normalized",
                    "registry normalized: sorted, deduplicated, entities registered")


def _new_entity_pages(writer: _Writer, plan: RepairPlan
                      ) -> tuple[dict[str, str], dict[str, RegistryEntry]]:
    """Entity key -> page path of each planned page, allocated as distill allocates it
    (tasks/distill/entity_pages.allocate_page_paths: the registry's entityPage, else the slug; a slug
    another entity's page has gets a numeric suffix), and the registry entries by key. A path
    that is a file already is left alone: repairs never overwrite a page, a person decides."""
    layout, planned = writer.operation.layout, plan.of(CreateEntityPage)
    entries = {entity_key(entry.canonicalName): entry for entry in _registry_entries(layout)}
    for page in planned:  # a graph entity the registry knows only as an alias: a page of its own
        entries.setdefault(entity_key(page.name),
                           RegistryEntry(canonicalName=page.name, entityType=page.entity_type))
    keys = list(dict.fromkeys(entity_key(page.name) for page in planned))
    page_of = allocate_page_paths(layout, writer.operation.prefix, entries, keys)
    return ({key: page_of[key] for key in keys if not (layout.root / page_of[key]).exists()},
            entries)


def _registry_entries(layout: MemoryLayout) -> list[RegistryEntry]:
    """The registry's entries as _edit_registry left them; none when it is missing or broken
    (a gate reports that; the pages still get their paths, by slug)."""
    try:
        return load_registry(layout.registry_file).entries
    except (OSError, MembankError):
        return []


def _page_context(scan: Scan, new_pages: dict[str, str]) -> EntityPageContext:
    """What new entity pages link to: entity pages (by name and registry alias, the new ones
    included), source page titles and raw asset ids, all from the scan."""
    page_of: dict[str, str] = {}
    titles: dict[str, str] = {}
    for rel in scan.files:
        if kind_of(rel) != "page":
            continue  # raw/*.md files are hashed, not parsed: no meta
        meta = scan.page(rel)["meta"]
        name, title = meta.get("entity_name"), meta.get("title")
        if rel.startswith(ENTITY_FOLDER) and isinstance(name, str) and name.strip():
            page_of.setdefault(entity_key(name), rel)
        if isinstance(title, str):
            titles[rel] = title
    page_of.update(new_pages)
    registry, distill = scan.registry(), scan.distill_state()
    for name, _type, aliases in registry["entries"] if registry is not None else ():
        page = page_of.get(entity_key(name))
        if page is not None:
            for alias in aliases:
                page_of.setdefault(entity_key(alias), page)
    assets = {source["sourcePage"]: source["assetId"]
              for source in (distill["sources"] if distill is not None else ())}
    return EntityPageContext(page_of, titles, assets)


def _create_entity_pages(writer: _Writer, graph: KnowledgeGraph, plan: RepairPlan) -> None:
    """Pages for graph entities without one, planned and rendered by tasks/distill/entity_pages.py as
    distill plans them (so a later distill of the entity rewrites the same page in place)."""
    operation = writer.operation
    new_pages, entries = _new_entity_pages(writer, plan)
    if not new_pages:
        return
    jobs, _unreadable = plan_entity_pages(  # none: only paths with no file are planned
        operation.layout, list(new_pages),
        EntityPageSet(graph.model_dump(mode="json", exclude_none=True), entries, {}),
        _page_context(writer.scan, new_pages))
    for job in jobs:
        write_page(job.path, job.meta, job.body, now_iso=operation.now_iso)
        writer.done(job.page, "entity_page_created",
                    "entity page created: for a graph entity without one", "created")


def _rerender_entity_pages(writer: _Writer, graph: KnowledgeGraph, plan: RepairPlan) -> None:
    """The pages of entities whose rows drifted, or whose facts a repair superseded, rendered
    again from the graph as distill renders them (hand sections and frontmatter kept)."""
    names = [r.name for r in plan.of(RerenderEntityPage)] + [
        s.entity for s in plan.of(Supersede)] + [d.entity for d in plan.of(DropActiveSuperseded)]
    context = _page_context(writer.scan, {})
    keys = sorted({entity_key(name) for name in names} & set(context.page_of))
    if not keys:
        return
    layout, now = writer.operation.layout, writer.operation.now_iso
    entries = {entity_key(entry.canonicalName): entry for entry in _registry_entries(layout)}
    jobs, _unreadable = plan_entity_pages(  # an unreadable page is left alone (its own finding)
        layout, keys, EntityPageSet(graph.model_dump(mode="json", exclude_none=True), entries, {}),
        context)
    for job in jobs:
        if write_page(job.path, job.meta, job.body, now_iso=now).changed:
            writer.done(job.page, "entity_page_rerendered",
                        "entity page rendered again from the graph: its Observations and "
                        "Relations show what the graph holds")


def _fix_pages(writer: _Writer, plan: RepairPlan) -> None:
    root, now = writer.operation.root, writer.operation.now_iso
    for restore in sorted(plan.of(RestoreCreatedAt), key=lambda r: r.page):
        page = read_page(root / restore.page)
        atomic_write_text(root / restore.page,
                          render_page({**page.meta, "created_at": restore.original}, page.body))
        writer.done(restore.page, "created_at_restored",
                    "created_at restored: created_at is immutable")
    for orphan in sorted(plan.of(AttachOrphan), key=lambda r: r.page):
        page = read_page(root / orphan.page)
        write_page(root / orphan.page, {**page.meta, "child_of": [orphan.hub]}, page.body,
                   now_iso=now)
        writer.done(orphan.page, "orphan_attached", f"orphan attached: child_of {orphan.hub}")
    for raw in plan.of(MakeReadOnly):
        path = root / raw.raw
        change_mode(path, stat.S_IMODE(path.stat().st_mode) & ~0o222)  # journaled: rolled back
        # the code is the one earlier summaries carry (it was once derived from this prose)
        writer.done(raw.raw, "raw_made_read-only", "raw made read-only: raw/ is immutable")


def _resync_catalogs(writer: _Writer, plan: RepairPlan) -> None:
    root, now, scan = writer.operation.root, writer.operation.now_iso, writer.scan
    for resync in sorted(plan.of(ResyncHub), key=lambda r: r.hub):
        hub = resync.hub
        folder = hub.rsplit("/", 1)[0]
        defaults = next((t, o) for f, t, o in WIKI_HUBS if f == folder)
        meta = scan.page(hub)["meta"]
        title = str(meta.get("title") or defaults[0])
        overview = str(meta.get("description") or defaults[1])
        write = write_page(root / hub, hub_meta(title, overview),
                           render_hub_body(title, overview, resync.children, folder), now_iso=now)
        if write.changed:
            writer.done(hub, "hub_resynced", "hub resynced: lists exactly the pages of its folder",
                        "updated" if hub in scan.files else "created")
    for index in plan.of(ResyncIndex):
        write = write_page(writer.operation.layout.index_file, index_meta(),
                           render_index_body(index.entries), now_iso=now)
        if write.changed:
            writer.done(INDEX_FILE, "index_resynced",
                        "index resynced: lists every record and nothing gone",
                        "updated" if INDEX_FILE in scan.files else "created")


def apply_repairs(operation: Operation, scan: Scan, plan: RepairPlan,
                  repaired: list[Finding]) -> None:
    """Apply a plan; every write goes through atomic_write_* / write_page / save_*."""
    writer = _Writer(operation, scan, repaired)
    graph_edits: Sequence[type[Repair]] = (NormalizeGraph, DropActiveSuperseded, Supersede)
    graph = None
    if plan.has(*graph_edits, RegisterEntity, CreateEntityPage, RerenderEntityPage):
        graph = load_graph(operation.layout.graph_file)
    if graph is not None and plan.has(*graph_edits):
        graph = _edit_graph(writer, graph, plan)
    if plan.has(NormalizeRegistry, RegisterEntity):
        _edit_registry(writer, plan)
    if graph is not None and plan.has(CreateEntityPage):
        _create_entity_pages(writer, graph, plan)
    if graph is not None:
        _rerender_entity_pages(writer, graph, plan)
    _fix_pages(writer, plan)
    _resync_catalogs(writer, plan)

