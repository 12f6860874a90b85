"""The plain-dict graph path (load_graph_data, normalize_graph_data, save_graph_data) that
distill uses must be indistinguishable from the model path it replaces: same accepted files,
same errors, and byte-identical output to graph_text(normalize_graph(graph))."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson
import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from schemas.graph import KNOWLEDGE_GRAPH_DATA, RELATION_ORIGINS_KEY, KnowledgeGraph, relation_data_key
from tasks.store.errors import ContractError
from tasks.store.graph_store import (
    graph_data,
    graph_text,
    load_graph,
    load_graph_data,
    normalize_graph,
    normalize_graph_data,
    save_graph,
    save_graph_data,
)
from tasks.store.jsonc import dumps_json

T0, T1 = "2026-03-24T22:40:05Z", "2026-03-25T08:00:00Z"

# Few distinct values, so duplicates (by the spec's trimmed/lowercased keys) are frequent.
NAMES = st.sampled_from(["alpha", "Alpha", " alpha ", "beta", "Beta", "gamma "])
TEXTS = st.sampled_from(["a", " a", "a ", "b", "status: x", "status: y", "Decision: z"])
PAGES = st.sampled_from(["wiki/sources/p.md", "wiki/sources/q.md"])
LINES = st.integers(min_value=1, max_value=4)
EXTRA = st.dictionaries(st.sampled_from(["note", "zeta", "alpha"]), st.integers(0, 3), max_size=2)


@st.composite
def provenance(draw: st.DrawFn) -> dict[str, Any]:
    start = draw(LINES)
    return {
        "observation": draw(TEXTS),
        "sourcePage": draw(PAGES),
        "rawAssetId": draw(st.sampled_from(["h1", "h2"])),
        "lineStart": start,
        "lineEnd": start + draw(st.integers(0, 1)),
        **draw(EXTRA),
    }


@st.composite
def superseded(draw: st.DrawFn) -> dict[str, Any]:
    item = {
        "observation": draw(TEXTS),
        "supersededAtUtc": draw(st.sampled_from([T0, T1])),
        "reason": draw(st.sampled_from(["old", "replaced"])),
        **draw(EXTRA),
    }
    by = draw(st.sampled_from(["absent", None, "", "beta", "wiki/sources/q.md"]))
    if by != "absent":
        item["supersededBy"] = by
    return item


@st.composite
def entity(draw: st.DrawFn) -> dict[str, Any]:
    item: dict[str, Any] = {
        "entityName": draw(NAMES),
        "entityType": draw(st.sampled_from(["service", "decision"])),
    }
    for key, strategy in (
        ("observations", st.lists(TEXTS, max_size=4)),
        ("observationProvenance", st.lists(provenance(), max_size=3)),
        ("supersededObservations", st.lists(superseded(), max_size=3)),
    ):
        value = draw(st.one_of(st.none(), strategy))
        if value is not None:
            item[key] = value
    extras = draw(EXTRA)
    # Extras may come before the model's fields in a hand-edited file.
    return {**extras, **item} if draw(st.booleans()) else {**item, **extras}


@st.composite
def relation(draw: st.DrawFn) -> dict[str, Any]:
    item = {
        "sourceEntityName": draw(NAMES),
        "targetEntityName": draw(NAMES),
        "relationType": draw(st.sampled_from(["uses", "depends_on", "mentions"])),
    }
    extras = draw(EXTRA)
    if draw(st.booleans()):  # the declared extension, which a model dump writes only when set
        origins = [{"sourcePage": f"wiki/sources/s{i}.md", "rawAssetId": f"a{i}"}
                   for i in draw(st.lists(st.integers(0, 3), max_size=2))]
        extras = {RELATION_ORIGINS_KEY: origins, **extras} if draw(st.booleans()) else {
            **extras, RELATION_ORIGINS_KEY: origins}
    return {**extras, **item} if draw(st.booleans()) else {**item, **extras}


GRAPHS = st.fixed_dictionaries(
    {
        "graphGeneratedAtUtc": st.sampled_from([T0, T1]),
        "entities": st.lists(entity(), max_size=6),
        "relations": st.lists(relation(), max_size=5),
    },
    optional={"generator": st.just("hand")},
)


@settings(max_examples=400, deadline=None)
@given(GRAPHS)
def test_dict_normalization_writes_the_bytes_of_the_model_path(data: dict[str, Any]) -> None:
    reference = graph_text(normalize_graph(KnowledgeGraph.model_validate(data)))
    # Straight from the file's dicts (what load_graph_data returns) ...
    raw = orjson.loads(orjson.dumps(data))
    fast = normalize_graph_data(KNOWLEDGE_GRAPH_DATA.validate_python(raw))
    assert dumps_json(fast) == reference
    assert raw == orjson.loads(orjson.dumps(data))  # the input is not mutated
    # ... and from a model dump (the JSONC fallback).
    assert dumps_json(normalize_graph_data(graph_data(KnowledgeGraph.model_validate(data)))) == (
        reference
    )
    # Normalizing a normalized graph again (the next distill run) also matches the reference.
    # (Not always a no-op: normalize_graph orders supersededBy None and "" of one observation by
    # reversed first-seen order, so a second pass flips them; the dict path does the same.)
    twice = graph_text(normalize_graph(normalize_graph(KnowledgeGraph.model_validate(data))))
    assert dumps_json(normalize_graph_data(fast)) == twice
    # Relations keyed already, first seen kept (distill's GraphMerge hands them so): the same.
    read = dict(KNOWLEDGE_GRAPH_DATA.validate_python(raw))
    keyed: dict[str, dict[str, Any]] = {}
    for relation in read["relations"]:
        keyed.setdefault(relation_data_key(relation), relation)
    assert dumps_json(normalize_graph_data({**read, "relations": []}, keyed)) == reference


BROKEN_VALUES = st.sampled_from(
    [
        ("entityName", "data"),
        ("entityName", " Unknown "),
        ("entityName", 3),
        ("entityType", ""),
        ("relationType", "Depends On"),
        ("relationType", "uses\n"),
        ("sourceEntityName", "tmp"),
        ("lineStart", 0),
        ("lineEnd", "x"),
        ("supersededAtUtc", "2026-03-24 22:40"),
        ("graphGeneratedAtUtc", "yesterday"),
        ("observations", "not a list"),
        ("observation", None),
    ]
)


def _break(data: Any, field: str, value: Any, nth: int) -> None:
    """Set one occurrence of `field` (the nth, cyclically) to `value`."""
    places: list[dict[str, Any]] = []
    stack = [data]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            if field in item:
                places.append(item)
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    if places:
        places[nth % len(places)][field] = value


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(GRAPHS, BROKEN_VALUES, st.integers(0, 3))
def test_dict_schema_accepts_and_rejects_what_the_models_do(
    data: dict[str, Any], broken: tuple[str, Any], nth: int
) -> None:
    data = orjson.loads(orjson.dumps(data))
    _break(data, *broken, nth)
    text = orjson.dumps(data)

    def outcome(validate: Any) -> bool:
        try:
            validate(text)
        except ValidationError:
            return False
        return True

    accepted = outcome(KnowledgeGraph.model_validate_json)
    event(f"model accepts: {accepted}")
    assert outcome(KNOWLEDGE_GRAPH_DATA.validate_json) == accepted


def test_load_graph_data_reads_jsonc_and_names_file_and_field(tmp_path: Path) -> None:
    path = tmp_path / "knowledge-graph.index.jsonc"
    path.write_text(
        '{\n  // hand edited\n  "graphGeneratedAtUtc": "2026-03-24T22:40:05Z",\n'
        '  "entities": [{"entityName": "SQLite", "entityType": "database",},],\n'
        '  "relations": [],\n}\n'
    )
    assert load_graph_data(path)["entities"] == graph_data(load_graph(path))["entities"]
    path.write_text(
        '{"graphGeneratedAtUtc": "2026-03-24T22:40:05Z", "entities": '
        '[{"entityName": "data", "entityType": "x"}], "relations": []}'
    )
    with pytest.raises(ContractError) as error:
        load_graph_data(path)
    assert "knowledge-graph.index.jsonc" in error.value.one_line()
    assert "entityName" in error.value.one_line()
    with pytest.raises(ContractError):
        load_graph_data(tmp_path / "missing.jsonc")


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(GRAPHS)
def test_save_graph_data_matches_save_graph_and_keeps_the_stamp(
    tmp_path: Path, data: dict[str, Any]
) -> None:
    model_file, dict_file = tmp_path / "model.jsonc", tmp_path / "dicts.jsonc"
    for path in (model_file, dict_file):
        path.unlink(missing_ok=True)
    graph = normalize_graph(KnowledgeGraph.model_validate(data))
    fast = normalize_graph_data(KNOWLEDGE_GRAPH_DATA.validate_python(orjson.loads(orjson.dumps(data))))
    assert save_graph(model_file, graph, now_iso=T1) == save_graph_data(dict_file, fast, now_iso=T1)
    assert dict_file.read_bytes() == model_file.read_bytes()
    # Same content later: no write, the stamp stays.
    assert not save_graph_data(dict_file, load_graph_data(dict_file), now_iso="2026-04-01T00:00:00Z")
    assert dict_file.read_bytes() == model_file.read_bytes()
