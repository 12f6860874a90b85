"""The knowledge view's data: the graph as a compact view model (pure: graph in, model out).

The page (tasks/health/dashboard/graph_page.py) draws from this model alone. Strings that repeat
(entity types, relation types, hubs, page paths) are listed once and referred to by index, so a
10,000-entity graph with 100,000 observations stays a few MB of JSON that the browser parses in
one call. Every list is sorted, so the same graph gives the same model (and the same bytes).

    {"graph": graphGeneratedAtUtc, "base": "../../" (from the page to the memory root),
     "types": [entity type], "relTypes": [relation type], "hubs": [hub page], "pages": [path],
     "nodes": [[name, type, degree, [hub], entity page or -1, [alias], superseded 0/1]],
     "edges": [[source node, target node, relation type, superseded 0/1]],
     "obs": [per node: [[text, [[page, raw file or -1, line start, line end]], note or ""]]]}

An observation's note is empty for an active fact; for a superseded one it says when, by what
and why (the page greys it). A node is superseded when every fact it has is superseded and no
active relation touches it. Relations naming an entity the graph does not list get a node of
type UNLISTED_TYPE, so no edge dangles.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from schemas.graph import SUPERSEDED_RELATIONS_KEY, entity_key

UNLISTED_TYPE = "unlisted"  # the type of an entity only a relation names
Row = list[Any]


@dataclass(frozen=True)
class GraphSources:
    """What the view adds to the graph file, read by tasks/health/dashboard/graph_view.py."""

    page_hubs: Mapping[str, Sequence[str]] = field(default_factory=dict)  # evidence page -> hubs
    raw_paths: Mapping[str, str] = field(default_factory=dict)  # raw asset id -> raw file
    entity_pages: Mapping[str, str] = field(default_factory=dict)  # entity key -> its wiki page
    aliases: Mapping[str, Sequence[str]] = field(default_factory=dict)  # entity key -> aliases
    base: str = ""  # the memory root as seen from the page's folder ("../../")


def indexed(values: set[str]) -> tuple[list[str], dict[str, int]]:
    """Strings listed once in sorted order, and each one's index in that list."""
    ordered = sorted(values)
    return ordered, {value: i for i, value in enumerate(ordered)}


def text_of(value: object) -> str:
    """A string field stripped; anything else as empty."""
    return value.strip() if isinstance(value, str) else ""


def _line(value: object) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else 1


Where = tuple[str, str, int, int]  # (source page, raw file or "", first line, last line)
Observation = tuple[str, list[Where], str]  # (text, sorted evidence, note: "" when active)


def _where(item: Mapping[str, Any], sources: GraphSources) -> Where | None:
    """Where a superseded observation was read (its provenance is an unchecked extension)."""
    page = text_of(item.get("sourcePage"))
    if not page:
        return None
    start = _line(item.get("lineStart"))
    return page, sources.raw_paths.get(text_of(item.get("rawAssetId")), ""), start, max(
        _line(item.get("lineEnd")), start)


def _superseded_note(item: Mapping[str, Any]) -> str:
    note = f"superseded {text_of(item.get('supersededAtUtc'))}".rstrip()
    if text_of(item.get("supersededBy")):
        note += f" by {text_of(item.get('supersededBy'))}"
    if text_of(item.get("reason")):
        note += f": {text_of(item.get('reason'))}"
    return note


def entity_observations(entity: Mapping[str, Any], sources: GraphSources) -> list[Observation]:
    """(text, sorted evidence, note) of every active then superseded observation. The graph is
    validated (observations and their provenance have their types); 100,000 of them go through
    here, so the hot loop reads the fields directly."""
    evidence: dict[str, list[Where]] = {}
    raw_paths = sources.raw_paths
    for item in entity.get("observationProvenance") or ():
        start = item["lineStart"]
        evidence.setdefault(item["observation"].strip(), []).append(
            (item["sourcePage"], raw_paths.get(item["rawAssetId"], ""), start, max(item["lineEnd"], start)))
    active = sorted({text.strip() for text in entity.get("observations") or ()} - {""})
    found = [(text, sorted(set(evidence.get(text, ()))), "") for text in active]
    retired: dict[tuple[str, str], tuple[str, list[Where], str]] = {}
    for item in entity.get("supersededObservations") or ():
        text, note = text_of(item.get("observation")), _superseded_note(item)
        where = _where(item, sources)
        retired.setdefault((text, note), (text, [where] if where else [], note))
    return found + [retired[key] for key in sorted(retired)]


