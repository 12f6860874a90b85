"""Links of a markdown text: inline links and images, and `<a rel=... href=...>` typed links.

`link_targets` reads markdown-it-py's inline tokens and is the reference. `prose_link_targets`
is the fast path reconcile uses on every page it reads (one regex per line outside fenced code,
about 20x cheaper than an inline parse): for texts without container blocks, link reference
definitions, autolinks, inline code spans holding a link, nested brackets, parentheses or
spaces in a target, and links broken over lines, it finds the same targets as markdown-it
(tests/tasks/markdown/test_links.py); a link written inside an inline code span is still found.

The regexes take no "[" in link text or target: a scan stops at the next opener, so a line of
a million "[" costs linear time, not quadratic.
"""

from __future__ import annotations

import posixpath
import re
from urllib.parse import unquote

from tasks.markdown.fences import prose_lines
from tasks.markdown.parser import inline_parser

# A link or image, group 1 its target (text may hold backslash escapes; a title may follow).
_LINK_RE = re.compile(
    r"!?\[(?:[^\[\]\\]++|\\.)*+\]\(\s*+<?([^)\s>\[]++)>?(?:\s+\"[^\"]*\")?\s*\)")
# A link or image with its parts: "!" for an image, the text (one level of brackets allowed,
# "[[1]](url)"), the target. For line-level readers that keep positions or the link text
# (decision-record references, plain text of a line).
INLINE_LINK_RE = re.compile(
    r"(!?)\[((?:[^\[\]]++|\[[^\[\]]*+\])*+)\]\(\s*+<?([^)\s>\[]*+)>?(?:\s+\"[^\"]*\")?\s*+\)")
SCHEME_RE = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:")
_TAG_RE = re.compile(r"<a\b(?P<attrs>[^<>]*)>", re.IGNORECASE)
_ATTR_RE = re.compile(
    r"(?<![\w-])(?P<name>[A-Za-z][\w-]*+)\s*+=\s*(?:\"(?P<dq>[^\"]*)\"|'(?P<sq>[^']*)')")


def link_targets(text: str) -> list[str]:
    """Targets of the markdown links and images in `text` (markdown-it-py's inline tokens),
    as markdown-it normalizes them (percent-encoded, entities decoded)."""
    targets: list[str] = []
    for token in inline_parser().parse(text):
        for child in token.children or []:
            if child.type == "link_open":
                targets.append(str(child.attrs.get("href", "")))
            elif child.type == "image":
                targets.append(str(child.attrs.get("src", "")))
    return targets


def prose_link_targets(text: str) -> list[str]:
    """Targets of the inline links and images outside fenced code, in order, as written."""
    return [
        match.group(1)
        for line in prose_lines(text.splitlines())
        if "](" in line
        for match in _LINK_RE.finditer(line)
    ]


def local_link_paths(rel: str, body: str) -> list[str]:
    """Local link targets of the page `rel`'s body, resolved to root-relative posix paths
    (fenced code skipped; anchors, queries, absolute paths and URLs dropped), sorted, unique.

    A target that leaves the root keeps its leading '../' so the caller reports it.
    """
    base = posixpath.dirname(rel)
    targets: set[str] = set()
    for target in prose_link_targets(body):
        if target.startswith(("#", "/")) or SCHEME_RE.match(target):
            continue
        path = unquote(target.split("#", 1)[0].split("?", 1)[0])
        if path:
            targets.add(posixpath.normpath(posixpath.join(base, path)))
    return sorted(targets)


def typed_anchor_links(body: str) -> list[tuple[str, str]]:
    """(rel lowercased, href) of every <a rel=... href=...> tag in a body, in order."""
    links: list[tuple[str, str]] = []
    for tag in _TAG_RE.finditer(body):
        attrs = {
            m.group("name").lower(): (m.group("dq") if m.group("dq") is not None else m.group("sq"))
            for m in _ATTR_RE.finditer(tag.group("attrs"))
        }
        if attrs.get("rel") and attrs.get("href") is not None:
            links.append((attrs["rel"].lower(), attrs["href"]))
    return links


__all__ = [
    "INLINE_LINK_RE",
    "SCHEME_RE",
    "link_targets",
    "local_link_paths",
    "prose_link_targets",
    "typed_anchor_links",
]
