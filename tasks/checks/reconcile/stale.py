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

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from schemas.graph import STALE_OBSERVATIONS_KEY, GraphEntity, KnowledgeGraph
from schemas.health import Finding
from tasks.checks.facts import StaleSummary
from tasks.checks.scan import Scan, latest_distill_times
from tasks.health.findings import finding
from tasks.store.clock import parse_utc
from tasks.store.graph_segments import save_graph_stream
from tasks.store.graph_store import entity_as_saved, load_graph, rest_as_saved, save_graph
from tasks.store.graph_stream import GraphStream
from tasks.store.layout import GRAPH_FILE
from tasks.store.operation import Operation
from tasks.store.written import as_written

STALE_KEY = STALE_OBSERVATIONS_KEY
_DAY = 86_400.0


ProvenanceRow = tuple[str, str, str]  # (observation, sourcePage, rawAssetId)


def _last_confirmed(provenance: Iterable[ProvenanceRow], distilled: dict[str, str]
                    ) -> dict[str, str | None]:
    """Observation -> when a source of it was last distilled (None: never), for the active
    observations that have a provenance."""
    seen: dict[str, str | None] = {}
    for observation, source_page, raw_asset in provenance:
        text = observation.strip()
        moment = distilled.get(source_page) or distilled.get(raw_asset)
        best = seen.get(text)
        seen[text] = max(best or "", moment or "") or None
    return seen


@dataclass
class _Clock:
    """Now, the window, and which confirmation moments are within it (each parsed once)."""

    now_iso: str
    window_days: float
    fresh: dict[str, bool] = field(default_factory=dict)

    def within(self, moment: str) -> bool:
        if moment not in self.fresh:
            age = (parse_utc(self.now_iso) - parse_utc(moment)).total_seconds() / _DAY
            self.fresh[moment] = age <= self.window_days
        return self.fresh[moment]


def _marks(observations: Iterable[str], provenance: Iterable[ProvenanceRow], old_marks: Any,
           distilled: dict[str, str], clock: _Clock) -> list[dict[str, Any]]:
    """The marks an entity should carry now (existing ones keep their markedStaleAtUtc)."""
    old = {str(m.get("observation", "")).strip(): m for m in old_marks or ()
           if isinstance(m, dict)}
    confirmed = _last_confirmed(provenance, distilled)
    marks = []
    for text in dict.fromkeys(o.strip() for o in observations):
        if text not in confirmed:
            continue  # no provenance: no age to judge
        moment = confirmed[text]
        if moment is not None and clock.within(moment):
            continue
        since = old.get(text, {}).get("markedStaleAtUtc") or clock.now_iso
        marks.append({"observation": text, "markedStaleAtUtc": since, "lastConfirmedAtUtc": moment,
                      "reason": f"not confirmed by a distilled source within {clock.window_days:g} days"})
    return marks


def stale_marks(entity: GraphEntity, distilled: dict[str, str], now_iso: str,
                window_days: float) -> list[dict[str, Any]]:
    """The marks `entity` should carry now (existing ones keep their markedStaleAtUtc)."""
    return _marks(entity.observations,
                  ((p.observation, p.sourcePage, p.rawAssetId) for p in entity.observationProvenance),
                  (entity.model_extra or {}).get(STALE_KEY), distilled, _Clock(now_iso, window_days))


def _marks_moved(before: Any, marks: list[dict[str, Any]]) -> tuple[int, int]:
    """(observations newly marked, marks cleared) from an entity's marks before to `marks`."""
    old = {str(m.get("observation", "")).strip() for m in before or ()
           if isinstance(m, dict)}
    new = {m["observation"] for m in marks}
    return len(new - old), len(old - new)


def summary_changes(summary: StaleSummary, distilled: dict[str, str], now_iso: str,
                    window_days: float) -> tuple[int, int]:
    """mark_stale's counts from the scan's summary of the graph (graph_facts._add_stale): an
    observation is stale when the latest distill of its provenance rows is outside the window."""
    clock = _Clock(now_iso, window_days)
    marked = kept = 0
    for rows, (count, already) in summary["groups"].items():
        moment = max((distilled.get(page) or distilled.get(asset) or "" for page, asset in rows),
                     default="") or None
        if moment is not None and clock.within(moment):
            continue
        marked, kept = marked + count - already, kept + already
    return marked, summary["marked"] - kept


def streamed_changes(graph_file: Path, distilled: dict[str, str], now_iso: str,
                     window_days: float) -> tuple[int, int] | None:
    """mark_stale's counts for a graph file as membank wrote it, read entity by entity as
    plain dicts (tasks.store.graph_stream): no model, never the whole graph in memory. None
    when the file is not as membank wrote it."""
    if not as_written(graph_file):
        return None
    clock = _Clock(now_iso, window_days)
    marked = cleared = 0
    try:
        for entity in GraphStream(graph_file).entities():
            provenance = ((p["observation"], p["sourcePage"], p["rawAssetId"])
                          for p in entity.get("observationProvenance") or ())
            before = entity.get(STALE_KEY)
            moved = _marks_moved(before, _marks(entity.get("observations") or (), provenance,
                                                before, distilled, clock))
            marked, cleared = marked + moved[0], cleared + moved[1]
    except (ValueError, KeyError, TypeError, AttributeError):
        return None
    return marked, cleared


