"""Stale facts are marked, never deleted (spec/memory-bank.md, reconcile: "Mark stale/conflicting
facts"; issue 25 item 8).

An active observation whose sources (its observationProvenance) were last distilled longer ago
than the freshness window (MEMBANK_FRESHNESS_OBSERVATION_WINDOW_DAYS), or never, is what the
freshness audit reports as `stale_observation`. Reconcile's repair run marks it in the graph:
the entity's extension key STALE_KEY lists {observation, markedStaleAtUtc, lastConfirmedAtUtc,
reason}; the observation stays in `observations`, word for word. A mark goes when its
observation is confirmed again (a distill of one of its sources within the window) or is no
longer active. An observation with no provenance at all (added by hand) has no age: the audit
reports it, nothing marks it.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import Any

from schemas.graph import STALE_OBSERVATIONS_KEY, GraphEntity, KnowledgeGraph
from schemas.health import Finding
from tasks.checks.graph_stream import graph_entities
from tasks.checks.scan import Scan, latest_distill_times
from tasks.health.findings import finding
from tasks.store.clock import parse_utc
from tasks.store.graph_store import load_graph, save_graph
from tasks.store.layout import GRAPH_FILE
from tasks.store.operation import Operation

STALE_KEY = STALE_OBSERVATIONS_KEY
_DAY = 86_400.0


def _last_confirmed(entity: GraphEntity, distilled: dict[str, str]) -> dict[str, str | None]:
    """Observation -> when a source of it was last distilled (None: never), for the active
    observations that have a provenance."""
    seen: dict[str, str | None] = {}
    for prov in entity.observationProvenance:
        text = prov.observation.strip()
        moment = distilled.get(prov.sourcePage) or distilled.get(prov.rawAssetId)
        best = seen.get(text)
        seen[text] = max(best or "", moment or "") or None
    return seen


def stale_marks(entity: GraphEntity, distilled: dict[str, str], now_iso: str,
                window_days: float) -> list[dict[str, Any]]:
    """The marks `entity` should carry now (existing ones keep their markedStaleAtUtc)."""
    now: datetime = parse_utc(now_iso)
    old = {str(m.get("observation", "")).strip(): m for m in (entity.model_extra or {}).get(STALE_KEY) or ()
           if isinstance(m, dict)}
    confirmed = _last_confirmed(entity, distilled)
    marks = []
    for text in dict.fromkeys(o.strip() for o in entity.observations):
        if text not in confirmed:
            continue  # no provenance: no age to judge
        moment = confirmed[text]
        if moment is not None and (now - parse_utc(moment)).total_seconds() / _DAY <= window_days:
            continue
        since = old.get(text, {}).get("markedStaleAtUtc") or now_iso
        marks.append({"observation": text, "markedStaleAtUtc": since, "lastConfirmedAtUtc": moment,
                      "reason": f"not confirmed by a distilled source within {window_days:g} days"})
    return marks


def mark_stale(graph: KnowledgeGraph, distilled: dict[str, str], now_iso: str,
               window_days: float) -> tuple[int, int]:
    """Set every entity's marks in place; (observations newly marked, marks cleared)."""
    marked = cleared = 0
    for entity in graph.entities:
        extra = entity.model_extra if entity.model_extra is not None else {}
        before = {str(m.get("observation", "")).strip() for m in extra.get(STALE_KEY) or ()
                  if isinstance(m, dict)}
        marks = stale_marks(entity, distilled, now_iso, window_days)
        after = {m["observation"] for m in marks}
        marked += len(after - before)
        cleared += len(before - after)
        if marks:
            extra[STALE_KEY] = marks
        else:
            extra.pop(STALE_KEY, None)
    return marked, cleared


def _marked_texts(entity: dict[str, Any], distilled: dict[str, str], now: datetime,
                  window_days: float) -> set[str]:
    """stale_marks' observations, on an entity's plain JSON shape."""
    confirmed: dict[str, str | None] = {}
    for prov in entity.get("observationProvenance") or ():
        text = str(prov["observation"]).strip()
        moment = distilled.get(prov["sourcePage"]) or distilled.get(prov["rawAssetId"])
        confirmed[text] = max(confirmed.get(text) or "", moment or "") or None
    marked = set()
    for text in {str(o).strip() for o in entity.get("observations") or ()}:
        if text not in confirmed:
            continue
        moment = confirmed[text]
        if moment is None or (now - parse_utc(moment)).total_seconds() / _DAY > window_days:
            marked.add(text)
    return marked


def _nothing_to_change(graph_file: Path, distilled: dict[str, str], now_iso: str,
                       window_days: float) -> bool:
    """True when mark_stale would mark and clear nothing, judged on the plain JSON of a graph
    membank wrote (entity by entity when its spans are recorded): no model of a million
    observations for a repair run that changes no mark. False when unsure (the models decide)."""
    try:
        entities = graph_entities(graph_file)
        if entities is None:
            return False
        now = parse_utc(now_iso)
        for entity in entities:
            before = {str(m.get("observation", "")).strip() for m in entity.get(STALE_KEY) or ()
                      if isinstance(m, dict)}
            if _marked_texts(entity, distilled, now, window_days) != before:
                return False
    except (OSError, ValueError, TypeError, KeyError, AttributeError):
        return False
    return True


def apply_stale_marks(operation: Operation, scan: Scan) -> list[Finding]:
    """Reconcile's repair run: mark (and unmark) stale observations in the graph; an info
    finding per change made. Reads the graph only when something can be stale or is marked."""
    graph_facts, layout = scan.graph(), operation.layout
    if graph_facts is None or not layout.graph_file.exists():
        return []
    distilled = latest_distill_times(scan.distill_state())
    window = operation.settings.freshness_observation_window_days
    now = parse_utc(operation.now_iso)
    oldest = min(distilled.values(), default=None)
    may_be_stale = oldest is None or (now - parse_utc(oldest)).total_seconds() / _DAY > window
    if not may_be_stale and not graph_facts.get("stale_marked"):
        return []
    if _nothing_to_change(layout.graph_file, distilled, operation.now_iso, window):
        return []
    graph = load_graph(layout.graph_file)
    marked, cleared = mark_stale(graph, distilled, operation.now_iso, window)
    if not (marked or cleared) or not save_graph(layout.graph_file, graph, now_iso=operation.now_iso):
        return []
    why = (f"{marked} observation(s) marked stale ({STALE_KEY}; kept in observations), "
           f"{cleared} mark(s) cleared (confirmed again)")
    operation.stage.note_artifact(GRAPH_FILE, why)
    return [finding("repaired_observations_marked_stale", "info", GRAPH_FILE, why)]
