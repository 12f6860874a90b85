"""The knowledge view of a graph membank wrote, drawn in two passes over the file, entity by
entity (tasks.store.graph_stream.GraphStream): neither the graph nor the view model is held whole.

At 100,000 pages the marked graph is 718 MB: read whole it is about 3 GB of dicts, and the view
model of its 1,000,000 observations as many lists again. The first pass reads each entity's
observations (graph_model.entity_observations) and keeps what the page shows before them: each
entity's name, type, evidence pages and whether every fact it has is superseded; the string
tables; the counts. The second pass reads the file again and writes each entity's `obs` row as
JSON as it comes, between the nodes and the edges. The bytes are those of
render_graph_page(view_model(...)): the same tables and order, orjson's compact JSON of each
part concatenated (tests/tasks/health/dashboard/test_graph_view_stream.py).

Only for a file recorded as membank wrote it, whose entities are unique and sorted by
entity_key (save_graph writes them so); any other raises NotStreamable, before or while the
page is written, and the caller reads the graph whole.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from schemas.graph import entity_key
from tasks.health.dashboard.graph_model import (
    UNLISTED_TYPE,
    GraphSources,
    entity_observations,
    graph_relations,
    indexed,
    observation_rows,
    relation_degrees,
    text_of,
)
from tasks.health.dashboard.graph_page import counts_text, escaped_json, page_close, page_open
from tasks.health.dashboard.graph_sources import entity_evidence_pages, memory_sources, with_hubs
from tasks.store.graph_stream import GraphStream
from tasks.store.layout import MemoryLayout
from tasks.store.written import as_written

FLUSH_BYTES = 1 << 20  # the page is written in pieces of about this size


class NotStreamable(ValueError):
    """The graph is not as membank writes it (or changed between the two passes)."""


@dataclass
class _Node:
    name: str
    entity_type: str
    pages: frozenset[str] = frozenset()  # the evidence pages of its observations (its hubs)
    gone: bool = False  # it has facts and every one is superseded


@dataclass
class _FirstPass:
    """What the page shows before the observations, and the counts."""

    nodes: dict[str, _Node] = field(default_factory=dict)  # entity key -> node, in file order
    evidence: set[str] = field(default_factory=set)  # pages whose hubs the view shows
    pages: set[str] = field(default_factory=set)  # evidence pages and raw files
    observations: int = 0
    superseded: int = 0
    frame: dict[str, Any] = field(default_factory=dict)  # the document without its entities


def _listed(entity: dict[str, Any], last: str | None) -> tuple[str, str] | None:
    """(name, key) of an entity the view lists (a named one), checking the file's order."""
    name = text_of(entity.get("entityName"))
    if not name:
        return None
    key = entity_key(name)
    if last is not None and not last < key:
        raise NotStreamable("entities not unique and sorted by key")
    return name, key


def _first_pass(layout: MemoryLayout, sources: GraphSources) -> _FirstPass:
    found, stream, last = _FirstPass(), GraphStream(layout.graph_file), None
    for entity in stream.entities():
        found.evidence.update(entity_evidence_pages(entity))
        listed = _listed(entity, last)
        if listed is None:
            continue
        name, last = listed
        observations = entity_observations(entity, sources)
        pages = frozenset(page for _t, evidence, _n in observations for page, _r, _s, _e in evidence)
        found.pages.update(pages)
        found.pages.update(raw for _t, evidence, _n in observations for _p, raw, _s, _e in evidence if raw)
        retired = sum(1 for _t, _e, note in observations if note)
        found.observations += len(observations)
        found.superseded += retired
        found.nodes[last] = _Node(name, text_of(entity.get("entityType")) or UNLISTED_TYPE, pages,
                                  bool(observations) and retired == len(observations))
    if stream.frame is None:
        raise NotStreamable("the graph was not read to its end")
    found.frame = stream.frame
    return found


@dataclass
class _Page:
    """The page's parts before and after the observations, and the entities in the model's
    order (the listed ones as the second pass will find them)."""

    head: bytes
    tail: bytes
    order: list[str | None]  # None: an entity only a relation names
    page_index: dict[str, int]


