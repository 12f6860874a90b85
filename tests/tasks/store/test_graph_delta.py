"""The record of graph writes by entity (tasks/store/graph_delta.py): what one write changed in
the relations, steps chained by file identity, composed from the version a check scanned."""

from __future__ import annotations

import random
from pathlib import Path

import orjson

from schemas.graph import SUPERSEDED_RELATIONS_KEY, entity_key
from tasks.store.filememo import file_identity
from tasks.store.graph_delta import (
    DELTA_FILE,
    MAX_STEPS,
    _relation_changes,
    active_rows,
    digested_rows,
    graph_delta,
    note_graph_write,
)
from tasks.store.written import record_written


def relation(source: str, kind: str, target: str) -> dict[str, str]:
    return {"sourceEntityName": source, "relationType": kind, "targetEntityName": target}


def test_relation_changes_are_the_row_sets_differences() -> None:
    """The head-and-tail shortcut gives what comparing every row gives, for random edits."""
    rng = random.Random(48)
    names = [f"E{n}" for n in range(12)]
    for _ in range(300):
        rows = sorted({(rng.choice(names), rng.choice(["uses", "owns"]), rng.choice(names))
                       for _ in range(rng.randint(0, 20))})
        old = {"relations": [relation(*row) for row in rows],
               SUPERSEDED_RELATIONS_KEY: [relation(*row) for row in rows[:2]]}
        new_rows = [row for row in rows if rng.random() > 0.2]
        new_rows += [(rng.choice(names), "uses", rng.choice(names)) for _ in range(rng.randint(0, 2))]
        retired = [relation(*row) for row in rows if row not in new_rows and rng.random() > 0.5]
        new = {"relations": [relation(*row) for row in sorted(set(new_rows))],
               SUPERSEDED_RELATIONS_KEY: old[SUPERSEDED_RELATIONS_KEY] + retired}
        ends, gone = _relation_changes(old, new)
        assert ends == {entity_key(end) for s, _, t in active_rows(old) ^ active_rows(new)
                        for end in (s, t)}
        assert gone == digested_rows(old) - digested_rows(new)


def graph_root(tmp_path: Path) -> Path:
    (tmp_path / ".membank").mkdir()
    (tmp_path / "context").mkdir()
    return tmp_path / "context" / "knowledge-graph.index.jsonc"


def write(graph: Path, text: str) -> list[int]:
    before = file_identity(graph)
    graph.unlink(missing_ok=True)  # a new inode, as an atomic write gives
    graph.write_text(text)
    record_written(graph)
    return before or [0, 0, 0, 0]


def test_steps_chain_and_compose_from_the_scanned_version(tmp_path: Path) -> None:
    graph = graph_root(tmp_path)
    graph.write_text("v0")
    record_written(graph)
    v0 = file_identity(graph)
    frame = {"relations": []}
    note_graph_write(graph, write(graph, "v1"), {"a": b"a0", "b": None}, None, frame)
    v1 = file_identity(graph)
    note_graph_write(graph, write(graph, "v2!"), {"a": b"a1", "c": b"c1"}, None, frame)
    since_v0 = graph_delta(graph, v0)
    assert since_v0 is not None and since_v0.old == {"a": b"a0", "b": None, "c": b"c1"}
    since_v1 = graph_delta(graph, v1)
    assert since_v1 is not None and since_v1.old == {"a": b"a1", "c": b"c1"}
    graph.write_text("by hand")  # not as membank wrote it: no delta from any version
    assert graph_delta(graph, v0) is None


def test_a_write_that_does_not_follow_starts_a_new_record(tmp_path: Path) -> None:
    graph = graph_root(tmp_path)
    graph.write_text("v0")
    record_written(graph)
    v0 = file_identity(graph)
    note_graph_write(graph, write(graph, "v1"), {"a": b"a0"}, None, {"relations": []})
    write(graph, "whole write, not recorded")
    v2 = file_identity(graph)
    note_graph_write(graph, write(graph, "v3"), {"b": b"b2"}, None, {"relations": []})
    assert graph_delta(graph, v0) is None
    composed = graph_delta(graph, v2)
    assert composed is not None and composed.old == {"b": b"b2"}
    steps = orjson.loads((tmp_path / DELTA_FILE).read_bytes())["steps"]
    assert len(steps) == 1


def test_the_record_keeps_the_latest_steps(tmp_path: Path) -> None:
    graph = graph_root(tmp_path)
    graph.write_text("v0")
    record_written(graph)
    for n in range(MAX_STEPS + 3):
        note_graph_write(graph, write(graph, f"v{n + 1}"), {"a": b"x"}, None, {"relations": []})
    steps = orjson.loads((tmp_path / DELTA_FILE).read_bytes())["steps"]
    assert len(steps) == MAX_STEPS
    assert all(a["to"] == b["from"] for a, b in zip(steps, steps[1:], strict=False))
