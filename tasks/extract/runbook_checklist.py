"""A runbook told as one numbered list of steps under its title, with no part headings (an ops
checklist: "1. Confirm the lag on the consumer group", "2. Restart missing consumers", ...), read
step by step and sentence by sentence (pure).

Each step's first sentence is what to do (a mitigation when the page answers an alert, else the
procedure); a later sentence of the step is read by what it says, as a runbook template's parts
would hold it:

- what a reading means ("A non-zero value means compaction is blocking writes", "A site showing
  OFFLINE is a gateway problem, not a backlog", "If `consumers` is less than 6, go to step 2"):
  Diagnosis;
- whom to call or ask ("Escalate to the on-call lead if ...", "ask Customer Success to post on
  the status page"): Escalation;
- what the step should achieve ("It should drain within ten minutes"): Outcome.

Code, and what a step's command prints ("Expected output: ..."), are no sentences of it; the
rules a step states (never / must / only) are read by the runbook reader as constraints.
"""

from __future__ import annotations

import re

from tasks.extract.genre_prose import sentences
from tasks.extract.model import LineSpan
from tasks.extract.structure import Structure
from tasks.extract.text import shorten

_ORDERED_ITEM_RE = re.compile(r"^(?P<indent>\s{0,3})\d{1,2}[.)]\s+(?P<text>\S.*)$")
# What a command prints, shown under a step: the output, not a statement of the runbook.
_OUTPUT_RE = re.compile(r"^\s*(?:\*\*|__)?(?:expected\s+(?:output|result)|output|sample\s+output)\b", re.I)
_MEANS_RE = re.compile(
    r"\b(?:means|indicates|suggests|points\s+to)\b"
    r"|\bis\s+(?:an?|the)\s+(?:[\w-]+\s+){0,2}(?:problem|issue|fault|failure)\b"
    r"|\bgo\s+(?:to|on\s+to)\s+step\s+\d", re.I)
# (the name after the verb is a team or a person: capitalised, or a handle)
_ESCALATE_RE = re.compile(
    r"\b(?i:escalate)\b"
    r"|(?:^(?:(?i:if|when)\b[^,]{1,120},\s+)?|:\s+)(?:(?i:page)\s+\S|(?i:call|contact|notify)\s+(?:the\s+)?[A-Z@#])"
    r"|^(?:(?i:if|when)\b[^,]{1,120},\s+)?(?i:ask)\s+(?:the\s+)?[A-Z][\w&-]*"
    r"(?:\s+(?:[A-Z&][\w&-]*|of|on-call))*\s+to\b")
_OUTCOME_RE = re.compile(r"^(?:it|they|this|the\s+[\w-]+(?:\s+[\w-]+)?)\s+should\s+(?!not\b|only\b)\S", re.I)
MAX_STEPS = 12


def preamble_steps(structure: Structure) -> list[list[tuple[int, str]]]:
    """The numbered steps of a page with no section below its title: each step's own prose lines
    (its first line without the number), code and printed output left out. None when the page
    has sections below its title or fewer than two such steps."""
    if len(structure.sections) > 1 and any(s.level >= 2 for s in structure.sections[1:]):
        return []
    steps: list[list[tuple[int, str]]] = []
    for number, line in structure.visible:
        if number in structure.code or number in structure.heading_lines:
            continue  # a fence, its code, a heading: no step's prose
        match = _ORDERED_ITEM_RE.match(line)
        if match is not None:
            steps.append([(number, match["text"])])
        elif steps and line[:1] in (" ", "\t") and line.strip():
            if not _OUTPUT_RE.match(line) or not line.rstrip().endswith(":"):  # "Expected output:" over code
                steps[-1].append((number, line.strip()))
        elif steps and line.strip() and line[:1] not in (" ", "\t"):
            break  # the list has ended: what follows is no step's
    return steps[:MAX_STEPS] if len(steps) >= 2 else []


def step_parts(step: list[tuple[int, str]], first_label: str) -> list[tuple[str, LineSpan]]:
    """The parts a step states: its first sentence as `first_label`, each later sentence that
    tells a diagnosis, an escalation or an outcome as that part (a sentence that escalates is
    Escalation even when it opens the step)."""
    found: list[tuple[str, LineSpan]] = []
    for index, (text, first, last) in enumerate(sentences(step)):
        if _OUTPUT_RE.match(text):
            continue
        label = part_of(text)
        if label is None and index == 0:
            label = first_label
        if label is not None:
            found.append((label, (shorten(text), first, last)))
    return found


def part_of(sentence: str) -> str | None:
    """The part a step's sentence tells by its words, None for any other sentence."""
    if _ESCALATE_RE.search(sentence):
        return "Escalation"
    if _MEANS_RE.search(sentence):
        return "Diagnosis"
    if _OUTCOME_RE.match(sentence):
        return "Outcome"
    return None
