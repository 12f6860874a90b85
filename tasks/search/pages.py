"""What the search index knows of one page file: read, split into sections, no I/O beyond it.

Indexed: every markdown page under the root except raw/ (sources are indexed through their
source pages), proposals/ (not memory yet), hidden files and folders (.membank/ included), and
the root's index.md and log.md (a catalog and a timeline that would match every query).
"""

from __future__ import annotations

import os
import stat as stat_mode
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any, Protocol

import yaml

from tasks.markdown.blocks import Section
from tasks.markdown.frontmatter import body_after, find_front_matter, opens_front_matter
from tasks.memstores.discover import is_custodian_dir
from tasks.search.dates import page_date
from tasks.search.sections import SOURCE_CONTENT, Passage, page_parts
from tasks.search.semantic import passage_text
from tasks.store.errors import MembankError
from tasks.store.layout import INDEX_FILE, LOG_FILE, PROPOSALS_DIR, RAW_DIR, hub_of, hub_path
from tasks.store.names import is_hub_page, path_parts
from tasks.store.pages import read_text, split_page
from tasks.store.simple_yaml import load_simple

_SKIPPED_TOP = frozenset({RAW_DIR, PROPOSALS_DIR})


class PageStat(Protocol):
    """What the index compares of a page file's stat (an os.stat_result, a walk's FileStat)."""

    @property
    def st_mtime_ns(self) -> int: ...
    @property
    def st_size(self) -> int: ...
_SKIPPED_ROOT_FILES = frozenset({INDEX_FILE, LOG_FILE})


@dataclass(frozen=True)
class PageRecord:
    path: str  # root-relative posix path
    parent: str | None  # a shard's source index page: hits on a shard are hits on its source
    page_type: str
    entity_type: str | None
    title: str
    aliases: tuple[str, ...]
    description: str
    hub: str | None
    updated_at: str | None
    superseded_by: str | None
    is_hub: bool
    doc_date: str | None  # the day the document is about (tasks/search/dates.py), not a write time
    mtime_ns: int
    size: int
    sections: tuple[Section, ...]  # one index unit each
    passages: tuple[Passage, ...]  # the sections cut to a bounded size: one vector each

    def embed_texts(self) -> list[tuple[int, str]]:
        """(section index, text) of each semantic vector: the whole page, a vector a passage
        (an empty page: one of its title and description)."""
        if not self.passages:
            return [(0, passage_text(self.title, self.description, "", ""))]
        return [(index, passage_text(self.title, self.description if n == 0 else "",
                                     passage.heading, passage.text))
                for n, (index, passage) in enumerate(self.passages)]


def is_indexable(rel: str) -> bool:
    parts = path_parts(rel)
    if not parts or not rel.endswith(".md") or any(p.startswith(".") for p in parts):
        return False
    if parts[0] in _SKIPPED_TOP:
        return False
    return not (len(parts) == 1 and parts[0] in _SKIPPED_ROOT_FILES)


def page_stat(root: Path, rel: str) -> os.stat_result | None:
    """The stat of page `rel` when it is a regular file reached without any symlink (a symlinked
    page or folder may lead out of the root: never indexed, never returned), else None."""
    path = os.path.join(root, rel)
    try:
        found = os.lstat(path)
    except OSError:
        return None
    if not stat_mode.S_ISREG(found.st_mode):
        return None
    real_root = os.path.realpath(root)
    folder = os.path.dirname(os.path.join(real_root, rel))
    return found if os.path.realpath(folder) == os.path.normpath(folder) else None


def walk_pages(root: Path, under: str = "") -> Iterator[tuple[str, os.stat_result]]:
    """(root-relative path, stat) of every indexable page (under the folder `under`), sorted by
    path. Symlinks are never followed: a symlinked folder is not entered (os.walk), a
    symlinked file is skipped."""
    found: list[tuple[str, os.stat_result]] = []
    for folder, dirs, files in os.walk(os.path.join(root, under) if under else root):
        rel_folder = os.path.relpath(folder, root)
        dirs[:] = sorted(d for d in dirs if not d.startswith(".")
                         and not (rel_folder == "." and d in _SKIPPED_TOP)
                         and not _custodian_tree(rel_folder, folder, d))
        if rel_folder == ".":
            names = [(name, name) for name in files if is_indexable(name)]
        else:
            prefix = f"{rel_folder}/".replace(os.sep, "/")
            # is_indexable of each file in one look at the folder: a file of a folder that
            # holds pages is one when it is a visible .md file (100,000 pages in a walk)
            names = [(name, prefix + name) for name in files
                     if name.endswith(".md") and not name.startswith(".")
                     ] if is_indexable(f"{prefix}page.md") else []
        found += _regular_files(folder, names)
    found.sort(key=lambda item: item[0])
    yield from found


def pages_of_walk(root: Path, stats: Mapping[str, PageStat], skipped: Iterable[str]
                  ) -> list[tuple[str, PageStat]]:
    """walk_pages from a walk made already (tasks/checks/walk.py, reconcile's: every regular
    file's lstat, symlinks never followed, hidden names and MemoryCustodian trees under docs/
    left out as here) whose folders `skipped` (beside hidden ones and proposals/) are walked
    here; unsorted. A reconcile's check of the index walks the root once."""
    tops = tuple(f"{top}/" for top in _SKIPPED_TOP)
    found: list[tuple[str, PageStat]] = [
        (rel, st) for rel, st in stats.items()
        if rel.endswith(".md") and not rel.startswith(tops) and rel not in _SKIPPED_ROOT_FILES]
    for folder in skipped:
        found += walk_pages(root, folder)
    return found


