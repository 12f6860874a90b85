"""An operations FAQ written as question and answer pairs, not headings ("**Q: The sync has
not run for an hour. Is that an incident?**" over "A: During term, yes: page the on-call."),
as on-call teams keep them in wikis and READMEs (pure).

Each pair is the question's text, its line, and the answer's lines up to the next question
or heading, the answer's "A:" removed; code is no line of an answer.
"""

from __future__ import annotations

import re

from tasks.extract.structure import Structure
from tasks.extract.text import plain_text

# "Q: ...", "**Q:** ...", "**Q. ...?**", "Question: ..." (bold or not) on a line of its own.
_QUESTION_RE = re.compile(
    r"^\s*(?:[-*+]\s+)?(?:\*\*|__)?Q(?:uestion)?\s*[:.](?:\*\*|__)?\s+(?P<text>\S.*?)\s*(?:\*\*|__)?\s*$")
_ANSWER_RE = re.compile(r"^\s*(?:[-*+]\s+)?(?:\*\*|__)?A(?:nswer)?\s*[:.](?:\*\*|__)?(?:\s+|$)")
MIN_QUESTIONS = 3

QuestionAnswer = tuple[str, int, list[tuple[int, str]]]


def question_lines(structure: Structure) -> list[tuple[int, str]]:
    """The lines that open a question of a Q/A pair (number, the question's plain text)."""
    visible = structure.visible
    found: list[tuple[int, str]] = []
    for index in sorted(structure.holding("Q:", "Q.", "Question:")):
        number, line = visible[index]
        match = _QUESTION_RE.match(line)
        if match is not None and number not in structure.heading_lines:
            found.append((number, plain_text(match["text"]).strip()))
    return found


def questions(structure: Structure) -> int:
    """How many Q/A questions the page asks."""
    return len(question_lines(structure))


def question_answers(structure: Structure) -> list[QuestionAnswer]:
    """Each question with its answer's lines ("A:" removed), when the page asks MIN_QUESTIONS
    or more; a heading or the next question ends an answer."""
    asked = question_lines(structure)
    if len(asked) < MIN_QUESTIONS:
        return []
    starts = dict(asked)
    pairs: list[QuestionAnswer] = []
    for number, line in structure.visible:
        if number in starts:
            pairs.append((starts[number], number, []))
        elif number in structure.heading_lines:
            if pairs and pairs[-1][2]:
                pairs.append(("", number, []))  # a heading closes the answer (a pair with no question)
        elif pairs and pairs[-1][0]:
            answer = pairs[-1][2]
            if not any(text.strip() for _, text in answer):
                line = _ANSWER_RE.sub("", line, count=1)
            answer.append((number, line))
    return [pair for pair in pairs if pair[0]]
