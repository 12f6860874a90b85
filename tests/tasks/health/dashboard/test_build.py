"""The ops dashboard page: drawn from history.jsonl alone, self-contained, deterministic."""

from __future__ import annotations

import re
from datetime import timedelta
from pathlib import Path

import orjson

from tasks.health.dashboard.build import DASHBOARD_FILE, chart_data, render_dashboard, write_dashboard
from tasks.health.dashboard.charts import MAX_POINTS, bucket_width, payload_script, window_axis
from tasks.health.dashboard.history import parse_history, read_history, status_since
from tasks.health.dashboard.page import FIRST_RUN
from tasks.health.files import write_health
from tasks.health.findings import finding
from tasks.store.clock import parse_utc
from tests.health_history import reconcile_summary, write_first_day, write_history
from tests.tasks.health.test_retention import summary

END = "2026-03-24T22:40:05Z"


def history_root(tmp_path: Path, days: int) -> Path:
    write_history(tmp_path, days=days, end=END)
    return tmp_path


def chart_payloads(text: str) -> dict[str, dict]:
    data = re.search(r'<script type="application/json" id="chart-data">(.*?)</script>', text, re.S)
    assert data is not None
    return {chart["id"]: chart for chart in orjson.loads(data.group(1))}


def test_page_is_self_contained_and_deterministic(tmp_path: Path) -> None:
    root = history_root(tmp_path, 30)
    page = write_dashboard(root, now_iso=END)
    first = page.read_bytes()
    assert write_dashboard(root, now_iso=END).read_bytes() == first
    text = first.decode()
    assert "Content-Security-Policy" in text and "default-src 'none'" in text
    assert not re.search(r"""(?:src|href)=["']?(?:https?:)?//""", text), "nothing may be fetched"
    assert "@import" not in text and "url(" not in text
    assert text.count("<script") == 3 and "<script src" not in text  # data, Chartist, ours
    charts = orjson.loads(re.search(r'<script type="application/json" id="chart-data">(.*?)</script>',
                                    text, re.S).group(1))
    assert [c["id"] for c in charts] == ["status", "pages", "graph", "severity", "codes", "stale",
                                         "durations", "ingest"]
    for chart in charts:
        assert chart["series"] and all(len(s["points"]) >= 25 for s in chart["series"]), chart["id"]
        assert f'<div class="ct-chart" id="chart-{chart["id"]}"></div>' in text
    assert "prefers-color-scheme:dark" in text and 'name="viewport"' in text
    assert "Chartist" in text and ".ct-series-a .ct-line{stroke:#2f81f7}" in text


def test_page_shows_checks_findings_stalest_runs_and_files(tmp_path: Path) -> None:
    root = history_root(tmp_path, 3)
    write_health(root, summary("2026-03-24T23:00:00Z", errors=1))
    text = (root / "context/health" / DASHBOARD_FILE).read_text()
    assert '<section class="card" data-kind="reconcile">' in text and "failing since 2026-03-24T23:00:00Z" in text
    assert '<section class="card" data-kind="freshness">' in text and 'data-kind="ingest"' in text
    assert '<tr data-severity="error"><td>reconcile</td><td>error</td><td>dead_link</td>' in text
    assert "wiki/synthesis/index.md" in text and "wiki/concepts/old-0.md" in text  # stalest
    assert '<table id="last-runs">' in text and "<td>2026-03-24T23:00:00Z</td><td>reconcile</td>" in text
    for name in ("latest.json", "latest-reconcile.json", "membank-reconcile.prom", "history.jsonl"):
        assert f'<a href="{name}">' in text


def test_values_from_the_history_are_escaped(tmp_path: Path) -> None:
    bad = summary(END, errors=0).model_copy(update={"findings": [
        finding("dead_link", "error", "<img src=x onerror=alert(1)>.md", "</script><b>x</b>")]})
    write_health(tmp_path, bad)
    text = (tmp_path / "context/health" / DASHBOARD_FILE).read_text()
    assert "<img src=x" not in text and "</script><b>" not in text
    assert "&lt;img src=x onerror=alert(1)&gt;.md" in text


