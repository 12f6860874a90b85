"""The paths a moved page had before, so that an old link still finds it (pure, no I/O).

Pages move (a space retired, a folder renamed) and the pages that linked them keep the old path.
A moved page states where it was in the ways docs tools and wikis write it:

- front matter: Hugo's `aliases:` (the old URLs of the page, "/ops/pumpwatch-overview/"),
  Jekyll's and Gatsby's `redirect_from:`, `redirects:`; an alias that is no path (Obsidian's
  `aliases: [RB-07]`) is another name, not a former place;
- a note near its top: "this page moved here from `platform/scada-gateway.md`", "Migrated from
  [the old wiki](../wiki/gateway.md)", "formerly at /ops/gateway".

Each former path is kept as an alias of the page's entity (in the registry, so a later run's
link finds it too); distill's RecordIndex finds a link's folder and file stem among them
(`path_tail`).
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from tasks.extract.model import Extraction
from tasks.extract.structure import Structure
from tasks.extract.text import as_names
from tasks.markdown.code_spans import code_spans

# Front-matter keys that list a page's former URLs or paths.
_FORMER_KEYS = ("redirect_from", "redirect-from", "redirects", "aliases")
# A path of a page: folders and a file or a directory URL, no blank ("/ops/x/", "a/b.md").
_PATH_RE = re.compile(r"(?:\.{1,2}/|/)?(?:[\w.~-]+/)+[\w.~-]*")
_PAGE_SUFFIXES = (".md", ".markdown", ".mdx", ".html", ".htm")
_INDEX_STEMS = frozenset({"index", "_index", "readme"})
# A note that the page was elsewhere before, then where: a link's target or a path (a code
# span's content: _unspanned).
_MOVED_RE = re.compile(
    r"\b(?:(?:moved|migrated|relocated)\s+(?:here\s+)?from|(?:formerly|previously)\s+(?:at|in))\s+"
    r"(?:the\s+)?(?:\[[^\]]{0,200}\]\((?P<target>[^)\s]{3,200})\)|(?P<bare>\S{3,200}))",
    re.I)
_NOTE_LINES = 25  # a note about the page stands at its top
_NEEDLES = ("oved", "igrated", "elocated", "ormerly", "reviously")


def path_tail(name: str) -> tuple[str, str] | None:
    """The last folder and the file stem a page's path names ("/ops/pumpwatch-overview/" ->
    ("ops", "pumpwatch-overview"), "platform/scada-gateway.md" -> ("platform", "scada-gateway")),
    both lower-case; None for a name that is no path."""
    path = name.strip().split("#", 1)[0]
    if "/" not in path or not _PATH_RE.fullmatch(path):
        return None
    path = path.rstrip("/")
    stem, suffix = posixpath.splitext(posixpath.basename(path))
    if suffix and suffix.lower() not in _PAGE_SUFFIXES:
        stem = posixpath.basename(path)  # "/v1.2/gateway" has no suffix, only a dot
    folder = posixpath.dirname(path)
    if stem.lower() in _INDEX_STEMS:  # ".../gateway/index.html": the folder is the page
        stem, folder = posixpath.basename(folder), posixpath.dirname(folder)
    if not stem or not any(c.isalpha() for c in stem):
        return None
    return posixpath.basename(folder).lower(), stem.lower()


def _unspanned(line: str) -> str:
    """`line` with each code span replaced by its content ("moved from `a/b.md`": the path)."""
    for span in reversed(code_spans(line)):
        line = line[: span.start] + span.content + line[span.end:]
    return line


def former_paths(meta: Mapping[str, Any], structure: Structure) -> list[str]:
    """The former paths a page states: its front matter's (_FORMER_KEYS), then its notes'."""
    found = [name for key in _FORMER_KEYS for name in as_names(meta.get(key)) if path_tail(name)]
    visible = structure.visible[:_NOTE_LINES]
    for index in sorted(structure.holding(*_NEEDLES)):
        if index >= len(visible):
            break
        for match in _MOVED_RE.finditer(_unspanned(visible[index][1])):
            path = (match["target"] or match["bare"]).rstrip(".,;)")
            if path_tail(path) and "://" not in path:
                found.append(path)
    return list(dict.fromkeys(found))


def add_former_paths(result: Extraction, meta: Mapping[str, Any], structure: Structure) -> None:
    """Each former path of the page (former_paths) that its entity has no name for yet, as an
    alias of it."""
    subject = result.subject
    if subject is None:
        return
    have = {name.lower() for name in (*subject.ref.names, *subject.aliases)}
    paths = [path for path in former_paths(meta, structure) if path.lower() not in have]
    if paths:
        result.subject = replace(subject, aliases=(*subject.aliases, *paths))
