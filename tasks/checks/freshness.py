"""Freshness audit: what is going stale. Reads only; writes nothing but its health summary.

- age of every page from its updated_at (against the operation's canonical clock),
- the freshest write under each hub (spec/wiki-memory-pkf.md hubsByRecent: a hub's subtree
  updatedAt is its own updated_at spread with its direct children's), newest first,
- pages and hubs past the configured thresholds (superseded pages are history, never stale),
- sources whose raw asset changed (missing or hash differs from the manifest) or whose current
  version's distill (context/distill-state.jsonc distilledAtUtc) is older than the source; a
  version a later one superseded is history that distill never reads again, so never awaits it,
- observations not confirmed by any distilled source within the configured window
  (observationProvenance -> source page / raw asset -> distilledAtUtc).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime

from schemas.graph import GraphEntity
from schemas.health import (
    UNTYPED_PAGE,
    Finding,
    FreshnessDetail,
    HealthCounts,
    HealthSummary,
    HubFreshness,
    PageAge,
)
from schemas.report import MemoryOperationReport
from tasks.checks.facts import AssetFacts, ManifestFacts
from tasks.checks.scan import Scan, latest_distill_times, load_cache, scan_memory
from tasks.health.findings import finding, problems_from
from tasks.health.summary import build_summary
from tasks.store.clock import parse_utc
from tasks.store.errors import MembankError
from tasks.store.graph_store import load_graph
from tasks.store.layout import DISTILL_STATE_FILE, GRAPH_FILE, INDEX_FILE, LOG_FILE, hub_path
from tasks.store.operation import Operation
from tasks.store.report import StageFigures
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

    def figures(self, pages: int) -> FreshnessFigures:
        return FreshnessFigures(pages=pages, stale_pages=self.stale_pages,
                                stale_hubs=self.stale_hubs,
                                stale_observations=self.stale_observations,
                                sources_changed=self.sources_changed)


class FreshnessFigures(StageFigures):
    """The freshness audit's counts: pages read, and what is stale."""

    pages: int
    stale_pages: int
    stale_hubs: int
    stale_observations: int
    sources_changed: int


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
    superseded: bool = False  # history: a later page replaced it (see dated_pages)


def _age_days(now: datetime, iso: str) -> float:
    return round((now - parse_utc(iso)).total_seconds() / _DAY, 3)


def dated_pages(scan: Scan, now: datetime, counts: HealthCounts, versions: list[SourceVersion]
                ) -> tuple[dict[str, DatedPage], list[Finding]]:
    """Every page with a readable updated_at (counted by type into `counts`); a finding for
    each page whose age is unknown."""
    pages: dict[str, DatedPage] = {}
    findings: list[Finding] = []
    by_type: dict[str, int] = {}
    # Pages a later one replaced: marked so (superseded_by), or the source pages of versions a
    # later version replaced (ingest marks the page and records the version as two writes).
    replaced = {v.source_page for v in versions if not v.current and v.source_page}
    for rel in scan.of_kind("page"):
        meta = scan.page(rel)["meta"]
        page_type = meta.get("type")
        page_type = page_type if isinstance(page_type, str) else None
        by_type[page_type or UNTYPED_PAGE] = by_type.get(page_type or UNTYPED_PAGE, 0) + 1
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
        pages[rel] = DatedPage(page_type, updated, age, meta.get("child_of", []),
                               superseded=rel in replaced or bool(meta.get("superseded_by")))
    counts.pages_total += sum(by_type.values())
    counts.pages_by_type = dict(sorted(by_type.items()))
    return pages, findings


def page_ages(pages: dict[str, DatedPage]) -> list[PageAge]:
    """Every dated page, oldest first."""
    return [PageAge(path=rel, type=p.type, updated_at=p.updated_at, age_days=p.age)
            for rel, p in sorted(pages.items(), key=lambda kv: (-kv[1].age, kv[0]))]


def check_stale_pages(pages: dict[str, DatedPage], stale_page_days: float) -> list[Finding]:
    """Records not updated for longer than the threshold (hubs, index and log excepted, and
    superseded pages: history is not refreshed, and the hint's remedy is already applied)."""
    return [finding("stale_page", "warning", rel,
                    f"not updated for {page.age:.0f} days (threshold {stale_page_days:g})",
                    "review it: refresh, or mark it superseded")
            for rel, page in pages.items()
            if page.type not in _NOT_AGED and rel not in (INDEX_FILE, LOG_FILE)
            and not page.superseded and page.age > stale_page_days]


def hub_freshness(scan: Scan, pages: dict[str, DatedPage], now: datetime) -> list[HubFreshness]:
    """Each hub with its subtree freshness: its own updated_at spread with its direct
    children's (spec/wiki-memory-pkf.md hubsByRecent), in page order."""
    hubs = {rel: p for rel, p in pages.items() if p.type == "hub"}
    children: dict[str, list[str]] = {hub: [] for hub in hubs}
    for rel, page in pages.items():
        for parent in page.child_of:
            target = parent if parent.endswith(".md") else hub_path(parent.rstrip("/"))
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


@dataclass(frozen=True, slots=True)
class SourceVersion:
    """One version of an ingested source: its raw asset, its source page, when it became the
    path's version (ingested, or reverted to), and whether a later version replaced it."""

    asset_id: str
    raw_path: str
    source_page: str | None
    since: str
    reverted: bool  # a revert event's version (its raw asset is an earlier version's)
    current: bool = True


