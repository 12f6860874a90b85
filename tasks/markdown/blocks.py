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
still carries its raw text). The list rule costs two to three times the parse of a bulleted page,
the table and block-quote rules about 15 % each, so a body is first read without lists and
tables (both read as paragraphs), with the block-quote rule only when a line opens a quote, and
read again with the whole grammar only when that reading could place a top-level heading
otherwise: a list item whose text opens another block ("- ## x", "- ```", "- >", an empty
item ...), a top-level heading that starts indented (inside a list item it is not top-level), a
setext heading over a list item's line or a table's ("- a" over "---" is a list and a rule), a
quote that reads an item as its lazy line, an indented code block with a lazy line right under
it, or an indented fence, HTML block or quote that a less indented line falls inside (it may
have ended with the item). Otherwise the two readings give the same top-level headings
(tests/tasks/markdown/test_blocks.py checks this against the whole grammar); a fence indented
under a list item then reads as a top-level one, and a fence deeper inside an item as text
(distill always read them so). A body is parsed once, twice in those cases.

A plain body is not parsed at all: when every line is blank, an ATX heading at the margin or
a line that can open nothing but a paragraph (it starts at the margin with a character that
opens no block, or with one that would, not followed by what it needs: "- x", "_None_",
"`code`"), and no line gives any of the hints above, markdown-it's reading is its headings and
the runs of other lines between blank lines and headings as paragraphs: `_plain_reading` builds
that (an entity page, most machine-written pages). The hypothesis test checks it against the
parse.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from markdown_it.common.utils import MD_TRIM_CHARS
from markdown_it.token import Token
from slugify import slugify

from tasks.markdown.parser import block_parser

_LIST_MARKER_RE = re.compile(r" {0,3}(?:[-*+]|\d{1,9}[.)])(?:[ \t]|$)")
_EXPLICIT_ANCHOR_RE = re.compile(r"(?<![ \t])[ \t]*+\{#(?P<anchor>[A-Za-z0-9_-]+)\}$")
_QUOTED_RE = re.compile(r" {0,3}>")
_WATCHED_KINDS = frozenset({"heading_open", "fence", "html_block", "blockquote_open",
                            "paragraph_open", "code_block"})
_HTML_OPEN = r"<(?:[A-Za-z][A-Za-z0-9-]*(?:[ \t/>]|$)|[/!?])"
_QUOTE_LINE = r" {0,3}>"
# A list item whose text opens another block (a heading, a fence, a quote, HTML, a list, a rule,
# indented code) or is empty: its lines after it may then belong to other blocks than the
# paragraph the reading without the list rule continues.
_BLOCK_ITEM = (r"[ \t]*(?:[-*+]|\d{1,9}[.)])(?:[ \t]*$|[ \t]+(?:[ \t]{4}|#{1,6}(?:[ \t]|$)|>|```|~~~|"
               + _HTML_OPEN + r"|(?:[-*+]|\d{1,9}[.)])(?:[ \t]|$)|[-*_][ \t]*[-*_][ \t]*[-*_]))")
# An indented line that opens a block other than a paragraph or a list (a fence, a heading, a
# quote, HTML, a rule): under a list item it may interrupt the item's text.
_INDENTED_OPENER = (r"[ \t]+(?:```|~~~|#{1,6}(?:[ \t]|$)|>|" + _HTML_OPEN
                    + r"|[-*_](?:[ \t]*[-*_]){2,}[ \t]*$)")
_INDENTED_OPENER_RE = re.compile("^" + _INDENTED_OPENER, re.MULTILINE)
# Whether any line of a text is one (searched in "\n" + text, as _HINT_RE below: a multiline
# "^" is tried at every position of the text, a literal newline only at the lines' starts).
_ANY_QUOTE_LINE_RE = re.compile("\n" + _QUOTE_LINE)
_ANY_BLOCK_ITEM_RE = re.compile("\n" + _BLOCK_ITEM, re.MULTILINE)
_ANY_INDENTED_OPENER_RE = re.compile("\n" + _INDENTED_OPENER, re.MULTILINE)
# Any of the three: most bodies (a bulleted page among them) have none, and pay one scan. It is
# anchored on a literal newline (searched in "\n" + text): the engine then jumps from newline
# to newline instead of trying "^" at every position (three times faster).
_HINT_RE = re.compile(f"\n(?:{_QUOTE_LINE}|{_BLOCK_ITEM}|{_INDENTED_OPENER})", re.MULTILINE)
# The start of a line that is not blank, an ATX heading at the margin or a line that can only
# open or continue a paragraph (without the list, table and quote rules): a character that opens
# no block at the margin; one that may ("#", a fence's, a rule's or an underline's) followed by a
# character that completes none of them; a bullet, a blank and such a character. Searched in
# "\n" + text, as _HINT_RE.
_NOT_PLAIN_RE = re.compile(r"\n(?![ \t]*$|#{1,6}(?:[ \t]|$)|[^ \t#`~>\-*_=<\[\r\n\0]"
                           r"|[-*_=`~#][^ \t\-*_=`~#\r\n\0]|[-*+] [^ \t\-*_\r\n\0])", re.MULTILINE)
