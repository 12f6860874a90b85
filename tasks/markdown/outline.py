"""Markdown outline helpers: ATX headings outside fences (the measured fast path), the first
prose sentence, inline-markup cleaning and clipping, and a fence longer than any backtick run."""

from __future__ import annotations

import re

from tasks.markdown.blocks import Heading
from tasks.markdown.fences import FenceTracker

_BACKTICKS_RE = re.compile(r"`+")
# An ATX heading or a fence opener, anchored on a literal newline rather than ^ (see scan_headings).
# The title is the rest of the line, its closing #s stripped in Python (a lazy title before
# "[ \t#]*$" would retry every split of a long run of blanks: quadratic in the line length).
_NL_ATX_OR_FENCE_RE = re.compile(
    r"\n {0,3}(?:(?P<hashes>#{1,6})(?:[ \t](?P<title>[^\n]*)|[ \t#]*+)$|(?P<fence>`{3,}|~{3,}))",
    re.MULTILINE)
# A line of "=" or "-" alone under a non-blank line: perhaps a setext heading, which the ATX
# scan cannot see (pandoc's and many converters' output); anchored on a literal newline too.
_NL_SETEXT_UNDERLINE_RE = re.compile(r"\n[ \t]*+[^\s][^\n]*+\n {0,3}(?:=++|-++)[ \t\r]*+(?=\n|$)")
_SETEXT_UNDERLINE_RE = re.compile(r" {0,3}(?:=+|-+)[ \t]*")
_SENTENCE_RE = re.compile(r"^(.+?[.!?])(?=\s|$)")
# No "[" in link text or target and no "<" in a tag: a scan never runs past the next opener,
# so a line of 1,000,000 "[" or "<" costs linear time, not quadratic.
_LINK_RE = re.compile(r"!?\[([^\[\]]*)\]\([^)\[]*\)")
_MARKUP_RE = re.compile(r"[*_`]+|<[^<>]+>")
# An outliner's page (Logseq, Roam, Workflowy exports): every line a bullet block, its headings
# blocks too (`- ## Decisions`), its nesting by indentation; no markdown section holds them.
_BULLET_HEADING_RE = re.compile(r"^[ \t]*[-*+][ \t]+#{1,6}[ \t]+(?P<title>\S.*)$", re.M)
_INLINE_MAX = 4_000  # titles, outlines and descriptions are clipped far shorter
DESCRIPTION_MAX = 240


def scan_headings(text: str) -> list[Heading]:
    """ATX headings outside fenced code, in one regex pass (outline of small sources).

    The text is scanned with a leading newline so the pattern starts with a literal "\n" (the
    regex engine then jumps from newline to newline instead of trying every position).
    """
    headings: list[Heading] = []
    fence: str | None = None
    shifted = "\n" + text
    line = 0  # newlines in `shifted` before the current match's line start = its 1-based line
    last = 0
    for match in _NL_ATX_OR_FENCE_RE.finditer(shifted):
        start = match.start() + 1  # the line starts after the matched newline
        line += shifted.count("\n", last, start)
        last = start
        marker = match.group("fence")
        if marker:
            if fence is None:
                fence = marker
            elif marker[0] == fence[0] and len(marker) >= len(fence):
                end = shifted.find("\n", match.end())
                if not shifted[match.end() : end if end >= 0 else len(shifted)].strip():
                    fence = None
        elif fence is None and match.group("hashes"):
            title = (match.group("title") or "").strip(" \t").rstrip(" \t#").strip()
            if title:
                headings.append(Heading(len(match.group("hashes")), title, line))
    return headings


def may_hold_setext_heading(text: str, start: int = 0) -> bool:
    """True when a line of "=" or "-" alone sits under a non-blank line at or after `start` (the
    end of the front matter): then only the block model can say which headings the text has."""
    return _NL_SETEXT_UNDERLINE_RE.search("\n" + text, start) is not None


def without_bom(text: str) -> str:
    """The text without the byte-order mark some editors write first (Windows' Notepad, Excel's
    CSV-to-markdown exports): part of no title, heading or word."""
    return text[1:] if text[:1] == "\ufeff" else text


def clean_inline(text: str) -> str:
    text = _LINK_RE.sub(r"\1", text[:_INLINE_MAX])
    return " ".join(_MARKUP_RE.sub("", text).split())


def clip(text: str, limit: int) -> str:
    if len(text) <= limit:
        return text
    cut = text[: limit - 1].rsplit(" ", 1)[0]
    return cut.rstrip(" ,;:") + "…"


def first_sentence(text: str, *, markdown: bool) -> str | None:
    """The first sentence of the first prose paragraph (headings, code, tables, html skipped)."""
    paragraph: list[str] = []
    fences = FenceTracker()
    for line in text.splitlines()[:400]:
        stripped = line.strip()
        if markdown and fences.feed(line):
            if paragraph:
                break
            continue
        if not stripped:
            if paragraph and _header_fields(paragraph):
                paragraph = []  # "Status: Draft" / "Date: 2026-03-03": the page's fields, no prose
            if paragraph:
                break
            continue
        if markdown and paragraph and _SETEXT_UNDERLINE_RE.fullmatch(line):
            paragraph = []  # the lines above were a setext heading, not prose
            continue
        if markdown and (stripped.startswith(("#", "|", "<", "![", "[![", "---", "===", "***", ">"))
                         or re.match(r"^\[[^\]]+\]:", stripped)):
            if paragraph:
                break
            continue
        paragraph.append(stripped.lstrip("-*+ ") if markdown else stripped)
    if not paragraph:
        return None
    prose = clean_inline(" ".join(paragraph)) if markdown else " ".join(" ".join(paragraph).split())
    if not prose:
        return None
    match = _SENTENCE_RE.match(prose)
    sentence = match.group(1) if match else prose
    return clip(sentence, DESCRIPTION_MAX)


# A header field: a short key, a colon, a short value ("Status: Complete, action items in
# progress", "**Authors:** Ana, Bo", "Date: 2026-03-03").
_FIELD_LINE_RE = re.compile(r"[*_]{0,2}[A-Z][\w /()-]{0,30}:[*_]{0,2}[ \t]+\S[^\n]{0,80}")


def _header_fields(paragraph: list[str]) -> bool:
    """Is a paragraph of two lines or more all header fields?"""
    return len(paragraph) >= 2 and all(_FIELD_LINE_RE.fullmatch(line) for line in paragraph)


def content_fence(text: str) -> str:
    """A backtick fence longer than any backtick run in `text`."""
    longest = max((len(m.group()) for m in _BACKTICKS_RE.finditer(text)), default=0)
    return "`" * max(3, longest + 1)


def has_bullet_headings(text: str) -> bool:
    """Does `text` hold an outliner's heading block ("- ## Decisions")?"""
    return "#" in text and _BULLET_HEADING_RE.search(text) is not None


def bullet_heading(line: str) -> str | None:
    """The title of an outliner's heading block ("  - ## Decisions" -> "Decisions"), else None."""
    match = _BULLET_HEADING_RE.fullmatch(line)
    return match["title"] if match else None
