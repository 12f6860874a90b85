"""The raw store manifest (context/raw-manifest.jsonc): one entry per immutable raw asset."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from schemas.common import UtcTimestamp


class RawAsset(BaseModel):
    model_config = ConfigDict(extra="allow")

    assetId: str = Field(pattern=r"^[0-9a-f]{64}$", description="sha256 of the bytes, hex.")
    contentHash: str = Field(pattern=r"^sha256:[0-9a-f]{64}$")
    sizeBytes: int = Field(ge=0)
    mediaType: str
    originalPath: str = Field(description="The path or URI the source was ingested from.")
    rawPath: str = Field(description="Root-relative path of the stored copy under raw/.")
    ingestedAtUtc: UtcTimestamp
    sourcePage: str | None = Field(None, description="Root-relative path of its source page.")
    supersedesAssetId: str | None = Field(
        None, description="The previous version of the same original path, if any."
    )
    # Written only when they apply (the manifest is saved without None values), in this order.
    supersedesSourcePage: str | None = Field(
        None, description="After a revert: the source page this version supersedes.")
    storeRole: str | None = Field(
        None, description="The memory store it belongs to (.mem or MemoryCustodian file role).")
    sourcePath: str | None = Field(
        None, description="Its path from the ingested folder's parent (no workstation part): "
        "what pages and the registry record.")
    secretsAllowed: list[dict[str, Any]] | None = Field(
        None, description="Secrets stored on purpose with --allow-secrets (kind, line; no value).")


class PurgedAsset(BaseModel):
    """A raw asset `membank forget --mode purge` deleted: the one sanctioned exception to raw/
    immutability. Kept so reconcile knows the file is gone on purpose and ingest refuses the
    same bytes again; nothing here names what was forgotten."""

    model_config = ConfigDict(extra="allow")

    assetId: str = Field(pattern=r"^[0-9a-f]{64}$")
    purgedAtUtc: UtcTimestamp
    reason: str = Field(min_length=1)


class RevertEvent(BaseModel):
    """A source path whose bytes went back to an earlier stored version: that version is current
    again. No second raw copy: it points at the existing raw asset, with a new source page."""

    model_config = ConfigDict(extra="allow")

    assetId: str = Field(pattern=r"^[0-9a-f]{64}$", description="The existing raw asset reinstated.")
    originalPath: str
    sourcePage: str | None = Field(None, description="The reinstated version's new source page.")
    supersedesAssetId: str = Field(pattern=r"^[0-9a-f]{64}$",
                                   description="The intermediate version it replaces.")
    supersedesSourcePage: str | None = Field(None, description="That version's source page.")
    revertedAtUtc: UtcTimestamp


class RawManifest(BaseModel):
    model_config = ConfigDict(extra="allow")

    manifestGeneratedAtUtc: UtcTimestamp
    assets: list[RawAsset]
    purgedAssets: list[PurgedAsset] | None = Field(
        None, description="Raw assets deleted by a purge (absent until the first purge).")
    reverts: list[RevertEvent] | None = Field(
        None, description="Paths reverted to earlier bytes, in order (absent until the first).")
