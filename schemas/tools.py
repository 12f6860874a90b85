"""What the agent tool surface answers (spec/wiki-memory-pkf.md, "Tool surface"): the models the
MCP tools and the Python API return. Field names are the spec's (camelCase) where the spec
names them. No I/O."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

from schemas.search import BrowseResult, SearchHit, ShownEntity, ShownPage

MAX_QUERIES = 8


class PageRow(BaseModel):
    """A page of the structure surface: the root INDEX, a hub, or a page under a hub."""

    path: str = Field(description="Root-relative path, to pass verbatim to memory_load.")
    title: str
    pageType: str
    snippet: str = Field("", description="The page's one-sentence description.")
    updatedAt: str | None = Field(None, description="For a hub: the most recent write under it "
                                  "(its own updated_at spread with its direct children's).")
    childrenCount: int = 0


class RootStructure(BaseModel):
    """Parameterless memory_browse: the root structure surface."""

    index: PageRow
    hubs: list[PageRow] = Field(description="Structural order: hub's own updatedAt DESC.")
    hubsByRecent: list[PageRow] = Field(description="The same hubs by subtree freshness DESC.")
    nearest: list[PageRow] = Field(description="The most recently written pages, newest first.")


class BrowseAnswer(BaseModel):
    """memory_browse: `root` without a query, `topic` (what `membank browse` returns) with one."""

    query: str | None = None
    root: RootStructure | None = None
    topic: BrowseResult | None = None


class StartPoint(BaseModel):
    path: str
    title: str
    pageType: Literal["index", "hub"]
    childrenCount: int
    why: Literal["structural-entry"] = "structural-entry"


class Navigation(BaseModel):
    """A miss: where to start walking instead of a longer hit list (startPoints are not ranked)."""

    reason: Literal["text-miss"] = "text-miss"
    startPoints: list[StartPoint]
    guidance: str


class ToolHit(BaseModel):
    """One ranked hit with the spec's hop-decision fields."""

    path: str
    title: str
    pageType: str
    section: str = Field("", description="Section anchor of the best match ('' = page top).")
    sectionHeading: str = ""
    snippet: str
    score: float
    updatedAt: str | None = None
    superseded: bool = False
    supersededBy: str | None = None
    kind: Literal["page", "observation"] = "page"

    @classmethod
    def of(cls, hit: SearchHit) -> ToolHit:
        return cls(path=hit.path, title=hit.title, pageType=hit.entity_type or hit.page_type,
                   section=hit.anchor, sectionHeading=hit.section, snippet=" ".join(hit.snippet.split()),
                   score=hit.score, updatedAt=hit.updated_at, superseded=hit.superseded,
                   supersededBy=hit.superseded_by, kind=hit.kind)


class QueryResults(BaseModel):
    query: str
    hits: list[ToolHit]
    navigation: Navigation | None = Field(None, description="Set instead of hits on a miss.")


class SearchAnswer(BaseModel):
    """memory_search: hits grouped by query, in the order the queries were given."""

    resultsByQuery: list[QueryResults]


class Link(BaseModel):
    rel: str = Field(description="child-of, derived-from, supersedes, superseded-by, related, or link.")
    path: str
    exists: bool = True


class LoadedPage(BaseModel):
    """memory_load: a page or one of its sections, its frontmatter, its links out and in."""

    path: str
    section: str | None = None
    frontmatter: dict[str, Any]
    body: str
    sections: list[str] = Field(description="Every section anchor of the page.")
    linksOut: list[Link]
    linksIn: list[Link] = Field(description="Pages whose typed links name this one (child-of "
                                "then superseded-by, each newest first by updated_at, ties by "
                                "path; from the search index).")


class WriteAnswer(BaseModel):
    """memory_write: ok with the written path and revision, or the gate's rejection."""

    ok: bool
    path: str | None = None
    revision: str | None = Field(None, description="sha256 of the page file as written.")
    action: str | None = Field(None, description="created, updated, unchanged or dedupe_hit.")
    placement: str | None = None
    code: str | None = Field(None, description="The gate's rejection code when not ok.")
    field: str | None = None
    message: str | None = None
    hint: str | None = None


class IngestAnswer(BaseModel):
    status: str
    artifacts: list[dict[str, Any]]
    problems: list[str]
    figures: dict[str, Any]


class ShowAnswer(BaseModel):
    """memory_show: one entity (or a page, when the name is a page path)."""

    page: ShownPage | None = None
    entity: ShownEntity | None = None
