"""The graph's scan facts on plain dicts (tasks/checks/graph_facts.py) are those of the model path."""

from __future__ import annotations

import orjson
from hypothesis import given, settings
from hypothesis import strategies as st

from tasks.checks.scan import parse_jsonc_facts

GRAPH = "context/knowledge-graph.index.jsonc"
NAMES = st.sampled_from(["alpha", "Alpha", "- beta", "gamma ", "delta"])
TEXTS = st.sampled_from(["owner: team a", "owner: team b #x", "x", " spaced ", "b b", "old fact"])
PROVENANCE = st.fixed_dictionaries({
    "observation": TEXTS, "sourcePage": st.sampled_from(["wiki/sources/a.md", "wiki/sources/b.md"]),
    "rawAssetId": st.sampled_from(["r1", "r2"]), "lineStart": st.integers(1, 3),
    "lineEnd": st.integers(1, 3)})
SUPERSEDED = st.fixed_dictionaries(
    {"observation": TEXTS, "supersededAtUtc": st.just("2026-01-10T08:00:00Z"),
     "reason": st.just("replaced")},
    optional={"supersededBy": st.sampled_from(["new", "", None])})
ENTITY = st.fixed_dictionaries(
    {"entityName": NAMES, "entityType": st.sampled_from(["service", "person"])},
    optional={"observations": st.lists(TEXTS, max_size=4),
              "observationProvenance": st.lists(PROVENANCE, max_size=3),
              "supersededObservations": st.lists(SUPERSEDED, max_size=2)})
RELATION = st.fixed_dictionaries(
    {"sourceEntityName": NAMES, "targetEntityName": NAMES,
     "relationType": st.sampled_from(["uses", "depends_on", "weird_verb"])},
    optional={"relationProvenance": st.lists(st.just({"sourcePage": "p", "rawAssetId": "q"}),
                                             max_size=1)})


def facts_bytes(data: bytes) -> bytes:
    facts, transient = parse_jsonc_facts(GRAPH, data)
    return orjson.dumps([facts, transient], option=orjson.OPT_SORT_KEYS)


@settings(max_examples=120, deadline=None)
@given(st.lists(ENTITY, max_size=5), st.lists(RELATION, max_size=4))
def test_dict_path_facts_equal_the_model_path(entities, relations) -> None:
    graph = {"graphGeneratedAtUtc": "2026-01-10T08:00:00Z", "entities": entities,
             "relations": relations}
    fast = orjson.dumps(graph, option=orjson.OPT_INDENT_2)
    # A comment sends the same graph down the JSONC path, which validates pydantic models.
    slow = fast.replace(b'"entities"', b'// hand-written\n  "entities"', 1)
    assert facts_bytes(fast) == facts_bytes(slow)
    assert orjson.loads(facts_bytes(fast))[0]["problem"] is None


def test_null_relation_provenance_is_read_by_the_model_path() -> None:
    graph = {"graphGeneratedAtUtc": "2026-01-10T08:00:00Z",
             "entities": [{"entityName": "alpha", "entityType": "service"}],
             "relations": [{"sourceEntityName": "alpha", "targetEntityName": "alpha",
                            "relationType": "uses", "relationProvenance": None}]}
    facts, _ = parse_jsonc_facts(GRAPH, orjson.dumps(graph))
    assert facts["problem"] is None
    assert facts["entities_without_evidence"] == ["alpha"]


def test_broken_field_is_a_problem_naming_it() -> None:
    graph = {"graphGeneratedAtUtc": "2026-01-10T08:00:00Z",
             "entities": [{"entityName": "alpha", "entityType": ""}], "relations": []}
    facts, _ = parse_jsonc_facts(GRAPH, orjson.dumps(graph))
    assert facts["problem"] is not None and "entityType" in facts["problem"]["message"]
