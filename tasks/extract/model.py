"""The facts one source text states (what `extract_facts` returns) and their limits."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from tasks.extract.record_links import RecordLink

SUBJECT_DOCUMENT_TYPE = "document"
DECISION_TYPE = "decision"
DEFAULT_LINKED_TYPE = "concept"
MAX_OBSERVATION_CHARS = 480
MAX_DECISION_CHARS = 4000  # a decision is kept whole up to this; longer ones are cut with a mark
CUT_MARK = " […]"
MAX_NAME_CHARS = 120

# (text, first line, last line) of something a source states over a range of lines.
LineSpan = tuple[str, int, int]


@dataclass(frozen=True, slots=True)
class SourceRef:
    """Where a text came from: its raw asset and the source page that summarizes it."""

    asset_id: str
    source_page: str
    raw_path: str
    original_path: str = ""


@dataclass(frozen=True, slots=True)
class NameRef:
    """A name as the source wrote it, with fallbacks: the first that resolves wins; if none
    does, `names[0]` is registered with the others as aliases."""

    names: tuple[str, ...]
    entity_type: str
    line: int

    @property
    def display(self) -> str:
        return self.names[0]


@dataclass(frozen=True, slots=True)
class EntityFact:
    ref: NameRef
    aliases: tuple[str, ...] = ()
    tags: tuple[str, ...] = ()
    explicit_type: bool = False


@dataclass(frozen=True, slots=True)
class ObservationFact:
    text: str
    line_start: int
    line_end: int
    kind: str = "line"  # line | status | date | decision | subject (a decision's technology)
    typed: dict[str, Any] | None = None  # a store record's typed fields (kept in its provenance)


@dataclass(frozen=True, slots=True)
class RelationFact:
    source: NameRef
    relation_type: str
    target: NameRef


@dataclass(frozen=True, slots=True)
class CandidateFact:
    term: str
    kind: str  # capitalized_phrase | code_term | passive_relation
    line: int
    excerpt: str
    count: int = 1


@dataclass(frozen=True, slots=True)
class SupersededFact:
    """A fact its source itself marks retired (a store's superseded entry or archive/): kept
    as a superseded observation, linked to `by` (the replacing record's id) when known."""

    text: str
    line_start: int
    line_end: int
    reason: str
    record_id: str | None = None
    by: str | None = None
    typed: dict[str, Any] | None = None


@dataclass(slots=True)
class Extraction:
    source: SourceRef
    subject: EntityFact | None = None
    entities: list[EntityFact] = field(default_factory=list)
    observations: list[ObservationFact] = field(default_factory=list)
    relations: list[RelationFact] = field(default_factory=list)
    candidates: list[CandidateFact] = field(default_factory=list)
    prose: list[tuple[int, str]] = field(default_factory=list)
    record_superseded: bool = False
    rejected_names: list[str] = field(default_factory=list)
    is_decision_record: bool = False
    title: str = ""
    record_key: str | None = None  # a decision record's file stem: unique even when titles repeat
    # A plain document's file stem (no genre, no entity type of its own): how a link from another
    # page finds it. Not its identity: same-titled plain documents stay one entity, as before.
    document_key: str | None = None
    # Memory stores (tasks/memstores/store_extractions.py): retired facts, forgotten topics, and which record
    # replaced which (old id -> new id); `order` < 0 is resolved first (subject registries).
    superseded_facts: list[SupersededFact] = field(default_factory=list)
    tombstones: list[dict[str, str]] = field(default_factory=list)
    replaced_by: dict[str, str] = field(default_factory=dict)
    order: int = 0
    record_role: str = ""  # "template" or "index": a decision log's page that records no decision
    record_links: list[RecordLink] = field(default_factory=list)
    # A decision record's or genre document's numeric dates: day-first (True), month-first
    # (False), or unsettled (None); distill settles a folder's ambiguous dates from its other
    # documents (day_first_hint, tasks/distill/log_dates.py).
    day_first: bool | None = None
    # Observations about other entities than the subject (a technology a decision uses).
    entity_observations: list[tuple[NameRef, ObservationFact]] = field(default_factory=list)
    # Terms a document writes that were not sure enough to be its subjects (each as its
    # spellings): distill relates the document `about` those the registry already holds.
    subject_terms: list[tuple[str, ...]] = field(default_factory=list)
    # A decision log's own numbering: the keys its entries open with ("DL-01" of a row
    # `| DL-01 | 14/03/25 | ... |`); a page that cites an entry by its key cites the log
    # (tasks/distill/record_graph.py RecordIndex.add_entry_keys).
    entry_keys: list[str] = field(default_factory=list)
