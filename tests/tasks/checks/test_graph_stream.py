"""The graph's facts read entity by entity (tasks.store.graph_stream into
tasks.checks.graph_facts.GraphFactsBuilder, the scan's path for a graph membank wrote) are those
of the whole document, and a scan or a check that reads a graph so finds exactly what one that
reads it whole finds (the file rewritten by another writer: read whole and validated)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson
import pytest

from tasks.checks import scan as scan_module
from tasks.checks.graph_facts import graph_facts, observation_digests
from tasks.checks.scan import _stream_graph, cache_bytes, scan_memory
from tasks.store.graph_segments import save_graph_segments
from tasks.store.written import WRITTEN_FILE, as_written
from tests.memory_builder import NOW, build_healthy_memory

GRAPH = "context/knowledge-graph.index.jsonc"


def _entity(name: str, observations: list[str], **extra: Any) -> dict[str, Any]:
    return {"entityName": name, "entityType": "service", "observations": observations, **extra}


def _provenance(observation: str, page: str, asset: str) -> dict[str, Any]:
    return {"observation": observation, "sourcePage": page, "rawAssetId": asset,
            "lineStart": 1, "lineEnd": 1}


def awkward_graph() -> dict[str, Any]:
    """Every fact the scan keeps: out of order, without evidence, markup in a name, a
    conflict from two sources, unlinked and active superseded facts, a paragraph, stale marks,
    dangling, self and unknown relations, superseded relations."""
    return {"graphGeneratedAtUtc": "2026-01-10T08:00:00Z", "entities": [
        _entity("Zeta", ["owner: platform team", "owner: data team"],
                observationProvenance=[_provenance("owner: platform team", "wiki/a.md", "a1"),
                                       _provenance("owner: data team", "wiki/b.md", "b1")]),
        _entity("Alpha", ["Runs on port 8080", "one", "x" * 1200],
                supersededObservations=[{"observation": "Runs on port 8080"},
                                        {"observation": "Old fact", "supersededBy": "New fact"}],
                staleObservations=["Runs on port 8080"]),
        _entity("- Listed", []),
        _entity("Empty", []),
        _entity("Stated", []),
    ], "relations": [
        {"sourceEntityName": "Alpha", "relationType": "depends_on", "targetEntityName": "Zeta"},
        {"sourceEntityName": "Alpha", "relationType": "depends_on", "targetEntityName": "Alpha"},
        {"sourceEntityName": "Stated", "relationType": "frobnicates", "targetEntityName": "Ghost",
         "relationProvenance": [{"sourcePage": "wiki/c.md", "rawAssetId": "c1"}]},
        {"sourceEntityName": "Alpha", "relationType": "uses", "targetEntityName": "Zeta"},
    ], "supersededRelations": [
        {"sourceEntityName": "Alpha", "relationType": "uses", "targetEntityName": "Redis"}]}


def whole(path: Path) -> tuple[Any, Any]:
    graph = orjson.loads(path.read_bytes())
    return graph_facts(graph), {"obs_digests": observation_digests(graph)}


def test_by_entity_equals_the_whole_document(tmp_path: Path) -> None:
    root = tmp_path / "memory"
    (root / ".membank").mkdir(parents=True)
    (root / "context").mkdir()
    path = root / GRAPH
    assert save_graph_segments(path, awkward_graph(), now_iso=NOW) is True
    streamed = _stream_graph(path)
    assert streamed is not None
    facts, transient = whole(path)
    assert orjson.dumps(streamed[0]) == orjson.dumps(facts)
    assert streamed[1]["obs_digests"] == transient["obs_digests"]
    # what the awkward graph holds is found (the equality is not one of empty facts)
    assert facts["normalized"] is False and facts["conflicts"] and facts["not_atomic"]
    assert facts["entities_without_evidence"] == ["- Listed", "Empty"]
    assert facts["names_with_markup"] == ["- Listed"] and facts["stale_marked"] == 1
    assert facts["dangling_relations"] and facts["unknown_relation_types"] == ["frobnicates"]
    assert facts["superseded_unlinked"] and facts["active_and_superseded"]
    # carried as the bytes the observation baseline writes: sorted JSON of the same digests
    assert streamed[1]["obs_digests"].blob == orjson.dumps(transient["obs_digests"],
                                                           option=orjson.OPT_SORT_KEYS)
    # without digests (the rescan after stale marking): the same facts, hash and size, no digests
    bare = _stream_graph(path, digests=False)
    assert bare is not None and bare[1] == {} and streamed[1]["stale"]["groups"]
    assert orjson.dumps(bare[0]) == orjson.dumps(facts) and bare[2:] == streamed[2:]
    scan = scan_memory(root, digests=False)
    assert GRAPH in scan.changed and scan.transient.get(GRAPH, {}) == {}
    assert orjson.dumps(scan.files[GRAPH]["facts"]) == orjson.dumps(facts)


class _NoStream:
    """Stands for a graph in another layout: the scan reads the file whole."""

    def __init__(self, path: Path, **_: Any) -> None:
        del path

    def entities(self) -> Any:
        raise ValueError("not the layout membank writes")


def _forget_written(path: Path, root: Path) -> None:
    """The same bytes, no longer recorded as membank wrote them (the record gone: a copy of
    the same bytes would be trusted by its sha256, tasks/store/written.py)."""
    path.write_bytes(path.read_bytes())
    (root / WRITTEN_FILE).unlink(missing_ok=True)
    assert not as_written(path)


def test_a_scan_by_entity_is_the_scan_of_the_whole_file(tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """Three reads of the same bytes give the same facts: trusted and streamed, not trusted
    and validated entity by entity (then trusted), and read whole."""
    root = tmp_path / "memory"
    build_healthy_memory(root)
    path = root / GRAPH
    graph = orjson.loads(path.read_bytes())
    graph["entities"] = sorted(graph["entities"], key=lambda e: e["entityName"].lower())
    assert save_graph_segments(path, graph, now_iso=NOW) is not None
    assert _stream_graph(path) is not None
    by_entity = scan_memory(root)
    _forget_written(path, root)
    validated = scan_memory(root)
    assert as_written(path)  # valid and normalized: recorded for the readers after the scan
    _forget_written(path, root)
    monkeypatch.setattr(scan_module, "GraphStream", _NoStream)
    assert _stream_graph(path) is None
    read_whole = scan_memory(root)
    assert not as_written(path)  # the whole read records nothing
    for other in (validated, read_whole):
        assert GRAPH in by_entity.changed and GRAPH in other.changed
        # the same facts and hashes (the rewrite moved the graph's ctime and inode only)
        assert orjson.dumps(_facts(by_entity)) == orjson.dumps(_facts(other))
        assert by_entity.transient[GRAPH]["obs_digests"] == other.transient[GRAPH]["obs_digests"]
        assert by_entity.bytes_read == other.bytes_read
    # (a stream also summarises stale marks; the whole read leaves that to stale marking)
    assert by_entity.transient[GRAPH]["stale"] == validated.transient[GRAPH]["stale"]
    assert by_entity.transient[GRAPH]["stale"]


def _facts(scan: Any) -> Any:
    cache = orjson.loads(cache_bytes(scan))
    files = {rel: (row["hash"], row["facts"]) for rel, row in cache.pop("files").items()}
    return files, cache


def _check(root: Path) -> tuple:
    from tasks.checks.reconcile import reconcile_memory
    from tasks.store.operation import begin_operation
    from tasks.store.settings import load_settings

    _report, summary = reconcile_memory(begin_operation(load_settings(root, fixed_clock=NOW),
                                                        "reconcile"), check=True)
    return (summary.status, summary.counts.model_dump(),
            [f.model_dump() for f in summary.findings])


def test_a_check_after_a_by_entity_write_finds_what_a_whole_read_finds(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """As after an ingest: reconciled, then distill rewrites some entities of the graph (one
    fact erased, one added). The check reads the graph entity by entity and finds what the
    same check finds reading it whole (the file no longer recorded as membank wrote it) and with every cache removed but the
    observation baseline (erased facts are found against it)."""
    from tasks.store.operation import writing_operation
    from tasks.store.settings import load_settings

    root = tmp_path / "memory"
    build_healthy_memory(root)
    with writing_operation(load_settings(root, fixed_clock=NOW), "reconcile") as operation:
        from tasks.checks.reconcile import reconcile_memory

        reconcile_memory(operation, check=False)
    path = root / GRAPH
    graph = orjson.loads(path.read_bytes())
    graph["entities"] = sorted(graph["entities"], key=lambda e: e["entityName"].lower())
    first = graph["entities"][0]
    erased = first["observations"].pop()
    first["observations"] = sorted([*first["observations"], "Added by the ingest"])
    assert save_graph_segments(path, graph, now_iso=NOW) is True
    assert _stream_graph(path) is not None
    by_entity = _check(root)
    assert any(erased in f["message"] for f in by_entity[2] if f["code"] == "fact_erased")
    # not recorded as written (by entity: no sha256 recorded yet): validated entity by entity
    _forget_written(path, root)
    assert _check(root) == by_entity
    # and read whole (another layout) from here on
    _forget_written(path, root)
    monkeypatch.setattr(scan_module, "GraphStream", _NoStream)
    assert _stream_graph(path) is None
    assert _check(root) == by_entity
    for name in ("reconcile-cache.json", "reconcile-verdict.json"):
        (root / ".membank" / name).unlink(missing_ok=True)
    assert _check(root) == by_entity
