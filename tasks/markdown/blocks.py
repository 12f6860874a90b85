"""A markdown text's block structure, read once from markdown-it-py's block tokens.

The one block model the gate, the page writer, search, distill and the shard planner read:

- `Block`: the top-level blocks of a text with their line ranges (where a shard may be cut).
- `BodyBlocks`: a body's lines, its headings (every one, with its container depth), its fenced
  code and its paragraphs; `sections(blocks, level)` cuts it into `Section`s.
- `Section`: a heading (level, text, anchor), the lines it spans and the markdown under it.
- `Heading`: a heading of a source outline (level, text, 1-based line).

A section heading is a top-level heading as CommonMark reads it (and GitHub renders it): ATX,
indented up to 3 spaces, or setext; a heading inside a list item, a block quote or an HTML block
is not one. Its anchor is its explicit `{#anchor}` suffix or the slug of its text, a repeated
anchor numbered GitHub's way (notes, notes-1, notes-2); anchors are computed here only.

Speed (DESIGN.md): block-level parse only, the `inline` core rule off (a heading's `inline` token
still carries its raw text). The list rule costs two to three times the parse of a bulleted page
and the block-quote rule about 15 %, so a body is read with the block-quote rule only when a line
opens a quote, and with the list rule only when the reading without it could differ from
CommonMark's for headings or fences: a top-level heading, fence or HTML block that starts
indented (inside a list item it is not top-level) or a setext heading whose text lines start
with a list marker ("- a" over "---" is a list and a rule). Otherwise the two readings give the
same top-level headings and fences (tests/tasks/markdown/test_blocks.py checks this against the
full grammar); lists then read as paragraphs, and a fence deeper inside a list item may read as
text (distill always read it so).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from markdown_it.token import Token
from slugify import slugify

from tasks.markdown.parser import block_parser

_QUOTE_LINE_RE = re.compile(r"^ {0,3}>", re.MULTILINE)
_LIST_MARKER_RE = re.compile(r" {0,3}(?:[-*+]|\d{1,9}[.)])(?:[ \t]|$)")
_EXPLICIT_ANCHOR_RE = re.compile(r"(?<![ \t])[ \t]*+\{#(?P<anchor>[A-Za-z0-9_-]+)\}$")
_INDENTED_KINDS = frozenset({"heading_open", "fence", "html_block"})

_BLOCK_KINDS = {
    "heading_open": "heading",
    "paragraph_open": "paragraph",
    "fence": "fence",
    "code_block": "code",
    "table_open": "table",
    "bullet_list_open": "list",
    "ordered_list_open": "list",
    "blockquote_open": "blockquote",
    "html_block": "html",
    "hr": "hr",
}


@dataclass(frozen=True)
class Heading:
    """A heading of a source's outline."""

    level: int
    text: str
    line: int  # 1-based line of the source


@dataclass(frozen=True)
class Block:
    """A top-level block: lines [start, end) (0-based), its kind, and heading or fence details."""

    start: int
    end: int
    kind: str
    level: int = 0
    text: str = ""
    fence_markup: str = ""


@dataclass(frozen=True)
class HeadingSpan:
    """A heading of a body: lines [line, body_line) are the heading itself (two for setext)."""

    line: int
    body_line: int
    level: int
    text: str  # its raw inline text, explicit anchor kept
    depth: int  # 0 at the top level, more inside a list item or a block quote


@dataclass(frozen=True)
class FenceSpan:
    """A fenced code block: lines [start, end), its code lines [content_start, content_end)
    (the fence lines excluded; a fence never closed runs to the end of the body)."""

    start: int
    end: int
    content_start: int
    content_end: int
    depth: int  # 0 at the top level, more inside a block quote (or a list item)


@dataclass(frozen=True)
class Section:
    """A heading and what follows it up to the next heading of its cut, or the preamble.

    `heading` is the heading's text as written ("Retry budget {#budget}"), `markup` its source
    line(s) as written ("## Retry budget {#budget}", or "Budget" and "------" for setext), what
    a rewrite writes back. `text` is the markdown under the heading without surrounding blank
    lines. Lines are 0-based in the body read: [line, body_line) the heading, [body_line, end)
    its text. The preamble (the text before the first heading of the cut) has anchor "".
    """

    anchor: str
    heading: str
    subheadings: tuple[str, ...] = ()  # the headings inside the section that do not cut it
    text: str = ""
    level: int = 0
    line: int = 0
    body_line: int = 0
    end: int = 0
    markup: str = ""


@dataclass(frozen=True)
class BodyBlocks:
    """A body read once: its lines (split on "\\n"), its headings, fenced code and paragraphs."""

    lines: tuple[str, ...]
    headings: tuple[HeadingSpan, ...]
    fences: tuple[FenceSpan, ...]  # every fenced code block, at any depth
    paragraphs: tuple[tuple[int, int], ...]  # [start, end) of each paragraph, any depth


def anchor_of(heading_text: str) -> str:
    """A heading's anchor: its explicit {#anchor} suffix, else the slug of its text."""
    explicit = _EXPLICIT_ANCHOR_RE.search(heading_text)
    if explicit:
        return explicit.group("anchor").lower()
    return slugify(heading_text.rstrip("#").strip())


