"""What the read side answers: search hits, browse results, a shown page or entity (no I/O)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

from schemas.report import MemoryOperationReport

HitKind = Literal["page", "observation"]


class SearchHit(BaseModel):
    """One ranked match: a page (best section) or one graph observation."""

    kind: HitKind
    path: str = Field(description="Root-relative page to load (a shard's source index page).")
    title: str
    page_type: str
    entity_type: str | None = None
    hub: str | None = None
    anchor: str = Field("", description="Section anchor of the best match; '' = top of page.")
    section: str = Field("", description="Heading of that section.")
    snippet: str = Field(description="Short text around the match, matched terms in **bold**.")
    score: float = Field(description="BM25 relevance (higher is better).")
    updated_at: str | None = None
    part: str | None = Field(None, description="The shard the match is in, for sharded sources.")
    superseded: bool = False
    superseded_by: str | None = None
    source_page: str | None = Field(None, description="Source page an observation was read from.")
    doc_date: str | None = Field(None, description="The day the document is about (its stated "
                                 "date, not a write time), ISO; None when it states none.")


class SearchResult(BaseModel):
    query: str
    terms: list[str] = Field(description="The words the query was searched as.")
    hits: list[SearchHit]
    warnings: list[str] = Field(default_factory=list, description="What may make the answer "
                                "incomplete (an index a running writer has not finished).")


class NearestPage(BaseModel):
    path: str
    title: str
    page_type: str
    hub: str | None = None
    score: float
    anchors: list[str] = Field(description="Section anchors of the page, best match first.")
    best_anchor: str = ""
    snippet: str = ""
    updated_at: str | None = None


class HubFit(BaseModel):
    path: str
    title: str
    score: float
    matching_pages: int


class BrowseResult(BaseModel):
    topic: str
    nearest: list[NearestPage]
    hubs: list[HubFit]
    warnings: list[str] = Field(default_factory=list, description="What may make the answer "
                                "incomplete (an index a running writer has not finished).")


class ShownPage(BaseModel):
    kind: Literal["page"] = "page"
    path: str
    frontmatter: dict[str, Any]
    body: str
    anchors: list[str]


class ShownEntity(BaseModel):
    kind: Literal["entity"] = "entity"
    name: str
    entity_type: str
    aliases: list[str]
    page: str | None
    registry_entry: dict[str, Any] | None
    observations: list[dict[str, Any]] = Field(description="Active facts with provenance.")
    superseded: list[dict[str, Any]] = Field(description="Superseded facts and what replaced them.")
    relations_out: list[dict[str, Any]]
    relations_in: list[dict[str, Any]]
    superseded_relations: list[dict[str, Any]] = Field(default_factory=list)
    store_entry: dict[str, Any] | None = Field(
        None, description="When shown by a store entry's id (MC-DEC-..., a .mem record id): that "
        "entry's observation or superseded fact, with its typed fields (storeRecord).")


class PacketFact(BaseModel):
    text: str
    superseded: bool = False
    superseded_by: str | None = None
    source_page: str | None = None


class PacketEntity(BaseModel):
    name: str
    entity_type: str
    page: str | None = None
    score: float
    observations: list[PacketFact] = Field(description="Current facts first, then superseded.")
    relations: list[str] = Field(default_factory=list, description="'a relation b', both ways.")


class PriorDecision(BaseModel):
    name: str
    status: str | None = None
    date: str | None = None
    decision: str | None = None
    page: str | None = None
    superseded_by: str | None = None


class FailurePrevention(BaseModel):
    text: str
    source: str = Field(description="The page or entity it comes from.")


class ContextExcerpt(BaseModel):
    path: str
    title: str
    excerpt: str


RoutingStatus = Literal["COMPLETE", "INCOMPLETE", "AMBIGUOUS", "INVALID"]
Disposition = Literal["loaded", "skipped", "missing-required", "missing-optional", "invalid"]


class RoutingRequest(BaseModel):
    """The MemoryCustodian routing inputs of a retrieve (memory-custodian.md, Hard Gate 3-5)."""

    category: str | None = Field(None, description="The canonical task category (implementation, "
                                 "planning, artifact, preferences, history, maintenance, general).")
    paths: list[str] = Field(default_factory=list, description="Touched or planned repo-relative paths.")
    areas: list[str] = Field(default_factory=list, description="Explicit areas (areas/<name>.md).")
    strict: bool = Field(False, description="Approve the packet only when routing is COMPLETE "
                         "and no exact structural conflict blocks it.")
    explain: bool = Field(False, description="Print every file's disposition and reason codes.")


class RoutedEntry(BaseModel):
    entry_id: str
    kind: str
    title: str
    text: str = Field(description="What the entry states (Decision, Constraint, Rejected ...).")


class RoutedFile(BaseModel):
    """One custodian file the manifest names (or an explicit input asked for), with its
    disposition and stable reason codes (MC-ROUTE-*, MC-SKIP-*, MC-MISSING-*, MC-OMIT-BUDGET)."""

    file: str = Field(description="Path inside the memory directory (decisions.md, areas/sync.md).")
    disposition: Disposition
    reasons: list[str] = Field(default_factory=list)
    details: list[str] = Field(default_factory=list, description="The matching input "
                               "(task:implementation, src/sync/a.ts <- src/sync/**).")
    required: bool = False
    source_page: str | None = Field(None, description="Its source page in this memory root.")
    raw_path: str | None = Field(None, description="The stored copy read (raw/...).")
    entries: list[RoutedEntry] = Field(default_factory=list, description="Active entries loaded.")
    excerpt: str | None = Field(None, description="Its text, for a file without entries (brief.md).")


class CustodianRouting(BaseModel):
    """Which MemoryCustodian files the manifest routes the task to: chosen by the manifest's
    routes only, never by ranking the task's words."""

    request: RoutingRequest
    canonical_task: str | None = None
    store: str | None = Field(None, description="The memory directory it routes (as ingested).")
    status: RoutingStatus
    blocked: bool = Field(False, description="An exact structural conflict (two active owners of "
                          "one Scope + Subject + Facet) among the loaded entries.")
    approved: bool = Field(description="COMPLETE and not blocked: approved for substantial work.")
    files: list[RoutedFile] = Field(default_factory=list)
    incomplete: list[str] = Field(default_factory=list, description="Why not COMPLETE.")
    warnings: list[str] = Field(default_factory=list)


