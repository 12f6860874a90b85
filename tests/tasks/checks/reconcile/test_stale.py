"""Stale observations are marked on their entity, never deleted (tasks/checks/reconcile/stale.py)."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from schemas.graph import KnowledgeGraph
from tasks.checks.graph_facts import GraphFactsBuilder
from tasks.checks.reconcile.stale import (
    STALE_KEY,
    mark_stale,
    mark_stale_streamed,
    streamed_changes,
    summary_changes,
)
from tasks.store.graph_segments import GraphSegments
from tasks.store.graph_store import load_graph, save_graph
from tasks.store.written import as_written

NOW = "2027-03-24T00:00:00Z"


def _graph() -> KnowledgeGraph:
    prov = [{"observation": text, "sourcePage": page, "rawAssetId": page[-1] * 64,
             "lineStart": 1, "lineEnd": 1}
            for text, page in (("[fact] Old", "wiki/sources/a"), ("[fact] Fresh", "wiki/sources/b"),
                               ("[fact] Never distilled", "wiki/sources/c"))]
    return KnowledgeGraph.model_validate({
        "graphGeneratedAtUtc": NOW, "relations": [],
        "entities": [{"entityName": "Billing", "entityType": "service",
                      "observations": ["[fact] Old", "[fact] Fresh", "[fact] Never distilled",
                                       "[fact] Hand-added"],
                      "observationProvenance": prov}]})


DISTILLED = {"wiki/sources/a": "2026-01-01T00:00:00Z", "wiki/sources/b": "2027-03-01T00:00:00Z"}


def test_unconfirmed_past_the_window_is_marked_and_kept() -> None:
    graph = _graph()
    assert mark_stale(graph, DISTILLED, NOW, 180) == (2, 0)
    [entity] = graph.entities
    assert entity.observations == ["[fact] Old", "[fact] Fresh", "[fact] Never distilled",
                                   "[fact] Hand-added"]
    marks = (entity.model_extra or {})[STALE_KEY]
    assert [(m["observation"], m["lastConfirmedAtUtc"]) for m in marks] == [
        ("[fact] Old", "2026-01-01T00:00:00Z"), ("[fact] Never distilled", None)]
    assert mark_stale(graph, DISTILLED, "2027-04-01T00:00:00Z", 180) == (0, 0)  # kept as marked
    assert (entity.model_extra or {})[STALE_KEY][0]["markedStaleAtUtc"] == NOW


def test_a_mark_goes_when_the_fact_is_confirmed_again() -> None:
    graph = _graph()
    mark_stale(graph, DISTILLED, NOW, 180)
    again = {**DISTILLED, "wiki/sources/a": "2027-03-20T00:00:00Z", "wiki/sources/c": NOW}
    assert mark_stale(graph, again, NOW, 180) == (0, 2)
    assert STALE_KEY not in (graph.entities[0].model_extra or {})
    assert "staleObservations" not in graph.model_dump_json()


def test_streamed_counts_are_those_of_the_model_path(tmp_path: Path) -> None:
    """A graph file as membank wrote it is judged entity by entity on plain dicts: the same
    (marked, cleared) counts as mark_stale on the models, so no model is built when both are 0."""
    (tmp_path / "context").mkdir()
    (tmp_path / ".membank").mkdir()
    graph_file = tmp_path / "context" / "knowledge-graph.index.jsonc"
    graph = _graph()
    graph.entities.append(graph.entities[0].model_copy(update={"entityName": "Zeta"}))
    save_graph(graph_file, graph, now_iso=NOW)
    again = {**DISTILLED, "wiki/sources/a": "2027-03-20T00:00:00Z", "wiki/sources/c": NOW}
    for distilled, now in ((DISTILLED, NOW), (again, NOW), (DISTILLED, "2027-04-01T00:00:00Z")):
        assert streamed_changes(graph_file, distilled, now, 180) == mark_stale(
            load_graph(graph_file), distilled, now, 180)
    mark_stale(graph, DISTILLED, NOW, 180)
    save_graph(graph_file, graph, now_iso=NOW)
    assert streamed_changes(graph_file, DISTILLED, NOW, 180) == (0, 0)
    assert streamed_changes(graph_file, again, NOW, 180) == (0, 4)
    # another write (other bytes: the same bytes copied are trusted by their digest): not streamed
    graph_file.write_bytes(graph_file.read_bytes() + b"\n")
    assert streamed_changes(graph_file, DISTILLED, NOW, 180) is None


TEXTS = st.sampled_from(["[fact] A", " [fact] A ", "[fact] B", "[fact] C", "[fact] D"])
PAGES = st.sampled_from(["wiki/sources/a", "wiki/sources/b", "wiki/sources/c"])
WHEN = st.sampled_from(["2026-01-01T00:00:00Z", "2027-03-01T00:00:00Z", NOW])


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(st.lists(TEXTS, max_size=4),
                          st.lists(st.tuples(TEXTS, PAGES), max_size=4),
                          st.lists(TEXTS, max_size=3)), min_size=1, max_size=3),
       st.dictionaries(PAGES, WHEN), st.sampled_from([NOW, "2027-09-01T00:00:00Z"]))
def test_scan_summary_counts_are_those_of_the_model_path(entities, distilled, now) -> None:
    """The scan's summary of the graph (no model, no second read) gives mark_stale's counts."""
    graph = KnowledgeGraph.model_validate({
        "graphGeneratedAtUtc": NOW, "relations": [],
        "entities": [{"entityName": f"e{n}", "entityType": "service", "observations": observed,
                      "observationProvenance": [
                          {"observation": text, "sourcePage": page, "rawAssetId": page[-1] * 64,
                           "lineStart": 1, "lineEnd": 1} for text, page in provenance],
                      STALE_KEY: [{"observation": text, "markedStaleAtUtc": NOW} for text in marked]}
                     for n, (observed, provenance, marked) in enumerate(entities)]})
    builder = GraphFactsBuilder()
    for entity in graph.model_dump(mode="json")["entities"]:
        builder.add(entity)
    assert builder.stale is not None
    assert summary_changes(builder.stale, distilled, now, 180) == mark_stale(graph, distilled, now, 180)


def _memory(root: Path, graph: KnowledgeGraph) -> Path:
    (root / "context").mkdir(parents=True)
    (root / ".membank").mkdir()
    graph_file = root / "context" / "knowledge-graph.index.jsonc"
    save_graph(graph_file, graph, now_iso=NOW)
    return graph_file


def _both_ways(root: Path, graph: KnowledgeGraph, distilled: dict[str, str], now: str
               ) -> tuple[Path, tuple[int, int], tuple[int, int] | None]:
    """The graph marked by the models (load, mark_stale, save_graph) and streamed, each in a
    memory of its own: (the streamed file, the model path's counts, the streamed counts)."""
    model_file, streamed_file = _memory(root / "model", graph), _memory(root / "streamed", graph)
    model = load_graph(model_file)
    counts = mark_stale(model, distilled, now, 180)
    if counts != (0, 0):
        save_graph(model_file, model, now_iso=now)
    streamed = mark_stale_streamed(streamed_file, distilled, now, 180)
    assert streamed_file.read_bytes() == model_file.read_bytes()
    return streamed_file, counts, streamed


def _spans_hold(graph_file: Path) -> None:
    """The recorded spans are the file's: each entity's bytes parse to that entity."""
    assert as_written(graph_file)
    segments = GraphSegments.load(graph_file)
    assert segments is not None
    data = load_graph(graph_file).model_dump(mode="json")
    assert [segments.entity(key)["entityName"] for key in segments.spans.keys] == [
        e["entityName"] for e in data["entities"]]
    assert segments.frame()["relations"] == data["relations"]


@settings(max_examples=120, deadline=None)
@given(st.lists(st.tuples(st.lists(TEXTS, max_size=4),
                          st.lists(st.tuples(TEXTS, PAGES), max_size=4),
                          st.lists(TEXTS, max_size=3), st.booleans()), min_size=1, max_size=4),
       st.dictionaries(PAGES, WHEN), st.sampled_from([NOW, "2027-09-01T00:00:00Z"]))
def test_streamed_marking_writes_the_model_paths_bytes(entities, distilled, now) -> None:
    """Marks added, cleared or none, entities with and without provenance, extension keys
    before the marks, relations with and without origins: mark_stale_streamed writes byte for
    byte what mark_stale and save_graph write, and records the file and its spans."""
    rows: list[dict[str, Any]] = []
    for n, (observed, provenance, marked, extra) in enumerate(entities):
        row: dict[str, Any] = {"entityName": f"e{n}", "entityType": "service", "observations": observed}
        if provenance:
            row["observationProvenance"] = [
                {"observation": text, "sourcePage": page, "rawAssetId": page[-1] * 64,
                 "lineStart": 1, "lineEnd": 2} for text, page in provenance]
        if extra:
            row["note"] = {"kept": n}
        if marked:
            row[STALE_KEY] = [{"observation": text, "markedStaleAtUtc": NOW} for text in marked]
        rows.append(row)
    graph = KnowledgeGraph.model_validate({
        "graphGeneratedAtUtc": NOW, "entities": rows, "extraKey": [1],
        "relations": [{"sourceEntityName": "e0", "targetEntityName": "e0", "relationType": "uses"},
                      {"sourceEntityName": "e0", "targetEntityName": "e0", "relationType": "owns",
                       "relationProvenance": [{"sourcePage": "wiki/sources/a", "rawAssetId": "a" * 64}]}]})
    with tempfile.TemporaryDirectory() as folder:
        graph_file, counts, streamed = _both_ways(Path(folder), graph, distilled, now)
        assert streamed == counts
        if counts != (0, 0):
            _spans_hold(graph_file)
            assert streamed_changes(graph_file, distilled, now, 180) == (0, 0)


def test_streamed_marking_of_unsorted_entities_records_no_spans(tmp_path: Path) -> None:
    """A graph whose entities are not in key order is marked the same, recorded as written,
    without spans (the by-entity writes need the key order)."""
    graph = _graph()
    graph.entities.insert(0, graph.entities[0].model_copy(update={"entityName": "Zeta"}))
    graph_file, counts, streamed = _both_ways(tmp_path, graph, DISTILLED, NOW)
    assert streamed == counts == (4, 0)
    assert as_written(graph_file) and GraphSegments.load(graph_file) is None


def test_a_graph_not_as_written_is_not_streamed(tmp_path: Path) -> None:
    graph_file = _memory(tmp_path, _graph())
    graph_file.write_bytes(graph_file.read_bytes() + b"\n")  # another write: not trusted
    before = graph_file.read_bytes()
    assert mark_stale_streamed(graph_file, DISTILLED, NOW, 180) is None
    assert graph_file.read_bytes() == before
