"""The resolution an issue thread states in the comment that closes it (pure).

An issue copied out of a tracker as text (a Redmine issue's History of "#3 Updated by ..."
journal entries, a GitHub issue's "ana commented on 5 Feb 2025" comments, a Jira issue's "Ana
added a comment - ...", a Bugzilla bug's "Comment 4") states its outcome in a comment, not under a
heading: the entry that changes the issue's status to Closed or Resolved, or the comment that the
tracker's "closed this as completed" line follows. That comment's statements that no reader kept
are the issue's Resolution. A thread of one entry is no thread; the tracker's own lines (status
and field changes, comment headers) are never statements.
"""

from __future__ import annotations

import re

from tasks.extract.genre_text import clean_visible, part_fact
from tasks.extract.model import ObservationFact
from tasks.extract.part_statements import statements
from tasks.extract.structure import Structure

MAX_RESOLUTION = 4  # the closing comment's first statements: what was done
_ENTRY_RE = re.compile(
    r"^\s*(?:#\d{1,4}\s+updated\s+by\s+\S.{0,80}"  # Redmine's journal entry
    r"|(?:\*\*|__)?@?[\w.-]{1,40}(?:\*\*|__)?\s+commented\b.{0,60}"  # GitHub's comment
    r"|\S.{0,60}\s+added\s+a\s+comment\b.{0,60}"  # Jira's
    r"|comment\s+\d{1,4}\b.{0,80})$", re.I)  # Bugzilla's
_CLOSED_BY_CHANGE_RE = re.compile(
    r"\bstatus\s+changed\s+from\s+.{1,30}\s+to\s+(?:closed|resolved|done|fixed|completed)\b", re.I)
_CLOSED_LINE_RE = re.compile(r"^\s*(?:\*\*|__)?@?[\w.-]{1,40}(?:\*\*|__)?\s+closed\s+this\b", re.I)
# A tracker's record of a field it changed ("% Done changed from 0 to 100", "Assignee set to Tom").
_FIELD_CHANGE_RE = re.compile(r"^\s*\S.{0,40}\s+(?:changed\s+from|set\s+to|deleted)\b", re.I)


def thread_resolution(structure: Structure, facts: list[ObservationFact]) -> list[ObservationFact]:
    """The closing comment's statements that `facts` do not hold, as the issue's Resolution."""
    lines = clean_visible(structure)
    starts = [index for index, (_, line) in enumerate(lines)
              if ("omment" in line or "pdated by" in line) and _ENTRY_RE.match(line)]
    if len(starts) < 2:
        return []
    entries = [lines[start + 1:end] for start, end in zip(starts, [*starts[1:], len(lines)], strict=True)]
    closing = next((entry for entry in reversed(entries)
                    if any(_CLOSED_BY_CHANGE_RE.search(line) for _, line in entry)), None)
    if closing is None:  # the comment the tracker's "closed this" line follows
        closing = next((entry for entry in reversed(entries)
                        if any(_CLOSED_LINE_RE.match(line) for _, line in entry)), None)
    if closing is None:
        return []
    told = [(n, "" if _FIELD_CHANGE_RE.match(line) or _CLOSED_LINE_RE.match(line) else line)
            for n, line in closing]
    held = {n for fact in facts for n in range(fact.line_start, fact.line_end + 1)}
    spans = [span for span in statements(structure, told) if not held & set(range(span[1], span[2] + 1))]
    return [part_fact("Resolution", span, "detail") for span in spans[:MAX_RESOLUTION]]
