"""A body's block structure from markdown-it tokens: heading sections (ATX and setext), code
lines, paragraphs, and the lines outside code that facts are read from."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from tasks.extract.text import plain_text
from tasks.markdown.parser import block_parser


@dataclass(slots=True)
class Section:
    title: str
    level: int
    line: int
    lines: list[tuple[int, str]] = field(default_factory=list)


# Block structure only: headings (ATX and setext), fences, paragraphs, html blocks. List and
# indented-code rules are off: they cost half the parse and a list item's text is read line by
# line below anyway (a fenced block is code; an indented one was never treated as code here).
_BLOCK_PARSER = block_parser(tables=False, lists=False, indented_code=False)


@dataclass(slots=True)
class Structure:
    """A body's block structure from markdown-it tokens (setext and ATX headings alike)."""

    visible: list[tuple[int, str]]  # lines outside code blocks and headings, with numbers
    sections: list[Section]
    code: dict[int, str]  # code block lines by number (fence lines included)
    paragraphs: list[tuple[int, int]]  # (first line, last line) of each paragraph


def scan(body: list[str], first_line: int) -> Structure:
    """Non-code lines with their numbers, the heading sections, code lines and paragraphs."""
    tokens = _BLOCK_PARSER.parse("\n".join(body))
    code: dict[int, str] = {}
    headings: dict[int, tuple[int, str, int]] = {}  # first line -> (level, title, end line)
    paragraphs: list[tuple[int, int]] = []
    for index, token in enumerate(tokens):
        if token.map is None:
            continue
        start, end = token.map
        if token.type in {"fence", "code_block"}:
            for offset in range(start, min(end, len(body))):
                code[first_line + offset] = body[offset]
        elif token.type == "heading_open" and token.level == 0:
            title = plain_text(tokens[index + 1].content)
            headings[start] = (int(token.tag[1]), title, end)
        elif token.type == "paragraph_open":
            paragraphs.append((first_line + start, first_line + end - 1))
    visible: list[tuple[int, str]] = []
    sections: list[Section] = [Section("", 0, first_line)]
    heading_end = -1
    for offset, line in enumerate(body):
        number = first_line + offset
        if number in code:
            continue
        visible.append((number, line))  # heading text is prose too (mentions)
        heading = headings.get(offset)
        if heading is not None:
            level, title, heading_end = heading
            sections.append(Section(title, level, number))
        elif offset >= heading_end:
            sections[-1].lines.append((number, line))
    return Structure(visible, sections, code, paragraphs)


def section_key(title: str) -> str:
    """"## 3. Decision Outcome:" and "## ✅ Decision" -> "decision outcome", "decision"."""
    key = re.sub(r"^[\W\d_]+", "", title.strip().lower())
    key = re.sub(r"\s*\((?:optional|required)\)\s*$", "", key).rstrip(":.? ")
    return " ".join(key.replace("’", "'").split())


def find_section(sections: list[Section], *starts: str) -> Section | None:
    """The first section whose heading is one of `starts` (exactly: "Decision Drivers" is not
    the decision)."""
    for section in sections[1:]:
        if section_key(section.title) in starts:
            return section
    return None


def with_subsections(sections: list[Section], section: Section) -> list[tuple[int, str]]:
    """A section's lines and those of its subsections ("## Decision" then "#### Stack domains")."""
    lines = list(section.lines)
    for later in sections[sections.index(section) + 1 :]:
        if later.level <= section.level:
            break
        lines.extend(later.lines)
    return lines
