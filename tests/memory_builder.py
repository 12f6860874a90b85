"""Build fixture memories for reconcile and freshness tests through the store layer.

A healthy memory: bootstrap tree, one raw asset in the manifest, its source page, two entity
pages, a graph with provenance, a registry, a distill state, hubs and index.md in sync.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path
from typing import Any

from schemas.distill_state import DistilledSource, DistillState
from schemas.graph import (
    EntityRegistry,
    GraphEntity,
    GraphRelation,
    KnowledgeGraph,
    ObservationProvenance,
    RegistryEntry,
)
from schemas.raw_manifest import RawAsset, RawManifest
from tasks.bootstrap import bootstrap_memory
from tasks.store.catalog import CatalogEntry, update_hub, update_index
from tasks.store.graph_store import (
    normalize_graph,
    normalize_registry,
    save_graph,
    save_manifest,
    save_registry,
)
from tasks.store.jsonc import dumps_json
from tasks.store.layout import MemoryLayout
from tasks.store.names import utc_prefix
from tasks.store.operation import writing_operation
from tasks.store.pages import new_page_meta, render_page
from tasks.store.settings import load_settings
from tests import snapshots

NOW = "2026-03-24T22:40:05Z"
EARLIER = "2026-01-10T08:00:00Z"
PREFIX = utc_prefix(EARLIER)
RAW = f"raw/{PREFIX}__design-notes.md"
SOURCE = f"wiki/sources/{PREFIX}__design-notes.md"
ORCHESTRATOR = f"wiki/entities/{PREFIX}__orchestrator.md"
PLANNER = f"wiki/entities/{PREFIX}__planner.md"
CONCEPT = f"wiki/concepts/{PREFIX}__delegation.md"
RAW_TEXT = b"# Design notes\n\nThe orchestrator delegates to the planner.\n"


def write(root: Path, rel: str, meta: dict[str, Any], body: str) -> None:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(render_page(meta, body), encoding="utf-8")


def page_meta(page_type: str, title: str, hub: str | None, *, when: str = EARLIER,
              **extra: Any) -> dict[str, Any]:
    meta = new_page_meta(when, prefix=utc_prefix(when), type=page_type, title=title,
                         description=f"{title} page of the fixture memory.", **extra)
    if hub:
        meta["child_of"] = [hub]
    return meta


def asset_id() -> str:
    return hashlib.sha256(RAW_TEXT).hexdigest()


def graph_model(when: str = EARLIER) -> KnowledgeGraph:
    provenance = [
        ObservationProvenance(observation="Coordinates thinker, planner and executor",
                              sourcePage=SOURCE, rawAssetId=asset_id(), lineStart=3, lineEnd=3),
        ObservationProvenance(observation="status: active", sourcePage=SOURCE,
                              rawAssetId=asset_id(), lineStart=3, lineEnd=3),
        ObservationProvenance(observation="Turns goals into plans", sourcePage=SOURCE,
                              rawAssetId=asset_id(), lineStart=3, lineEnd=3),
    ]
    return normalize_graph(KnowledgeGraph(
        graphGeneratedAtUtc=when,
        entities=[
            GraphEntity(entityName="orchestrator", entityType="service",
                        observations=["Coordinates thinker, planner and executor",
                                      "status: active"],
                        observationProvenance=provenance[:2]),
            GraphEntity(entityName="planner", entityType="service",
                        observations=["Turns goals into plans"],
                        observationProvenance=provenance[2:]),
        ],
        relations=[GraphRelation(sourceEntityName="orchestrator", targetEntityName="planner",
                                 relationType="delegates_to")],
    ))


def build_healthy_memory(root: Path, *, now: str = NOW) -> MemoryLayout:
    settings = load_settings(root, fixed_clock=EARLIER)
    with writing_operation(settings, "bootstrap") as operation:
        bootstrap_memory(operation)
    layout = MemoryLayout(root.resolve())
    raw = root / RAW
    raw.write_bytes(RAW_TEXT)
    os.chmod(raw, 0o444)
    save_manifest(layout.raw_manifest_file, RawManifest(
        manifestGeneratedAtUtc=EARLIER,
        assets=[RawAsset(assetId=asset_id(), contentHash=f"sha256:{asset_id()}",
                         sizeBytes=len(RAW_TEXT), mediaType="text/markdown",
                         originalPath="notes/design-notes.md", rawPath=RAW,
                         ingestedAtUtc=EARLIER, sourcePage=SOURCE)]), now_iso=EARLIER)
    write(root, SOURCE, page_meta("source", "Design notes", "wiki/sources/index.md",
                                  derived_from=[RAW]),
          "# Design notes\n\nSee [the orchestrator](../entities/"
          f"{PREFIX}__orchestrator.md).\n")
    for rel, name in ((ORCHESTRATOR, "orchestrator"), (PLANNER, "planner")):
        write(root, rel, page_meta("entity", name, "wiki/entities/index.md", entity_name=name,
                                   entity_type="service", aliases=[]),
              f"# {name}\n\nDerived from [design notes](../sources/{PREFIX}__design-notes.md).\n")
    write(root, CONCEPT, page_meta("concept", "Delegation", "wiki/concepts/index.md"),
          "# Delegation\n\nHow work moves from the orchestrator to the planner.\n")
    save_graph(layout.graph_file, graph_model(), now_iso=EARLIER)
    save_registry(layout.registry_file, normalize_registry(EntityRegistry(
        registryGeneratedAtUtc=EARLIER,
        entries=[RegistryEntry(canonicalName="orchestrator", aliases=["main-orchestrator"],
                               entityType="service"),
                 RegistryEntry(canonicalName="planner", entityType="service")])), now_iso=EARLIER)
    state = DistillState(stateGeneratedAtUtc=EARLIER, sources=[
        DistilledSource(assetId=asset_id(), sourcePage=SOURCE, distilledAtUtc=EARLIER)])
    (root / "context/distill-state.jsonc").write_text(dumps_json(state.model_dump(mode="json")))
    entries = {
        "wiki/sources/index.md": [CatalogEntry(SOURCE, "Design notes", "Design notes page.")],
        "wiki/entities/index.md": [CatalogEntry(ORCHESTRATOR, "orchestrator", ""),
                                   CatalogEntry(PLANNER, "planner", "")],
        "wiki/concepts/index.md": [CatalogEntry(CONCEPT, "Delegation", "")],
    }
    for hub, children in entries.items():
        update_hub(layout, hub, children, now_iso=EARLIER)
    update_index(layout, [c for children in entries.values() for c in children], now_iso=EARLIER)
    return layout


def snapshot(root: Path, *,
             skip: tuple[str, ...] = (".membank", "context/health")) -> dict[str, bytes]:
    return snapshots.snapshot(root, skip=skip)
