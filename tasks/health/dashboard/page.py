"""The dashboard's HTML: status cards, chart grid, findings, stalest hubs and pages, last runs.

Pure string building (html.escape on every value from the history); no I/O.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from html import escape
from typing import Any

from tasks.health.dashboard.charts import (
    DRAW_JS,
    Chart,
    chartist_assets,
    payload_script,
    series_css,
    single_point,
)
from tasks.health.dashboard.history import History, mapping, number, run_seconds
from tasks.store.clock import parse_utc

Line = dict[str, Any]
_STATUS_RANK = {"healthy": 0, "success": 0, "degraded": 1, "partial": 1, "failing": 2, "failed": 2}
_CARD_KINDS = ("reconcile", "freshness", "ingest")
FIRST_RUN = "first run: trends appear after more runs"  # under a chart of exactly one point

# The page may fetch nothing: no script, style, font or image from anywhere.
_CSP = ("default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; "
        "img-src data:; base-uri 'none'; form-action 'none'")

_CSS = """
:root{--bg:#fff;--fg:#1f2328;--muted:#59636e;--grid:#d1d9e0;--card:#f6f8fa;--ok:#1a7f37;
--warn:#9a6700;--bad:#cf222e;color-scheme:light dark}
@media (prefers-color-scheme:dark){:root{--bg:#0d1117;--fg:#e6edf3;--muted:#9198a1;
--grid:#30363d;--card:#161b22;--ok:#3fb950;--warn:#d29922;--bad:#f85149}}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--fg);font:15px/1.45 system-ui,sans-serif}
main{max-width:1280px;margin:0 auto;padding:1rem}
h1{font-size:1.5rem;margin:.2rem 0}h2{font-size:1.15rem;margin:1.6rem 0 .6rem}
h3{font-size:.95rem;margin:0 0 .3rem}
.muted{color:var(--muted)}a{color:#2f81f7}
.cards{display:grid;gap:.8rem;grid-template-columns:repeat(auto-fit,minmax(min(100%,17rem),1fr))}
.card,figure{background:var(--card);border:1px solid var(--grid);border-radius:8px;padding:.8rem;margin:0}
.card p{margin:.2rem 0}
.status{font-weight:600;text-transform:uppercase;letter-spacing:.03em}
.s0{color:var(--ok)}.s1{color:var(--warn)}.s2{color:var(--bad)}
.charts{display:grid;gap:.8rem;grid-template-columns:repeat(auto-fit,minmax(min(100%,34rem),1fr))}
.ct-chart{height:220px}.ct-label{color:var(--muted);fill:var(--muted);font-size:.72rem}
.ct-grid{stroke:var(--grid);stroke-dasharray:3 3}.ct-line{stroke-width:2px}.ct-point{stroke-width:8px}
ul.legend{list-style:none;display:flex;flex-wrap:wrap;gap:.2rem .9rem;padding:0;margin:.4rem 0 0;
font-size:.8rem}ul.legend li{display:flex;align-items:center;gap:.3rem}
.sw{display:inline-block;width:.7rem;height:.7rem;border-radius:2px}
.scroll{overflow-x:auto}
table{border-collapse:collapse;width:100%;font-size:.88rem}
th,td{text-align:left;padding:.3rem .5rem;border-bottom:1px solid var(--grid);vertical-align:top}
td.wrap{overflow-wrap:anywhere;min-width:12rem}
.filters{display:flex;flex-wrap:wrap;gap:.5rem;align-items:center;margin-bottom:.5rem}
input,select{font:inherit;color:var(--fg);background:var(--bg);border:1px solid var(--grid);
border-radius:6px;padding:.3rem .5rem}
input{flex:1 1 14rem}
ul.files{columns:2 14rem;padding-left:1.2rem}
"""

_FILTER_JS = """
(function(){
  var text=document.getElementById('finding-filter'),level=document.getElementById('finding-severity');
  var shown=document.getElementById('finding-shown');
  function apply(){
    var needle=text.value.toLowerCase(),want=level.value,count=0;
    document.querySelectorAll('#findings tbody tr').forEach(function(row){
      var keep=(!want||row.dataset.severity===want)&&row.textContent.toLowerCase().indexOf(needle)>=0;
      row.hidden=!keep;if(keep){count++;}
    });
    shown.textContent=String(count);
  }
  text.addEventListener('input',apply);level.addEventListener('change',apply);apply();
})();
"""


def _e(value: object) -> str:
    return escape("" if value is None else str(value))


def _rank(status: object) -> int:
    return _STATUS_RANK.get(str(status), 2)


def age_text(then_iso: str, now_iso: str) -> str:
    seconds = max(int((parse_utc(now_iso) - parse_utc(then_iso)).total_seconds()), 0)
    if seconds < 3600:
        return f"{seconds // 60} min ago"
    if seconds < 2 * 86400:
        return f"{seconds // 3600} h {seconds % 3600 // 60} min ago"
    return f"{seconds // 86400} days ago"


def _took(run: Line) -> str:
    seconds = run_seconds(run)
    return "-" if seconds is None else f"{seconds:.2f} s"


def _card(kind: str, run: Line, since: str | None, now_iso: str) -> str:
    status = run.get("status", "unknown")
    since_text = f"<p>{_e(status)} since {_e(since)}</p>" if since else ""
    return (f'<section class="card" data-kind="{_e(kind)}"><h3>{_e(kind)}</h3>'
            f'<p class="status s{_rank(status)}">{_e(status)}</p>{since_text}'
            f'<p>last run {_e(run["generated_at"])} <span class="muted">'
            f'({_e(age_text(run["generated_at"], now_iso))})</span></p>'
            f'<p>took {_e(_took(run))}, mode {_e(run.get("mode"))}, '
            f'exit {_e(run.get("exit_code", "-"))}</p></section>')


def _cards(latest: Mapping[str, Line], since: Mapping[str, str | None], now_iso: str) -> str:
    cards = [_card(kind, latest[kind], since.get(kind), now_iso)
             for kind in _CARD_KINDS if kind in latest]
    if not cards:
        return '<p class="muted">No runs in the history yet: run `membank reconcile`.</p>'
    return f'<div class="cards">{"".join(cards)}</div>'


def _legend(payload: Mapping[str, Any]) -> str:
    items = "".join(f'<li><span class="sw sw-{_e(s["className"][-1])}"></span>{_e(s["name"])}</li>'
                    for s in payload["series"])
    return f'<ul class="legend">{items}</ul>'


def _charts(charts: Sequence[tuple[Chart, Mapping[str, Any]]], axis_note: str) -> str:
    figures = []
    for chart, payload in charts:
        if payload["series"]:
            body = f'<div class="ct-chart" id="chart-{_e(chart.chart_id)}"></div>{_legend(payload)}'
            if single_point(payload):
                body += f'<p class="muted first-run">{FIRST_RUN}</p>'
        else:
            body = '<p class="muted">no data in the window</p>'
        figures.append(f'<figure id="fig-{_e(chart.chart_id)}"><h3>{_e(chart.title)}</h3>'
                       f'{body}</figure>')
    note = f'<p class="muted" id="axis-note">{_e(axis_note)}</p>' if axis_note and charts else ""
    return f'{note}<div class="charts">{"".join(figures)}</div>'


def _findings(latest: Mapping[str, Line]) -> str:
    rows = []
    left_off = []
    for kind in ("reconcile", "freshness"):
        run = latest.get(kind) or {}
        listed = _rows(run.get("findings"))
        counted = int(sum(number(n) or 0 for n in mapping(mapping(run.get("counts")).get(
            "findings_by_severity")).values()))
        if counted > len(listed):
            left_off.append(f'{_e(kind)}: {len(listed)} of {counted} findings listed, worst first '
                            f'(more in <a href="latest-{_e(kind)}.json">latest-{_e(kind)}.json</a>)')
        for item in listed:
            rows.append(
                f'<tr data-severity="{_e(item.get("severity"))}"><td>{_e(kind)}</td>'
                f'<td>{_e(item.get("severity"))}</td><td>{_e(item.get("code"))}</td>'
                f'<td class="wrap">{_e(item.get("path"))}</td>'
                f'<td class="wrap">{_e(item.get("message"))}</td>'
                f'<td class="wrap">{_e(item.get("hint"))}</td></tr>')
    controls = (
        '<div class="filters"><input id="finding-filter" type="search" '
        'placeholder="filter by file, code or text" aria-label="filter findings">'
        '<select id="finding-severity" aria-label="severity"><option value="">any severity'
        '</option><option>error</option><option>warning</option><option>info</option></select>'
        f'<span class="muted"><span id="finding-shown">{len(rows)}</span> of {len(rows)} shown'
        '</span></div>')
    table = ('<div class="scroll"><table id="findings"><thead><tr><th>check</th><th>severity'
             '</th><th>code</th><th>file</th><th>message</th><th>hint</th></tr></thead>'
             f'<tbody>{"".join(rows)}</tbody></table></div>')
    note = f'<p class="muted">{"; ".join(left_off)}.</p>' if left_off else ""
    return controls + note + table


def _stalest(latest: Mapping[str, Line]) -> str:
    freshness = latest.get("freshness") or {}
    hubs = "".join(f'<tr><td class="wrap">{_e(h.get("path"))}</td><td>{_e(h.get("subtree_updated_at"))}'
                   f'</td><td>{_age(h.get("age_days"))}</td></tr>'
                   for h in _rows(freshness.get("stalest_hubs")))
    pages = "".join(f'<tr><td class="wrap">{_e(p.get("path"))}</td><td>{_e(p.get("type"))}</td>'
                    f'<td>{_e(p.get("updated_at"))}</td><td>{_age(p.get("age_days"))}</td></tr>'
                    for p in _rows(freshness.get("stalest_pages")))
    if not hubs and not pages:
        return '<p class="muted">No freshness audit in the history yet: run `membank audit freshness`.</p>'
    return ('<div class="charts"><div class="scroll"><h3>Hubs (oldest write under them)</h3>'
            '<table id="stalest-hubs"><thead><tr><th>hub</th><th>freshest write</th><th>age (days)'
            f'</th></tr></thead><tbody>{hubs}</tbody></table></div><div class="scroll"><h3>Pages</h3>'
            '<table id="stalest-pages"><thead><tr><th>page</th><th>type</th><th>updated</th>'
            f'<th>age (days)</th></tr></thead><tbody>{pages}</tbody></table></div></div>')


def _rows(value: object) -> list[dict[str, Any]]:
    """The dict items of a list from the history (anything else is read as absent)."""
    return [item for item in value if isinstance(item, dict)] if isinstance(value, list) else []


def _age(days: object) -> str:
    return "-" if not isinstance(days, int | float) else f"{days:.1f}"


def _last_runs(runs: Sequence[Line]) -> str:
    rows = "".join(
        f'<tr><td>{_e(r["generated_at"])}</td><td>{_e(r["kind"])}</td><td>{_e(r.get("mode"))}</td>'
        f'<td class="s{_rank(r.get("status"))}">{_e(r.get("status"))}</td>'
        f'<td>{_e(r.get("exit_code", "-"))}</td><td>{_e(_took(r))}</td></tr>' for r in runs)
    return ('<div class="scroll"><table id="last-runs"><thead><tr><th>when</th><th>check</th>'
            '<th>mode</th><th>status</th><th>exit</th><th>took</th></tr></thead>'
            f'<tbody>{rows}</tbody></table></div>')


def _files(names: Sequence[str]) -> str:
    items = "".join(f'<li><a href="{_e(n)}">{_e(n)}</a></li>' for n in names)
    return f'<ul class="files">{items}</ul>'


def _overall(latest: Mapping[str, Line]) -> str:
    statuses = [latest[k].get("status") for k in ("reconcile", "freshness") if k in latest]
    if not statuses:
        return "unknown"
    return max(statuses, key=_rank) or "unknown"


@dataclass(frozen=True)
class PageData:
    """Everything the page shows, gathered from history.jsonl by tasks.health.dashboard.build."""

    history: History
    now_iso: str
    charts: Sequence[tuple[Chart, Mapping[str, Any]]]  # each chart with its payload
    latest: Mapping[str, Line]  # the latest run of each kind
    since: Mapping[str, str | None]  # since when each kind has had its current status
    last_runs: Sequence[Line]  # newest first
    health_files: Sequence[str]  # the files beside the page that it links to
    axis_note: str = ""  # what one point of the charts is (tasks.health.dashboard.charts.Axis.note)


def render_page(data: PageData) -> str:
    history, now_iso, charts, latest = data.history, data.now_iso, data.charts, data.latest
    since, last_runs, health_files = data.since, data.last_runs, data.health_files
    runs = history.runs
    overall = _overall(latest)
    chart_css, chart_js = chartist_assets()
    window = (f"{len(runs)} runs from {_e(runs[0]['generated_at'])} to {_e(runs[-1]['generated_at'])}"
              if len(runs) > 1 else f"1 run at {_e(runs[0]['generated_at'])}" if runs else "no runs yet")
    skipped = (f'; {history.unreadable} unreadable line(s) of history.jsonl skipped'
               if history.unreadable else "")
    return (
        '<!doctype html>\n<html lang="en"><head><meta charset="utf-8">'
        f'<meta http-equiv="Content-Security-Policy" content="{_CSP}">'
        '<meta name="viewport" content="width=device-width,initial-scale=1">'
        f'<title>membank health: {_e(overall)}</title><style>{chart_css}{series_css()}{_CSS}</style>'
        '</head><body><main>\n'
        f'<h1>membank health: <span class="status s{_rank(overall)}">{_e(overall)}</span></h1>'
        f'<p class="muted">drawn {_e(now_iso)} from history.jsonl: {window}{_e(skipped)}</p>\n'
        f'<h2>Checks</h2>{_cards(latest, since, now_iso)}\n'
        f'<h2>Trends</h2>{_charts(charts, data.axis_note)}\n'
        f'<h2>Current findings</h2>{_findings(latest)}\n'
        f'<h2>Stalest hubs and pages</h2>{_stalest(latest)}\n'
        f'<h2>Last runs</h2>{_last_runs(last_runs)}\n'
        f'<h2>Files</h2>{_files(health_files)}\n'
        f'</main>{payload_script([payload for _, payload in charts])}\n'
        f'<script>{chart_js}</script>\n<script>{DRAW_JS}{_FILTER_JS}</script></body></html>\n'
    )
