"""index.md (the catalog of every record, by category) and hub pages (a folder's children).

Both are generated from entries we parse back from their own bodies, so an update touches only
the entries that changed and a rerun with nothing new writes nothing.
"""

from __future__ import annotations

import re
import threading
from bisect import bisect_left
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from functools import lru_cache
from pathlib import Path, PurePosixPath

import orjson

from tasks.markdown.escapes import escape_link_text, unescape_link_text
from tasks.store.atomic import atomic_write_bytes
from tasks.store.catalog_delta import PutRow, record_step
from tasks.store.filememo import file_identity, file_signature
from tasks.store.layout import (
    CATALOG_CATEGORIES,
    INDEX_FILE,
    OTHER_CATEGORY,
    STATE_DIR,
    WIKI_HUB_PAGES,
    WIKI_HUBS,
    MemoryLayout,
    category_of,
)
from tasks.store.names import is_clean_relative
from tasks.store.page_writes import PageWrite, write_page
from tasks.store.pages import Page, changed_page_head, read_page, read_text, split_page

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
    return escape_link_text(_fold_whitespace(title))


def entry_line(entry: CatalogEntry, link: str) -> str:
    description = _fold_whitespace(entry.description)
    tail = f" — {description}" if description else ""
    return f"- [{_escape_title(entry.title)}]({link}){tail}"


# _ENTRY_RE over a whole body at once (its link only): no part crosses a newline, so each match
# is one line, as splitlines gives them when the body has no other line break (_OTHER_BREAKS).
_ENTRY_LINK_RE = re.compile(r"^- \[(?:[^\]\\\n]|\\.)*\]\(([^)\s]+)\)(?: — .*)?$", re.MULTILINE)
_OTHER_BREAKS_RE = re.compile("[\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]")


def count_entries(body: str) -> int:
    """len(parse_entry_lines(body)) without making the entries: index.md of 100,000 records
    in 0.1 s, not 0.5 s (retrieve's packet counts them)."""
    if _OTHER_BREAKS_RE.search(body):
        return len(parse_entry_lines(body))
    return len(set(_ENTRY_LINK_RE.findall(body)))


# _ENTRY_RE over a whole body at once, every group: as _ENTRY_LINK_RE, each match is one line.
_ENTRY_ROW_RE = re.compile(r"^- \[((?:[^\]\\\n]|\\.)*)\]\(([^)\s]+)\)(?: — (.*))?$", re.MULTILINE)


def catalog_rows(body: str, *, base: str = "") -> list[tuple[str, str, str]]:
    """(path, title, description) of parse_entry_lines(body, base=base)'s entries, in their
    order, with no CatalogEntry made: the scan's facts of index.md and the hubs (170,000
    lines at 100,000 pages, parsed again after each ingest)."""
    if _OTHER_BREAKS_RE.search(body):
        return [(e.path, e.title, e.description)
                for e in parse_entry_lines(body, base=base).values()]
    rows: dict[str, tuple[str, str, str]] = {}
    for title, link, description in _ENTRY_ROW_RE.findall(body):
        path = joined_path(base, link) if base else link
        rows[path] = (path, unescape_link_text(title), description)
    return list(rows.values())


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


def joined_path(base: str, link: str) -> str:
    """(PurePosixPath(base) / link).as_posix(), without building paths for the clean ones
    (a hub lists 50,000 children at 100,000 pages, each joined when it is read)."""
    if is_clean_relative(base) and is_clean_relative(link):
        return f"{base}/{link}"
    return (PurePosixPath(base) / link).as_posix()


def _parsed_line(line: str, base: str = "") -> CatalogEntry | None:
    match = _ENTRY_RE.match(line)
    if not match:
        return None
    link = match.group("link")
    path = joined_path(base, link) if base else link
    return CatalogEntry(path, unescape_link_text(match.group("title")), match.group("description") or "")


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


