"""Freshness over source versions, through the real flows (ingest, distill, run) with the fixed
clock: a superseded version's source page is history, not a source awaiting distill, while the
current version is still reported until it is distilled."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from flows.distill import distill_flow
from flows.ingest import ingest_flow
from flows.run import run_flow
from schemas.health import HealthSummary
from schemas.raw_manifest import RawAsset
from tasks.checks.facts import AssetFacts, ManifestFacts
from tasks.checks.freshness import freshness_audit, source_versions
from tasks.store.graph_store import load_distill_state, load_manifest
from tasks.store.layout import MemoryLayout
from tasks.store.operation import begin_operation
from tasks.store.pages import read_page
from tasks.store.settings import load_settings
from tests.conftest import REPO_ROOT

VERSION_A = """# Release train

- [fact] Ships every Tuesday
- [fact] Owned by the platform team
"""
VERSION_B = """# Release train

- [fact] Ships every Thursday
- [fact] Owned by the platform team
"""
CLOCKS = ["2026-03-24T10:00:00Z", "2026-03-25T10:00:00Z", "2026-03-26T10:00:00Z",
          "2026-03-27T10:00:00Z", "2026-03-28T10:00:00Z"]
SOURCE_CODES = {"distill_older_than_source", "source_not_distilled"}


def ingest(root: Path, source: Path, text: str, clock: str, monkeypatch: pytest.MonkeyPatch,
           *, distill: bool = True) -> None:
    source.write_text(text, encoding="utf-8")
    monkeypatch.setenv("MEMBANK_FIXED_CLOCK", clock)
    ingest_flow(paths=[str(source)], root=str(root), distill=distill)


def distill(root: Path, clock: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMBANK_FIXED_CLOCK", clock)
    distill_flow(root=str(root))


def audit(root: Path, clock: str, **overrides: float) -> HealthSummary:
    settings = load_settings(root, fixed_clock=clock, **overrides)
    return freshness_audit(begin_operation(settings, "audit"))[1]


def source_findings(summary: HealthSummary) -> list[tuple[str, str | None]]:
    return sorted((f.code, f.path) for f in summary.findings if f.code in SOURCE_CODES)


def assets(root: Path) -> list[RawAsset]:
    return load_manifest(MemoryLayout(root).raw_manifest_file).assets


@pytest.fixture
def root(tmp_path: Path) -> Path:
    return tmp_path / ".memories"


@pytest.fixture
def source(tmp_path: Path) -> Path:
    return tmp_path / "release-train.md"


# --- distill_older_than_source / source_not_distilled --------------------------------------


def test_a_distilled_new_version_leaves_no_source_finding(
        root: Path, source: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    ingest(root, source, VERSION_A, CLOCKS[0], monkeypatch)
    ingest(root, source, VERSION_B, CLOCKS[1], monkeypatch)
    first, second = assets(root)
    assert second.supersedesAssetId == first.assetId
    # what made the old version look undistilled: its page was written when it was superseded,
    # after its one distill (and distill never reads a superseded version again)
    old_page = read_page(root / str(first.sourcePage)).meta
    assert old_page["superseded_by"] == [second.sourcePage]
    assert old_page["updated_at"] == CLOCKS[1]
    state = {s.assetId: s.distilledAtUtc for s in
             load_distill_state(MemoryLayout(root).distill_state_file).sources}
    assert state[first.assetId] == CLOCKS[0] < old_page["updated_at"]
    summary = audit(root, CLOCKS[2])
    assert source_findings(summary) == []
    assert summary.counts.sources_changed == 0
    assert summary.status == "healthy", summary.findings


def test_the_current_version_is_reported_until_it_is_distilled(
        root: Path, source: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    ingest(root, source, VERSION_A, CLOCKS[0], monkeypatch)
    ingest(root, source, VERSION_B, CLOCKS[1], monkeypatch, distill=False)
    _first, second = assets(root)
    summary = audit(root, CLOCKS[2])
    assert source_findings(summary) == [("source_not_distilled", second.sourcePage)]
    assert summary.counts.sources_changed == 1
    distill(root, CLOCKS[2], monkeypatch)  # what the finding asks for clears it
    assert source_findings(audit(root, CLOCKS[3])) == []


def test_a_version_superseded_before_any_distill_is_not_awaiting_one(
        root: Path, source: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    other = source.with_name("other.md")  # distilled, so there is a distill state
    ingest(root, other, "# Other\n\n- [fact] Something else\n", CLOCKS[0], monkeypatch)
    ingest(root, source, VERSION_A, CLOCKS[0], monkeypatch, distill=False)
    ingest(root, source, VERSION_B, CLOCKS[1], monkeypatch, distill=False)
    _other, _first, second = assets(root)
    assert source_findings(audit(root, CLOCKS[2])) == [("source_not_distilled", second.sourcePage)]
    distill(root, CLOCKS[2], monkeypatch)  # the first version is recorded as skipped, not read
    assert source_findings(audit(root, CLOCKS[3])) == []


def test_a_revert_is_the_current_version_and_what_it_replaced_is_history(
        root: Path, source: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    ingest(root, source, VERSION_A, CLOCKS[0], monkeypatch)
    ingest(root, source, VERSION_B, CLOCKS[1], monkeypatch)
    ingest(root, source, VERSION_A, CLOCKS[2], monkeypatch, distill=False)
    [revert] = load_manifest(MemoryLayout(root).raw_manifest_file).reverts or []
    # the revert's page is what awaits distill (not the two pages it superseded)
    summary = audit(root, CLOCKS[3])
    assert [(f.code, f.path) for f in summary.findings if f.code in SOURCE_CODES] == [
        ("distill_older_than_source", revert.sourcePage)]
    assert summary.counts.sources_changed == 1
    distill(root, CLOCKS[3], monkeypatch)
    assert source_findings(audit(root, CLOCKS[4])) == []
    ingest(root, source, VERSION_B, CLOCKS[4], monkeypatch)  # back again: A-B-A-B
    assert source_findings(audit(root, CLOCKS[4])) == []


def test_a_changed_raw_asset_of_a_superseded_version_is_still_reported(
        root: Path, source: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    ingest(root, source, VERSION_A, CLOCKS[0], monkeypatch)
    ingest(root, source, VERSION_B, CLOCKS[1], monkeypatch)
    first, _second = assets(root)
    raw = root / first.rawPath
    raw.chmod(0o644)
    raw.write_text("edited in place\n", encoding="utf-8")
    summary = audit(root, CLOCKS[2])
    assert [(f.code, f.path) for f in summary.findings if f.code == "raw_changed"] == [
        ("raw_changed", first.rawPath)]  # raw/ is immutable, history included
    assert source_findings(summary) == [] and summary.counts.sources_changed == 1


# --- the other checks over versions ---------------------------------------------------------


def test_a_superseded_page_is_not_a_stale_page(root: Path, source: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    ingest(root, source, VERSION_A, CLOCKS[0], monkeypatch)
    ingest(root, source, VERSION_B, CLOCKS[1], monkeypatch)
    first, second = assets(root)
    summary = audit(root, "2026-04-10T10:00:00Z", freshness_stale_page_days=10)
    stale = {f.path for f in summary.findings if f.code == "stale_page"}
    assert second.sourcePage in stale  # the current version ages as any page does
    assert first.sourcePage not in stale  # history: "mark it superseded" is already done
    assert summary.freshness is not None
    ages = {p.path for p in summary.freshness.pages}
    assert first.sourcePage in ages  # still listed with its age


def test_observations_are_confirmed_by_the_current_version(
        root: Path, source: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The window counts from the distill of the version that states the fact now: 10.5 days
    after the first version's distill but 9.5 after the second's, nothing is stale."""
    ingest(root, source, VERSION_A, CLOCKS[0], monkeypatch)
    ingest(root, source, VERSION_B, CLOCKS[1], monkeypatch)
    summary = audit(root, "2026-04-04T00:00:00Z", freshness_observation_window_days=10)
    assert summary.counts.stale_observations == 0, summary.findings
    summary = audit(root, "2026-04-05T00:00:00Z", freshness_observation_window_days=10)
    assert summary.counts.stale_observations == 2  # both active facts, past the window
    ingest(root, source, VERSION_A, CLOCKS[2], monkeypatch)  # reverted: A's facts again
    summary = audit(root, "2026-04-05T00:00:00Z", freshness_observation_window_days=10)
    assert summary.counts.stale_observations == 0, summary.findings


