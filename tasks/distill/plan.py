"""What distill reads, and reading it.

    plan_distill           which raw assets are new (or all, with --all); cheap: manifest + state
    extract_batch          read each raw file (I/O) and extract its facts (tasks/extract.py, pure);
                           a file that cannot be read is a Problem, not a failure
    read_earlier_sources   sources distilled in earlier runs that mention given names, read again
"""

from __future__ import annotations

import gc
import os
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from collections.abc import Set as AbstractSet
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from schemas.raw_manifest import RawAsset, RawManifest
from schemas.report import Problem
from tasks.distill.mention_words import MentionWords, name_words
from tasks.distill.state_rows import SourceStates, load_source_states
from tasks.extract import Extraction, MentionMatcher, SourceRef, extract_facts
from tasks.markdown.html import HTML_SUFFIXES, html_to_markdown
from tasks.markdown.outline import without_bom
from tasks.store.graph_store import load_manifest, load_tombstones
from tasks.store.held_models import Row
from tasks.store.layout import MemoryLayout
from tasks.store.manifest_rows import row_asset, trusted_rows
from tasks.store.versions import current_of_reverted, replaced_asset_ids, version_pages


@dataclass(frozen=True, slots=True)
class DistillSource:
    """One raw asset to read (ingest's SourceInput is a file to ingest)."""

    ref: SourceRef
    raw_file: Path
    store_role: str | None = None  # the raw asset's storeRole: read by tasks/memstores/store_extractions.py


@dataclass(slots=True)
class ExtractOutcome:
    extraction: Extraction | None
    problem: Problem | None = None


@dataclass
class DistillPlan:
    to_read: list[DistillSource] = field(default_factory=list)
    # old asset id -> the asset that replaces it (read in this run)
    replaced: dict[str, RawAsset] = field(default_factory=dict)
    # assets recorded without being read: superseded before they were ever distilled
    skipped: list[tuple[RawAsset, str]] = field(default_factory=list)
    state: SourceStates = field(default_factory=SourceStates)  # by asset id
    state_stamp: str | None = None
    problems: list[Problem] = field(default_factory=list)
    # asset id read as a reverted path's current version -> the source pages of every version
    # of that path: facts those versions retired come back when this one states them again
    reverted_pages: dict[str, frozenset[str]] = field(default_factory=dict)
    # the manifest planned from (under the writer lock, so still the file's): the earlier
    # sources are listed from it instead of validating the file again (10 MB at 100,000 pages)
    manifest: RawManifest | None = field(default=None, compare=False, repr=False)
    # or, for a manifest as membank wrote it (without reverts), its assets' plain rows
    manifest_rows: list[Row] | None = field(default=None, compare=False, repr=False)

    @property
    def empty(self) -> bool:
        return not self.to_read and not self.skipped


# --------------------------------------------------------------------------- planning


def forgotten_asset_ids(layout: MemoryLayout) -> set[str]:
    """Raw assets a `membank forget` removed (its tombstones' assetIds)."""
    return {str(asset_id) for tombstone in load_tombstones(layout.tombstones_file).tombstones
            for asset_id in tombstone.assetIds or ()}


def _by_path(assets: Iterable[RawAsset]) -> list[RawAsset]:
    return sorted(assets, key=lambda a: (a.rawPath, a.assetId))


def plan_distill(layout: MemoryLayout, *, reread_all: bool = False) -> DistillPlan:
    """Which assets to read: new ones (not in the distill state), or every current one."""
    plan = DistillPlan()
    if not layout.raw_manifest_file.exists():
        return plan
    trusted = trusted_rows(layout.raw_manifest_file)
    if layout.distill_state_file.exists():
        plan.state, plan.state_stamp = load_source_states(layout.distill_state_file)
    if trusted is not None:  # as membank wrote it, without reverts: models for the unknown only
        rows = plan.manifest_rows = trusted["assets"]
        planner = _Planner(plan, layout, rows, forgotten_asset_ids(layout), reread_all)
        unknown = [row_asset(row) for row in rows if reread_all or row["assetId"] not in plan.state]
        for asset in _by_path(unknown):
            planner.plan_asset(asset)
        return plan
    manifest = plan.manifest = load_manifest(layout.raw_manifest_file)
    planner = _Planner(plan, layout, manifest, forgotten_asset_ids(layout), reread_all)
    reverted = current_of_reverted(manifest)
    if reverted:
        planner.plan_reverted(reverted)
    # (an asset the state holds changes nothing unless everything is read again: plan_asset
    # returns at once for it, so only the others are sorted; 20,000 assets at 100,000 pages)
    unknown = [asset for asset in manifest.assets if reread_all or asset.assetId not in plan.state]
    for asset in _by_path(unknown):
        if asset.originalPath not in reverted:  # else planned by plan_reverted
            planner.plan_asset(asset)
    return plan


