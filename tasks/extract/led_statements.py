"""Statements led by a label that names their part, on lines no other reader kept (pure).

House styles state a conclusion on one line after a short label of what it is, in the middle of
a plain paragraph or a record's block of fields, not under a heading: a change board's "CAB
decision: Approved with conditions. Roll out to Kendal first ...", an options table's cell
"Rejected for now: migration would stop digitisation", a paper's "Decision of the
Committee (12 March 2025): Option B approved.", a briefing note's "BLUF: ..." and "Ask: ...",
an e-mail's "Why: ...", an issue comment's "Fix: ..." or "Agreed in the team meeting today:
...". The label is read as a field's words (field_statements.field_part); the whole value (its
line and the lines that go on with it, its label too) is kept under that part, so that a verdict and its terms
("Deferred. The agreement is not yet signed") stay one observation. A label of the document's
metadata ("Status:", "Requested by:"), an entry's key ("Rule 4:"), a label that names no part or
only a story or a design ("Description:", "What happened:"), a decision that only points to a
recording, a short value, a list item (the list readers read its label, with their caps) and a
statement whose words another reader kept are left alone.
"""

from __future__ import annotations

import re

from tasks.extract.field_statements import _META_FIELD_RE, field_part
from tasks.extract.genre_conclusions import _NOT_DECISION_RE
from tasks.extract.genre_text import clean_visible, part_fact
from tasks.extract.model import LineSpan, ObservationFact
from tasks.extract.statement_text import is_statement
from tasks.extract.structure import Structure, section_key
from tasks.extract.text import plain_text
from tasks.markdown.tables import table_cells

MAX_LED = 20  # a document's led statements kept, in document order
_MAX_LABEL_WORDS = 5
_MAX_DECIDING_LABEL_WORDS = 8  # "Agreed in the digital team meeting today: ..."
_MAX_VALUE_LINES = 6
_HELD_CHARS = 60  # the opening of a value that another reader's observation holds when it kept it
# "Label: value", "Label (12 March 2025): value"; not a URL's "https:".
_LED_RE = re.compile(
    r"^\s*(?P<label>[A-Za-z][\w /'’&-]{0,60}?)(?:\s*\([^()]{1,40}\))?:[ \t]+(?P<value>\S.*)$")
_DECIDING_RE = re.compile(r"^(?:agreed|decided|decision|resolved)\b")
# The parts a label names that are kept although they say no kind of conclusion: the summary a
# briefing note puts first; not a description, a background or a story.
_SUMMARY_LABEL_RE = re.compile(r"^(?:summary|bluf|bottom\s+line(?:\s+up\s+front)?|tl;?dr|in\s+short)$")
_OPEN_PARTS = frozenset({"Summary", "Design", "Outcome"})
# The phrases that lead the statements of an experiment's test card and learning card (the
# Strategyzer cards teams copy: "We believe that ...", "We observed ...", "From that we learned
# ...", "Therefore, we will ..."), each with the part it states; the learning card's "We believed
# that" repeats the hypothesis and is not kept again.
_CARD_PHRASE_RE = re.compile(
    r"^(?:(?P<Goal>we\s+believe\s+that\s)|(?P<Outcome>we\s+observed\s)"
    r"|(?P<Lesson>from\s+th(?:at|is)\s+we\s+learn(?:ed|t)\s)|(?P<Decision>therefore,?\s+we\s+will\s))", re.I)
_CARD_OPENERS = frozenset("WwFfTt")
_ITEM_MARK_RE = re.compile(r"^[-*+]\s+")
# an indented code block's lines and a quote's (fenced code is not among the visible lines)
_CODE_OPENERS = ("    ", "\t", ">")


def led_statements(structure: Structure, facts: list[ObservationFact]) -> list[ObservationFact]:
    """The led statements of the document's lines that `facts` do not hold, each labelled by
    the part its label names."""
    lines = [(n, line) for n, line in clean_visible(structure) if n not in structure.heading_lines]
    found: list[tuple[str, LineSpan]] = []
    index = 0
    while index < len(lines):
        number, line = lines[index]
        index += 1
        opener = line[:1]
        if opener in _CARD_OPENERS and (card := _CARD_PHRASE_RE.match(line)) is not None:
            found.append((str(card.lastgroup), (plain_text(line.strip()), number, number)))
            continue
        if ":" not in line:  # (a literal gate: a label ends with a colon)
            continue
        if line.lstrip().startswith("|"):  # a table's cells, each led by its own label
            found += [(part, (plain_text(cell), number, number)) for cell in table_cells(line)
                      if (part := _led_part(cell)) is not None]
            continue
        if line.startswith(_CODE_OPENERS) or _ITEM_MARK_RE.match(line.lstrip()):
            continue  # (a list item's own label is read by the list readers, with their caps)
        part = _led_part(line)
        if part is None or part == "Decision" and _points_elsewhere(line):
            continue
        # its label kept, as the field readers keep a lead-in ("Lesson: Lesson: ..."): a reader may quote it
        value = [line.strip()]
        last = number
        while index < len(lines) and len(value) < _MAX_VALUE_LINES:
            later, text = lines[index]
            if not text.strip() or later != last + 1 or _LED_RE.match(text) \
                    or text.lstrip()[:1] in "-*+|":
                break
            value.append(text.strip())
            last = later
            index += 1
        found.append((part, (plain_text(" ".join(value)), number, last)))
    return [part_fact(part, span, "detail") for part, span in found
            if is_statement(span[0]) and not _held(span, facts)][:MAX_LED]


def _led_part(text: str) -> str | None:
    """The part the label that leads `text` names ("CAB decision: ..." -> "Decision"), or None."""
    led = _LED_RE.match(text)
    if led is None:
        return None
    label = section_key(led["label"])
    if any(c.isdigit() for c in label):
        return None  # an entry's key ("Rule 4:", "D-12:"), not a part's name
    if len(label.split()) > (_MAX_DECIDING_LABEL_WORDS if _DECIDING_RE.match(label) else _MAX_LABEL_WORDS):
        return None
    part = field_part(label)
    if part is None or _META_FIELD_RE.search(label) or part in _OPEN_PARTS and not (
            part == "Summary" and _SUMMARY_LABEL_RE.match(label)):
        return None
    return part


def _points_elsewhere(line: str) -> bool:
    """Does a decision's label only point to the meeting's recording or notes ("Decision:
    Recording available here: https://...")?"""
    led = _LED_RE.match(line)
    return led is not None and _NOT_DECISION_RE.match(f"Decision: {led['value']}") is not None


def _held(span: LineSpan, facts: list[ObservationFact]) -> bool:
    """Does an observation of the span's lines hold its words (its opening, the label left out)?"""
    text, first, last = span
    opening = text.split(": ", 1)[-1][:_HELD_CHARS]
    return any(fact.line_start <= last and first <= fact.line_end and opening in fact.text for fact in facts)
