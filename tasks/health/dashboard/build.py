"""The ops dashboard: context/health/dashboard.html, drawn from history.jsonl alone.

One self-contained page (inline CSS; SVG charts drawn in the page by the inlined, vendored
Chartist from inlined data; a few lines of inline JS to filter the findings table; a
Content-Security-Policy forbids every fetch), regenerated on each health write and by
`membank dashboard`. Same history and clock give the same bytes. history.jsonl is ours, but a
hand-edited line must not stop health writes (tasks/health/dashboard/history.py).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from tasks.health.dashboard.charts import Axis, chart_payload, window_axis
from tasks.health.dashboard.history import (
    History,
    Line,
    latest_by_kind,
    mapping,
    number,
    read_history,
    run_seconds,
    status_since,
)
from tasks.health.dashboard.page import PageData, render_page
from tasks.store.atomic import atomic_write_text
from tasks.store.clock import parse_utc
from tasks.store.layout import health_dir

DASHBOARD_FILE = "dashboard.html"
HEALTH_KINDS = ("reconcile", "freshness")
STATUS_VALUE = {"healthy": 0, "degraded": 1, "failing": 2}
TOP_CODES = 6
LAST_RUNS = 25

Point = tuple[datetime, float]


# Where a run falls: (its bucket of the window's axis, its time). See tasks/health/dashboard/charts.py.
At = tuple[int, datetime]
_EPOCH = datetime.fromtimestamp(0, UTC)  # the axis of an empty window (no point is placed on it)


@dataclass
class ChartData:
    """One chart: its id, title, and its series in legend order, each keeping the latest
    point of every time bucket (runs arrive in time order, so buckets stay in order)."""

    chart_id: str
    title: str
    buckets: dict[str, dict[int, Point]] = field(default_factory=dict)
    y_names: dict[float, str] | None = None

    def add(self, name: str, at: At, value: object) -> None:
        checked = number(value)
        if checked is not None:
            self.buckets.setdefault(name, {})[at[0]] = (at[1], checked)

    @property
    def series(self) -> dict[str, list[Point]]:
        return {name: list(points.values()) for name, points in self.buckets.items()}


def _counts(run: Line) -> dict[str, Any]:
    return mapping(run.get("counts"))


def _health(runs: Iterable[Line]) -> list[Line]:
    return [r for r in runs if r["kind"] in HEALTH_KINDS]


def chart_data(runs: Sequence[Line], axis: Axis | None = None) -> list[ChartData]:
    """Every trend the dashboard draws, from the history runs (in time order), one point per
    series per bucket of the axis (a run or a few, a day or a few: tasks.health.dashboard.charts)."""
    moments = [parse_utc(run["generated_at"]) for run in runs]
    axis = axis or window_axis(moments, moments[0] if moments else _EPOCH)
    status = ChartData("status", "Status over time",
                       y_names={float(v): k for k, v in STATUS_VALUE.items()})
    pages = ChartData("pages", "Pages by type")
    graph = ChartData("graph", "Knowledge graph")
    severity = ChartData("severity", "Findings by severity (reconcile and audit together)")
    by_code = ChartData("codes", "Findings by code (most frequent)")
    stale = ChartData("stale", "Stale pages, hubs and observations")
    durations = ChartData("durations", "Run duration per stage (seconds per run)")
    ingest = ChartData("ingest", "Ingest throughput (MB/s)")
    codes = _top_codes(runs)
    levels: dict[str, dict[str, int]] = {}  # the latest findings_by_severity of each check
    for index, (run, moment) in enumerate(zip(runs, moments, strict=True)):
        kind, counts = run["kind"], _counts(run)
        at = (axis.bucket(index, moment), moment)
        durations.add(kind, at, run_seconds(run))
        if kind == "ingest":
            ingest.add("MB/s", at, mapping(run.get("ingest")).get("mb_per_s"))
            continue
        if kind not in HEALTH_KINDS:
            continue
        status.add(kind, at, STATUS_VALUE.get(str(run.get("status"))))
        for page_type, count in sorted(mapping(counts.get("pages_by_type")).items()):
            pages.add(page_type, at, count)
        for name in ("entities", "relations", "observations_active", "observations_superseded"):
            graph.add(name.replace("_", " "), at, counts.get(name))
        levels[kind] = mapping(counts.get("findings_by_severity"))
        reconciled, audited = levels.get("reconcile", {}), levels.get("freshness", {})
        for level in ("error", "warning", "info"):
            severity.add(level, at, reconciled.get(level, 0) + audited.get(level, 0))
        for code in codes.get(kind, ()):
            by_code.add(code, at, mapping(counts.get("findings_by_code")).get(code, 0))
        for name in ("stale_pages", "stale_hubs", "stale_observations", "sources_changed"):
            stale.add(name.replace("_", " "), at, counts.get(name))
    _drop_flat_zero_series(severity)
    return [status, pages, graph, severity, by_code, stale, durations, ingest]


def _top_codes(runs: Sequence[Line]) -> dict[str, list[str]]:
    """The most frequent finding codes over the window, per health kind that reported them."""
    peak: dict[tuple[str, str], float] = {}
    for run in _health(runs):
        for code, count in mapping(_counts(run).get("findings_by_code")).items():
            key = (run["kind"], code)
            peak[key] = max(peak.get(key, 0), number(count) or 0)
    ranked = sorted(peak.items(), key=lambda item: (-item[1], item[0]))[:TOP_CODES]
    chosen: dict[str, list[str]] = {}
    for (kind, code), _ in sorted(ranked, key=lambda item: item[0][1]):
        chosen.setdefault(kind, []).append(code)
    return chosen


def _drop_flat_zero_series(chart: ChartData) -> None:
    """Series that stay at zero over the window are noise in the legend (keep one line)."""
    flat = [name for name, points in chart.buckets.items() if not any(v for _, v in points.values())]
    for name in flat[: len(chart.buckets) - 1] if len(flat) == len(chart.buckets) else flat:
        del chart.buckets[name]


def render_dashboard(history: History, *, now_iso: str, health_files: Sequence[str]) -> str:
    """The dashboard page for `history` as seen at `now_iso` (pure: same input, same bytes)."""
    runs = history.runs
    axis = window_axis([parse_utc(run["generated_at"]) for run in runs], parse_utc(now_iso))
    charts = [(chart, chart_payload(chart, axis)) for chart in chart_data(runs, axis)]
    return render_page(PageData(history=history, now_iso=now_iso, charts=charts, axis_note=axis.note(),
                                latest=latest_by_kind(runs),
                                since={kind: status_since(runs, kind) for kind in HEALTH_KINDS},
                                last_runs=runs[-LAST_RUNS:][::-1], health_files=health_files))


def health_files(folder: Path) -> list[str]:
    """The JSON, Prometheus and HTML files beside the dashboard that it links to."""
    wanted = ["latest.json", "history.jsonl"]
    for kind in HEALTH_KINDS:
        wanted += [f"latest-{kind}.json", f"membank-{kind}.prom", f"latest-{kind}.html"]
    wanted.append("graph.html")  # the knowledge view (tasks/health/dashboard/graph_view.py)
    return [name for name in wanted if (folder / name).exists()]


def write_dashboard(root: Path, *, now_iso: str) -> Path:
    """Regenerate <root>/context/health/dashboard.html from history.jsonl; return its path."""
    folder = health_dir(root)
    folder.mkdir(parents=True, exist_ok=True)
    page = render_dashboard(read_history(folder / "history.jsonl"), now_iso=now_iso,
                            health_files=health_files(folder))
    target = folder / DASHBOARD_FILE
    atomic_write_text(target, page)
    return target
