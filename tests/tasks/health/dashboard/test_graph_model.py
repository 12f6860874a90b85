"""The knowledge view's model: the graph (the file's JSON shape) -> the page's compact model."""

from __future__ import annotations

import random
from typing import Any

import orjson

from tasks.health.dashboard.graph_model import UNLISTED_TYPE, GraphSources, view_model

SOURCE = "wiki/sources/2026-03-01T10-00-00Z__design-notes.md"
OTHER = "wiki/sources/shards/2026-03-01T10-00-00Z__big/shard-000.md"
RAW = "raw/2026-03-01T10-00-00Z__design-notes.md"


def evidence(text: str, page: str = SOURCE, start: int = 3, end: int = 4) -> dict[str, Any]:
    return {"observation": text, "sourcePage": page, "rawAssetId": "a" * 64, "lineStart": start,
            "lineEnd": end}


def graph() -> dict[str, Any]:
    return {
        "graphGeneratedAtUtc": "2026-03-02T00:00:00Z",
        "entities": [
            {"entityName": "Planner", "entityType": "service", "observations": ["Turns goals into plans"],
             "observationProvenance": [evidence("Turns goals into plans", OTHER, 7, 9)]},
            {"entityName": "orchestrator", "entityType": "service",
             "observations": ["Coordinates the team", "status: active"],
             "observationProvenance": [evidence("Coordinates the team"),
                                       evidence("Coordinates the team", OTHER, 1, 1),
                                       evidence("status: active", SOURCE, 5, 5)],
             "supersededObservations": [{"observation": "status: draft", "supersededAtUtc": "2026-03-01T12:00:00Z",
                                         "supersededBy": "status: active", "reason": "newer status",
                                         "sourcePage": SOURCE, "rawAssetId": "a" * 64,
                                         "lineStart": 2, "lineEnd": 2}]},
            {"entityName": "Old cache", "entityType": "component", "observations": [],
             "supersededObservations": [{"observation": "Caches plans", "supersededAtUtc": "2026-03-01T12:00:00Z",
                                         "supersededBy": None, "reason": "removed"}]},
            {"entityName": "ORCHESTRATOR", "entityType": "person", "observations": ["a duplicate"]},
        ],
        "relations": [
            {"sourceEntityName": "orchestrator", "targetEntityName": "Planner", "relationType": "delegates_to"},
            {"sourceEntityName": "orchestrator", "targetEntityName": "Ghost", "relationType": "mentions"},
        ],
        "supersededRelations": [
            {"sourceEntityName": "Old cache", "targetEntityName": "Planner", "relationType": "serves",
             "supersededAtUtc": "2026-03-01T12:00:00Z", "reason": "no source states it"},
            {"sourceEntityName": "orchestrator", "targetEntityName": "Planner", "relationType": "delegates_to",
             "supersededAtUtc": "2026-03-01T12:00:00Z", "reason": "stated again later"},
        ],
    }


SOURCES = GraphSources(
    page_hubs={SOURCE: ["wiki/sources/index.md"], OTHER: ["wiki/sources/index.md", "wiki/synthesis/ops-hub.md"]},
    raw_paths={"a" * 64: RAW},
    entity_pages={"orchestrator": "wiki/entities/2026-03-01T10-00-00Z__orchestrator.md"},
    aliases={"orchestrator": ["conductor", "boss"]},
    base="../../",
)


def test_tables_are_sorted_and_nodes_follow_the_entity_keys() -> None:
    model = view_model(graph(), SOURCES)
    assert model["graph"] == "2026-03-02T00:00:00Z" and model["base"] == "../../"
    assert model["types"] == ["component", "service", UNLISTED_TYPE]
    assert model["relTypes"] == ["delegates_to", "mentions", "serves"]
    assert model["hubs"] == ["wiki/sources/index.md", "wiki/synthesis/ops-hub.md"]
    assert model["pages"] == [RAW, "wiki/entities/2026-03-01T10-00-00Z__orchestrator.md", SOURCE, OTHER]
    # entity keys in order; the duplicate ORCHESTRATOR folds into the first seen; Ghost is unlisted
    assert [n[0] for n in model["nodes"]] == ["Ghost", "Old cache", "orchestrator", "Planner"]


def test_nodes_carry_type_degree_hubs_page_aliases_and_superseded() -> None:
    model = view_model(graph(), SOURCES)
    ghost, old, orchestrator, planner = model["nodes"]
    assert ghost == ["Ghost", 2, 1, [], -1, [], 0]
    # only superseded facts and only a superseded relation: greyed
    assert old == ["Old cache", 0, 0, [], -1, [], 1]
    assert orchestrator == ["orchestrator", 1, 2, [0, 1], 1, ["boss", "conductor"], 0]
    assert planner == ["Planner", 1, 1, [0, 1], -1, [], 0]


def test_observations_link_their_pages_raw_lines_and_say_what_superseded_them() -> None:
    model = view_model(graph(), SOURCES)
    raw, _entity_page, source, other = range(4)
    assert model["obs"][0] == []
    assert model["obs"][1] == [["Caches plans", [], "superseded 2026-03-01T12:00:00Z: removed"]]
    assert model["obs"][2] == [
        ["Coordinates the team", [[source, raw, 3, 4], [other, raw, 1, 1]], ""],
        ["status: active", [[source, raw, 5, 5]], ""],
        ["status: draft", [[source, raw, 2, 2]], "superseded 2026-03-01T12:00:00Z by status: active: newer status"],
    ]
    assert model["obs"][3] == [["Turns goals into plans", [[other, raw, 7, 9]], ""]]


def test_edges_index_nodes_and_an_active_relation_wins_over_its_superseded_copy() -> None:
    model = view_model(graph(), SOURCES)
    assert model["edges"] == [
        [1, 3, 2, 1],  # Old cache serves Planner: superseded
        [2, 3, 0, 0],  # orchestrator delegates_to Planner: active (also in supersededRelations)
        [2, 0, 1, 0],  # orchestrator mentions Ghost
    ]


def test_raw_files_the_manifest_does_not_know_are_not_linked() -> None:
    model = view_model(graph(), GraphSources())
    assert RAW not in model["pages"] and model["hubs"] == [] and model["base"] == ""
    source = model["pages"].index(SOURCE)
    assert model["obs"][3][0][1] == [[model["pages"].index(OTHER), -1, 7, 9]]
    assert model["obs"][2][1][1] == [[source, -1, 5, 5]]


def test_same_graph_in_any_order_gives_the_same_model() -> None:
    first = orjson.dumps(view_model(graph(), SOURCES))
    shuffled = graph()
    rng = random.Random(3)
    for key in ("relations", "supersededRelations"):
        rng.shuffle(shuffled[key])
    for entity in shuffled["entities"]:
        rng.shuffle(entity["observations"])
        rng.shuffle(entity.get("observationProvenance", []))
    assert orjson.dumps(view_model(shuffled, SOURCES)) == first


def test_an_empty_graph_is_an_empty_model() -> None:
    model = view_model({"graphGeneratedAtUtc": "2026-03-02T00:00:00Z", "entities": [], "relations": []},
                       GraphSources())
    assert model["nodes"] == model["edges"] == model["obs"] == model["types"] == []