def _asset(asset_id: str, page: str | None, supersedes: str | None = None) -> AssetFacts:
    return {"assetId": asset_id * 64, "contentHash": f"sha256:{asset_id * 64}",
            "rawPath": f"raw/{asset_id}.md", "sourcePage": page, "ingestedAtUtc": CLOCKS[0],
            "supersedesAssetId": supersedes * 64 if supersedes else None,
            "supersedesSourcePage": None}


def test_source_versions_follow_pages_and_fall_back_to_ids() -> None:
    manifest: ManifestFacts = {"problem": None, "reverts": [], "assets": [
        _asset("a", "wiki/sources/a.md"), _asset("b", "wiki/sources/b.md", "a"),
        _asset("c", None), _asset("d", None, "c"),  # an old manifest without pages
    ]}
    assert [(v.raw_path, v.current) for v in source_versions(manifest)] == [
        ("raw/a.md", False), ("raw/b.md", True), ("raw/c.md", False), ("raw/d.md", True)]
    manifest["reverts"] = [{"assetId": "a" * 64, "sourcePage": "wiki/sources/a-2.md",
                            "supersedesAssetId": "b" * 64,
                            "supersedesSourcePage": "wiki/sources/b.md",
                            "revertedAtUtc": CLOCKS[1]}]
    versions = source_versions(manifest)
    assert [(v.source_page, v.current) for v in versions if v.source_page] == [
        ("wiki/sources/a.md", False), ("wiki/sources/b.md", False),
        ("wiki/sources/a-2.md", True)]
    assert versions[-1].since == CLOCKS[1] and versions[-1].raw_path == "raw/a.md"


