"""Entity page paths (fixed at creation, found by slug, a taken slug gets a suffix) and page
jobs (rendered once, hand sections and tags kept, an unreadable page left alone)."""

from __future__ import annotations

from pathlib import Path
from typing import Literal

import pytest

from schemas.graph import GraphEntity, RegistryEntry
from tasks.checks.reconcile import reconcile_memory
from tasks.distill.apply import distill_memory
from tasks.distill.entity_pages import (
    EntityPageContext,
    EntityPageSet,
    allocate_page_paths,
    plan_entity_pages,
)
from tasks.store.graph_store import load_graph, save_graph
from tasks.store.layout import ENTITY_FOLDER, GRAPH_FILE, MemoryLayout
from tasks.store.operation import writing_operation
from tasks.store.pages import read_page
from tasks.store.settings import load_settings
from tests.conftest import FIXED_NOW
from tests.stored_sources import bootstrap, store_source

PREFIX = "2026-03-24T22-40-05Z"
LATER = "2026-04-01T08:00:00Z"


def page(layout: MemoryLayout, name: str, text: str) -> None:
    layout.entities.mkdir(parents=True, exist_ok=True)
    (layout.entities / name).write_text(text)


def test_paths_fixed_found_by_slug_or_suffixed(tmp_path: Path) -> None:
    layout = MemoryLayout(tmp_path)
    page(layout, "2026-01-01T00-00-00Z__ledger.md", "---\nentity_name: Ledger\n---\n\n# Ledger\n")
    page(layout, "2026-01-01T00-00-00Z__cache.md", "---\nentity_name: Other Cache\n---\n\n# x\n")
    entries = {
        "ledger": RegistryEntry(canonicalName="Ledger", entityType="database"),
        "cache": RegistryEntry(canonicalName="Cache", entityType="service"),
        "api gateway": RegistryEntry(canonicalName="API Gateway", aliases=["gw"], entityType="service",
                             entityPage="wiki/entities/old__api-gateway.md"),
    }
    page_of = allocate_page_paths(layout, PREFIX, entries, ["cache", "ledger"])
    assert page_of == {
        "ledger": "wiki/entities/2026-01-01T00-00-00Z__ledger.md",  # its page, found by slug
        "cache": f"wiki/entities/{PREFIX}__cache-2.md",  # "cache.md" is another entity's page
        "api gateway": "wiki/entities/old__api-gateway.md",  # fixed at creation
        "gw": "wiki/entities/old__api-gateway.md",
    }
    assert entries["cache"].entityPage == page_of["cache"]  # kept on the registry entry


def test_page_jobs_keep_hand_sections_and_tags_and_skip_bad_pages(tmp_path: Path) -> None:
    layout = MemoryLayout(tmp_path)
    ledger = "wiki/entities/2026-01-01T00-00-00Z__ledger.md"
    page(layout, "2026-01-01T00-00-00Z__ledger.md",
         "---\nentity_name: Ledger\ntags: [money]\nowner: ops\n---\n\n# Ledger\n\n## My notes\n\nkeep\n")
    page(layout, "broken.md", "---\nentity_name: [unclosed\n---\n")
    graph = {"entities": [
        {"entityName": name, "entityType": "database", "observations": ["[fact] x"],
         "observationProvenance": [], "supersededObservations": []} for name in ("Ledger", "Broken")],
        "relations": [{"sourceEntityName": "Broken", "targetEntityName": "Ledger",
                       "relationType": "depends_on"}]}
    entries = {"ledger": RegistryEntry(canonicalName="Ledger", entityType="database"),
               "broken": RegistryEntry(canonicalName="Broken", entityType="database")}
    page_of = {"ledger": ledger, "broken": "wiki/entities/broken.md"}
    jobs, problems = plan_entity_pages(layout, ["broken", "ledger"],
                                       EntityPageSet(graph, entries, {"ledger": {"ledger"}}),
                                       EntityPageContext(page_of, {}, {}))
    assert [p.code for p in problems] == ["invalid_entity_page"]
    assert problems[0].file == "wiki/entities/broken.md"
    (job,) = jobs
    assert (job.page, job.entity_name, job.entity_type) == (ledger, "Ledger", "database")
    assert job.meta["tags"] == ["ledger", "money"] and job.meta["owner"] == "ops"
    assert "- [Broken](broken.md) depends_on this" in job.body
    assert job.body.endswith("## My notes\n\nkeep\n")


@pytest.mark.parametrize(("name", "slug"), [
    ("Node JS", "node-js-2"),  # node-js is Node.js's page: suffixed (slugs are unique in a folder)
    ("Data!", "entity-546e3e2048f8"),  # "data" is an ambiguous slug: still a page
])
def test_reconcile_and_distill_give_an_entity_the_same_page_path(tmp_path: Path, name: str,
                                                                 slug: str) -> None:
    """One allocator (allocate_page_paths): twin memories where Node.js has its page; one
    distills a source naming `name`, the other gets `name` in its graph without a page and
    reconcile creates it. Both pages land at the same path."""
    distilled, reconciled = tmp_path / "distilled", tmp_path / "reconciled"
    for root in (distilled, reconciled):
        bootstrap(root)
        store_source(root, "a.md", "---\nentity: Node.js\n---\n\n- [fact] Runtime\n")
        _run(root, FIXED_NOW, "distill")
    store_source(distilled, "b.md", f"---\nentity: {name}\n---\n\n- [fact] Another name\n",
                 now_iso=LATER)
    _run(distilled, LATER, "distill")
    graph = load_graph(reconciled / GRAPH_FILE)
    graph.entities.append(GraphEntity(entityName=name, entityType="entity",
                                      observations=["Another name"]))
    save_graph(reconciled / GRAPH_FILE, graph, now_iso=LATER)
    _run(reconciled, LATER, "reconcile")

    def pages(root: Path) -> list[str]:
        return sorted(p.name for p in (root / ENTITY_FOLDER).glob("*.md"))

    assert pages(distilled) == pages(reconciled)
    assert len(pages(reconciled)) == 3  # index.md, Node.js's page and the new one
    new_page = f"2026-04-01T08-00-00Z__{slug}.md"
    assert new_page in pages(reconciled)
    assert read_page(reconciled / ENTITY_FOLDER / new_page).meta["entity_name"] == name


def _run(root: Path, now: str, mode: Literal["distill", "reconcile"]) -> None:
    with writing_operation(load_settings(root, fixed_clock=now), mode) as operation:
        if mode == "distill":
            distill_memory(operation)
        else:
            reconcile_memory(operation, check=False)
