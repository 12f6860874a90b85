"""What every quality gate reads besides the scan: the context files that parsed, the pages and
their types, the graph's entity keys, and the counters the gates add to (plain ints, turned into
one HealthCounts at the end)."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

from schemas.graph import entity_key
from schemas.health import HealthCounts
from tasks.checks.facts import (
    CatalogRow,
    DistillStateFacts,
    GraphFacts,
    ManifestFacts,
    RegistryFacts,
)
from tasks.checks.reconcile.catalog_recheck import CatalogBasis
from tasks.checks.reconcile.entity_recheck import EntityRecheck, PageTypes, count_types
from tasks.checks.scan import Scan
from tasks.store.layout import INDEX_FILE


@dataclass
class Tally:
    """The counters gates add to while they run."""

    invalid_files: int = 0
    dead_links: int = 0
    orphans: int = 0


PAGE_LIMIT_CHARS = 64_000  # the settings' default (MEMBANK_PAGE_LIMIT_CHARS)


@dataclass
class GateContext:
    """Read-mostly facts shared by the gates of one check; built once per scan."""

    originals: dict[str, str]  # page -> its first created_at (scan.state, updated by a gate)
    context_ok: dict[str, bool]  # context file -> parsed without a problem
    graph: GraphFacts | None
    registry: RegistryFacts | None
    manifest: ManifestFacts | None
    distill: DistillStateFacts | None
    pages: list[str]
    page_types: PageTypes  # each page's type, read when asked
    pages_by_type: dict[str, int]
    index_entries: list[CatalogRow]  # index.md's rows (index_listed: their paths, on demand)
    graph_keys: dict[str, tuple[str, str]]  # entity key -> (name, type), first seen wins
    # typed link target -> the file it names (gates._resolved): 100,000 pages name a few hubs
    resolved_targets: dict[str, str | None] = field(default_factory=dict)
    # link targets looked up on disk beyond the scan (their pages are always checked again)
    outside_targets: set[str] = field(default_factory=set)
    # the pages the per-page gates run on (None: every page; page_recheck.py) and the pages
    # they found something on or looked beyond the scan for (kept with the verdict)
    pages_to_check: list[str] | None = None
    noted_pages: set[str] = field(default_factory=set)
    # a check from the verdict's cache: what it knows of the catalogs (catalog_recheck.py);
    # and the catalogs a check of every page found in step (kept with the verdict)
    catalog_basis: CatalogBasis | None = None
    # page -> the only links of it whose lookup may find something (catalog_recheck.py)
    links_to_check: dict[str, list[str]] = field(default_factory=dict)
    catalogs_in_step: set[str] = field(default_factory=set)
    # a check from the verdict's cache: the only entity pages and entities the entity-page
    # gates look at (None: all; entity_recheck.py); and the gates of every page that found
    # nothing (kept with the verdict)
    entity_recheck: EntityRecheck | None = None
    gates_in_step: set[str] = field(default_factory=set)
    observations_active: int = 0
    observations_superseded: int = 0
    tally: Tally = field(default_factory=Tally)
    page_limit_chars: int = 64_000  # MEMBANK_PAGE_LIMIT_CHARS: no page is larger

    @cached_property
    def index_listed(self) -> set[str]:
        """The paths index.md lists (100,000 at 100k: made when a gate asks)."""
        return {e[0] for e in self.index_entries}

    @cached_property
    def by_folder(self) -> dict[str, list[str]]:
        """The pages by folder (made when a hub is compared with its folder in full)."""
        by_folder: dict[str, list[str]] = {}
        for rel in self.pages:  # walked paths: no leading, doubled or trailing "/": dirname
            by_folder.setdefault(rel.rpartition("/")[0], []).append(rel)
        return by_folder

    def health_counts(self) -> HealthCounts:
        relations = self.graph["relations"] if self.graph is not None else 0
        return HealthCounts(
            pages_total=len(self.pages), pages_by_type=self.pages_by_type,
            entities=len(self.graph_keys), relations=relations,
            observations_active=self.observations_active,
            observations_superseded=self.observations_superseded,
            orphans=self.tally.orphans, dead_links=self.tally.dead_links,
            invalid_files=self.tally.invalid_files)


def build_context(scan: Scan, pages_by_type: dict[str, int] | None = None) -> GateContext:
    """The context of one check. Drops created_at baselines of pages that are gone.
    `pages_by_type`: the count of each page type when known (entity_recheck.types_since),
    else counted over every page."""
    originals: dict[str, str] = scan.state.setdefault("created_at", {})
    for gone in [rel for rel in originals if rel not in scan.files]:
        del originals[gone]
    context_ok = {rel: scan.problem(rel) is None for rel in scan.of_kind("jsonc")}
    pages = scan.of_kind("page")
    if pages_by_type is None:
        pages_by_type = count_types(scan, pages)
    context = GateContext(
        originals=originals, context_ok=context_ok, graph=scan.graph(),
        registry=scan.registry(), manifest=scan.manifest(), distill=scan.distill_state(),
        pages=pages, page_types=PageTypes(scan.files), pages_by_type=pages_by_type,
        index_entries=scan.page(INDEX_FILE).get("entries", []), graph_keys={})
    if context.graph is not None:
        for name, entity_type, active, superseded in context.graph["entities"]:
            context.graph_keys.setdefault(entity_key(name), (name, entity_type))
            context.observations_active += active
            context.observations_superseded += superseded
    return context
