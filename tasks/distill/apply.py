"""The single writer of distill, and the whole stage in one call.

    apply_distill    load the graph, registry and tombstones -> merge_extractions (pure) ->
                     write graph, entity pages, registry, candidates inbox, distill state, hub,
                     index.md and log.md, each file once
    distill_planned  extraction outcomes -> apply_distill -> search index, with the figures
    distill_memory   plan -> extract (via `extractor`) -> distill_planned

A run with nothing new reads only the manifest and the state and writes nothing.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

from schemas.distill_state import DistilledSource
from schemas.graph import entity_key
from schemas.report import MemoryOperationReport
from tasks.distill.candidates import merge_candidates
from tasks.distill.entity_pages import (
    EntityPageContext,
    EntityPageSet,
    PageJob,
    allocate_page_paths,
    plan_entity_pages,
)
from tasks.distill.merge import GraphMerge, MergeInputs, MergeResult, merge_extractions
from tasks.distill.plan import (
    DistillPlan,
    DistillSource,
    ExtractOutcome,
    batches,
    extract_serial,
    plan_distill,
    read_earlier_sources,
)
from tasks.distill.registry_rows import LoadedRegistry
from tasks.distill.resolve import Forgotten
from tasks.distill.state_rows import save_source_states
from tasks.extract import Extraction
from tasks.memstores.distill_hooks import merge_store_tombstones
from tasks.search.refresh import refresh_search_index
from tasks.store.atomic import StagedWrites, announce
from tasks.store.catalog import CatalogEntry, update_hub, update_index
from tasks.store.file_versions import graph_signature
from tasks.store.graph_segments import (
    GraphSegments,
    record_changes,
    save_graph_changes,
    save_graph_segments,
)
from tasks.store.graph_store import (
    empty_graph,
    graph_data,
    load_candidate_inbox,
    load_graph_data,
    load_tombstones,
    save_candidate_inbox,
    save_graph_data,
)
from tasks.store.layout import ENTITY_HUB, INDEX_FILE, MemoryLayout
from tasks.store.logbook import log_operation
from tasks.store.operation import Operation
from tasks.store.page_writes import stage_page
from tasks.store.report import StageFigures, StageReport

PAGE_WRITE_THREADS = 4  # threads creating the staged pages' temp files (syscall-bound)
# Read and write the graph by entity when distill wrote it last (tasks/store/graph_segments.py);
# False reads and writes all of it (tests compare the two: byte-identical results).
INCREMENTAL_GRAPH = True

Extractor = Callable[[list[list[DistillSource]]], list[ExtractOutcome]]


class DistillFigures(StageFigures):
    """What a distill run read and what the graph holds after it."""

    sources_read: int = 0
    entities: int | None = None
    observations: int | None = None
    observations_reinstated: int | None = None  # shown only when some were


class DistillTiming(StageFigures):
    """Where a distill run's time went (seconds) and its pace."""

    extract_seconds: float = 0.0
    merge_seconds: float = 0.0
    graph_write_seconds: float = 0.0
    write_seconds: float = 0.0
    sources_per_second: float = 0.0


def apply_distill(operation: Operation, plan: DistillPlan,
                  outcomes: Iterable[ExtractOutcome]) -> DistillTiming:
    """The single writer: merge every extraction, then write each file once; the time its
    merge and writes took."""
    layout, now, stage = operation.layout, operation.now_iso, operation.stage
    timing = DistillTiming()
    started = time.perf_counter()
    stage.note_problems(plan.problems)
    extractions = _extractions(stage, outcomes)
    previous = graph_signature(layout.graph_file, layout.registry_file)
    memory = _load_memory(operation, extractions)
    result = merge_extractions(memory, extractions, plan,
                               functools.partial(read_earlier_sources, layout, plan))
    # (kept for read_earlier_sources alone: ~15 MB at 100,000 pages)
    plan.manifest = plan.manifest_rows = None
    stage.report.graph_delta = result.merge.delta
    timing.merge_seconds = round(time.perf_counter() - started, 3)

    write_started = time.perf_counter()
    new_graph, figures = _write_graph(operation, result.merge)
    timing.graph_write_seconds = round(time.perf_counter() - write_started, 3)

    page_entries = _write_pages(operation, result, extractions, plan, new_graph)
    # (the resolver's entries are the loaded registry's: the merge changed them in place)
    wrote, search_changes = memory.registry.save(layout.registry_file, now_iso=now)
    if wrote is not None:  # (None: the file's bytes are what it would write)
        _artifact(stage, layout, layout.registry_file, wrote, "entity registry")
    if result.merge.segments is not None:  # for the search index: what this run changed
        record_changes(result.merge.segments, layout.registry_file, previous,
                       {*result.merge.touched, *search_changes})
    _write_candidates(operation, extractions, result)
    _write_state(operation, plan, extractions, result)
    _write_catalog(operation, page_entries)
    timing.write_seconds = round(time.perf_counter() - write_started, 3)

    figures.sources_read = len(extractions)
    figures.observations_reinstated = result.merge.reinstated or None
    stage.note_figures(figures)
    stage.report.memory_health.consistency_warnings = sorted(set(result.warnings))[:50]
    log_operation(operation.layout, stage)
    return timing


