"""Link syntax in a source's lines: wiki links `[[Name]]`, markdown links and images.

These two functions are the only places extraction reads link syntax; markdown links are the
shared markdown layer's INLINE_LINK_RE (tasks/markdown/links.py).
"""

from __future__ import annotations

import re

from tasks.markdown.links import INLINE_LINK_RE

# [[Name]] but not a markdown link whose text is bracketed ("[[1]](url)", a footnote style).
# No "[" inside a link's name or target: a scan stops at the next opener (linear time).
_WIKILINK_RE = re.compile(r"\[\[([^\[\]|#]+)(?:[|#][^\[\]]*)?\]\](?!\()")
_MD_IMAGE_RE = re.compile(r"!\[[^\]]*\]\([^)]*\)")
# A reference-style link `[text][label]` (or `[text][]`): its text (issue 23).
_REFERENCE_LINK_RE = re.compile(r"(?<![\[!])\[([^\[\]]+)\]\[[^\[\]]*\](?!\()")

# A wiki's macros written as a wiki link: GitLab's and Azure DevOps' table of contents
# `[[_TOC_]]` (also `[[TOC]]`) and Azure DevOps' table of sub-pages `[[_TOSP_]]`: no page's name.
_MACROS = frozenset({"_toc_", "toc", "_tosp_"})


def wikilink_targets(text: str) -> list[str]:
    """The wiki link targets of a text, as written (`[[Name|label]]` -> "Name"); a wiki's
    table-of-contents macro is none."""
    if "[[" not in text:  # most lines have none: no regex pass for them
        return []
    return [target for target in _WIKILINK_RE.findall(text) if target.strip().lower() not in _MACROS]


def wikilink_spans(text: str) -> list[tuple[int, int, str]]:
    """Where each wiki link of a text starts and ends, and its target (`[[0007-cron|ADR 7]]` ->
    "0007-cron")."""
    if "[[" not in text:
        return []
    return [(match.start(), match.end(), match.group(1).strip()) for match in _WIKILINK_RE.finditer(text)
            if match.group(1).strip().lower() not in _MACROS]


def _wikilink_text(match: re.Match[str]) -> str:
    target = match.group(1).strip()
    return "" if target.lower() in _MACROS else target


def links_as_text(text: str) -> str:
    """Images dropped, markdown links (inline and reference-style) replaced by their text,
    wiki links by their target."""
    if "[" not in text:  # every form starts with "[": most lines have none
        return text
    text = _MD_IMAGE_RE.sub("", text)
    text = INLINE_LINK_RE.sub(lambda m: m.group(2), text)
    if "][" in text:
        text = _REFERENCE_LINK_RE.sub(lambda m: m.group(1), text)
    return _WIKILINK_RE.sub(_wikilink_text, text)
