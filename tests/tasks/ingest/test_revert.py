"""A file reverted to bytes ingested before (issue 19 item 5): that version is current again
through a revert event over the existing raw asset, a new source page, and distill reinstating
its facts while the intermediate version's are superseded."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from flows.ingest import ingest_flow
from schemas.report import MemoryOperationReport
from tasks.checks.reconcile import reconcile_memory
from tasks.store.graph_store import load_manifest
from tasks.store.layout import MemoryLayout
from tasks.store.operation import begin_operation
from tasks.store.pages import read_page
from tasks.store.settings import load_settings
from tests.snapshots import snapshot

VERSION_A = """---
entity: Release train
---

# Release train

- [fact] Ships every Tuesday
- [fact] Owned by the platform team
- depends_on [[Build farm]]
"""
VERSION_B = """---
entity: Release train
---

# Release train

- [fact] Ships every Thursday
- [fact] Owned by the platform team
- depends_on [[Deploy robot]]
"""
CLOCKS = ["2026-03-24T10:00:00Z", "2026-03-25T10:00:00Z", "2026-03-26T10:00:00Z",
          "2026-03-27T10:00:00Z", "2026-03-28T10:00:00Z"]


def ingest(root: Path, source: Path, text: str, clock: str,
           monkeypatch: pytest.MonkeyPatch) -> MemoryOperationReport:
    source.write_text(text, encoding="utf-8")
    monkeypatch.setenv("MEMBANK_FIXED_CLOCK", clock)
    summary = ingest_flow(paths=[str(source)], root=str(root))
    report = summary.stages[0]
    assert isinstance(report, MemoryOperationReport)
    return report


def graph(root: Path) -> dict:
    return json.loads((root / "context/knowledge-graph.index.jsonc").read_text(encoding="utf-8"))


def facts(root: Path) -> tuple[set[str], set[str]]:
    """(active, superseded) observation texts over every entity."""
    active, superseded = set(), set()
    for entity in graph(root)["entities"]:
        active.update(entity["observations"])
        superseded.update(s["observation"] for s in entity.get("supersededObservations", []))
    return active, superseded


def health(root: Path, clock: str) -> set[str]:
    """reconcile --check's warnings and errors. entity_without_evidence is left out: a relation
    target with no observation of its own is reported after the first ingest already."""
    settings = load_settings(root, fixed_clock=clock)
    _report, summary = reconcile_memory(begin_operation(settings, "reconcile"), check=True)
    return {f"{f.code}: {f.message}" for f in summary.findings
            if f.severity != "info" and f.code != "entity_without_evidence"}


def relations(root: Path) -> tuple[set[str], set[str]]:
    """(active, superseded) relation targets."""
    data = graph(root)
    return ({r["targetEntityName"] for r in data["relations"]},
            {r["targetEntityName"] for r in data.get("supersededRelations", [])})


@pytest.fixture
def root(tmp_path: Path) -> Path:
    return tmp_path / ".memories"


def test_a_revert_makes_the_earlier_version_current_again(root: Path, tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    source = tmp_path / "release-train.md"
    ingest(root, source, VERSION_A, CLOCKS[0], monkeypatch)
    a_active, _ = facts(root)
    ingest(root, source, VERSION_B, CLOCKS[1], monkeypatch)
    b_active, _ = facts(root)
    only_a, only_b = a_active - b_active, b_active - a_active
    assert only_a and only_b, (a_active, b_active)

    report = ingest(root, source, VERSION_A, CLOCKS[2], monkeypatch)
    assert report.status == "success", report.problems
    assert report.figures["versions_reinstated"] == 1 and report.figures["files_ingested"] == 0
    manifest = load_manifest(MemoryLayout(root).raw_manifest_file)
    first, second = manifest.assets  # no second raw copy
    [event] = manifest.reverts or []
    assert event.assetId == first.assetId and event.supersedesAssetId == second.assetId
    assert event.supersedesSourcePage == second.sourcePage and event.revertedAtUtc == CLOCKS[2]
    assert sorted(p.name for p in (root / "raw").iterdir() if p.is_file()) == sorted(
        Path(a.rawPath).name for a in (first, second))
    page = read_page(root / str(event.sourcePage))
    assert page.meta["derived_from"] == [first.rawPath]
    assert page.meta["supersedes"] == [second.sourcePage]
    assert page.meta["reinstates"] == [first.sourcePage]
    assert page.meta["raw_asset_id"] == first.assetId
    assert read_page(root / str(second.sourcePage)).meta["superseded_by"] == [event.sourcePage]
    assert read_page(root / str(first.sourcePage)).meta["superseded_by"] == [second.sourcePage]
    assert Path(str(event.sourcePage)).name in (root / "wiki/sources/index.md").read_text(encoding="utf-8")

    active, superseded = facts(root)
    assert only_a <= active and not only_a & superseded  # A's facts active again
    assert only_b <= superseded and not only_b & active  # B's superseded
    history = [r for e in graph(root)["entities"] for r in e.get("reinstatedObservations", [])]
    assert {r["observation"] for r in history} == only_a
    assert all(r["reinstatedAtUtc"] == CLOCKS[2] and r["reinstatedBy"] == event.sourcePage
               and r["supersededBy"] == second.sourcePage for r in history)
    for entity in graph(root)["entities"]:
        for where in entity.get("observationProvenance", []):
            assert where["rawAssetId"] != second.assetId  # B no longer current evidence
    active_targets, superseded_targets = relations(root)
    assert "Build farm" in active_targets and "Deploy robot" not in active_targets
    assert "Deploy robot" in superseded_targets
    assert health(root, CLOCKS[2]) == set()

    before = snapshot(root)
    again = ingest(root, source, VERSION_A, CLOCKS[3], monkeypatch)
    assert again.figures["dedupe_hits"] == 1 and "versions_reinstated" not in again.figures
    assert snapshot(root) == before  # a rerun with nothing new changes nothing


def test_a_b_a_b_reinstates_each_version_in_turn(root: Path, tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    source = tmp_path / "release-train.md"
    for text, clock in zip([VERSION_A, VERSION_B, VERSION_A], CLOCKS, strict=False):
        ingest(root, source, text, clock, monkeypatch)
    a_active, _ = facts(root)
    report = ingest(root, source, VERSION_B, CLOCKS[3], monkeypatch)
    assert report.figures["versions_reinstated"] == 1
    manifest = load_manifest(MemoryLayout(root).raw_manifest_file)
    first, second = manifest.assets
    revert_a, revert_b = manifest.reverts or []
    assert (revert_b.assetId, revert_b.supersedesAssetId) == (second.assetId, first.assetId)
    assert revert_b.supersedesSourcePage == revert_a.sourcePage
    assert read_page(root / str(revert_b.sourcePage)).meta["reinstates"] == [second.sourcePage]
    assert read_page(root / str(revert_a.sourcePage)).meta["superseded_by"] == [revert_b.sourcePage]
    active, superseded = facts(root)
    assert "[fact] Ships every Thursday" in active and "[fact] Ships every Tuesday" in superseded
    assert "[fact] Ships every Tuesday" not in active
    assert (a_active - active) <= superseded
    assert health(root, CLOCKS[3]) == set()
    before = snapshot(root)
    ingest(root, source, VERSION_B, CLOCKS[4], monkeypatch)
    assert snapshot(root) == before


def test_a_version_ingested_after_a_revert_supersedes_the_reverted_page(
        root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    source = tmp_path / "release-train.md"
    for text, clock in zip([VERSION_A, VERSION_B, VERSION_A], CLOCKS, strict=False):
        ingest(root, source, text, clock, monkeypatch)
    ingest(root, source, VERSION_A + "\nA third version.\n", CLOCKS[3], monkeypatch)
    manifest = load_manifest(MemoryLayout(root).raw_manifest_file)
    [revert] = manifest.reverts or []
    third = manifest.assets[-1]
    assert third.supersedesAssetId == revert.assetId
    assert third.supersedesSourcePage == revert.sourcePage
    assert read_page(root / str(third.sourcePage)).meta["supersedes"] == [revert.sourcePage]
    assert read_page(root / str(revert.sourcePage)).meta["superseded_by"] == [third.sourcePage]
    assert health(root, CLOCKS[3]) == set()


def test_a_purged_source_takes_its_revert_page_and_reinstated_history_with_it(
        root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from tasks.privacy.forget import ForgetRequest, forget_operation
    from tasks.store.operation import writing_operation

    source = tmp_path / "release-train.md"
    for text, clock in zip([VERSION_A, VERSION_B, VERSION_A], CLOCKS, strict=False):
        ingest(root, source, text, clock, monkeypatch)
    manifest = load_manifest(MemoryLayout(root).raw_manifest_file)
    [revert] = manifest.reverts or []
    first = manifest.assets[0]
    settings = load_settings(root, fixed_clock=CLOCKS[3])
    from tests.tasks.privacy.forget_scenario import confirmed

    request = confirmed(root, ForgetRequest(source=first.rawPath, mode="purge"), now=CLOCKS[3])
    with writing_operation(settings, "forget") as operation:
        forget_operation(operation, request, apply=True)
    assert not (root / first.rawPath).exists() and not (root / str(revert.sourcePage)).exists()
    after = load_manifest(MemoryLayout(root).raw_manifest_file)
    assert not after.reverts and [a.assetId for a in after.assets] == [manifest.assets[1].assetId]
    assert "Tuesday" not in (root / "context/knowledge-graph.index.jsonc").read_text(encoding="utf-8")
    assert health(root, CLOCKS[3]) == set()


def test_a_sharded_revert_and_an_all_reread_change_nothing_more(
        root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from tasks.distill.apply import distill_memory
    from tasks.store.operation import writing_operation

    source = tmp_path / "big-design.md"
    section = "## Part {n}\n\n" + "The design keeps one writer per memory root. " * 60 + "\n\n"
    big_a = VERSION_A + "".join(section.format(n=n) for n in range(40))
    big_b = VERSION_B + "".join(section.format(n=n) for n in range(40))
    for text, clock in zip([big_a, big_b, big_a], CLOCKS, strict=False):
        ingest(root, source, text, clock, monkeypatch)
    manifest = load_manifest(MemoryLayout(root).raw_manifest_file)
    [revert] = manifest.reverts or []
    first = manifest.assets[0]
    index = read_page(root / str(revert.sourcePage))
    assert index.meta["type"] == "source-index" and index.meta["derived_from"] == [first.rawPath]
    shards = sorted((root / "wiki/sources/shards" / Path(str(revert.sourcePage)).stem).glob("*.md"))
    assert len(shards) == index.meta["shard_count"] >= 2
    for shard in shards:
        meta = read_page(shard).meta
        assert meta["derived_from"] == [first.rawPath] and meta["child_of"] == [revert.sourcePage]
    assert "[fact] Ships every Tuesday" in facts(root)[0]
    assert health(root, CLOCKS[2]) == set()
    before = snapshot(root, skip=(".membank", "context/health"))
    with writing_operation(load_settings(root, fixed_clock=CLOCKS[3]), "distill") as operation:
        report = distill_memory(operation, reread_all=True)
    assert report.figures["sources_read"] == 1
    assert snapshot(root, skip=(".membank", "context/health")) == before


def test_a_path_changed_to_another_paths_bytes_is_reported_not_silent(
        root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    one, two = tmp_path / "release-train.md", tmp_path / "release-copy.md"
    ingest(root, one, VERSION_A, CLOCKS[0], monkeypatch)
    ingest(root, two, VERSION_B, CLOCKS[1], monkeypatch)
    report = ingest(root, two, VERSION_A, CLOCKS[2], monkeypatch)
    [problem] = report.problems
    assert problem.code == "version_stored_from_other_path" and str(one) in problem.message
    assert report.figures["dedupe_hits"] == 1 and "versions_reinstated" not in report.figures
    assert not load_manifest(MemoryLayout(root).raw_manifest_file).reverts


def test_a_revert_before_the_intermediate_version_was_distilled(
        root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    source = tmp_path / "release-train.md"
    ingest(root, source, VERSION_A, CLOCKS[0], monkeypatch)
    source.write_text(VERSION_B, encoding="utf-8")
    monkeypatch.setenv("MEMBANK_FIXED_CLOCK", CLOCKS[1])
    ingest_flow(paths=[str(source)], root=str(root), distill=False)
    ingest(root, source, VERSION_A, CLOCKS[2], monkeypatch)
    manifest = load_manifest(MemoryLayout(root).raw_manifest_file)
    [revert] = manifest.reverts or []
    active, superseded = facts(root)
    assert "[fact] Ships every Tuesday" in active and "[fact] Ships every Thursday" not in active
    pages = {p["sourcePage"] for e in graph(root)["entities"] for p in e.get("observationProvenance", [])}
    assert pages == {revert.sourcePage}
    state = json.loads((root / "context/distill-state.jsonc").read_text(encoding="utf-8"))
    by_asset = {s["assetId"]: s for s in state["sources"]}
    assert by_asset[manifest.assets[1].assetId]["supersededByAssetId"] == revert.assetId
    assert health(root, CLOCKS[2]) == set()