def _write_graph(operation: Operation, merge: GraphMerge) -> tuple[dict[str, Any], DistillFigures]:
    """Write the merged graph: only the touched entities' bytes when the merge read the file by
    entity (tasks/store/graph_segments.py), else all of it. The graph the entity pages are
    drawn from (the touched entities at least, every relation) and the graph's figures."""
    layout, now, stage = operation.layout, operation.now_iso, operation.stage
    segments = merge.segments
    if segments is not None:
        changed, rest = merge.changes()
        _artifact(stage, layout, layout.graph_file,
                  save_graph_changes(segments, changed, rest, now_iso=now), "knowledge graph")
        return {"entities": list(changed.values()), **rest}, DistillFigures(
            entities=len(segments.index.keys() | changed.keys()),
            observations=segments.observations(without=changed.keys())
            + sum(len(e["observations"]) for e in changed.values()))
    graph = merge.graph()
    wrote = save_graph_segments(layout.graph_file, graph, now_iso=now)
    if wrote is None:
        wrote = save_graph_data(layout.graph_file, graph, now_iso=now)
    _artifact(stage, layout, layout.graph_file, wrote, "knowledge graph")
    return graph, DistillFigures(entities=len(graph["entities"]),
                                 observations=sum(len(e["observations"]) for e in graph["entities"]))


def _extractions(stage: StageReport, outcomes: Iterable[ExtractOutcome]) -> list[Extraction]:
    """The extractions, in their `order` (stable: registries first); problems to the report."""
    extractions: list[Extraction] = []
    for outcome in outcomes:
        if outcome.problem is not None:
            stage.note_problem(outcome.problem)
        elif outcome.extraction is not None:
            extractions.append(outcome.extraction)
    extractions.sort(key=lambda extraction: extraction.order)
    return extractions


def _load_memory(operation: Operation, extractions: Sequence[Extraction]) -> MergeInputs:
    """Registry, graph and forgotten topics; the stores' tombstones are merged (and written)
    first, so what they forget is forgotten before anything is merged."""
    layout, now = operation.layout, operation.now_iso
    registry = LoadedRegistry.read(layout.registry_file, now)
    # (spans not recorded for a graph membank wrote: found by one streaming pass, not a whole
    # read: 1.9 GB and ~20 s at 100,000 pages)
    segments = ((GraphSegments.load(layout.graph_file) or GraphSegments.scan(layout.graph_file))
                if INCREMENTAL_GRAPH else None)
    if segments is not None:
        graph = segments.frame()  # entities are read as the merge asks (merge.LazyEntities)
    elif layout.graph_file.exists():
        graph = load_graph_data(layout.graph_file)
    else:
        graph = graph_data(empty_graph(now))
    if any(extraction.tombstones for extraction in extractions):
        tombstones = merge_store_tombstones(operation, extractions)
    else:
        tombstones = load_tombstones(layout.tombstones_file)
    return MergeInputs(graph, registry, Forgotten(tombstones), now, segments)


def _artifact(stage: StageReport, layout: MemoryLayout, path: Path, changed: bool, why: str
              ) -> None:
    if changed:
        stage.note_artifact(layout.relative(path), why)


def _write_pages(operation: Operation, result: MergeResult, extractions: Sequence[Extraction],
                 plan: DistillPlan, graph: dict[str, Any]) -> list[CatalogEntry]:
    """The pages of the entities the merge touched; their catalog entries."""
    merge, entries = result.merge, result.resolver.entries
    if not merge.touched:
        return []
    touched = sorted(merge.touched)
    page_of = allocate_page_paths(operation.layout, operation.prefix, entries, touched)
    titles: dict[str, str] = {}
    assets: dict[str, str] = {}
    for source_page, title, asset_id in plan.state.pages():
        titles[source_page] = title or ""
        assets[source_page] = asset_id
    for extraction in extractions:
        titles[extraction.source.source_page] = extraction.title
        assets[extraction.source.source_page] = extraction.source.asset_id
    jobs, problems = plan_entity_pages(
        operation.layout, touched, EntityPageSet(graph, entries, _subject_tags(result, extractions)),
        EntityPageContext(page_of, titles, assets))
    operation.stage.note_problems(problems)
    _write_page_jobs(operation, jobs)
    return [CatalogEntry(job.page, job.entity_name, f"{job.entity_type.replace('_', ' ')} entity")
            for job in jobs]


def _subject_tags(result: MergeResult, extractions: Sequence[Extraction]) -> dict[str, set[str]]:
    """Entity key -> the tags the sources whose subject it is give it."""
    tags: dict[str, set[str]] = {}
    for extraction in extractions:
        if extraction.subject is not None and extraction.subject.tags:
            entry = result.resolver.find(extraction.subject.ref.display)
            if entry is not None:
                tags.setdefault(entity_key(entry.canonicalName), set()).update(extraction.subject.tags)
    return tags


