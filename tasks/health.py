"""Health summaries: build them from findings, write them where ops dashboards read them.

Files under <root>/context/health/:
  <prefix>__<kind>-health.json   the dated summary
  latest.json, latest-<kind>.json the most recent summary (any kind / this kind)
  history.jsonl                   one compact line per run, for plotting (tasks/dashboard/build.py)
  membank-<kind>.prom             Prometheus textfile (node_exporter textfile collector)
  dashboard.html                  the ops dashboard, drawn from history.jsonl alone
  graph.html                      the knowledge view, drawn from the knowledge graph

Retention is by time, not by run: one dated summary per day per kind (the latest of that day),
history lines and dated files older than MEMBANK_HEALTH_HISTORY_DAYS are pruned.
Publishing to Prefect (artifacts, events for automations) is the flows' part: flows/health.py.
"""

from __future__ import annotations

import os
import re
from collections import Counter
from collections.abc import Iterable
from datetime import timedelta
from pathlib import Path
from typing import NotRequired, TypedDict, Unpack

import orjson
from prometheus_client import CollectorRegistry, Gauge, generate_latest

from schemas.common import PREFIX_PATTERN
from schemas.health import (
    Finding,
    FreshnessDetail,
    HealthCounts,
    HealthKind,
    HealthMode,
    HealthSummary,
    Severity,
    decide_status,
)
from schemas.report import MemoryOperationReport, Problem
from tasks.store.atomic import atomic_write_bytes, atomic_write_text, check_write_target, ensure_folder
from tasks.store.clock import iso_utc, parse_utc
from tasks.store.contracts import validate_model
from tasks.store.errors import ContractError, RootError, from_os_error
from tasks.store.jsonc import dumps_json
from tasks.store.layout import HEALTH_DIR, health_dir
from tasks.store.names import utc_prefix
from tasks.store.settings import MembankSettings

_DATED_RE = re.compile(
    rf"^(?P<prefix>{PREFIX_PATTERN})__(?:reconcile|freshness|privacy)-health\.json$")
_SEVERITY_RANK = {"error": 0, "warning": 1, "info": 2}
_STATUS_VALUE = {"healthy": 0, "degraded": 1, "failing": 2}


def finding(code: str, severity: Severity, path: str | None, message: str,
            hint: str | None = None) -> Finding:
    return Finding(code=code, severity=severity, path=path, message=message, hint=hint)


def sort_findings(findings: Iterable[Finding]) -> list[Finding]:
    return sorted(findings, key=lambda f: (_SEVERITY_RANK[f.severity], f.code, f.path or "",
                                           f.message))


def cap_findings(findings: list[Finding], limit: int) -> list[Finding]:
    """Keep at most `limit` findings per code, plus one line saying how many were left off."""
    kept: list[Finding] = []
    per_code: Counter[str] = Counter()
    for item in sort_findings(findings):
        per_code[item.code] += 1
        if per_code[item.code] <= limit:
            kept.append(item)
    for code, total in sorted(per_code.items()):
        if total > limit:
            first = next(f for f in kept if f.code == code)
            kept.append(finding(code, first.severity, None,
                                f"... and {total - limit} more {code} finding(s) not listed",
                                first.hint))
    return kept


def problems_from(findings: Iterable[Finding]) -> list[Problem]:
    """Warnings and errors as report problems (info findings are not problems)."""
    return [Problem(file=f.path, code=f.code, message=f.message, hint=f.hint)
            for f in findings if f.severity != "info"]


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


def _registry(summary: HealthSummary) -> CollectorRegistry:
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
    return generate_latest(_registry(summary)).decode("utf-8")


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


def record_health(settings: MembankSettings, summary: HealthSummary) -> dict[str, str]:
    """write_health under the memory root's writer lock, as one journaled batch. Health files
    are writes like any other: a writer starting beside an unlocked one sweeps its temp files
    as orphans, and two health writers would race on the history and the day's dated file."""
    from tasks.store.operation import writing_operation  # lazy for start-up: readers never lock

    with writing_operation(settings, "audit") as operation:
        return write_health(operation.root, summary, keep_days=settings.health_history_days)