class PrimedRecord(BaseModel):
    """One active .mem record the priming loaded, and why (universal, or the matching path)."""

    id: str
    domain: str
    type: str
    title: str
    text: str = Field(description="Its body and resolution.")
    why: str = Field(description="universal: always read, or path: <task path> <- <pattern>.")


class MemPriming(BaseModel):
    """spec/mem-jsonl.md §4 priming of one ingested .mem store: index.jsonl first,
    domains/_universal.jsonl always, domain files by the task's paths; never archive/."""

    store: str = Field(description="The .mem folder as it was ingested.")
    paths: list[str] = Field(default_factory=list, description="The working set matched: "
                             "--path values and a git work tree's changed files.")
    index_lines: int = 0
    files_read: list[str] = Field(default_factory=list, description="Store-relative files read.")
    records: list[PrimedRecord] = Field(default_factory=list)
    summary: str = Field("", description="memory: primed N records from <domains>.")
    warnings: list[str] = Field(default_factory=list)


class RetrievalPacket(BaseModel):
    """The retrieve mode's packet (spec/memory-bank.md), in its reading order."""

    task: str
    budget_tokens: int
    tokens_used: int
    truncated: bool = Field(description="True when items were left out to keep the budget.")
    index_records: int = Field(description="Records index.md lists.")
    index_missing: bool = Field(False, description="index.md was missing, so it was not read.")
    project_context: ContextExcerpt | None = None
    latest_session: ContextExcerpt | None = None
    plans_and_executions: list[ContextExcerpt] = Field(default_factory=list)
    entities: list[PacketEntity] = Field(default_factory=list)
    decisions: list[PriorDecision] = Field(default_factory=list)
    failure_preventions: list[FailurePrevention] = Field(default_factory=list)
    paths_read: list[str] = Field(default_factory=list)
    routing: CustodianRouting | None = Field(None, description="With routing inputs: the "
                                             "custodian files the manifest routed; the other "
                                             "sections are ranked search without them.")
    mem_priming: list[MemPriming] = Field(default_factory=list, description="The .mem stores' "
                                          "priming (index, _universal, domains by paths).")
    warnings: list[str] = Field(default_factory=list, description="What may make the packet "
                                "incomplete (an index a running writer has not finished).")


class RetrievalReport(MemoryOperationReport):
    """The Memory Operation report of mode `retrieve`, carrying its packet."""

    packet: RetrievalPacket
    packet_markdown: str = Field(description="The packet as markdown: what the budget counted.")

    def to_markdown(self) -> str:
        return super().to_markdown() + "\n" + self.packet_markdown
