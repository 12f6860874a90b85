"""Mentions of registered names in prose, found once every name registered in the same run is
known (so the result does not depend on how sources are batched)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

from tasks.extract.text import STOPWORDS

_WORD_RE = re.compile(r"\w+")


def word_tokens(text: str) -> list[str]:
    """The word tokens a name or a text is matched by (lower-cased `\\w+` runs, in order): the one
    definition MentionMatcher and the index of sources' words (tasks/distill/mention_words.py) share."""
    return _WORD_RE.findall(text.lower())


class MentionMatcher:
    """Registered names (and aliases) matched on word boundaries, case-insensitively.

    Names are split into word tokens; a text matches when the same token sequence occurs.
    Lookup is a dict probe per token position and name length: no regex over all names.
    """

    def __init__(self, names: Mapping[str, str], *, max_words: int = 12) -> None:
        # names: surface form -> canonical name
        self._by_tokens: dict[tuple[str, ...], str] = {}
        for surface, canonical in sorted(names.items()):
            tokens = tuple(word_tokens(surface))
            if not tokens or len(tokens) > max_words:
                continue
            if len(tokens) == 1 and (
                len(tokens[0]) < 3 or tokens[0] in STOPWORDS or tokens[0].isdigit()
            ):
                continue
            self._by_tokens.setdefault(tokens, canonical)
        # First word -> lengths of the names starting with it, longest first: most words start
        # no name, so most positions cost one set probe and no tuple.
        by_first: dict[str, set[int]] = {}
        for tokens in self._by_tokens:
            by_first.setdefault(tokens[0], set()).add(len(tokens))
        self._sizes_by_first = {word: sorted(sizes, reverse=True) for word, sizes in by_first.items()}

    def __bool__(self) -> bool:
        return bool(self._by_tokens)

    def find(self, text: str) -> list[str]:
        """Canonical names mentioned in `text`, longest match first at each position."""
        tokens = word_tokens(text)
        sizes_by_first, by_tokens, count = self._sizes_by_first, self._by_tokens, len(tokens)
        found: list[str] = []
        free = 0  # positions before this are inside a match already found
        for position in [i for i, token in enumerate(tokens) if token in sizes_by_first]:
            if position < free:
                continue
            for size in sizes_by_first[tokens[position]]:
                if position + size <= count:
                    canonical = by_tokens.get(tuple(tokens[position : position + size]))
                    if canonical is not None:
                        found.append(canonical)
                        free = position + size
                        break
        return found


def find_mentions(prose: Iterable[tuple[int, str]], matcher: MentionMatcher) -> dict[str, int]:
    """Canonical name -> first line it is mentioned on."""
    return {name: lines[0] for name, lines in mention_lines(prose, matcher).items()}


def mention_lines(prose: Iterable[tuple[int, str]], matcher: MentionMatcher) -> dict[str, list[int]]:
    """Canonical name -> the distinct lines it is mentioned on, in order."""
    lines: dict[str, list[int]] = {}
    if not matcher:
        return lines
    for number, text in prose:
        for canonical in matcher.find(text):
            seen = lines.setdefault(canonical, [])
            if not seen or seen[-1] != number:
                seen.append(number)
    return lines
