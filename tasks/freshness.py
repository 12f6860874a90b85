"""Freshness audit: what is going stale. Reads only; writes nothing but its health summary.

- age of every page from its updated_at (against the operation's canonical clock),
- the freshest write under each hub (spec/wiki-memory-pkf.md hubsByRecent: a hub's subtree
  updatedAt is its own updated_at spread with its direct children's), newest first,
- pages and hubs past the configured thresholds,
- sources whose raw asset changed (missing or hash differs from the manifest) or whose distill
  (context/distill-state.jsonc distilledAtUtc) is older than the source,
- observations not confirmed by any distilled source within the configured window
  (observationProvenance -> source page / raw asset -> distilledAtUtc).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from schemas.distill_state import DistillState
from schemas.graph import GraphEntity
from schemas.health import (
    Finding,
    FreshnessDetail,
    HealthCounts,
    HealthSummary,
    HubFreshness,
    PageAge,
)
from schemas.report import MemoryOperationReport
from tasks.health import build_summary, finding, problems_from
from tasks.scan import Scan, latest_distill_times, load_cache, scan_memory
from tasks.store.clock import parse_utc
from tasks.store.contracts import validate_model
from tasks.store.errors import MembankError
from tasks.store.graph_store import load_graph
from tasks.store.jsonc import read_jsonc_file
from tasks.store.layout import DISTILL_STATE_FILE, GRAPH_FILE, INDEX_FILE, LOG_FILE
from tasks.store.operation import Operation
from tasks.store.settings import MembankSettings

_DAY = 86_400.0
_NOT_AGED = frozenset({"hub", "index", "log"})  # page types whose own age means nothing


@dataclass
class FreshnessTally:
    """What the audit counts as going stale, as plain ints (HealthCounts holds them as
    `int | None`, None meaning a flow that does not assess staleness)."""

    stale_pages: int = 0
    stale_hubs: int = 0
    stale_observations: int = 0
    sources_changed: int = 0

    def into(self, counts: HealthCounts) -> None:
        counts.stale_pages, counts.stale_hubs = self.stale_pages, self.stale_hubs
        counts.stale_observations = self.stale_observations
        counts.sources_changed = self.sources_changed

    def figures(self) -> dict[str, float | int | str]:
        return {"stale_pages": self.stale_pages, "stale_hubs": self.stale_hubs,
                "stale_observations": self.stale_observations,
                "sources_changed": self.sources_changed}


@dataclass(frozen=True)
class FreshnessThresholds:
    """Days after which a page, a hub or an unconfirmed observation counts as stale."""

    stale_page_days: float
    stale_hub_days: float
    observation_window_days: float

    @classmethod
    def from_settings(cls, settings: MembankSettings) -> FreshnessThresholds:
        return cls(stale_page_days=settings.freshness_stale_page_days,
                   stale_hub_days=settings.freshness_stale_hub_days,
                   observation_window_days=settings.freshness_observation_window_days)

    def as_dict(self) -> dict[str, float]:
        return {"stale_page_days": self.stale_page_days, "stale_hub_days": self.stale_hub_days,
                "observation_window_days": self.observation_window_days}


@dataclass(frozen=True, slots=True)
class DatedPage:
    """A page whose updated_at could be read, and its age at the audit's clock."""

    type: str | None
    updated_at: str
    age: float
    child_of: list[str]


def _age_days(now: datetime, iso: str) -> float:
    return round((now - parse_utc(iso)).total_seconds() / _DAY, 3)


def dated_pages(scan: Scan, now: datetime, counts: HealthCounts
                ) -> tuple[dict[str, DatedPage], list[Finding]]:
    """Every page with a readable updated_at (counted by type into `counts`); a finding for
    each page whose age is unknown."""
    pages: dict[str, DatedPage] = {}
    findings: list[Finding] = []
    by_type: dict[str, int] = {}
    for rel in scan.of_kind("page"):
        meta = scan.page(rel)["meta"]
        page_type = meta.get("type")
        page_type = page_type if isinstance(page_type, str) else None
        by_type[page_type or "invalid"] = by_type.get(page_type or "invalid", 0) + 1
        updated = meta.get("updated_at")
        try:
            age = _age_days(now, updated) if isinstance(updated, str) else None
        except ValueError:
            age = None
        if age is None or not isinstance(updated, str):
            findings.append(finding("page_without_updated_at", "warning", rel,
                                    "page has no readable updated_at, so its age is unknown",
                                    "run `membank reconcile` for the page's frontmatter problem"))
            continue
        pages[rel] = DatedPage(page_type, updated, age, meta.get("child_of", []))
    counts.pages_total += sum(by_type.values())
    counts.pages_by_type = dict(sorted(by_type.items()))
    return pages, findings