def _page(found: _FirstPass, sources: GraphSources, digest: str) -> _Page:
    """Everything but the observations, as graph_model.view_model and render_graph_page make it."""
    relations = graph_relations(found.frame)
    nodes = dict(found.nodes)
    for source, target, _type, _superseded in relations:
        for name in (source, target):
            nodes.setdefault(entity_key(name), _Node(name, UNLISTED_TYPE))
    order = sorted(nodes)
    degree, live = relation_degrees(relations, order)
    hubs = {hub for node in nodes.values() for page in node.pages for hub in sources.page_hubs.get(page, ())}
    pages = set(found.pages)
    pages.update(sources.entity_pages[key] for key in order if key in sources.entity_pages)
    tables = {"types": indexed({node.entity_type for node in nodes.values()}), "hubs": indexed(hubs),
              "pages": indexed(pages), "relTypes": indexed({kind for _s, _t, kind, _x in relations})}
    type_index, hub_index, page_index, rel_index = (tables[n][1] for n in tables)
    page_hubs, rows = sources.page_hubs, []
    for key in order:
        node, page = nodes[key], sources.entity_pages.get(key)
        rows.append([node.name, type_index[node.entity_type], degree[key],
                     sorted({hub_index[hub] for p in node.pages for hub in page_hubs.get(p, ())}),
                     page_index[page] if page else -1, sorted(sources.aliases.get(key, ())),
                     int(node.gone and key not in live)])
    position = {key: i for i, key in enumerate(order)}
    edges = [[position[entity_key(s)], position[entity_key(t)], rel_index[r], superseded]
             for s, t, r, superseded in relations]
    graph = text_of(found.frame.get("graphGeneratedAtUtc"))
    head = [b'{"graph":', escaped_json(graph), b',"base":', escaped_json(sources.base)]
    for name, (values, _index) in tables.items():
        head += [b',"', name.encode(), b'":', escaped_json(values)]
    head += [b',"nodes":', escaped_json(rows), b',"obs":[']
    counts = counts_text(len(order), len(edges), sum(edge[3] for edge in edges), found.observations,
                         found.superseded)
    return _Page(head=page_open(len(order), counts, graph, digest).encode() + b"".join(head),
                 tail=b'],"edges":' + escaped_json(edges) + b"}" + page_close().encode(),
                 order=[key if key in found.nodes else None for key in order], page_index=page_index)


def _observation_rows(layout: MemoryLayout, page: _Page, sources: GraphSources) -> Iterator[bytes]:
    """Each entity's `obs` row in the model's order (`[]` for an entity only a relation names),
    from a second read of the graph."""
    entities, last = GraphStream(layout.graph_file).entities(), None
    for n, key in enumerate(page.order):
        if n:
            yield b","
        if key is None:
            yield b"[]"
            continue
        for entity in entities:
            listed = _listed(entity, last)
            if listed is not None:
                break
        else:
            raise NotStreamable("the graph changed while it was read")
        last = listed[1]
        if last != key:
            raise NotStreamable("the graph changed while it was read")
        yield escaped_json(observation_rows(entity_observations(entity, sources), page.page_index))
    if any(_listed(entity, last) is not None for entity in entities):
        raise NotStreamable("the graph changed while it was read")


def streamed_page(layout: MemoryLayout, digest: str) -> Iterator[bytes]:
    """The knowledge view's bytes in pieces (render_graph_view's page); raises NotStreamable
    (a ValueError) when the graph is not as membank wrote it, and MembankError when the
    registry or the manifest cannot be read."""
    if not as_written(layout.graph_file):
        raise NotStreamable("the graph is not recorded as membank wrote it")
    sources = memory_sources(layout)
    found = _first_pass(layout, sources)
    sources = with_hubs(layout, sources, found.evidence)
    page = _page(found, sources, digest)
    del found  # what the page needs of it is in `page` now
    pending, size = [page.head], len(page.head)
    for piece in _observation_rows(layout, page, sources):
        pending.append(piece)
        size += len(piece)
        if size >= FLUSH_BYTES:
            yield b"".join(pending)
            pending, size = [], 0
    pending.append(page.tail)
    yield b"".join(pending)
