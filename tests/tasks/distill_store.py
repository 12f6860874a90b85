"""Test helper: store a source the way ingest does (raw file + manifest entry + minimal source
page), so distill tests do not depend on the ingest branch."""

from __future__ import annotations

import hashlib
import os
import stat
from pathlib import Path, PurePosixPath

from schemas.raw_manifest import RawAsset
from tasks.bootstrap import bootstrap_memory
from tasks.graph_store import empty_manifest, load_manifest, save_manifest
from tasks.layout import MemoryLayout
from tasks.names import slug_from_title, utc_prefix
from tasks.operation import writing_operation
from tasks.pages import new_page_meta, read_page, write_page
from tasks.settings import load_settings

DEFAULT_NOW = "2026-03-24T22:40:05Z"


def bootstrap(root: Path, now_iso: str = DEFAULT_NOW) -> None:
    with writing_operation(load_settings(root, fixed_clock=now_iso), "bootstrap") as operation:
        bootstrap_memory(operation)


def store_source(
    root: Path,
    original_path: str,
    text: str,
    *,
    now_iso: str = DEFAULT_NOW,
    supersedes: RawAsset | None = None,
) -> RawAsset:
    """Put `text` in raw/ (read-only), list it in the manifest, write its source page."""
    layout = MemoryLayout(root)
    data = text.encode("utf-8")
    asset_id = hashlib.sha256(data).hexdigest()
    prefix = utc_prefix(now_iso)
    slug = f"{slug_from_title(PurePosixPath(original_path).stem)}-{asset_id[:8]}"
    raw_path = f"raw/{prefix}__{slug}.md"
    source_page = f"wiki/sources/{prefix}__{slug}.md"
    raw_file = root / raw_path
    raw_file.parent.mkdir(parents=True, exist_ok=True)
    if not raw_file.exists():
        raw_file.write_bytes(data)
        os.chmod(raw_file, stat.S_IRUSR | stat.S_IRGRP | stat.S_IROTH)
    manifest = (
        load_manifest(layout.raw_manifest_file)
        if layout.raw_manifest_file.exists()
        else empty_manifest(now_iso)
    )
    asset = RawAsset(
        assetId=asset_id,
        contentHash=f"sha256:{asset_id}",
        sizeBytes=len(data),
        mediaType="text/markdown",
        originalPath=original_path,
        rawPath=raw_path,
        ingestedAtUtc=now_iso,
        sourcePage=source_page,
        supersedesAssetId=supersedes.assetId if supersedes else None,
    )
    if all(a.assetId != asset_id for a in manifest.assets):
        manifest.assets.append(asset)
    save_manifest(layout.raw_manifest_file, manifest, now_iso=now_iso)
    meta = new_page_meta(
        now_iso,
        prefix=prefix,
        type="source",
        title=PurePosixPath(original_path).stem,
        description=f"Source ingested from {original_path}.",
        derived_from=[raw_path],
        child_of=["wiki/sources/index.md"],
        raw_asset_id=asset_id,
    )
    write_page(
        root / source_page, meta, f"# {PurePosixPath(original_path).stem}\n", now_iso=now_iso
    )
    if supersedes is not None and supersedes.sourcePage:
        old = read_page(root / supersedes.sourcePage)
        write_page(
            root / supersedes.sourcePage,
            {**old.meta, "superseded_by": [source_page]},
            old.body,
            now_iso=now_iso,
        )
    return asset


def store_folder(root: Path, folder: Path, *, now_iso: str = DEFAULT_NOW) -> list[RawAsset]:
    return [
        store_source(
            root, f"{folder.name}/{path.name}", path.read_text(encoding="utf-8"), now_iso=now_iso
        )
        for path in sorted(folder.glob("*.md"))
    ]
