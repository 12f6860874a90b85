"""Which lines of a markdown text are fenced code, by CommonMark's rules.

A fence opens with 3+ backticks or tildes indented at most 3 spaces (a backtick fence's info
string holds no backtick) and closes only with a run of the SAME character at least as long,
indented at most 3 spaces, followed by nothing but spaces. So "```" inside a "~~~" block is
code, not a fence. A fence never closed runs to the end of the text.

This is the line-level fast path the readers use (page links, hand sections, first sentence,
proposal sections, extraction): markdown-it-py gives the same answer for texts without
container blocks and is the reference it is tested against (tests/tasks/test_markdown_fences.py).
Inside lists and block quotes, where a fence may be indented further, a line scanner cannot
know the container; those fences are recognised when indented at most 3 spaces.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

_OPEN_RE = re.compile(r" {0,3}(`{3,}|~{3,})([^\n]*)")
_CLOSE_RE = re.compile(r" {0,3}(`{3,}|~{3,})[ \t]*")


class FenceTracker:
    """Feed lines in order; `feed` says whether each one is fenced code (fence lines too)."""

    __slots__ = ("_char", "_length")

    def __init__(self) -> None:
        self._char = ""
        self._length = 0

    @property
    def open(self) -> bool:
        return bool(self._char)

    def feed(self, line: str) -> bool:
        line = line.rstrip("\r\n")
        if not self._char:
            match = _OPEN_RE.fullmatch(line)
            if match is None:
                return False
            run, info = match.group(1), match.group(2)
            if run[0] == "`" and "`" in info:
                return False  # an inline code span, not a fence
            self._char, self._length = run[0], len(run)
            return True
        match = _CLOSE_RE.fullmatch(line)
        if match is not None and match.group(1)[0] == self._char and len(match.group(1)) >= self._length:
            self._char, self._length = "", 0
        return True


def code_flags(lines: Iterable[str]) -> Iterator[tuple[str, bool]]:
    """Each line with whether it is fenced code."""
    tracker = FenceTracker()
    for line in lines:
        yield line, tracker.feed(line)


def prose_lines(lines: Iterable[str]) -> Iterator[str]:
    """The lines that are not fenced code."""
    return (line for line, code in code_flags(lines) if not code)


def has_open_fence(text: str) -> bool:
    tracker = FenceTracker()
    for line in text.split("\n"):
        tracker.feed(line)
    return tracker.open