class _Planner:
    def __init__(self, plan: DistillPlan, layout: MemoryLayout, manifest: RawManifest | list[Row],
                 forgotten: set[str], reread_all: bool) -> None:
        """`manifest`: the validated model, or a trusted manifest's asset rows (no reverts)."""
        self.plan, self.layout = plan, layout
        self.forgotten, self.reread_all = forgotten, reread_all
        # asset id -> the asset id it supersedes; superseded asset id -> its successor
        if isinstance(manifest, list):
            self.manifest: RawManifest | None = None
            self.supersedes = {row["assetId"]: row.get("supersedesAssetId") for row in manifest}
            self.replaced_by = {row["supersedesAssetId"]: row["assetId"] for row in manifest
                                if row.get("supersedesAssetId")}
        else:
            self.manifest = manifest
            self.supersedes = {a.assetId: a.supersedesAssetId for a in manifest.assets}
            self.replaced_by = {a.supersedesAssetId: a.assetId for a in manifest.assets
                                if a.supersedesAssetId}

    def plan_asset(self, asset: RawAsset) -> None:
        plan = self.plan
        known = asset.assetId in plan.state
        if asset.assetId in self.replaced_by:
            if not known:
                plan.skipped.append((asset, self.replaced_by[asset.assetId]))
            return
        if (known and not self.reread_all) or asset.assetId in self.forgotten:
            return  # `membank forget` removed what it said; its raw copy is never read again
        if not asset.sourcePage:
            plan.problems.append(Problem(
                file=asset.rawPath, code="missing_source_page",
                message="raw asset has no source page in the manifest, so its facts cannot be traced",
                hint="re-run `membank ingest` for this source"))
            return
        self._read(asset, asset.sourcePage)
        if not known:
            self._replaces_versions(asset)

    def plan_reverted(self, heads: dict[str, RawAsset]) -> None:
        """Paths that went back to earlier bytes (tasks/store/versions.py): the current version is read
        again when its source page is not the one distilled (a revert makes a new page), and the
        version it replaced is retired; every other version of the path is history."""
        plan, manifest = self.plan, self.manifest
        assert manifest is not None  # (rows are taken only from a manifest without reverts)
        pages = version_pages(manifest)
        for asset in _by_path(manifest.assets):
            head = heads.get(asset.originalPath)
            if head is not None and asset.assetId != head.assetId and asset.assetId not in plan.state:
                plan.skipped.append((asset, head.assetId))
        for path in sorted(heads):
            head = heads[path]
            known = plan.state.get(head.assetId)
            fresh = known is not None and known.sourcePage == head.sourcePage
            if (fresh and not self.reread_all) or head.assetId in self.forgotten or not head.sourcePage:
                continue
            self._read(head, head.sourcePage)
            plan.reverted_pages[head.assetId] = frozenset(pages.get(path, ()))
            if not fresh:
                self._replaces_versions(head)

    def _read(self, asset: RawAsset, source_page: str) -> None:
        ref = SourceRef(asset.assetId, source_page, asset.rawPath,
                        asset.sourcePath or asset.originalPath)
        self.plan.to_read.append(DistillSource(ref, self.layout.root / asset.rawPath,
                                               asset.storeRole))

    def _replaces_versions(self, asset: RawAsset) -> None:
        """Earlier versions of `asset` that were distilled are retired by it."""
        previous, seen = asset.supersedesAssetId, {asset.assetId}
        while previous and previous not in seen:
            seen.add(previous)
            if previous in self.plan.state:
                self.plan.replaced[previous] = asset
            previous = self.supersedes.get(previous)


# --------------------------------------------------------------------------- reading

# A raw file that cannot be read: exception (most specific first) -> code, message (which may
# name the exception's attributes) and hint.
_READ_FAILURES: tuple[tuple[type[Exception], str, str, str | None], ...] = (
    (FileNotFoundError, "raw_missing", "raw file listed in the manifest is missing",
     "restore raw/ from git; raw files are never modified or deleted"),
    (UnicodeDecodeError, "raw_not_utf8", "invalid UTF-8 at byte {exc.start}",
     "distill reads text sources only"),
    (OSError, "raw_unreadable", "cannot read: {exc.strerror}", None),
)


