"""index.md (the catalog of every record, by category) and hub pages (a folder's children).

Both are generated from entries we parse back from their own bodies, so an update touches only
the entries that changed and a rerun with nothing new writes nothing.
"""

from __future__ import annotations

import re
import threading
from bisect import bisect_left
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from functools import lru_cache
from pathlib import PurePosixPath

from tasks.store.filememo import file_signature
from tasks.store.layout import (
    CATALOG_CATEGORIES,
    INDEX_FILE,
    OTHER_CATEGORY,
    WIKI_HUB_PAGES,
    WIKI_HUBS,
    MemoryLayout,
    category_of,
)
from tasks.store.page_writes import PageWrite, write_page
from tasks.store.pages import read_page

INDEX_TITLE = "Memory index"
INDEX_DESCRIPTION = "Catalog of every memory record in this memory root, by category."
_ENTRY_RE = re.compile(r"^- \[(?P<title>(?:[^\]\\]|\\.)*)\]\((?P<link>[^)\s]+)\)(?: — (?P<description>.*))?$")
_NONE_LINE = "_No records yet._"
CHILDREN_HEADING = "## Children"


@dataclass(frozen=True, order=True)
class CatalogEntry:
    path: str  # root-relative posix path
    title: str
    description: str = ""
    # A topic hub (a page of type hub): index.md lists it under ## Hubs, one line per hub.
    hub: bool = field(default=False, compare=False)


def _fold_whitespace(text: str) -> str:
    return " ".join(text.split())


def _escape_title(title: str) -> str:
    return _fold_whitespace(title).replace("\\", "\\\\").replace("[", "\\[").replace("]", "\\]")


_ESCAPED_RE = re.compile(r"\\(.)")


def _unescape_title(title: str) -> str:
    return _ESCAPED_RE.sub(r"\1", title) if "\\" in title else title  # (most have none)


def entry_line(entry: CatalogEntry, link: str) -> str:
    description = _fold_whitespace(entry.description)
    tail = f" — {description}" if description else ""
    return f"- [{_escape_title(entry.title)}]({link}){tail}"


def parse_entry_lines(body: str, *, base: str = "") -> dict[str, CatalogEntry]:
    """Entries of a catalog or hub body; links are resolved against `base` (a folder). A warm
    process that reads the same index.md again (a server's writes and retrieves) parses it
    once: the entries are frozen, the dict is the caller's own."""
    return dict(_parsed_entry_lines(body, base))


@lru_cache(maxsize=4)
def _parsed_entry_lines(body: str, base: str) -> dict[str, CatalogEntry]:
    entries: dict[str, CatalogEntry] = {}
    for line in body.splitlines():
        entry = _parsed_line(line, base)
        if entry is not None:
            entries[entry.path] = entry
    return entries


def _parsed_line(line: str, base: str = "") -> CatalogEntry | None:
    match = _ENTRY_RE.match(line)
    if not match:
        return None
    link = match.group("link")
    path = (PurePosixPath(base) / link).as_posix() if base else link
    return CatalogEntry(path, _unescape_title(match.group("title")), match.group("description") or "")


def _section_of(entry: CatalogEntry) -> str:
    """The catalog section of an entry ("" for the hubs, listed first: the wiki's own and the
    topic hubs)."""
    return "" if entry.path in WIKI_HUB_PAGES or entry.hub else category_of(entry.path)


def _layout_body(sections: dict[str, list[str]]) -> str:
    """The catalog body from each section's lines, in their order."""
    lines = [f"# {INDEX_TITLE}", "", INDEX_DESCRIPTION, "", "## Hubs", ""]
    lines += sections.get("", []) or [_NONE_LINE]
    titles = [title for title, _ in CATALOG_CATEGORIES]
    if sections.get(OTHER_CATEGORY):
        titles.append(OTHER_CATEGORY)
    for title in titles:
        lines += ["", f"## {title}", ""]
        lines += sections.get(title, []) or [_NONE_LINE]
    return "\n".join(lines) + "\n"


def render_index_body(entries: Iterable[CatalogEntry]) -> str:
    by_section: dict[str, list[CatalogEntry]] = {}
    for entry in entries:
        by_section.setdefault(_section_of(entry), []).append(entry)
    return _layout_body({section: [entry_line(e, e.path) for e in sorted(group)]
                         for section, group in by_section.items()})


