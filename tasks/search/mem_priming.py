"""spec/mem-jsonl.md §4 priming for retrieve, over the raw copies of the ingested .mem stores:

    1. index.jsonl first, whole (what exists, without opening anything)
    2. domains/_universal.jsonl, always
    3. the domain files matching the working set: the task's paths (`--path`) and the changed
       files of a git work tree, against the index's `files` and each record's
       evidence.files / evidence.dirs
    4. never archive/

One line says what was loaded ("memory: primed 6 records from _universal, database"). Pure over
raw/ (immutable) apart from `git_changed_paths`, which asks git for a work tree's status.
"""

from __future__ import annotations

import subprocess
from collections.abc import Iterable, Sequence
from pathlib import Path

from schemas.raw_manifest import RawAsset
from schemas.search import MemPriming, PrimedRecord
from schemas.stores import MEM_UNIVERSAL_DOMAIN, MemRecord
from tasks.memstores.discover import MEM_PREFIX, IngestedStore, ingested_stores
from tasks.memstores.mem_jsonl import parse_lines
from tasks.search.routing import RoutingInputError, normalize_path
from tasks.store.globs import glob_matches
from tasks.store.layout import MemoryLayout

INDEX = "index.jsonl"
UNIVERSAL = f"domains/{MEM_UNIVERSAL_DOMAIN}.jsonl"
GIT_TIMEOUT_SECONDS = 10


def mem_stores(assets: Iterable[RawAsset]) -> list[IngestedStore]:
    """The .mem stores of the raw manifest (latest version of each file), by name."""
    return ingested_stores(assets, MEM_PREFIX)


def git_changed_paths(work_tree: Path) -> list[str]:
    """Repo-relative paths `git status` lists as changed or new in `work_tree` ([] when it is
    not a git work tree or git is not installed)."""
    try:
        done = subprocess.run(
            ["git", "-C", str(work_tree), "status", "--porcelain=v1", "-z", "-uall"],
            capture_output=True, timeout=GIT_TIMEOUT_SECONDS, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return []
    if done.returncode != 0:
        return []
    paths: list[str] = []
    fields = done.stdout.decode("utf-8", "replace").split("\0")
    skip = False
    for item in fields:
        if skip:  # the source path of a rename
            skip = False
            continue
        if len(item) > 3:
            paths.append(item[3:])
            skip = item[0] in "RC"
    return sorted(set(paths))


def _pattern_matches(pattern: str, path: str) -> bool:
    """A record's file glob, file or folder (`tests/`, evidence.dirs) against a task path; a
    task path that is a folder matches what lies under it."""
    pattern = pattern.strip().replace("\\", "/").removeprefix("./")
    if not pattern:
        return False
    folder = pattern.rstrip("/")
    if any(c in pattern for c in "*?["):
        return glob_matches(pattern, path) or folder.startswith(f"{path}/")
    return path == folder or path.startswith(f"{folder}/") or folder.startswith(f"{path}/")


def _match(patterns: Iterable[str], paths: Sequence[str]) -> str | None:
    for pattern in patterns:
        for path in paths:
            if _pattern_matches(pattern, path):
                return f"{path} <- {pattern}"
    return None


def _read(layout: MemoryLayout, asset: RawAsset | None) -> bytes | None:
    if asset is None:
        return None
    try:
        return (layout.root / asset.rawPath).read_bytes()
    except OSError:
        return None


def _records(layout: MemoryLayout, store: IngestedStore, rel: str) -> list[MemRecord]:
    data = _read(layout, store.files.get(rel))
    if data is None:
        return []
    found, _ = parse_lines(rel, data, "domains")
    return [r.record for r in found if r.record is not None and r.record.status == "active"]


def _primed(record: MemRecord, why: str) -> PrimedRecord:
    text = " ".join(record.body.split())
    if record.resolution:
        text += f" Resolution: {' '.join(record.resolution.split())}"
    return PrimedRecord(id=record.id, domain=record.domain, type=record.type, title=record.title,
                        text=text.strip(), why=why)


def task_paths(paths: Iterable[str]) -> tuple[list[str], list[str]]:
    """The usable repo-relative paths, and a warning for each one that is not."""
    kept, warnings = [], []
    for value in paths:
        try:
            kept.append(normalize_path(value))
        except RoutingInputError as exc:
            warnings.append(str(exc))
    return sorted(set(kept)), warnings


def prime_store(layout: MemoryLayout, store: IngestedStore, paths: Sequence[str]) -> MemPriming:
    """Steps 1-4 of §4 for one store (`paths`: repo-relative, already normalized)."""
    priming = MemPriming(store=store.name, paths=list(paths))
    index_data = _read(layout, store.files.get(INDEX))
    listed: dict[str, list[str]] = {}
    if index_data is None:
        priming.warnings.append("index.jsonl is not ingested: no record of this store is visible")
    else:
        priming.files_read.append(INDEX)
        lines, _ = parse_lines(INDEX, index_data, "index")
        listed = {e.index.id: e.index.files for e in lines if e.index is not None}
        priming.index_lines = len(listed)
    if UNIVERSAL in store.files:
        priming.files_read.append(UNIVERSAL)
        priming.records += [_primed(r, "universal: always read") for r in
                            _records(layout, store, UNIVERSAL) if r.id in listed]
    for rel in sorted(store.files):
        if not rel.startswith("domains/") or rel == UNIVERSAL or not paths:
            continue
        records = [r for r in _records(layout, store, rel) if r.id in listed]
        reasons = {r.id: _match([*listed[r.id], *r.evidence.files, *r.evidence.dirs], paths)
                   for r in records}
        if not any(reasons.values()):
            continue
        priming.files_read.append(rel)
        first = next(why for why in reasons.values() if why)
        priming.records += [_primed(r, f"path: {reasons[r.id] or first}") for r in records]
    domains = list(dict.fromkeys(r.domain for r in priming.records))
    priming.summary = (f"memory: primed {len(priming.records)} record"
                       f"{'' if len(priming.records) == 1 else 's'}"
                       + (f" from {', '.join(domains)}" if domains else ""))
    return priming


def primed_pages(assets: Iterable[RawAsset], primings: Sequence[MemPriming]) -> frozenset[str]:
    """Source pages of the files the priming read: ranked search leaves them out (no repeats)."""
    read = {(p.store, rel) for p in primings for rel in p.files_read if rel != INDEX}
    return frozenset(asset.sourcePage for store in mem_stores(assets)
                     for rel, asset in store.files.items()
                     if asset.sourcePage and (store.name, rel) in read)


def mem_raw_paths(assets: Iterable[RawAsset], primings: Sequence[MemPriming]) -> list[str]:
    """The raw copies the priming read, in its reading order."""
    stores = {store.name: store for store in mem_stores(assets)}
    return [stores[p.store].files[rel].rawPath for p in primings for rel in p.files_read
            if p.store in stores and rel in stores[p.store].files]
