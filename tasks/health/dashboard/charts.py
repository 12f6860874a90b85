"""Line charts over time for the dashboard: the data as JSON, drawn in the page by Chartist.

Chartist 1.5.0 (MIT, vendored in tasks/health/dashboard/vendor/chartist/, 38 KB of script and 9 KB of CSS)
draws SVG in the browser from data inlined in the page, so building the page costs only a JSON
dump: measured here, drawing eight charts at build time cost ~35 ms to import pygal plus
~45 ms to draw (several times that under load), and matplotlib's SVG backend ~0.8 s to
import and ~0.4 s to draw; inlining Chartist costs a few milliseconds and a smaller page
(README.md, benchmarks/bench_dashboard.py).

The x axis (Axis) follows the window. Over SHORT_DAYS calendar days or more, charts keep one
point per day per series (the day's latest), and one per bucket of days beyond MAX_POINTS
days, so a year of history costs about what four months do. A shorter window (the first day
or two) is drawn run by run: every run its own point at its place in the run order, labelled
with its time, so seven runs of one afternoon are seven points and not one (runs beyond
MAX_POINTS share buckets of consecutive runs). The points of a series of up to DOTS_UP_TO points
are drawn as dots, so a series of one point is a dot, not a zero-length line.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from functools import cache
from pathlib import Path
from typing import Literal, Protocol

import orjson

CHARTIST_VERSION = "1.5.0"
VENDOR = Path(__file__).resolve().parent / "vendor" / "chartist"
# Series colours readable on a light and on a dark background (Chartist's class letters).
PALETTE = ("#2f81f7", "#d29922", "#e5534b", "#3fb950", "#a371f7", "#db61a2", "#39c5cf",
           "#8b949e", "#f0883e", "#768390")
SERIES_LETTERS = "abcdefghij"
MAX_POINTS = 120
X_TICKS = 6
# Labelled runs by label width: "14:05" (the seven runs of a first afternoon all get theirs),
# "14:05:09" (runs minutes apart), "03-24 14:05" (a window over two days).
RUN_TICKS = {"%H:%M": 8, "%H:%M:%S": 5}
RUN_TICKS_WITH_DATES = 4
SHORT_DAYS = 3  # a window over fewer calendar days is drawn run by run
DOTS_UP_TO = 24  # a series of at most this many points shows each one as a dot

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


def _midnight(moment: datetime) -> datetime:
    return moment.replace(hour=0, minute=0, second=0, microsecond=0)


def _spread(count: int, most: int) -> list[int]:
    """Up to `most` indices of 0..count-1, evenly spread, first and last included."""
    if count <= most:
        return list(range(count))
    return sorted({round(i * (count - 1) / (most - 1)) for i in range(most)})


@dataclass(frozen=True)
class Axis:
    """Where the runs of the window fall on the x axis (see the module docstring).

    `days`: bucket = days since the first run's midnight // per_bucket, x = the time of the
    bucket's latest run, ticks at midnights. `runs`: bucket = run index // per_bucket, x = the
    bucket number, ticks at runs labelled with their time (`times`: each bucket's latest run)."""

    kind: Literal["days", "runs"]
    first: datetime
    last: datetime
    per_bucket: int = 1
    times: tuple[datetime, ...] = ()

    def bucket(self, index: int, moment: datetime) -> int:
        if self.kind == "runs":
            return index // self.per_bucket
        return (moment - _midnight(self.first)) // timedelta(days=self.per_bucket)

    def x(self, bucket: int, moment: datetime) -> float:
        return float(bucket) if self.kind == "runs" else float(_ms(moment))

    def frame(self) -> dict[str, object]:
        """The axis's range and its labelled ticks, as the page's script reads them."""
        if self.kind == "days":
            ticks = x_ticks(self.first, self.last)
            return {"x0": _ms(self.first), "x1": max(_ms(self.last), _ms(self.first) + 1), "ticks": ticks,
                    "labels": [f"{datetime.fromtimestamp(t / 1000, UTC):%m-%d}" for t in ticks]}
        form = "%H:%M" if self.first.date() == self.last.date() else "%m-%d %H:%M"
        if self.last - self.first < timedelta(minutes=10):
            form += ":%S"
        ticks = _spread(len(self.times), RUN_TICKS.get(form, RUN_TICKS_WITH_DATES))
        return {"x0": -0.5, "x1": len(self.times) - 0.5, "ticks": ticks,
                "labels": [f"{self.times[t]:{form}}" for t in ticks]}

    def note(self) -> str:
        """What one point of a chart is, in words (shown above the charts)."""
        if self.kind == "runs":
            unit = "run" if self.per_bucket == 1 else f"{self.per_bucket} consecutive runs (the latest)"
            return f"One point per {unit}, in run order, labelled with its time (UTC)."
        unit = "day" if self.per_bucket == 1 else f"{self.per_bucket} days"
        return f"One point per {unit} (its latest run), x axis in days (UTC)."


def window_axis(moments: Sequence[datetime], now: datetime) -> Axis:
    """The axis for runs at `moments` (in time order): run by run over fewer than SHORT_DAYS
    calendar days, by days (bucket_width) otherwise; an empty window is `now`."""
    if not moments:
        return Axis("days", now, now)
    first, last = moments[0], moments[-1]
    if (last.date() - first.date()).days + 1 < SHORT_DAYS:
        per = -(-len(moments) // MAX_POINTS)
        times = tuple(moments[min(start + per, len(moments)) - 1] for start in range(0, len(moments), per))
        return Axis("runs", first, last, per, times)
    return Axis("days", first, last, bucket_width(_midnight(first), last).days)


class Chart(Protocol):
    """What a chart's payload is drawn from (tasks.health.dashboard.build.ChartData)."""

    @property
    def chart_id(self) -> str: ...

    @property
    def title(self) -> str: ...

    @property
    def buckets(self) -> Mapping[str, Mapping[int, Point]]: ...

    @property
    def y_names(self) -> Mapping[float, str] | None: ...


def chart_payload(chart: Chart, axis: Axis) -> dict[str, object]:
    """What the page's script needs to draw one chart: series of [x, value] in legend order,
    each saying whether its points are drawn as dots (few enough to count). A chart whose
    values are named states (y_names) is drawn in steps."""
    y_names = chart.y_names
    series = []
    for i, (name, points) in enumerate(chart.buckets.items()):
        drawn = [[axis.x(bucket, moment), value] for bucket, (moment, value) in points.items()]
        series.append({"name": name, "className": f"ct-series-{SERIES_LETTERS[i % len(SERIES_LETTERS)]}",
                       "dots": len(drawn) <= DOTS_UP_TO,
                       "points": drawn})
    payload: dict[str, object] = {"id": chart.chart_id, "axis": axis.kind, **axis.frame(),
                                  "step": y_names is not None, "series": series}
    if y_names:
        payload["names"] = {f"{value:g}": name for value, name in sorted(y_names.items())}
    return payload


def single_point(payload: Mapping[str, object]) -> bool:
    """Does the chart hold exactly one point, all series together (the first run's case)?"""
    series = payload.get("series")
    xs = {point[0] for s in series for point in s["points"]} if isinstance(series, list) else set()
    return len(xs) == 1


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
    return "".join(f".ct-series-{letter} .ct-line{{stroke:{colour}}}"
                   f".ct-series-{letter} .ct-point{{stroke:{colour}}}.sw-{letter}{{background:{colour}}}"
                   for letter, colour in zip(SERIES_LETTERS, PALETTE, strict=True))


# Draws every chart of #chart-data with Chartist; runs after the page is parsed. Tick labels
# come with the data (days, or run times), so the script formats nothing itself.
DRAW_JS = """
(function(){
  var charts=JSON.parse(document.getElementById('chart-data').textContent);
  charts.forEach(function(chart){
    var box=document.getElementById('chart-'+chart.id);
    if(!box||!chart.series.length){return;}
    var dots={};
    var series=chart.series.map(function(s){dots[s.name]={showPoint:s.dots};
      return {name:s.name,className:s.className,
      data:s.points.map(function(p){return {x:p[0],y:p[1]};})};});
    var axisY={low:0,onlyInteger:false};
    if(chart.names){axisY={type:Chartist.FixedScaleAxis,low:0,high:2,ticks:[0,1,2],
      labelInterpolationFnc:function(v){return chart.names[String(v)]||'';}};}
    var drawn=new Chartist.LineChart(box,{series:series},{height:'220px',showPoint:false,fullWidth:true,
      series:dots,chartPadding:{top:12,right:chart.axis==='runs'?40:18,bottom:0,left:chart.names?28:4},
      lineSmooth:chart.step?Chartist.Interpolation.step():Chartist.Interpolation.none(),
      axisX:{type:Chartist.FixedScaleAxis,low:chart.x0,high:chart.x1,ticks:chart.ticks,
        labelInterpolationFnc:function(v){var i=chart.ticks.indexOf(v);return i<0?'':chart.labels[i];}},
      axisY:axisY});
    // a step's corner is a path point too: Chartist would dot it with the previous run's value
    if(chart.step){drawn.on('draw',function(d){
      if(d.type==='point'&&Math.abs(d.x-d.chartRect.x1-d.axisX.projectValue(d.value))>1){d.element.remove();}});}
  });
})();
"""
