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
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from schemas.distill_state import DistillState
from schemas.health import (
    Finding,
    FreshnessDetail,
    HealthCounts,
    HealthSummary,
    HubFreshness,
    PageAge,
)
from schemas.report import MemoryOperationReport
from tasks.clock import parse_utc
from tasks.contracts import validate_model
from tasks.errors import MembankError
from tasks.graph_store import load_graph
from tasks.health import build_summary, finding, problems_from
from tasks.jsonc import read_jsonc_file
from tasks.operation import Operation
from tasks.scan import (
    DISTILL_STATE_FILE,
    GRAPH_FILE,
    INDEX_FILE,
    LOG_FILE,
    MANIFEST_FILE,
    Scan,
    load_cache,
    scan_memory,
)

_DAY = 86_400.0


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


def _age_days(now: datetime, iso: str) -> float:
    return round((now - parse_utc(iso)).total_seconds() / _DAY, 3)


def audit_freshness(scan: Scan, *, now_iso: str, stale_page_days: float, stale_hub_days: float,
                    observation_window_days: float,
                    graph_entities: list[Any] | None,
                    ) -> tuple[list[Finding], HealthCounts, FreshnessDetail, FreshnessTally]:
    """Pure: findings, counts and the freshness detail of one scan (and the parsed graph)."""
    now = parse_utc(now_iso)
    findings: list[Finding] = []
    counts = HealthCounts(stale_pages=0, stale_hubs=0, stale_observations=0, sources_changed=0)
    tally = FreshnessTally()
    detail = FreshnessDetail(thresholds={"stale_page_days": stale_page_days,
                                         "stale_hub_days": stale_hub_days,
                                         "observation_window_days": observation_window_days})
    pages: dict[str, dict[str, Any]] = {}
    for rel in scan.of_kind("page"):
        meta = scan.facts(rel).get("meta", {})
        page_type = meta.get("type") if isinstance(meta.get("type"), str) else None
        counts.pages_total += 1
        counts.pages_by_type[page_type or "invalid"] = counts.pages_by_type.get(
            page_type or "invalid", 0) + 1
        updated = meta.get("updated_at")
        try:
            age = _age_days(now, updated) if isinstance(updated, str) else None
        except ValueError:
            age = None
        if age is None:
            findings.append(finding("page_without_updated_at", "warning", rel,
                                    "page has no readable updated_at, so its age is unknown",
                                    "run `membank reconcile` for the page's frontmatter problem"))
            continue
        pages[rel] = {"type": page_type, "updated_at": updated, "age": age,
                      "child_of": meta.get("child_of", [])}
    counts.pages_by_type = dict(sorted(counts.pages_by_type.items()))
    detail.pages = [PageAge(path=rel, type=p["type"], updated_at=p["updated_at"], age_days=p["age"])
                    for rel, p in sorted(pages.items(), key=lambda kv: (-kv[1]["age"], kv[0]))]
    for rel, page in pages.items():
        if page["type"] in {"hub", "index", "log"} or rel in (INDEX_FILE, LOG_FILE):
            continue
        if page["age"] > stale_page_days:
            tally.stale_pages += 1
            findings.append(finding("stale_page", "warning", rel,
                                    f"not updated for {page['age']:.0f} days "
                                    f"(threshold {stale_page_days:g})",
                                    "review it: refresh, or mark it superseded"))

    # hubs: own updated_at spread with direct children's
    hubs = {rel: p for rel, p in pages.items() if p["type"] == "hub"}
    children: dict[str, list[str]] = {hub: [] for hub in hubs}
    for rel, page in pages.items():
        for parent in page["child_of"]:
            target = parent if parent.endswith(".md") else f"{parent.rstrip('/')}/index.md"
            if target in children and target != rel:
                children[target].append(rel)
    rows = []
    for hub, page in hubs.items():
        freshest, freshest_at = hub, page["updated_at"]
        for child in children[hub]:
            if pages[child]["updated_at"] > freshest_at:
                freshest, freshest_at = child, pages[child]["updated_at"]
        age = _age_days(now, freshest_at)
        rows.append(HubFreshness(path=hub, title=scan.facts(hub).get("meta", {}).get("title"),
                                 updated_at=page["updated_at"], subtree_updated_at=freshest_at,
                                 freshest_path=freshest, age_days=age,
                                 children=len(children[hub])))
        if age > stale_hub_days:
            tally.stale_hubs += 1
            findings.append(finding("stale_hub", "warning", hub,
                                    f"nothing under this hub was written for {age:.0f} days "
                                    f"(threshold {stale_hub_days:g})",
                                    "review the topic: is it still alive?"))
    detail.hubs_by_recent = sorted(rows, key=lambda r: (r.subtree_updated_at or "", r.path),
                                   reverse=True)

    # sources: raw changed, distill older than the source
    manifest = scan.facts(MANIFEST_FILE)
    distill = scan.facts(DISTILL_STATE_FILE)
    distilled: dict[str, str] = {}
    for source in distill.get("sources", []) if not distill.get("problem") else []:
        for key in (source["sourcePage"], source["assetId"]):
            distilled[key] = max(distilled.get(key, ""), source["distilledAtUtc"])
    has_distill_state = DISTILL_STATE_FILE in scan.files and not distill.get("problem")
    if not has_distill_state and manifest.get("assets"):
        findings.append(finding("distill_state_missing", "info", DISTILL_STATE_FILE,
                                "no distill state: cannot tell which sources were distilled",
                                "run `membank distill`"))
    changed_sources: set[str] = set()
    for asset in manifest.get("assets", []) if not manifest.get("problem") else []:
        rel = asset["rawPath"]
        entry = scan.files.get(rel)
        if entry is None or f"sha256:{entry['hash']}" != asset["contentHash"]:
            changed_sources.add(rel)
            findings.append(finding("raw_changed", "error", rel,
                                    "raw asset is missing" if entry is None else
                                    "raw asset changed since ingest (hash differs)",
                                    "raw/ is immutable: restore it and ingest the new version"))
            continue
        if not has_distill_state:
            continue
        source_page = asset.get("sourcePage")
        when = distilled.get(asset["assetId"]) or (
            distilled.get(source_page) if source_page else None)
        source_time = asset["ingestedAtUtc"]
        if source_page and source_page in pages:
            source_time = max(source_time, pages[source_page]["updated_at"])
        if when is None:
            changed_sources.add(rel)
            findings.append(finding("source_not_distilled", "warning", source_page or rel,
                                    "source was never distilled", "run `membank distill`"))
        elif when < source_time:
            changed_sources.add(rel)
            findings.append(finding("distill_older_than_source", "warning", source_page or rel,
                                    f"distilled at {when}, source changed at {source_time}",
                                    "run `membank distill` to refresh its facts"))
    tally.sources_changed = len(changed_sources)

    # observations confirmed by a distilled source within the window
    if graph_entities is not None:
        for entity in graph_entities:
            counts.entities += 1
            counts.observations_active += len(entity.observations)
            counts.observations_superseded += len(entity.supersededObservations)
            confirmed: dict[str, str] = {}
            for prov in entity.observationProvenance:
                moment = distilled.get(prov.sourcePage) or distilled.get(prov.rawAssetId)
                if moment:
                    text = prov.observation.strip()
                    confirmed[text] = max(confirmed.get(text, ""), moment)
            stale = []
            for text in entity.observations:
                moment = confirmed.get(text.strip())
                if moment is None or _age_days(now, moment) > observation_window_days:
                    stale.append(text)
            if stale:
                tally.stale_observations += len(stale)
                findings.append(finding(
                    "stale_observation", "warning", GRAPH_FILE,
                    f"{entity.entityName}: {len(stale)} observation(s) not confirmed by a "
                    f"distilled source within {observation_window_days:g} days, e.g. {stale[0]!r}",
                    "re-distill its sources, or supersede facts nobody can confirm"))
    tally.into(counts)
    return findings, counts, detail, tally


def freshness_audit(operation: Operation) -> tuple[MemoryOperationReport, HealthSummary]:
    """Run the audit over the memory root; reads the reconcile cache but never writes it."""
    started = time.perf_counter()
    settings, root, report = operation.settings, operation.root, operation.report
    scan = scan_memory(root, load_cache(root))
    durations = {"scan": time.perf_counter() - started}
    t0 = time.perf_counter()
    findings: list[Finding] = []
    graph_entities = None
    relations = 0
    if GRAPH_FILE in scan.files and not scan.facts(GRAPH_FILE).get("problem"):
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
        scan, now_iso=operation.now_iso, stale_page_days=settings.freshness_stale_page_days,
        stale_hub_days=settings.freshness_stale_hub_days,
        observation_window_days=settings.freshness_observation_window_days,
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
