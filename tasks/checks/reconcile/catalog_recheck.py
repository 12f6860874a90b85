"""A catalog's drift right after an ingest, from what changed since the verdict's check.

The catalog gate (gates.check_catalog) compares index.md with every record and each wiki hub
with every page of its folder: 100,000 pages and rows at 100,000 pages, whatever changed. The
verdict's check (full.finish_passes) ran it over the files as the saved reconcile cache holds
them, and its PageBasis keeps the catalogs it found in step (`catalogs`: present, readable, no
missing and no stale row). For a later check from the same cache (page_recheck.py), such a
catalog's drift now is known from the change alone, when:
- nothing vanished since (page_recheck.vanished_since: no file, folder or unreadable file
  gone, no page turned unreadable): then every row it listed still names something there, so
  the only rows that can be stale are the rows an ingest put in it since (catalog_delta.py:
  the scan read it by delta, `Scan.catalog_puts`) or none when it did not change;
- the catalog is unchanged or read by delta, and has no problem now;
- each page that should be listed now and was not before is a page that appeared (never a
  folder or an unreadable file of that check: those are looked up in full) or, for a hub, a
  changed page that now hangs under no topic hub of its folder: the others were listed then
  (in step) and no row is ever dropped by a splice. Such a page is missing unless a row was
  put for it; a changed page that hung under no topic hub before was listed before.
Anything else (None here) is checked in full. Tests hold the equality with the full check
(tests/tasks/checks/reconcile/test_catalog_recheck.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, cast

from tasks.checks.facts import FileEntry
from tasks.checks.scan import Scan, kind_of
from tasks.store.layout import INDEX_FILE, LOG_FILE
from tasks.store.names import in_shards


@dataclass(frozen=True)
class CatalogBasis:
    """What a check from the verdict's cache knows of the catalogs (page_recheck.py)."""

    in_step: frozenset[str]  # catalogs the verdict's check found in step
    cached: dict[str, FileEntry]  # the files of that cache
    seen: frozenset[str]  # the folders and unreadable files that check saw
    vanished: bool  # something that check saw is gone (then every catalog is checked in full)


def under_topic_hub(meta: Any, hub: str, files: dict[str, FileEntry], rel: str) -> bool:
    """A page `rel` (its meta) that hangs under a topic hub of its folder (child_of another
    page in `files`, not the folder's hub `hub`): its topic hub lists it, so the folder hub
    need not (wiki-memory write flow, STEP 3c)."""
    parents = meta.get("child_of") or []
    parents = [parents] if isinstance(parents, str) else parents
    return bool(parents) and hub not in parents and any(
        isinstance(p, str) and p in files and p != rel for p in parents)


def _listed_before(scan: Scan, basis: CatalogBasis, rel: str, hub: str | None) -> bool | None:
    """Whether the verdict's check had `rel` listed by the catalog (in step then): True, False,
    or None when that is not known without its rows."""
    before = basis.cached.get(rel)
    if before is None:
        return None if rel in basis.seen else False
    if hub is None:
        return True  # index.md lists every record: its path made it one then as now
    meta = cast("dict[str, Any]", before["facts"]).get("meta", {})
    return None if under_topic_hub(meta, hub, basis.cached, rel) else True


def drift_since(scan: Scan, basis: CatalogBasis, catalog: str) -> tuple[list[str], list[str]] | None:
    """(missing, gone) of `catalog` as gates._catalog_drift finds them, from the change since
    the verdict's check; None when they cannot be known so (then it is checked in full)."""
    if basis.vanished or catalog not in basis.in_step or scan.problem(catalog) is not None:
        return None
    if catalog in scan.changed and catalog not in scan.catalog_puts:
        return None  # parsed whole: rows may have gone
    put = scan.catalog_puts.get(catalog, [])
    hub = None if catalog == INDEX_FILE else catalog
    missing: list[str] = []
    listed_now = set(put)
    for rel in changed_pages(scan, catalog):
        if rel in listed_now:
            continue
        before = _listed_before(scan, basis, rel, hub)
        if before is None:
            return None
        if not before:
            missing.append(rel)
    gone = sorted({p for p in put if not scan.exists(p)})
    return sorted(missing), gone


def changed_pages(scan: Scan, catalog: str) -> list[str]:
    """The pages that changed or appeared that `catalog` should list now (drift_since's
    `wanted`): every record for index.md, the direct children for a hub."""
    pages = [rel for rel in scan.changed if kind_of(rel) == "page" and rel in scan.files]
    if catalog == INDEX_FILE:
        return [rel for rel in pages if rel not in (INDEX_FILE, LOG_FILE) and not in_shards(rel)]
    folder = catalog.rpartition("/")[0]
    return [rel for rel in pages if rel != catalog and rel.rpartition("/")[0] == folder
            and not under_topic_hub(scan.page(rel)["meta"], catalog, scan.files, rel)]


def links_put(scan: Scan, noted: list[str], vanished: set[str]) -> dict[str, list[str]]:
    """The catalog pages read by delta whose link lookups can find something only among the
    links of the lines put: with nothing vanished, a page the verdict's check did not note
    (no finding, nothing looked up beyond the scan; page_recheck.py) had every link of its
    cached facts name something there, and still does; its type is unchanged (a changed
    type is a vanishing), so its links are judged as then. The links put, sorted (the order
    of the page's links, a sorted list)."""
    if vanished:
        return {}
    skip = set(noted)
    return {rel: sorted(links) for rel, links in scan.catalog_links_put.items() if rel not in skip}