class _Unchanged(Exception):
    """Raised while a marked graph is being written, when no mark moved: the write is undone."""


@dataclass
class _StreamedMarks:
    """mark_stale over a graph file read entity by entity (tasks.store.graph_stream), each
    entity's plain dict in the shape save_graph writes, its marks set as mark_stale sets them."""

    stream: GraphStream
    distilled: dict[str, str]
    clock: _Clock
    marked: int = 0
    cleared: int = 0

    def entities(self) -> Iterator[dict[str, Any]]:
        for read in self.stream.entities():
            entity = entity_as_saved(read)
            provenance = ((p["observation"], p["sourcePage"], p["rawAssetId"])
                          for p in entity.get("observationProvenance") or ())
            before = entity.get(STALE_KEY)
            marks = _marks(entity["observations"], provenance, before, self.distilled, self.clock)
            moved = _marks_moved(before, marks)
            self.marked, self.cleared = self.marked + moved[0], self.cleared + moved[1]
            if marks:
                entity[STALE_KEY] = marks
            else:
                entity.pop(STALE_KEY, None)
            yield entity

    def rest(self) -> dict[str, Any]:
        if not (self.marked or self.cleared):
            raise _Unchanged
        if self.stream.frame is None:
            raise ValueError("the graph's rest was not read")
        return rest_as_saved(self.stream.frame)


def mark_stale_streamed(graph_file: Path, distilled: dict[str, str], now_iso: str,
                        window_days: float) -> tuple[int, int] | None:
    """mark_stale and save_graph for a graph file as membank wrote it, entity by entity: the
    same bytes, the file recorded as written with its spans (tasks.store.graph_segments),
    never the whole graph in memory. (0, 0) when no mark moved (nothing written); None when
    the file is not as membank wrote it (the caller takes the model path)."""
    if not as_written(graph_file):
        return None
    marking = _StreamedMarks(GraphStream(graph_file), distilled, _Clock(now_iso, window_days))
    try:
        save_graph_stream(graph_file, marking.entities(), marking.rest, now_iso=now_iso)
    except _Unchanged:
        return 0, 0
    return marking.marked, marking.cleared


def mark_stale(graph: KnowledgeGraph, distilled: dict[str, str], now_iso: str,
               window_days: float) -> tuple[int, int]:
    """Set every entity's marks in place; (observations newly marked, marks cleared)."""
    marked = cleared = 0
    for entity in graph.entities:
        extra = entity.model_extra if entity.model_extra is not None else {}
        marks = stale_marks(entity, distilled, now_iso, window_days)
        moved = _marks_moved(extra.get(STALE_KEY), marks)
        marked, cleared = marked + moved[0], cleared + moved[1]
        if marks:
            extra[STALE_KEY] = marks
        else:
            extra.pop(STALE_KEY, None)
    return marked, cleared


def _mark_streamed(graph_file: Path, distilled: dict[str, str], now_iso: str,
                   window_days: float) -> tuple[int, int] | None:
    """mark_stale_streamed; None (the model path) also when the file turns out, while read, not
    to have the layout membank writes (nothing was written then)."""
    try:
        return mark_stale_streamed(graph_file, distilled, now_iso, window_days)
    except (ValueError, KeyError, TypeError, AttributeError):
        return None


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
    summary = scan.transient.get(GRAPH_FILE, {}).get("stale")
    changes = (summary_changes(summary, distilled, operation.now_iso, window) if summary is not None
               else streamed_changes(layout.graph_file, distilled, operation.now_iso, window))
    if changes == (0, 0):
        return []  # mark_stale would change nothing: no model of the whole graph
    streamed = _mark_streamed(layout.graph_file, distilled, operation.now_iso, window)
    if streamed is not None:
        marked, cleared = streamed
        if not (marked or cleared):
            return []
    else:
        graph = load_graph(layout.graph_file)
        marked, cleared = mark_stale(graph, distilled, operation.now_iso, window)
        if not (marked or cleared) or not save_graph(layout.graph_file, graph, now_iso=operation.now_iso):
            return []
    why = (f"{marked} observation(s) marked stale ({STALE_KEY}; kept in observations), "
           f"{cleared} mark(s) cleared (confirmed again)")
    operation.stage.note_artifact(GRAPH_FILE, why)
    return [finding("repaired_observations_marked_stale", "info", GRAPH_FILE, why)]
