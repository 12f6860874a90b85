"""Freshness audit with the fixed clock: ages, hubsByRecent, thresholds, sources, observations."""

from __future__ import annotations

import os
from pathlib import Path

import orjson
import pytest

from tasks.checks.freshness import freshness_audit
from tasks.store.graph_store import load_graph, save_graph
from tasks.store.jsonc import dumps_json
from tasks.store.operation import begin_operation
from tasks.store.pages import read_page, render_page
from tasks.store.settings import load_settings
from tests.memory_builder import (
    CONCEPT,
    EARLIER,
    NOW,
    PLANNER,
    RAW,
    SOURCE,
    build_healthy_memory,
    snapshot,
)


def audit(root: Path, now: str = NOW, **overrides: float):
    settings = load_settings(root, fixed_clock=now, **overrides)
    return freshness_audit(begin_operation(settings, "audit"))


def codes(summary) -> set[str]:
    return {f.code for f in summary.findings}


@pytest.fixture
def memory(tmp_path: Path) -> Path:
    root = tmp_path / "memory"
    build_healthy_memory(root)
    return root


def touch_page(root: Path, rel: str, when: str) -> None:
    page = read_page(root / rel)
    (root / rel).write_text(render_page({**page.meta, "updated_at": when}, page.body))


def test_fresh_memory_is_healthy_and_ages_come_from_updated_at(memory: Path) -> None:
    _report, summary = audit(memory, freshness_stale_hub_days=100)
    assert summary.status == "healthy", summary.findings
    _report, default = audit(memory)  # 30-day hub threshold: every hub is 74 days quiet
    assert {f.code for f in default.findings} == {"stale_hub"}
    ages = {p.path: p.age_days for p in summary.freshness.pages}
    # EARLIER (2026-01-10T08:00:00Z) to NOW (2026-03-24T22:40:05Z)
    assert ages[CONCEPT] == pytest.approx(73.611, abs=0.001)
    assert summary.freshness.pages[0].age_days >= summary.freshness.pages[-1].age_days


def test_hubs_by_recent_uses_subtree_freshness(memory: Path) -> None:
    touch_page(memory, PLANNER, "2026-03-20T00:00:00Z")
    touch_page(memory, CONCEPT, "2026-03-10T00:00:00Z")
    _report, summary = audit(memory)
    rows = summary.freshness.hubs_by_recent
    assert [r.path for r in rows][:2] == ["wiki/entities/index.md", "wiki/concepts/index.md"]
    entities = rows[0]
    assert entities.subtree_updated_at == "2026-03-20T00:00:00Z"
    assert entities.freshest_path == PLANNER
    assert entities.updated_at == EARLIER  # the hub row itself is older than its child
    assert entities.children == 2


def test_stale_pages_and_hubs_past_thresholds(memory: Path) -> None:
    touch_page(memory, PLANNER, "2026-03-20T00:00:00Z")
    _report, summary = audit(memory, freshness_stale_page_days=30, freshness_stale_hub_days=10)
    stale_pages = {f.path for f in summary.findings if f.code == "stale_page"}
    assert CONCEPT in stale_pages and PLANNER not in stale_pages
    assert "wiki/entities/index.md" not in stale_pages  # hubs are judged by subtree
    stale_hubs = {f.path for f in summary.findings if f.code == "stale_hub"}
    assert "wiki/concepts/index.md" in stale_hubs
    assert "wiki/entities/index.md" not in stale_hubs
    assert summary.counts.stale_pages == len(stale_pages)
    assert summary.status == "degraded"
    _report, relaxed = audit(memory, freshness_stale_page_days=365, freshness_stale_hub_days=365)
    assert "stale_page" not in codes(relaxed) and "stale_hub" not in codes(relaxed)


def test_raw_asset_changed(memory: Path) -> None:
    os.chmod(memory / RAW, 0o644)
    (memory / RAW).write_bytes(b"changed\n")
    _report, summary = audit(memory)
    assert "raw_changed" in codes(summary)
    assert summary.counts.sources_changed == 1
    assert summary.status == "failing"


def test_distill_older_than_source(memory: Path) -> None:
    state_path = memory / "context/distill-state.jsonc"
    state = orjson.loads(state_path.read_bytes())
    manifest = orjson.loads((memory / "context/raw-manifest.jsonc").read_bytes())
    ingested = manifest["assets"][0]["ingestedAtUtc"]
    state["sources"] = [{**s, "distilledAtUtc": "2025-01-01T00:00:00Z"} for s in state["sources"]]
    state_path.write_text(dumps_json(state))
    _report, summary = audit(memory)
    hit = [f for f in summary.findings if f.code == "distill_older_than_source"]
    assert hit and hit[0].path == SOURCE and f"source changed at {ingested}" in hit[0].message
    state["sources"] = []
    state_path.write_text(dumps_json(state))
    _report, summary = audit(memory)
    assert "source_not_distilled" in codes(summary)


