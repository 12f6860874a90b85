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


def test_nothing_to_change_is_judged_on_plain_json_as_the_models_judge(tmp_path) -> None:
    """A repair run decides on the plain JSON of a graph membank wrote (entity by entity when
    its spans are recorded) whether any mark would change; only then it loads the models. The
    verdict is mark_stale's, for windows and distill times around every boundary; a graph not
    as membank wrote it is left to the models."""
    from pathlib import Path

    from tasks.checks.reconcile.stale import _nothing_to_change
    from tasks.store.graph_segments import SEGMENTS_FILE, save_graph_segments
    from tasks.store.graph_store import save_graph

    root = Path(tmp_path) / "memory"
    (root / ".membank").mkdir(parents=True)
    (root / "context").mkdir()
    path = root / "context/knowledge-graph.index.jsonc"
    distill_times = [DISTILLED, {**DISTILLED, "wiki/sources/a": "2027-03-20T00:00:00Z"},
                     {**DISTILLED, "wiki/sources/c": NOW}, {}]
    seen = set()
    for marked_with in distill_times:
        graph = _graph()
        mark_stale(graph, marked_with, NOW, 180)
        data = graph.model_dump(mode="json")
        for by_entity in (True, False):
            (root / SEGMENTS_FILE).unlink(missing_ok=True)
            path.unlink(missing_ok=True)
            if by_entity:
                assert save_graph_segments(path, data, now_iso=NOW) is True
            else:
                save_graph(path, graph, now_iso=NOW)
            for distilled in distill_times:
                for window in (1.0, 22.0, 180.0, 450.0, 900.0):
                    models = mark_stale(_graph_from(data), distilled, NOW, window)
                    quiet = _nothing_to_change(path, distilled, NOW, window)
                    assert quiet == (models == (0, 0)), (marked_with, distilled, window)
                    seen.add(quiet)
    assert seen == {True, False}
    path.write_text(path.read_text().replace("Billing", "Billing!"))  # a hand edit
    assert _nothing_to_change(path, DISTILLED, NOW, 180) is False


def _graph_from(data: dict) -> KnowledgeGraph:
    return KnowledgeGraph.model_validate(data)