def read_problem(raw_path: str, exc: Exception) -> Problem:
    """The problem a raw file that could not be read is reported as (see _READ_FAILURES)."""
    for kind, code, message, hint in _READ_FAILURES:
        if isinstance(exc, kind):
            return Problem(file=raw_path, code=code, message=message.format(exc=exc), hint=hint)
    raise exc


def read_raw_text(item: DistillSource) -> str:
    """A raw file's text as its source page shows it (HTML as markdown)."""
    text = without_bom(item.raw_file.read_bytes().decode("utf-8"))
    if item.raw_file.suffix.lower() in HTML_SUFFIXES:
        text = html_to_markdown(text).markdown
    return text


def extract_batch(items: Sequence[DistillSource]) -> list[ExtractOutcome]:
    """Read each raw file once and extract its facts; a bad file is a problem, not a failure."""
    with fewer_collections():
        return _extract_each(items)


@contextmanager
def fewer_collections(allocations: int = 20_000) -> Iterator[None]:
    """Python's cyclic collector at most every `allocations` new objects (not every 700)
    while distilling: extraction, merge and the page writes make millions of short-lived
    objects and few cycles, and the collector's passes were a tenth of the extraction's CPU
    (1.1 s of 13.6 s on the 20 MB corpus; 0.17 s so) and a fifth of the writer's. Only the
    caller that raised the threshold restores it (batches may run in threads side by side);
    nothing distilled depends on when collections run."""
    previous = gc.get_threshold()
    if previous[0] >= allocations:
        yield
        return
    gc.set_threshold(allocations, *previous[1:])
    try:
        yield
    finally:
        gc.set_threshold(*previous)


def _store_extractions(text: str, ref: SourceRef, role: str) -> list[Extraction] | None:
    # Lazy: the store schemas and parsers cost ~50 ms of every ingest's start-up, and only a
    # memory store's files (item.store_role) use them.
    from tasks.memstores.store_extractions import extract_store_file

    return extract_store_file(text, ref, role)


def extract_each(items: Sequence[DistillSource]) -> list[list[ExtractOutcome]]:
    """`extract_batch`, the outcomes grouped by item (a memory store's file may give several)."""
    with fewer_collections():
        return [_extract_one(item) for item in items]


def _extract_each(items: Sequence[DistillSource]) -> list[ExtractOutcome]:
    return [outcome for item in items for outcome in _extract_one(item)]


def _extract_one(item: DistillSource) -> list[ExtractOutcome]:
    try:
        text = read_raw_text(item)
    except (OSError, UnicodeDecodeError) as exc:
        return [ExtractOutcome(None, read_problem(item.ref.raw_path, exc))]
    stored = _store_extractions(text, item.ref, item.store_role) if item.store_role else None
    if stored is not None:  # a memory store's file: its own structure, not prose
        return [ExtractOutcome(extraction) for extraction in stored]
    return [ExtractOutcome(extract_facts(text, item.ref))]


def batches(items: Sequence[DistillSource], size: int) -> list[list[DistillSource]]:
    return [list(items[start : start + size]) for start in range(0, len(items), size)]


def extract_serial(groups: list[list[DistillSource]]) -> list[ExtractOutcome]:
    return [outcome for group in groups for outcome in extract_batch(group)]


# --------------------------------------------------------------------------- earlier sources


def read_earlier_sources(layout: MemoryLayout, plan: DistillPlan, names: Mapping[str, str],
                         read_now: AbstractSet[str]) -> list[Extraction]:
    """Current sources distilled in an earlier run whose text mentions one of `names` (surface
    form -> canonical name), extracted again (for their mentions only), in raw path order.
    Sources the mention index (tasks/distill/mention_words.py) knows are read only when they
    hold every word of some name; the others are read, and added to it."""
    matcher = MentionMatcher(names)
    if not matcher or not plan.state or not layout.raw_manifest_file.exists():
        return []
    probe = _MentionProbe(names)
    again: list[DistillSource] = []
    root = f"{layout.root}{os.sep}"
    with _mention_index(layout) as index:
        holding = index.holding(name_words(names)) if index is not None else set()
        for ref in _earlier_sources(layout, plan, read_now):
            known = index is not None and index.knows(ref.asset_id)
            if known and ref.asset_id not in holding:
                continue  # no name's words all in it: the matcher cannot find one
            try:
                data = read_file_bytes(root + ref.raw_path)
            except OSError:
                continue  # reported when it is read for its own facts
            if index is not None and not known:
                index.add(ref.asset_id, source_text(data))
            text = probe.text_if_mentioned(data)
            if text is not None and matcher.find(text):
                again.append(DistillSource(ref, layout.root / ref.raw_path))
    return [o.extraction for o in extract_batch(again) if o.extraction is not None]


