"""index.md (the catalog of every record, by category) and hub pages (a folder's children).

Both are generated from entries we parse back from their own bodies, so an update touches only
the entries that changed and a rerun with nothing new writes nothing.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from functools import lru_cache
from pathlib import PurePosixPath

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
        match = _ENTRY_RE.match(line)
        if not match:
            continue
        link = match.group("link")
        path = (PurePosixPath(base) / link).as_posix() if base else link
        entries[path] = CatalogEntry(
            path, _unescape_title(match.group("title")), match.group("description") or ""
        )
    return entries


def render_index_body(entries: Iterable[CatalogEntry]) -> str:
    by_category: dict[str, list[CatalogEntry]] = {}
    hubs: list[CatalogEntry] = []
    for entry in entries:
        if entry.path in WIKI_HUB_PAGES or entry.hub:
            hubs.append(entry)
        else:
            by_category.setdefault(category_of(entry.path), []).append(entry)
    lines = [f"# {INDEX_TITLE}", "", INDEX_DESCRIPTION, "", "## Hubs", ""]
    lines += [entry_line(e, e.path) for e in sorted(hubs)] or [_NONE_LINE]
    titles = [title for title, _ in CATALOG_CATEGORIES]
    if by_category.get(OTHER_CATEGORY):
        titles.append(OTHER_CATEGORY)
    for title in titles:
        lines += ["", f"## {title}", ""]
        lines += [entry_line(e, e.path) for e in sorted(by_category.get(title, []))] or [_NONE_LINE]
    return "\n".join(lines) + "\n"


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
    """Add or refresh entries in index.md (or, with replace_all, make it list exactly `upserts`)."""
    entries = {} if replace_all else read_index_entries(layout)
    for entry in upserts:
        old = entries.get(entry.path)
        entries[entry.path] = replace(entry, hub=True) if old and old.hub else entry
    return write_page(
        layout.index_file, index_meta(), render_index_body(entries.values()), now_iso=now_iso
    )


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
