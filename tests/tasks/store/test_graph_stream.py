"""tasks.store.graph_stream: a graph file membank wrote, read entity by entity, is the file."""

from __future__ import annotations

import hashlib
import tempfile
from pathlib import Path

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tasks.store import graph_stream
from tasks.store.graph_stream import GraphStream

TEXT = st.text(alphabet=st.sampled_from(["a", " ", "\n", "}", "{", "]", ",", '"', "\\", "é"]),
               max_size=12)
ENTITY = st.fixed_dictionaries(
    {"entityName": TEXT, "entityType": st.just("service"),
     "observations": st.lists(TEXT, max_size=3)},
    optional={"nested": st.lists(st.dictionaries(TEXT, st.lists(TEXT, max_size=2), max_size=2),
                                 max_size=2)})


def _dumps(value: object) -> bytes:  # tasks.store.graph_store._dumps
    return orjson.dumps(value, option=orjson.OPT_INDENT_2 | orjson.OPT_APPEND_NEWLINE)


@settings(max_examples=150, deadline=None)
@given(st.lists(ENTITY, max_size=6), st.lists(ENTITY, max_size=3), st.integers(8, 64))
def test_entities_frame_and_hash_are_the_files(entities: list[dict[str, object]],
                                               relations: list[dict[str, object]],
                                               chunk: int) -> None:
    graph = {"graphGeneratedAtUtc": "2026-01-10T08:00:00Z", "entities": entities,
             "relations": relations, "extra": {"k": ["v"]}}
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "graph.jsonc"
        path.write_bytes(_dumps(graph))
        _check(path, graph, chunk)


def _check(path: Path, graph: dict[str, object], chunk: int) -> None:
    entities = graph["entities"]
    # entities across chunk edges: small chunks after a head read whole
    original = graph_stream.CHUNK, graph_stream._HEAD_MAX
    graph_stream.CHUNK, graph_stream._HEAD_MAX = chunk, 80
    try:
        stream = GraphStream(path)
        assert list(stream.entities()) == entities
        spans = GraphStream(path, hashed=False)
        found = list(spans.entity_spans())
    finally:
        graph_stream.CHUNK, graph_stream._HEAD_MAX = original
    # (dall50) each entity's offset and bytes are where the file holds them
    data = path.read_bytes()
    assert [orjson.loads(entity) for _, entity in found] == entities
    assert all(data[start : start + len(entity)] == entity for start, entity in found)
    if found:
        assert spans.head_end == found[0][0] and spans.tail_start == found[-1][0] + len(found[-1][1])
        assert data[spans.tail_start :].startswith(b"\n  ]")
    assert stream.frame == {**graph, "entities": []}
    assert list(stream.frame) == list(graph)
    assert stream.sha256 == hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.mark.parametrize("data", [
    b'{"graphGeneratedAtUtc": "x", "entities": [], "relations": []}',  # not indented
    b'{\n  "entities": [],\n  "graphGeneratedAtUtc": "x"\n}\n',  # another key order
    b'{\n  "graphGeneratedAtUtc": "x",\n  "entities": [\n    {\n      "a": 1\n',  # cut short
    b'{\n  "graphGeneratedAtUtc": "x",\n  "entities": [\n    1\n  ]\n}\n',  # not an object
])
def test_another_layout_raises(tmp_path: Path, data: bytes) -> None:
    path = tmp_path / "graph.jsonc"
    path.write_bytes(data)
    with pytest.raises(ValueError):
        list(GraphStream(path).entities())


def test_a_stream_read_without_its_hash_gives_the_same_entities_and_frame(tmp_path: Path) -> None:
    """hashed=False (the search index's build, which never reads the hash) changes nothing but
    the hash, which it leaves empty rather than one of no bytes."""
    graph = {"graphGeneratedAtUtc": "2026-01-10T08:00:00Z",
             "entities": [{"entityName": "a", "entityType": "service", "observations": ["x"]},
                          {"entityName": "b", "entityType": "service", "observations": []}],
             "relations": [{"from": "a", "to": "b"}]}
    path = tmp_path / "graph.jsonc"
    path.write_bytes(_dumps(graph))
    hashed, unhashed = GraphStream(path), GraphStream(path, hashed=False)
    assert list(unhashed.entities()) == list(hashed.entities()) == graph["entities"]
    assert unhashed.frame == hashed.frame == {**graph, "entities": []}
    assert hashed.sha256 == hashlib.sha256(path.read_bytes()).hexdigest()
    assert unhashed.sha256 == ""