def _write_page_jobs(operation: Operation, jobs: Sequence[PageJob]) -> None:
    """Every changed page staged beside its target (re-parsed), then one filesystem sync, the
    renames and one fsync of the folder (StagedWrites), not two fsyncs per page; a failure
    removes what was staged. Results in job order, so the report is deterministic."""
    now = operation.now_iso
    announce([job.path for job in jobs])  # one journal record for every page (tasks/store/journal.py)
    with StagedWrites(PAGE_WRITE_THREADS, replacing=True) as staged:
        try:
            written = [stage_page(staged, job.path, job.meta, job.body, now_iso=now)
                       for job in jobs]
            staged.commit()
        except BaseException:
            staged.discard()
            raise
    for job, result in zip(jobs, written, strict=True):
        if result.changed:
            operation.stage.note_artifact(job.page, f"entity page of {job.entity_name}",
                                          "created" if result.created else "updated")


def _write_candidates(operation: Operation, extractions: Sequence[Extraction],
                      result: MergeResult) -> None:
    layout, now = operation.layout, operation.now_iso
    inbox = merge_candidates(load_candidate_inbox(layout.candidates_file, now), extractions,
                             result.resolver, result.resolver.forgotten)
    if save_candidate_inbox(layout.candidates_file, inbox, now_iso=now):
        operation.stage.note_artifact(layout.relative(layout.candidates_file),
                                      "candidates inbox (weaker guesses)")


def _write_state(operation: Operation, plan: DistillPlan, extractions: Sequence[Extraction],
                 result: MergeResult) -> None:
    layout, now, unresolved = operation.layout, operation.now_iso, result.unresolved
    state = plan.state.copy()
    for asset_id, entry in plan.state.having("pendingRecordLinks"):  # links that resolved this run
        if asset_id not in unresolved:
            state.put(entry.model_copy(update={"pendingRecordLinks": None}))
    for extraction in extractions:
        source = extraction.source
        old = state.get(source.asset_id)
        document_key, document_entity = result.documents.get(source.asset_id, (None, None))
        entry_entity, entry_keys = result.entry_keys.get(source.asset_id, (None, ()))
        state.put(DistilledSource(
            assetId=source.asset_id,
            sourcePage=source.source_page,
            distilledAtUtc=old.distilledAtUtc if old and old.sourcePage == source.source_page else now,
            title=extraction.title,
            documentKey=document_key,
            documentEntity=document_entity,
            entryKeys=list(entry_keys) or None,
            entryEntity=entry_entity,
        ))
    for asset_id, links in unresolved.items():
        if asset_id in state:
            state.put(state[asset_id].model_copy(update={"pendingRecordLinks": links.as_json()}))
    for skipped, replaced_by in plan.skipped:
        if skipped.assetId not in state:
            state.put(DistilledSource(
                assetId=skipped.assetId, sourcePage=skipped.sourcePage or "",
                distilledAtUtc=now, supersededByAssetId=replaced_by))
    if save_source_states(layout.distill_state_file, state, plan.state_stamp or now, now_iso=now):
        operation.stage.note_artifact(layout.relative(layout.distill_state_file),
                                      "which sources are distilled")


def _write_catalog(operation: Operation, page_entries: Sequence[CatalogEntry]) -> None:
    """The entities hub and index.md list the entity pages written."""
    if not page_entries:
        return
    layout, now, stage = operation.layout, operation.now_iso, operation.stage
    if update_hub(layout, ENTITY_HUB, list(page_entries), now_iso=now).changed:
        stage.note_artifact(ENTITY_HUB, "entities hub")
    if update_index(layout, list(page_entries), now_iso=now).changed:
        stage.note_artifact(INDEX_FILE, "catalog of records")


# --------------------------------------------------------------------------- one call


def nothing_to_distill(stage: StageReport, plan: DistillPlan) -> MemoryOperationReport:
    """The report of a run whose plan is empty: its problems, nothing read, nothing written."""
    stage.note_problems(plan.problems)
    stage.note_figures(DistillFigures(sources_read=0))
    return stage.finish()


def distill_planned(operation: Operation, plan: DistillPlan, outcomes: Iterable[ExtractOutcome],
                    started: float) -> MemoryOperationReport:
    """Apply the outcomes of extracting `plan.to_read` (drawn here, e.g. from futures) and
    refresh the search index; `started` is when planning began, for the figures."""
    drawn = list(outcomes)
    extract_seconds = time.perf_counter() - started
    timing = apply_distill(operation, plan, drawn)
    refresh_search_index(operation)
    total = time.perf_counter() - started
    timing.extract_seconds = round(extract_seconds, 3)
    timing.sources_per_second = round(len(plan.to_read) / total, 1) if total else 0
    operation.stage.note_figures(timing)
    return operation.stage.finish()


def distill_memory(
    operation: Operation,
    *,
    reread_all: bool = False,
    extractor: Extractor = extract_serial,
    batch_size: int = 200,
) -> MemoryOperationReport:
    """plan -> extract (via `extractor`) -> apply. Nothing new: no write."""
    started = time.perf_counter()
    plan = plan_distill(operation.layout, reread_all=reread_all)
    if plan.empty:
        return nothing_to_distill(operation.stage, plan)
    return distill_planned(operation, plan, extractor(batches(plan.to_read, batch_size)), started)
