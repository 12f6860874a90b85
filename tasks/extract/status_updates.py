"""The updates of a status page's incident (Atlassian Statuspage and the tools that copy it),
read as the parts of an incident (pure).

A status page tells an incident as dated updates, newest first, each led by its state in bold:
`**Identified** - The issue has been identified as ...` (the history page) or `**Identified**`
alone over its paragraph (the incident page), then a stamp `Posted Mar 03, 2026 - 14:20 UTC`.
The states say what each update is: Identified names the cause found, Monitoring the fix put in
place; Investigating, Update and Resolved tell progress (Resolved is the page's status, read by
genre_meta), Postmortem the write-up that opens the page.
"""

from __future__ import annotations

import re

from tasks.extract.model import LineSpan
from tasks.extract.structure import Structure
from tasks.extract.text import joined_lines, plain_text, shorten

# An update's state in bold, alone on its line or before a dash and its text.
_UPDATE_RE = re.compile(
    r"^\s*(?:\*\*|__)(?P<state>Investigating|Identified|Monitoring|Update|Resolved|Postmortem|Post-mortem"
    r"|Scheduled|In progress|Verifying|Completed)(?:\*\*|__)\s*(?:$|[-–—]\s*(?P<text>\S.*)$)"
)
# The stamp that closes each update ("Posted Mar 03, 2026 - 14:20 UTC"): when it was posted.
_POSTED_RE = re.compile(
    r"\bPosted\s+[A-Z][a-z]{2,8}\.?\s+\d{1,2},\s+\d{4}\s+-\s+\d{1,2}:\d{2}(?:\s+[A-Z]{2,5})?\.?\s*$")
# The part of an incident each state's text tells.
_PART_OF_STATE = {"identified": "Cause", "monitoring": "Resolution"}
# How many updates make a page a status page's incident.
MIN_UPDATES = 2


def _update(line: str) -> re.Match[str] | None:
    """The bold state that opens an update's line, if any (a literal gate before the pattern)."""
    return _UPDATE_RE.match(line) if "**" in line or "__" in line else None


def update_states(structure: Structure) -> list[tuple[int, str]]:
    """(line, state) of each update the page opens with a bold state."""
    lines = dict(structure.visible)
    found: list[tuple[int, str]] = []
    for start, _ in structure.paragraphs:
        match = _update(lines.get(start, ""))
        if match:
            found.append((start, match["state"].lower()))
    return found


def is_bare_state(line: str) -> bool:
    """Is the line an update's state alone (`**Postmortem**`), the label of the paragraph below?"""
    match = _update(line)
    return match is not None and not match["text"]


def update_parts(structure: Structure) -> list[tuple[str, LineSpan]]:
    """(label, text and lines) of each update whose state tells a part of the incident (the
    Identified update's cause, the Monitoring update's fix), without its Posted stamp; none
    on a page with fewer than MIN_UPDATES updates."""
    states = update_states(structure)
    if len(states) < MIN_UPDATES:
        return []
    lines = dict(structure.visible)
    spans = dict(structure.paragraphs)
    starts = [start for start, _ in structure.paragraphs]
    found: list[tuple[str, LineSpan]] = []
    for start, state in states:
        label = _PART_OF_STATE.get(state)
        if label is None:
            continue
        match = _update(lines.get(start, ""))
        first, end = start, spans[start]
        if match is not None and not match["text"]:  # the state alone: its text is the next paragraph
            index = starts.index(start) + 1
            if index >= len(starts):
                continue
            first = starts[index]
            end = spans[first]
        own = [_unstamped(lines.get(n, "")) for n in range(first, end + 1)]
        if first == start and match is not None:
            own[0] = _unstamped(match["text"])
        text = plain_text(joined_lines(part.strip() for part in own if part.strip()))
        last = max((n for n in range(first, end + 1) if _unstamped(lines.get(n, "")).strip()),
                   default=first)
        if text:
            found.append((label, (shorten(text), first, last)))
    return found


def _unstamped(line: str) -> str:
    """The line without the Posted stamp it ends with."""
    return _POSTED_RE.sub("", line) if "Posted" in line else line