@dataclass
class _IndexView:
    """index.md as its entries by path and each section's (path, line) rows sorted by path
    (paths are unique, so that is render_index_body's order): one new record is one insertion,
    not a parse, sort and format of the 10,000 others. `exact` while every row parses back to
    its path (a re-read of the written file then gives these very entries' paths and lines)."""

    entries: dict[str, CatalogEntry]
    sections: dict[str, list[tuple[str, str]]]
    exact: bool = True

    @classmethod
    def of(cls, entries: dict[str, CatalogEntry]) -> _IndexView:
        sections: dict[str, list[tuple[str, str]]] = {}
        for path in sorted(entries):
            sections.setdefault(_section_of(entries[path]), []).append(
                (path, entry_line(entries[path], path)))
        return cls(dict(entries), sections)

    def upsert(self, entry: CatalogEntry) -> None:
        old = self.entries.get(entry.path)
        if old is not None and old.hub:  # a topic hub stays listed under ## Hubs
            entry = replace(entry, hub=True)
        if old is not None and old == entry and old.hub == entry.hub:
            return
        if old is not None:
            old_rows = self.sections[_section_of(old)]
            del old_rows[bisect_left(old_rows, (old.path,))]
        rows = self.sections.setdefault(_section_of(entry), [])
        at = bisect_left(rows, (entry.path,))
        line = entry_line(entry, entry.path)
        rows.insert(at, (entry.path, line))
        self.entries[entry.path] = entry
        parsed = _parsed_line(line)
        self.exact = self.exact and parsed is not None and parsed.path == entry.path

    def body(self) -> str:
        return _layout_body({section: [line for _path, line in rows]
                             for section, rows in self.sections.items()})


# The view of the index.md this process last wrote or read, with that file's signature.
_VIEWS: dict[str, tuple[tuple[int, ...], _IndexView]] = {}
_VIEWS_GUARD = threading.Lock()


def _kept_view(layout: MemoryLayout) -> _IndexView | None:
    """The kept view when index.md is still the file it was made from (taken out: a view
    changed by a write that then fails must not be found again)."""
    with _VIEWS_GUARD:
        kept = _VIEWS.pop(str(layout.index_file), None)
    try:
        return kept[1] if kept is not None and kept[0] == file_signature(layout.index_file) else None
    except OSError:
        return None


def _keep_view(layout: MemoryLayout, view: _IndexView) -> None:
    if not view.exact:
        return
    try:
        signature = file_signature(layout.index_file)
    except OSError:
        return
    with _VIEWS_GUARD:
        _VIEWS[str(layout.index_file)] = (signature, view)


def index_meta() -> dict[str, str]:
    return {"type": "index", "title": INDEX_TITLE, "description": INDEX_DESCRIPTION}


def read_index_entries(layout: MemoryLayout) -> dict[str, CatalogEntry]:
    """index.md's entries; those under its ## Hubs section marked as hubs."""
    if not layout.index_file.exists():
        return {}
    body = read_page(layout.index_file).body
    entries = parse_entry_lines(body)
    hubs_section = body.split("\n## Hubs", 1)[1].split("\n## ", 1)[0] if "\n## Hubs" in body else ""
    for path in parse_entry_lines(hubs_section):
        if path in entries:
            entries[path] = replace(entries[path], hub=True)
    return entries


def update_index(
    layout: MemoryLayout,
    upserts: Iterable[CatalogEntry] = (),
    *,
    now_iso: str,
    replace_all: bool = False,
) -> PageWrite:
    """Add or refresh entries in index.md (or, with replace_all, make it list exactly `upserts`).
    A warm process (the MCP server) keeps the view of the file it wrote, while unchanged."""
    view = None if replace_all else _kept_view(layout)
    if view is None:
        view = _IndexView.of({} if replace_all else read_index_entries(layout))
    for entry in upserts:
        view.upsert(entry)
    written = write_page(layout.index_file, index_meta(), view.body(), now_iso=now_iso)
    _keep_view(layout, view)
    return written


def hub_meta(title: str, overview: str) -> dict[str, object]:
    return {"type": "hub", "title": title, "description": overview, "child_of": [INDEX_FILE]}


def render_hub_body(title: str, overview: str, children: Iterable[CatalogEntry], folder: str) -> str:
    lines = [f"# {title}", "", "## Overview", "", overview, "", CHILDREN_HEADING, ""]
    rows = [
        entry_line(child, PurePosixPath(child.path).relative_to(folder).as_posix())
        for child in sorted(children)
    ]
    lines += rows or [_NONE_LINE]
    return "\n".join(lines) + "\n"


def hub_definition(hub_path: str) -> tuple[str, str, str]:
    folder = PurePosixPath(hub_path).parent.as_posix()
    for hub_folder, title, overview in WIKI_HUBS:
        if hub_folder == folder:
            return folder, title, overview
    raise KeyError(hub_path)


def update_hub(
    layout: MemoryLayout,
    hub_path: str,
    children: Iterable[CatalogEntry] = (),
    *,
    now_iso: str,
    replace_all: bool = False,
) -> PageWrite:
    """Add or refresh children of a hub page (wiki/<folder>/index.md)."""
    folder, title, overview = hub_definition(hub_path)
    target = layout.root / hub_path
    existing: dict[str, CatalogEntry] = {}
    if target.exists() and not replace_all:
        page = read_page(target)
        existing = parse_entry_lines(page.body, base=folder)
        title = str(page.meta.get("title") or title)
        overview = str(page.meta.get("description") or overview)
    for child in children:
        existing[child.path] = child
    return write_page(
        target,
        hub_meta(title, overview),
        render_hub_body(title, overview, existing.values(), folder),
        now_iso=now_iso,
    )