# A line that ends a paragraph rather than continue it lazily: a heading, a bullet, a fence, a quote.
_INTERRUPTS_RE = re.compile(r" {0,3}(?:#{1,6}(?:[ \t]|$)|[-*+][ \t]+\S|```|~~~|>)")

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
    # [start, end) of each paragraph, any depth, in the fast reading: a list or a table is one
    # paragraph, whichever reading the headings come from (distill reads sentences from them)
    paragraphs: tuple[tuple[int, int], ...]


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


def _containers_matter(tokens: Sequence[Token], lines: Sequence[str], *, items: bool,
                       openers: bool) -> bool:
    """Whether the reading without the list rule could place a top-level heading otherwise
    than CommonMark does (see the module docstring); `items`: a line is a _BLOCK_ITEM,
    `openers`: a line is an _INDENTED_OPENER."""
    return items or any(
        token.level == 0 and token.type in _WATCHED_KINDS and token.map is not None
        and _list_may_differ(token, token.map, lines, openers=openers) for token in tokens)


def _list_may_differ(token: Token, span: list[int], lines: Sequence[str], *, openers: bool
                     ) -> bool:
    start, end = span
    indented = lines[start][:1] in (" ", "\t")
    kind = token.type
    if kind == "paragraph_open":  # an indented line that opens a block in a list item
        return openers and any(_INDENTED_OPENER_RE.match(line) for line in lines[start + 1 : end])
    if kind == "code_block":  # a list item's text, when a line right under it reads as lazy
        return end < len(lines) and bool(lines[end].strip()) and not _INTERRUPTS_RE.match(
            lines[end])
    if kind == "heading_open":  # indented: maybe a list item's or code; setext over an item or
        # a table (read as a paragraph here)
        return indented or (token.markup in ("=", "-") and any(
            "|" in line or _LIST_MARKER_RE.match(line) for line in lines[start : end - 1]))
    if kind == "blockquote_open" and any(  # an item read as a lazy line of the quote
            _LIST_MARKER_RE.match(line) and not _QUOTED_RE.match(line)
            for line in lines[start:end]):
        return True
    return indented and not _held_by_indent(lines, start, end)


def _indent(line: str) -> int:
    """The columns of a line's leading blanks (a tab to the next multiple of 4)."""
    column = 0
    for char in line:
        if char == " ":
            column += 1
        elif char == "\t":
            column += 4 - column % 4
        else:
            break
    return column


def _held_by_indent(lines: Sequence[str], start: int, end: int) -> bool:
    """Whether every line of an indented fence or HTML block is blank or indented at least as
    far as its first: then a list item it may sit in holds all of it, and it hides the same
    lines from the top level either way (only a less indented line ends a list item)."""
    indent = _indent(lines[start])
    return all(not line.strip() or _indent(line) >= indent for line in lines[start + 1 : end])


def _tokens(source: str, lines: Sequence[str]) -> tuple[list[Token], list[Token]]:
    """The fast reading (lists and tables as paragraphs), and the reading the headings and
    fences are taken from: the same, or the whole grammar when containers matter."""
    lined = "\n" + source
    hinted = _HINT_RE.search(lined) is not None
    quotes = hinted and _ANY_QUOTE_LINE_RE.search(lined) is not None
    tokens = block_parser(tables=False, lists=False, quotes=quotes).parse(source)
    items = hinted and _ANY_BLOCK_ITEM_RE.search(lined) is not None
    openers = hinted and _ANY_INDENTED_OPENER_RE.search(lined) is not None
    if _containers_matter(tokens, lines, items=items, openers=openers):
        return tokens, block_parser().parse(source)
    return tokens, tokens


