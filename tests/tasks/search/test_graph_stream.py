"""A full index build reads the graph entity by entity when membank wrote the file: the same
entities and frame as a whole read, and the same index rows."""

from __future__ import annotations

import os
import sqlite3
from contextlib import closing
from pathlib import Path
from typing import Any

import orjson
import pytest

from schemas.graph import KnowledgeGraph
from tasks.search.graph_stream import GraphStream
from tasks.search.index import build_index, index_file
from tasks.store.errors import MembankError
from tasks.store.graph_store import load_graph_data, save_graph
from tasks.store.layout import MemoryLayout
from tasks.store.written import as_written
from tests.tasks.search.search_memory import build_search_memory

NOW = "2026-01-10T08:00:00Z"


def _graph(entities: int, relations: int) -> KnowledgeGraph:
    return KnowledgeGraph.model_validate({
        "graphGeneratedAtUtc": NOW,
        "entities": [{"entityName": f"Thing {n}", "entityType": "component",
                      "observations": [f"Fact {k} of thing {n}: {{braces}} \"quoted\",\n"
                                       for k in range(n % 4)]} for n in range(entities)],
        "relations": [{"sourceEntityName": f"Thing {n}", "targetEntityName": f"Thing {n + 1}",
                       "relationType": "depends_on"} for n in range(relations)]})


@pytest.mark.parametrize(("entities", "relations"), [(0, 0), (1, 0), (1, 3), (7, 5), (40, 0)])
def test_the_stream_reads_what_a_whole_read_reads(tmp_path: Path, entities: int,
                                                  relations: int,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    import tasks.store.graph_stream as stream_module

    monkeypatch.setattr(stream_module, "CHUNK", 97)  # separators straddle the chunks
    path = tmp_path / "graph.jsonc"
    save_graph(path, _graph(entities, relations), now_iso=NOW)
    whole = load_graph_data(path)
    stream = GraphStream(path)
    assert list(stream) == whole["entities"]
    frame: dict[str, Any] = {**whole, "entities": []}
    assert stream.frame == frame and list(stream.frame) == list(frame)


def test_a_file_changed_under_the_read_is_an_error_naming_it(tmp_path: Path) -> None:
    path = tmp_path / "graph.jsonc"
    save_graph(path, _graph(3, 1), now_iso=NOW)
    path.write_bytes(path.read_bytes().replace(b'"Thing 1"', b'"Thing 1" oops'))
    with pytest.raises(MembankError, match="changed while it was read") as caught:
        list(GraphStream(path))
    assert str(path) in str(caught.value.file)


def _rows(layout: MemoryLayout) -> dict[str, list[tuple[object, ...]]]:
    with closing(sqlite3.connect(index_file(layout))) as conn:
        return {table: sorted(conn.execute(query).fetchall()) for table, query in {
            "units": "SELECT * FROM units", "entities": "SELECT * FROM entities",
            "relations": "SELECT * FROM relations", "aliases": "SELECT * FROM aliases",
            "fts": "SELECT rowid, * FROM fts"}.items()}


def test_a_streamed_build_holds_the_rows_of_a_whole_read(tmp_path: Path) -> None:
    layout = build_search_memory(tmp_path / "mem")
    assert as_written(layout.graph_file)  # (the stream's case)
    build_index(layout)
    streamed = _rows(layout)
    assert streamed["entities"] and streamed["relations"]
    # the same document with a blank line more, not as membank wrote it: read and validated
    # whole (the very same bytes copied are trusted by their digest, tasks/store/written.py)
    data = layout.graph_file.read_bytes()
    os.unlink(layout.graph_file)
    layout.graph_file.write_bytes(data + b"\n")
    assert not as_written(layout.graph_file)
    build_index(layout)
    assert _rows(layout) == streamed
    assert orjson.loads(data)["entities"]  # (a graph with entities was compared)