# The catalog pages as membank last wrote them in their canonical form (every line one entry
# that parses back to its path, sections and rows in render order), by root-relative path ->
# file identity. An update of a page found so edits its rows in place (a bisection per entry)
# instead of parsing and rendering every entry: index.md lists every record (100,000 lines at
# 100,000 pages). Any other write (a hand edit, a restore) gives the page another identity,
# and the next update parses it whole, as before. Bookkeeping only: unreadable, it trusts nothing.
CATALOG_RECORD = f"{STATE_DIR}/written-catalog.json"
SPLICE_MAX_ENTRIES = 64  # more at once: one parse and render of the whole page is cheaper


def _record_file(layout: MemoryLayout) -> Path:
    return layout.root / CATALOG_RECORD


def _read_record(layout: MemoryLayout) -> dict[str, list[int]]:
    try:
        data = orjson.loads(_record_file(layout).read_bytes())
    except (OSError, orjson.JSONDecodeError):
        return {}
    return data if isinstance(data, dict) else {}


def _remember(layout: MemoryLayout, page: Path, canonical: bool) -> None:
    record = _record_file(layout)
    if not record.parent.is_dir():
        return
    pages = _read_record(layout)
    identity = file_identity(page) if canonical else None
    rel = layout.relative(page)
    if pages.get(rel) == identity:
        return
    if identity is None:
        pages.pop(rel, None)
    else:
        pages[rel] = identity
    atomic_write_bytes(record, orjson.dumps(pages, option=orjson.OPT_SORT_KEYS), validate=False)


def _canonical_identity(layout: MemoryLayout, page: Path) -> list[int] | None:
    """The page's identity when it is canonical (as membank last wrote it), else None."""
    identity = file_identity(page)
    return identity if identity is not None and _read_record(layout).get(
        layout.relative(page)) == identity else None


def _canonical(layout: MemoryLayout, page: Path) -> bool:
    return _canonical_identity(layout, page) is not None


class _NotCanonical(Exception):
    """A row that is not as membank renders it: the page is parsed whole instead."""


def _link_of(line: str) -> str:
    match = _ENTRY_RE.match(line)
    if match is None:
        raise _NotCanonical(line)
    return match.group("link")


def _rows(lines: list[str], heading: str) -> tuple[int, int]:
    """The [start, end) of a section's rows (a heading, a blank line, rows, a blank line)."""
    try:
        start = lines.index(heading) + 2
        end = lines.index("", start)
    except ValueError as exc:
        raise _NotCanonical(heading) from exc
    if start >= end:
        raise _NotCanonical(heading)
    return start, end


def _find_row(lines: list[str], span: tuple[int, int], link: str) -> tuple[int, bool]:
    """Where `link`'s row is (True) or goes (False) in a section's sorted rows."""
    start, end = span
    if end - start == 1 and lines[start] == _NONE_LINE:
        return start, False
    at = bisect_left(lines, link, start, end, key=_link_of)
    return at, at < end and _link_of(lines[at]) == link


def _put_row(lines: list[str], span: tuple[int, int], link: str, line: str) -> int:
    """Insert `line` (a new row) in its place in a section's sorted rows; where it went."""
    at, found = _find_row(lines, span, link)
    if found:
        raise _NotCanonical(line)  # a row for this link is there already
    if span[1] - span[0] == 1 and lines[span[0]] == _NONE_LINE:
        lines[span[0]] = line
        return span[0]
    lines.insert(at, line)
    return at


def _row_before(lines: list[str], at: int, base: str) -> str | None:
    """The path of the catalog row above line `at` as catalog_rows reads the body (None: it
    is the first), for the splice's record (tasks/store/catalog_delta.py)."""
    for line in reversed(lines[max(0, at - _ROW_LOOKBACK):at]):
        rows = catalog_rows(line, base=base) if line.startswith("- [") else []
        if rows:
            return rows[0][0]
    if at > _ROW_LOOKBACK:  # (a section of blank lines and headings this long: never canonical)
        raise _NotCanonical(lines[at])
    return None


_ROW_LOOKBACK = 64


def _drop_row(lines: list[str], span: tuple[int, int], at: int) -> None:
    if span[1] - span[0] == 1:
        lines[at] = _NONE_LINE
    else:
        del lines[at]


def _exact(line: str, path: str, base: str = "") -> bool:
    parsed = _parsed_line(line, base)
    return parsed is not None and parsed.path == path


