"""What the knowledge view adds to the graph, read from the memory: entity pages and aliases
(the registry), raw files (the raw manifest), and the hubs of the pages observations came from
(their front matter). Used by the whole-graph view (tasks/health/dashboard/graph_view.py) and
the streamed one (tasks/health/dashboard/graph_view_stream.py).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import replace
from pathlib import Path, PurePosixPath
from typing import Any

import yaml

from schemas.graph import entity_key
from tasks.health.dashboard.graph_model import GraphSources
from tasks.markdown.frontmatter import find_front_matter
from tasks.store.graph_store import load_manifest, load_registry
from tasks.store.layout import HEALTH_DIR, MemoryLayout, hub_of, hub_path
from tasks.store.names import is_hub_page

# How far up child_of links a page's hub is looked for (a shard -> its index page -> the hub).
HUB_DEPTH = 4
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


def entity_evidence_pages(entity: Mapping[str, Any]) -> Iterator[str]:
    """The source pages one entity's observations (active and superseded) were read from."""
    for key in ("observationProvenance", "supersededObservations"):
        for item in entity.get(key) or ():
            page = item.get("sourcePage")
            if isinstance(page, str) and page.strip():
                yield page.strip()


def _evidence_pages(graph: Mapping[str, Any]) -> set[str]:
    return {page for entity in graph.get("entities") or () for page in entity_evidence_pages(entity)}


def _registry_facts(layout: MemoryLayout) -> tuple[dict[str, str], dict[str, list[str]]]:
    if not layout.registry_file.exists():
        return {}, {}
    entries = load_registry(layout.registry_file).entries
    pages = {entity_key(e.canonicalName): e.entityPage for e in entries if e.entityPage}
    return pages, {entity_key(e.canonicalName): list(e.aliases) for e in entries if e.aliases}


def memory_sources(layout: MemoryLayout) -> GraphSources:
    """What the view adds to the graph from the registry and the manifest (no hubs yet)."""
    raw_paths: dict[str, str] = {}
    if layout.raw_manifest_file.exists():
        raw_paths = {a.assetId: a.rawPath for a in load_manifest(layout.raw_manifest_file).assets}
    entity_pages, aliases = _registry_facts(layout)
    base = "../" * len(PurePosixPath(HEALTH_DIR).parts)
    return GraphSources(raw_paths=raw_paths, entity_pages=entity_pages, aliases=aliases, base=base)


def with_hubs(layout: MemoryLayout, sources: GraphSources, evidence: set[str]) -> GraphSources:
    """`sources` with the hubs of every evidence page (read from the pages' front matter)."""
    hubs = _Hubs(layout.root)
    return replace(sources, page_hubs={page: sorted(hubs.of(page)) for page in sorted(evidence)})


def graph_sources(layout: MemoryLayout, graph: Mapping[str, Any]) -> GraphSources:
    """Everything the view adds to the graph, read from the memory (registry, manifest, pages)."""
    return with_hubs(layout, memory_sources(layout), _evidence_pages(graph))
