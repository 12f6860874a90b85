"""The dashboard in a real browser, headless Chromium: 35 days of generated history (filters,
no fetch, phone and dark mode), and every chart visible from the first run on (1 run, 7 runs
in one day, 3 days, 35 days).

Reproduce (screenshots land in pytest's tmp dir, printed at the end):
    .venv/bin/pytest tests/tasks/health/dashboard/test_browser.py -q -s
"""

from __future__ import annotations

import base64
from collections.abc import Iterator
from pathlib import Path

import pytest

from tasks.health.dashboard.build import write_dashboard
from tasks.health.files import write_health
from tasks.health.findings import finding
from tests.chromium import Page, headless_page
from tests.health_history import reconcile_summary, write_first_day, write_history
from tests.tasks.health.test_retention import summary

END = "2026-03-24T22:40:05Z"
LAST = "2026-03-24T23:00:00Z"

pytestmark = pytest.mark.browser


def dashboard_with_history(root: Path) -> Path:
    """35 days of runs, then a real failing reconcile whose write draws the page."""
    write_history(root, days=35, end=END)
    failing = summary(LAST, errors=2)
    failing = failing.model_copy(update={"findings": [
        *failing.findings,
        finding("orphan_page", "warning", "wiki/synthesis/lonely.md", "page hangs under no hub",
                "add child_of"),
        finding("index_resynced", "info", "index.md", "index.md listed again")]})
    paths = write_health(root, failing)
    return root / paths["dashboard"]


def load(page: Page, url: str, width: int, height: int, dark: bool = False) -> None:
    page.send("Emulation.setDeviceMetricsOverride", width=width, height=height,
              deviceScaleFactor=1, mobile=width < 600)
    page.send("Emulation.setEmulatedMedia", features=[
        {"name": "prefers-color-scheme", "value": "dark" if dark else "light"}])
    page.events.clear()
    page.send("Page.navigate", url=url)
    page.wait_for("Page.loadEventFired")


def screenshot(page: Page, target: Path, width: int) -> None:
    height = page.evaluate("Math.ceil(document.documentElement.scrollHeight)")
    page.send("Emulation.setDeviceMetricsOverride", width=width, height=height,
              deviceScaleFactor=1, mobile=width < 600)
    shot = page.send("Page.captureScreenshot", format="png", timeout=60)
    target.write_bytes(base64.b64decode(shot["data"]))
    assert target.stat().st_size > 10_000


def problems(page: Page) -> list[str]:
    """Console errors, uncaught exceptions and browser log errors (CSP violations land here)."""
    found = []
    for event in page.events:
        method, params = event["method"], event.get("params", {})
        if method == "Runtime.exceptionThrown":
            found.append(str(params.get("exceptionDetails")))
        elif method == "Runtime.consoleAPICalled" and params.get("type") in {"error", "assert"}:
            found.append(str(params.get("args")))
        elif method == "Log.entryAdded" and params.get("entry", {}).get("level") == "error":
            found.append(params["entry"].get("text", ""))
    return found


def requests(page: Page) -> list[str]:
    return [e["params"]["request"]["url"] for e in page.events
            if e["method"] == "Network.requestWillBeSent"]


VISIBLE_ROWS = "document.querySelectorAll('#findings tbody tr:not([hidden])').length"
DRAWN_CHARTS = """
Array.from(document.querySelectorAll('figure')).map(function (figure) {
  var lines = Array.from(figure.querySelectorAll('svg path.ct-line'));
  var drawn = lines.filter(function (p) {
    var box = p.getBBox(); return (p.getAttribute('d') || '').length > 20 && (box.width > 0 || box.height > 0);
  });
  return [figure.id, drawn.length];
})
"""


def filter_findings(page: Page, text: str, severity: str = "") -> int:
    page.evaluate(f"""(function () {{
      var box = document.getElementById('finding-filter'); box.value = {text!r};
      box.dispatchEvent(new Event('input'));
      var level = document.getElementById('finding-severity'); level.value = {severity!r};
      level.dispatchEvent(new Event('change'));
    }})()""")
    shown = page.evaluate("document.getElementById('finding-shown').textContent")
    visible = page.evaluate(VISIBLE_ROWS)
    assert int(shown) == visible
    return visible


