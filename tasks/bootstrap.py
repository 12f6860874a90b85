"""Bootstrap: create what is missing of the core tree; never overwrite what exists."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from schemas.common import name_key
from schemas.report import MemoryOperationReport, Problem
from tasks.store.atomic import ensure_folder
from tasks.store.catalog import CatalogEntry, hub_definition, update_hub, update_index
from tasks.store.errors import MembankError
from tasks.store.filememo import file_identity
from tasks.store.graph_order import entity_in_order, increasing, relation_key
from tasks.store.graph_store import (
    empty_graph,
    empty_manifest,
    empty_registry,
    load_graph,
    load_manifest,
    load_registry,
    save_graph,
    save_manifest,
    save_registry,
)
from tasks.store.graph_stream import GraphStream
from tasks.store.layout import CORE_FOLDERS, INDEX_FILE, PROJECT_CONTEXT_FILE, WIKI_HUBS, hub_path
from tasks.store.logbook import log_operation
from tasks.store.operation import Operation
from tasks.store.page_writes import write_page
from tasks.store.written import as_written, record_validated

# context/project.md as init leaves it: a historian record (the contract's three time keys
# only) that retrieve reads right after index.md; the team replaces the paragraph.
PROJECT_CONTEXT_BODY = (
    "# Project context\n\n"
    "What this project is, for the agents that read this memory before they plan: its goal, its\n"
    "users, the systems it runs on and the constraints every change must keep.\n"
)


def _ensure_context_file(
    operation: Operation,
    path: Path,
    load: Callable[[Path], object],
    create: Callable[[], bool],
    why: str,
) -> None:
    stage = operation.stage
    relative = operation.layout.relative(path)
    if path.exists():
        if as_written(path):  # validated when membank wrote it, and untouched since
            return
        try:
            load(path)
        except MembankError as exc:
            # A damaged file is reported, never overwritten: a person decides.
            stage.note_problem(
                Problem(file=relative, code="invalid_context_file", message=exc.cause,
                        hint="fix or restore the file from git; bootstrap will not overwrite it")
            )
        return
    create()
    stage.note_artifact(relative, why, "created")


def load_graph_bounded(path: Path) -> None:
    """Validate the graph one entity at a time (tasks.store.graph_stream), never whole.

    A copied or restored memory (`cp -a`, a backup) gives the graph a new inode; when the
    record of what membank wrote holds no sha256 for it (its last write patched entities in
    place), nothing vouches for the bytes and they are validated: whole, that took 3.77 GB at
    100,000 pages. Streamed, memory stays bounded by one entity. Valid and in the layout
    membank writes (entities and relations in order), it is recorded as validated, so the
    readers after bootstrap (distill, the search index) trust it again. A file in any other
    layout, or one that breaks the schema, is read whole by load_graph, which names the field."""
    identity = file_identity(path)
    stream = GraphStream(path, validate=True)
    in_order, last_key = True, None
    try:
        for entity in stream.entities():
            key = name_key(entity["entityName"])
            in_order = in_order and (last_key is None or last_key < key) and entity_in_order(entity)
            last_key = key
        frame = stream.frame
        if frame is not None and isinstance(frame.get("relations"), list):
            if in_order and increasing(relation_key(r) for r in frame["relations"]) \
                    and identity is not None and file_identity(path) == identity:
                record_validated(path, identity, stream.sha256)
            return
    except (ValueError, KeyError, TypeError, AttributeError):
        pass  # another layout or shape: the whole-file path says what is wrong
    load_graph(path)


def bootstrap_memory(operation: Operation) -> MemoryOperationReport:
    layout, stage, now = operation.layout, operation.stage, operation.now_iso
    for folder in CORE_FOLDERS:
        path = layout.root / folder
        if not path.is_dir():
            ensure_folder(path)
            stage.note_artifact(f"{folder}/", "core tree folder", "created")

    _ensure_context_file(operation, layout.graph_file, load_graph_bounded,
                         lambda: save_graph(layout.graph_file, empty_graph(now), now_iso=now),
                         "empty knowledge graph")
    _ensure_context_file(operation, layout.registry_file, load_registry,
                         lambda: save_registry(layout.registry_file, empty_registry(now), now_iso=now),
                         "empty entity registry")
    _ensure_context_file(operation, layout.raw_manifest_file, load_manifest,
                         lambda: save_manifest(layout.raw_manifest_file, empty_manifest(now), now_iso=now),
                         "empty raw store manifest")

    project = layout.root / PROJECT_CONTEXT_FILE
    if not project.exists():
        write_page(project, {}, PROJECT_CONTEXT_BODY, now_iso=now)
        stage.note_artifact(PROJECT_CONTEXT_FILE, "project context", "created")

    hub_entries = [CatalogEntry(PROJECT_CONTEXT_FILE, "Project context",
                                "What this project is; retrieve reads it after index.md.")]
    for folder, title, _overview in WIKI_HUBS:
        hub = hub_path(folder)
        if not (layout.root / hub).exists():
            update_hub(layout, hub, now_iso=now)
            stage.note_artifact(hub, f"{title} hub", "created")
        _folder, hub_title, hub_overview = hub_definition(hub)
        hub_entries.append(CatalogEntry(hub, hub_title, hub_overview))

    created = not layout.index_file.exists()
    try:
        write = update_index(layout, hub_entries, now_iso=now)
    except MembankError as exc:
        stage.note_problem(Problem(file=INDEX_FILE, code="invalid_index", message=exc.cause,
                                   hint="fix index.md or run `membank reconcile`"))
    else:
        if write.changed:
            stage.note_artifact(INDEX_FILE, "catalog of records",
                                "created" if created else "updated")

    health = stage.report.memory_health
    health.index_synced = not any(p.code == "invalid_index" for p in stage.problems)
    health.consistency_warnings = [p.one_line() for p in stage.problems]
    log_operation(layout, stage)
    return stage.finish()
