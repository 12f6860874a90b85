"""memory_search and memory_load of spec/wiki-memory-pkf.md over the read side: a batch of
phrasings answered in one call (grouped by query, a miss answered with navigation), and a page
or one section with its frontmatter and its links out and in.

Both call the same stage code as `membank search` and `membank show`.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from urllib.parse import unquote

from schemas.page import TYPED_LINK_KEYS
from schemas.tools import MAX_QUERIES, Link, LoadedPage, QueryResults, SearchAnswer, ToolHit
from tasks.markdown.links import local_link_paths
from tasks.search.dates import date_bound
from tasks.search.query import QueryError, SearchOptions, search
from tasks.search.show import _page_file, show_page
from tasks.search.structure import navigation
from tasks.search.sync import read_index
from tasks.store.errors import InputError
from tasks.store.layout import MemoryLayout

MAX_QUERY_CHARS = 1_000
PAGE_URI = "memory://page/"


def check_query(text: str, where: str) -> None:
    if len(text) > MAX_QUERY_CHARS:
        raise QueryError(f"{where} is {len(text):,} characters, over the {MAX_QUERY_CHARS:,} limit",
                         hint="search for the few words that name the topic")


def batch_search(  # noqa: PLR0913 (the tool's parameters, keyword-only)
        layout: MemoryLayout, query: str, queries: Sequence[str] = (), *, limit: int = 10,
        page_types: Sequence[str] = (), semantic: bool = False, since: str | None = None,
        before: str | None = None) -> SearchAnswer:
    """`query` then each of `queries` (at most MAX_QUERIES, duplicates once), each searched as
    `membank search` does; a query without hits carries the navigation block instead. `since`
    and `before` are `membank search`'s --after and --before (a day, month or year: hits dated
    in or after, in or before it)."""
    if len(queries) > MAX_QUERIES:
        raise QueryError(f"queries has {len(queries)} phrasings, over the limit of {MAX_QUERIES}",
                         hint="keep the 2-8 phrasings that differ most")
    wanted = list(dict.fromkeys([query, *queries]))
    for i, text in enumerate(wanted):
        check_query(text, "query" if i == 0 else f"queries[{i - 1}]")
    options = SearchOptions(types=tuple(page_types), limit=limit, semantic=semantic,
                            after=date_bound(since, "since", end=False) if since else None,
                            before=date_bound(before, "before", end=True) if before else None)
    results = []
    for text in wanted:
        hits = [ToolHit.of(hit) for hit in search(layout, text, options).hits]
        results.append(QueryResults(query=text, hits=hits,
                                    navigation=None if hits else navigation(layout)))
    return SearchAnswer(resultsByQuery=results)


def page_target(path: str | None, uri: str | None, section: str | None) -> tuple[str, str | None]:
    """The root-relative page and section a memory_load names (`memory://page/<path>#anchor`,
    or a path with an optional `#anchor`)."""
    if uri:
        if not uri.startswith(PAGE_URI):
            raise InputError(f"uri {uri!r} is not a memory page URI",
                             hint=f"pass {PAGE_URI}<root-relative path>, or `path`")
        target = unquote(uri[len(PAGE_URI):])
    elif path:
        target = path
    else:
        raise InputError("nothing to load", hint="pass `path` (or `uri`) of a page")
    page, _, anchor = target.partition("#")
    return page.strip(), (section or anchor or None)


def _links_out(rel: str, meta: dict[str, object], body: str, layout: MemoryLayout) -> list[Link]:
    links: list[Link] = []
    for key in (*TYPED_LINK_KEYS, "related"):  # related: memory_write relation 'related'
        value = meta.get(key)
        for target in [value] if isinstance(value, str) else value if isinstance(value, list) else []:
            if isinstance(target, str):
                links.append(Link(rel=key.replace("_", "-"), path=target, exists=os.path.exists(
                    layout.root / target.split("#", 1)[0])))
    for target in local_link_paths(rel, body):
        links.append(Link(rel="link", path=target, exists=os.path.exists(layout.root / target)))
    return links


def _links_in(layout: MemoryLayout, rel: str) -> list[Link]:
    """Child-of then superseded-by links in: a hub's children come updatedAt DESC, ties by path
    (spec W2; the hub page's own listing on disk keeps its order)."""
    rows, _warnings = read_index(layout, lambda conn: conn.execute(
        "SELECT 'child-of', path, coalesce(updated_at, '') FROM docs "
        "WHERE hub = ? AND path != ? AND parent IS NULL "
        "UNION SELECT 'superseded-by', path, coalesce(updated_at, '') FROM docs "
        "WHERE superseded_by = ? ORDER BY 1, 3 DESC, 2", (rel, rel, rel)).fetchall())
    return [Link(rel=kind, path=path) for kind, path, _updated in rows
            if os.path.isfile(layout.root / path)]


def load_page(layout: MemoryLayout, path: str | None = None, uri: str | None = None,
              section: str | None = None) -> LoadedPage:
    """A page (or one section of it), its frontmatter, and its links out and in."""
    rel, anchor = page_target(path, uri, section)
    if not rel.endswith(".md"):
        raise InputError(f"{rel!r} is not a page path", hint="pages are root-relative .md paths "
                         "as memory_browse and memory_search return them")
    file = _page_file(layout, rel)
    if file is None:
        raise InputError(f"no page {rel!r} inside the memory root",
                         hint="copy the path verbatim from memory_browse or memory_search")
    whole = show_page(layout, file)
    shown = show_page(layout, file, anchor) if anchor else whole
    return LoadedPage(path=shown.path, section=anchor, frontmatter=shown.frontmatter,
                      body=shown.body, sections=shown.anchors,
                      linksOut=_links_out(shown.path, shown.frontmatter, whole.body, layout),
                      linksIn=_links_in(layout, shown.path))
