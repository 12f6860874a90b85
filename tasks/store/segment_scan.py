"""A graph file's entity spans found by reading it once, for a graph membank wrote whose spans
were not recorded (tasks/store/graph_segments.py records them only when distill writes the file).

The graph a reconcile repaired or stale-marked (written whole by graph_store.save_graph), one
written by another tool through membank's writer (bench_reconcile's generator) or one whose
record was lost has no spans, and its next distill read and wrote the whole file: at 100,000
pages 1.3 GB of dicts parsed, normalized and encoded again, 15 s and a 2.3 GB peak for a
one-note ingest (benchmarks/bench_growth_results.md, ingest50). Streamed here one entity at a
time instead (memory bounded by an entity), the spans it yields let that distill copy the
unchanged entities' bytes as every later one does.

Copying bytes is only what the whole write would give when every entity is as that write
renders it: the entities in key order, no key twice, and each entity's bytes those of its
normalized form (graph_store.normalize_graph_data, entity by entity). Any entity that is not
gives None, and the caller reads the file whole as before. Only a file recorded as membank
wrote it is read (orjson alone, no validation: tasks/store/written.py).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from schemas.graph import entity_key
from tasks.store.graph_segments import GraphSegments, Spans, entity_bytes
from tasks.store.graph_store import normalize_graph_data
from tasks.store.graph_stream import GraphStream
from tasks.store.written import as_written


def _normalized(entity: dict[str, Any]) -> dict[str, Any]:
    return dict(normalize_graph_data({"graphGeneratedAtUtc": "", "entities": [entity],
                                      "relations": []})["entities"][0])


def scan_segments(graph_file: Path) -> GraphSegments | None:
    """The spans of `graph_file` read from the file itself, when membank wrote it and every
    entity is as a whole write renders it; else None (see the module doc)."""
    if not graph_file.is_file() or not as_written(graph_file):
        return None
    stream = GraphStream(graph_file, hashed=False)
    spans = Spans()
    try:
        for entity in stream.entities():
            key = entity_key(entity["entityName"])
            if (spans.keys and key <= spans.keys[-1]) or entity_bytes(_normalized(entity)) != stream.raw:
                return None
            start, end = stream.span
            spans.add(key, start, end - start, entity)
    except (ValueError, KeyError, TypeError, AttributeError, OSError):
        return None  # (another layout, or not the data membank writes: read whole)
    if not spans.keys:
        return None
    return GraphSegments(graph_file, spans.starts[0], spans.ends[-1], spans)
