"""The single ingest writer: dedupe, name, write raw + pages, supersede older versions, revert,
manifest, hub, index, log."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import suppress
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from schemas.common import PREFIX_PATTERN
from schemas.raw_manifest import RawAsset, RevertEvent
from schemas.report import ArtifactRecord, MemoryOperationReport, Problem
from tasks.ingest.inputs import make_problem
from tasks.ingest.model import IngestFigures, PreparedSource, StoredSource
from tasks.ingest.prepare import prepare_batch
from tasks.ingest.source_pages import (
    SourceNames,
    render_index_page,
    render_shard_page,
    render_source_page,
    shard_meta,
)
from tasks.privacy.gate import forgotten_asset_ids
from tasks.search.refresh import refresh_search_index
from tasks.store.atomic import StagedWrites, check_real_folder
from tasks.store.catalog import CatalogEntry, update_hub, update_index
from tasks.store.errors import InputError, LockTimeoutError, MembankError
from tasks.store.folder_slugs import FolderSlugs
from tasks.store.graph_store import empty_manifest, load_manifest
from tasks.store.held_models import Row
from tasks.store.journal import pending_batch
from tasks.store.layout import INDEX_FILE, MANIFEST_FILE, SOURCES_HUB, MemoryLayout
from tasks.store.logbook import log_operation
from tasks.store.manifest_rows import AssetIndex, WriterManifest, read_rows
from tasks.store.names import in_shards
from tasks.store.operation import Operation, reading_operation
from tasks.store.page_writes import write_page
from tasks.store.pages import read_page
from tasks.store.settings import MembankSettings
from tasks.store.versions import current_of_reverted, reinstated

if TYPE_CHECKING:
    from concurrent.futures import Executor

_NAME_RE = re.compile(rf"^{PREFIX_PATTERN}__(?P<slug>[a-z0-9][a-z0-9-]*)\.[a-z0-9]+$")
# Threads creating the writer's staged files while it renders the next source (see StagedWrites).
_STAGE_IO_THREADS = 4


def in_input_order(count: int, stored: Mapping[int, StoredSource],
                   prepared: Iterable[PreparedSource | Problem]
                   ) -> Iterator[PreparedSource | StoredSource | Problem]:
    """The stored sources at their positions among the prepared results of the others (one
    result per input, in input order), so the writer applies all in input order."""
    rest = iter(prepared)
    for position in range(count):
        yield stored[position] if position in stored else next(rest)


@dataclass(frozen=True)
class WriterStep:
    """What one writer step applies: `count` results in input order, the stored sources at
    their offsets among them and one prepared batch's results (in order) filling the rest."""

    count: int
    stored: dict[int, StoredSource]

    def results(self, prepared: Iterable[PreparedSource | Problem]
                ) -> Iterator[PreparedSource | StoredSource | Problem]:
        return in_input_order(self.count, self.stored, prepared)


def plan_writer_steps(count: int, stored: Mapping[int, StoredSource],
                      batch_sizes: Sequence[int]) -> list[WriterStep]:
    """One step per prepared batch (one step when there is none to prepare), so the steps in
    turn apply the `count` inputs in input order: step k takes batch k's results and the
    stored sources met before batch k+1's first input (the first step also those before its
    own; the last one every stored source left)."""
    steps: list[WriterStep] = []
    position = 0
    for size in batch_sizes or [0]:
        start, taken = position, 0
        while position < count and (taken < size or position in stored):
            taken += position not in stored
            position += 1
        steps.append(WriterStep(position - start, {
            offset: stored[start + offset] for offset in range(position - start)
            if start + offset in stored}))
    if position != count:
        raise ValueError(f"the batches hold {count - len(stored)} inputs, not {sum(batch_sizes)}")
    return steps


# --------------------------------------------------------------------------------------------
# The single writer


@dataclass
class _Store:
    manifest: WriterManifest
    # (rows of a trusted manifest, made models as they are read: see tasks/store/manifest_rows.py)
    by_id: AssetIndex = field(default_factory=AssetIndex)
    latest_by_path: AssetIndex = field(default_factory=AssetIndex)
    raw_slugs: FolderSlugs | set[str] = field(default_factory=set)
    page_slugs: FolderSlugs | set[str] = field(default_factory=set)
    forgotten: frozenset[str] = frozenset()  # asset ids `membank forget` removed: never stored again
    # (original path, asset id) -> the latest source page of that version: a revert links it
    version_page: dict[tuple[str, str], str] = field(default_factory=dict)