@contextmanager
def _mention_index(layout: MemoryLayout) -> Iterator[MentionWords | None]:
    index = MentionWords.open(layout.root)
    if index is None:
        yield None
        return
    with index:
        yield index


def source_text(data: bytes) -> str:
    """A source's text as _MentionProbe.text_if_mentioned gives it to the matcher."""
    return data.decode("ascii") if data.isascii() else data.decode("utf-8", errors="replace")


class _MentionProbe:
    """The matcher's rule, loosened, as one regex over the lowercased text (a name's words with
    non-word characters between; no lookarounds, which would make it 2x slower): the matcher
    then tokenizes only the few files that pass. An ASCII file (nearly every one) is probed as
    bytes, neither decoded nor copied as str: only the ASCII alternatives can match ASCII text,
    and bytes.lower() and `\\W` agree with str's on it. 20,000 small sources at 100,000 pages:
    read and probed in ~0.15 s of cpu instead of ~0.4 s through pathlib and str."""

    def __init__(self, names: Iterable[str]) -> None:
        spelled = sorted({r"\W+".join(map(re.escape, re.findall(r"\w+", name.lower())))
                          for name in names} - {""})
        self.text_probe = re.compile("|".join(spelled))  # (no word in any name: every text)
        ascii_spelled = [w.encode() for w in spelled if w.isascii()]
        self.ascii_probe = (re.compile(b"|".join(ascii_spelled)) if ascii_spelled or not spelled
                            else None)

    def text_if_mentioned(self, data: bytes) -> str | None:
        """The file's text (undecodable bytes replaced) when the probe finds a name in it."""
        if data.isascii():
            if self.ascii_probe is None or not self.ascii_probe.search(data.lower()):
                return None
            return source_text(data)
        text = source_text(data)
        return text if self.text_probe.search(text.lower()) else None


def read_file_bytes(path: str) -> bytes:
    """A file's bytes by plain system calls (pathlib's and open()'s objects cost more than
    the read itself for 20,000 files of ~1 KB)."""
    fd = os.open(path, os.O_RDONLY)
    try:
        chunks = []
        while chunk := os.read(fd, 1 << 16):
            chunks.append(chunk)
    finally:
        os.close(fd)
    return b"".join(chunks)


def _earlier_sources(layout: MemoryLayout, plan: DistillPlan,
                     read_now: AbstractSet[str]) -> Iterator[SourceRef]:
    """Current assets distilled before this run and not read in it, in raw path order."""
    if plan.manifest is None and plan.manifest_rows is not None:
        yield from _earlier_rows(plan, plan.manifest_rows, read_now)
        return
    for asset in _earlier_assets(layout, plan, read_now):
        yield SourceRef(asset.assetId, asset.sourcePage or "", asset.rawPath,
                        asset.sourcePath or asset.originalPath)


def _earlier_rows(plan: DistillPlan, rows: list[Row], read_now: AbstractSet[str]
                  ) -> Iterator[SourceRef]:
    """_earlier_assets over a trusted manifest's rows: without reverts every version is its
    own head, and the replaced ones are those another asset supersedes."""
    replaced = {row["supersedesAssetId"] for row in rows if row.get("supersedesAssetId")}
    for row in sorted(rows, key=lambda row: (row["rawPath"], row["assetId"])):
        asset_id, page = row["assetId"], row.get("sourcePage")
        if (asset_id not in plan.state or asset_id in read_now or asset_id in replaced
                or asset_id in plan.replaced or not page):
            continue
        yield SourceRef(asset_id, page, row["rawPath"], row.get("sourcePath") or row["originalPath"])


def _earlier_assets(layout: MemoryLayout, plan: DistillPlan,
                    read_now: AbstractSet[str]) -> Iterator[RawAsset]:
    """Current assets distilled before this run and not read in it, in raw path order."""
    manifest = plan.manifest if plan.manifest is not None else load_manifest(layout.raw_manifest_file)
    heads = current_of_reverted(manifest)
    replaced = replaced_asset_ids(manifest, heads)
    for listed in _by_path(manifest.assets):
        head = heads.get(listed.originalPath)
        asset = head if head is not None and listed.assetId == head.assetId else listed
        if (asset.assetId not in plan.state or asset.assetId in read_now
                or asset.assetId in replaced or asset.assetId in plan.replaced
                or not asset.sourcePage):
            continue
        yield asset
