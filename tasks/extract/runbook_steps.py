"""A runbook's steps when they are not under a Steps heading (pure): a checklist of check-box
items, and an operations FAQ whose questions ask how to do something.

Elsewhere a check-box list is a template's review list (boilerplate, tasks.extract.genre_text),
but in a runbook it is the procedure: `- [ ] **2. Check the cluster health.** If it is red, go to
step 6.` An FAQ kept by an operations team ("How do I add a broker?", "What do I do when the
consumer group is stuck?") answers each question in the paragraph under it.
"""

from __future__ import annotations

import re
from collections.abc import Set as AbstractSet

from tasks.extract.genre_text import CHECKBOX_ITEM_RE, list_items, section_paragraph
from tasks.extract.model import LineSpan
from tasks.extract.structure import Structure, section_key
from tasks.extract.text import plain_text, shorten

# A question asking how to do something: what an operator comes to the page for.
_HOW_QUESTION_RE = re.compile(
    r"^(?:how\s+(?:do|can|should)\s+(?:i|we|you)\b|how\s+to\b|what\s+(?:do|should)\s+(?:i|we|you)\s+do\b"
    r"|where\s+do\s+(?:i|we|you)\b|can\s+(?:i|we|you)\b)")
_MIN_CHECKLIST_ITEMS = 3
MIN_HOW_QUESTIONS = 2


def checklist_steps(structure: Structure, limit: int) -> list[LineSpan]:
    """The items of the page's check-box lists, their boxes removed, when the page holds at least
    three of them (one or two boxes are a sign-off, not a procedure), outside a section that
    names itself a sign-off ("Review sign-off": who ticks the page, not what to do)."""
    signed = {n for section in structure.sections[1:]
              if _SIGN_OFF_RE.search(section_key(structure.title(section)))
              for n, _ in structure.lines(section)}
    boxed = {n for n, line in structure.visible if n not in signed and CHECKBOX_ITEM_RE.match(line)}
    if len(boxed) < _MIN_CHECKLIST_ITEMS:
        return []
    return boxed_items(structure.visible, structure.heading_lines, limit, boxed)


def boxed_items(
    lines: list[tuple[int, str]],
    headings: AbstractSet[int],
    limit: int,
    boxed: AbstractSet[int] | None = None,
) -> list[LineSpan]:
    """The check-box items of `lines` (those of `boxed` when given), their boxes removed."""
    if boxed is None:
        boxed = {n for n, line in lines if CHECKBOX_ITEM_RE.match(line)}
    unboxed = [(n, CHECKBOX_ITEM_RE.sub(r"\1", line)) for n, line in lines if n not in headings]
    return [item for item in list_items(unboxed, limit=limit * 2) if item[1] in boxed][:limit]


_SIGN_OFF_RE = re.compile(r"\bsign[- ]?offs?\b|\bapprovals?\b|\b(?:reviewed|approved|signed)\s+by\b")


def how_questions(structure: Structure) -> int:
    """How many of the page's headings ask how to do something."""
    return sum(_HOW_QUESTION_RE.match(section_key(structure.title(section))) is not None
               for section in structure.sections[1:])


def faq_answers(structure: Structure, limit: int) -> list[LineSpan]:
    """Each how-to question of an FAQ page with the first paragraph that answers it
    ("How do I add a broker? Apply the Terraform module ..."), when the page asks two or more."""
    if how_questions(structure) < MIN_HOW_QUESTIONS:
        return []
    answers: list[LineSpan] = []
    for section in structure.sections[1:]:
        question = plain_text(structure.title(section)).strip()
        if _HOW_QUESTION_RE.match(section_key(question)) is None:
            continue
        found = section_paragraph(structure, section)
        if found is not None:
            answer, first, last = found
            answers.append((shorten(f"{question.rstrip('?')}? {answer}"), first, last))
        if len(answers) >= limit:
            break
    return answers
