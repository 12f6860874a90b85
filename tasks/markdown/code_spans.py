"""Inline code spans of one line, read as CommonMark (markdown-it-py's `backticks` rule) does.

A backtick run of n opens a span that closes at the next run of exactly n backticks; a run
never closed is literal text and the scan goes on after it. Outside a span a backslash escapes
the next character, so "\\`" opens nothing; inside one it is literal ("`a\\`" is the span
"a\\"). A span's content loses one space at each end when it both starts and ends with a space
and is not all spaces.

The line is read alone: a span that runs over the lines of its paragraph is not found, nor is
what markdown-it reads before a span that starts inside it (an HTML tag, an autolink, a link
destination: "[a](`b`)" is a link here read as holding the span "b"). The property test in
tests/tasks/markdown/test_code_spans.py compares with markdown-it's `code_inline` tokens on
lines of backticks, backslashes, spaces, letters, brackets and emphasis marks.

Every extract line reader calls these on lines holding a backtick only, and a line whose runs
are all single backticks with none escaped (nearly every one) is read by one regex.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Callable
from typing import NamedTuple

# A span of a line whose backtick runs are all one long and none is escaped: runs pair in turn.
_SINGLE_SPAN_RE = re.compile(r"`([^`]*)`")
# Where the scan of any other line stops: an escape or a backtick run.
_STOP_RE = re.compile(r"\\[\s\S]|`+")
_RUN_RE = re.compile(r"`+")


class CodeSpan(NamedTuple):
    """A code span: `line[start:end]` is the span as written, backticks included."""

    start: int
    end: int
    content: str


def _content(raw: str) -> str:
    """A span's content: one space stripped from both ends when both are spaces (not all)."""
    if raw[:1] == " " and raw[-1:] == " " and raw.strip(" "):
        return raw[1:-1]
    return raw


def code_spans(line: str) -> list[CodeSpan]:
    """The code spans of one line, in order."""
    if "`" not in line:
        return []
    if "``" not in line and "\\`" not in line:
        return [CodeSpan(m.start(), m.end(), _content(m.group(1)))
                for m in _SINGLE_SPAN_RE.finditer(line)]
    return _scanned_code_spans(line)


def code_span_contents(line: str) -> list[str]:
    """The contents of the code spans of one line, in order (`code_spans`' contents, cheaper)."""
    if "`" not in line:
        return []
    if "``" not in line and "\\`" not in line:
        raws = _SINGLE_SPAN_RE.findall(line)
        return raws if "` " not in line else [_content(raw) for raw in raws]  # no space to strip
    return [span.content for span in _scanned_code_spans(line)]


def backtick_runs(text: str) -> dict[int, list[int]]:
    """Run length -> the starts of `text`'s backtick runs of that length, in order."""
    runs: dict[int, list[int]] = {}
    for run in _RUN_RE.finditer(text):
        runs.setdefault(run.end() - run.start(), []).append(run.start())
    return runs


def closing_run(runs: dict[int, list[int]], length: int, after: int) -> int:
    """Where a span opened by a run of `length` backticks ending at `after` closes: the start
    of the next run of exactly that length (`runs` from backtick_runs), or -1 (no span)."""
    starts = runs.get(length, [])
    index = bisect_left(starts, after)
    return starts[index] if index < len(starts) else -1


def _scanned_code_spans(line: str) -> list[CodeSpan]:
    """Left to right: escapes skipped, each run closed by the next run of its length."""
    runs = backtick_runs(line)
    spans: list[CodeSpan] = []
    pos = 0
    while (stop := _STOP_RE.search(line, pos)) is not None:
        pos = stop.end()
        if line[stop.start()] == "\\":
            continue
        # An opener after an escaped backtick is shorter than the run it sits in; the runs
        # after it are whole, as it ends before a character that is no backtick.
        length = pos - stop.start()
        close = closing_run(runs, length, pos)
        if close >= 0:
            spans.append(CodeSpan(stop.start(), close + length, _content(line[pos:close])))
            pos = close + length
    return spans


def mask_code_spans(line: str, fill: str = " ") -> str:
    """`line` with each code span, backticks included, overwritten by `fill` (one character),
    so every offset outside the spans is kept."""
    if "`" not in line:
        return line
    if "``" not in line and "\\`" not in line:
        return _SINGLE_SPAN_RE.sub(lambda match: fill * len(match.group()), line)
    return _replaced(line, _scanned_code_spans(line), lambda span: fill * (span.end - span.start))


def replace_code_spans(line: str, replacement: str = " ") -> str:
    """`line` with each code span, backticks included, replaced by `replacement`."""
    if "`" not in line:
        return line
    if "``" not in line and "\\`" not in line:
        return _SINGLE_SPAN_RE.sub(
            replacement.replace("\\", "\\\\") if "\\" in replacement else replacement, line)
    return _replaced(line, _scanned_code_spans(line), lambda _span: replacement)


def _replaced(line: str, spans: list[CodeSpan], fill: Callable[[CodeSpan], str]) -> str:
    parts: list[str] = []
    pos = 0
    for span in spans:
        parts.append(line[pos:span.start])
        parts.append(fill(span))
        pos = span.end
    parts.append(line[pos:])
    return "".join(parts)
