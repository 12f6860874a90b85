"""The shard planner: where a large source is cut into pages. Pure, no I/O.

Boundaries are the top-level blocks of tasks.markdown.blocks (markdown-it-py's block tokens, the
`inline` core rule disabled: only line ranges are needed), and fences nested in an oversized
block are tasks.markdown.fences.nested_fences. A cut falls only before a top-level block, so it is
never inside a fenced code block, a table, a list item or an HTML block. Among the cuts that
fit, the highest heading level wins (h1 before h2 ... before a plain paragraph boundary), as
long as the shard is at least half full; otherwise the farthest cut that fits. A single block
larger than the budget is split at line boundaries (or, for one enormous line, at a character
offset); a fenced code block split that way, on its own or nested in a list item or a quote,
is closed at the end of one shard and reopened at the start of the next, and those added lines
are recorded so they can be removed again.

Lossless: `"".join(shard.slice_of(text) for shard in plan) == text` for every plan.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from dataclasses import dataclass, field
from itertools import accumulate

from tasks.markdown.blocks import Block, Heading, top_level_blocks
from tasks.markdown.fences import nested_fences
from tasks.markdown.frontmatter import find_front_matter

# markdown-it-py's own line splitting (its `normalize` rule): \r\n, a lone \r and \n all end a line.
_NEWLINE_RE = re.compile(r"\r\n?|\n")
_PARAGRAPH_RANK = 7
_MIN_FILL = 0.5

@dataclass(frozen=True)
class Shard:
    """Characters [start, end) of the source, plus the fence lines added around them."""

    start: int
    end: int
    line_start: int  # 1-based, inclusive
    line_end: int  # 1-based, inclusive
    headings: tuple[Heading, ...] = ()
    reopened_fence: str = ""  # added before the slice ("```python\n"), removed on reassembly
    closed_fence: str = ""  # added after the slice ("```\n"), removed on reassembly
    split_block: str | None = None  # kind of the oversized block this shard cuts through

    def slice_of(self, text: str) -> str:
        return text[self.start : self.end]

    def body(self, text: str) -> str:
        return self.reopened_fence + text[self.start : self.end] + self.closed_fence


@dataclass(frozen=True)
class LineIndex:
    """Character offset of every line start (markdown-it line semantics), plus a sentinel."""

    starts: tuple[int, ...]
    length: int

    @property
    def count(self) -> int:
        return len(self.starts) - 1

    def offset(self, line: int) -> int:
        return self.starts[min(line, self.count)]

    def line_of(self, offset: int) -> int:
        """0-based line containing character `offset`."""
        return max(0, bisect_right(self.starts, offset, hi=self.count) - 1)


@dataclass
class _Cut:
    line: int
    rank: int
    offset: int = field(default=0)


_PLUS_ONE = (1).__add__


def line_index(text: str) -> LineIndex:
    if "\r" in text:
        starts = [0, *(m.end() for m in _NEWLINE_RE.finditer(text))]
    else:  # the common case, several times faster than a regex scan
        starts = [0, *accumulate(map(_PLUS_ONE, map(len, text.split("\n"))))]
        starts.pop()  # split() yields one more piece than there are newlines
    if len(starts) > 1 and starts[-1] == len(text):
        starts.pop()
    if not text:
        starts = []
    return LineIndex((*starts, len(text)), len(text))


def frontmatter_lines(text: str, index: LineIndex) -> int:
    """Number of lines taken by a leading `---` YAML frontmatter block (0 when there is none),
    closed within the lines `index` covers."""
    block = find_front_matter(text, index.length)
    return block.lines if block else 0


def markdown_blocks(text: str, index: LineIndex | None = None) -> list[Block]:
    """Top-level blocks of a markdown text, with a leading frontmatter block kept whole."""
    index = index or line_index(text)
    skip = frontmatter_lines(text, index)
    blocks: list[Block] = [Block(0, skip, "frontmatter")] if skip else []
    # Blank out the frontmatter so its lines keep their numbers but cannot start a block.
    source = "\n" * skip + text[index.offset(skip) :] if skip else text
    return blocks + top_level_blocks(source, index.count)


def text_blocks(text: str, index: LineIndex | None = None) -> list[Block]:
    """Paragraphs of plain text: runs of non-blank lines."""
    index = index or line_index(text)
    blocks: list[Block] = []
    start: int | None = None
    for line in range(index.count):
        blank = not text[index.offset(line) : index.offset(line + 1)].strip()
        if blank and start is not None:
            blocks.append(Block(start, line, "paragraph"))
            start = None
        elif not blank and start is None:
            start = line
    if start is not None:
        blocks.append(Block(start, index.count, "paragraph"))
    return blocks


def headings_of(blocks: list[Block]) -> list[Heading]:
    return [Heading(b.level, b.text, b.start + 1) for b in blocks if b.kind == "heading"]


def shard_plan(
    text: str,
    budget: int,
    *,
    markdown: bool = True,
    blocks: list[Block] | None = None,
    index: LineIndex | None = None,
) -> list[Shard]:
    """Cut `text` into shards whose bodies (fence lines included) are at most `budget` chars.

    `index` is `line_index(text)` when the caller already has it (saves a pass over the text).
    """
    if budget < 64:
        raise ValueError(f"shard budget {budget} is too small to hold a line and its fences")
    index = index or line_index(text)
    if blocks is None:
        blocks = markdown_blocks(text, index) if markdown else text_blocks(text, index)
    if not text:
        return []
    cuts = [_Cut(b.start, b.level if b.kind == "heading" else _PARAGRAPH_RANK) for b in blocks if b.start > 0]
    cuts.append(_Cut(index.count, 0))
    for cut in cuts:
        cut.offset = index.offset(cut.line)
    shards: list[Shard] = []
    planned = _Planned(text, index, blocks)
    line, position, cursor = 0, 0, 0
    while line < index.count:
        while cuts[cursor].line <= line:
            cursor += 1
        chosen = _choose_cut(cuts, cursor, index.offset(line), budget)
        if chosen is None:
            next_line = cuts[cursor].line
            shards += _split_oversized(planned, line, next_line, budget)
        else:
            next_line = cuts[chosen].line
            shards.append(planned.shard(index.offset(line), index.offset(next_line)))
        line, position = next_line, index.offset(next_line)
    assert position == len(text)
    return shards


def _choose_cut(cuts: list[_Cut], cursor: int, start: int, budget: int) -> int | None:
    fitting = cursor
    while fitting < len(cuts) and cuts[fitting].offset - start <= budget:
        fitting += 1
    if fitting == cursor:
        return None
    last = fitting - 1
    if cuts[last].rank == 0:  # the end of the text fits: take it all
        return last
    floor = start + int(budget * _MIN_FILL)
    best: int | None = None
    for position in range(last, cursor - 1, -1):
        cut = cuts[position]
        if cut.offset < floor:
            break
        if best is None or cut.rank < cuts[best].rank:
            best = position
    return best if best is not None else last


@dataclass(frozen=True)
class _Planned:
    """The text being cut, its line index and its top-level blocks (what every cut reads)."""

    text: str
    index: LineIndex
    blocks: list[Block]

    def shard(self, start: int, end: int, *, reopened: str = "", closed: str = "",
              split_block: str | None = None) -> Shard:
        index, blocks = self.index, self.blocks
        first_line = index.line_of(start)
        last_line = index.line_of(max(start, end - 1))
        # Blocks are in line order: only those starting on lines first_line..last_line count.
        low = bisect_left(blocks, first_line, key=_block_start)
        high = bisect_right(blocks, last_line, key=_block_start)
        headings = tuple(
            Heading(b.level, b.text, b.start + 1)
            for b in blocks[low:high]
            if b.kind == "heading" and start <= index.offset(b.start) < end
        )
        return Shard(start, end, first_line + 1, last_line + 1, headings, reopened, closed,
                     split_block)


def _block_start(block: Block) -> int:
    return block.start


@dataclass(frozen=True)
class _InnerFence:
    """A fenced code block nested in an oversized block (a list item's, a quote's): characters
    [open_end, close_start) are its content, where a cut must close and reopen it."""

    open_end: int
    close_start: int
    reopen: str  # its opening line, list markers blanked, so the next shard reopens it in place
    close: str  # a closing line with the same indentation / quote markers


def _inner_fences(text: str, index: LineIndex, first: int, stop: int) -> list[_InnerFence]:
    """Fenced code inside lines [first, stop) (tasks.markdown.fences.nested_fences: markdown-it
    sees only the outer block at the top level). A fence left open runs to the end of the block."""
    lines = [text[index.offset(line) : index.offset(line + 1)] for line in range(first, stop)]
    return [_InnerFence(index.offset(first + f.open_line + 1), index.offset(first + f.close_line),
                        f.reopen, f.close)
            for f in nested_fences(lines)]


def _fence_at(fences: list[_InnerFence], offset: int) -> _InnerFence | None:
    return next((f for f in fences if f.open_end <= offset < f.close_start), None)


def _split_oversized(planned: _Planned, first: int, stop: int, budget: int) -> list[Shard]:
    """Lines [first, stop) hold one block larger than the budget: cut it at line boundaries."""
    text, index, blocks = planned.text, planned.index, planned.blocks
    block = next((b for b in blocks if b.start >= first and b.start < stop), None)
    kind = block.kind if block else "paragraph"
    fence = block if block is not None and block.kind == "fence" else None
    if fence is not None and _too_long_to_repeat(index, fence.start, budget):
        fence = None  # a fence line too long to reopen on every shard: cut as plain lines
    if fence is None and kind != "code":  # fenced code nested in a list item or a quote
        return _split_with_inner_fences(planned, first, stop, budget, kind)
    open_line = ""
    if fence is not None:
        open_line = text[index.offset(fence.start) : index.offset(fence.start + 1)]
        open_line = open_line.rstrip("\r\n") + "\n"
    shards: list[Shard] = []
    start, end_offset = index.offset(first), index.offset(stop)
    while start < end_offset:
        in_fence_at_start = (fence is not None
                             and index.offset(fence.start + 1) <= start < index.offset(fence.end))
        reopened = open_line if in_fence_at_start else ""
        close = "\n" + fence.fence_markup + "\n" if fence is not None else ""
        # The added lines count twice: in the body and in the shard's frontmatter record of them.
        room = budget - 2 * (len(reopened) + len(close))
        if room < 1:
            raise ValueError(f"shard budget {budget} cannot hold the fence line {open_line!r}")
        end = _farthest_line_end(index, start, min(end_offset, start + room))
        inside_fence_at_end = (
            fence is not None
            and index.offset(fence.start + 1) <= end
            and end < index.offset(fence.end)
            and not (fence.end >= index.count and end == index.length)
        )
        closed = ""
        if inside_fence_at_end and fence is not None:
            closed = fence.fence_markup + "\n" if text[end - 1] in "\r\n" else close
        shards.append(planned.shard(start, end, reopened=reopened, closed=closed,
                                    split_block=kind))
        start = end
    return shards


def _too_long_to_repeat(index: LineIndex, line: int, budget: int) -> bool:
    """A fence line this long would fill most of every shard it is reopened in."""
    return 8 * (index.offset(line + 1) - index.offset(line)) > budget


def _split_with_inner_fences(planned: _Planned, first: int, stop: int, budget: int, kind: str
                             ) -> list[Shard]:
    """Cut an oversized list, quote, table, HTML block or paragraph at line boundaries; a cut
    inside fenced code nested in it closes that fence and the next shard reopens it."""
    text, index = planned.text, planned.index
    fences = [f for f in _inner_fences(text, index, first, stop)
              if 8 * (len(f.reopen) + len(f.close)) <= budget]  # longer ones: cut as plain lines
    longest_close = max((len(f.close) + 1 for f in fences), default=0)
    shards: list[Shard] = []
    start, end_offset = index.offset(first), index.offset(stop)
    while start < end_offset:
        at_start = _fence_at(fences, start)
        reopened = at_start.reopen if at_start is not None else ""
        room = budget - 2 * (len(reopened) + longest_close)
        if room < 1:
            raise ValueError(f"shard budget {budget} cannot hold the fence line {reopened!r}")
        end = _farthest_line_end(index, start, min(end_offset, start + room))
        at_end = _fence_at(fences, end) if end < end_offset else None
        closed = ""
        if at_end is not None:
            closed = at_end.close if text[end - 1] in "\r\n" else "\n" + at_end.close
        shards.append(planned.shard(start, end, reopened=reopened, closed=closed,
                                    split_block=kind))
        start = end
    return shards


def _farthest_line_end(index: LineIndex, start: int, limit: int) -> int:
    """The farthest line start in (start, limit]; a character cut when no whole line fits."""
    if limit >= index.length:
        return index.length
    line = index.line_of(limit)
    candidate = index.offset(line)
    if candidate > start:
        return candidate
    return limit