def page_ages(pages: dict[str, DatedPage]) -> list[PageAge]:
    """Every dated page, oldest first."""
    return [PageAge(path=rel, type=p.type, updated_at=p.updated_at, age_days=p.age)
            for rel, p in sorted(pages.items(), key=lambda kv: (-kv[1].age, kv[0]))]


def check_stale_pages(pages: dict[str, DatedPage], stale_page_days: float) -> list[Finding]:
    """Records not updated for longer than the threshold (hubs, index and log excepted)."""
    return [finding("stale_page", "warning", rel,
                    f"not updated for {page.age:.0f} days (threshold {stale_page_days:g})",
                    "review it: refresh, or mark it superseded")
            for rel, page in pages.items()
            if page.type not in _NOT_AGED and rel not in (INDEX_FILE, LOG_FILE)
            and page.age > stale_page_days]


def hub_freshness(scan: Scan, pages: dict[str, DatedPage], now: datetime) -> list[HubFreshness]:
    """Each hub with its subtree freshness: its own updated_at spread with its direct
    children's (spec/wiki-memory-pkf.md hubsByRecent), in page order."""
    hubs = {rel: p for rel, p in pages.items() if p.type == "hub"}
    children: dict[str, list[str]] = {hub: [] for hub in hubs}
    for rel, page in pages.items():
        for parent in page.child_of:
            target = parent if parent.endswith(".md") else f"{parent.rstrip('/')}/index.md"
            if target in children and target != rel:
                children[target].append(rel)
    rows = []
    for hub, page in hubs.items():
        freshest, freshest_at = hub, page.updated_at
        for child in children[hub]:
            if pages[child].updated_at > freshest_at:
                freshest, freshest_at = child, pages[child].updated_at
        title = scan.page(hub)["meta"].get("title")
        rows.append(HubFreshness(path=hub, title=title if isinstance(title, str) else None,
                                 updated_at=page.updated_at, subtree_updated_at=freshest_at,
                                 freshest_path=freshest, age_days=_age_days(now, freshest_at),
                                 children=len(children[hub])))
    return rows


def check_stale_hubs(rows: list[HubFreshness], stale_hub_days: float) -> list[Finding]:
    """Hubs under which nothing was written for longer than the threshold."""
    return [finding("stale_hub", "warning", row.path,
                    f"nothing under this hub was written for {row.age_days:.0f} days "
                    f"(threshold {stale_hub_days:g})",
                    "review the topic: is it still alive?")
            for row in rows if row.age_days is not None and row.age_days > stale_hub_days]


def check_sources(scan: Scan, pages: dict[str, DatedPage], distilled: dict[str, str]
                  ) -> tuple[list[Finding], int]:
    """Raw assets that changed, and sources never distilled or distilled before they last
    changed; with the number of sources concerned."""
    manifest = scan.manifest()
    has_distill_state = scan.distill_state() is not None
    findings: list[Finding] = []
    if not has_distill_state and manifest is not None and manifest["assets"]:
        findings.append(finding("distill_state_missing", "info", DISTILL_STATE_FILE,
                                "no distill state: cannot tell which sources were distilled",
                                "run `membank distill`"))
    changed: set[str] = set()
    for asset in manifest["assets"] if manifest is not None else ():
        rel = asset["rawPath"]
        entry = scan.files.get(rel)
        if entry is None or f"sha256:{entry['hash']}" != asset["contentHash"]:
            changed.add(rel)
            findings.append(finding("raw_changed", "error", rel,
                                    "raw asset is missing" if entry is None else
                                    "raw asset changed since ingest (hash differs)",
                                    "raw/ is immutable: restore it and ingest the new version"))
            continue
        if not has_distill_state:
            continue
        source_page = asset["sourcePage"]
        when = distilled.get(asset["assetId"]) or (
            distilled.get(source_page) if source_page else None)
        source_time = asset["ingestedAtUtc"]
        if source_page and source_page in pages:
            source_time = max(source_time, pages[source_page].updated_at)
        if when is None:
            changed.add(rel)
            findings.append(finding("source_not_distilled", "warning", source_page or rel,
                                    "source was never distilled", "run `membank distill`"))
        elif when < source_time:
            changed.add(rel)
            findings.append(finding("distill_older_than_source", "warning", source_page or rel,
                                    f"distilled at {when}, source changed at {source_time}",
                                    "run `membank distill` to refresh its facts"))
    return findings, len(changed)


def _unconfirmed(entity: GraphEntity, distilled: dict[str, str], now: datetime,
                 window_days: float) -> list[str]:
    """The entity's active observations no distilled source confirmed within the window."""
    confirmed: dict[str, str] = {}
    for prov in entity.observationProvenance:
        moment = distilled.get(prov.sourcePage) or distilled.get(prov.rawAssetId)
        if moment:
            text = prov.observation.strip()
            confirmed[text] = max(confirmed.get(text, ""), moment)
    stale = []
    for text in entity.observations:
        moment = confirmed.get(text.strip())
        if moment is None or _age_days(now, moment) > window_days:
            stale.append(text)
    return stale


