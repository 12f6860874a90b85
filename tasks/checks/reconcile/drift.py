"""Entity pages and the graph agree (spec/memory-bank.md, reconcile: "validate consistency
between records and graph"): an entity page shows the observations and relations the graph
holds for its entity, no more, no fewer (tasks/checks/entity_rows.py). A page edited by hand, or a
graph edited by hand (a relation deleted), is `entity_page_drift`; the repair renders the page
again from the graph (what a person deleted from the graph is also `fact_erased`)."""

from __future__ import annotations

from collections.abc import Sequence

from schemas.graph import entity_key
from schemas.health import Finding
from tasks.checks.entity_rows import differences, graph_rows, page_rows
from tasks.checks.reconcile.context import GateContext
from tasks.checks.reconcile.repairs import Repair, RerenderEntityPage
from tasks.checks.scan import Scan
from tasks.health.findings import finding
from tasks.store.errors import MembankError
from tasks.store.graph_store import load_graph
from tasks.store.layout import GRAPH_FILE
from tasks.store.pages import read_page

GateResult = tuple[Sequence[Finding], Sequence[Repair]]  # (as tasks/checks/reconcile/gates.py)


def _drifted(scan: Scan, context: GateContext) -> list[tuple[str, str]]:
    """(page, entity name) of each entity page whose rows' digest is not the graph's."""
    held = context.graph.get("entity_rows", {}) if context.graph is not None else {}
    drifted = []
    recheck = context.entity_recheck  # right after an ingest: the changed pages (entity_recheck.py)
    for rel in context.pages if recheck is None else recheck.pages:
        if context.page_types.get(rel) != "entity":
            continue
        facts = scan.page(rel)
        name = facts["meta"].get("entity_name") or facts["meta"].get("title")
        shown = facts.get("shown")
        if not isinstance(name, str) or shown is None:
            continue
        expected = held.get(entity_key(name))
        if expected is not None and expected != shown:  # (no graph entity: its own finding)
            drifted.append((rel, name))
    return drifted


def _clip(rows: list[str]) -> str:
    shown = "; ".join(repr(r.replace("out|", "").replace("in|", "from ").replace("|", " "))
                      for r in rows[:2])
    return shown + ("; ..." if len(rows) > 2 else "")


def _detail(scan: Scan, rel: str, name: str, held: dict[str, tuple[list[str], list[str]]]) -> str:
    try:
        rows = page_rows(read_page(scan.root / rel).body)
    except (OSError, MembankError):
        return "its observations or relations differ from the graph"
    expected = held.get(entity_key(name), ([], []))
    if rows is None:
        return "its observations or relations differ from the graph"
    extra, missing = differences(rows[0] + rows[1], expected[0] + expected[1])
    parts = []
    if extra:
        parts.append(f"the page shows {len(extra)} row(s) the graph does not hold ({_clip(extra)})")
    if missing:
        parts.append(f"it lacks {len(missing)} the graph holds ({_clip(missing)})")
    return ", ".join(parts) or "its rows are in another order or repeated"


def check_entity_drift(scan: Scan, context: GateContext) -> GateResult:
    """Each entity page shows exactly its entity's observations and relations in the graph."""
    drifted = _drifted(scan, context)
    if not drifted:
        if context.graph is not None:
            context.gates_in_step.add("entity_drift")
        return (), ()
    try:
        held = graph_rows(load_graph(scan.root / GRAPH_FILE))
    except (OSError, MembankError):
        held = {}
    findings: list[Finding] = [finding(
        "entity_page_drift", "warning", rel,
        f"entity page of {name!r} and the graph disagree: {_detail(scan, rel, name, held)}",
        "the graph holds the facts: reconcile renders the page's Observations and Relations "
        "again from it (sections you added are kept); state a changed fact in a source")
        for rel, name in drifted]
    repairs: list[Repair] = [RerenderEntityPage(name) for _rel, name in drifted]
    return findings, repairs