@dataclass
class IngestRun:
    """One writer run: the store it writes, the staged files and what it has done so far."""

    operation: Operation
    store: _Store
    staged: StagedWrites
    counts: IngestFigures
    entries: list[CatalogEntry] = field(default_factory=list)
    superseding: list[tuple[str, str]] = field(default_factory=list)  # (old page, new page)

    def discard(self) -> None:
        """Drop every staged file (none got its final name) and stop staging."""
        try:
            self.staged.discard()
        finally:
            self.staged.close()


def source_slug(name: str) -> str | None:
    """The slug of a raw copy's or a source page's file name (`<prefix>__<slug>.<ext>`)."""
    match = _NAME_RE.match(name)
    return match["slug"] if match else None


def _open_store(operation: Operation) -> _Store:
    layout = operation.layout
    manifest = WriterManifest.open(layout.raw_manifest_file, empty_manifest(operation.now_iso))
    store = _Store(manifest, raw_slugs=FolderSlugs(layout.raw, source_slug),
                   page_slugs=FolderSlugs(layout.sources, source_slug),
                   forgotten=forgotten_asset_ids(layout, manifest.purged_ids()))
    rows = manifest.rows
    if rows is not None:  # as membank wrote it, without reverts: the rows, no model each
        for row in rows:
            _remember_row(store, row)
        return store
    model = manifest.model()
    for asset in model.assets:
        _remember(store, asset)
    for event in model.reverts or []:
        if event.sourcePage:
            store.version_page[(event.originalPath, event.assetId)] = event.sourcePage
    store.latest_by_path.update(current_of_reverted(model))
    return store


def stored_asset_ids(settings: MembankSettings) -> frozenset[str]:
    """Hashes of every source the raw store holds (empty for a new root), as committed. An
    interrupted batch is recovered first (under the lock), so the sources of a rolled-back
    batch are never taken for stored: they pass the privacy gate again. While another writer
    holds the lock, nothing is taken for stored (every input is prepared and gated); the
    writer re-gates a source that looked stored but is not once it has the lock."""
    layout = MemoryLayout(settings.resolved_root())
    if pending_batch(layout.root):
        try:
            with reading_operation(settings, "ingest"):
                pass
        except LockTimeoutError:
            return frozenset()
    if not layout.raw_manifest_file.exists():
        return frozenset()
    # validated when membank wrote it: ids alone (the parse kept for the writer's open)
    data = read_rows(layout.raw_manifest_file)
    if data is not None:
        with suppress(TypeError, KeyError):
            return frozenset(str(asset["assetId"]) for asset in data["assets"])
    return frozenset(asset.assetId for asset in load_manifest(layout.raw_manifest_file).assets)


def _remember(store: _Store, asset: RawAsset) -> None:
    store.by_id.setdefault(asset.assetId, asset)
    store.latest_by_path[asset.originalPath] = asset
    if asset.sourcePage:
        store.version_page[(asset.originalPath, asset.assetId)] = asset.sourcePage


def _remember_row(store: _Store, row: Row) -> None:
    """_remember for an asset's row (a trusted manifest's)."""
    asset_id, path, page = row["assetId"], row["originalPath"], row.get("sourcePage")
    store.by_id.put_row(asset_id, row, first=True)
    store.latest_by_path.put_row(path, row)
    if page:
        store.version_page[(path, asset_id)] = page


def _unique_slug(store: _Store, base: str) -> str:
    slug, number = base, 1
    while slug in store.raw_slugs or slug in store.page_slugs:
        number += 1
        slug = f"{base}-{number}"
    return slug


def _store_source(run: IngestRun, prepared: PreparedSource
                  ) -> tuple[RawAsset, list[ArtifactRecord], list[CatalogEntry]]:
    """Stage the raw copy and the pages of one new source (committed later, all at once)."""
    operation, store, staged = run.operation, run.store, run.staged
    layout, now = operation.layout, operation.now_iso
    slug = _unique_slug(store, prepared.base_slug)
    names = SourceNames(operation.prefix, slug, prepared.ext)
    previous = store.latest_by_path.get(prepared.input.path)
    supersedes = [previous.sourcePage] if previous is not None and previous.sourcePage else []
    staged.stage(layout.root / names.raw_path, prepared.data, validate=False, mode=0o444)
    artifacts = [ArtifactRecord(path=names.raw_path, action="created",
                                why=f"immutable copy of {prepared.input.display}")]
    more, entries = _stage_pages(run, prepared, names, supersedes)
    artifacts.extend(more)
    after_revert = (previous is not None and previous.sourcePage
                    and previous.sourcePage != store.by_id[previous.assetId].sourcePage)
    asset = RawAsset(
        assetId=prepared.asset_id,
        contentHash=prepared.content_hash,
        sizeBytes=len(prepared.data),
        mediaType=prepared.media_type,
        originalPath=prepared.input.path,
        rawPath=names.raw_path,
        ingestedAtUtc=now,
        sourcePage=names.page_path,
        supersedesAssetId=previous.assetId if previous is not None else None,
        supersedesSourcePage=previous.sourcePage if after_revert and previous else None,
        storeRole=prepared.input.store_role or None,
        sourcePath=prepared.input.relative or None,
        secretsAllowed=prepared.accepted_secrets or None,
    )
    store.raw_slugs.add(slug)
    store.page_slugs.add(slug)
    return asset, artifacts, entries