# --- the whole run --------------------------------------------------------------------------


def test_run_twice_over_raw_samples_with_changes_is_fresh(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    samples = tmp_path / "samples"
    shutil.copytree(REPO_ROOT / "raw-samples", samples)
    root = tmp_path / ".memories"
    monkeypatch.setenv("MEMBANK_FIXED_CLOCK", CLOCKS[0])
    first = run_flow(paths=[str(samples)], root=str(root))
    assert first.stages[-1].figures["health"] == "healthy"
    writer = samples / "notes/memory-writer.md"
    writer.write_text(writer.read_text(encoding="utf-8")
                      + "\n- [fact] The writer batches appends every second.\n", encoding="utf-8")
    queue = samples / "notes/components/task-queue.md"
    queue.write_text(queue.read_text(encoding="utf-8") + "\nA closing note.\n", encoding="utf-8")
    monkeypatch.setenv("MEMBANK_FIXED_CLOCK", CLOCKS[1])
    second = run_flow(paths=[str(samples)], root=str(root))
    ingested = next(stage for stage in second.stages if stage.mode == "ingest")
    assert ingested.figures["files_ingested"] == 2  # two new versions
    assert len([a for a in assets(root) if a.supersedesAssetId]) == 2
    freshness = second.stages[-1]
    assert freshness.mode == "audit" and freshness.figures["sources_changed"] == 0
    health = json.loads((root / "context/health/latest-freshness.json").read_text("utf-8"))
    assert (health["status"], health["findings"]) == ("healthy", [])
    assert second.stages[-1].figures["health"] == "healthy"


def test_a_revert_to_a_version_never_distilled_awaits_its_first_distill(
        root: Path, source: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A is replaced by B before any distill (A is recorded as skipped, never read), then A's
    bytes come back: the revert was never distilled, and one distill clears it."""
    other = source.with_name("other.md")  # distilled, so there is a distill state
    ingest(root, other, "# Other\n\n- [fact] Something else\n", CLOCKS[0], monkeypatch)
    ingest(root, source, VERSION_A, CLOCKS[0], monkeypatch, distill=False)
    ingest(root, source, VERSION_B, CLOCKS[1], monkeypatch)  # A skipped, B distilled
    ingest(root, source, VERSION_A, CLOCKS[2], monkeypatch, distill=False)
    [revert] = load_manifest(MemoryLayout(root).raw_manifest_file).reverts or []
    assert source_findings(audit(root, CLOCKS[3])) == [("source_not_distilled", revert.sourcePage)]
    distill(root, CLOCKS[3], monkeypatch)
    assert source_findings(audit(root, CLOCKS[4])) == []