_STAT_BY_FD = os.stat in os.supports_dir_fd and os.stat in os.supports_follow_symlinks


def _regular_files(folder: str, names: list[tuple[str, str]]) -> list[tuple[str, os.stat_result]]:
    """(rel, lstat) of each (file name, rel) of `folder` that is a regular file: stat-ed
    relative to the folder's descriptor where the platform allows (no path lookup per file)."""
    found: list[tuple[str, os.stat_result]] = []
    fd = None
    if names and _STAT_BY_FD:
        try:
            fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
        except OSError:
            fd = None
    try:
        for name, rel in names:
            try:
                info = (os.stat(name, dir_fd=fd, follow_symlinks=False) if fd is not None
                        else os.lstat(os.path.join(folder, name)))
            except FileNotFoundError:  # removed while we walked
                continue
            if stat_mode.S_ISREG(info.st_mode):
                found.append((rel, info))
    finally:
        if fd is not None:
            os.close(fd)
    return found


def _custodian_tree(rel_folder: str, folder: str, name: str) -> bool:
    """A MemoryCustodian tree under docs/ is a memory store, not pages (as the scan reads it):
    audited and routed by its own rules, never indexed as wiki pages."""
    inside_docs = rel_folder == "docs" or rel_folder.startswith("docs/")
    return inside_docs and is_custodian_dir(Path(folder) / name)


def _text(meta: dict[str, Any], key: str) -> str | None:
    value = meta.get(key)
    return " ".join(value.split()) if isinstance(value, str) and value.strip() else None


def _first(meta: dict[str, Any], key: str) -> str | None:
    value = meta.get(key)
    if isinstance(value, list) and value and isinstance(value[0], str):
        return value[0]
    return value if isinstance(value, str) and value else None


def _title(meta: dict[str, Any], sections: list[Section], rel: str) -> str:
    title = _text(meta, "title") or _text(meta, "entity_name")
    if title:
        return title
    if sections and sections[0].anchor == "" and sections[0].subheadings:
        return sections[0].subheadings[0]
    return PurePosixPath(rel).stem.split("__", 1)[-1].replace("-", " ")


def _doc_date(meta: dict[str, Any], title: str, sections: list[Section], body: str) -> str | None:
    """The page's own date (tasks/search/dates.py), read also from the verbatim document an
    ingested source page keeps under its `## Content` heading (as text: its front matter would
    parse as a thematic break and a setext heading)."""
    at = body.find(SOURCE_CONTENT)
    content = body[at + len(SOURCE_CONTENT):].lstrip("\n") if at >= 0 else ""
    return page_date(meta, title, sections[0].text if sections else "", content)


def _hub_page(link: str | None, rel: str) -> str | None:
    if link is None:
        return hub_of(rel)
    link = link.strip().lstrip("./")
    return link if link.endswith(".md") else hub_path(link.rstrip("/"))


# Every scalar as a string (no type resolution): all the index needs, and about 2x faster.
_LOADER = getattr(yaml, "CBaseLoader", yaml.BaseLoader)


def _fast_split(text: str) -> tuple[dict[str, Any], str]:
    """tasks.store.pages.split_page's split, with libyaml's base loader (about 10x faster); anything
    it cannot read goes through split_page, whose errors name the file."""
    block = find_front_matter(text)
    if block is None:
        if opens_front_matter(text):
            raise ValueError("frontmatter is never closed")
        return {}, text
    source = block.yaml(text)
    meta = load_simple(source)  # (the subset membank writes: the same data, no libyaml)
    if meta is None:
        meta = yaml.load(source, Loader=_LOADER)  # the base loader builds plain data only
    if meta is None:
        meta = {}
    if not isinstance(meta, dict):
        raise ValueError("frontmatter is not a mapping")
    return meta, body_after(text, block)


def read_page_record(root: Path, rel: str, stat: os.stat_result | None = None) -> PageRecord:
    """The index record of one page; raises MembankError (file named) when it cannot be read.

    A page whose frontmatter is malformed is indexed by its body, so it can still be found."""
    path = root / rel
    stat = stat or page_stat(root, rel)
    if stat is None:
        raise MembankError("not a regular file inside the root (a symlink is never followed)",
                           file=rel)
    text = read_text(path)
    try:
        meta, body = _fast_split(text)
    except (yaml.YAMLError, ValueError):
        try:
            page = split_page(text, file=rel)
            meta, body = page.meta, page.body
        except MembankError:
            meta, body = {}, text
    sections, passages = page_parts(body)
    page_type = _text(meta, "type") or "note"
    aliases = meta.get("aliases")
    parent = _first(meta, "child_of") if page_type == "source-shard" else None
    is_hub = page_type == "hub" or is_hub_page(rel)
    title = _title(meta, sections, rel)
    return PageRecord(
        path=rel,
        parent=parent,
        page_type=page_type,
        entity_type=_text(meta, "entity_type"),
        title=title,
        aliases=tuple(a for a in aliases if isinstance(a, str)) if isinstance(aliases, list) else (),
        description=_text(meta, "description") or "",
        hub=None if is_hub else _hub_page(_first(meta, "child_of"), rel),
        updated_at=str(meta["updated_at"]) if meta.get("updated_at") else None,
        superseded_by=_first(meta, "superseded_by"),
        is_hub=is_hub,
        doc_date=None if is_hub else _doc_date(meta, title, sections, body),
        mtime_ns=stat.st_mtime_ns,
        size=stat.st_size,
        sections=tuple(sections),
        passages=tuple(passages),
    )
