import pytest

from schemas.graph import (
    EntityRegistry,
    GraphRelation,
    KnowledgeGraph,
    observation_key,
    relation_key,
)
from tasks.store.contracts import validate_model
from tasks.store.errors import ContractError

SPEC_GRAPH = {
    "graphGeneratedAtUtc": "2026-03-24T22:40:05Z",
    "entities": [
        {
            "entityName": "orchestrator",
            "entityType": "service",
            "observations": ["Coordinates thinker, planner, executor, historian"],
        }
    ],
    "relations": [
        {"sourceEntityName": "orchestrator", "targetEntityName": "planner", "relationType": "delegates_to"}
    ],
}


def test_spec_example_graph_validates() -> None:
    graph = KnowledgeGraph.model_validate(SPEC_GRAPH)
    assert graph.entities[0].observations == ["Coordinates thinker, planner, executor, historian"]


def test_spec_example_registry_validates() -> None:
    registry = EntityRegistry.model_validate(
        {
            "registryGeneratedAtUtc": "2026-03-24T22:40:05Z",
            "entries": [
                {"canonicalName": "orchestrator", "aliases": ["nexus-orchestrator"], "entityType": "service"}
            ],
        }
    )
    assert registry.entries[0].aliases == ["nexus-orchestrator"]


@pytest.mark.parametrize("key", ["graphGeneratedAtUtc", "entities", "relations"])
def test_required_top_level_keys(key: str) -> None:
    data = {k: v for k, v in SPEC_GRAPH.items() if k != key}
    with pytest.raises(ContractError) as info:
        validate_model(KnowledgeGraph, data, file="context/knowledge-graph.index.jsonc")
    assert key in str(info.value) and "knowledge-graph.index.jsonc" in str(info.value)


@pytest.mark.parametrize("name", ["", "data", "Info", " temp ", "item", "unknown"])
def test_non_meaningful_entity_names_are_rejected(name: str) -> None:
    data = {**SPEC_GRAPH, "entities": [{"entityName": name, "entityType": "service"}]}
    with pytest.raises(ContractError, match="entities.0.entityName"):
        validate_model(KnowledgeGraph, data, file="g.jsonc")


def test_relation_type_must_be_snake_case_verb() -> None:
    with pytest.raises(ContractError, match="relationType"):
        validate_model(
            GraphRelation,
            {"sourceEntityName": "a-svc", "targetEntityName": "b-svc", "relationType": "Depends On"},
            file="g.jsonc",
        )


def test_dedup_keys_follow_the_spec() -> None:
    relation = GraphRelation(sourceEntityName=" Orchestrator ", targetEntityName="Planner",
                             relationType="delegates_to")
    assert relation_key(relation) == "orchestrator|delegates_to|planner"
    assert observation_key(" orchestrator ", " Uses WAL ") == "orchestrator|Uses WAL"


def test_relation_provenance_is_declared_and_absent_when_unset() -> None:
    """The extension is a field: validated, typed, and not written as null on a spec-only
    relation (its file keeps the spec's three keys)."""
    from tasks.store.graph_store import graph_text

    spec_only = KnowledgeGraph.model_validate(SPEC_GRAPH)
    assert spec_only.relations[0].relationProvenance is None
    assert "relationProvenance" not in graph_text(spec_only)
    stated = {**SPEC_GRAPH["relations"][0],
              "relationProvenance": [{"sourcePage": "wiki/sources/a.md", "rawAssetId": "abc"}]}
    relation = GraphRelation.model_validate(stated)
    assert relation.relationProvenance is not None
    assert relation.relationProvenance[0].rawAssetId == "abc" and not relation.model_extra
    assert relation.model_dump(mode="json") == stated
    with pytest.raises(ContractError, match="relationProvenance.0.rawAssetId"):
        validate_model(GraphRelation, {**stated, "relationProvenance": [{"sourcePage": "p"}]},
                       file="g.jsonc")


def test_relation_data_key_is_the_name_key_of_each_part() -> None:
    """relation_data_key (written out for speed) == name_key of source, type, target joined by
    '|', as relation_key gives for the model; entity_key is name_key."""
    import random

    from schemas.common import name_key
    from schemas.graph import GraphRelation, entity_key, relation_data_key, relation_key

    rng = random.Random(3)

    def word() -> str:
        return "".join(rng.choice(" \tAbÇdé-_x\u00a0\u2003|") for _ in range(rng.randint(0, 12)))

    for _ in range(5000):
        relation = {"sourceEntityName": word(), "relationType": word(), "targetEntityName": word()}
        assert relation_data_key(relation) == "|".join(
            name_key(relation[part]) for part in ("sourceEntityName", "relationType", "targetEntityName"))
        assert entity_key(relation["sourceEntityName"]) == name_key(relation["sourceEntityName"])
    model = GraphRelation(sourceEntityName=" Orchestrator ", targetEntityName="Queue", relationType="uses")
    assert relation_key(model) == relation_data_key(model.model_dump()) == "orchestrator|uses|queue"
