"""The stages stand on floors (issue 27): a shipped module imports only from its own package and
from the floors below it: schemas/ at the bottom, then the markdown and store layers, then the
stages others build on, up to flows/ and deployments/. Two packages on one floor do not know
each other. Every import counts, function-level and TYPE_CHECKING ones included
(tests/import_graph.py). The store layer's own, stricter rule: tests/tasks/store/test_layering.py.
"""

from __future__ import annotations

from collections.abc import Mapping

import pytest

from tests.import_graph import import_graph, shipped_module_files

# Lowest first. A new package or loose module of tasks/ gets a place here.
FLOORS: tuple[tuple[str, ...], ...] = (
    ("schemas",),
    ("tasks", "tasks.markdown", "tasks.record_dates",
     "tasks.privacy.context", "tasks.privacy.keyblocks", "tasks.privacy.triggers"),  # text in, no store
    # The secrets detector is text in as well (the stores' audit uses it).
    ("tasks.store", "tasks.privacy.detect"),
    ("tasks.extract", "tasks.bootstrap", "tasks.json_schemas"),
    ("tasks.memstores",),  # other teams' stores, read with extract's model
    ("tasks.search",),
    ("tasks.health", "tasks.distill"),  # health: findings, summaries, history, dashboard
    ("tasks.privacy", "tasks.checks"),  # the scan, reconcile's gates, freshness
    ("tasks.ingest", "tasks.proposals"),
    ("flows",),
    ("deployments", "membank"),
)
# An import up a floor, with why: (importer, imported).
UPWARD: dict[tuple[str, str], str] = {
    ("flows.cli.stages", "deployments.serve"): "`membank serve` starts the deployments",
}


def floor_of(module: str) -> tuple[int, str]:
    """(floor, unit): the unit is the longest FLOORS name that is `module` or its package
    ("tasks" names tasks/__init__.py alone: each part of tasks/ has a floor of its own)."""
    matches = [(len(unit), floor, unit) for floor, units in enumerate(FLOORS) for unit in units
               if module == unit or (unit != "tasks" and module.startswith(f"{unit}."))]
    if not matches:
        raise AssertionError(f"{module} stands on no floor: give its package a place in FLOORS")
    _length, floor, unit = max(matches)
    return floor, unit


def layering_violations(graph: Mapping[str, set[str]]) -> list[str]:
    found = []
    for module, imported in sorted(graph.items()):
        floor, unit = floor_of(module)
        for target in sorted(imported):
            target_floor, target_unit = floor_of(target)
            if target_unit != unit and target_floor >= floor and (module, target) not in UPWARD:
                found.append(f"{module} (floor {floor}) imports {target} (floor {target_floor})")
    return found


def test_every_module_imports_only_the_floors_below_it() -> None:
    graph = import_graph(shipped_module_files())
    assert len(graph) > 150
    assert layering_violations(graph) == []


def test_the_check_sees_a_stage_importing_sideways_or_up() -> None:
    graph = {"tasks.search.index": {"tasks.search.query", "tasks.store.atomic", "tasks.checks.scan"},
             "tasks.store.atomic": {"tasks.health"},
             "flows.cli.stages": {"deployments.serve"}}
    with pytest.raises(AssertionError, match="tasks.novel stands on no floor"):
        floor_of("tasks.novel")
    assert layering_violations(graph) == [
        "tasks.search.index (floor 5) imports tasks.checks.scan (floor 7)",
        "tasks.store.atomic (floor 2) imports tasks.health (floor 6)",
    ]
