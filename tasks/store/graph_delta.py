"""What graph writes by entity changed since a given version of the graph file, for reconcile.

A distill that writes the graph by entity (graph_segments.save_graph_changes) knows which
entities it replaced and what they were: it records them in `.membank/graph-delta.json`, with
the graph file's identity before the first such write (`from`) and after the last (`to`).
Writes in a row extend one record (the earliest bytes of each entity are kept), so a check
made after several ingests finds every entity that differs from the graph it last scanned
(`from`, the identity its cache holds), the bytes each had there, the entities whose relation
rows changed, and the relations that left both relation lists. The check then reads those
entities alone (tasks/checks/graph_delta.py) instead of 423 MB at 100,000 pages.

Bookkeeping, never the source of truth: used only while the graph file has identity `to` and
is recorded as membank wrote it; any other write (reconcile's repairs, a whole write, a hand
edit, a restore) gives the file another identity, and the next check reads it whole.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson

from schemas.graph import SUPERSEDED_RELATIONS_KEY, entity_key
from tasks.store.atomic import atomic_write_bytes
from tasks.store.filememo import file_identity
from tasks.store.layout import STATE_DIR
from tasks.store.written import as_written

DELTA_FILE = f"{STATE_DIR}/graph-delta.json"
VERSION = 1
# The record keeps the latest writes up to these bounds (a check made before them reads the
# graph whole): the earlier bytes would grow with every ingest between two checks.
MAX_STEPS = 256
MAX_ENTITIES = 5_000

RelationRow = tuple[str, str, str]


def _record_path(graph_file: Path) -> Path:
    return graph_file.parent.parent / DELTA_FILE


def active_rows(frame: Mapping[str, Any]) -> set[RelationRow]:
    """The `relations` list's rows as the graph's facts read them (entity_rows, dangling)."""
    return {(r["sourceEntityName"], r["relationType"], r["targetEntityName"])
            for r in frame.get("relations") or ()}


def digested_rows(frame: Mapping[str, Any]) -> set[RelationRow]:
    """Every relation row, active or superseded, as the observation digests take them
    (graph_facts._relation_digests)."""
    rows = active_rows(frame)
    for old in frame.get(SUPERSEDED_RELATIONS_KEY) or ():
        if isinstance(old, dict):
            rows.add((str(old.get("sourceEntityName", "")), str(old.get("relationType", "")),
                      str(old.get("targetEntityName", ""))))
    return rows


def _middles(old: list[Any], new: list[Any]) -> tuple[list[Any], list[Any]]:
    """The parts of two lists between their longest common head and tail: a write changes a
    few rows of 50,000 relations, and only those are compared as rows."""
    shortest, head = min(len(old), len(new)), 0
    while head < shortest and old[head] == new[head]:
        head += 1
    tail = 0
    while tail < shortest - head and old[-1 - tail] == new[-1 - tail]:
        tail += 1
    return old[head:len(old) - tail], new[head:len(new) - tail]


def _relation_changes(old_frame: Mapping[str, Any], new_frame: Mapping[str, Any]
                      ) -> tuple[set[str], set[RelationRow]]:
    """Keys of the entities whose relation rows changed, and the rows (active or superseded)
    in neither of the new frame's lists."""
    old_active, new_active = _middles(list(old_frame.get("relations") or ()),
                                      list(new_frame.get("relations") or ()))
    old_retired, new_retired = _middles(list(old_frame.get(SUPERSEDED_RELATIONS_KEY) or ()),
                                        list(new_frame.get(SUPERSEDED_RELATIONS_KEY) or ()))
    ends: set[str] = set()
    for source, _kind, target in (active_rows({"relations": old_active})
                                  ^ active_rows({"relations": new_active})):
        ends.update((entity_key(source), entity_key(target)))
    left = (digested_rows({"relations": old_active, SUPERSEDED_RELATIONS_KEY: old_retired})
            - digested_rows({"relations": new_active, SUPERSEDED_RELATIONS_KEY: new_retired}))
    # a row left in the middles may still be in the lists' common parts (rare): look there
    return ends, left - digested_rows(new_frame) if left else left


