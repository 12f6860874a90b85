"""The proposal contract: what a dream or proposal leg submits to the write gate.

A proposal is a markdown file whose YAML frontmatter holds every field below except `body`
(the page or section text after the frontmatter), or the same fields as one JSON object with
`body` as a key. It lands in `<root>/proposals/inbox/` or is passed to `membank propose FILE`.

    ---
    title: Retry budget for flaky uploads
    description: How many times an upload is retried and why.
    type: synthesis
    memory:
      memoryRole: procedure
      source: dream leg of the planner agent, session 2026-03-24
    placement:
      kind: new_leaf          # or extend_section (page + section) / append_section
      hub: wiki/synthesis     # a hub page path or its folder
    ---
    # Retry budget for flaky uploads
    ...

Rejection codes are part of the contract: tools branch on them, so they never change.
"""

from __future__ import annotations

from typing import Any, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from schemas.common import UtcTimestamp
from schemas.page import TYPED_LINK_KEYS, MemoryBlock, PageType, as_link_list, require_one_line

PlacementKind = Literal["extend_section", "append_section", "new_leaf"]
PLACEMENT_KINDS: tuple[str, ...] = ("extend_section", "append_section", "new_leaf")
# The spec's memory_write op names, accepted as spellings of our kinds.
PLACEMENT_ALIASES = {
    "rewrite-section": "extend_section",
    "rewrite_section": "extend_section",
    "extend-section": "extend_section",
    "append-section": "append_section",
    "new-leaf": "new_leaf",
}

# The gate's checks, in this order; the first that fails is the verdict.
GateRejectionCode = Literal[
    "evolution_metadata_required",
    "placement_required",
    "graph_owned_section",
    "deliverable_pointer_missing",
    "sharding_required",
    "dead_link",
    "invalid_frontmatter",
    "ambiguous_name",
    "duplicate",
]
REJECTION_CODES: tuple[str, ...] = get_args(GateRejectionCode)
# and the privacy check before the gate (tasks/privacy/gate.py), not in its order
RejectionCode = Literal[GateRejectionCode, "secret_detected"]

PKF_VERSION = "1.1"  # the one PKF version a page may declare (spec/wiki-memory-pkf.md, PKF 1)
# Page types a proposal may create; index/log are structural, sources belong to ingest.
_NOT_PROPOSABLE = frozenset({"index", "log", "source", "source-index", "source-shard"})


class Placement(BaseModel):
    """Where the proposal goes (spec/wiki-memory-pkf.md, Write flow step 3)."""

    model_config = ConfigDict(extra="forbid")

    kind: PlacementKind = Field(
        description="extend_section: rewrite an existing section of `page` (the old text is kept "
        "as superseded); append_section: add section `section` to `page`; new_leaf: a new page "
        "child_of `hub`."
    )
    page: str | None = Field(None, description="Root-relative path of the page to extend.")
    section: str | None = Field(None, description="Anchor of the section to rewrite or add.")
    heading: str | None = Field(
        None, description="Heading of an appended section (default: the proposal's title)."
    )
    hub: str | None = Field(
        None, description="For new_leaf: the hub page path or its folder (wiki/synthesis)."
    )

    @field_validator("kind", mode="before")
    @classmethod
    def _alias(cls, value: object) -> object:
        if isinstance(value, str):
            return PLACEMENT_ALIASES.get(value.strip(), value.strip())
        return value

    @field_validator("heading")
    @classmethod
    def _one_line(cls, value: str | None) -> str | None:
        if value is not None and "\n" in value.strip():
            raise ValueError("heading must be one line")
        return value

    @model_validator(mode="after")
    def _complete(self) -> Placement:
        if self.kind == "new_leaf":
            if not (self.hub or "").strip():
                raise ValueError("a new leaf needs `hub`: the hub page it is child_of")
        else:
            for name in ("page", "section"):
                if not (getattr(self, name) or "").strip():
                    raise ValueError(f"{self.kind} needs `{name}`")
        return self


