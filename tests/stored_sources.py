"""Test helper: store sources through the real ingest writer (collect_inputs + prepare_batch +
apply_ingest under the writer lock, with the fixed clock), so distill's tests and golden files
run on the names, manifest entries and source pages that ingest really produces.

A source given as text is first written to a file under `<root name>-inputs/` beside the memory
root, at `original_path`: storing the same `original_path` again is a new version of that file,
which ingest links to the previous one itself (no `supersedes` bookkeeping here)."""

from __future__ import annotations

import hashlib
from pathlib import Path

from schemas.raw_manifest import RawAsset
from tasks.bootstrap import bootstrap_memory
from tasks.ingest import apply_ingest, collect_inputs, prepare_batch
from tasks.store.graph_store import load_manifest
from tasks.store.layout import MemoryLayout
from tasks.store.operation import writing_operation
from tasks.store.settings import load_settings

DEFAULT_NOW = "2026-03-24T22:40:05Z"


def bootstrap(root: Path, now_iso: str = DEFAULT_NOW) -> None:
    with writing_operation(load_settings(root, fixed_clock=now_iso), "bootstrap") as operation:
        bootstrap_memory(operation)


def input_folder(root: Path) -> Path:
    """Where source texts are written before ingest reads them (outside the memory root)."""
    return root.parent / f"{root.name}-inputs"


def ingest_files(root: Path, files: list[Path], *, now_iso: str = DEFAULT_NOW) -> list[RawAsset]:
    """Ingest `files` in one run; the manifest entry of each (in order). A file that is not
    stored fails; warnings on stored files (malformed front matter in the corpus) are fine."""
    settings = load_settings(root, fixed_clock=now_iso)
    inputs, problems = collect_inputs(files)
    assert not problems, [p.model_dump() for p in problems]
    with writing_operation(settings, "ingest") as operation:
        report = apply_ingest(operation, prepare_batch(inputs, settings), problems)
    by_id = {a.assetId: a for a in load_manifest(MemoryLayout(root).raw_manifest_file).assets}
    ids = [hashlib.sha256(path.read_bytes()).hexdigest() for path in files]
    missing = [str(path) for path, asset_id in zip(files, ids, strict=True) if asset_id not in by_id]
    assert not missing, (missing, [p.model_dump() for p in report.problems])
    return [by_id[asset_id] for asset_id in ids]


def store_source(
    root: Path,
    original_path: str,
    text: str,
    *,
    now_iso: str = DEFAULT_NOW,
    supersedes: RawAsset | None = None,
) -> RawAsset:
    """Write `text` to `original_path` under input_folder(root) and ingest it.

    `supersedes` states the version this one must replace; ingest decides that from the path,
    so it is checked, not written."""
    path = input_folder(root) / original_path
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    (asset,) = ingest_files(root, [path], now_iso=now_iso)
    if supersedes is not None:
        assert asset.supersedesAssetId == supersedes.assetId, (asset, supersedes)
    return asset


def store_folder(root: Path, folder: Path, *, now_iso: str = DEFAULT_NOW) -> list[RawAsset]:
    """Ingest the markdown files of `folder` (sorted) in one run, from where they are."""
    return ingest_files(root, sorted(folder.glob("*.md")), now_iso=now_iso)
