"""The pages a check right after an ingest runs the per-page gates on.

The verdict's check (full.finish_passes) ran every per-page gate (gates.PAGE_GATES) over the
files as the saved reconcile cache holds them. A page's per-page findings depend on its own
facts, its created_at baseline (kept in that cache), whether its link targets exist (files,
folders, unreadable files), the types of the pages it hangs under, whether index.md lists it,
and, for a link that names nothing the scan saw, the disk. So the verdict keeps, beside its
findings, the pages the gates found something on or looked beyond the scan for
(GateContext.noted_pages), and that check's folders and unreadable files: a PageBasis.

A later check from the same cache (verdict.bookkeeping_holds: a check right after an ingest)
runs the per-page gates only on the noted pages, the pages the scan read again (their facts
changed or appeared), and, when something vanished, the pages that name it: a file or folder
gone, a file turned unreadable or a page whose type changed (a parent that is no longer a
hub), a record index.md stopped listing. Every other page had no finding and still has none:
what appeared cannot take one away from it (each of its targets existed already; a missing
one is a finding, and then the page is noted). Tests hold the equality with the full check
(tests/tasks/checks/test_graph_delta.py, tests/tasks/checks/reconcile/test_page_recheck.py).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, cast

from schemas.page import TYPED_LINK_KEYS
from tasks.checks.facts import FileEntry, PageFacts
from tasks.checks.reconcile.context import GateContext
from tasks.checks.reconcile.gates import typed_link_path
from tasks.checks.scan import Scan, kind_of
from tasks.store.layout import INDEX_FILE, WIKI_FOLDER, hub_path


@dataclass(frozen=True)
class PageBasis:
    """What the verdict's check leaves for the per-page gates of a later check."""

    noted: list[str]  # pages with findings, or links looked up beyond the scan
    dirs: list[str]  # the folders and unreadable files that check saw
    unreadable: list[str]
    catalogs: list[str]  # index.md and the hubs it found in step (catalog_recheck.py)
    # the count of each page type over the cache's pages, and whether the entity-page gates
    # found nothing (entity_recheck.py)
    by_type: dict[str, int] = field(default_factory=dict)
    entities: bool = False

    def to_json(self) -> dict[str, Any]:
        return {"noted": self.noted, "dirs": self.dirs, "unreadable": self.unreadable,
                "catalogs": self.catalogs, "by_type": self.by_type, "entities": self.entities}

    @classmethod
    def from_json(cls, data: Any) -> PageBasis | None:
        """None unless `data` is what to_json wrote (a damaged verdict file: every page)."""
        if not isinstance(data, dict):
            return None
        lists = [data.get(key) for key in ("noted", "dirs", "unreadable", "catalogs")]
        if not all(isinstance(v, list) and all(isinstance(x, str) for x in v) for v in lists):
            return None
        by_type, entities = data.get("by_type"), data.get("entities")
        if not isinstance(by_type, dict) or not isinstance(entities, bool) or not all(
                isinstance(k, str) and type(n) is int for k, n in by_type.items()):
            return None
        noted, dirs, unreadable, catalogs = cast("list[list[str]]", lists)
        return cls(noted, dirs, unreadable, catalogs, by_type=by_type, entities=entities)


def basis_of(scan: Scan, context: GateContext) -> PageBasis:
    """The PageBasis of a check over every page (context.pages_to_check is None)."""
    return PageBasis(noted=sorted(context.noted_pages), dirs=sorted(scan.dirs),
                     unreadable=sorted(scan.unreadable),
                     catalogs=sorted(context.catalogs_in_step),
                     by_type=dict(context.pages_by_type),
                     entities={"entity_pages", "entity_drift"} <= context.gates_in_step)


def _page_type(entry: FileEntry) -> object:
    facts = cast("dict[str, Any]", entry["facts"])  # any kind: a page's has its meta
    return facts.get("meta", {}).get("type")


def _unlisted(before: FileEntry | None, scan: Scan) -> set[str]:
    """Records outside wiki/ that index.md listed and lists no more (check_orphans reads the
    listing for those)."""
    def listed(facts: Any) -> set[str]:
        return {row[0] for row in facts.get("entries", ()) if not row[0].startswith(WIKI_FOLDER)}

    after = scan.files.get(INDEX_FILE)
    return (listed(before["facts"]) if before is not None else set()) - (
        listed(after["facts"]) if after is not None else set())


def _names(facts: PageFacts, vanished: set[str]) -> bool:
    """Whether a page's links or typed links (as they resolve: a file, or a folder's hub)
    name one of `vanished`."""
    if not vanished.isdisjoint(facts["links"]):
        return True
    meta = facts["meta"]
    for key in TYPED_LINK_KEYS:
        for target in cast("list[str]", meta.get(key, ())):
            clean = typed_link_path(target)
            if clean is not None and (clean in vanished or hub_path(clean) in vanished):
                return True
    return False


def vanished_since(basis: PageBasis, cached: dict[str, FileEntry], scan: Scan) -> set[str]:
    """What the basis's check saw that is gone or changed its nature: a file, folder or
    unreadable file gone, a file turned unreadable, a page whose type changed (a parent that
    may no longer be a hub). `cached`: the files of the cache `scan` was made from."""
    files, unreadable = scan.files, scan.unreadable
    made_from = scan.removed_from() if scan.removed_from is not None else None
    if made_from is cached:  # the scan's own cache (by part): its removed files, known
        vanished = set(scan.removed)
        vanished.update(rel for rel in unreadable if rel in cached)
    else:
        vanished = cached.keys() - files.keys()  # removed and the files turned unreadable
    vanished.update(set(basis.dirs).difference(scan.dirs))
    vanished.update(set(unreadable).difference(basis.unreadable))
    vanished.update(rel for rel in basis.unreadable if rel not in unreadable and rel not in files)
    vanished.update(rel for rel in scan.changed  # a page's type (others have none)
                    if rel in cached and rel in files and kind_of(rel) == "page"
                    and _page_type(cached[rel]) != _page_type(files[rel]))
    return vanished


def pages_to_check(basis: PageBasis, cached: dict[str, FileEntry], scan: Scan,
                   pages: list[str], vanished: set[str] | None = None) -> list[str]:
    """The pages of `pages` (the check's) whose per-page findings may differ from none,
    sorted: `cached` is the files of the cache `scan` was made from, the basis's files;
    `vanished`: vanished_since's, when known."""
    files = scan.files
    on = set(basis.noted).intersection(files)
    on.update(rel for rel in scan.changed if rel in files)
    if vanished is None:
        vanished = vanished_since(basis, cached, scan)
    # index.md read by delta only had rows put (catalog_delta.py): it stopped listing none
    if INDEX_FILE in vanished or (INDEX_FILE in scan.changed
                                  and INDEX_FILE not in scan.catalog_puts):
        on.update(_unlisted(cached.get(INDEX_FILE), scan))
    if vanished:
        on.update(rel for rel in pages if _names(scan.page(rel), vanished))
    return sorted(rel for rel in on if rel in files and kind_of(rel) == "page")  # of `pages`
