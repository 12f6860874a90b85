"""Which version of an ingested path is current, when a path went back to earlier bytes.

A revert (schemas.raw_manifest.RevertEvent) makes an existing raw asset current again under a
new source page; raw/ keeps one copy. Asset ids can then repeat in a path's history, so the
history is followed by source page, which is unique per version: every version names the page
of the version it replaced (an asset through its supersedesAssetId, or `supersedesSourcePage`
when the version it replaced was a revert; a revert through its own supersedesSourcePage).
Paths that were never reverted keep the old rule: the asset no other asset supersedes.
"""

from __future__ import annotations

from schemas.raw_manifest import RawAsset, RawManifest, RevertEvent
from tasks.store.layout import SHARDS_FOLDER

# Graph entity extension: superseded observations made active again by a revert of their source,
# each with reinstatedAtUtc / reinstatedBy / reinstatedReason (history, never deleted).
REINSTATED_KEY = "reinstatedObservations"


def reinstated(asset: RawAsset, event: RevertEvent) -> RawAsset:
    """The asset as the version the revert made current (its page, time and predecessor)."""
    return RawAsset.model_validate({
        **asset.model_dump(mode="json"),
        "sourcePage": event.sourcePage,
        "ingestedAtUtc": event.revertedAtUtc,
        "supersedesAssetId": event.supersedesAssetId,
        "supersedesSourcePage": event.supersedesSourcePage,
    })


def _first_by_id(manifest: RawManifest) -> dict[str, RawAsset]:
    by_id: dict[str, RawAsset] = {}
    for asset in manifest.assets:
        by_id.setdefault(asset.assetId, asset)
    return by_id


def predecessor_page(asset: RawAsset, by_id: dict[str, RawAsset]) -> str | None:
    named = asset.supersedesSourcePage
    if isinstance(named, str):
        return named
    older = by_id.get(asset.supersedesAssetId or "")
    return older.sourcePage if older is not None else None


def current_of_reverted(manifest: RawManifest) -> dict[str, RawAsset]:
    """Original path -> its current version, for every path with a revert (as `reinstated`
    gives it when the current version is a revert). Other paths are not listed."""
    if not manifest.reverts:
        return {}
    by_id = _first_by_id(manifest)
    last: dict[str, RawAsset] = {}
    for event in manifest.reverts:  # in order: the last revert of a path wins
        asset = by_id.get(event.assetId)
        if asset is not None:
            last[event.originalPath] = reinstated(asset, event)
    successor: dict[tuple[str, str], RawAsset] = {}
    for asset in manifest.assets:  # versions ingested after a path's last revert follow it
        if asset.originalPath in last and (page := predecessor_page(asset, by_id)):
            successor[(asset.originalPath, page)] = asset
    heads: dict[str, RawAsset] = {}
    for path, head in last.items():
        seen: set[str] = set()
        while head.sourcePage and head.sourcePage not in seen and (path, head.sourcePage) in successor:
            seen.add(head.sourcePage)
            head = successor[(path, head.sourcePage)]
        heads[path] = head
    return heads


def replaced_asset_ids(manifest: RawManifest, heads: dict[str, RawAsset]) -> set[str]:
    """Asset ids that are no path's current version (`heads`: current_of_reverted)."""
    replaced = {a.supersedesAssetId for a in manifest.assets if a.supersedesAssetId}
    replaced.update(a.assetId for a in manifest.assets if a.originalPath in heads)
    return replaced - {head.assetId for head in heads.values()}


def revert_pages_of(manifest: RawManifest | None, asset_ids: frozenset[str] | set[str]) -> set[str]:
    """Source pages (and shard folder prefixes) of the reverts that reinstated these assets."""
    pages: set[str] = set()
    for event in (manifest.reverts or []) if manifest is not None else []:
        if event.assetId in asset_ids and event.sourcePage:
            stem = event.sourcePage.rsplit("/", 1)[-1].removesuffix(".md")
            pages.update({event.sourcePage, f"{SHARDS_FOLDER}{stem}/"})
    return pages


def version_pages(manifest: RawManifest) -> dict[str, set[str]]:
    """Original path -> the source pages of all its versions (reverts included)."""
    pages: dict[str, set[str]] = {}
    versions = [(a.originalPath, a.sourcePage) for a in manifest.assets]
    versions += [(e.originalPath, e.sourcePage) for e in manifest.reverts or []]
    for path, page in versions:
        if page:
            pages.setdefault(path, set()).add(page)
    return pages
