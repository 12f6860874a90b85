"""A health summary built from findings, and its renderings: markdown, one line, Prometheus text, HTML."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING, NotRequired, TypedDict, Unpack

from schemas.health import (
    Finding,
    FreshnessDetail,
    HealthCounts,
    HealthKind,
    HealthMode,
    HealthSummary,
    decide_status,
)
from tasks.health.findings import cap_findings
from tasks.store.clock import parse_utc

if TYPE_CHECKING:
    from prometheus_client import CollectorRegistry

_STATUS_VALUE = {"healthy": 0, "degraded": 1, "failing": 2}


class SummaryFacts(TypedDict):
    """What a health summary is built from: build_summary's keyword arguments."""

    kind: HealthKind
    mode: HealthMode
    project: str
    root: Path
    now_iso: str
    findings: list[Finding]
    counts: HealthCounts  # completed here: findings by severity and code, repairs
    repaired: list[Finding]
    durations: dict[str, float]
    limit: int  # findings kept per code (cap_findings)
    freshness: NotRequired[FreshnessDetail | None]


def build_summary(**facts: Unpack[SummaryFacts]) -> HealthSummary:
    findings, counts, repaired = facts["findings"], facts["counts"], facts["repaired"]
    limit = facts["limit"]
    status, rule = decide_status(findings)
    counts.findings_by_severity = dict(sorted(Counter(f.severity for f in findings).items()))
    counts.findings_by_code = dict(sorted(Counter(f.code for f in findings).items()))
    counts.repairs = len(repaired)
    return HealthSummary(
        kind=facts["kind"], project=facts["project"], root=str(facts["root"]),
        generated_at=facts["now_iso"], status=status, status_rule=rule, mode=facts["mode"],
        counts=counts, findings=cap_findings(findings, limit),
        repaired=cap_findings(repaired, limit),
        durations_seconds={k: round(v, 4) for k, v in facts["durations"].items()},
        freshness=facts.get("freshness"),
    )


def metrics_registry(summary: HealthSummary) -> CollectorRegistry:
    # prometheus_client (~0.04 s to import) only where metrics are made: every ingest records
    # its run through tasks.health.history, which needs findings_table alone.
    from prometheus_client import CollectorRegistry, Gauge

    registry = CollectorRegistry()
    kind = summary.kind
    counts = summary.counts

    def gauge(name: str, doc: str, value: float | None, **labels: str) -> None:
        if value is None:
            return  # not assessed by this flow: no sample rather than a false zero
        names = ["flow", *labels]
        metric = Gauge(name, doc, names, registry=registry)
        metric.labels(kind, *labels.values()).set(value)

    status = Gauge("membank_health_status", "0 healthy, 1 degraded, 2 failing.", ["flow"],
                   registry=registry)
    status.labels(kind).set(_STATUS_VALUE[summary.status])
    Gauge("membank_last_run_timestamp_seconds", "When the summary was generated (unix time).",
          ["flow"], registry=registry).labels(kind).set(parse_utc(summary.generated_at).timestamp())
    pages = Gauge("membank_pages", "Pages by type.", ["flow", "type"], registry=registry)
    for page_type, count in sorted(counts.pages_by_type.items()):
        pages.labels(kind, page_type).set(count)
    gauge("membank_pages_total", "Pages scanned.", counts.pages_total)
    gauge("membank_entities", "Entities in the knowledge graph.", counts.entities)
    gauge("membank_relations", "Relations in the knowledge graph.", counts.relations)
    observations = Gauge("membank_observations", "Observations by state.", ["flow", "state"],
                         registry=registry)
    observations.labels(kind, "active").set(counts.observations_active)
    observations.labels(kind, "superseded").set(counts.observations_superseded)
    gauge("membank_orphan_pages", "Pages that hang under no hub.", counts.orphans)
    gauge("membank_dead_links", "Links that point at no file.", counts.dead_links)
    gauge("membank_invalid_files", "Files that cannot be read or break a contract.",
          counts.invalid_files)
    gauge("membank_stale_pages", "Pages past the staleness threshold.", counts.stale_pages)
    gauge("membank_stale_hubs", "Hubs whose subtree is past the threshold.", counts.stale_hubs)
    gauge("membank_stale_observations", "Observations not confirmed within the window.",
          counts.stale_observations)
    gauge("membank_sources_changed", "Sources changed since ingest or since their distill.",
          counts.sources_changed)
    gauge("membank_secrets_found", "Secrets found by the privacy audit.", counts.secrets_found)
    gauge("membank_pii_found", "Personal data found by the privacy audit.", counts.pii_found)
    gauge("membank_repairs", "Repairs applied by this run.", counts.repairs)
    findings = Gauge("membank_findings", "Findings by severity.", ["flow", "severity"],
                     registry=registry)
    for severity in ("error", "warning", "info"):
        findings.labels(kind, severity).set(counts.findings_by_severity.get(severity, 0))
    by_code = Gauge("membank_findings_by_code", "Findings by code.", ["flow", "code"],
                    registry=registry)
    for code, count in sorted(counts.findings_by_code.items()):
        by_code.labels(kind, code).set(count)
    durations = Gauge("membank_run_duration_seconds", "Time spent per phase.", ["flow", "phase"],
                      registry=registry)
    for phase, seconds in sorted(summary.durations_seconds.items()):
        durations.labels(kind, phase).set(seconds)
    return registry