def _stage_pages(run: IngestRun, prepared: PreparedSource, names: SourceNames,
                 supersedes: list[str], extra: dict[str, Any] | None = None
                 ) -> tuple[list[ArtifactRecord], list[CatalogEntry]]:
    """Stage the source page of one version (with its shard pages when it is sharded)."""
    operation, staged = run.operation, run.staged
    layout, now, limit = operation.layout, operation.now_iso, operation.settings.page_limit_chars
    artifacts: list[ArtifactRecord] = []
    entries = [CatalogEntry(names.page_path, prepared.title, prepared.description)]
    if prepared.shards is None:
        more = {"extra": extra} if extra else {}  # (only a revert's page has extra keys)
        page_text = render_source_page(prepared, names, now, supersedes, **more)
        kind = "source page"
    else:
        count = len(prepared.shards)
        for number, shard in enumerate(prepared.shards):
            shard_rel = names.shard_path(number)
            text = render_shard_page(shard_meta(prepared, names, number, shard, now),
                                     shard.body(prepared.text))
            if len(text) > limit:
                raise InputError(f"shard {number} would be {len(text)} characters, over {limit}",
                                 file=prepared.input.display, hint="a bug in the shard planner")
            staged.stage(layout.root / shard_rel, text.encode("utf-8"))
            why = f"shard {number} of {count}, lines {shard.line_start}-{shard.line_end}"
            if shard.split_block:
                why += f"; an oversized {shard.split_block} block split at line boundaries"
                if shard.reopened_fence or shard.closed_fence:
                    why += " (code fence closed and reopened)"
            artifacts.append(ArtifactRecord(path=shard_rel, action="created", why=why))
            entries.append(CatalogEntry(shard_rel, f"{prepared.title} (shard {number:03d} of {count})",
                                        f"Shard {number} of {count} of {names.page_path}."))
        page_text = render_index_page(prepared, names, now, limit, supersedes,
                                      **({"extra": extra} if extra else {}))
        kind = f"source index page over {count} shards"
    if len(page_text) > limit:
        raise InputError(f"source page would be {len(page_text)} characters, over {limit}",
                         file=prepared.input.display, hint="a bug in the page size estimate")
    staged.stage(layout.root / names.page_path, page_text.encode("utf-8"))
    artifacts.append(ArtifactRecord(path=names.page_path, action="created",
                                    why=f"{kind} for {prepared.input.display}"))
    return artifacts, entries


def _store_revert(run: IngestRun, prepared: PreparedSource, known: RawAsset, latest: RawAsset
                  ) -> tuple[RevertEvent, list[ArtifactRecord], list[CatalogEntry]]:
    """Stage a new source page for bytes this path had before, over the raw copy stored then
    (raw/ keeps one copy per content); the revert event makes that version current again."""
    operation, store = run.operation, run.store
    path = prepared.input.path
    earlier = store.version_page.get((path, known.assetId)) or known.sourcePage
    slug = _unique_slug(store, prepared.base_slug)
    names = SourceNames(operation.prefix, slug, prepared.ext, raw=known.rawPath)
    supersedes = [latest.sourcePage] if latest.sourcePage else []
    extra = {"reinstates": [earlier]} if earlier else None
    artifacts, entries = _stage_pages(run, prepared, names, supersedes, extra)
    store.page_slugs.add(slug)
    event = RevertEvent(assetId=known.assetId, originalPath=path, sourcePage=names.page_path,
                        supersedesAssetId=latest.assetId, supersedesSourcePage=latest.sourcePage,
                        revertedAtUtc=operation.now_iso)
    return event, artifacts, entries