def _section_text(body: bytes, heading: str, at: int = 0) -> bytes:
    """The bytes of a canonical body's section under `heading` (b"" when it has none); the
    body starts at `at` in `body`."""
    mark = f"\n{heading}\n".encode()
    start = body.find(mark, at)
    if start < 0:
        return b""
    end = body.find(b"\n## ", start + len(mark))
    return body[start + len(mark) - 1: len(body) if end < 0 else end + 1]


def _listed_already(body: bytes, upserts: list[CatalogEntry], at: int = 0) -> bool:
    """Whether each upsert's row is in a canonical index.md `body` (its UTF-8 bytes) as
    _splice_index would leave it: its very line in the section it belongs to, and (for a
    record) its path not listed under ## Hubs. One substring search per entry on the file's
    bytes, neither decoded nor split (index.md lists every record: bootstrap re-lists the hubs
    at every command, distill its entities). The body starts at `at` in `body`."""
    hubs = _section_text(body, "## Hubs", at)
    for entry in upserts:
        section = _section_of(entry)
        text = hubs if section == "" else _section_text(body, f"## {section}", at)
        if f"\n{entry_line(entry, entry.path)}\n".encode() not in text:
            return False
        if section != "" and f"]({entry.path})".encode() in hubs:
            return False
    return True


def _children_listed(body: bytes, folder: str, children: list[CatalogEntry], at: int = 0) -> bool:
    """Whether a canonical hub `body` (its UTF-8 bytes, from `at`) holds each child's row as
    _splice_hub would leave it (its very line under ## Children): then the splice changes
    nothing."""
    rows = _section_text(body, CHILDREN_HEADING, at)
    return all(f"\n{entry_line(child, _child_link(child, folder))}\n".encode() in rows
               for child in children)


def _child_link(child: CatalogEntry, folder: str) -> str:
    return PurePosixPath(child.path).relative_to(folder).as_posix()


def _splice_index(body: str, upserts: list[CatalogEntry], puts: list[PutRow] | None = None) -> str:
    """index.md's canonical `body` with `upserts` added or refreshed, as _IndexView gives it.
    `puts`: the rows put, in order, as tasks/store/catalog_delta.py records them."""
    lines = body.split("\n")
    for entry in upserts:
        hubs = _rows(lines, "## Hubs")
        at, was_hub = _find_row(lines, hubs, entry.path)
        category = category_of(entry.path)
        if not was_hub:
            span = _rows(lines, f"## {category}")
            at, found = _find_row(lines, span, entry.path)
        else:
            span, found, entry = hubs, True, replace(entry, hub=True)
        line = entry_line(entry, entry.path)
        if found and lines[at] == line and (_section_of(entry) == "") == was_hub:
            continue
        if not _exact(line, entry.path):
            raise _NotCanonical(line)
        replaced = lines[at] if found else None
        if found:
            _drop_row(lines, span, at)
        section = _section_of(entry)
        put = _put_row(lines, _rows(lines, "## Hubs" if section == "" else f"## {section}"),
                       entry.path, line)
        if puts is not None:
            puts.append([entry.path, line, _row_before(lines, put, ""), replaced])
    return "\n".join(lines)


def _splice_hub(body: str, folder: str, children: list[CatalogEntry],
                puts: list[PutRow] | None = None) -> str:
    """A hub's canonical `body` with `children` added or refreshed, as render_hub_body gives
    it. `puts`: as _splice_index's."""
    lines = body.split("\n")
    for child in children:
        link = _child_link(child, folder)
        line = entry_line(child, link)
        span = _rows(lines, CHILDREN_HEADING)
        at, found = _find_row(lines, span, link)
        if found and lines[at] == line:
            continue
        if not _exact(line, child.path, folder):
            raise _NotCanonical(line)
        replaced = lines[at] if found else None
        if found:
            _drop_row(lines, span, at)
        put = _put_row(lines, _rows(lines, CHILDREN_HEADING), link, line)
        if puts is not None:
            puts.append([child.path, line, _row_before(lines, put, folder), replaced])
    return "\n".join(lines)


# What _spliced returns for a canonical page that the entries leave as it is: its bytes are
# what write_page would write again (membank wrote them with the same metadata, and
# updated_at refreshes on real change only), so the page is neither re-read nor re-rendered.
_UNCHANGED = "\x00unchanged"


