"""The search index's relations table brought up to a graph write by the parts of the relation
lists the write changed (tasks/search/index.py, _sync_relation_parts; the parts recorded by
tasks/store/graph_segments.py, relation_middles): the same rows, rowids included, as the whole
comparison (_replace_rows) gives."""

from __future__ import annotations

import random
import sqlite3
from typing import Any

from schemas.graph import SUPERSEDED_RELATIONS_KEY
from tasks.search.index import _relation_rows, _sync_relation_parts, _sync_relations
from tasks.store.graph_segments import MAX_RECORDED_RELATIONS, relation_middles

TABLE = """
CREATE TABLE relations(
    source TEXT NOT NULL, type TEXT NOT NULL, target TEXT NOT NULL, superseded INTEGER NOT NULL,
    reason TEXT);
CREATE INDEX relations_source ON relations(source);
CREATE INDEX relations_target ON relations(target);
"""
NAMES = ["Redis", "redis", "Kafka", "Postgres", "Billing API", "billing api", "Auth Service",
         "Search Team", "ADR 12: Adopt Kafka", "Zorbdb"]
TYPES = ["depends_on", "uses", "owned_by", "supersedes"]


def _relation(rng: random.Random, superseded: bool) -> dict[str, Any]:
    relation: dict[str, Any] = {"sourceEntityName": rng.choice(NAMES),
                                "targetEntityName": rng.choice(NAMES),
                                "relationType": rng.choice(TYPES)}
    if superseded:
        relation["reason"] = rng.choice(["replaced by a newer source", None, "conflict"])
    return relation


def _frame(rng: random.Random, active: int, retired: int) -> dict[str, Any]:
    key = lambda r: (r["sourceEntityName"], r["relationType"], r["targetEntityName"])  # noqa: E731
    return {"relations": sorted((_relation(rng, False) for _ in range(active)), key=key),
            SUPERSEDED_RELATIONS_KEY: [_relation(rng, True) for _ in range(retired)]}


def _changed(rng: random.Random, frame: dict[str, Any]) -> dict[str, Any]:
    """A few relations added, removed or replaced at one place of each list (as a write does)."""
    new = {}
    for name, relations in frame.items():
        at = rng.randint(0, len(relations))
        removed = rng.randint(0, min(2, len(relations) - at))
        added = [_relation(rng, name != "relations") for _ in range(rng.randint(0, 3))]
        new[name] = relations[:at] + added + relations[at + removed:]
    return new


def _table(frame: dict[str, Any]) -> sqlite3.Connection:
    conn = sqlite3.connect(":memory:")
    conn.executescript(TABLE)
    _sync_relations(conn, frame)
    return conn


def _rows(conn: sqlite3.Connection) -> list[tuple[Any, ...]]:
    return conn.execute("SELECT rowid, * FROM relations ORDER BY rowid").fetchall()


def test_the_parts_give_the_rows_and_rowids_of_the_whole_comparison() -> None:
    rng = random.Random(67)
    by_parts = 0
    for _ in range(300):
        old = _frame(rng, rng.randint(0, 30), rng.randint(0, 6))
        new = _changed(rng, old)
        whole, parts = _table(old), _table(old)
        _sync_relations(whole, new)
        middles = relation_middles(old, new)
        assert middles is not None
        if _sync_relation_parts(parts, middles):
            by_parts += 1
            assert _rows(parts) == _rows(whole)
        else:  # (copies of a wanted row outside the parts: nothing was changed)
            assert _rows(parts) == _rows(_table(old))
        assert sorted(map(repr, (r[1:] for r in _rows(whole)))) == sorted(map(repr, _relation_rows(new)))
    assert by_parts > 200  # (most writes are taken by their parts)


def test_a_row_wanted_again_with_a_copy_outside_the_parts_is_left_to_the_whole_comparison() -> None:
    # "redis" and "Redis" are one row of the table: the new part adds a second copy of a row
    # the common tail holds already, which the whole comparison inserts at the tail's place
    a = {"sourceEntityName": "Billing API", "relationType": "uses", "targetEntityName": "Kafka"}
    b = {"sourceEntityName": "Redis", "relationType": "uses", "targetEntityName": "Kafka"}
    c = {"sourceEntityName": "redis", "relationType": "uses", "targetEntityName": "Kafka"}
    old = {"relations": [a, c], SUPERSEDED_RELATIONS_KEY: []}
    new = {"relations": [a, b, c], SUPERSEDED_RELATIONS_KEY: []}
    middles = relation_middles(old, new)
    assert middles == {"relations": [[], [b]], SUPERSEDED_RELATIONS_KEY: [[], []]}
    conn = _table(old)
    assert not _sync_relation_parts(conn, middles)
    assert _rows(conn) == _rows(_table(old))


def test_a_table_that_is_not_the_old_graphs_is_left_to_the_whole_comparison() -> None:
    a = {"sourceEntityName": "Billing API", "relationType": "uses", "targetEntityName": "Kafka"}
    b = {"sourceEntityName": "Redis", "relationType": "uses", "targetEntityName": "Kafka"}
    old = {"relations": [a, b], SUPERSEDED_RELATIONS_KEY: []}
    new = {"relations": [a], SUPERSEDED_RELATIONS_KEY: []}
    conn = _table({"relations": [a], SUPERSEDED_RELATIONS_KEY: []})  # (b is not there)
    middles = relation_middles(old, new)
    assert middles is not None
    assert not _sync_relation_parts(conn, middles)


def test_many_changed_relations_are_not_recorded() -> None:
    rng = random.Random(5)
    old = _frame(rng, 10, 0)
    new = {"relations": [_relation(rng, False) for _ in range(MAX_RECORDED_RELATIONS + 1)],
           SUPERSEDED_RELATIONS_KEY: []}
    assert relation_middles(old, new) is None
    assert relation_middles(old, {"relations": "not a list"}) is None
