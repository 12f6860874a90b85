"""Stale observations are marked on their entity, never deleted (tasks/checks/reconcile/stale.py)."""

from __future__ import annotations

from schemas.graph import KnowledgeGraph
from tasks.checks.reconcile.stale import STALE_KEY, mark_stale

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