def graph_relations(graph: Mapping[str, Any]) -> list[tuple[str, str, str, int]]:
    """(source, target, type, superseded) of every relation, deduplicated (an active one wins
    over its superseded copy), by source, type and target."""
    found: dict[tuple[str, str, str], int] = {}
    for superseded, items in ((0, graph.get("relations")), (1, graph.get(SUPERSEDED_RELATIONS_KEY))):
        for item in items if isinstance(items, list) else ():
            if not isinstance(item, Mapping):
                continue
            key = (text_of(item.get("sourceEntityName")), text_of(item.get("targetEntityName")),
                   text_of(item.get("relationType")))
            if all(key):
                found.setdefault(key, superseded)
    ordered = sorted(found, key=lambda k: (entity_key(k[0]), k[2], entity_key(k[1]), k))  # the spec's order
    return [(*key, found[key]) for key in ordered]


@dataclass
class _Entity:
    name: str
    entity_type: str
    observations: list[tuple[str, list[Where], str]]


def _entities(graph: Mapping[str, Any], relations: Iterable[tuple[str, str, str, int]],
              sources: GraphSources) -> dict[str, _Entity]:
    """The graph's entities by key (first seen wins, as the spec says), then unlisted ones."""
    found: dict[str, _Entity] = {}
    for item in graph.get("entities") or ():
        name = text_of(item.get("entityName"))
        if name and entity_key(name) not in found:
            found[entity_key(name)] = _Entity(name, text_of(item.get("entityType")) or UNLISTED_TYPE,
                                              entity_observations(item, sources))
    for source, target, _type, _superseded in relations:
        for name in (source, target):
            found.setdefault(entity_key(name), _Entity(name, UNLISTED_TYPE, []))
    return dict(sorted(found.items()))


def relation_degrees(relations: Iterable[tuple[str, str, str, int]], keys: Iterable[str]
                     ) -> tuple[dict[str, int], set[str]]:
    """Per entity key, how many live (not superseded) relations it takes part in, and the keys
    that take part in any."""
    degree, live = dict.fromkeys(keys, 0), set()
    for source, target, _type, superseded in relations:
        if not superseded:
            ends = {entity_key(source), entity_key(target)}
            live |= ends
            for key in ends:
                degree[key] += 1
    return degree, live


def view_model(graph: Mapping[str, Any], sources: GraphSources) -> dict[str, Any]:
    """The page's model of `graph` (the file's JSON shape, as load_graph_data gives it)."""
    relations = graph_relations(graph)
    entities = _entities(graph, relations, sources)
    order = {key: i for i, key in enumerate(entities)}
    degree, live = relation_degrees(relations, entities)
    types: set[str] = set()
    hubs: set[str] = set()
    pages: set[str] = set()
    for key, entity in entities.items():
        types.add(entity.entity_type)
        for _observation, evidence, _note in entity.observations:
            for page, raw, _start, _end in evidence:
                pages.update((page, raw) if raw else (page,))
                hubs.update(sources.page_hubs.get(page, ()))
        if key in sources.entity_pages:
            pages.add(sources.entity_pages[key])
    tables = {"types": indexed(types), "hubs": indexed(hubs), "pages": indexed(pages),
              "relTypes": indexed({relation_type for _s, _t, relation_type, _x in relations})}
    model: dict[str, Any] = {"graph": text_of(graph.get("graphGeneratedAtUtc")), "base": sources.base}
    model.update((name, values) for name, (values, _index) in tables.items())
    model["nodes"], model["obs"] = _nodes(entities, tables, sources, (degree, live))
    rel_index = tables["relTypes"][1]
    model["edges"] = [[order[entity_key(s)], order[entity_key(t)], rel_index[r], superseded]
                      for s, t, r, superseded in relations]
    return model


def _nodes(entities: Mapping[str, _Entity], tables: Mapping[str, tuple[list[str], dict[str, int]]],
           sources: GraphSources, links: tuple[Mapping[str, int], set[str]]) -> tuple[list[Row], list[Row]]:
    type_index, hub_index, page_index = (tables[n][1] for n in ("types", "hubs", "pages"))
    degree, live = links
    nodes, observations = [], []
    for key, entity in entities.items():
        hubs = sorted({hub_index[hub] for _t, evidence, _n in entity.observations
                       for page, _raw, _s, _e in evidence for hub in sources.page_hubs.get(page, ())})
        retired = bool(entity.observations) and all(note for _t, _e, note in entity.observations)
        page = sources.entity_pages.get(key)
        nodes.append([entity.name, type_index[entity.entity_type], degree[key], hubs,
                      page_index[page] if page else -1, sorted(sources.aliases.get(key, ())),
                      int(retired and key not in live)])
        observations.append(observation_rows(entity.observations, page_index))
    return nodes, observations


def observation_rows(observations: Iterable[Observation], page_index: Mapping[str, int]) -> list[Row]:
    """An entity's `obs` entry: its observations with their pages as indexes in `pages`."""
    return [[text, [[page_index[p], page_index.get(raw, -1), start, end] for p, raw, start, end in evidence],
             note] for text, evidence, note in observations]