def test_a_year_is_drawn_with_bounded_points(tmp_path: Path) -> None:
    history = read_history(history_root(tmp_path, 365) / "context/health/history.jsonl")
    assert len(history.runs) == 365 * 6
    runs = history.runs
    assert bucket_width(parse_utc(runs[0]["generated_at"]), parse_utc(runs[-1]["generated_at"])).days == 4
    charts = {c.chart_id: c for c in chart_data(runs)}
    status = charts["status"].series["reconcile"]
    assert 90 <= len(status) <= MAX_POINTS
    last_reconcile = [r for r in runs if r["kind"] == "reconcile"][-1]
    assert status[-1][0] == parse_utc(last_reconcile["generated_at"])  # a bucket keeps its latest
    assert [m for m, _ in status] == sorted(m for m, _ in status)
    assert set(charts["durations"].series) == {"reconcile", "freshness", "ingest"}
    assert set(charts["severity"].series) == {"error", "warning", "info"}
    assert charts["ingest"].series["MB/s"]


def test_a_month_keeps_one_point_per_day(tmp_path: Path) -> None:
    runs = read_history(history_root(tmp_path, 30) / "context/health/history.jsonl").runs
    charts = {c.chart_id: c for c in chart_data(runs)}
    assert len(charts["status"].series["freshness"]) == 30  # four audits a day, one point
    day_of = {m.date() for m, _ in charts["stale"].series["stale pages"]}
    assert len(day_of) == 30


def test_status_since_and_unreadable_lines() -> None:
    lines = [{"generated_at": f"2026-03-2{d}T00:00:00Z", "kind": "reconcile", "status": s}
             for d, s in enumerate(["healthy", "failing", "healthy", "healthy"])]
    data = b"\n".join(orjson.dumps(line) for line in lines) + b"\nnot json\n[1]\n"
    history = parse_history(data)
    assert history.unreadable == 2
    assert status_since(history.runs, "reconcile") == "2026-03-22T00:00:00Z"
    page = render_dashboard(history, now_iso=END, health_files=[])
    assert "2 unreadable line(s) of history.jsonl skipped" in page


def test_empty_history_draws_a_page_that_says_so() -> None:
    page = render_dashboard(parse_history(b""), now_iso=END, health_files=[])
    assert "no runs yet" in page and page.count("no data in the window") == 8
    assert 'class="ct-chart"' not in page


def test_history_lines_keep_the_worst_findings_and_the_page_says_so(tmp_path: Path) -> None:
    from schemas.health import HealthCounts
    from tasks.health.history import FINDINGS_KEPT
    from tasks.health.summary import build_summary

    findings = [finding(f"code_{n % 4}", "warning" if n % 3 else "error", f"p{n}.md", "m") for n in range(300)]
    big = build_summary(kind="reconcile", mode="check", project="default", root=tmp_path, now_iso=END,
                        findings=findings, counts=HealthCounts(), repaired=[], durations={}, limit=60)
    write_health(tmp_path, big)
    (line,) = read_history(tmp_path / "context/health/history.jsonl").runs
    assert len(line["findings"]) == FINDINGS_KEPT
    assert [f["severity"] for f in line["findings"]][:100] == ["error"] * 100  # worst first
    text = (tmp_path / "context/health" / DASHBOARD_FILE).read_text()
    assert "reconcile: 100 of 300 findings listed, worst first" in text


def test_chart_data_cannot_end_its_script_element() -> None:
    script = payload_script([{"series": [{"name": "</script><script>alert(1)</script>"}]}])
    assert script.count("</script>") == 1 and "<\\/script>" in script


def test_hand_edited_history_lines_never_stop_a_health_write(tmp_path: Path) -> None:
    folder = tmp_path / "context/health"
    folder.mkdir(parents=True)
    garbage = [
        {"generated_at": "yesterday", "kind": "reconcile"},  # no valid time: skipped, counted
        {"generated_at": "2026-03-20T00:00:00Z", "kind": "reconcile", "status": ["x"],
         "counts": {"pages_by_type": [1], "entities": "many", "findings_by_severity": "lots"},
         "durations_seconds": {"total": "slow"}, "findings": ["not a finding", {"code": 3}]},
        {"generated_at": "2026-03-21T00:00:00Z", "kind": "freshness", "counts": [],
         "stalest_hubs": "none", "stalest_pages": [None, {"path": "wiki/a.md", "age_days": "old"}]},
        {"generated_at": "2026-03-22T00:00:00Z", "kind": "ingest", "ingest": {"mb_per_s": True}},
    ]
    (folder / "history.jsonl").write_bytes(b"".join(orjson.dumps(line) + b"\n" for line in garbage))
    write_health(tmp_path, summary(END))
    text = (folder / DASHBOARD_FILE).read_text()
    assert "1 unreadable line(s) of history.jsonl skipped" in text
    assert "wiki/a.md" in text and "membank health: <span class=\"status s2\">unknown</span>" in text