def write_health(root: Path, summary: HealthSummary, *, keep_days: float | None = None) -> dict[str, str]:
    """Write every health file and regenerate the dashboard; return {role: root-relative path}.
    The caller holds the writer lock (record_health).
    Earlier dated summaries of the same day and kind are replaced; with `keep_days`, dated
    summaries and history lines older than that are pruned (see prune_health_history); the
    count is returned under "pruned"."""
    folder = health_dir(root)
    ensure_folder(folder)
    document = dumps_json(summary.model_dump(mode="json"))
    dated = f"{HEALTH_DIR}/{utc_prefix(summary.generated_at)}__{summary.kind}-health.json"
    atomic_write_text(root / dated, document)
    atomic_write_text(folder / f"latest-{summary.kind}.json", document)
    atomic_write_text(folder / "latest.json", document)
    keep_latest_of_day(folder, summary.kind, utc_prefix(summary.generated_at))
    pruned = append_history(root, history_line(summary), now_iso=summary.generated_at,
                            keep_days=keep_days)
    # prometheus_client's write_to_textfile names its temp file <name>.<pid>.<thread>, which
    # no sweep recognises: the same bytes go through the atomic writer instead.
    atomic_write_bytes(folder / f"membank-{summary.kind}.prom", generate_latest(_registry(summary)),
                       validate=False)
    atomic_write_text(folder / f"latest-{summary.kind}.html", summary_html(summary))
    # Lazy for start-up: `membank health` and the agents' health tool read summaries and never
    # draw; importing the two dashboard modules adds about 0.1 s CPU (+20 %) to this module's.
    from tasks.dashboard.build import write_dashboard
    from tasks.dashboard.graph_view import write_graph_view

    graph_view = write_graph_view(root)  # first, so the dashboard lists it among its files
    dashboard = write_dashboard(root, now_iso=summary.generated_at)
    paths = {"dated": dated, "latest": f"{HEALTH_DIR}/latest.json",
             "html": f"{HEALTH_DIR}/latest-{summary.kind}.html",
             "history": f"{HEALTH_DIR}/history.jsonl",
             "prometheus": f"{HEALTH_DIR}/membank-{summary.kind}.prom",
             "dashboard": dashboard.relative_to(root).as_posix(),
             "graph_view": graph_view.relative_to(root).as_posix()}
    if pruned:
        paths["pruned"] = str(pruned)
    return paths


# How many of the stalest hubs and pages, and of the findings (worst first), a history line
# keeps for the dashboard: a line per run must stay small to keep drawing it cheap.
STALEST_KEPT = 10
FINDINGS_KEPT = 100


def history_line(summary: HealthSummary) -> dict[str, object]:
    """The history.jsonl line of one run: everything the dashboard draws, nothing more."""
    line: dict[str, object] = {
        "generated_at": summary.generated_at, "kind": summary.kind, "mode": summary.mode,
        "status": summary.status, "exit_code": summary.exit_code(),
        "counts": summary.counts.model_dump(mode="json"),
        "durations_seconds": summary.durations_seconds,
        "findings": findings_table(summary)[:FINDINGS_KEPT],
    }
    if summary.freshness is not None:
        hubs = sorted(summary.freshness.hubs_by_recent,
                      key=lambda h: (-(h.age_days or 0.0), h.path))[:STALEST_KEPT]
        line["stalest_hubs"] = [{"path": h.path, "age_days": h.age_days,
                                 "subtree_updated_at": h.subtree_updated_at} for h in hubs]
        line["stalest_pages"] = [{"path": p.path, "type": p.type, "age_days": p.age_days,
                                  "updated_at": p.updated_at}
                                 for p in summary.freshness.pages[:STALEST_KEPT]]
    return line


def ingest_history_line(report: MemoryOperationReport) -> dict[str, object] | None:
    """The history line of an ingest that stored something (a pure replay adds no line, so
    a rerun changes nothing): its throughput for the dashboard."""
    figures = report.figures
    stored = figures.get("files_ingested", 0)
    if not isinstance(stored, int) or stored <= 0:
        return None
    seconds = figures.get("seconds")
    return {"generated_at": report.memory_write_timestamp_utc, "kind": "ingest", "mode": "ingest",
            "status": report.status, "exit_code": report.exit_code(),
            "durations_seconds": {"total": seconds} if isinstance(seconds, int | float) else {},
            "ingest": {"files": stored, "bytes": figures.get("bytes_ingested", 0),
                       "shards": figures.get("shards_written", 0),
                       "mb_per_s": figures.get("mb_per_s")}}


