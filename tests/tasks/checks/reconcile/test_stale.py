"""Stale observations are marked on their entity, never deleted (tasks/checks/reconcile/stale.py)."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from schemas.graph import KnowledgeGraph
from tasks.checks.graph_facts import GraphFactsBuilder
from tasks.checks.reconcile.stale import STALE_KEY, mark_stale, streamed_changes, summary_changes
from tasks.store.graph_store import load_graph, save_graph

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
    graph_file.write_bytes(graph_file.read_bytes())  # another write: not trusted, not streamed
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
