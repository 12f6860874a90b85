"""Headings of plain-text papers, read as fields over their text (pure).

Committee papers, decision notices, change requests and briefing notes are often written as plain
text, not markdown: a section's heading is a line of its own, numbered in sentence case ("1.
Purpose", "3. Reasons for the decision") or not numbered and set directly over its text
("Reason for change" then the paragraph, "Backout plan" then the fallback, "Options" then the
list). Such a line is a heading when it is short, says no sentence (no closing punctuation, no
verb-led clause) and, when not numbered, names a part a reader knows (FIELD_PARTS), so that a
one-line paragraph ("Best wishes,", "Ruth") is never read as one.
"""

from __future__ import annotations

import re
from collections.abc import Callable

# "1. Purpose", "4 Options considered", "7. Call-in": a number, then words in sentence case
# with no closing punctuation (a numbered list's step is a sentence: "1. Switch the gate ...").
_NUMBERED_RE = re.compile(
    r"^\s*\d{1,2}\.?[ \t]+(?P<words>[A-Z][\w'’&/()-]*(?:[ \t]+[\w'’&/()-]+){0,7})[ \t]*$")
# "Reason for change", "Backout plan", "Risks and mitigations": a capital, then at most four
# more words, none capitalised but a proper name's, no closing punctuation.
_UNNUMBERED_RE = re.compile(r"^(?P<words>[A-Z][a-z'’-]+(?:[ \t]+(?:[a-z&'’/-]+|[A-Z][a-z]+)){0,4})[ \t]*$")
_ITEM_RE = re.compile(r"^\s*(?:[-*+•]|\d{1,3}[.)])\s+\S")
_MIN_TEXT_WORDS = 4  # the text under a heading is a statement, not another short line


def plain_heading(line: str, following: str, names_part: Callable[[str], object]) -> str | None:
    """The words of the plain-text heading `line` is, over the line `following` it ("" when a
    blank line follows), or None. A numbered heading stands alone between blank lines; an
    unnumbered heading must name a part (`names_part`) and stand over a statement or a list
    item, or alone between blank lines."""
    numbered = _NUMBERED_RE.match(line)
    if numbered is not None:  # alone between blank lines (a loose list's items are sentences)
        return None if following.strip() else numbered["words"]
    plain = _UNNUMBERED_RE.match(line)
    if plain is None or not names_part(plain["words"]):
        return None
    below = following.strip()
    if below and not (_ITEM_RE.match(below) or len(below.split()) >= _MIN_TEXT_WORDS):
        return None
    return plain["words"]


def over_list(following: str) -> bool:
    """Is `following` a list item (a lead-in set directly over its list: "What changes for you:")?"""
    return _ITEM_RE.match(following) is not None
