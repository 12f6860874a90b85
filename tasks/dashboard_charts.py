"""Line charts over time as inline SVG, drawn with pygal when the dashboard is built.

pygal (LGPL-3.0, pure Python, no browser code needed) was measured against matplotlib's SVG
backend for this page: it imports in about 35 ms and draws eight charts of 30 days in about
45 ms, where matplotlib's import alone costs several times that (numbers in README.md and
benchmarks/bench_dashboard.py). Charts carry no script: pygal's tooltip JavaScript would be
fetched from the network, so it is switched off and its inline config script is removed.

Output is deterministic: pygal's random chart id becomes a fixed one and its "generated on
<today>" comment is dropped.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from datetime import datetime, timedelta
from typing import Any

Point = tuple[datetime, float]

# Series colours readable on a light and on a dark background.
PALETTE = ("#2f81f7", "#d29922", "#e5534b", "#3fb950", "#a371f7", "#db61a2", "#39c5cf",
           "#8b949e", "#f0883e", "#768390")
# Up to this many days the charts show one point per day; beyond, one per bucket of days,
# so a year of history costs about as much to draw as four months.
MAX_POINTS = 120
LEGEND_COLUMNS = 3


def bucket_latest(points: Sequence[Point], start: datetime, bucket: timedelta) -> list[Point]:
    """The latest point of each `bucket`-wide slot from `start` (points in time order)."""
    latest: dict[int, Point] = {}
    for moment, value in points:
        latest[(moment - start) // bucket] = (moment, value)
    return [latest[slot] for slot in sorted(latest)]


def bucket_width(start: datetime, end: datetime) -> timedelta:
    days = max((end - start).days + 1, 1)
    return timedelta(days=max(1, -(-days // MAX_POINTS)))


def _style() -> Any:
    from pygal.style import Style

    # CSS variables of the page, so the charts follow its light and dark colour scheme.
    return Style(background="transparent", plot_background="transparent",
                 foreground="var(--fg)", foreground_strong="var(--fg)",
                 foreground_subtle="var(--muted)", guide_stroke_color="var(--grid)",
                 major_guide_stroke_color="var(--grid)", colors=PALETTE,
                 font_family="system-ui,sans-serif", label_font_size=11, legend_font_size=12,
                 stroke_width="2", opacity=".9")


def _strip_script_and_comments(root: Any) -> Any:
    for defs in root.iter("defs"):
        for script in [child for child in defs if child.tag == "script"]:
            defs.remove(script)
    for parent in root.iter():
        for child in [c for c in parent if not isinstance(c.tag, str)]:  # comments
            parent.remove(child)
    return root


def line_chart(chart_id: str, series: Mapping[str, Sequence[Point]], *,
               y_format: Callable[[float], str] | None = None,
               y_labels: Sequence[float] | None = None) -> str:
    """One SVG line chart: a line per series over time; `series` in legend order."""
    import pygal

    legend_rows = -(-len(series) // LEGEND_COLUMNS)
    chart = pygal.DateTimeLine(
        width=640, height=230 + 22 * legend_rows, style=_style(), js=[], disable_xml_declaration=True,
        show_dots=False, legend_at_bottom=True, legend_at_bottom_columns=LEGEND_COLUMNS,
        truncate_legend=28, margin=12, margin_bottom=12 + 18 * legend_rows, spacing=8,
        include_x_axis=y_labels is None,
        x_value_formatter=lambda moment: moment.strftime("%m-%d"), x_label_rotation=0, truncate_label=-1,
        show_x_guides=False, y_labels=list(y_labels) if y_labels is not None else None,
        value_formatter=y_format or _number, no_data_text="no data in the window",
        classes=["pygal-chart", "chart"], explicit_size=False,
    )
    chart.uuid = chart_id
    chart.add_xml_filter(_strip_script_and_comments)
    for name, points in series.items():
        chart.add(name, list(points))
    return chart.render(is_unicode=True)


def _number(value: float) -> str:
    return f"{value:g}"
