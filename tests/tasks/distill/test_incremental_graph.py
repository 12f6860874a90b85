"""Distill reads and writes the graph by entity when distill wrote it last
(tasks/store/graph_segments.py): every file it writes is byte-identical to what the whole-graph
path writes, and the search index it updates holds the rows a full build gives."""

from __future__ import annotations

import shutil
import sqlite3
from collections.abc import Callable
from contextlib import closing
from pathlib import Path

import pytest

import tasks.distill.apply as distill_apply
from schemas.raw_manifest import RawAsset
from tasks.search.index import build_index
from tasks.store.graph_segments import CHANGES_FILE, GraphSegments
from tasks.store.layout import MemoryLayout
from tests.snapshots import snapshot
from tests.stored_sources import bootstrap, store_source
from tests.tasks.distill.test_distill import LATER, distill

Scenario = Callable[[Path], None]

FILLER = [(f"notes/component-{i}.md", f"---\nentity: Component {i}\n---\n\n- [fact] Handles case {i}\n"
           f"- depends_on [[Component {(i + 1) % 6}]]\n") for i in range(6)]


def _first(root: Path) -> RawAsset:
    for path, text in FILLER:
        store_source(root, path, text)
    v1 = store_source(root, "svc.md", "---\nentity: Billing\n---\n\n- [fact] Runs on port 8080\n"
                      "- [fact] Written in Go\n- depends_on [[Ledger]]\n- uses [[Redis]]\n"
                      "Billing talks to Component 3.\n")
    store_source(root, "adr/0002-use-sqlite.md",
                 "# 2. Use SQLite\n\n## Status\n\nAccepted\n\n## Context\n\nSmall.\n\n"
                 "## Decision\n\nUse SQLite.\n\nSupersedes [Use PostgreSQL](0001-use-postgresql.md).\n")
    distill(root)
    return v1


def _second(root: Path, v1: RawAsset) -> None:
    store_source(root, "svc.md", "---\nentity: Billing\n---\n\n- [fact] Written in Go\n"
                 "- [fact] Runs on port 9090\n- depends_on [[Ledger]]\n- uses [[Kafka]]\n",
                 now_iso=LATER, supersedes=v1)
    store_source(root, "adr/0001-use-postgresql.md",
                 "# 1. Use PostgreSQL\n\n## Status\n\nAccepted\n\n## Context\n\n"
                 "Big.\n\n## Decision\n\nUse PostgreSQL.\n", now_iso=LATER)
    store_source(root, "notes/new.md", "---\nentity: Zeta Service\naliases: [zeta]\n---\n\n"
                 "- [fact] Calls Billing\n- uses [[Component 2]]\n", now_iso=LATER)
    distill(root, LATER)


def _entity_rows(root: Path) -> list[tuple[object, ...]]:
    with closing(sqlite3.connect(root / ".membank/search.sqlite3")) as conn:
        return sorted(conn.execute(
            "SELECT u.entity, u.anchor, u.heading, u.text, u.superseded, u.superseded_by,"
            " u.source_page, e.name, e.type, e.page, e.digest FROM units u"
            " JOIN entities e ON e.key = u.entity").fetchall())


def _table(root: Path, table: str) -> list[tuple[object, ...]]:
    with closing(sqlite3.connect(root / ".membank/search.sqlite3")) as conn:
        return sorted(conn.execute(f"SELECT * FROM {table}").fetchall())


