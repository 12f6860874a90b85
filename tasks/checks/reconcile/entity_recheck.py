"""The page-type counts and the entity-page gates right after an ingest, from the change.

The counts of pages by type and the two entity-page gates (gates.check_entity_pages: one page
per graph entity; drift.check_entity_drift: each page shows its entity's rows) read every
page's facts: 100,000 at 100,000 pages, whatever changed. A check from the cache the verdict's
check was made on (page_recheck.py) knows them from the change instead:

- the counts are the verdict's check's counts (PageBasis.by_type, over the cache's pages) less
  the cached types of the pages that changed or went, plus the types they have now;
- the entity-page gates, when the verdict's check found nothing there (PageBasis.entities:
  every entity page named a graph entity, one page per entity, each showing its rows) and
  since then nothing vanished (page_recheck.vanished_since: no page gone, turned unreadable or
  of another type), no graph entity went and the graph is normalized then and now, run only
  on the entity pages that changed or appeared and the graph entities that appeared, when:
  a changed page names the entity it named then, a page that appeared names no entity the
  graph had then (that entity's page is still there: a duplicate whose other page is known
  only by reading every page), and each entity whose rows changed in the graph has its page
  among the changed ones. Every other page and entity is as the verdict's check found it: in
  step. Anything else (None here) is checked over every page. Tests hold the equality with the
  full check (tests/tasks/checks/reconcile/test_entity_recheck.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, cast

from schemas.graph import entity_key
from schemas.health import UNTYPED_PAGE
from tasks.checks.facts import FileEntry, GraphFacts
from tasks.checks.scan import Scan, kind_of
from tasks.store.layout import GRAPH_FILE

_NO_META: dict[str, Any] = {}


class PageTypes:
    """Each page's front matter `type` (None: none, or not a page), read from the scan's
    facts when asked: a check after an ingest asks of a few pages, not of 100,000."""

    def __init__(self, files: dict[str, FileEntry]) -> None:
        self._files = files

    def get(self, rel: str) -> str | None:
        entry = self._files.get(rel)
        if entry is None:
            return None
        page_type = cast("dict[str, Any]", entry["facts"]).get("meta", _NO_META).get("type")
        return page_type if isinstance(page_type, str) else None


def count_types(scan: Scan, pages: list[str]) -> dict[str, int]:
    """The count of each page type over `pages` (scanned pages), sorted by type."""
    by_type: dict[str, int] = {}
    types = PageTypes(scan.files)
    for rel in pages:
        counted = types.get(rel) or UNTYPED_PAGE
        by_type[counted] = by_type.get(counted, 0) + 1
    return dict(sorted(by_type.items()))


def types_since(by_type: dict[str, int], cached: dict[str, FileEntry], scan: Scan
                ) -> dict[str, int]:
    """count_types over the scan's pages, from `by_type` (its count over the pages of
    `cached`, the cache `scan` was made from) and the pages that changed, appeared or went."""
    counts = dict(by_type)
    before, now = PageTypes(cached), PageTypes(scan.files)
    touched = scan.changed.union(cached.keys() - scan.files.keys())
    for rel in touched:
        if kind_of(rel) != "page":
            continue
        if rel in cached:
            old = before.get(rel) or UNTYPED_PAGE
            counts[old] = counts.get(old, 0) - 1
        if rel in scan.files:
            new = now.get(rel) or UNTYPED_PAGE
            counts[new] = counts.get(new, 0) + 1
    return dict(sorted((kind, n) for kind, n in counts.items() if n))


def entity_page_key(meta: Any) -> str | None:
    """The entity key an entity page names (entity_name, else title); None: it names none."""
    name = meta.get("entity_name") or meta.get("title")
    return entity_key(name) if isinstance(name, str) and name.strip() else None


@dataclass(frozen=True)
class EntityRecheck:
    """The only entity pages and graph entities whose entity-page findings may be some."""

    pages: list[str]  # sorted
    keys: frozenset[str]  # entity keys of the graph


def _graph_rows(facts: Any) -> dict[str, str] | None:
    """A graph's entity rows by key, when it parsed and is normalized (one entity per key)."""
    if not isinstance(facts, dict) or facts.get("problem") is not None \
            or facts.get("normalized") is not True:
        return None
    return cast(GraphFacts, facts)["entity_rows"]


def entities_since(scan: Scan, cached: dict[str, FileEntry], graph: GraphFacts | None,
                   graph_keys: dict[str, tuple[str, str]], page_types: PageTypes
                   ) -> EntityRecheck | None:
    """The entity pages and entities the entity-page gates must look at after the change
    since the verdict's check, which found them in step, with nothing vanished since (the
    caller's conditions); None when every page must be looked at (see the module doc)."""
    before = cached.get(GRAPH_FILE)
    old_rows = _graph_rows(before["facts"]) if before is not None else None
    new_rows = _graph_rows(graph)
    if old_rows is None or new_rows is None or new_rows.keys() != graph_keys.keys():
        return None
    if not old_rows.keys() <= new_rows.keys():
        return None  # an entity went: its page is known only by reading every page
    pages: list[str] = []
    keys: set[str] = set()
    for rel in sorted(scan.changed):
        if rel not in scan.files or page_types.get(rel) != "entity":
            continue
        key = entity_page_key(scan.page(rel)["meta"])
        old = cached.get(rel)
        if old is not None:
            if entity_page_key(cast("dict[str, Any]", old["facts"])["meta"]) != key:
                return None  # renamed: the entity it left may have no page now
        elif key in old_rows:
            return None  # a second page of an entity whose page is still there
        pages.append(rel)
        if key is not None:
            keys.add(key)
    for key, rows in old_rows.items() if new_rows is not old_rows else ():
        now = new_rows[key]
        if now is not rows and now != rows and key not in keys:
            return None  # its rows changed and its page did not: that page may drift now
    return EntityRecheck(pages, frozenset((new_rows.keys() - old_rows.keys())
                                          | (keys & new_rows.keys())))
