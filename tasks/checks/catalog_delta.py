"""A catalog page's facts after splices, from its cached facts and the rows the splices put.

index.md and the hubs are spliced row by row by an ingest, which records each splice
(tasks/store/catalog_delta.py). When the steps lead from the identity the cache holds for the
page to its identity now, the page's entries and links are the cached ones with those rows
put in: the file is read and hashed (the cache entry keeps its sha256) and its front matter
parsed, but its body is not (index.md of 100,000 records: 10 MB, 100,000 rows and links).

The same facts as parse_page_facts of the file (tests/tasks/checks/test_catalog_delta.py),
because each condition below keeps them so; when one fails the page is parsed whole:
- the page's text holds no backtick and no "~~~": then no code span or fence, and
  local_link_paths reads each line alone, so the body's links are the union of its lines'
  links (a line's links are local_link_paths of that line);
- a row a splice replaced linked nothing the row that replaced it does not link (rows are
  only put: a splice drops a row to put its path's row back), so no link is lost;
- the cached links are sorted and unique (local_link_paths' own order), so a line's new
  links are put in their place;
- the cached entries' paths are distinct, and a row put is a new path or replaces its own:
  then catalog_rows' order (first position, last value) is the order the rows are put in.
"""

from __future__ import annotations

import os
import posixpath
from bisect import bisect_left
from dataclasses import dataclass
from itertools import islice
from pathlib import Path
from typing import Any, cast

from tasks.checks.facts import CatalogRow, FileEntry, PageFacts
from tasks.markdown.fences import may_hold_fence
from tasks.markdown.links import local_link_paths
from tasks.store.catalog import catalog_rows
from tasks.store.layout import INDEX_FILE

Delta = tuple[list[str], list[CatalogRow]]  # the page's links and entries


class _Unsure(Exception):
    """A condition of the module's docstring does not hold: parse the page whole."""


def chain(steps: object, cached: list[int], now: list[int]) -> list[dict[str, Any]] | None:
    """The steps from identity `cached` to `now`, in order (None: they do not lead there)."""
    if not isinstance(steps, list) or not steps or not isinstance(steps[-1], dict):
        return None
    if steps[-1].get("to") != now:
        return None
    for start, step in enumerate(steps):
        if isinstance(step, dict) and step.get("from") == cached:
            found = steps[start:]
            linked = all(isinstance(a, dict) and isinstance(b, dict) and a.get("to") == b.get("from")
                         for a, b in zip(found, found[1:], strict=False))
            return found if linked else None
    return None


def _plain_text(text: str) -> bool:
    """No code span and no fence can start in `text` (no backtick, no fence mark)."""
    return "`" not in text and not may_hold_fence(text)


def _plain(line: object) -> str:
    """A recorded line that is one line with no code span or fence mark (else _Unsure)."""
    if not isinstance(line, str) or not _plain_text(line) or len(line.splitlines()) != 1:
        raise _Unsure(line)
    return line


@dataclass
class _Catalog:
    """A catalog page's rows (catalog_rows' order), their paths, and the page's links."""

    rows: list[CatalogRow]
    paths: list[str]
    links: list[str]  # sorted, unique (local_link_paths'), kept so as lines are put
    put: list[str]  # the paths of the rows put, in order
    put_links: set[str]  # the links of the lines put


def _applied(rel: str, facts: PageFacts, steps: list[dict[str, Any]]) -> _Catalog | None:
    entries = facts.get("entries")
    if entries is None or facts["problem"] is not None:
        return None
    base = "" if rel == INDEX_FILE else posixpath.dirname(rel)
    links = facts["links"]
    page = _Catalog(list(entries), [row[0] for row in entries], list(links), [], set())
    if len(set(page.paths)) != len(page.paths) or not _strictly_increasing(links):
        return None
    try:
        for step in steps:
            for put in step["puts"]:
                _put(rel, base, put, page)
    except (_Unsure, KeyError, TypeError, ValueError):
        return None
    return page


def apply_steps(rel: str, facts: PageFacts, steps: list[dict[str, Any]]) -> Delta | None:
    """The links and entries of `rel` after `steps`, from its cached `facts` (None: unsure)."""
    page = _applied(rel, facts, steps)
    return (page.links, page.rows) if page is not None else None


def _strictly_increasing(items: list[str]) -> bool:
    """Sorted and unique, as local_link_paths gives a page's links (a catalog's 100,000: one
    pass at C speed, where a set of them sorted again took about 0.1 s at 100,000 pages)."""
    return all(map(str.__lt__, items, islice(items, 1, None)))


def _add_link(links: list[str], link: str) -> None:
    at = bisect_left(links, link)
    if at == len(links) or links[at] != link:
        links.insert(at, link)


def _put(rel: str, base: str, put: list[Any], page: _Catalog) -> None:
    _path, line, after, replaced = put
    found = catalog_rows(_plain(line), base=base)
    if len(found) != 1:
        raise _Unsure(line)
    path, title, description = found[0]
    row: CatalogRow = (posixpath.normpath(path), title, description)
    line_links = local_link_paths(rel, line)
    rows, paths = page.rows, page.paths
    if replaced is not None:
        if not set(local_link_paths(rel, _plain(replaced))) <= set(line_links):
            raise _Unsure(replaced)
        at = paths.index(row[0])  # ValueError: not listed, so not what the cache holds
        del rows[at], paths[at]
    elif row[0] in paths:
        raise _Unsure(line)
    at = 0 if after is None else paths.index(posixpath.normpath(after)) + 1
    rows.insert(at, row)
    paths.insert(at, row[0])
    for link in line_links:
        _add_link(page.links, link)
    page.put.append(row[0])
    page.put_links.update(line_links)


def read_by_delta(root: Path, rel: str, cached: FileEntry, steps: object, now: list[int]
                  ) -> tuple[bytes, Delta, list[str], set[str]] | None:
    """The page's bytes, its links and entries by delta, the paths of the rows put and the
    links of their lines, when the recorded steps lead from the cached identity to `now` and
    the file read is still that one (None: parse it whole)."""
    found = chain(steps, [cached["size"], cached["mtime_ns"], cached["ctime_ns"], cached["ino"]],
                  now)
    if found is None:
        return None
    try:
        with open(os.path.join(root, rel), "rb") as handle:
            data = handle.read()
            st = os.fstat(handle.fileno())
    except OSError:
        return None
    if [st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino] != now:
        return None
    try:
        if not _plain_text(data.decode("utf-8")):
            return None
    except UnicodeDecodeError:
        return None
    page = _applied(rel, cast(PageFacts, cached["facts"]), found)  # a page's: it has entries
    if page is None:
        return None
    return data, (page.links, page.rows), page.put, page.put_links