def record_ingest_run(root: Path, report: MemoryOperationReport, keep_days: float | None) -> bool:
    """Append an ingest's line to history.jsonl; the dashboard shows it on its next drawing."""
    line = ingest_history_line(report)
    if line is None:
        return False
    append_history(root, line, now_iso=report.memory_write_timestamp_utc, keep_days=keep_days)
    return True


def append_history(root: Path, line: dict[str, object], *, now_iso: str,
                   keep_days: float | None = None) -> int:
    """Append one run's line to history.jsonl (pruning with `keep_days`); return how many
    files and lines the pruning removed."""
    folder = health_dir(root)
    folder.mkdir(parents=True, exist_ok=True)
    history = folder / "history.jsonl"
    check_write_target(history)  # a symlink there would be appended to / truncated
    with history.open("ab") as handle:
        handle.write(orjson.dumps(line, option=orjson.OPT_SORT_KEYS) + b"\n")
    if keep_days is None:
        return 0
    return prune_health_history(root, now_iso, keep_days)


def keep_latest_of_day(folder: Path, kind: str, prefix: str) -> int:
    """Keep one dated summary per day per kind: remove the others of `prefix`'s day that are
    older than the newest (a rerun the same day replaces the morning's file)."""
    day = prefix[:10]
    same_day = sorted(entry.name for entry in os.scandir(folder)
                      if entry.name.startswith(day) and entry.name.endswith(f"__{kind}-health.json")
                      and _DATED_RE.match(entry.name))
    for name in same_day[:-1]:
        (folder / name).unlink(missing_ok=True)  # an overlapping writer may have taken it
    return max(len(same_day) - 1, 0)


def prune_health_history(root: Path, now_iso: str, keep_days: float) -> int:
    """Remove dated health summaries and history.jsonl lines older than `keep_days` before
    `now_iso`; return how many went. latest-* files are never pruned.

    Health summaries are an operations time series, not memory facts: unbounded, a root with
    the nightly reconcile and a freshness audit every six hours gains ~1,800 files a year.
    History lines that do not parse are kept (they are not ours to judge)."""
    folder = health_dir(root)
    cutoff = iso_utc(parse_utc(now_iso) - timedelta(days=keep_days))
    cutoff_prefix = utc_prefix(cutoff)  # same-width UTC stamps: string order is time order
    pruned = 0
    for entry in os.scandir(folder):
        match = _DATED_RE.match(entry.name)
        if match and match["prefix"] < cutoff_prefix:
            os.unlink(entry.path)
            pruned += 1
    history = folder / "history.jsonl"
    if history.exists():
        lines = history.read_bytes().splitlines(keepends=True)
        kept = [line for line in lines if not _history_line_before(line, cutoff)]
        if len(kept) != len(lines):
            atomic_write_bytes(history, b"".join(kept), validate=False)
            pruned += len(lines) - len(kept)
    return pruned


def _history_line_before(line: bytes, cutoff: str) -> bool:
    try:
        stamp = orjson.loads(line).get("generated_at")
    except (orjson.JSONDecodeError, AttributeError):
        return False
    return isinstance(stamp, str) and stamp < cutoff


def load_latest(root: Path, kind: HealthKind | None = None) -> HealthSummary:
    name = f"latest-{kind}.json" if kind else "latest.json"
    path = health_dir(root) / name
    if root.exists() and not root.is_dir():
        raise RootError("memory root exists and is not a folder", file=root,
                        hint="pass --root (or MEMBANK_ROOT) with a folder path")
    try:
        data = orjson.loads(path.read_bytes())
    except FileNotFoundError as exc:
        raise RootError("no health summary yet", file=path,
                        hint="run `membank reconcile` or `membank audit freshness` first") from exc
    except OSError as exc:
        raise from_os_error(exc, path) or RootError(
            f"cannot read the health summary: {exc.strerror}", file=path) from exc
    except orjson.JSONDecodeError as exc:
        raise ContractError(f"health summary is not JSON: {exc}", file=path,
                            hint="rerun `membank reconcile` to rewrite it") from exc

    return validate_model(HealthSummary, data, file=path)