def test_a_later_write_of_the_source_page_is_not_a_source_change(memory: Path) -> None:
    """Distill reads the raw file: a hand edit or a reconcile repair of the source page after
    the distill changes nothing it would read, and a warning for it could never clear."""
    touch_page(memory, SOURCE, "2026-02-01T00:00:00Z")
    _report, summary = audit(memory)
    assert not codes(summary) & {"distill_older_than_source", "source_not_distilled"}
    assert summary.counts.sources_changed == 0


def test_observations_confirmed_within_window(memory: Path) -> None:
    _report, summary = audit(memory, freshness_observation_window_days=30)
    assert summary.counts.stale_observations == 3  # distilled 73 days before NOW
    _report, summary = audit(memory, freshness_observation_window_days=100)
    assert summary.counts.stale_observations == 0
    graph = load_graph(memory / "context/knowledge-graph.index.jsonc")
    graph.entities[1].observations.append("Has no provenance")
    save_graph(memory / "context/knowledge-graph.index.jsonc", graph, now_iso=NOW)
    _report, summary = audit(memory, freshness_observation_window_days=100)
    assert summary.counts.stale_observations == 1
    hit = [f for f in summary.findings if f.code == "stale_observation"]
    assert "planner" in hit[0].message and "Has no provenance" in hit[0].message


def test_audit_writes_nothing(memory: Path) -> None:
    before = snapshot(memory, skip=())
    audit(memory, freshness_stale_page_days=1)
    assert snapshot(memory, skip=()) == before


def test_missing_graph_is_a_finding(memory: Path) -> None:
    (memory / "context/knowledge-graph.index.jsonc").unlink()
    _report, summary = audit(memory)
    assert "graph_unavailable" in codes(summary)


# --- the checks as plain functions -----------------------------------------------------------


def test_stale_pages_skip_catalogs_and_history_and_count_only_past_the_threshold() -> None:
    from tasks.checks.freshness import DatedPage, check_stale_pages

    pages = {
        "wiki/concepts/old.md": DatedPage("concept", EARLIER, 40.0, []),
        "wiki/concepts/new.md": DatedPage("concept", NOW, 1.0, []),
        "wiki/concepts/index.md": DatedPage("hub", EARLIER, 40.0, []),
        "index.md": DatedPage(None, EARLIER, 40.0, []),
        "wiki/concepts/replaced.md": DatedPage("concept", EARLIER, 40.0, [], superseded=True),
    }
    assert [f.path for f in check_stale_pages(pages, 30)] == ["wiki/concepts/old.md"]
    assert check_stale_pages(pages, 40) == []  # strictly older than the threshold


def test_hub_freshness_spreads_the_newest_direct_child(memory: Path) -> None:
    from tasks.checks.freshness import DatedPage, check_stale_hubs, hub_freshness
    from tasks.checks.scan import scan_memory
    from tasks.store.clock import parse_utc

    hub = "wiki/concepts/index.md"
    pages = {
        hub: DatedPage("hub", EARLIER, 73.6, []),
        CONCEPT: DatedPage("concept", "2026-03-20T00:00:00Z", 4.9, ["wiki/concepts"]),
        "wiki/concepts/other.md": DatedPage("concept", "2026-03-01T00:00:00Z", 23.9, [hub]),
    }
    (row,) = hub_freshness(scan_memory(memory), pages, parse_utc(NOW))
    assert (row.path, row.freshest_path, row.children) == (hub, CONCEPT, 2)
    assert row.subtree_updated_at == "2026-03-20T00:00:00Z" and row.age_days < 5
    assert check_stale_hubs([row], 5) == [] and len(check_stale_hubs([row], 4)) == 1


def test_observations_need_a_distilled_source_within_the_window() -> None:
    from schemas.graph import GraphEntity, ObservationProvenance
    from tasks.checks.freshness import check_observations
    from tasks.store.clock import parse_utc

    entity = GraphEntity(
        entityName="planner", entityType="component", observations=["confirmed", "orphan fact"],
        observationProvenance=[ObservationProvenance(
            observation="confirmed", sourcePage=SOURCE, rawAssetId="a" * 64, lineStart=1,
            lineEnd=1)])
    now = parse_utc(NOW)
    findings, count = check_observations([entity], {SOURCE: "2026-03-20T00:00:00Z"}, now, 10)
    assert count == 1 and "orphan fact" in findings[0].message
    findings, count = check_observations([entity], {SOURCE: EARLIER}, now, 10)
    assert count == 2 and len(findings) == 1  # one finding per entity


@pytest.mark.parametrize("text", ["{ not json", '{"sources": []}'])
def test_an_unreadable_distill_state_is_an_error_naming_it(memory: Path, text: str) -> None:
    (memory / "context/distill-state.jsonc").write_text(text)
    _report, summary = audit(memory)
    hit = [f for f in summary.findings if f.code == "invalid_context_file"]
    assert [f.path for f in hit] == ["context/distill-state.jsonc"]
    assert hit[0].severity == "error" and hit[0].message and hit[0].hint
    assert summary.status == "failing"