def _mark_superseded(operation: Operation, old_page: str, new_page: str) -> ArtifactRecord | None:
    """Add `superseded_by` to an older version's source page (which is never deleted)."""
    old_file = operation.layout.root / old_page
    if not old_file.exists():
        return None
    old = read_page(old_file)
    links = [str(x) for x in old.meta.get("superseded_by") or []]
    if new_page in links:
        return None
    write_page(old_file, {**old.meta, "superseded_by": [*links, new_page]}, old.body,
               now_iso=operation.now_iso)
    return ArtifactRecord(path=old_page, action="superseded", why=f"superseded by {new_page} (new version)")


def apply_ingest(
    operation: Operation,
    results: Iterable[PreparedSource | StoredSource | Problem],
    problems: Iterable[Problem] = (),
) -> MemoryOperationReport:
    """The single writer in one call: store every prepared source, then the manifest, hub,
    index and log (the ingest flow runs the same three phases as separate tasks).

    `results` may be lazy (batches still being prepared): they are applied in input order as
    they arrive, and nothing becomes visible before every new file is staged and synced.
    """
    run = begin_apply(operation, problems)
    try:
        apply_results(run, results)
    except BaseException:
        run.discard()
        raise
    return finish_apply(run)


def begin_apply(operation: Operation, problems: Iterable[Problem] = ()) -> IngestRun:
    """Open the writer's run: check the store folders, load the raw store, start staging.
    Nothing is written; the caller holds the lock and ends the run with `finish_apply` or
    `IngestRun.discard`."""
    stage, layout = operation.stage, operation.layout
    for folder in (layout.raw, layout.sources, layout.shards, layout.context):
        check_real_folder(folder)  # a symlinked store folder stops the run, not each source
    stage.note_problems(problems)
    store = _open_store(operation)
    counts = IngestFigures(files_seen=len(stage.problems), rejected=len(stage.problems))
    return IngestRun(operation, store, StagedWrites(io_threads=_STAGE_IO_THREADS), counts)


def apply_results(run: IngestRun, results: Iterable[PreparedSource | StoredSource | Problem]
                  ) -> None:
    """Stage every result, in order (a source that cannot be written is a problem, not an
    error; an error leaves the run to be discarded)."""
    for result in results:
        _apply_one(run, result)


def finish_apply(run: IngestRun, pool: Executor | None = None) -> MemoryOperationReport:
    """Commit the staged files, then mark superseded versions and write the manifest, hub,
    index, log and search index (its pages parsed in `pool`'s processes when given: the map
    step's forked preparers, idle by now). The run is closed afterwards, whatever happens."""
    operation, store, counts = run.operation, run.store, run.counts
    stage, layout, now = operation.stage, operation.layout, operation.now_iso
    try:
        run.staged.commit()
    except BaseException:
        run.staged.discard()  # nothing half-written: staged files never got their final names
        raise
    finally:
        run.staged.close()
    for old_page, new_page in run.superseding:
        record = _mark_superseded(operation, old_page, new_page)
        if record is not None:
            stage.note_artifacts([record])
            stage.report.graph_delta.superseded_records_count += 1
    if run.entries:
        if store.manifest.save(now_iso=now):
            stage.note_artifact(MANIFEST_FILE, "raw store manifest")
        hub_entries = [e for e in run.entries if not in_shards(e.path)]
        if update_hub(layout, SOURCES_HUB, hub_entries, now_iso=now).changed:
            stage.note_artifact(SOURCES_HUB, "sources hub")
        if update_index(layout, run.entries, now_iso=now).changed:
            stage.note_artifact(INDEX_FILE, "catalog of records")
    stage.note_figures(counts)
    if stage.problems and not counts.stored_any:
        stage.note_failure()  # every source refused: nothing of the ingest happened
    log_operation(layout, stage)
    # Built when missing and this ingest wrote something: the first search after it finds the
    # index warm (issue 30); a refused or deduplicated ingest leaves a missing index missing.
    refresh_search_index(operation, build=stage.report.changed, pool=pool)
    return stage.finish()


def _reject(run: IngestRun, *problems: Problem) -> None:
    run.operation.stage.note_problems(problems)
    run.counts.rejected += 1