class DeliverableSource(BaseModel):
    """The deliverable a page derives from (copy + reference doctrine)."""

    model_config = ConfigDict(extra="forbid")

    assetId: str = Field(min_length=1, pattern=r"^[A-Za-z0-9._:-]+$")
    contentHash: str = Field(min_length=1)
    sizeBytes: int = Field(ge=0, strict=True)

    @property
    def key(self) -> str:
        return f"{self.assetId}|{self.contentHash}"


class Proposal(BaseModel):
    """One proposal, validated. Unknown keys are rejected so a typo is never silently dropped."""

    model_config = ConfigDict(extra="forbid")

    title: str = Field(min_length=1)
    description: str = Field(min_length=1)
    type: PageType
    memory: MemoryBlock
    placement: Placement
    deliverableSource: DeliverableSource | None = None
    derived_from: list[str] = Field(default_factory=list)
    child_of: list[str] = Field(default_factory=list)
    supersedes: list[str] = Field(default_factory=list)
    superseded_by: list[str] = Field(default_factory=list)
    related: list[str] = Field(default_factory=list)  # memory_write relation 'related'
    pkfVersion: str | None = None
    body: str = Field(min_length=1, description="The page (new_leaf) or section text.")

    @field_validator(*TYPED_LINK_KEYS, "related", mode="before")
    @classmethod
    def _links_as_list(cls, value: object) -> object:
        return as_link_list(value)

    @field_validator("title")
    @classmethod
    def _one_line_title(cls, value: str) -> str:
        return require_one_line(value, "title must be one non-empty line")

    @field_validator("description")
    @classmethod
    def _one_sentence(cls, value: str) -> str:
        return require_one_line(value, "description must be one sentence on one line")

    @field_validator("pkfVersion", mode="before")
    @classmethod
    def _pkf_version(cls, value: object) -> object:
        if isinstance(value, float | int) and not isinstance(value, bool):
            value = str(value)  # YAML reads `pkfVersion: 1.1` as a number
        if value is not None and value != PKF_VERSION:
            raise ValueError(f'pkfVersion is {value!r}: a page declares pkfVersion "{PKF_VERSION}" or none')
        return value

    @field_validator("type")
    @classmethod
    def _proposable(cls, value: str) -> str:
        if value in _NOT_PROPOSABLE:
            raise ValueError(
                f"type {value!r} cannot be proposed (index, log and source pages are written by "
                "the pipeline); use concept, synthesis, entity, decision, note or hub"
            )
        return value

    @field_validator("body")
    @classmethod
    def _has_text(cls, value: str) -> str:
        if not value.strip():
            raise ValueError("body is empty: a proposal carries the text it proposes")
        return value


class ProposalRejection(BaseModel):
    """The reason file kept beside a rejected proposal (<name>.reason.json)."""

    proposal: str
    code: RejectionCode
    field: str | None = None
    message: str
    hint: str | None = None


class Adoption(BaseModel):
    """One adopted proposal in context/adopted-deliverables.jsonc."""

    model_config = ConfigDict(extra="allow")

    proposalHash: str = Field(description="sha256 of the proposal's canonical JSON.")
    proposal: str = Field(description="File name the proposal arrived under.")
    page: str = Field(description="Root-relative path of the page it was applied to.")
    placement: PlacementKind
    section: str | None = None
    assetId: str | None = None
    contentHash: str | None = None
    sizeBytes: int | None = None
    adoptedAtUtc: UtcTimestamp

    @property
    def deliverable_key(self) -> str | None:
        return f"{self.assetId}|{self.contentHash}" if self.assetId and self.contentHash else None


class AdoptionLedger(BaseModel):
    """Every adopted proposal and deliverable, so a replay is a dedupe hit."""

    model_config = ConfigDict(extra="allow")

    ledgerGeneratedAtUtc: UtcTimestamp
    adoptions: list[Adoption] = Field(default_factory=list)


def proposal_json_schema() -> dict[str, Any]:
    return Proposal.model_json_schema()
