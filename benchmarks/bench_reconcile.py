"""Benchmark reconcile and the freshness audit on a generated memory.

    nice .venv/bin/python benchmarks/bench_reconcile.py [--pages 10000] [--observations 100000]

Generates a healthy memory (sources with raw assets, entity pages, concept pages, hubs,
index.md, a graph whose observations all carry provenance, registry, distill state), then
times the real reconcile (tasks.checks.reconcile.reconcile_memory, the body of the flow's task):
full (no cache), nothing changed, 1% of pages changed; and the freshness audit.
Goals on the dev machine: full < 30 s, nothing changed < 3 s, 1% changed < 5 s.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import resource
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

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
from tasks.checks.freshness import freshness_audit
from tasks.checks.reconcile import reconcile_memory
from tasks.store.catalog import CatalogEntry, update_hub, update_index
from tasks.store.graph_store import (
    load_graph,
    normalize_graph,
    normalize_registry,
    save_graph,
    save_manifest,
    save_registry,
)
from tasks.store.jsonc import dumps_json
from tasks.store.layout import MemoryLayout
from tasks.store.operation import begin_operation, writing_operation
from tasks.store.pages import new_page_meta, read_page, render_page
from tasks.store.settings import load_settings

CREATED = "2026-01-10T08:00:00Z"
PREFIX = "2026-01-10T08-00-00Z"
NOW = "2026-03-24T22:40:05Z"
LATER = "2026-03-25T09:00:00Z"


def generate(root: Path, pages: int, observations: int) -> dict[str, int]:
    settings = load_settings(root, fixed_clock=CREATED)
    with writing_operation(settings, "bootstrap") as operation:
        bootstrap_memory(operation)
    layout = MemoryLayout(root.resolve())
    n_sources = pages // 5
    n_entities = pages // 2
    n_concepts = pages - n_sources - n_entities - 4  # hubs count as pages too
    per_entity = max(1, observations // n_entities)
    assets, hub_children, distilled = [], {}, []
    sources = []
    for i in range(n_sources):
        slug = f"source-document-{i:05d}"
        raw_rel = f"raw/{PREFIX}__{slug}.md"
        data = f"# Source {i}\n\n" + "Some text about the system. " * 40 + "\n"
        (root / raw_rel).write_text(data)
        os.chmod(root / raw_rel, 0o444)
        digest = hashlib.sha256(data.encode()).hexdigest()
        page_rel = f"wiki/sources/{PREFIX}__{slug}.md"
        sources.append((page_rel, digest))
        assets.append(RawAsset(assetId=digest, contentHash=f"sha256:{digest}", sizeBytes=len(data),
                               mediaType="text/markdown", originalPath=f"docs/{slug}.md",
                               rawPath=raw_rel, ingestedAtUtc=CREATED, sourcePage=page_rel))
        distilled.append(DistilledSource(assetId=digest, sourcePage=page_rel, distilledAtUtc=CREATED))
        meta = new_page_meta(CREATED, type="source", title=f"Source document {i}",
                             description=f"Summary of source document {i}.",
                             derived_from=[raw_rel], child_of=["wiki/sources/index.md"])
        (root / page_rel).write_text(render_page(meta, f"# Source document {i}\n\n" + "Summary. " * 60))
        hub_children.setdefault("wiki/sources/index.md", []).append(
            CatalogEntry(page_rel, f"Source document {i}", f"Summary of source document {i}."))
    entities, registry = [], []
    for i in range(n_entities):
        name = f"component-{i:05d}"
        page_rel = f"wiki/entities/{PREFIX}__{name}.md"
        source_rel, digest = sources[i % n_sources]
        texts = [f"Observation {j} about {name}: it handles case {j * 7 + i}." for j in range(per_entity)]
        entities.append(GraphEntity(
            entityName=name, entityType="component", observations=texts,
            observationProvenance=[ObservationProvenance(observation=t, sourcePage=source_rel,
                                                         rawAssetId=digest, lineStart=1, lineEnd=3)
                                   for t in texts]))
        registry.append(RegistryEntry(canonicalName=name, aliases=[f"{name}-alias"],
                                      entityType="component"))
        meta = new_page_meta(CREATED, type="entity", title=name, description=f"Entity {name}.",
                             child_of=["wiki/entities/index.md"], entity_name=name,
                             entity_type="component", aliases=[f"{name}-alias"])
        body = (f"# {name}\n\nFrom [its source](../sources/{Path(source_rel).name}).\n\n"
                + "\n".join(f"- {t}" for t in texts[:5]) + "\n")
        (root / page_rel).write_text(render_page(meta, body))
        hub_children.setdefault("wiki/entities/index.md", []).append(
            CatalogEntry(page_rel, name, f"Entity {name}."))
    for i in range(n_concepts):
        slug = f"concept-topic-{i:05d}"
        page_rel = f"wiki/concepts/{PREFIX}__{slug}.md"
        meta = new_page_meta(CREATED, type="concept", title=f"Concept {i}",
                             description=f"Concept {i}.", child_of=["wiki/concepts/index.md"])
        other = f"{PREFIX}__concept-topic-{(i + 1) % n_concepts:05d}.md"
        (root / page_rel).write_text(render_page(meta, f"# Concept {i}\n\nSee [next]({other}).\n"
                                                 + "Discussion. " * 80))
        hub_children.setdefault("wiki/concepts/index.md", []).append(
            CatalogEntry(page_rel, f"Concept {i}", f"Concept {i}."))
    relations = [GraphRelation(sourceEntityName=f"component-{i:05d}",
                               targetEntityName=f"component-{(i + 1) % n_entities:05d}",
                               relationType="depends_on") for i in range(n_entities)]
    save_graph(layout.graph_file, normalize_graph(KnowledgeGraph(
        graphGeneratedAtUtc=CREATED, entities=entities, relations=relations)), now_iso=CREATED)
    save_registry(layout.registry_file, normalize_registry(EntityRegistry(
        registryGeneratedAtUtc=CREATED, entries=registry)), now_iso=CREATED)
    save_manifest(layout.raw_manifest_file, RawManifest(manifestGeneratedAtUtc=CREATED,
                                                        assets=assets), now_iso=CREATED)
    (root / "context/distill-state.jsonc").write_text(dumps_json(DistillState(
        stateGeneratedAtUtc=CREATED, sources=distilled).model_dump(mode="json")))
    for hub, children in hub_children.items():
        update_hub(layout, hub, children, now_iso=CREATED)
    update_index(layout, [c for cs in hub_children.values() for c in cs], now_iso=CREATED)
    return {"sources": n_sources, "entities": n_entities, "concepts": n_concepts,
            "observations": n_entities * per_entity, "relations": len(relations)}


def timed_reconcile(root: Path, now: str, check: bool = False):
    settings = load_settings(root, fixed_clock=now)
    started = time.perf_counter()
    with writing_operation(settings, "reconcile") as operation:
        report, summary = reconcile_memory(operation, check=check)
    return time.perf_counter() - started, report, summary


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=10_000)
    parser.add_argument("--observations", type=int, default=100_000)
    parser.add_argument("--keep", action="store_true", help="keep the generated memory")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="membank-bench-"))
    root = folder / "memory"
    try:
        started = time.perf_counter()
        shape = generate(root, args.pages, args.observations)
        page_count = sum(1 for _ in root.rglob("*.md")) - sum(1 for _ in (root / "raw").rglob("*"))
        graph_mb = (root / "context/knowledge-graph.index.jsonc").stat().st_size / 1e6
        print(f"generated in {time.perf_counter() - started:.1f} s: {page_count} pages, {shape}, "
              f"graph {graph_mb:.1f} MB")

        seconds, report, summary = timed_reconcile(root, NOW)
        print(f"full reconcile (no cache):  {seconds:7.2f} s  status={summary.status} "
              f"files_read={report.figures['files_read']} mb_read={report.figures['mb_read']} "
              f"findings={summary.counts.findings_by_severity} repairs={summary.counts.repairs}")
        seconds, report, summary = timed_reconcile(root, NOW)
        print(f"nothing changed:            {seconds:7.2f} s  files_read={report.figures['files_read']}"
              f" changed={report.changed}")
        pages = sorted((root / "wiki/concepts").glob(f"{PREFIX}__*.md"))
        changed = pages[: max(1, args.pages // 100)]
        for path in changed:
            page = read_page(path)
            path.write_text(render_page({**page.meta, "updated_at": LATER},
                                        page.body + "\nOne more line.\n"))
        seconds, report, summary = timed_reconcile(root, LATER)
        print(f"1% changed ({len(changed)} pages):    {seconds:7.2f} s  "
              f"files_read={report.figures['files_read']} status={summary.status}")
        graph_path = root / "context/knowledge-graph.index.jsonc"
        graph = load_graph(graph_path)
        graph.entities[0].observations.append("One more observation from a new distill.")
        save_graph(graph_path, normalize_graph(graph), now_iso=LATER)
        seconds, report, summary = timed_reconcile(root, LATER)
        print(f"graph changed (+1 obs):     {seconds:7.2f} s  files_read={report.figures['files_read']}"
              f" mb_read={report.figures['mb_read']} status={summary.status}")
        settings = load_settings(root, fixed_clock=LATER)
        started = time.perf_counter()
        _report, summary = freshness_audit(begin_operation(settings, "audit"))
        seconds = time.perf_counter() - started
        print(f"freshness audit:            {seconds:7.2f} s  status={summary.status} "
              f"stale_pages={summary.counts.stale_pages} stale_observations="
              f"{summary.counts.stale_observations}")
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        print(f"peak RSS: {peak:.0f} MB; cpu count {os.cpu_count()} (shared with other work)")
    finally:
        if args.keep:
            print(f"kept: {root}")
        else:
            shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
