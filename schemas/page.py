"""Page frontmatter: the Record Metadata Contract plus description, type, typed links and the
optional evolution `memory` block of spec/wiki-memory-pkf.md (invariant 5)."""

from __future__ import annotations

import re
from enum import StrEnum
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from schemas.common import UtcPrefix, UtcTimestamp

PageType = Literal[
    "index",  # the root INDEX (index.md)
    "log",  # the operation timeline (log.md)
    "hub",  # a folder or topic hub page
    "source",  # one ingested source
    "source-index",  # a sharded source: TOC above its shards
    "source-shard",  # one shard of a sharded source
    "entity",
    "concept",
    "synthesis",
    "decision",
    "session",
    "plan",
    "execution",
    "error",
    "handoff",
    "note",
    # spec/wiki-memory-pkf.md's four canonical memory types
    "user",
    "feedback",
    "project",
    "reference",
]

TYPED_LINK_KEYS = ("derived_from", "child_of", "supersedes", "superseded_by")
# Frontmatter keys in the order they are written; anything else follows, sorted.
FRONTMATTER_KEY_ORDER = (
    "created_at",
    "updated_at",
    "utc_datetime_prefix",
    "type",
    "title",
    "description",
    *TYPED_LINK_KEYS,
    "memory",
)


class MemoryRole(StrEnum):
    knowledge = "knowledge"
    procedure = "procedure"
    action_result = "action_result"


class MemorySection(BaseModel):
    """A per-section provenance entry, indexed by the section's anchor."""

    model_config = ConfigDict(extra="forbid")

    anchor: str = Field(min_length=1)
    memoryRole: MemoryRole
    source: str = Field(min_length=1)


class MemoryBlock(BaseModel):
    """`memory: {memoryRole, source, sections[]}` carried by dream/proposal/ingest artifacts."""

    model_config = ConfigDict(extra="allow")

    memoryRole: MemoryRole
    source: str = Field(min_length=1)
    sections: list[MemorySection] = Field(default_factory=list)

    @field_validator("source")
    @classmethod
    def _source_is_words(cls, value: str) -> str:
        if not value.strip():
            raise ValueError("source must say where this came from, in words a human can read")
        return value


def require_one_line(value: str, rule: str) -> str:
    """`value` stripped; ValueError(rule) when that is empty or more than one line."""
    text = value.strip()
    if not text or "\n" in text:
        raise ValueError(rule)
    return text


# Words a period ends without ending the sentence ("e.g. Kafka", "vs. Redis", "No. 5").
_ABBREVIATIONS = frozenset(
    "al approx cf dr e.g eg etc fig i.e ie inc jr ltd mr mrs ms no nr prof sr st vs".split()
)
# A stop, closing quotes or brackets, blanks, then the next sentence's first character; or a
# CJK full stop with more text after it.
_SENTENCE_END_RE = re.compile(
    r"(?P<word>\S*?)[.!?]+[\"')\]\u2019\u201d]*\s+(?P<next>[\"'(\[\u2018\u201c]?\S)"
    r"|[\u3002\uff01\uff1f](?P<cjk>\s*\S)"
)


def second_sentence(text: str) -> str | None:
    """Where a second sentence starts in `text` (its first words), or None for one sentence.
    A sentence ends at . ! ? before a capital letter or a digit (not after an abbreviation or
    an initial such as "J."), or at a CJK full stop before more text."""
    for match in _SENTENCE_END_RE.finditer(text):
        if match.group("cjk") is None:
            word = match.group("word").lstrip("\"'([\u2018\u201c").rstrip(".").lower()
            first = match.group("next").lstrip("\"'([\u2018\u201c")[:1]
            if (
                not (first.isupper() or first.isdigit())
                or word in _ABBREVIATIONS
                or (len(word) == 1 and word.isalpha())
            ):
                continue
        start = match.start("next") if match.group("cjk") is None else match.end() - 1
        return text[start : start + 40]
    return None


def as_link_list(value: object) -> object:
    """A typed link given as one path or none becomes a list (pydantic 'before' validator)."""
    if value is None:
        return []
    if isinstance(value, str):
        return [value]
    return value


class PageFrontmatter(BaseModel):
    """The frontmatter every auditable memory page carries."""

    model_config = ConfigDict(extra="allow")

    created_at: UtcTimestamp
    updated_at: UtcTimestamp
    utc_datetime_prefix: UtcPrefix
    type: PageType
    title: str | None = None
    description: str = Field(min_length=1)
    derived_from: list[str] = Field(default_factory=list)
    child_of: list[str] = Field(default_factory=list)
    supersedes: list[str] = Field(default_factory=list)
    superseded_by: list[str] = Field(default_factory=list)
    memory: MemoryBlock | None = None

    @field_validator(*TYPED_LINK_KEYS, mode="before")
    @classmethod
    def _links_as_list(cls, value: object) -> object:
        return as_link_list(value)

    @field_validator("description")
    @classmethod
    def _one_sentence(cls, value: str) -> str:
        return require_one_line(value, "description must be one non-empty sentence on one line")

    @model_validator(mode="after")
    def _updated_not_before_created(self) -> PageFrontmatter:
        if self.updated_at < self.created_at:
            raise ValueError(f"updated_at {self.updated_at} is before created_at {self.created_at}")
        return self

    def to_frontmatter_dict(self) -> dict[str, Any]:
        """Plain dict in the stable key order; empty links and None omitted."""
        return ordered_frontmatter(self.model_dump(mode="json", exclude_none=True))


class HistorianFrontmatter(BaseModel):
    """A historian record (sessions/, plans/, executions/, errors/, context/project.md): the
    memory-bank contract's Record Metadata Contract asks for exactly the three time keys; its
    type comes from its folder. Other keys are allowed and checked where they are known."""

    model_config = ConfigDict(extra="allow")

    created_at: UtcTimestamp
    updated_at: UtcTimestamp
    utc_datetime_prefix: UtcPrefix
    type: PageType | None = None
    description: str | None = None

    @model_validator(mode="after")
    def _updated_not_before_created(self) -> HistorianFrontmatter:
        if self.updated_at < self.created_at:
            raise ValueError(f"updated_at {self.updated_at} is before created_at {self.created_at}")
        return self


def ordered_frontmatter(raw: dict[str, Any]) -> dict[str, Any]:
    """Stable key order (known keys first, extras sorted) with empty typed links dropped."""
    cleaned = {}
    for key, value in raw.items():
        if key in TYPED_LINK_KEYS and isinstance(value, str):
            value = [value]
        if value is None or (key in TYPED_LINK_KEYS and value == []):
            continue
        cleaned[key] = value
    if isinstance(cleaned.get("memory"), dict) and cleaned["memory"].get("sections") == []:
        cleaned["memory"] = {k: v for k, v in cleaned["memory"].items() if k != "sections"}
    ordered = {key: cleaned[key] for key in FRONTMATTER_KEY_ORDER if key in cleaned}
    for key in sorted(k for k in cleaned if k not in ordered):
        ordered[key] = cleaned[key]
    return ordered
