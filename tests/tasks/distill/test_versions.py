"""Many versions of one source, reverts among them (issue 30): retiring replaced versions and
moving a reverted version's evidence to its new page read only the entities that carry that
version's provenance (GraphMerge._holding), and give the memory the slow path gave, byte for
byte: the one that visited every entity for each replaced version and each revert."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import tasks.distill.apply as distill_apply
from flows.ingest import ingest_flow
from schemas.raw_manifest import RawAsset
from tasks.distill.merge import GraphMerge, LazyEntities, MergeResult, merge_extractions
from tasks.extract import ObservationFact, SourceRef
from tests.snapshots import snapshot

TOOLS = ["Redis", "PostgreSQL", "Kafka", "Nginx"]
# versions of the note, in ingest order: 1 and 0 come back (reverts), then new versions follow
SEQUENCE = [0, 1, 2, 3, 1, 4, 5, 0, 6, 7]
MERGE = merge_extractions


def note(version: int) -> str:
    return (f"---\nentity: Release train\n---\n\n# Release train\n\n"
            f"- [fact] Ships on day {version % 3}\n- [fact] Owned by the platform team\n"
            f"- [fact] Revision {version} keeps {version % 2} replicas\n"
            f"- depends_on [[{TOOLS[version % 4]}]]\n- uses [[{TOOLS[(version + 1) % 4]}]]\n")


def filler(folder: Path) -> None:
    folder.mkdir(parents=True)
    for i in range(8):
        (folder / f"component-{i}.md").write_text(
            f"---\nentity: Component {i}\n---\n\n- [fact] Handles case {i}\n"
            f"- depends_on [[Component {(i + 1) % 8}]]\n", encoding="utf-8")


def run(work: Path, monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Ingest the filler, then each version of the note; the entities each merge read."""
    root, source = work / ".memories", work / "release-train.md"
    reads: list[int] = []  # entities each merge read from the graph file (or held: whole path)

    def counted(*args: Any) -> MergeResult:
        result = MERGE(*args)
        entities = result.merge.entities
        reads.append(len(entities.loaded) if isinstance(entities, LazyEntities) else len(entities))
        return result

    monkeypatch.setattr(distill_apply, "merge_extractions", counted)
    filler(work / "notes")
    monkeypatch.setenv("MEMBANK_FIXED_CLOCK", "2026-03-01T00:00:00Z")
    ingest_flow(paths=[str(work / "notes")], root=str(root))
    for step, version in enumerate(SEQUENCE):
        source.write_text(note(version), encoding="utf-8")
        monkeypatch.setenv("MEMBANK_FIXED_CLOCK", f"2026-03-{step + 2:02d}T10:00:00Z")
        ingest_flow(paths=[str(source)], root=str(root))
    return reads[1:]  # the filler's merge left out


def every_entity(merge: GraphMerge, asset_id: str) -> list[str]:
    """The slow path: every entity of the graph may hold the asset's provenance."""
    return sorted(merge.entities)


@pytest.mark.parametrize("incremental", [True, False], ids=["by-entity", "whole-graph"])
def test_versions_and_reverts_give_the_slow_paths_memory(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, incremental: bool) -> None:
    monkeypatch.setattr(distill_apply, "INCREMENTAL_GRAPH", incremental)
    work = tmp_path / "work"  # one path for both runs (the manifest records it), moved aside
    fast_reads = run(work, monkeypatch)
    work.rename(tmp_path / "fast")
    monkeypatch.setattr(GraphMerge, "_holding", every_entity)
    slow_reads = run(work, monkeypatch)
    work.rename(tmp_path / "slow")
    fast, slow = tmp_path / "fast/.memories", tmp_path / "slow/.memories"
    skip = (".membank", "context/health")  # durations
    assert snapshot(fast, skip=skip) == snapshot(slow, skip=skip)
    graph = (fast / "context/knowledge-graph.index.jsonc").read_text(encoding="utf-8")
    assert "reinstatedObservations" in graph and "supersededRelations" in graph  # reverts happened
    assert "Revision 7 keeps 1 replicas" in graph
    if incremental:
        # the slow path read every entity for each revert and each later version; the fast one
        # reads the note's own entities, as many for the tenth version as for the first
        assert len(set(fast_reads)) == 1 and fast_reads[0] < min(slow_reads[1:])


def test_provenance_gained_in_the_run_is_retired_too() -> None:
    """An entity that gained an asset's provenance after the asset index was built (or that the
    graph file does not list for it) is still found when that asset is retired."""
    ledger: dict[str, Any] = {"entityName": "Ledger", "entityType": "database", "observations": [],
              "observationProvenance": []}
    merge = GraphMerge({"graphGeneratedAtUtc": "2026-03-01T00:00:00Z", "entities": [ledger],
                        "relations": []}, "2026-03-02T00:00:00Z")
    old = "a" * 64
    assert merge._holding(old) == []  # the index is built, before the provenance exists
    merge.observe_in(ledger, "ledger", ObservationFact("Keeps every entry", 3, 3),
                     SourceRef(old, "wiki/sources/a.md", "raw/a.md"))
    assert merge._holding(old) == ["ledger"]
    fields: dict[str, Any] = {"sourcePage": "wiki/sources/b.md"}  # all retire_asset reads
    merge.retire_asset(old, RawAsset.model_construct(**fields))
    assert ledger["observations"] == [] and ledger["observationProvenance"] == []
    assert [s["observation"] for s in ledger["supersededObservations"]] == ["Keeps every entry"]
