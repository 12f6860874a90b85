"""The items nested under a decision log's entry (issue 23 item 3): a log kept as a list writes
each decision on one line and what goes with it as items below it ("- **2026-02-17 — decided:**
litho goes back to critical-ratio" over "  - Why: the scanners sat idle 11% of the time" and
"  - Preemption is limited to two per tool per shift"). Why it was decided is its rationale; an
item that states a rule is a constraint of its own. The other items (its ticket, who decided,
a link to the proposal) are left to the readers of names and links.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from tasks.extract.genre_text import list_items
from tasks.extract.genre_text import part_fact as _fact
from tasks.extract.model import ObservationFact
from tasks.extract.structure import Structure

_ITEM_RE = re.compile(r"^(?P<indent>[ \t]*)(?:[-*+]|\d{1,3}[.)])[ \t]+\S")
# An item's own label that says why ("Why: ...", "**Because:** ...", "Reason: ...").
_WHY_RE = re.compile(r"^(?:\*\*|__)?(?:why|because|reason|reasons|rationale)(?:\*\*|__)?\s*:(?:\*\*|__)?\s*",
                     re.I)
_MAX_DETAILS = 6
# A limit an entry sets ("Preemption is limited to two per tool per shift"), a rule of the log's
# own beside the rule words every genre reads.
_LIMITED_RE = re.compile(r"\b(?:is|are)\s+limited\s+to\b", re.I)


def entry_details(structure: Structure, entries: set[int], states_rule: Callable[[str], bool]
                  ) -> list[ObservationFact]:
    """The rationale and the rules among the items nested under each list item of `entries`
    (the lines of a log's decided entries), up to the next item at its level or a line that is
    not the list's."""
    facts: list[ObservationFact] = []
    visible = structure.visible
    index_of = {number: index for index, (number, _) in enumerate(visible)}
    for entry in sorted(entries):
        match = _ITEM_RE.match(structure.by_number.get(entry, ""))
        if match is None or entry not in index_of:
            continue
        indent = len(match["indent"].expandtabs(4))
        block: list[tuple[int, str]] = []
        for number, line in visible[index_of[entry] + 1:]:
            if number in structure.heading_lines:
                break
            item = _ITEM_RE.match(line)
            if item is not None and len(item["indent"].expandtabs(4)) <= indent:
                break
            if line.strip() and item is None and not line[:1].isspace():
                break  # a paragraph after the list
            block.append((number, line))
        for text, start, end in list_items(block, limit=_MAX_DETAILS):
            why = _WHY_RE.sub("", text)
            if why != text and len(why) >= 20:
                facts.append(_fact("Rationale", (why, start, end), "detail"))
            elif states_rule(text) or _LIMITED_RE.search(text):
                facts.append(_fact("Constraint", (text, start, end), "detail"))
    return facts
