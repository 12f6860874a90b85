"""index.md (the catalog of every record, by category) and hub pages (a folder's children).

Both are generated from entries we parse back from their own bodies, so an update touches only
the entries that changed and a rerun with nothing new writes nothing.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
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
from tasks.store.pages import PageWrite, read_page, write_page

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


def _sort_key(entry: CatalogEntry) -> tuple[str, str, str]:
    return (entry.path, entry.title, entry.description)  # (the dataclass's own order)


# index.md's lines by entry, of the last body rendered: a warm process that adds one record
# renders the other 10,000 again; only the new and changed entries are formatted.
_INDEX_LINES: dict[CatalogEntry, tuple[str, str]] = {}


def render_index_body(entries: Iterable[CatalogEntry]) -> str:
    global _INDEX_LINES  # noqa: PLW0603 (one memo per process, replaced whole)
    known, fresh = _INDEX_LINES, dict[CatalogEntry, tuple[str, str]]()
    by_section: dict[str, list[tuple[tuple[str, str, str], str]]] = {}
    for entry in entries:
        found = fresh.get(entry) or known.get(entry)
        if found is None:  # its section ("" for a hub) and its line
            section = "" if entry.path in WIKI_HUB_PAGES else category_of(entry.path)
            found = (section, entry_line(entry, entry.path))
        fresh[entry] = found
        by_section.setdefault(found[0], []).append((_sort_key(entry), found[1]))
    _INDEX_LINES = fresh
    lines = [f"# {INDEX_TITLE}", "", INDEX_DESCRIPTION, "", "## Hubs", ""]
    lines += _sorted_lines(by_section.get("", [])) or [_NONE_LINE]
    titles = [title for title, _ in CATALOG_CATEGORIES]
    if by_section.get(OTHER_CATEGORY):
        titles.append(OTHER_CATEGORY)
    for title in titles:
        lines += ["", f"## {title}", ""]
        lines += _sorted_lines(by_section.get(title, [])) or [_NONE_LINE]
    return "\n".join(lines) + "\n"


def _sorted_lines(keyed: list[tuple[tuple[str, str, str], str]]) -> list[str]:
    keyed.sort(key=lambda pair: pair[0])
    return [line for _key, line in keyed]


def index_meta() -> dict[str, str]:
    return {"type": "index", "title": INDEX_TITLE, "description": INDEX_DESCRIPTION}


def read_index_entries(layout: MemoryLayout) -> dict[str, CatalogEntry]:
    if not layout.index_file.exists():
        return {}
    return parse_entry_lines(read_page(layout.index_file).body)


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
        entries[entry.path] = entry
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
