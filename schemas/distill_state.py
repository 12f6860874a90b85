"""Distill bookkeeping (context/distill-state.jsonc): which raw assets were distilled, and when.

Freshness audits read it to find sources whose distill is older than the source.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from schemas.common import UtcTimestamp


class DistilledSource(BaseModel):
    model_config = ConfigDict(extra="allow")

    assetId: str = Field(pattern=r"^[0-9a-f]{64}$")
    sourcePage: str
    distilledAtUtc: UtcTimestamp
    # Written only when known (the file is saved with exclude_none): the source's title as
    # distill read it, and for a version skipped as replaced, the asset that replaced it.
    title: str | None = None
    supersededByAssetId: str | None = None
    # A source's record links that resolved to no decision record yet (tasks/distill/record_graph.py:
    # PendingLinks.as_json), kept until a record distilled later resolves them.
    pendingRecordLinks: list[dict[str, Any]] | None = None
    # A plain document (no genre, no entity type of its own: Extraction.document_key): its folder
    # and file stem ("proposals/options-analysis") and the entity it was distilled into, so a
    # link read in a later run finds it by its file.
    documentKey: str | None = None
    documentEntity: str | None = None
    # A decision log's entry keys ("DL-05") and the entity it was distilled into, so a page read
    # in a later run that cites an entry by its key finds the log (Extraction.entry_keys).
    entryKeys: list[str] | None = None
    entryEntity: str | None = None


class DistillState(BaseModel):
    model_config = ConfigDict(extra="allow")

    stateGeneratedAtUtc: UtcTimestamp
    sources: list[DistilledSource] = Field(default_factory=list)