def without_explicit_anchor(heading_text: str) -> str:
    return _EXPLICIT_ANCHOR_RE.sub("", heading_text).strip()


def normalize_anchor(value: str) -> str:
    return value.strip().lstrip("#").strip().lower()


def unique_anchor(base: str, used: set[str]) -> str:
    """`base`, or `base-1`, `base-2` ... when taken (GitHub's spelling); records the choice."""
    anchor, n = base, 0
    while anchor in used:
        n += 1
        anchor = f"{base}-{n}"
    used.add(anchor)
    return anchor


def _containers_matter(tokens: Sequence[Token], lines: Sequence[str]) -> bool:
    """Whether the reading without the list rule could place a heading or a fence otherwise
    than CommonMark does (see the module docstring)."""
    for token in tokens:
        if token.level != 0 or token.type not in _INDENTED_KINDS or token.map is None:
            continue
        start, end = token.map
        if lines[start][:1] in (" ", "\t"):
            return True
        if (token.type == "heading_open" and token.markup in ("=", "-")
                and any(_LIST_MARKER_RE.match(line) for line in lines[start : end - 1])):
            return True
    return False


def _tokens(source: str, lines: Sequence[str]) -> list[Token]:
    quotes = _QUOTE_LINE_RE.search(source) is not None
    tokens = block_parser(lists=False, quotes=quotes).parse(source)
    if _containers_matter(tokens, lines):
        return block_parser().parse(source)
    return tokens


def read_blocks(body: str) -> BodyBlocks:
    """A body's headings, fenced code and paragraphs, its lines numbered as `body.split("\\n")`
    numbers them (a "\\r\\n" ends one line; a lone "\\r" is read as a blank)."""
    lines = body.split("\n")
    source = body.replace("\r\n", "\n").replace("\r", " ") if "\r" in body else body
    tokens = _tokens(source, lines)
    headings: list[HeadingSpan] = []
    fences: list[FenceSpan] = []
    paragraphs: list[tuple[int, int]] = []
    for index, token in enumerate(tokens):
        if token.map is None:
            continue
        start, end = token.map
        if token.type == "heading_open":
            text = tokens[index + 1].content.strip() if index + 1 < len(tokens) else ""
            headings.append(HeadingSpan(start, end, int(token.tag[1]), text, token.level))
        elif token.type == "fence":
            content_end = min(start + 1 + token.content.count("\n"), len(lines))
            fences.append(
                FenceSpan(start, min(end, len(lines)), start + 1, content_end, token.level))
        elif token.type == "paragraph_open":
            paragraphs.append((start, end))
    return BodyBlocks(tuple(lines), tuple(headings), tuple(fences), tuple(paragraphs))


def _span_text(lines: Sequence[str], start: int, end: int) -> str:
    return "\n".join(lines[start:end]).strip("\n")


def sections(blocks: BodyBlocks, level: int | None = 2) -> list[Section]:
    """The preamble, then a section per top-level heading of `level` (of every level when
    None), in page order. Headings that do not cut are the sections' subheadings. Anchors are
    given to the sections of one level only (a page's `##` sections); with None they are ""."""
    lines, heads = blocks.lines, blocks.headings
    cuts = [h for h in heads if h.depth == 0 and (level is None or h.level == level)]
    others = [h for h in heads if not (h.depth == 0 and (level is None or h.level == level))]
    starts = [h.line for h in cuts] + [len(lines)]
    result = [Section("", "", tuple(h.text for h in others if h.line < starts[0]),
                      _span_text(lines, 0, starts[0]), 0, 0, 0, starts[0])]
    used: set[str] = set()
    for k, head in enumerate(cuts):
        end = starts[k + 1]
        anchor = ""
        if level is not None:
            anchor = unique_anchor(anchor_of(head.text) or f"section-{k + 1}", used)
        result.append(Section(
            anchor=anchor,
            heading=head.text,
            subheadings=tuple(h.text for h in others if head.line < h.line < end),
            text=_span_text(lines, head.body_line, end),
            level=head.level,
            line=head.line,
            body_line=head.body_line,
            end=end,
            markup="\n".join(line.rstrip() for line in lines[head.line : head.body_line]),
        ))
    return result


def top_level_blocks(source: str, line_count: int) -> list[Block]:
    """The top-level blocks of a text, read with the whole block grammar (a cut must never
    fall inside a list item or a quote); lines past `line_count` are clipped."""
    tokens = block_parser().parse(source)
    blocks: list[Block] = []
    for position, token in enumerate(tokens):
        if token.level != 0 or token.nesting == -1 or token.map is None:
            continue
        kind = _BLOCK_KINDS.get(token.type, "other")
        start, end = token.map
        end = min(end, line_count)
        if kind == "heading":
            content = tokens[position + 1].content if position + 1 < len(tokens) else ""
            blocks.append(Block(start, end, kind, level=int(token.tag[1:]), text=content.strip()))
        elif kind == "fence":
            blocks.append(Block(start, end, kind, fence_markup=token.markup))
        else:
            blocks.append(Block(start, end, kind))
    return blocks