def check_observations(entities: Sequence[GraphEntity], distilled: dict[str, str],
                       now: datetime, window_days: float) -> tuple[list[Finding], int]:
    """One finding per entity with observations not confirmed by a distilled source within
    the window (observationProvenance -> source page / raw asset -> distilledAtUtc); with the
    number of such observations."""
    findings: list[Finding] = []
    count = 0
    for entity in entities:
        stale = _unconfirmed(entity, distilled, now, window_days)
        if stale:
            count += len(stale)
            findings.append(finding(
                "stale_observation", "warning", GRAPH_FILE,
                f"{entity.entityName}: {len(stale)} observation(s) not confirmed by a "
                f"distilled source within {window_days:g} days, e.g. {stale[0]!r}",
                "re-distill its sources, or supersede facts nobody can confirm"))
    return findings, count


def audit_freshness(scan: Scan, *, now_iso: str, thresholds: FreshnessThresholds,
                    graph_entities: Sequence[GraphEntity] | None,
                    ) -> tuple[list[Finding], HealthCounts, FreshnessDetail, FreshnessTally]:
    """Pure: findings, counts and the freshness detail of one scan (and the parsed graph)."""
    now = parse_utc(now_iso)
    counts = HealthCounts(stale_pages=0, stale_hubs=0, stale_observations=0, sources_changed=0)
    tally = FreshnessTally()
    pages, findings = dated_pages(scan, now, counts)
    stale_pages = check_stale_pages(pages, thresholds.stale_page_days)
    hubs = hub_freshness(scan, pages, now)
    stale_hubs = check_stale_hubs(hubs, thresholds.stale_hub_days)
    distilled = latest_distill_times(scan.distill_state())
    source_findings, tally.sources_changed = check_sources(scan, pages, distilled)
    findings += stale_pages + stale_hubs + source_findings
    tally.stale_pages, tally.stale_hubs = len(stale_pages), len(stale_hubs)
    if graph_entities is not None:
        counts.entities += len(graph_entities)
        counts.observations_active += sum(len(e.observations) for e in graph_entities)
        counts.observations_superseded += sum(len(e.supersededObservations)
                                              for e in graph_entities)
        observation_findings, tally.stale_observations = check_observations(
            graph_entities, distilled, now, thresholds.observation_window_days)
        findings += observation_findings
    tally.into(counts)
    detail = FreshnessDetail(
        thresholds=thresholds.as_dict(), pages=page_ages(pages),
        hubs_by_recent=sorted(hubs, key=lambda r: (r.subtree_updated_at or "", r.path),
                              reverse=True))
    return findings, counts, detail, tally


def freshness_audit(operation: Operation) -> tuple[MemoryOperationReport, HealthSummary]:
    """Run the audit over the memory root; reads the reconcile cache but never writes it."""
    started = time.perf_counter()
    settings, root, report = operation.settings, operation.root, operation.report
    scan = scan_memory(root, load_cache(root))
    durations = {"scan": time.perf_counter() - started}
    t0 = time.perf_counter()
    findings: list[Finding] = []
    graph_entities: list[GraphEntity] | None = None
    relations = 0
    if scan.graph() is not None:
        try:
            graph = load_graph(root / GRAPH_FILE)
            graph_entities = graph.entities
            relations = len(graph.relations)
        except MembankError as exc:
            findings.append(finding("invalid_context_file", "error", GRAPH_FILE, exc.cause,
                                    exc.hint))
    else:
        findings.append(finding("graph_unavailable", "error", GRAPH_FILE,
                                "graph is missing or invalid: observations cannot be audited",
                                "run `membank reconcile` for details"))
    if DISTILL_STATE_FILE in scan.files:
        try:
            validate_model(DistillState, read_jsonc_file(root / DISTILL_STATE_FILE),
                           file=DISTILL_STATE_FILE)
        except MembankError as exc:
            findings.append(finding("invalid_context_file", "error", DISTILL_STATE_FILE,
                                    exc.cause, exc.hint))
    durations["graph"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    audit, counts, detail, tally = audit_freshness(
        scan, now_iso=operation.now_iso, thresholds=FreshnessThresholds.from_settings(settings),
        graph_entities=graph_entities)
    counts.relations = relations
    findings += audit
    durations["audit"] = time.perf_counter() - t0
    report.problems = problems_from(findings)
    if report.problems:
        report.status = "partial"
    report.figures.update({"pages": counts.pages_total, **tally.figures()})
    durations["total"] = time.perf_counter() - started
    summary = build_summary(kind="freshness", mode="audit", project=settings.project, root=root,
                            now_iso=operation.now_iso, findings=findings, counts=counts,
                            repaired=[], durations=durations,
                            limit=settings.health_max_findings_per_code, freshness=detail)
    return report, summary