@dataclass(frozen=True)
class _Splice:
    body: str  # the page's new body, or _UNCHANGED
    read: tuple[str, Page] | None  # the page's text and its split, as read (None: _UNCHANGED)
    identity: list[int]  # the page's identity as read
    puts: list[PutRow]  # the rows put (tasks/store/catalog_delta.py)


def _spliced(layout: MemoryLayout, page: Path, entries: list[CatalogEntry],
             splice: Callable[[str, list[PutRow]], str], listed: Callable[[bytes, int], bool]
             ) -> _Splice | None:
    """The page's new body by splicing, when it is canonical (as membank wrote it) and the
    entries few (body _UNCHANGED when it is the page's own: `listed` finds every entry's row in
    the page's bytes, or the splice leaves the body as it is); None otherwise (the caller
    parses the page whole)."""
    identity = _canonical_identity(layout, page) if len(entries) <= SPLICE_MAX_ENTRIES else None
    if identity is None:
        return None
    try:
        data = page.read_bytes()
    except OSError:
        data = b""  # (read_text below names the cause)
    # (the body: after the front matter's closing line, as membank writes it)
    body_at = data.find(b"\n---\n") if data.startswith(b"---\n") else -1
    puts: list[PutRow] = []
    try:
        if body_at >= 0 and listed(data, body_at + 5):
            return _Splice(_UNCHANGED, None, identity, [])
        try:
            text = data.decode("utf-8") if data else read_text(page)
        except UnicodeDecodeError:
            text = read_text(page)  # (raises the contract's error, naming the offset)
        del data  # (not held beside its text while the page is spliced and written: 10 MB)
        old = split_page(text, file=page)
        new = splice(old.body, puts)
    except (_NotCanonical, ValueError):
        return None
    return _Splice(_UNCHANGED if new == old.body else new, (text, old), identity, puts)


def _record_splice(layout: MemoryLayout, page: Path, done: _Splice) -> None:
    """The splice's step in tasks/store/catalog_delta.py's record (the page just written)."""
    record_step(layout.root, layout.relative(page), done.identity, file_identity(page), done.puts)


# index.md and the hubs spliced in their bytes: a few rows added or refreshed in their
# sections as _splice_index and _splice_hub do it, found by bisection over the section's byte
# offsets; nothing else of the page (index.md 10 MB, the entities hub 4.5 MB at 100,000 pages)
# is decoded, split, joined or encoded again. Only the plain case (for index.md no entry a hub
# or listed under ## Hubs; the page exactly as render_page writes it): anything else is spliced
# as text (_spliced), which decides the same way.
BYTE_SPLICE_MAX = 8
_NONE_BYTES = _NONE_LINE.encode()


def _byte_rows(data: bytes, body_at: int, heading: str) -> tuple[int, int]:
    """_rows in the bytes: [start, end) of a section's rows, `end` the newline that ends its last
    row (the body starts at `body_at`, after a newline)."""
    mark = f"\n{heading}\n".encode()
    found = data.find(mark, body_at - 1)
    if found < 0:
        raise _NotCanonical(heading)
    skipped = data.find(b"\n", found + len(mark))  # (the line after the heading)
    if skipped < 0:
        raise _NotCanonical(heading)
    start = skipped + 1
    blank = data.find(b"\n\n", start - 1)
    end = blank if blank >= 0 else len(data) - 1
    if end <= start - 1 or (blank < 0 and not data.endswith(b"\n")):
        raise _NotCanonical(heading)
    return start, end


def _line_at(data: bytes, start: int) -> tuple[str, int]:
    end = data.find(b"\n", start)
    return data[start:end].decode("utf-8"), end


def _byte_find_row(data: bytes, span: tuple[int, int], link: str) -> tuple[int, bool]:
    """_find_row in the bytes: the offset where `link`'s row is (True) or goes (False)."""
    if data.startswith(_NONE_BYTES, span[0]) and span[0] + len(_NONE_BYTES) == span[1]:
        return span[0], False
    low, high = span[0], span[1] + 1  # (line starts; high: the line after the last row)
    while low < high:
        middle = (low + high) // 2
        newline = data.rfind(b"\n", low, middle)
        start = low if newline < 0 else newline + 1
        line, end = _line_at(data, start)
        if _link_of(line) < link:
            low = end + 1
        else:
            high = start
    return low, low <= span[1] and _link_of(_line_at(data, low)[0]) == link


