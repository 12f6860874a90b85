"""Which lines of a markdown text are fenced code, by CommonMark's rules.

A fence opens with 3+ backticks or tildes indented at most 3 spaces (a backtick fence's info
string holds no backtick) and closes only with a run of the SAME character at least as long,
indented at most 3 spaces, followed by nothing but spaces. So "```" inside a "~~~" block is
code, not a fence. A fence never closed runs to the end of the text.

This is the line-level fast path the readers use (page links, hand sections, first sentence,
proposal sections, extraction): markdown-it-py gives the same answer for texts without
container blocks and is the reference it is tested against (tests/tasks/markdown/test_fences.py).
Inside lists and block quotes, where a fence may be indented further, a line scanner cannot
know the container; those fences are recognised when indented at most 3 spaces.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

_OPEN_RE = re.compile(r" {0,3}(`{3,}|~{3,})([^\n]*)")
_CLOSE_RE = re.compile(r" {0,3}(`{3,}|~{3,})[ \t]*")
# Possessive runs: a list marker or a fence never starts with a blank or '>', so giving any
# back cannot help, and without them a line of 3,000 '>' or spaces is tried in ~n^2 ways.
_NESTED_FENCE_RE = re.compile(
    r"^(?P<prefix>[ \t>]*+(?:(?:[-*+]|\d{1,9}[.)])[ \t]++)?[ \t>]*+)(?P<marker>`{3,}|~{3,})")
_LIST_MARKER_RE = re.compile(r"[-*+]|\d{1,9}[.)]")


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


_LANGUAGE_RE = re.compile(r"[\w+-]*")


def fence_language(line: str) -> str | None:
    """The first word of a fence line's info string ("bash" of "```bash title"; "" when it
    has none), at any indent; None when the line is no fence line."""
    match = _OPEN_RE.fullmatch(line.strip())
    if match is None:
        return None
    info = match.group(2).strip()
    language = _LANGUAGE_RE.match(info)
    return language.group() if language else ""


def code_flags(lines: Iterable[str]) -> Iterator[tuple[str, bool]]:
    """Each line with whether it is fenced code."""
    tracker = FenceTracker()
    for line in lines:
        yield line, tracker.feed(line)


def prose_lines(lines: Iterable[str]) -> Iterator[str]:
    """The lines that are not fenced code."""
    return (line for line, code in code_flags(lines) if not code)


def may_hold_fence(text: str) -> bool:
    """False when no line of `text` can be a fence line (a fence is a run of 3+ backticks or
    tildes): then every line is prose, and no line needs to be fed to a tracker."""
    return "```" in text or "~~~" in text


def has_open_fence(text: str) -> bool:
    tracker = FenceTracker()
    for line in text.split("\n"):
        tracker.feed(line)
    return tracker.open


@dataclass(frozen=True)
class NestedFence:
    """A fenced code block inside a container block (a list item's, a quote's): lines
    (open_line, close_line) of the lines given are its content."""

    open_line: int
    close_line: int  # the closing line, or the number of lines when it is never closed
    reopen: str  # its opening line, list markers blanked, so a cut can reopen it in place
    close: str  # a closing line with the same indentation / quote markers


def nested_fences(lines: Sequence[str]) -> list[NestedFence]:
    """The fenced code blocks of a container block's lines (each with its line ending), found
    line by line behind any quote markers, list marker and indentation (markdown-it's tokens
    give only the outer block's lines). A fence left open runs to the end of the lines."""
    fences: list[NestedFence] = []
    opened: tuple[int, str, str, str] | None = None  # open line, marker, reopen, close
    for number, raw in enumerate(lines):
        match = _NESTED_FENCE_RE.match(raw)
        if match is None:
            continue
        marker, prefix = match["marker"], match["prefix"]
        if opened is None:
            if marker[0] == "`" and "`" in raw[match.end() :]:
                continue  # a backtick info string with a backtick is inline code, not a fence
            indent = _LIST_MARKER_RE.sub(lambda m: " " * len(m.group()), prefix)
            reopen = indent + raw[len(prefix) :].rstrip("\r\n") + "\n"
            opened = (number, marker, reopen, indent + marker + "\n")
        elif (marker[0] == opened[1][0] and len(marker) >= len(opened[1])
              and not raw[match.end() :].strip()):
            fences.append(NestedFence(opened[0], number, opened[2], opened[3]))
            opened = None
    if opened is not None:
        fences.append(NestedFence(opened[0], len(lines), opened[2], opened[3]))
    return fences


# Azure DevOps wiki's diagram block: "::: mermaid" (up to 3 spaces before it, a space or none after
# the colons) to a bare ":::". Only a diagram's: Docusaurus writes ":::note" admonitions the same
# way, and those hold prose.
_COLON_DIAGRAM_RE = re.compile(r" {0,3}:::[ \t]*+mermaid[ \t]*+")
_COLON_CLOSE_RE = re.compile(r" {0,3}:::[ \t]*+")


def colon_diagrams(lines: Sequence[str]) -> list[tuple[int, int]]:
    """The [start, end) line ranges of the diagram blocks written between colon fences: a
    diagram's source, no text to read (one never closed runs to the end)."""
    found: list[tuple[int, int]] = []
    start: int | None = None
    for number, line in enumerate(lines):
        if ":::" not in line:  # a literal gate: most lines hold no colon fence
            continue
        if start is None and _COLON_DIAGRAM_RE.fullmatch(line):
            start = number
        elif start is not None and _COLON_CLOSE_RE.fullmatch(line):
            found.append((start, number + 1))
            start = None
    if start is not None:
        found.append((start, len(lines)))
    return found
