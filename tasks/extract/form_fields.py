"""A form response's answers as the document's own fields (pure).

Form tools (Microsoft Forms, Google Forms, Typeform, a ServiceNow record producer) export a
response as each question in bold, often numbered, over its answer ("**10. Current status of
the incident**", a blank, "Closed — monitoring in place"). A question that asks for the state of
what the form reports ("Current status", "Status of the incident") or for one of its dates
("When did the incident start?", "Date of the meeting") is a field named by what it asks: its
answer, a short line, is the field's value, read as a header field is (genre_meta).
"""

from __future__ import annotations

import re

from tasks.extract.date_fields import MAIN, OTHER, REVIEWED, UPDATED, date_role
from tasks.extract.genres import HeaderField
from tasks.extract.structure import Structure

# A question alone on its line, all in bold, perhaps numbered ("**2. When did the incident start?**").
# (a bold label that ends with its colon, "**Current status:**", is a paragraph's label, not a question)
_QUESTION_RE = re.compile(
    r"^\s*+(?:\*\*|__)(?:\d{1,2}[.)]\s*+)?(?P<question>[A-Za-z][^*_]{2,118}?)(?<!:)(?:\*\*|__)\s*$")
# The words of a question that only make it a question ("When did the incident start?").
_QUESTION_WORDS = frozenset({
    "when", "what", "which", "did", "does", "do", "was", "were", "is", "are", "the", "a", "an", "of", "it",
    "this", "that", "and", "or", "by", "whom", "for", "on", "in", "at", "to", "your", "its", "has", "have",
})
_STATE_WORDS = frozenset({"status", "state"})
# The field each date role stands for, as genre_meta reads its keys.
_DATE_KEYS = {MAIN: "date", UPDATED: "last updated", REVIEWED: "last reviewed", OTHER: "due date"}
_MAX_ANSWER = 80


def form_answers(structure: Structure) -> list[HeaderField]:
    """The fields a form response's questions give: `status` for a question about its state,
    a date's field for a question about when (the first question of each key only)."""
    lines = structure.visible
    found: dict[str, HeaderField] = {}
    for index, (_, line) in enumerate(lines):
        match = _QUESTION_RE.match(line) if line.lstrip()[:2] in ("**", "__") else None
        key = _question_key(match["question"]) if match else None
        if key is None or key in found:
            continue
        answer = _answer(lines, index + 1)
        if answer is not None:
            found[key] = HeaderField(key, answer[1], answer[0])
    return list(found.values())


def _question_key(question: str) -> str | None:
    """The field a question asks for: `status` for its state, a date's field for when."""
    words = [word for word in re.split(r"[^a-z]+", question.lower()) if word]
    if _STATE_WORDS & set(words):
        return "status" if len(words) <= 6 else None
    content = [word for word in words if word not in _QUESTION_WORDS]
    if "when" not in words and "date" not in content:
        return None
    role = date_role(" ".join(content)) if content else None
    return _DATE_KEYS.get(role) if role is not None else None


def _answer(lines: list[tuple[int, str]], start: int) -> tuple[int, str] | None:
    """The answer under a question: the next line with text, after at most one blank, when it is
    one short line alone (not another question, not a list, not the first line of a paragraph)."""
    for index in range(start, min(start + 2, len(lines))):
        number, line = lines[index]
        text = line.strip()
        if not text:
            continue
        following = lines[index + 1][1].strip() if index + 1 < len(lines) else ""
        if len(text) > _MAX_ANSWER or text[:1] in "*_#|-+>" or text.endswith(":") or following:
            return None
        return number, text
    return None