def _atx_text(line: str) -> tuple[int, str]:
    """An ATX heading line's level and text, cut as markdown-it's heading rule cuts them."""
    level = len(line) - len(line.lstrip("#"))
    end = len(line)
    while end > level and line[end - 1] in " \t":
        end -= 1
    tail = end
    while tail > level and line[tail - 1] == "#":
        tail -= 1
    if tail > level and line[tail - 1] in " \t":
        end = tail
    return level, line[level:end].strip(MD_TRIM_CHARS).strip()


def _plain_reading(source: str, split: tuple[str, ...]) -> BodyBlocks | None:
    """The reading of a plain body (see the module docstring) without a parse; None for any
    other body. `source` is the text read, `split` the lines numbered (as many)."""
    lined = "\n" + source
    if "\0" in source or _NOT_PLAIN_RE.search(lined) or _HINT_RE.search(lined):
        return None
    headings: list[HeadingSpan] = []
    paragraphs: list[tuple[int, int]] = []
    start = -1  # the first line of the paragraph being read
    numbered = source.split("\n")
    for number, line in enumerate(numbered):
        # "#" then a blank or nothing (the pattern let no longer run of "#" through): a heading
        heading = line[:1] == "#" and line.lstrip("#")[:1] in ("", " ", "\t")
        if heading or not line.strip(" \t"):
            if start >= 0:
                paragraphs.append((start, number))
                start = -1
            if heading:
                level, text = _atx_text(line)
                headings.append(HeadingSpan(number, number + 1, level, text, 0))
        elif start < 0:
            start = number
    if start >= 0:
        paragraphs.append((start, len(numbered)))
    return BodyBlocks(split, tuple(headings), (), tuple(paragraphs))


def read_blocks(body: str, lines: Sequence[str] | None = None) -> BodyBlocks:
    """A body's headings, fenced code and paragraphs, its lines numbered as `body.split("\\n")`
    numbers them (a "\\r\\n" ends one line; a lone "\\r" is read as a blank). `lines` is
    that split when the caller has it."""
    split = tuple(body.split("\n") if lines is None else lines)
    source = body.replace("\r\n", "\n").replace("\r", " ") if "\r" in body else body
    plain = _plain_reading(source, split)
    return plain if plain is not None else _parsed_reading(source, split)


def _parsed_reading(source: str, split: tuple[str, ...]) -> BodyBlocks:
    """read_blocks from markdown-it's tokens (one parse, two where containers matter)."""
    fast, tokens = _tokens(source, split)
    headings: list[HeadingSpan] = []
    fences: list[FenceSpan] = []
    for index, token in enumerate(tokens):
        if token.map is None:
            continue
        start, end = token.map
        if token.type == "heading_open":
            text = tokens[index + 1].content.strip() if index + 1 < len(tokens) else ""
            headings.append(HeadingSpan(start, end, int(token.tag[1]), text, token.level))
        elif token.type == "fence":
            content_end = min(start + 1 + token.content.count("\n"), len(split))
            fences.append(
                FenceSpan(start, min(end, len(split)), start + 1, content_end, token.level))
    paragraphs = [(t.map[0], t.map[1]) for t in fast if t.type == "paragraph_open" and t.map]
    return BodyBlocks(split, tuple(headings), tuple(fences), tuple(paragraphs))


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


# A line a plain-text document (an e-mail, a note pasted from a word processor) titles a part
# with: a capital, at most six words, no sentence or field punctuation ("What happened", "Rough
# timeline (UTC)"; not "Hi all,", "Owner: Ana" or "Thanks."), a note in brackets after it of any
# words ("What we will change (owners agreed at today's huddle)").
# An e-mail client or a word processor's export writes the same title in bold, where the bold
# alone marks it, so a comma may stand in it ("**What happened, in order**", "**Impact**").
_PLAIN_TITLE_RE = re.compile(r"(?:[A-Z][A-Za-z0-9'’()/&-]*(?: [A-Za-z0-9'’()/&-]+){0,5}"
                             r"|\*\*[A-Z][A-Za-z0-9'’()/&,-]*(?: [A-Za-z0-9'’()/&,-]+){0,7}:?\*\*)"
                             r"(?: \([^()]{1,60}\))?")
MIN_PLAIN_TITLES = 2
# A title in Jira's bold (one `*`, markdown's italics) on the first line of its part, the text
# right under it: Jira's wiki markup writes a description's parts so (`*Context*` over its text).
_EMPHASIS_TITLE_RE = re.compile(r"([*_])[A-Z][A-Za-z0-9'’()/&, -]{0,60}[A-Za-z0-9)]\1:?")


