"""Line charts over time for the dashboard: the data as JSON, drawn in the page by Chartist.

Chartist 1.5.0 (MIT, vendored in tasks/dashboard/vendor/chartist/, 38 KB of script and 9 KB of CSS)
draws SVG in the browser from data inlined in the page, so building the page costs only a JSON
dump: measured here, drawing eight charts at build time cost ~35 ms to import pygal plus
~45 ms to draw (several times that under load), and matplotlib's SVG backend ~0.8 s to
import and ~0.4 s to draw; inlining Chartist costs a few milliseconds and a smaller page
(README.md, benchmarks/bench_dashboard.py).

Charts keep one point per day per series (the day's latest), and one per bucket of days
beyond MAX_POINTS days, so a year of history costs about what four months do.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime, timedelta
from functools import cache
from pathlib import Path
from typing import Protocol

import orjson

CHARTIST_VERSION = "1.5.0"
VENDOR = Path(__file__).resolve().parent / "vendor" / "chartist"
# Series colours readable on a light and on a dark background (Chartist's class letters).
PALETTE = ("#2f81f7", "#d29922", "#e5534b", "#3fb950", "#a371f7", "#db61a2", "#39c5cf",
           "#8b949e", "#f0883e", "#768390")
SERIES_LETTERS = "abcdefghij"
MAX_POINTS = 120
X_TICKS = 6

Point = tuple[datetime, float]


def bucket_width(start: datetime, end: datetime) -> timedelta:
    days = max((end - start).days + 1, 1)
    return timedelta(days=max(1, -(-days // MAX_POINTS)))


def _ms(moment: datetime) -> int:
    return int(moment.timestamp() * 1000)


def x_ticks(start: datetime, end: datetime) -> list[int]:
    """Up to X_TICKS midnights spread over the window, as the x axis's labelled ticks."""
    first = start.replace(hour=0, minute=0, second=0, microsecond=0)
    days = max((end - first).days, 1)
    step = max(1, -(-days // (X_TICKS - 1)))
    return [_ms(first + timedelta(days=d)) for d in range(0, days + 1, step)]


class Chart(Protocol):
    """What a chart's payload is drawn from (tasks.dashboard.build.ChartData)."""

    @property
    def chart_id(self) -> str: ...

    @property
    def series(self) -> Mapping[str, Sequence[Point]]: ...

    @property
    def y_names(self) -> Mapping[float, str] | None: ...


def chart_payload(chart: Chart, *, start: datetime, end: datetime) -> dict[str, object]:
    """What the page's script needs to draw one chart: series of [ms, value] in legend order.
    A chart whose values are named states (y_names) is drawn in steps."""
    y_names = chart.y_names
    payload: dict[str, object] = {
        "id": chart.chart_id, "x0": _ms(start), "x1": max(_ms(end), _ms(start) + 1),
        "ticks": x_ticks(start, end), "step": y_names is not None,
        "series": [{"name": name, "className": f"ct-series-{SERIES_LETTERS[i % len(SERIES_LETTERS)]}",
                    "points": [[_ms(moment), value] for moment, value in points]}
                   for i, (name, points) in enumerate(chart.series.items())],
    }
    if y_names:
        payload["names"] = {f"{value:g}": name for value, name in sorted(y_names.items())}
    return payload


def payload_script(charts: Sequence[Mapping[str, object]]) -> str:
    """The charts' data as a JSON script element (`</` escaped so no value can end it)."""
    data = orjson.dumps(list(charts)).decode().replace("</", "<\\/")
    return f'<script type="application/json" id="chart-data">{data}</script>'


@cache
def chartist_assets() -> tuple[str, str]:
    """(CSS, script) of the vendored Chartist, read once per process."""
    return ((VENDOR / "chartist.css").read_text(encoding="utf-8"),
            (VENDOR / "chartist.umd.js").read_text(encoding="utf-8").replace("</script", "<\\/script"))


def series_css() -> str:
    """Chartist's series colours replaced by a palette that reads in light and dark mode."""
    return "".join(f".ct-series-{letter} .ct-line{{stroke:{colour}}}.sw-{letter}{{background:{colour}}}"
                   for letter, colour in zip(SERIES_LETTERS, PALETTE, strict=True))


# Draws every chart of #chart-data with Chartist; runs after the page is parsed.
DRAW_JS = """
(function(){
  var charts=JSON.parse(document.getElementById('chart-data').textContent);
  function day(ms){var d=new Date(ms);
    return ('0'+(d.getUTCMonth()+1)).slice(-2)+'-'+('0'+d.getUTCDate()).slice(-2);}
  charts.forEach(function(chart){
    var box=document.getElementById('chart-'+chart.id);
    if(!box||!chart.series.length){return;}
    var series=chart.series.map(function(s){return {name:s.name,className:s.className,
      data:s.points.map(function(p){return {x:p[0],y:p[1]};})};});
    var axisY={low:0,onlyInteger:false};
    if(chart.names){axisY={type:Chartist.FixedScaleAxis,low:0,high:2,ticks:[0,1,2],
      labelInterpolationFnc:function(v){return chart.names[String(v)]||'';}};}
    new Chartist.LineChart(box,{series:series},{height:'220px',showPoint:false,fullWidth:true,
      chartPadding:{top:12,right:18,bottom:0,left:chart.names?28:4},
      lineSmooth:chart.step?Chartist.Interpolation.step():Chartist.Interpolation.none(),
      axisX:{type:Chartist.FixedScaleAxis,low:chart.x0,high:chart.x1,ticks:chart.ticks,
        labelInterpolationFnc:day},
      axisY:axisY});
  });
})();
"""
