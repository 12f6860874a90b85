"""What the read side answers: search hits, browse results, a shown page or entity (no I/O)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

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


class SearchResult(BaseModel):
    query: str
    terms: list[str] = Field(description="The words the query was searched as.")
    hits: list[SearchHit]


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