def _capitals_title(line: str, under: str) -> bool:
    """A title in capitals on the first line of its part, the text right under it with no blank
    line between ("WHAT HAPPENED" / "Between Monday ...", "IMPACT" / "- 212 invoices"): a plain-text
    mail's way; the capitals alone mark it (a sentence's first line is no title). Not a manual
    page's ("NAME" over text indented under it), whose layout is read as it stands."""
    text = line.rstrip()
    return (text.isupper() and sum(c.isalpha() for c in text) >= 3 and not under[:1].isspace()
            and _PLAIN_TITLE_RE.fullmatch(text) is not None)


def split_titled_paragraphs(
    paragraphs: tuple[tuple[int, int], ...], titles: tuple[HeadingSpan, ...]
) -> tuple[tuple[int, int], ...]:
    """The paragraphs with each title that opens one (a capitals title over its text) set apart:
    its text is a paragraph of its own, as under a heading."""
    opening = {title.line for title in titles}
    split: list[tuple[int, int]] = []
    for start, end in paragraphs:
        if start in opening and end - start > 1:
            split += [(start, start + 1), (start + 1, end)]
        else:
            split.append((start, end))
    return tuple(split)


def plain_titles(blocks: BodyBlocks) -> tuple[HeadingSpan, ...]:
    """The part titles of a body written without markdown headings: each one-line paragraph,
    not the body's first, that matches _PLAIN_TITLE_RE and is followed, after a blank line, by
    a paragraph that is not one too (a title stands over text). None when the body has
    headings, or fewer than MIN_PLAIN_TITLES such lines (a body of one-line paragraphs is no
    outline). Level 2, so none is read as the document's title."""
    if blocks.headings:
        return ()
    paragraphs, lines = blocks.paragraphs, blocks.lines
    one_line = {start for start, end in paragraphs if end - start == 1
                and _PLAIN_TITLE_RE.fullmatch(lines[start].rstrip()) is not None}
    found = tuple(HeadingSpan(start, start + 1, 2, lines[start].strip(), 0)
                  for (start, end), (after, _) in zip(paragraphs[1:], paragraphs[2:], strict=False)
                  if (start in one_line and after not in one_line and after > end
                      and not lines[end].strip())
                  or (end - start > 1 and (_capitals_title(lines[start], lines[start + 1])
                                           or _EMPHASIS_TITLE_RE.fullmatch(lines[start].rstrip()))))
    bold = tuple(span for span in found if span.text.startswith("**"))
    if bold:  # a writer who titles in bold does so every time: a plain line ("Tomoko") signs the mail
        found = bold
    return found if len(found) >= MIN_PLAIN_TITLES else ()


# A heading in wiki markup, on a line of its own: MediaWiki's and Phabricator Remarkup's
# "== Summary ==" (its level the number of "=" on each side), as a Fedora Change page or a
# Phabricator task's RFC is written. Markdown reads the line as a paragraph's text.
_WIKI_HEADING_RE = re.compile(
    r"(?P<marks>={1,6})[ \t]*(?P<text>[^=\s](?:[^=]{0,98}[^=\s])?)[ \t]*(?P=marks)[ \t]*")


def wiki_headings(blocks: BodyBlocks) -> tuple[HeadingSpan, ...]:
    """The wiki-markup headings of a body: each line of a paragraph (outside code) written
    `== Title ==`, the same number of "=" on each side, at the line's start."""
    found = []
    for start, end in blocks.paragraphs:
        for number in range(start, end):
            line = blocks.lines[number]
            match = _WIKI_HEADING_RE.fullmatch(line) if line[:1] == "=" else None
            if match:
                found.append(HeadingSpan(number, number + 1, len(match["marks"]), match["text"], 0))
    return tuple(found)


def without_lines(paragraphs: tuple[tuple[int, int], ...], cut: set[int]) -> tuple[tuple[int, int], ...]:
    """The paragraphs with the lines `cut` (headings written inside one) taken out: the text
    before and after each such line is a paragraph of its own."""
    split: list[tuple[int, int]] = []
    for start, end in paragraphs:
        first = start
        for number in range(start, end):
            if number in cut:
                if number > first:
                    split.append((first, number))
                first = number + 1
        if end > first:
            split.append((first, end))
    return tuple(split)