def _byte_row_before(data: bytes, body_at: int, at: int, base: str) -> str | None:
    """_row_before in the bytes: the path of the catalog row above the line at offset `at`."""
    end = at - 1
    for _ in range(_ROW_LOOKBACK):
        if end < body_at:
            return None
        newline = data.rfind(b"\n", body_at, end)
        line = data[body_at if newline < 0 else newline + 1:end].decode("utf-8")
        rows = catalog_rows(line, base=base) if line.startswith("- [") else []
        if rows:
            return rows[0][0]
        end = newline
    if end >= body_at:
        raise _NotCanonical(data[at:at + 80].decode("utf-8", "replace"))
    return None


def _byte_put_row(data: bytes, body_at: int, heading: str, row: tuple[str, str, str, str],
                  puts: list[PutRow]) -> bytes:
    """One entry's step of _splice_index or _splice_hub on the bytes: `row` (path, link, line,
    the links' base) put in its place under `heading`, replacing its old row or the section's
    "none" line."""
    path, link, line, base = row
    span = _byte_rows(data, body_at, heading)
    at, found = _byte_find_row(data, span, link)
    replaced = _line_at(data, at)[0] if found else None
    if not found and data.startswith(_NONE_BYTES, at) and at + len(_NONE_BYTES) == span[1]:
        replaced = _NONE_LINE  # (an empty section's line, replaced by the row)
    if found and replaced == line:
        return data
    if not _exact(line, path, base):
        raise _NotCanonical(line)
    encoded = line.encode()
    if replaced is not None:  # (the row itself, or the section's "none" line)
        data = data[:at] + encoded + data[at + len(replaced.encode()):]
    else:
        data = data[:at] + encoded + b"\n" + data[at:]
    puts.append([path, line, _byte_row_before(data, body_at, at, base),
                 replaced if found else None])
    return data


def _byte_splice_index(data: bytes, body_at: int, upserts: list[CatalogEntry],
                       puts: list[PutRow]) -> bytes:
    """_splice_index on the page's bytes (its body from `body_at`), for entries that are not
    hubs; _NotCanonical for anything else."""
    for entry in upserts:
        section = _section_of(entry)
        if section == "":
            raise _NotCanonical(entry.path)
        if _byte_find_row(data, _byte_rows(data, body_at, "## Hubs"), entry.path)[1]:
            raise _NotCanonical(entry.path)
        data = _byte_put_row(data, body_at, f"## {section}",
                             (entry.path, entry.path, entry_line(entry, entry.path), ""), puts)
    return data


def _byte_splice_hub(data: bytes, body_at: int, folder: str, children: list[CatalogEntry],
                     puts: list[PutRow]) -> bytes:
    """_splice_hub on the page's bytes (its body from `body_at`)."""
    for child in children:
        link = _child_link(child, folder)
        data = _byte_put_row(data, body_at, CHILDREN_HEADING,
                             (child.path, link, entry_line(child, link), folder), puts)
    return data


@dataclass(frozen=True)
class _BytePlan:
    """What a catalog page's splice in its bytes does, for _spliced_in_bytes."""

    count: int  # the entries
    listed: Callable[[bytes, int], bool]  # every entry's row there already (the body's offset)
    splice: Callable[[bytes, int, list[PutRow]], bytes]  # the page's bytes, spliced
    meta: Callable[[dict[str, object]], dict[str, object]]  # the meta to write, from the page's


