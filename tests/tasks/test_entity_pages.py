"""Entity page paths (fixed at creation, found by slug, a taken slug gets a suffix) and page
jobs (rendered once, hand sections and tags kept, an unreadable page left alone)."""

from __future__ import annotations

from pathlib import Path

from schemas.graph import RegistryEntry
from tasks.entity_pages import (
    EntityPageContext,
    EntityPageSet,
    allocate_page_paths,
    plan_entity_pages,
)
from tasks.store.layout import MemoryLayout

PREFIX = "2026-03-24T22-40-05Z"


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
