"""Files distill keeps beside the graph in context/: the tombstone list (facts a person asked to
forget, which distill never brings back) and the candidates inbox (weaker guesses kept with their
evidence for a person or an agent to promote)."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from schemas.common import UtcTimestamp


class Tombstone(BaseModel):
    """A forgotten topic: an entity whose name or alias equals `topic` is never (re)created, and
    an observation whose text contains `topic` (case-insensitive, on word boundaries) is dropped."""

    model_config = ConfigDict(extra="allow")

    topic: str = Field(min_length=1)
    reason: str = Field(min_length=1)
    tombstonedAtUtc: UtcTimestamp
    topicSha256: str | None = Field(
        None, description="Hard forget: the guard (sha256 of the casefolded topic's words).")
    assetIds: list[str] | None = Field(
        None, description="Raw assets `membank forget` removed for this topic.")


class TombstoneList(BaseModel):
    model_config = ConfigDict(extra="allow")

    tombstones: list[Tombstone] = Field(default_factory=list)


class CandidateEvidence(BaseModel):
    model_config = ConfigDict(extra="allow")

    sourcePage: str
    rawAssetId: str
    lineStart: int = Field(ge=1)
    lineEnd: int = Field(ge=1)
    excerpt: str


class DistillCandidate(BaseModel):
    """A term distill saw but did not trust enough to put in the graph."""

    model_config = ConfigDict(extra="allow")

    term: str = Field(min_length=1)
    kind: str = Field(description="capitalized_phrase, code_term or passive_relation")
    occurrences: int = Field(ge=1)
    rawAssetIds: list[str] = Field(default_factory=list)
    evidence: list[CandidateEvidence] = Field(default_factory=list)


class CandidateInbox(BaseModel):
    model_config = ConfigDict(extra="allow")

    candidatesGeneratedAtUtc: UtcTimestamp
    candidates: list[DistillCandidate] = Field(default_factory=list)
    pendingCandidates: list[DistillCandidate] = Field(
        default_factory=list,
        description="Guesses seen too rarely to list yet (a code term seen once), counted "
        "across runs so the inbox does not depend on how sources were batched; omitted when "
        "empty.",
    )
