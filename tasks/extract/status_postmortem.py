"""The write-up a status page posts as its incident's Postmortem update, and the containment its
Identified update tells (Atlassian Statuspage, tasks/extract/status_updates.py), read sentence by
sentence (pure).

The Postmortem update opens with its summary (the page's Summary); the paragraphs after it tell,
in the words a public post uses, what caused it ("The delay started when our historian paused
writes ...", with the sentences that go on to explain it), what was done ("We have moved the
compaction window to 01:00 UTC") and what will be ("... and we are moving the historian to a
different storage engine"). The Identified update names the cause and, often, what was done at
once to stop the harm ("We have stopped the maintenance task"): the mitigation.
"""

from __future__ import annotations

import re
from itertools import takewhile

from tasks.extract.genre_prose import sentences
from tasks.extract.model import LineSpan
from tasks.extract.status_updates import MIN_UPDATES, is_update_chrome, update_states
from tasks.extract.structure import Structure
from tasks.extract.text import plain_text, shorten

# A sentence that tells when or why it began ("The delay started when ...", "The outage began
# after ...", "This was caused by ...").
_CAUSE_RE = re.compile(
    r"\b(?:started|began|happened|occurred|was\s+triggered)\s+(?:when|after|because)\b"
    r"|\b(?:because|caused\s+by|due\s+to|as\s+a\s+result\s+of)\b", re.I)
# What the writers have done ("We have moved ...", "We've added ..."), and what they will do.
_DONE_RE = re.compile(r"^(?:we\s+have|we've)\s+(?:now\s+|also\s+|since\s+)?[a-z]+(?:ed|t|n|un)\b", re.I)
_WILL_RE = re.compile(
    r"(?:^|,\s+(?:and\s+)?)(?P<clause>we(?:\s+are|'re|\s+will|'ll)\s+(?:now\s+)?[a-z]+\S*\s.+)$", re.I)
# What stops the harm at once, as an Identified update tells it ("We have stopped the task and
# paused non-urgent queries").
_CONTAINED_RE = re.compile(
    r"^(?:we\s+have|we've|we)\s+(?:now\s+|also\s+)?(?:stopped|paused|disabled|halted|suspended|throttled"
    r"|rolled\s+back|reverted|failed\s+over|scaled\s+down|switched\s+off|turned\s+off)\b", re.I)
_CAUSE_FOLLOWING = 2


def postmortem_parts(structure: Structure) -> list[tuple[str, LineSpan]]:
    """(part, sentence and lines) of what the Postmortem update tells after its summary: a
    Cause with the sentences that go on to explain it, a Resolution for what was done, an
    Action item for what will be."""
    found: list[tuple[str, LineSpan]] = []
    for paragraph in _postmortem_paragraphs(structure)[1:]:
        told = [(plain_text(text), first, last) for text, first, last in sentences(paragraph)]
        index = 0
        while index < len(told):
            text, first, last = told[index]
            if _CAUSE_RE.search(text):
                after = told[index + 1:index + 1 + _CAUSE_FOLLOWING]  # up to what was done
                following = list(takewhile(lambda t: not _DONE_RE.match(t[0]), after))
                said = " ".join([text, *(t[0] for t in following)])
                found.append(("Cause", (shorten(said), first, following[-1][2] if following else last)))
                index += 1 + len(following)
                continue
            if _DONE_RE.match(text):
                found.append(("Resolution", (shorten(text), first, last)))
            if (will := _WILL_RE.search(text)) is not None:
                found.append(("Action item", (shorten(will["clause"]), first, last)))
            index += 1
    return found


def identified_containment(structure: Structure) -> list[LineSpan]:
    """The sentences of the Identified update that tell what was done at once to stop the harm."""
    found: list[LineSpan] = []
    for start, state in _states(structure):
        if state != "identified":
            continue
        end = dict(structure.paragraphs).get(start, start)
        parts = [(n, _without_state(structure.by_number.get(n, ""))) for n in range(start, end + 1)]
        found += [(shorten(plain_text(text)), first, last) for text, first, last in sentences(parts)
                  if _CONTAINED_RE.match(plain_text(text))]
    return found


def _states(structure: Structure) -> list[tuple[int, str]]:
    states = update_states(structure)
    return states if len(states) >= MIN_UPDATES else []


_STATE_LEAD_RE = re.compile(r"^\s*(?:\*\*|__)?[A-Z][a-z-]+(?:\*\*|__)?\s*[-–—]\s*")


def _without_state(line: str) -> str:
    return _STATE_LEAD_RE.sub("", line, count=1) if is_update_chrome(line) else line


def _postmortem_paragraphs(structure: Structure) -> list[list[tuple[int, str]]]:
    """The paragraphs of the Postmortem update, each as its lines, up to the stamp or the next
    update; none on a page that is no status page's incident."""
    starts = [start for start, state in _states(structure) if state in {"postmortem", "post-mortem"}]
    if not starts:
        return []
    found: list[list[tuple[int, str]]] = []
    for first, last in structure.paragraphs:
        if first <= starts[0]:
            continue
        lines = [(n, structure.by_number.get(n, "")) for n in range(first, last + 1)]
        if any(is_update_chrome(line) or "Posted" in line for _, line in lines):
            break
        found.append(lines)
    return found
