"""Health files under <root>/context/health/: write them (under the writer lock), read the latest.

Files:
  <prefix>__<kind>-health.json   the dated summary
  latest.json, latest-<kind>.json the most recent summary (any kind / this kind)
  history.jsonl                   one compact line per run, for plotting (tasks/health/dashboard/build.py)
  membank-<kind>.prom             Prometheus textfile (node_exporter textfile collector)
  dashboard.html                  the ops dashboard, drawn from history.jsonl alone
  graph.html                      the knowledge view, drawn from the knowledge graph
"""

from __future__ import annotations

from pathlib import Path

import orjson
from prometheus_client import generate_latest

from schemas.health import (
    HealthKind,
    HealthSummary,
)
from tasks.health.history import append_history, history_line, keep_latest_of_day
from tasks.health.summary import metrics_registry, summary_html
from tasks.store.atomic import atomic_write_bytes, atomic_write_text, ensure_folder
from tasks.store.contracts import validate_model
from tasks.store.errors import ContractError, RootError, from_os_error
from tasks.store.jsonc import dumps_json
from tasks.store.layout import HEALTH_DIR, health_dir
from tasks.store.names import utc_prefix
from tasks.store.settings import MembankSettings

GRAPH_VIEW_NAME = "graph.html"  # tasks.health.dashboard.graph_view.GRAPH_VIEW_FILE (not imported)


def record_health(settings: MembankSettings, summary: HealthSummary, *,
                  draw_graph_view: bool = True) -> dict[str, str]:
    """write_health under the memory root's writer lock, as one journaled batch. Health files
    are writes like any other: a writer starting beside an unlocked one sweeps its temp files
    as orphans, and two health writers would race on the history and the day's dated file."""
    from tasks.store.operation import writing_operation  # lazy for start-up: readers never lock

    with writing_operation(settings, "audit") as operation:
        return write_health(operation.root, summary, keep_days=settings.health_history_days,
                            draw_graph_view=draw_graph_view)


def write_health(root: Path, summary: HealthSummary, *, keep_days: float | None = None,
                 draw_graph_view: bool = True) -> dict[str, str]:
    """Write every health file and regenerate the dashboard; return {role: root-relative path}.
    The caller holds the writer lock (record_health).
    Earlier dated summaries of the same day and kind are replaced; with `keep_days`, dated
    summaries and history lines older than that are pruned (see prune_health_history); the
    count is returned under "pruned". Without `draw_graph_view` (reconcile --check: a check
    writes nothing but its summary) the knowledge view is left as it is: redrawing it after a
    change reads the whole graph and the pages its observations came from (about 40 s at
    100,000 pages)."""
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
    atomic_write_bytes(folder / f"membank-{summary.kind}.prom", generate_latest(metrics_registry(summary)),
                       validate=False)
    atomic_write_text(folder / f"latest-{summary.kind}.html", summary_html(summary))
    # Lazy for start-up: `membank health` and the agents' health tool read summaries and never
    # draw; importing the two dashboard modules adds about 0.1 s CPU (+20 %) to this module's.
    from tasks.health.dashboard.build import write_dashboard

    graph_view = _graph_view(root, draw=draw_graph_view)  # first: the dashboard lists it
    dashboard = write_dashboard(root, now_iso=summary.generated_at)
    paths = {"dated": dated, "latest": f"{HEALTH_DIR}/latest.json",
             "html": f"{HEALTH_DIR}/latest-{summary.kind}.html",
             "history": f"{HEALTH_DIR}/history.jsonl",
             "prometheus": f"{HEALTH_DIR}/membank-{summary.kind}.prom",
             "dashboard": dashboard.relative_to(root).as_posix()}
    if graph_view is not None:
        paths["graph_view"] = graph_view.relative_to(root).as_posix()
    if pruned:
        paths["pruned"] = str(pruned)
    return paths


def _graph_view(root: Path, *, draw: bool) -> Path | None:
    """The knowledge view, redrawn when `draw` (and its inputs changed); else the page as it
    is, if there is one (None without)."""
    if draw:
        from tasks.health.dashboard.graph_view import write_graph_view

        return write_graph_view(root)
    page = health_dir(root) / GRAPH_VIEW_NAME
    return page if page.is_file() else None


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
