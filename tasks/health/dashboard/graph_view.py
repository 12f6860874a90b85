"""The knowledge view: context/health/graph.html, drawn from the knowledge graph.

Read (the graph, the registry for entity pages and aliases, the raw manifest for raw files, the
front matter of the pages observations came from for their hubs), turn into the view model
(tasks/health/dashboard/graph_model.py, pure), render (tasks/health/dashboard/graph_page.py, pure), write
atomically. Redrawn beside the ops dashboard on every health write and by `membank dashboard`.
Same memory, same bytes: the page carries the graph's own timestamp, not the clock.

A graph that cannot be read does not stop the health write that redraws the page: the page
then says which file is broken, why, and what to do (reconcile reports the same file).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Mapping
from pathlib import Path, PurePosixPath
from typing import Any

import yaml

from schemas.graph import entity_key
from tasks.health.dashboard.graph_model import GraphSources, view_model
from tasks.health.dashboard.graph_page import page_scripts, render_graph_page
from tasks.markdown.frontmatter import find_front_matter
from tasks.memstores.mem_jsonl import paused_gc
from tasks.store.atomic import atomic_write_text
from tasks.store.digests import file_digests
from tasks.store.errors import MembankError
from tasks.store.graph_store import load_graph_data, load_manifest, load_registry
from tasks.store.layout import HEALTH_DIR, MemoryLayout, health_dir, hub_of, hub_path
from tasks.store.names import is_hub_page

GRAPH_VIEW_FILE = "graph.html"
# How far up child_of links a page's hub is looked for (a shard -> its index page -> the hub).
HUB_DEPTH = 4
# Raise when the model or page changes in a way page_scripts() does not show (a redraw follows).
VIEW_VERSION = 1
_LOADER = getattr(yaml, "CBaseLoader", yaml.BaseLoader)


def _links(value: object) -> list[str]:
    """A child_of value as hub-or-page paths ("wiki/synthesis" means wiki/synthesis/index.md)."""
    items = value if isinstance(value, list) else [value] if isinstance(value, str) else []
    found = []
    for item in items:
        if isinstance(item, str) and item.strip().strip("/"):
            link = item.strip().strip("/").removeprefix("./")
            found.append(link if link.endswith(".md") else hub_path(link))
    return found


# The two top-level keys a hub is found from, each with its indented or `- ` continuation lines.
_HUB_KEYS_RE = re.compile(r"^(?:child_of|type):[^\n]*(?:\n(?:[ \t]|- )[^\n]*)*", re.M)


def front_matter(path: Path) -> dict[str, Any]:
    """`child_of` and `type` of a page's front matter, as plain strings (libyaml's base loader
    on those two keys' lines, the whole block when they do not parse alone), or {} when the
    page is missing or broken: reconcile reports those pages; here only their hub is unknown.
    Thousands of source pages are read per drawing, so only what is needed is parsed."""
    try:
        text = path.read_text(encoding="utf-8")
        block = find_front_matter(text)
        if block is None:
            return {}
        try:
            meta = yaml.load("\n".join(_HUB_KEYS_RE.findall(block.yaml(text))), Loader=_LOADER)
        except yaml.YAMLError:
            meta = yaml.load(block.yaml(text), Loader=_LOADER)  # plain data only
    except (OSError, UnicodeDecodeError, yaml.YAMLError):
        return {}
    return meta if isinstance(meta, dict) else {}


class _Hubs:
    """The hubs a page hangs under: its child_of parents that are hubs (by name, or pages of
    type hub), else theirs, up to HUB_DEPTH levels; by folder when it names no parent."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.meta: dict[str, dict[str, Any]] = {}

    def _meta(self, rel: str) -> dict[str, Any]:
        if rel not in self.meta:
            self.meta[rel] = front_matter(self.root / rel)
        return self.meta[rel]

    def of(self, rel: str, depth: int = 0) -> set[str]:
        parents = _links(self._meta(rel).get("child_of"))
        if not parents:
            folder_hub = hub_of(rel)
            return {folder_hub} if folder_hub and folder_hub != rel else set()
        hubs: set[str] = set()
        for parent in parents:
            if is_hub_page(parent) or self._meta(parent).get("type") == "hub":
                hubs.add(parent)
            elif depth < HUB_DEPTH:
                hubs |= self.of(parent, depth + 1)
        return hubs


def _evidence_pages(graph: Mapping[str, Any]) -> set[str]:
    pages = set()
    for entity in graph.get("entities") or ():
        for key in ("observationProvenance", "supersededObservations"):
            for item in entity.get(key) or ():
                page = item.get("sourcePage")
                if isinstance(page, str) and page.strip():
                    pages.add(page.strip())
    return pages


def _registry_facts(layout: MemoryLayout) -> tuple[dict[str, str], dict[str, list[str]]]:
    if not layout.registry_file.exists():
        return {}, {}
    entries = load_registry(layout.registry_file).entries
    pages = {entity_key(e.canonicalName): e.entityPage for e in entries if e.entityPage}
    return pages, {entity_key(e.canonicalName): list(e.aliases) for e in entries if e.aliases}


def graph_sources(layout: MemoryLayout, graph: Mapping[str, Any]) -> GraphSources:
    """Everything the view adds to the graph, read from the memory (registry, manifest, pages)."""
    hubs = _Hubs(layout.root)
    page_hubs = {page: sorted(hubs.of(page)) for page in sorted(_evidence_pages(graph))}
    raw_paths: dict[str, str] = {}
    if layout.raw_manifest_file.exists():
        raw_paths = {a.assetId: a.rawPath for a in load_manifest(layout.raw_manifest_file).assets}
    entity_pages, aliases = _registry_facts(layout)
    base = "../" * len(PurePosixPath(HEALTH_DIR).parts)
    return GraphSources(page_hubs=page_hubs, raw_paths=raw_paths, entity_pages=entity_pages,
                        aliases=aliases, base=base)


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
        atomic_write_text(target, render_graph_view(layout, digest))
    return target
