"""Every statement of a decision record's parts that no reader kept, each with its own lines (pure).

A record's readers keep its decision's choice sentences, its consequences' items, its options and
the reasons a cue marks. A record goes on stating in sentences its readers do not read: how the
chosen design will run ("Apache Airflow starts the batch at 01:00 UTC" under "How we will do
it"), a rule that follows ("The batch must never recode a case"), a risk accepted. Each such
statement (a paragraph's sentence or a list item, with its own lines) becomes an observation of
its own, labelled by what its words say (Rejected, Risk, Rationale, Action item, Constraint, as a
meeting's topic is: part_statements) and else by its section's part:

- a Decision section's (or one the record's template words as its decision: "Decision outcome",
  "Our decision", "How we will do it"): Decision;
- any other section (a Context, a Consequences section whose items its reader keeps, a writer's
  own heading): only what its words tell (the problem a context states is no conclusion).

A subsection goes on with its parent's part. The record's metadata, links and the title are not
read; a statement must be one (part_statements.statements: a full sentence or item of at least
four words, no lead-in, no question, no template marks or placeholders).
"""

from __future__ import annotations

import re

from tasks.extract.decision_parts import PLACEHOLDER_RE
from tasks.extract.genre_text import part_fact
from tasks.extract.model import LineSpan, ObservationFact
from tasks.extract.part_statements import MAX_STATEMENTS, statements, topic_label, unkept
from tasks.extract.structure import Structure, section_key

_MAX_READ = 8 * MAX_STATEMENTS  # the statements read (a record states far fewer)
# A record's section by the part its heading names (its key's first words).
_PARTS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("Decision", re.compile(r"^(?:decisions?|decision outcome|outcome|our decision|the decision|resolution"
                            r"|chosen option|what we decided|we decided|how we will do it"
                            r"|implementation)\b")),
)
# Sections that hold no statement of the record's: its metadata, where to read more, and its
# options (an option's pros and cons are the option's, read by the option readers: decision_parts).
_NOT_READ_RE = re.compile(r"^(?:status|date|deciders|decision makers|authors?|owners?|metadata|links"
                          r"|(?:considered\s+)?(?:options|alternatives)(?:\s+considered)?|pros and cons"
                          r"|references|related|see also|more information|further reading|notes?|history"
                          r"|change ?log|revision history|table of contents|contents)\b")


def record_statements(structure: Structure, facts: list[ObservationFact]) -> list[ObservationFact]:
    """The statements of the record's sections that `facts` do not hold, labelled by their words,
    else by their section's part (none: not kept)."""
    read: list[tuple[LineSpan, str]] = []  # each statement with its section's part ("" for none)
    open_parts: list[tuple[int, str | None]] = []  # the open sections' levels and parts
    for index, section in enumerate(structure.sections):
        while open_parts and open_parts[-1][0] >= section.level:
            open_parts.pop()
        if index <= 1 and section.level <= 1:
            continue  # the preamble and the title: the record's name and its header fields
        key = section_key(structure.title(section))
        if _NOT_READ_RE.match(key):
            open_parts.append((section.level, "-"))
            continue
        part = next((label for label, heading in _PARTS if heading.match(key)), None)
        if part is None and open_parts:
            part = open_parts[-1][1]
        open_parts.append((section.level, part))
        if part != "-":
            read += [(span, part or "") for span in statements(structure, structure.lines(section))]
            if len(read) >= _MAX_READ:
                break  # a record this long is a log of records: their readers read each
    parts = dict(read)
    found: list[ObservationFact] = []
    for span in unkept([span for span, _ in read], facts):  # (the facts' words indexed once)
        label = topic_label(span[0], parts[span])
        if label and not PLACEHOLDER_RE.search(span[0]):  # a template's "[argument c]" left in
            found.append(part_fact(label, span, "detail"))
            if len(found) == MAX_STATEMENTS:
                break
    return found[:MAX_STATEMENTS]
