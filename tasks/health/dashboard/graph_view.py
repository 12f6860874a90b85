"""The knowledge view: context/health/graph.html, drawn from the knowledge graph.

Read (the graph, the registry for entity pages and aliases, the raw manifest for raw files, the
front matter of the pages observations came from for their hubs), turn into the view model
(tasks/health/dashboard/graph_model.py, pure), render (tasks/health/dashboard/graph_page.py, pure), write
atomically. Redrawn beside the ops dashboard on every health write and by `membank dashboard`.
Same memory, same bytes: the page carries the graph's own timestamp, not the clock. A graph
recorded as membank wrote it is drawn without holding it or the model whole
(tasks/health/dashboard/graph_view_stream.py: two passes, the page written as it is drawn, the
same bytes); any other is read whole here.

A graph that cannot be read does not stop the health write that redraws the page: the page
then says which file is broken, why, and what to do (reconcile reports the same file).
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

from tasks.health.dashboard.graph_model import view_model
from tasks.health.dashboard.graph_page import page_scripts, render_graph_page
from tasks.health.dashboard.graph_sources import front_matter, graph_sources
from tasks.health.dashboard.graph_view_stream import streamed_page
from tasks.memstores.mem_jsonl import paused_gc
from tasks.store.atomic import atomic_write_chunks, atomic_write_text
from tasks.store.digests import file_digests
from tasks.store.errors import MembankError
from tasks.store.graph_store import load_graph_data
from tasks.store.layout import MemoryLayout, health_dir

__all__ = ["GRAPH_VIEW_FILE", "front_matter", "graph_sources", "render_graph_view", "write_graph_view"]

GRAPH_VIEW_FILE = "graph.html"
# Raise when the model or page changes in a way page_scripts() does not show (a redraw follows).
VIEW_VERSION = 1


def inputs_digest(layout: MemoryLayout) -> str:
    """sha256 over what the page is drawn from that can change without the graph's pages
    changing: the graph, the registry and the manifest (the sha256 of their bytes, remembered
    by file identity: an unchanged graph costs a stat, not a read), and the page's code."""
    digest = hashlib.sha256("\0".join((*page_scripts(), str(VIEW_VERSION))).encode())
    paths = [layout.graph_file, layout.registry_file, layout.raw_manifest_file]
    for path, content in zip(paths, file_digests(layout, paths), strict=True):
        digest.update(path.name.encode())
        digest.update(b"\0missing" if content is None else content.encode())
    return digest.hexdigest()


def render_graph_view(layout: MemoryLayout, digest: str = "") -> str:
    """The knowledge view of the memory at `layout` (or a page saying why there is none)."""
    if not layout.graph_file.exists():
        return render_graph_page(None, digest=digest, problem=MembankError(
            "no knowledge graph yet", file=layout.graph_file.relative_to(layout.root),
            hint="run `membank distill` (or `membank run SOURCES`) to build it"))
    # a graph of 100,000 observations is millions of small objects, and the model makes as
    # many: without the pause the collector's repeated passes over them cost more than the build
    with paused_gc():
        try:
            graph = load_graph_data(layout.graph_file)
            sources = graph_sources(layout, graph)
        except MembankError as exc:
            return render_graph_page(None, digest=digest, problem=exc)
        return render_graph_page(view_model(graph, sources), digest=digest)


def _drawn_from(target: Path) -> str | None:
    """The inputs digest an existing page was drawn from (in its first line's meta tag)."""
    try:
        with target.open("rb") as handle:
            head = handle.read(2048).decode("utf-8", "replace")
    except OSError:
        return None
    found = re.search(r'<meta name="membank-graph-inputs" content="([0-9a-f]{64})">', head)
    return found.group(1) if found else None


def write_graph_view(root: Path, *, force: bool = False) -> Path:
    """Regenerate <root>/context/health/graph.html from the knowledge graph; return its path.

    Skipped when the page was drawn from the same graph, registry and manifest (a run's
    reconcile and freshness health writes both land here; at 100,000 observations a drawing
    costs about a second): `force` (what `membank dashboard` passes) draws it anyway, so a page
    whose hubs changed alone (a source page moved under another hub) is redrawn on demand."""
    layout = MemoryLayout(root)
    folder = health_dir(root)
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / GRAPH_VIEW_FILE
    digest = inputs_digest(layout)
    if force or _drawn_from(target) != digest:
        # a graph as membank wrote it: read twice entity by entity, written as it is drawn
        # (tasks/health/dashboard/graph_view_stream.py); any other: read whole, as before
        try:
            with paused_gc():
                atomic_write_chunks(target, streamed_page(layout, digest))
        except (MembankError, ValueError):
            atomic_write_text(target, render_graph_view(layout, digest))
    return target
