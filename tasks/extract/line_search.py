"""Which of a document's lines hold a literal piece of text, found by one scan of the whole text
per piece (pure).

A reader that searches every line with a pattern pays the pattern's scan of every character (a
pattern that opens with a word or a class moves at about one character per step) and a call per
line; most lines never hold the literal every match of the pattern contains (a word, a dash). One
`str.find` over the lines joined, per literal, skips to the lines that do, and the reader runs its
pattern on those lines only: the same matches, a fraction of the scan."""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Sequence
from itertools import accumulate


class LineText:
    """Lines joined once, with where each starts, to find the lines that hold a literal."""

    def __init__(self, lines: Sequence[str]) -> None:
        self.text = "\n".join(lines)
        self._starts = list(accumulate((len(line) + 1 for line in lines), initial=0))

    def holding(self, *needles: str) -> set[int]:
        """The indexes of the lines that hold any of `needles` (literal text, case as written,
        none of them holding a line break)."""
        found: set[int] = set()
        text, starts = self.text, self._starts
        for needle in needles:
            at = text.find(needle)
            while at >= 0:
                index = bisect_right(starts, at) - 1
                found.add(index)
                at = text.find(needle, starts[index + 1])  # the next line: one hit a line is enough
        return found


class WordGate:
    """A case-blind pattern searched only in texts that hold one of `words` (lower case), a
    piece of text every match of the pattern holds: most sentences hold none, and a few
    `in` tests cost less than the pattern's try at every character. Only ASCII texts are
    gated: outside ASCII a case-blind pattern also matches letters that `str.lower` leaves
    apart ("ſ" for "s", "K" for "k"), so those texts go to the pattern."""

    __slots__ = ("pattern", "words")

    def __init__(self, pattern: re.Pattern[str], words: Sequence[str]) -> None:
        self.pattern = pattern
        self.words = tuple(words)

    def search(self, text: str, lower: str | None = None) -> re.Match[str] | None:
        """`pattern.search(text)`; `lower` is `text.lower()` when the caller has it."""
        if text.isascii():
            lower = text.lower() if lower is None else lower
            if not any(word in lower for word in self.words):
                return None
        return self.pattern.search(text)
