"""A body's block structure from markdown-it tokens: heading sections (ATX and setext), code
lines, paragraphs, and the lines outside code that facts are read from."""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import TypeVar

from tasks.extract.line_search import LineText
from tasks.extract.text import plain_text
from tasks.markdown.blocks import (
    Section,
    plain_titles,
    read_blocks,
    sections,
    split_titled_paragraphs,
    wiki_headings,
    without_lines,
)
from tasks.markdown.boxes import Box, unbox
from tasks.markdown.fences import colon_diagrams

_T = TypeVar("_T")


@dataclass(slots=True)
class Structure:
    """A body's block structure (tasks.markdown.blocks): the preamble and a section per
    top-level heading of any level (setext and ATX alike), with line numbers of the source."""

    visible: list[tuple[int, str]]  # lines outside fenced code, with numbers (headings too)
    sections: list[Section]  # the preamble, then one per heading; lines relative to the body
    code: dict[int, str]  # fenced code lines by number (fence lines included)
    code_content: dict[int, str]  # the code inside the fences by number (fence lines excluded)
    paragraphs: list[tuple[int, int]]  # (first line, last line) of each paragraph
    heading_lines: set[int]  # the numbers of the headings' lines (two for a setext heading)
    first_line: int  # the number of the body's first line
    _titles: dict[int, str]  # a section's plain title, by its body line
    _lines: dict[int, list[tuple[int, str]]]  # a section's visible lines, by its body line
    boxes: list[Box] = field(default_factory=list)  # the admonitions (tasks.markdown.boxes), by body offset
    # The views below, each built on first use and shared by every reader of the document
    # (a score of readers each walked `visible` or rebuilt the same dict and joined text).
    _shared: dict[object, object] = field(default_factory=dict, repr=False, compare=False)

    @property
    def by_number(self) -> dict[int, str]:
        """The visible lines by number (shared: read it, never change it)."""
        return self.remembered(_by_number)

    @property
    def text(self) -> str:
        """The visible lines joined by line breaks."""
        return self.remembered(_line_text).text

    @property
    def written(self) -> list[tuple[int, str]]:
        """The visible lines but the headings' (shared: read it, never change it)."""
        return self.remembered(_written)

    def holding(self, *needles: str) -> frozenset[int]:
        """The indexes in `visible` of the lines that hold any of `needles` (literal text, case
        as written, no line break in one): one scan of the joined text a needle, remembered,
        so a reader visits only the lines its pattern can match."""
        found = self._shared.get(needles)
        if found is None:
            found = self._shared[needles] = frozenset(self.remembered(_line_text).holding(*needles))
        return found  # type: ignore[return-value]

    def remembered(self, build: Callable[[Structure], _T]) -> _T:
        """`build(self)`, built once a document: a view of it that several readers ask for
        (`build` a pure function of the structure; its result shared, never to be changed)."""
        found = self._shared.get(build)
        if found is None:
            found = self._shared[build] = build(self)
        return found  # type: ignore[return-value]

    def title(self, section: Section) -> str:
        return self._titles[section.body_line]

    def lines(self, section: Section) -> list[tuple[int, str]]:
        """The visible lines under a section's heading, up to the next heading, numbered."""
        return self._lines[section.body_line]

    def number(self, section: Section) -> int:
        """The number of a section's heading line (the body's first line for the preamble)."""
        return self.first_line + section.line