def _spliced_in_bytes(layout: MemoryLayout, page: Path, plan: _BytePlan, *, now_iso: str
                      ) -> PageWrite | None:
    """The splice of a canonical catalog page (index.md, a hub) in its bytes, written; None
    when the case is not the plain one (the caller splices as text)."""
    listed, splice, meta = plan.listed, plan.splice, plan.meta
    if not 0 < plan.count <= BYTE_SPLICE_MAX:
        return None
    identity = _canonical_identity(layout, page)
    if identity is None:
        return None
    try:
        data = page.read_bytes()
    except OSError:
        return None
    closing = data.find(b"\n---\n") if data.startswith(b"---\n") else -1
    body_at = closing + 6  # (render_page: the front matter, one blank line, the body)
    if (closing < 0 or data[body_at - 1:body_at] != b"\n" or not data.endswith(b"\n")
            or data[body_at:body_at + 1] in (b"", b"\n", b"\r", b" ", b"\t")
            or data.endswith(b"\n\n")):
        return None
    puts: list[PutRow] = []
    try:
        if listed(data, body_at - 1):
            return PageWrite(page, created=False, changed=False)
        spliced = splice(data, body_at, puts)
        if spliced == data:
            return PageWrite(page, created=False, changed=False)
        old = split_page(data[:body_at].decode("utf-8"), file=page)
    except (_NotCanonical, ValueError):  # (UnicodeDecodeError too)
        return None
    head = changed_page_head(old.meta, meta(old.meta), now_iso=now_iso).encode()
    atomic_write_bytes(page, head + spliced[body_at - 1:])
    _remember(layout, page, True)
    _record_splice(layout, page, _Splice("", None, identity, puts))
    return PageWrite(page, created=False, changed=True)


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
    entries = list(upserts)
    if view is None and not replace_all:
        by_bytes = _spliced_in_bytes(layout, layout.index_file, _BytePlan(
            len(entries), lambda data, at: _listed_already(data, entries, at),
            lambda data, at, puts: _byte_splice_index(data, at, entries, puts),
            lambda _old: dict(index_meta())), now_iso=now_iso)
        if by_bytes is not None:
            return by_bytes
        done = _spliced(layout, layout.index_file, entries,
                        lambda old, puts: _splice_index(old, entries, puts),
                        lambda data, at: _listed_already(data, entries, at))
        if done is not None and done.body is _UNCHANGED:  # the page stays as membank wrote it
            return PageWrite(layout.index_file, created=False, changed=False)
        if done is not None and done.read is not None:
            written = write_page(layout.index_file, index_meta(), done.body, now_iso=now_iso,
                                 read=done.read)
            _remember(layout, layout.index_file, True)
            _record_splice(layout, layout.index_file, done)
            return written
    if view is None:
        view = _IndexView.of({} if replace_all else read_index_entries(layout))
    for entry in entries:
        view.upsert(entry)
    written = write_page(layout.index_file, index_meta(), view.body(), now_iso=now_iso)
    _keep_view(layout, view)
    _remember(layout, layout.index_file, view.exact)
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
    entries = list(children)
    existing: dict[str, CatalogEntry] = {}
    if target.exists() and not replace_all:
        by_bytes = _spliced_in_bytes(layout, target, _BytePlan(
            len(entries), lambda data, at: _children_listed(data, folder, entries, at),
            lambda data, at, puts: _byte_splice_hub(data, at, folder, entries, puts),
            lambda old: hub_meta(str(old.get("title") or title),
                                 str(old.get("description") or overview))), now_iso=now_iso)
        if by_bytes is not None:
            return by_bytes
        done = _spliced(layout, target, entries,
                        lambda old, puts: _splice_hub(old, folder, entries, puts),
                        lambda data, at: _children_listed(data, folder, entries, at))
        if done is not None and done.body is _UNCHANGED:
            return PageWrite(target, created=False, changed=False)
        page = done.read[1] if done is not None and done.read is not None else read_page(target)
        title = str(page.meta.get("title") or title)
        overview = str(page.meta.get("description") or overview)
        if done is not None and done.read is not None:
            written = write_page(target, hub_meta(title, overview), done.body, now_iso=now_iso,
                                 read=done.read)
            _remember(layout, target, True)
            _record_splice(layout, target, done)
            return written
        existing = parse_entry_lines(page.body, base=folder)
    for child in entries:
        existing[child.path] = child
    body = render_hub_body(title, overview, existing.values(), folder)
    written = write_page(target, hub_meta(title, overview), body, now_iso=now_iso)
    _remember(layout, target, parse_entry_lines(body, base=folder).keys() == existing.keys())
    return written
