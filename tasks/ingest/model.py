"""What ingest's steps hand each other: a source prepared for the writer, or one the raw store
already holds (prepare makes them, source_pages renders from them, the writer applies them)."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from functools import cached_property

from schemas.report import Problem
from tasks.ingest.inputs import SourceInput
from tasks.ingest.shard import Shard
from tasks.markdown.blocks import Heading
from tasks.store.report import StageFigures


@dataclass
class PreparedSource:
    """Everything about one accepted source that does not depend on names in the store."""

    input: SourceInput
    data: bytes
    text: str
    media_type: str
    ext: str
    base_slug: str
    title: str
    description: str
    headings: list[Heading]
    shards: list[Shard] | None  # None: the content fits on the source page
    token_count: int = 0
    warnings: list[Problem] = field(default_factory=list)  # accepted, but a person should know
    blocked: list[Problem] = field(default_factory=list)  # privacy gate: not stored, one per finding
    accepted_secrets: list[dict[str, object]] = field(default_factory=list)  # --allow-secrets record

    @cached_property
    def asset_id(self) -> str:
        """sha256 of the bytes, computed by the writer (forked preparers never hash; see
        flows.engine.runners.forked_workers)."""
        return hashlib.sha256(self.data).hexdigest()

    @property
    def content_hash(self) -> str:
        return f"sha256:{self.asset_id}"


@dataclass
class StoredSource:
    """A source whose exact bytes the raw store already holds: a dedupe hit, recognised by its
    hash before any parsing or token counting (all that a no-change re-ingest should cost)."""

    input: SourceInput
    asset_id: str
    warnings: list[Problem] = field(default_factory=list)
    blocked: list[Problem] = field(default_factory=list)  # never: stored bytes passed the gate


class IngestFigures(StageFigures):
    """What an ingest run counted (the report's figures, in this order; the flow adds time)."""

    files_seen: int = 0
    files_ingested: int = 0
    dedupe_hits: int = 0
    rejected: int = 0
    shards_written: int = 0
    bytes_ingested: int = 0
    versions_reinstated: int | None = None  # shown only when a revert happened

    @property
    def stored_any(self) -> bool:
        return bool(self.files_ingested or self.dedupe_hits or self.versions_reinstated)


class IngestTiming(StageFigures):
    """The whole ingest stage's wall clock, as the flow measured it."""

    seconds: float
    mb_per_s: float | None = None
