"""The updates of a status page's incident (Atlassian Statuspage and the tools that copy it),
read as the parts of an incident (pure).

A status page tells an incident as dated updates, newest first, each led by its state in bold:
`**Identified** - The issue has been identified as ...` (the history page; its text copy drops
the bold: `Identified - ...` over a stamp `Mar 3, 14:20 UTC`) or `**Identified**` alone over its
paragraph (the incident page), then a stamp `Posted Mar 03, 2026 - 14:20 UTC`.
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
# The same states unadorned before a dash, as the history page's text copies them ("Resolved -
# This incident has been resolved." over its stamp "Mar 3, 14:05 UTC"): only the states a status
# page's incident moves through, so a note's "Update - ..." is no update.
_PLAIN_UPDATE_RE = re.compile(
    r"^\s*(?P<state>Investigating|Identified|Monitoring|Resolved|Postmortem)\s+[-–—]\s+(?P<text>\S.*)$")
# A history page's stamp alone on its line under an update ("Mar 3, 14:05 UTC").
_STAMP_LINE_RE = re.compile(r"^\s*[A-Z][a-z]{2,8}\.?\s+\d{1,2},\s+\d{1,2}:\d{2}(?:\s+[A-Z]{2,5})?\s*$")
# The stamp that closes each update ("Posted Mar 03, 2026 - 14:20 UTC", the incident page's
# "Posted 2 days ago. Mar 03, 2026 - 12:58 UTC"): when it was posted.
_POSTED_RE = re.compile(
    r"\bPosted\s+(?:(?:about\s+)?\d{1,3}\s+[a-z]{3,7}\s+ago\.?\s+)?[A-Z][a-z]{2,8}\.?\s+\d{1,2},\s+\d{4}\s+-\s+\d{1,2}:\d{2}(?:\s+[A-Z]{2,5})?\.?\s*$")
# The part of an incident each state's text tells.
_PART_OF_STATE = {"identified": "Cause", "monitoring": "Resolution"}
# How many updates make a page a status page's incident.
MIN_UPDATES = 2


def _update(line: str) -> re.Match[str] | None:
    """The state that opens an update's line, bold or before a dash, if any (a literal gate
    before each pattern)."""
    if "**" in line or "__" in line:
        return _UPDATE_RE.match(line)
    return _PLAIN_UPDATE_RE.match(line) if " - " in line or "–" in line or "—" in line else None


def update_states(structure: Structure) -> list[tuple[int, str]]:
    """(line, state) of each update the page opens with a state; an unadorned state only in a
    paragraph that carries its stamp (board minutes write "Resolved - that the budget ...")."""
    lines = structure.by_number
    found: list[tuple[int, str]] = []
    for start, end in structure.paragraphs:
        match = _update(lines.get(start, ""))
        if match and (match.re is _UPDATE_RE or any(
                _is_stamp(lines.get(n, "")) for n in range(start, end + 1))):
            found.append((start, match["state"].lower()))
    return found


def _is_stamp(line: str) -> bool:
    """Does the line hold an update's stamp (alone, or Posted at its end)?"""
    return ":" in line and ("Posted" in line and _POSTED_RE.search(line) is not None
                            or _STAMP_LINE_RE.match(line) is not None)


def first_posted(lines: list[tuple[int, str]], *, least: int = 1) -> tuple[int, str] | None:
    """(line, stamp) of the first update the page posted: updates run newest first, so the last
    Posted stamp in the page's order ("Posted Mar 03, 2026 - 12:58 UTC"); None when the page
    posts fewer than `least` stamps."""
    found = None
    count = 0
    for number, line in lines:
        stamp = _POSTED_RE.search(line) if "Posted" in line else None  # a literal gate first
        if stamp:
            found = (number, stamp.group(0))
            count += 1
    return found if count >= least else None


def is_update_chrome(line: str) -> bool:
    """Does the line open an update (its state, alone or before its text) or is it a stamp
    alone? Either is the page's progress report, not the story a summary is taken from."""
    return _update(line) is not None or (bool(line.strip()) and not _unstamped(line).strip())


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
    lines = structure.by_number
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
    """The line without the Posted stamp it ends with; nothing of a line that is a stamp alone."""
    if "Posted" in line:
        return _POSTED_RE.sub("", line)
    return "" if ":" in line and _STAMP_LINE_RE.match(line) else line


# The states a status page's incident ends in (its last word), and those that are no state of the
# incident (the write-up, an update without news).
_FINAL_STATES = ("resolved", "completed")
_NO_STATE = frozenset({"postmortem", "post-mortem", "update"})


def update_status(structure: Structure) -> tuple[int, str] | None:
    """(line, state) of a status page's incident as its updates leave it: the final state when an
    update reached it (`**Resolved** - ...`), else the newest update's (the first in the page's
    order); None on a page with fewer than MIN_UPDATES updates."""
    states = update_states(structure)
    if len(states) < MIN_UPDATES:
        return None
    lines = structure.by_number
    told = [(line, state) for line, state in states if state not in _NO_STATE]
    final = [(line, state) for line, state in told if state in _FINAL_STATES]
    if not (final or told):
        return None
    chosen = (final or told)[0]
    match = _update(lines.get(chosen[0], ""))
    return chosen[0], match["state"] if match is not None else chosen[1]