def test_one_run_is_a_dot_on_every_chart_with_a_first_run_note(tmp_path: Path) -> None:
    write_health(tmp_path, reconcile_summary(tmp_path, "2026-03-24T14:02:11Z"))
    text = (tmp_path / "context/health" / DASHBOARD_FILE).read_text()
    charts = chart_payloads(text)
    drawn = [c for c in charts.values() if c["series"]]
    assert [c["id"] for c in drawn] == ["status", "pages", "graph", "severity", "codes", "durations"]
    for chart in drawn:
        assert chart["axis"] == "runs" and chart["x0"] < 0 < chart["x1"], chart
        assert all(s["points"] == [[0.0, s["points"][0][1]]] and s["dots"] for s in chart["series"])
        assert chart["ticks"] == [0] and chart["labels"] == ["14:02:11"]  # seconds: a short window
    assert text.count(FIRST_RUN) == len(drawn) == 6  # the stale and ingest charts have no data
    assert "1 run at 2026-03-24T14:02:11Z" in text and "One point per run" in text


def test_runs_of_one_day_are_points_of_their_own(tmp_path: Path) -> None:
    times = write_first_day(tmp_path, runs=7, start="2026-03-24T13:10:00Z")
    page = write_dashboard(tmp_path, now_iso="2026-03-24T18:00:00Z").read_text()
    charts = chart_payloads(page)
    status = {s["name"]: s["points"] for s in charts["status"]["series"]}
    assert [x for x, _ in status["reconcile"]] == [1.0, 3.0, 5.0]  # runs 2, 4 and 6 of the day
    assert [x for x, _ in status["freshness"]] == [2.0, 4.0, 6.0]
    graph = {s["name"]: s["points"] for s in charts["graph"]["series"]}
    assert len({value for _, value in graph["entities"]}) > 1  # the memory grows run by run
    assert charts["status"]["labels"] == [t[11:16] for t in times]  # every run labelled HH:MM
    assert all(s["dots"] for c in charts.values() for s in c["series"])
    # the one ingest is the only chart of exactly one point
    assert page.count(FIRST_RUN) == 1 and page.index(FIRST_RUN) > page.index('id="fig-ingest"')


def test_the_axis_is_runs_under_three_calendar_days_and_days_from_three() -> None:
    start = parse_utc("2026-03-23T20:00:00Z")
    two_days = [start + timedelta(hours=h) for h in range(0, 8)]
    axis = window_axis(two_days, start)
    assert axis.kind == "runs" and axis.frame()["labels"] == ["03-23 20:00", "03-23 22:00", "03-24 01:00",
                                                              "03-24 03:00"]
    three_days = [*two_days, start + timedelta(days=1, hours=5)]
    assert window_axis(three_days, start).kind == "days"
    many = [start + timedelta(seconds=20 * n) for n in range(1000)]  # a busy first day
    busy = window_axis(many, start)
    assert busy.kind == "runs" and busy.per_bucket == 9 and len(busy.times) <= MAX_POINTS
    assert busy.bucket(999, many[-1]) == len(busy.times) - 1 and busy.times[-1] == many[-1]


def test_few_points_are_dots_and_a_month_is_lines(tmp_path: Path) -> None:
    few = chart_payloads(write_dashboard(history_root(tmp_path / "three", 3), now_iso=END).read_text())
    assert few["status"]["axis"] == "days" and few["status"]["labels"] == ["03-22", "03-23", "03-24"]
    assert all(s["dots"] and len(s["points"]) == 3 for s in few["status"]["series"])
    month = chart_payloads(write_dashboard(history_root(tmp_path / "month", 30), now_iso=END).read_text())
    assert not any(s["dots"] for s in month["status"]["series"])
    assert FIRST_RUN not in write_dashboard(tmp_path / "month", now_iso=END).read_text()