def source_versions(manifest: ManifestFacts) -> list[SourceVersion]:
    """Every version of every source (the manifest's assets in order, then its reverts), each
    marked current unless a later version replaced it. Only a current version is what distill
    reads, so only one can await a distill. The history is followed by source page, as
    tasks/store/versions.py does (a revert makes an earlier asset current again under a new
    page, so asset ids repeat): a version is replaced when a later one names its page as the
    one it supersedes; a version without a page (an old manifest) when one names its id."""
    first_by_id: dict[str, AssetFacts] = {}
    for asset in manifest["assets"]:
        first_by_id.setdefault(asset["assetId"], asset)
    replaced_pages = {r["supersedesSourcePage"] for r in manifest["reverts"]}
    replaced_ids = {r["supersedesAssetId"] for r in manifest["reverts"]}
    for asset in manifest["assets"]:
        older = first_by_id.get(asset["supersedesAssetId"] or "")
        replaced_pages.add(asset["supersedesSourcePage"]
                           or (older["sourcePage"] if older is not None else None))
        replaced_ids.add(asset["supersedesAssetId"] or "")
    versions = [SourceVersion(a["assetId"], a["rawPath"], a["sourcePage"], a["ingestedAtUtc"],
                              reverted=False) for a in manifest["assets"]]
    versions += [SourceVersion(r["assetId"], first_by_id[r["assetId"]]["rawPath"], r["sourcePage"],
                               r["revertedAtUtc"], reverted=True)
                 for r in manifest["reverts"] if r["assetId"] in first_by_id]
    return [replace(v, current=v.source_page not in replaced_pages if v.source_page
                    else v.asset_id not in replaced_ids) for v in versions]


def raw_changed(scan: Scan, asset: AssetFacts) -> Finding | None:
    """The finding for a raw asset that is missing or changed since ingest (raw/ is immutable)."""
    entry = scan.files.get(asset["rawPath"])
    if entry is not None and f"sha256:{entry['hash']}" == asset["contentHash"]:
        return None
    return finding("raw_changed", "error", asset["rawPath"],
                   "raw asset is missing" if entry is None else
                   "raw asset changed since ingest (hash differs)",
                   "raw/ is immutable: restore it and ingest the new version")


def distill_lag(version: SourceVersion, distilled: dict[str, str]) -> Finding | None:
    """The finding for a version never distilled, or distilled before it became current (its
    ingest, or its revert). Distill reads the raw file, never the source page: a later write
    of the page (a hand edit, a reconcile repair) changes nothing distill would read, and a
    finding for it would never clear."""
    where = version.source_page or version.raw_path
    when = distilled.get(version.asset_id) or (
        distilled.get(version.source_page) if version.source_page else None)
    if when is None:
        return finding("source_not_distilled", "warning", where, "source was never distilled",
                       "run `membank distill`")
    if when < version.since:
        return finding("distill_older_than_source", "warning", where,
                       f"distilled at {when}, source changed at {version.since}",
                       "run `membank distill` to refresh its facts")
    return None


def check_sources(scan: Scan, distilled: dict[str, str], versions: list[SourceVersion]
                  ) -> tuple[list[Finding], int]:
    """Raw assets that changed (of every version), and current source versions never
    distilled or distilled before they last changed; with the number of sources concerned.
    A superseded version is history, not a source awaiting distill: distill never reads it
    again, and marking its page superseded is no change of what distill read."""
    manifest = scan.manifest()
    has_distill_state = scan.distill_state() is not None
    findings: list[Finding] = []
    if not has_distill_state and manifest is not None and manifest["assets"]:
        findings.append(finding("distill_state_missing", "info", DISTILL_STATE_FILE,
                                "no distill state: cannot tell which sources were distilled",
                                "run `membank distill`"))
    if manifest is None:
        return findings, 0
    raw_problems = {a["rawPath"]: raw_changed(scan, a) for a in manifest["assets"]}
    changed: set[str] = set()
    for version in versions:
        problem = raw_problems[version.raw_path]
        if problem is not None:
            if not version.reverted:  # once per raw asset, with the version that stored it
                changed.add(version.raw_path)
                findings.append(problem)
            continue
        lag = (distill_lag(version, distilled)
               if has_distill_state and version.current else None)
        if lag is not None:
            changed.add(version.raw_path)
            findings.append(lag)
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
    manifest = scan.manifest()  # every version, read once: pages' history and sources' lag
    versions = source_versions(manifest) if manifest is not None else []
    pages, findings = dated_pages(scan, now, counts, versions)
    stale_pages = check_stale_pages(pages, thresholds.stale_page_days)
    hubs = hub_freshness(scan, pages, now)
    stale_hubs = check_stale_hubs(hubs, thresholds.stale_hub_days)
    distilled = latest_distill_times(scan.distill_state())
    source_findings, tally.sources_changed = check_sources(scan, distilled, versions)
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
    settings, root = operation.settings, operation.root
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
    state_problem = scan.problem(DISTILL_STATE_FILE)  # the scan parsed and validated it
    if state_problem is not None:
        findings.append(finding("invalid_context_file", "error", DISTILL_STATE_FILE,
                                state_problem["message"], state_problem["hint"]))
    durations["graph"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    audit, counts, detail, tally = audit_freshness(
        scan, now_iso=operation.now_iso, thresholds=FreshnessThresholds.from_settings(settings),
        graph_entities=graph_entities)
    counts.relations = relations
    findings += audit
    durations["audit"] = time.perf_counter() - t0
    operation.stage.note_problems(problems_from(findings))
    operation.stage.note_figures(tally.figures(counts.pages_total))
    report = operation.stage.finish()
    durations["total"] = time.perf_counter() - started
    summary = build_summary(kind="freshness", mode="audit", project=settings.project, root=root,
                            now_iso=operation.now_iso, findings=findings, counts=counts,
                            repaired=[], durations=durations,
                            limit=settings.health_max_findings_per_code, freshness=detail)
    return report, summary
