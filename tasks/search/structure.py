"""The structure surface of spec/wiki-memory-pkf.md, read from the search index: the parameterless
memory_browse (the root INDEX, the hubs in structural and in subtree-freshness order, the newest
pages), the navigation start points a search miss returns, and the "Memory Map" digest.

A hub's updatedAt is its subtree freshness: the most recent of its own updated_at and its direct
children's. Only pages that still exist on disk are returned. Deterministic: ties break on paths.
"""

from __future__ import annotations

import os
import sqlite3

from schemas.tools import Navigation, PageRow, RootStructure, StartPoint
from tasks.search.query import index_memo
from tasks.search.sync import read_index
from tasks.store.errors import MembankError
from tasks.store.layout import INDEX_FILE, MemoryLayout
from tasks.store.pages import read_page

NEAREST_LIMIT = 10
GUIDANCE = (
    "Your wording matched nothing. These are the memory's routing entries, not answers: look at "
    "the children of the start point closest to your topic (memory_browse with the hub as query, "
    "or memory_load the hub), batch-read the candidates (memory_search with their topics as "
    "queries[], or memory_load each), and follow links until a page carries the answer. If the "
    "walk finds nothing, the knowledge does not exist yet: say so, and consider memory_write."
)

# (the children counted in one pass over the pages: a join per hub made SQLite build an index
# of every page's hub first, 9 ms at 10,000 pages, on each index state)
_HUBS = """
SELECT h.path, h.title, h.type, h.description, h.updated_at, coalesce(k.n, 0),
       coalesce(k.newest, '')
FROM docs h LEFT JOIN (SELECT hub, count(*) AS n, max(coalesce(updated_at, '')) AS newest
                       FROM docs WHERE parent IS NULL AND path != hub GROUP BY hub) k
     ON k.hub = h.path
WHERE h.is_hub = 1
ORDER BY h.id
"""
_NEWEST = """
SELECT path, title, type, description, updated_at FROM docs
WHERE is_hub = 0 AND parent IS NULL AND superseded_by IS NULL AND updated_at IS NOT NULL
ORDER BY updated_at DESC, path LIMIT ?
"""


_INDEX_META: dict[str, tuple[tuple[int, ...], dict[str, object]]] = {}


def _index_meta(layout: MemoryLayout) -> dict[str, object]:
    """index.md's frontmatter, kept for the process while the file is the same one (it lists
    every record: a warm server would otherwise read it whole for each browse and miss)."""
    path = layout.root / INDEX_FILE
    try:
        found = os.stat(path)
        signature = (found.st_dev, found.st_ino, found.st_mtime_ns, found.st_size)
        kept = _INDEX_META.get(str(path))
        if kept is None or kept[0] != signature:
            kept = (signature, read_page(path).meta)
            _INDEX_META[str(path)] = kept
    except (MembankError, OSError):
        return {}
    return kept[1]


def index_row(layout: MemoryLayout, children: int = 0) -> PageRow:
    """The root INDEX (index.md), read from its file (the index does not hold it)."""
    meta = _index_meta(layout)
    return PageRow(path=INDEX_FILE, title=str(meta.get("title") or "Index"), pageType="index",
                   snippet=str(meta.get("description") or ""),
                   updatedAt=str(meta["updated_at"]) if meta.get("updated_at") else None,
                   childrenCount=children)


def _hub_rows(conn: sqlite3.Connection, layout: MemoryLayout) -> list[tuple[PageRow, str]]:
    """Every hub on disk with its subtree freshness, and its own updated_at."""
    memo = index_memo(conn)  # (the same until the index changes)
    if "hubs" not in memo:
        memo["hubs"] = conn.execute(_HUBS).fetchall()
    rows = []
    for path, title, ptype, description, own, children, newest in memo["hubs"]:
        if not os.path.isfile(layout.root / path):
            continue
        fresh = max(own or "", newest or "") or None
        rows.append((PageRow(path=path, title=title, pageType=ptype, snippet=description,
                             updatedAt=fresh, childrenCount=children), own or ""))
    return rows


def root_structure(layout: MemoryLayout, *, nearest: int = NEAREST_LIMIT) -> RootStructure:
    """The parameterless memory_browse."""
    def read(conn: sqlite3.Connection) -> tuple[list[tuple[PageRow, str]], list[PageRow]]:
        memo = index_memo(conn)
        if ("newest", nearest) not in memo:
            memo[("newest", nearest)] = conn.execute(_NEWEST, (nearest * 2,)).fetchall()
        return _hub_rows(conn, layout), [
            PageRow(path=p, title=t, pageType=k, snippet=d, updatedAt=u)
            for p, t, k, d, u in memo[("newest", nearest)]
            if os.path.isfile(layout.root / p)][:nearest]

    (hubs, newest), _warnings = read_index(layout, read)
    by_path = sorted(hubs, key=lambda pair: pair[0].path)
    structural = [row for row, _own in sorted(by_path, key=lambda pair: pair[1], reverse=True)]
    recent = sorted(structural, key=lambda row: row.path)
    recent.sort(key=lambda row: row.updatedAt or "", reverse=True)
    return RootStructure(index=index_row(layout, len(hubs)), hubs=structural,
                         hubsByRecent=recent, nearest=newest)


def start_points(layout: MemoryLayout) -> list[StartPoint]:
    """INDEX then the hubs, children-rich first (no rank: these are starts, not answers)."""
    rows, _warnings = read_index(layout, lambda conn: _hub_rows(conn, layout))
    hubs = [row for row, _own in rows]
    hubs.sort(key=lambda row: (-row.childrenCount, row.path))
    index = index_row(layout, len(hubs))
    return [StartPoint(path=index.path, title=index.title, pageType="index",
                       childrenCount=len(hubs))] + [
        StartPoint(path=h.path, title=h.title, pageType="hub", childrenCount=h.childrenCount)
        for h in hubs]


def navigation(layout: MemoryLayout) -> Navigation:
    return Navigation(startPoints=start_points(layout), guidance=GUIDANCE)


def memory_map(layout: MemoryLayout) -> str:
    """The stable digest injected at turn start: INDEX-TOC plus one line per hub."""
    index = index_row(layout)
    lines = ["# Memory Map", "", f"- {index.path}: {index.title}"
             + (f" ({index.snippet})" if index.snippet else "")]
    rows, _warnings = read_index(layout, lambda conn: _hub_rows(conn, layout))
    hubs = sorted((row for row, _own in rows), key=lambda r: r.path)
    lines += [f"- {h.path}: {h.title}, {h.childrenCount} page(s)"
              + (f" ({h.snippet})" if h.snippet else "") for h in hubs]
    return "\n".join(lines) + "\n"
