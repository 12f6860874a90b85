"""Every statement of a part a genre reader found, each with its own lines (pure).

A genre reader finds a postmortem's or a runbook's part by its heading ("Root cause", "What
happened", "If validation fails") and keeps what it was written for: the opening paragraph, the
sentence a cue marks, the first steps. The part goes on after that: a review's "What happened"
tells the cause, who noticed and what was done in five paragraphs; a runbook's failure case says
what to do, whom to page and what never to do. So each statement of a section a reader claimed
for one of these parts, that no observation holds yet, is kept as its own observation: a
sentence of its prose or a list item, with its lines. Its label is the one its own words give
where they tell another part (how it was noticed: Detection; what it cost: Impact; what the
responders did: Resolution or Mitigation; why, or the state it broke into ("ran out of
connections", "the pool was exhausted"): Cause; the state it came back to ("was healthy
again", "fell to the normal baseline"): Resolution; a runbook's check: Diagnosis; a hand-over:
Escalation), else the section's part (the part its reader read there first; a subsection no
reader claimed goes on with its parent's). A section of no part (a summary, a heading in the
writer's own words) keeps only the statements whose words tell a part.

Not kept: a question, a lead-in to a list (ending with ":"), a header field, a pointer to
another page ("See also ..."), a statement of fewer than MIN_WORDS words, the timeline (read by
its entries), and what a fact holds already (a summary's sentence too: the subjects a summary
names are what the incident is about, not what caused it).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from tasks.extract.genre_prose import timeline_lines
from tasks.extract.genre_text import list_items, part_fact
from tasks.extract.genres import is_field_line
from tasks.extract.incident_prose import story_sentences
from tasks.extract.model import LineSpan, ObservationFact
from tasks.extract.sentence_parts import response_part, tells_cost, tells_detection
from tasks.extract.statement_labels import summary_part
from tasks.extract.statement_text import is_statement
from tasks.extract.structure import Structure
from tasks.extract.text import shorten

# The parts whose sections are read statement by statement (not a rule, an action item or a
# decision: their readers keep each of theirs already).
INCIDENT_PARTS = frozenset({"Summary", "Cause", "Trigger", "Impact", "Detection", "Resolution", "Mitigation",
                            "Lesson"})
RUNBOOK_PARTS = frozenset({"Alert", "Meaning", "Impact", "Diagnosis", "Mitigation", "Resolution",
                           "Escalation", "Procedure"})
# A pointer to another page ("See also the architecture page", "For details see ..."): where to read
# the part, not the part.
# A statement of fewer words says too little to be kept on its own ("Then wait.", "It worked.").
# A part told at great length is a page to link to: its first statements are kept.
MAX_PER_SECTION = 12


# What broke, told as the state it reached ("lantern-api ran out of database connections", "the
# pool was exhausted", "the export job started failing after a certificate change", "a
# compression policy had been failing silently"): the failure a review explains, its cause.
_BROKE_RE = re.compile(
    r"\b(?:ran\s+out\s+of|(?:was|were|got|had\s+been)\s+exhausted|exhausted\s+(?:its|the|all)"
    r"|started\s+(?:failing|returning\s+(?:errors?|HTTP\s+5\d\d|5\d\d)|rejecting|timing\s+out|dropping|throwing)"
    r"|(?:had\s+been\s+|was\s+)?failing\s+silently|silently\s+(?:failed|fails|rejected|rejects|dropped|drops|discarded|discards)"
    r"|filled\s+up|(?:disk|volume|queue|pool|partition)\s+(?:was\s+|were\s+)?full)\b", re.I)

# How it ended, told as the state it came back to ("Failures fell to the normal baseline by
# 10:12", "the backlog cleared in about 20 minutes", "ingestion was healthy again", "Service was
# fully restored at 20:15"): the resolution a review tells in its story.
_RECOVERED_RE = re.compile(
    r"\b(?:(?:back|returned|fell|dropped|came\s+back)\s+to\s+(?:the\s+)?(?:normal|usual|baseline)"
    r"|(?:was|were|is|are)\s+(?:healthy|working|up|back)\s+again|recovered\s+(?:at|by|fully|completely|within|in)\b"
    r"|fully\s+(?:restored|recovered|operational)|(?:service|access|traffic)\s+(?:was\s+|were\s+)?restored"
    r"|backlog\s+(?:was\s+)?(?:cleared|drained))", re.I)


def incident_part(sentence: str) -> str | None:
    """The part of an incident a sentence tells by its own words, or None."""
    if tells_detection(sentence):
        return "Detection"
    if _BROKE_RE.search(sentence):  # (a "because" the story's own cause readers weigh)
        return "Cause"
    if tells_cost(sentence):
        return "Impact"
    return response_part(sentence) or ("Resolution" if _RECOVERED_RE.search(sentence) else None)


def review_statements(structure: Structure, facts: list[ObservationFact], parts: frozenset[str],
                    own_part: Callable[[str], str | None]) -> list[ObservationFact]:
    """The statements of the document's sections that no fact of `facts` holds, a fact each (a
    detail): labelled `own_part(statement)`, else the part (one of `parts`) the section was read
    as, else not kept."""
    held = " \n ".join(fact.text for fact in facts)
    starts = {fact.line_start for fact in facts}
    skipped = timeline_lines(structure)
    told: dict[int, list[LineSpan]] = {}
    for text, first, last, _ in story_sentences(structure):
        told.setdefault(first, []).append((text, first, last))
    found: list[ObservationFact] = []
    claimed: list[tuple[int, str | None]] = []  # the open sections' levels and parts, outermost first
    for index, section in enumerate(structure.sections):
        lines = structure.lines(section)
        numbers = {n for n, _ in lines}
        while claimed and claimed[-1][0] >= section.level:
            claimed.pop()
        # a subsection no reader claimed goes on with its parent's part ("Hawkeye timeouts"
        # under "Mitigation", "Step 1 - Check the connector" under "Procedure")
        # (not the title's section: a page of no other heading is all in it, whatever its opening is)
        titled = index <= 1 and section.level <= 1
        label = None if titled else _section_part(structure, lines, facts, parts) or (
            claimed[-1][1] if claimed else None)
        claimed.append((section.level, label))
        if numbers & skipped:
            continue
        statements = [span for n, _ in lines for span in told.get(n, ())]
        items = list_items(lines, limit=MAX_PER_SECTION)  # an item a reader read (its first line) is held
        statements += [item for item in items if item[1] not in starts]
        kept = 0
        for text, first, last in sorted(statements, key=lambda span: span[1]):
            if kept == MAX_PER_SECTION:
                break
            said = _shortened(text)
            if not _statement(text):
                continue
            part = own_part(text)
            if part is None and label is None and parts is INCIDENT_PARTS:
                part = summary_part(text)  # a summary's sentence: how long it lasted, or why
            if said[:80] in held and not (part and _told_apart(said, part, facts)):
                continue
            part = part or label
            if part is None:
                continue  # a section of no part: only what its own words tell
            found.append(part_fact(part, (said, first, last), "detail"))
            kept += 1
    return found


def _told_apart(said: str, part: str, facts: list[ObservationFact]) -> bool:
    """Is the statement held only inside longer facts of other parts (a cause paragraph's sentence
    that counts what it cost: "so 214 delay minutes were counted twice")? It is kept under its own
    part too, with its own lines."""
    holders = [fact for fact in facts if said[:80] in fact.text]
    return all(not fact.text.startswith(f"{part}: ") and len(fact.text) > len(said) + len(part) + 40
               for fact in holders)


def _section_part(structure: Structure, lines: list[tuple[int, str]], facts: list[ObservationFact],
                  parts: frozenset[str]) -> str | None:
    """The part a reader read the section as: the label of the part fact (of kind "conclusion")
    that opens the section's text (a reader that found a sentence in the middle by its cue read
    that sentence, not the section); None for a summary (its other sentences tell what their
    own words say, or nothing: a byline, a status update's stamp)."""
    opening = next((n for n, line in lines if line.strip() and n not in structure.heading_lines), None)
    for fact in facts:
        if fact.line_start == opening and fact.kind == "conclusion":
            label = fact.text.split(": ", 1)[0]
            if label in parts:
                return None if label == "Summary" else label
    return None


def _statement(text: str) -> bool:
    stripped = text.strip()
    return is_statement(stripped) and not is_field_line(stripped)


def _shortened(text: str) -> str:
    return shorten(" ".join(text.split()))