def test_dashboard_renders_filters_and_fetches_nothing(tmp_path: Path) -> None:
    dashboard = dashboard_with_history(tmp_path / "memory")
    url = dashboard.resolve().as_uri()
    with headless_page(tmp_path / "profile") as page:
        for domain in ("Page", "Runtime", "Log", "Network"):
            page.send(f"{domain}.enable")
        load(page, url, 1280, 900)
        screenshot(page, tmp_path / "dashboard-1280.png", 1280)
        charts = page.evaluate(DRAWN_CHARTS)
        assert len(charts) == 8 and all(count > 0 for _, count in charts), charts
        total = page.evaluate("document.querySelectorAll('#findings tbody tr').length")
        warnings = page.evaluate("document.querySelectorAll('#findings tr[data-severity=warning]').length")
        assert total > warnings >= 2  # the orphan page, and the latest audit's stale pages
        assert filter_findings(page, "dead_link") == 2
        assert filter_findings(page, "", "warning") == warnings
        assert filter_findings(page, "dead_link", "warning") == 0
        assert filter_findings(page, "LONELY") == 1
        assert filter_findings(page, "no such text") == 0
        assert filter_findings(page, "") == total
        assert problems(page) == []
        assert requests(page) == [url]

        load(page, url, 390, 800, dark=True)  # a phone, in dark mode
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        background = page.evaluate("getComputedStyle(document.body).backgroundColor")
        assert background == "rgb(13, 17, 23)"
        screenshot(page, tmp_path / "dashboard-phone-dark.png", 390)
        assert problems(page) == []
        assert requests(page) == [url]
    print(f"\nscreenshots: {tmp_path}/dashboard-1280.png, {tmp_path}/dashboard-phone-dark.png")


# Per chart frame: lines of two points or more that have a size, dots that are drawn (a
# stroke at least 4 px wide, and what the browser finds at the dot's centre is the dot: a dot
# under another one of the same value is not), all dots, and the points its data dots.
VISIBLE_MARKS = """
var data = {};
JSON.parse(document.getElementById('chart-data').textContent).forEach(function (chart) {
  data['fig-' + chart.id] = chart.series.reduce(function (sum, s) {
    return sum + (s.dots ? s.points.length : 0); }, 0);
});
Array.from(document.querySelectorAll('figure')).filter(function (figure) {
  return figure.querySelector('.ct-chart');
}).map(function (figure) {
  var lines = Array.from(figure.querySelectorAll('svg path.ct-line')).filter(function (p) {
    var box = p.getBBox(), d = p.getAttribute('d') || '';
    return /[LCHVQSA]/i.test(d) && (box.width > 0 || box.height > 0);
  });
  var dots = Array.from(figure.querySelectorAll('svg line.ct-point')).filter(function (dot) {
    var style = getComputedStyle(dot), box = dot.getBoundingClientRect();
    return parseFloat(style.strokeWidth) >= 4 && style.stroke !== 'none'
      && document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2) === dot;
  });
  return {id: figure.id, lines: lines.length, dots: dots.length,
          allDots: figure.querySelectorAll('svg line.ct-point').length, dotted: data[figure.id],
          firstRun: !!figure.querySelector('.first-run')};
})
"""


def one_run(root: Path) -> None:
    write_health(root, reconcile_summary(root, "2026-03-24T14:02:11Z"))


def seven_runs_in_one_day(root: Path) -> None:
    write_first_day(root, runs=7, start="2026-03-24T13:10:00Z")
    write_dashboard(root, now_iso="2026-03-24T18:00:00Z")


def three_days(root: Path) -> None:
    write_history(root, days=3, end=END)
    write_dashboard(root, now_iso=END)


def thirty_five_days(root: Path) -> None:
    write_history(root, days=35, end=END)
    write_dashboard(root, now_iso=END)


# history -> (charts with data, charts that hold exactly one point)
HISTORIES = {
    "1-run": (one_run, 6, 6),  # a reconcile alone: no stale or ingest figures
    "7-runs-one-day": (seven_runs_in_one_day, 8, 1),  # one ingest: its chart is one point
    "3-days": (three_days, 8, 0),
    "35-days": (thirty_five_days, 8, 0),
}


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Page]:
    with headless_page(tmp_path_factory.mktemp("profile")) as page:
        for domain in ("Page", "Runtime", "Log", "Network"):
            page.send(f"{domain}.enable")
        yield page


@pytest.mark.parametrize("name", HISTORIES)
def test_every_chart_with_data_shows_a_mark_from_the_first_run(
    name: str, browser: Page, tmp_path: Path
) -> None:
    write, with_data, single = HISTORIES[name]
    root = tmp_path / "memory"
    write(root)
    url = (root / "context/health/dashboard.html").resolve().as_uri()
    load(browser, url, 1280, 900)
    shot = tmp_path / f"dashboard-{name}.png"
    screenshot(browser, shot, 1280)  # the viewport is now the whole page: every dot is in it
    marks = browser.evaluate(VISIBLE_MARKS)
    assert len(marks) == with_data, marks
    blank = [m["id"] for m in marks if m["lines"] == 0 and m["dots"] == 0]
    assert blank == [], f"{name}: charts with data but no visible line or dot: {marks}"
    assert sum(m["firstRun"] for m in marks) == single, marks
    assert all(m["dots"] > 0 for m in marks if m["firstRun"]), marks
    assert all(m["allDots"] == m["dotted"] for m in marks), marks  # a dot per point, no more
    assert problems(browser) == []
    assert requests(browser) == [url]
    print(f"\nscreenshot: {shot}")