def prometheus_text(summary: HealthSummary) -> str:
    from prometheus_client import generate_latest

    return generate_latest(metrics_registry(summary)).decode("utf-8")


def _n(value: int | None) -> str:
    return "-" if value is None else str(value)


def summary_markdown(summary: HealthSummary) -> str:
    c = summary.counts
    lines = [
        f"# membank {summary.kind} health: {summary.status}",
        "",
        f"- generated_at: {summary.generated_at} ({summary.mode})",
        f"- rule: {summary.status_rule}",
        f"- pages: {c.pages_total} ({', '.join(f'{k} {v}' for k, v in c.pages_by_type.items())})",
        f"- graph: {c.entities} entities, {c.relations} relations, {c.observations_active} "
        f"active and {c.observations_superseded} superseded observations",
        f"- orphans {_n(c.orphans)}, dead links {_n(c.dead_links)}, invalid files "
        f"{_n(c.invalid_files)}, stale pages {_n(c.stale_pages)}, stale hubs {_n(c.stale_hubs)}, "
        f"stale observations {_n(c.stale_observations)}, sources changed "
        f"{_n(c.sources_changed)} (- = not assessed by this flow)",
        *([f"- privacy: {_n(c.secrets_found)} secret(s), {_n(c.pii_found)} personal datum/data"]
          if c.secrets_found is not None else []),
        f"- repairs: {c.repairs}",
        f"- durations: {', '.join(f'{k} {v:.3f}s' for k, v in summary.durations_seconds.items())}",
    ]
    if summary.freshness and summary.freshness.hubs_by_recent:
        lines += ["", "## Hubs by recent write", "", "| hub | freshest write | age (days) |",
                  "|---|---|---|"]
        for hub in summary.freshness.hubs_by_recent:
            lines.append(f"| {hub.path} | {hub.subtree_updated_at or '-'} | "
                         f"{'-' if hub.age_days is None else f'{hub.age_days:.1f}'} |")
    lines += ["", "## Findings", ""]
    if not summary.findings:
        lines.append("none")
    lines += [f"- **{f.severity}** `{f.code}` {f.path or ''}: {f.message}"
              + (f" (hint: {f.hint})" if f.hint else "") for f in summary.findings]
    return "\n".join(lines) + "\n"


def summary_line(summary: HealthSummary, where: str | None = None) -> str:
    sev = summary.counts.findings_by_severity
    text = (f"health {summary.status}: {sev.get('error', 0)} error(s), "
            f"{sev.get('warning', 0)} warning(s), {summary.counts.repairs} repair(s)")
    return f"{text} -> {where}" if where else text


def findings_table(summary: HealthSummary) -> list[dict[str, str]]:
    return [{"severity": f.severity, "code": f.code, "path": f.path or "",
             "message": f.message, "hint": f.hint or ""} for f in summary.findings]


def summary_html(summary: HealthSummary) -> str:
    """A self-contained HTML page of the summary, for a browser or a dashboard iframe."""
    from html import escape

    from tasks.markdown.parser import inline_parser  # lazy for start-up: markdown-it, for HTML only

    body = inline_parser(html=False).render(summary_markdown(summary))
    colour = {"healthy": "#1a7f37", "degraded": "#9a6700", "failing": "#cf222e"}[summary.status]
    return (
        "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
        f"<title>membank {escape(summary.kind)} health: {escape(summary.status)}</title>"
        "<style>body{font-family:system-ui,sans-serif;max-width:60rem;margin:2rem auto;"
        "padding:0 1rem}table{border-collapse:collapse}td,th{border:1px solid #ccc;"
        f"padding:.2rem .5rem}}h1{{color:{colour}}}</style></head><body>\n{body}</body></html>\n"
    )
