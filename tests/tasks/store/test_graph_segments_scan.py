"""A graph membank wrote without recorded spans is read for them once (GraphSegments.scan):
the spans equal those a write records, the distill that uses them writes what the whole-graph
path writes, and a graph a whole write would change is left to that path."""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest

import tasks.store.graph_segments as graph_segments
from tasks.store.graph_segments import CHANGES_FILE, SEGMENTS_FILE, GraphSegments
from tasks.store.graph_store import save_graph_data
from tasks.store.layout import MemoryLayout
from tests.snapshots import snapshot
from tests.stored_sources import bootstrap
from tests.tasks.distill.test_distill import LATER
from tests.tasks.distill.test_incremental_graph import _first, _second


def _forget_spans(root: Path) -> Path:
    """The memory as a graph writer that records no spans leaves it (a reconcile's repair, a
    generator): the graph as membank wrote it, no spans recorded, none handed over."""
    graph_file = MemoryLayout(root).graph_file
    (root / SEGMENTS_FILE).unlink()
    graph_segments._HANDED.clear()
    assert GraphSegments.load(graph_file) is None
    return graph_file


def test_scanned_spans_equal_the_recorded_ones(tmp_path: Path) -> None:
    root = tmp_path / ".memories"
    bootstrap(root)
    _first(root)
    graph_file = MemoryLayout(root).graph_file
    graph_segments._HANDED.clear()
    recorded = GraphSegments.load(graph_file)
    assert recorded is not None and len(recorded.spans.keys) > 5
    _forget_spans(root)
    scanned = GraphSegments.scan(graph_file)
    assert scanned is not None
    assert (scanned.head_end, scanned.tail_start, scanned.spans.columns()) == (
        recorded.head_end, recorded.tail_start, recorded.spans.columns())
    assert scanned.frame() == recorded.frame()
    assert scanned.entity("billing") == recorded.entity("billing")


def _run(root: Path, *, scan: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    bootstrap(root)
    v1 = _first(root)
    _forget_spans(root)
    if not scan:  # integ40's path: the whole graph read, normalized and written
        monkeypatch.setattr(GraphSegments, "scan", classmethod(lambda cls, graph_file: None))
    _second(root, v1)
    monkeypatch.undo()


def test_distill_by_scanned_spans_writes_what_the_whole_path_writes(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    work = tmp_path / "work"  # (one path for both: the manifest records where sources came from)
    _run(work / ".memories", scan=True, monkeypatch=monkeypatch)
    work.rename(tmp_path / "a")
    _run(work / ".memories", scan=False, monkeypatch=monkeypatch)
    work.rename(tmp_path / "b")
    scanned, whole = tmp_path / "a" / ".memories", tmp_path / "b" / ".memories"
    assert snapshot(scanned) == snapshot(whole)
    # the scanned run wrote by entity (its change record is there), and both recorded the spans
    assert (scanned / CHANGES_FILE).exists() and not (whole / CHANGES_FILE).exists()
    spans = [orjson.loads((root / SEGMENTS_FILE).read_bytes()) for root in (scanned, whole)]
    for record in spans:
        del record["identity"]  # (each file's own inode and times)
    assert spans[0] == spans[1]


def _rewritten(graph_file: Path, change) -> None:  # type: ignore[no-untyped-def]
    """The graph written again by membank's whole writer (recorded as written), changed."""
    data = orjson.loads(graph_file.read_bytes())
    change(data)
    save_graph_data(graph_file, data, now_iso=LATER)


@pytest.mark.parametrize("change", [
    # an entity whose observations are not in the normalized order
    lambda data: data["entities"][0]["observations"].reverse(),
    # entities not in key order
    lambda data: data["entities"].reverse(),
    # one key twice (normalizing merges them)
    lambda data: data["entities"].insert(1, dict(data["entities"][0])),
])
def test_a_graph_a_whole_write_would_change_is_not_scanned(
        tmp_path: Path, change) -> None:  # type: ignore[no-untyped-def]
    root = tmp_path / ".memories"
    bootstrap(root)
    _first(root)
    graph_file = _forget_spans(root)
    data = orjson.loads(graph_file.read_bytes())
    assert len(data["entities"][0]["observations"]) > 1
    _rewritten(graph_file, change)
    assert GraphSegments.scan(graph_file) is None


def test_a_graph_not_recorded_as_written_is_not_scanned(tmp_path: Path) -> None:
    root = tmp_path / ".memories"
    bootstrap(root)
    _first(root)
    graph_file = _forget_spans(root)
    assert GraphSegments.scan(graph_file) is not None
    graph_file.write_bytes(graph_file.read_bytes())  # a hand write: not trusted unvalidated
    assert GraphSegments.scan(graph_file) is None