def scan(body: list[str], first_line: int) -> Structure:
    """Non-code lines with their numbers, the heading sections, code lines and paragraphs.
    An indented code block is read as text here (it was never treated as code). An admonition's
    markup is taken out first (tasks.markdown.boxes): its body is read as prose, its title as a label."""
    body, boxes = unbox(body)
    text = "\n".join(body)
    blocks = read_blocks(text, body)
    wiki = wiki_headings(blocks) if "=" in text else ()  # a wiki page's "== Summary ==": a section
    if wiki:
        headings = tuple(sorted((*blocks.headings, *wiki), key=lambda head: head.line))
        blocks = replace(blocks, headings=headings,
                         paragraphs=without_lines(blocks.paragraphs, {head.line for head in wiki}))
    titled = plain_titles(blocks)  # an e-mail's "What happened" over its paragraph: a section too
    if titled:
        apart = split_titled_paragraphs(blocks.paragraphs, titled)
        blocks = replace(blocks, headings=titled, paragraphs=apart)
    code: dict[int, str] = {}
    content: dict[int, str] = {}
    for fence in blocks.fences:
        for offset in range(fence.start, min(fence.end, len(body))):
            code[first_line + offset] = body[offset]
        for offset in range(fence.content_start, min(fence.content_end, len(body))):
            content[first_line + offset] = body[offset]
    for start, end in colon_diagrams(body) if ":::" in text else ():  # a wiki's "::: mermaid" diagram
        for offset in range(start, end):
            code[first_line + offset] = body[offset]
    visible = list(zip(range(first_line, first_line + len(body)), body, strict=True))
    starts: list[int] | None = None  # the visible lines' numbers, when code is left out
    if code:
        visible = [numbered for numbered in visible if numbered[0] not in code]
        starts = [number for number, _ in visible]
    cut = sections(blocks, None)
    lines = {s.body_line: _visible_span(visible, starts, first_line + s.body_line,
                                        first_line + s.end) for s in cut}
    paragraphs = [(first_line + start, first_line + end - 1) for start, end in blocks.paragraphs]
    heading_lines = {first_line + offset for head in blocks.headings
                     for offset in range(head.line, head.body_line)}
    titles = {s.body_line: plain_text(s.heading) for s in cut}
    return Structure(visible, cut, code, content, paragraphs, heading_lines, first_line, titles,
                     lines, boxes)


def _visible_span(visible: list[tuple[int, str]], starts: list[int] | None, first: int, stop: int
                  ) -> list[tuple[int, str]]:
    """The visible lines numbered [first, stop)."""
    if starts is None:  # no code: visible[i] is line first_line + i
        base = visible[0][0] if visible else 0
        return visible[first - base : stop - base]
    return visible[bisect_left(starts, first) : bisect_left(starts, stop)]


# An 8D report's discipline number before its heading ("D0 — Emergency response", "D4: Root cause").
_DISCIPLINE_RE = re.compile(r"^d[0-8]\s*[:.)–—-]\s*(?=\S)")


@lru_cache(maxsize=4096)  # (pure; the genre readers ask for the same titles again and again)
def section_key(title: str) -> str:
    """"## 3. Decision Outcome:" and "## ✅ Decision" -> "decision outcome", "decision"; a plural
    written "(s)" is the plural ("Lesson(s) Learned", "Root Cause(s)" -> "lessons learned", "root causes")."""
    key = re.sub(r"^[\W\d_]+", "", title.strip().lower())
    key = _DISCIPLINE_RE.sub("", key)  # an 8D report's "D4 — Root cause" is its Root cause
    key = re.sub(r"\s*\((?:optional|required)\)\s*$", "", key).rstrip(":.? ")
    key = key.replace("(s)", "s") if "(s)" in key else key
    return " ".join(key.replace("’", "'").split())


def find_section(structure: Structure, *starts: str) -> Section | None:
    """The first section whose heading is one of `starts` (exactly: "Decision Drivers" is not
    the decision), or names one in parentheses after its own name, as a template that renames
    the usual parts writes it (the Alexandrian ADR's "Solution (Decision)")."""
    for section in structure.sections[1:]:
        key = section_key(structure.title(section))
        if key in starts or (key.endswith(")") and _renamed_part(key) in starts):
            return section
    return None


# "solution (decision)" -> "decision": a part's own name, then the usual one in parentheses
_RENAMED_PART_RE = re.compile(r"^[a-z][a-z' -]{1,40}\((?P<usual>[a-z][a-z' -]{1,40})\)$")


def _renamed_part(key: str) -> str:
    match = _RENAMED_PART_RE.match(key)
    return match["usual"].strip() if match else ""


def with_subsections(structure: Structure, section: Section) -> list[tuple[int, str]]:
    """A section's lines and those of its subsections ("## Decision" then "#### Stack domains")."""
    sections = structure.sections
    lines = list(structure.lines(section))
    for later in sections[sections.index(section) + 1 :]:
        if later.level <= section.level:
            break
        lines.extend(structure.lines(later))
    return lines


def _by_number(structure: Structure) -> dict[int, str]:
    return dict(structure.visible)


def _line_text(structure: Structure) -> LineText:
    return LineText([line for _, line in structure.visible])


def _written(structure: Structure) -> list[tuple[int, str]]:
    headings = structure.heading_lines
    return [(n, line) for n, line in structure.visible if n not in headings]
