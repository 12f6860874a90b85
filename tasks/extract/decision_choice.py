"""The paragraph of a decision section that states the choice (pure).

A Decision section may open with how the team searched ("We explored a number of existing
solutions ...") and state the choice a paragraph later ("Eventually we decided to introduce
[X][x]:"). The decision is the paragraph that states it: "we decided", "we chose", "we recommend",
"X was chosen", ... Only a first paragraph that tells the search (and states no choice) is
passed over: otherwise, and when no later paragraph states a choice, it stays the decision.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from tasks.extract.model import MAX_DECISION_CHARS, LineSpan
from tasks.extract.paragraphs import first_paragraph
from tasks.extract.text import plain_text, shorten

# How a section opens when it tells the search before the choice.
PREAMBLE_RE = re.compile(
    r"\bwe\s+(?:have\s+)?(?:explored|discussed|considered|looked\s+at|investigated|evaluated"
    r"|researched|compared|reviewed|weighed)\b"
    r"|\bthere\s+(?:are|were)\s+(?:\w+\s+)?(?:options|alternatives|approaches|ways)\b"
    r"|\b(?:two|three|four|five|several|multiple|a\s+number\s+of)\s+(?:options|alternatives|approaches)\b",
    re.I,
)
CHOICE_RE = re.compile(
    r"\bwe(?:'ve|\s+have)?\s+(?:(?:now|finally|eventually|therefore|thus|then)\s+)?"
    r"(?:decided(?!\s+against)|chose|chosen|selected|opted(?!\s+out)|recommend|settled\s+on|picked"
    r"|agreed\s+to)\b"
    r"|\b(?:was|has\s+been|have\s+been|were)\s+(?:chosen|selected)\b"
    r"|\b(?:decision|choice)\s+(?:is|was)\s+to\b|\bchosen\s+option\b",
    re.I,
)
_MAX_PARAGRAPHS = 8


def choice_paragraph(
    lines: list[tuple[int, str]], code: Mapping[int, str], first: LineSpan
) -> LineSpan | None:
    """The first paragraph after `first` that states the choice, when `first` tells the
    search ("We explored ...", "There are four options") and states no choice itself."""
    if CHOICE_RE.search(first[0]) or not PREAMBLE_RE.search(first[0]):
        return None
    after = first[2]
    for _ in range(_MAX_PARAGRAPHS):
        rest = [(number, line) for number, line in lines if number > after]
        found = first_paragraph(rest, code, limit=MAX_DECISION_CHARS) if rest else None
        if found is None:
            return None
        if CHOICE_RE.search(found[0]):
            return found
        after = found[2]
    return None


# A line of its own that says the decision follows ("Decision, 2 Feb 2026, after the guest
# platform call:", "**Final decision:**", "Outcome of the review:"): a thread's or a page's
# decision told in the paragraph below it. (The qualifier is bounded and holds no colon.)
_LEAD_IN_RE = re.compile(
    r"^(?:\*\*|__)?(?:(?:the|our|final)\s+)?(?:decision|decided|outcome|resolution)\b[^:*_\n]{0,80}"
    r"(?::(?:\*\*|__)?|(?:\*\*|__):)$", re.I)


def lead_in_decisions(paragraphs: list[tuple[int, int]], lines: Mapping[int, str],
                      headings: set[int]) -> list[LineSpan]:
    """The paragraph after each one-line paragraph that says a decision follows, its lines
    joined (a list after the lead-in is left to the readers of labelled lists)."""
    found: list[LineSpan] = []
    for (start, end), (after, last) in zip(paragraphs, paragraphs[1:], strict=False):
        line = lines.get(start, "").strip()
        if start != end or start in headings or after in headings or not line.endswith((":", "**", "__")):
            continue
        following = [lines.get(n, "").strip() for n in range(after, last + 1)]
        if not _LEAD_IN_RE.match(line) or not following or _ITEM_RE.match(following[0]):
            continue
        text = " ".join(part for part in following if part)
        if len(text) >= 20:
            found.append((shorten(plain_text(text)), after, last))
    return found


_ITEM_RE = re.compile(r"^(?:[-*+]|\d{1,3}[.)])\s")