def _run(root: Path, *, incremental: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    bootstrap(root)
    v1 = _first(root)
    build_index(MemoryLayout(root))
    monkeypatch.setattr(distill_apply, "INCREMENTAL_GRAPH", incremental)
    layout = MemoryLayout(root)
    assert (GraphSegments.load(layout.graph_file) is not None) is True  # recorded by run one
    _second(root, v1)
    monkeypatch.setattr(distill_apply, "INCREMENTAL_GRAPH", True)


def test_by_entity_equals_whole_graph_write(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # one path for both runs (the manifest records where sources came from), then moved aside
    work = tmp_path / "work"
    _run(work / ".memories", incremental=True, monkeypatch=monkeypatch)
    work.rename(tmp_path / "a")
    _run(work / ".memories", incremental=False, monkeypatch=monkeypatch)
    work.rename(tmp_path / "b")
    by_entity, whole = tmp_path / "a" / ".memories", tmp_path / "b" / ".memories"
    assert snapshot(by_entity) == snapshot(whole)
    graph = (by_entity / "context/knowledge-graph.index.jsonc").read_text()
    assert "supersededRelations" in graph and "Zeta Service" in graph  # the run changed things
    # the search index, updated with the changed entities alone (as recorded), holds what a
    # build gives
    assert (by_entity / CHANGES_FILE).exists() and not (whole / CHANGES_FILE).exists()
    rows = _entity_rows(by_entity)
    assert rows == _entity_rows(whole)
    rebuilt = tmp_path / "c"
    shutil.copytree(by_entity, rebuilt)
    build_index(MemoryLayout(rebuilt))
    assert rows == _entity_rows(rebuilt) and any(row[0] == "zeta service" for row in rows)
    assert _table(by_entity, "aliases") == _table(rebuilt, "aliases")
    assert _table(by_entity, "relations") == _table(rebuilt, "relations")
    assert ("zeta", "zeta service") in _table(by_entity, "aliases")


def test_a_graph_written_by_others_is_read_whole(tmp_path: Path) -> None:
    root = tmp_path / ".memories"
    bootstrap(root)
    _first(root)
    graph_file = MemoryLayout(root).graph_file
    assert GraphSegments.load(graph_file) is not None
    text = graph_file.read_text()
    graph_file.write_text(text)  # same bytes, another write: not the file distill recorded
    assert GraphSegments.load(graph_file) is None
    before = snapshot(root)
    distill(root, LATER, reread_all=True)  # whole path; records the spans again
    assert snapshot(root) == before
    assert GraphSegments.load(graph_file) is not None



def test_spans_handed_over_equal_the_record_once(tmp_path: Path) -> None:
    # (ingest32) the search index update after distill's write takes the spans distill just
    # recorded, not the record parsed again: equal to it, once, and never for another write
    import tasks.store.graph_segments as graph_segments

    for name in ("a", "b"):
        bootstrap(tmp_path / name)
        _first(tmp_path / name)
    graph_file = MemoryLayout(tmp_path / "a").graph_file
    assert str(graph_file) in graph_segments._HANDED
    handed = GraphSegments.load(graph_file)
    assert str(graph_file) not in graph_segments._HANDED  # once
    read = GraphSegments.load(graph_file)  # from the record
    assert handed is not None and read is not None
    assert (handed.head_end, handed.tail_start, handed.spans.columns(), handed.index) == (
        read.head_end, read.tail_start, read.spans.columns(), read.index)
    assert handed.entity("billing") == read.entity("billing")
    other = MemoryLayout(tmp_path / "b").graph_file
    assert str(other) in graph_segments._HANDED
    # another write: another identity (and a graph written by entity has no sha256 recorded
    # until a health write, so the same bytes are not trusted by it either)
    other.write_bytes(other.read_bytes())
    assert GraphSegments.load(other) is None
    assert str(other) not in graph_segments._HANDED


def _spans_of(segments: GraphSegments | None) -> object:
    assert segments is not None
    return segments.head_end, segments.tail_start, segments.spans.columns()


def _counting(calls: list[object]) -> Callable[..., GraphSegments | None]:
    scan = GraphSegments.scan

    def counted(cls: type[GraphSegments], graph_file: Path) -> GraphSegments | None:
        calls.append(graph_file)
        return scan(graph_file)

    return counted


def test_a_graph_membank_wrote_without_spans_is_scanned_by_entity(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """(dall50) A graph membank wrote whole and recorded no spans for (a generator's or a
    repair run's write, a copy): one streaming pass finds the spans the writer would have
    recorded, and distill merges by entity, writing what the whole-graph path writes."""
    import tasks.store.graph_segments as graph_segments

    work = tmp_path / "work"
    for incremental, name in ((True, "a"), (False, "b")):
        root = work / ".memories"
        bootstrap(root)
        v1 = _first(root)
        graph_file = MemoryLayout(root).graph_file
        recorded = _spans_of(GraphSegments.load(graph_file))
        (root / graph_segments.SEGMENTS_FILE).unlink()
        graph_segments._HANDED.clear()
        assert GraphSegments.load(graph_file) is None
        assert _spans_of(GraphSegments.scan(graph_file)) == recorded
        monkeypatch.setattr(distill_apply, "INCREMENTAL_GRAPH", incremental)
        scanned: list[object] = []
        monkeypatch.setattr(GraphSegments, "scan", classmethod(_counting(scanned)))
        _second(root, v1)
        assert scanned == ([graph_file] if incremental else [])
        monkeypatch.undo()
        work.rename(tmp_path / name)
    by_entity, whole = tmp_path / "a" / ".memories", tmp_path / "b" / ".memories"
    assert snapshot(by_entity) == snapshot(whole)
    assert "Zeta Service" in (by_entity / "context/knowledge-graph.index.jsonc").read_text()


def test_a_graph_not_as_distill_writes_it_is_not_scanned(tmp_path: Path) -> None:
    from tasks.store.graph_store import load_graph_data, save_graph_data
    from tasks.store.written import as_written

    root = tmp_path / ".memories"
    bootstrap(root)
    _first(root)
    graph_file = MemoryLayout(root).graph_file
    text = graph_file.read_text()
    graph_file.write_text(text)  # same bytes, not written by membank: not trusted
    assert not as_written(graph_file) and GraphSegments.scan(graph_file) is None
    graph = load_graph_data(graph_file)
    unsorted = dict(graph, entities=list(reversed(graph["entities"])))
    save_graph_data(graph_file, unsorted, now_iso=LATER)  # membank's write, keys not in order
    assert as_written(graph_file) and GraphSegments.scan(graph_file) is None
    entity = dict(graph["entities"][0])
    entity["observations"] = list(reversed(entity["observations"])) + [" padded "]
    odd = dict(graph, entities=[entity, *graph["entities"][1:]])
    save_graph_data(graph_file, odd, now_iso=LATER)  # an entity that normalizing would change
    assert as_written(graph_file) and GraphSegments.scan(graph_file) is None
    save_graph_data(graph_file, graph, now_iso=LATER)
    assert GraphSegments.scan(graph_file) is not None