def note_graph_write(graph_file: Path, before: list[int] | None, old_entities: Mapping[str, bytes | None],
                     old_frame: Mapping[str, Any] | None, new_frame: Mapping[str, Any]) -> None:
    """Record one write by entity: `before` the file's identity before it, `old_entities` the
    replaced entities' bytes (None: added), `old_frame` the document's frame before it (None:
    relations and extra keys unchanged), `new_frame` after it. A write that follows the last
    recorded one is added to its steps (a check may have scanned the graph at any of them)."""
    record = _record_path(graph_file)
    if not record.parent.is_dir():
        return
    after = file_identity(graph_file)
    ends: set[str] = set()
    gone: set[RelationRow] = set()
    if old_frame is not None:
        ends, gone = _relation_changes(old_frame, new_frame)
    step = {"from": before, "to": after,
            "old": {key: None if data is None else data.decode("utf-8")
                    for key, data in sorted(old_entities.items())},
            "ends": sorted(ends), "gone": sorted(gone)}
    steps = _load(record) or []
    steps = [*steps, step] if steps and steps[-1]["to"] == before else [step]
    while steps and (len(steps) > MAX_STEPS or sum(len(s["old"]) for s in steps) > MAX_ENTITIES):
        steps.pop(0)  # the oldest first: a check that scanned before them reads the file whole
    if before is None or after is None or not steps:
        with contextlib.suppress(FileNotFoundError):
            record.unlink()
        return
    atomic_write_bytes(record, orjson.dumps({"version": VERSION, "steps": steps}), validate=False)


def _load(record: Path) -> list[dict[str, Any]] | None:
    """The recorded steps, oldest first; None when missing or of another shape."""
    try:
        data = orjson.loads(record.read_bytes())
        if not isinstance(data, dict) or data.get("version") != VERSION:
            return None
        steps = data["steps"]
        if not isinstance(steps, list) or not all(_well_formed(step) for step in steps):
            return None
        return steps
    except (OSError, orjson.JSONDecodeError, KeyError, TypeError):
        return None


def _well_formed(step: Any) -> bool:
    return (isinstance(step, dict) and isinstance(step.get("from"), list)
            and isinstance(step.get("to"), list) and isinstance(step.get("old"), dict)
            and isinstance(step.get("ends"), list) and isinstance(step.get("gone"), list)
            and all(value is None or isinstance(value, str) for value in step["old"].values())
            and all(isinstance(key, str) for key in step["ends"])
            and all(isinstance(row, list) and len(row) == 3 and all(isinstance(p, str) for p in row)
                    for row in step["gone"]))


@dataclass(frozen=True)
class GraphDelta:
    """The entities that differ between graph version `since` and the file as it is now."""

    old: dict[str, bytes | None]  # entity key -> its bytes in version `since` (None: added)
    ends: set[str]  # keys of entities whose relation rows changed
    gone: list[RelationRow]  # relation rows (active or superseded) no longer in either list


def graph_delta(graph_file: Path, since: Iterable[int]) -> GraphDelta | None:
    """What changed since the graph file had identity `since`, when every write from that
    version to the file as it is now was recorded (note_graph_write) and the file is as
    membank wrote it; else None."""
    steps = _load(_record_path(graph_file))
    since = list(since)
    first = next((n for n, step in enumerate(steps or ()) if step["from"] == since), None)
    if steps is None or first is None or steps[-1]["to"] != file_identity(graph_file) \
            or not as_written(graph_file):
        return None
    old: dict[str, bytes | None] = {}
    ends: set[str] = set()
    gone: set[RelationRow] = set()
    for step, following in zip(steps[first:], steps[first + 1:] + [None], strict=True):
        if following is not None and following["from"] != step["to"]:
            return None
        for key, value in step["old"].items():  # an entity's earliest bytes since `since`
            old.setdefault(key, None if value is None else value.encode("utf-8"))
        ends.update(step["ends"])
        gone.update((row[0], row[1], row[2]) for row in step["gone"])
    return GraphDelta(old=old, ends=ends, gone=sorted(gone))
