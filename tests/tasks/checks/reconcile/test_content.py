"""Reconcile reports what distill should never leave behind: entities without evidence, names
that start with markup, relation types outside the relation vocabulary."""

from __future__ import annotations

from pathlib import Path

from schemas.graph import GraphEntity, GraphRelation
from schemas.health import ENTITY_NAME_MARKUP, ENTITY_WITHOUT_EVIDENCE, RELATION_TYPE_UNKNOWN
from tasks.checks.reconcile import reconcile_memory
from tasks.store.graph_store import load_graph, save_graph
from tasks.store.layout import MemoryLayout
from tasks.store.operation import begin_operation
from tasks.store.settings import load_settings
from tests.memory_builder import NOW, build_healthy_memory


def check(root: Path):
    return reconcile_memory(begin_operation(load_settings(root, fixed_clock=NOW), "reconcile"),
                            check=True)[1]


def test_healthy_memory_has_none_of_these_findings(tmp_path: Path) -> None:
    root = tmp_path / ".memories"
    build_healthy_memory(root)
    summary = check(root)
    assert summary.status == "healthy", summary.findings
    found = {f.code for f in summary.findings}
    assert not found & {ENTITY_WITHOUT_EVIDENCE, ENTITY_NAME_MARKUP, RELATION_TYPE_UNKNOWN}


def test_empty_entities_markup_names_and_unknown_relation_types_are_reported(tmp_path: Path) -> None:
    root = tmp_path / ".memories"
    layout = build_healthy_memory(root)
    graph = load_graph(MemoryLayout(root).graph_file)
    graph.entities.append(GraphEntity(entityName="- Loose End", entityType="concept"))
    graph.relations += [
        GraphRelation(sourceEntityName="orchestrator", targetEntityName="planner",
                      relationType="the"),
        GraphRelation(sourceEntityName="orchestrator", targetEntityName="planner",
                      relationType="hands_work_to"),
    ]
    save_graph(layout.graph_file, graph, now_iso=NOW)
    summary = check(root)
    found = {(f.code, f.severity, f.message) for f in summary.findings
             if f.code in {ENTITY_WITHOUT_EVIDENCE, ENTITY_NAME_MARKUP, RELATION_TYPE_UNKNOWN}}
    assert found == {
        (ENTITY_WITHOUT_EVIDENCE, "warning", "entity '- Loose End' has no observation and no source"),
        (ENTITY_NAME_MARKUP, "warning",
         "entity name '- Loose End' starts with a list marker or heading punctuation"),
        (RELATION_TYPE_UNKNOWN, "warning",
         "relation type 'the' is not a verb of the relation vocabulary"),
        (RELATION_TYPE_UNKNOWN, "info",  # a deliberate snake_case verb: noted, not a problem
         "relation type 'hands_work_to' is not a verb of the relation vocabulary"),
    }
    assert summary.status != "healthy"