def _apply_one(run: IngestRun, result: PreparedSource | StoredSource | Problem) -> None:
    store, counts = run.store, run.counts
    counts.files_seen += 1
    if isinstance(result, Problem):
        _reject(run, result)
        return
    if result.blocked:  # the privacy gate: nothing of this source is stored
        _reject(run, *result.blocked)
        return
    if result.asset_id in store.forgotten:
        _reject(run, make_problem(result.input.display, "forgotten_source",
                                  "these bytes were forgotten (membank forget); not stored again",
                                  "ingest it again only after removing what was forgotten"))
        return
    run.operation.stage.note_problems(result.warnings)
    known = store.by_id.get(result.asset_id)
    if known is None:
        if isinstance(result, StoredSource):
            # Stored when the run began, not now (another writer's batch rolled back): prepared
            # and gated again like any new source; its bytes never passed this run's gate.
            counts.files_seen -= 1
            _apply_one(run, prepare_batch([result.input], run.operation.settings)[0])
            return
        _apply_new(run, result)
        return
    _apply_known(run, result, known)


def _apply_known(run: IngestRun, result: PreparedSource | StoredSource, known: RawAsset) -> None:
    """Bytes the store holds already: a revert to this path's earlier version, or a dedupe hit."""
    store, stage = run.store, run.operation.stage
    latest = store.latest_by_path.get(result.input.path)
    if latest is not None and latest.assetId != result.asset_id and (
            (result.input.path, result.asset_id) in store.version_page):
        _apply_revert(run, result, known, latest)
        return
    if latest is not None and latest.assetId != result.asset_id:  # another path's bytes
        stage.note_problem(make_problem(
            result.input.display, "version_stored_from_other_path",
            f"these bytes were ingested from {known.originalPath} ({known.rawPath}), so "
            f"{latest.sourcePage or latest.rawPath} stays this path's current version",
            "ingest a file once, under one path; a revert to this path's own earlier bytes "
            "makes that version current again"))
    run.counts.dedupe_hits += 1
    stage.note_artifact(
        known.rawPath,
        f"{result.input.display}: identical bytes already stored (source page {known.sourcePage})",
        "dedupe_hit")


def _apply_new(run: IngestRun, result: PreparedSource) -> None:
    """Stage a source the store does not hold (a new version when its path was seen before)."""
    store, counts, stage = run.store, run.counts, run.operation.stage
    previous = store.latest_by_path.get(result.input.path)  # a revert's page, when it was one
    mark = run.staged.mark()
    try:
        asset, artifacts, new_entries = _store_source(run, result)
    except (MembankError, OSError) as exc:
        run.staged.discard(mark)  # nothing of this source is left behind
        message = exc.one_line() if isinstance(exc, MembankError) else f"write failed: {exc}"
        _reject(run, make_problem(result.input.display, "write_failed", message))
        return
    if previous is not None and previous.sourcePage and asset.sourcePage:
        run.superseding.append((previous.sourcePage, asset.sourcePage))
    store.manifest.append(asset)
    _remember(store, asset)
    stage.note_artifacts(artifacts)
    run.entries.extend(new_entries)
    counts.files_ingested += 1
    counts.bytes_ingested += len(result.data)
    counts.shards_written += len(result.shards or [])


def _apply_revert(run: IngestRun, result: PreparedSource | StoredSource, known: RawAsset,
                  latest: RawAsset) -> None:
    """The path's bytes are those of an earlier version: make that version current again."""
    operation, store, staged, counts = run.operation, run.store, run.staged, run.counts
    stage = operation.stage
    if isinstance(result, StoredSource):  # recognised by its hash alone: the page needs the text
        prepared = prepare_batch([result.input], operation.settings)[0]
        if isinstance(prepared, Problem) or prepared.blocked or prepared.asset_id != result.asset_id:
            counts.files_seen -= 1  # changed since hashed, or refused now: as any source
            _apply_one(run, prepared)
            return
        result = prepared
    mark = staged.mark()
    try:
        event, artifacts, new_entries = _store_revert(run, result, known, latest)
    except (MembankError, OSError) as exc:
        staged.discard(mark)
        message = exc.one_line() if isinstance(exc, MembankError) else f"write failed: {exc}"
        stage.note_problem(make_problem(result.input.display, "write_failed", message))
        counts.rejected += 1
        return
    store.manifest.add_revert(event)
    store.latest_by_path[event.originalPath] = reinstated(known, event)
    if event.sourcePage:
        store.version_page[(event.originalPath, event.assetId)] = event.sourcePage
        if latest.sourcePage:
            run.superseding.append((latest.sourcePage, event.sourcePage))
    stage.note_artifacts(artifacts)
    stage.note_artifact(
        known.rawPath,
        f"{result.input.display} reverted to these bytes: version current again as {event.sourcePage}",
        "unchanged")
    run.entries.extend(new_entries)
    counts.versions_reinstated = (counts.versions_reinstated or 0) + 1
