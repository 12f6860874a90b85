"""A task list's open items that name who does them or by when, as action items (pure).

Teams track follow-ups as Markdown task lists wherever the page has room for them: a ticket's
"Tasks", a decision's "Follow-up", a stand-up's bold "**Actions**" line, a card's checklist
(`- [ ] Alert if the rebuild has not swapped by 06:00 UTC — Kwame`, `- [ ] Rhys: rerun the
clash report - today`). An open item that names its owner or a day it is due is work someone
agreed to do: an action item, whatever the heading above it (a detail: its lines are no key
lines for subjects, as a statement reader's are not). A check box without either is a
template's review list ("- [ ] e2e tests for all Beta API operations"), and a ticked one is
done: neither is kept here. An item a reader kept already (an action section's) is not kept again.
"""

from __future__ import annotations

import re

from tasks.extract.genre_conclusions import owned_item
from tasks.extract.genre_text import part_fact
from tasks.extract.model import ObservationFact
from tasks.extract.statement_text import is_statement
from tasks.extract.structure import Structure
from tasks.extract.text import plain_text, shorten

MAX_TASKS = 20
# An open task: `- [ ] text` (the box empty).
_OPEN_TASK_RE = re.compile(r"^\s*[-*+]\s+\[ \]\s+(?P<text>\S.*)$")
# A day the task is due, written after it or inside it ("- today", "by 30 Nov", "due 2026-03-01",
# "by Friday", "before 1 May", "(due: end of sprint)").
_WEEKDAY = r"(?:mon|tues|wednes|thurs|fri|satur|sun)day"
_MONTH = (r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?"
          r"|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\b\.?")
_DAY = (rf"(?:\d{{4}}-\d{{2}}-\d{{2}}|\d{{1,2}}(?:st|nd|rd|th)?\s+{_MONTH}|{_MONTH}\s+\d{{1,2}}\b"
        r"|\d{1,2}/\d{1,2}"
        rf"|{_WEEKDAY}|today|tomorrow|tonight|eod|eow|next\s+(?:week|sprint|release)"
        r"|end\s+of\s+(?:the\s+)?(?:day|week|month|sprint|quarter)|q[1-4](?:\s+\d{4})?)")
_DUE_RE = re.compile(rf"\b(?:by|due(?:\s+by|\s+on)?:?|before)\s+{_DAY}|\s[-–—]\s+{_DAY}\s*\)?\s*$",
                     re.I)


def task_items(structure: Structure, facts: list[ObservationFact]) -> list[ObservationFact]:
    """Each open task item of the page that names an owner or a due day and that no fact's lines
    hold, as "Action item: text (owner: X)"."""
    held = {n for fact in facts for n in range(fact.line_start, fact.line_end + 1)}
    found: list[ObservationFact] = []
    for number, line in structure.visible:
        match = _OPEN_TASK_RE.match(line)
        if match is None or number in held:
            continue
        text = plain_text(match["text"]).strip()
        owned = owned_item(text)
        if owned is None and not _DUE_RE.search(text) or not is_statement(text):
            continue
        found.append(part_fact("Action item", (shorten(owned or text), number, number), "detail"))
        if len(found) == MAX_TASKS:
            break
    return found
