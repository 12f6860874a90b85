"""Every statement of a part a document names, each kept with its own lines (pure).

A part's reader keeps what the part opens with, or the sentences a cue marks; a writer states a
part in as many sentences and list items as it takes ("Build a Ceph cluster of 12 nodes ...",
"Serve it through RADOS Gateway ...", "Users sign in through Keycloak ..." under a proposal's
"Proposed solution"). Here each statement of such a part (a paragraph's sentence or a list item,
each with its own first and last line) that no reader kept becomes an observation of its own:

- a proposal's or design document's design sections (the headings its Design part is read
  from: "Proposal", "Proposed solution", "Detailed design", "Approach", ...), as "Design";
- a meeting's topics (every section of the notes but the roll, the agenda and the parts other
  readers claim: "## 1. Tally crew delays", "### Stand-in balance"), each statement by what it
  says: an option turned down (Rejected), a worry (Risk), a reason (Rationale), what someone
  will do (Action item), and else what the meeting heard or found (Outcome).

A statement is a full sentence of at least MIN_WORDS words; a heading echo, a lead-in ("The
plan:"), a question, a table row, a check-box line and a line with a template's marks are not.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import replace

from tasks.extract.genre_conclusions import (
    ACTION_SECTIONS,
    DECISION_SECTIONS,
    PROPOSAL_DESIGN_SECTIONS,
    states_rule,
)
from tasks.extract.genre_prose import sentences
from tasks.extract.genre_text import clean_lines, find_sections, part_fact
from tasks.extract.genres import (
    ARCHITECTURE,
    MINUTES,
    PROPOSAL,
    dated_entries,
    decision_entries,
    decision_rows,
    log_items,
    names_a_decision_log,
)
from tasks.extract.model import Extraction, LineSpan, ObservationFact
from tasks.extract.structure import Structure, section_key
from tasks.markdown.blocks import Section

MIN_WORDS = 4
MAX_STATEMENTS = 40  # a document's statements kept here, in document order
# What a statement must not carry: a check box, a template's optional mark, a comment, a
# placeholder; a line that is a table's row (its cells are read by the table readers).
_NOT_STATEMENT_RE = re.compile(r"\[[ xX]\]|\[optional\]|<!--|^\s*\|", re.I)
# A bold or emphasised run-in heading that opens a paragraph or an item ("**1. Scanners.** Bruno:
# ...", "*Note.* ..."): its name, not a statement's words.
_RUN_IN_RE = re.compile(r"^(\s*(?:[-*+]\s+)?)(\*\*|__|\*|_)(?=\S)[^*_]{1,80}?(?:[.:]\2|\2[.:])\s*(?=\S)")
_LEAD_IN_RE = re.compile(r"[:?]\s*$")
# A statement's leading label or speaker ("Agreed: ...", "Mairead: Station Systems will ...").
_LABEL_RE = re.compile(r"^(?:[A-Z][\w'’&.-]*\s+){0,2}[A-Z]?[\w'’&.-]+:\s+")
_SAME_CHARS = 60
# A meeting's sections that are no topic: who came, what was on the agenda, what comes next.
_ROLL_SECTIONS = frozenset({
    "attendees", "attendance", "present", "participants", "apologies", "absent", "invitees",
    "agenda", "agenda items", "next meeting", "next steps", "date", "time", "location",
    "links", "references", "resources", "related", "see also", "parking lot", "scratch",
    "housekeeping", "logistics", "recording", "transcript"})
# What a meeting's statement says, by its words, the more telling first.
_CUES: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("Rejected", re.compile(
        r"\bnot\s+agreed\b|\b(?:rejected|declined|vetoed|turned\s+down|ruled\s+out|decided\s+against)\b",
        re.I)),
    ("Risk", re.compile(
        r"\b(?:risks?|worr(?:y|ied|ies)|concerns?|concerned|no\s+one\s+owns|nobody\s+owns|unowned"
        r"|bottleneck|single\s+point\s+of\s+failure)\b", re.I)),
    ("Rationale", re.compile(r"\b(?:because|so\s+that|in\s+order\s+to|due\s+to)\b", re.I)),
    ("Action item", re.compile(
        # a named actor that will do something ("Station Systems will do a sweep from 06:00")
        r"^(?:[A-Z][\w&'’.-]*\s+){1,3}(?:will|is\s+to|are\s+to)\s+(?!not\b|be\b|have\b)[a-z]+")),
)


def add_part_statements(result: Extraction, genre: str, structure: Structure) -> None:
    """The statements of the document's design sections or topics that no reader kept, beside
    its observations (read after every other reader, so each of theirs keeps its label)."""
    if genre == PROPOSAL:
        found = design_statements(structure, PROPOSAL_DESIGN_SECTIONS, result.observations)
        status = next((o.text for o in result.observations if o.text.startswith("Status: ")), "")
        never = _NEVER_ADOPTED_RE.search(status)
        if never:  # its design was never the team's: "Withdrawn design", as its reader writes it
            label = f"{never.group(0).capitalize()} design: "
            found = [replace(f, text=label + f.text.removeprefix("Design: ")) for f in found]
        result.observations += found
    elif genre == MINUTES and not _log(structure, result.title):
        claimed = ACTION_SECTIONS | DECISION_SECTIONS
        result.observations += topic_statements(structure, claimed, result.observations)
    elif genre == ARCHITECTURE:
        result.observations += topic_statements(structure, _NOT_DESCRIBED, result.observations, told="Design")


_NEVER_ADOPTED_RE = re.compile(r"withdrawn|rejected|declined|abandoned", re.I)


def _log(structure: Structure, title: str) -> bool:
    """Is the page a decision log (entries in a table, as dated items or headings, or a title
    that says so)? Its entries are read by their readers; its other sections are no topics."""
    return (names_a_decision_log(title) or decision_entries(structure) >= 2 or log_items(structure) >= 2
            or len(decision_rows(structure)) >= 2 or dated_entries(structure) >= 2)


def statements(structure: Structure, lines: list[tuple[int, str]]) -> list[LineSpan]:
    """The statements of `lines` (a section's, its subsections' too): each sentence of each
    paragraph and each list item, with the lines it spans; headings and boilerplate left out."""
    headings = structure.heading_lines
    kept = [(n, "" if n in headings or _NOT_STATEMENT_RE.search(line) else _RUN_IN_RE.sub(r"\1", line))
            for n, line in clean_lines(lines)]
    found: list[LineSpan] = []
    for block in _blocks(kept):
        found += [span for span in sentences(block) if _is_statement(span[0])]
    return found


def _blocks(lines: list[tuple[int, str]]) -> Iterable[list[tuple[int, str]]]:
    block: list[tuple[int, str]] = []
    for number, line in lines:
        if line.strip():
            block.append((number, line))
        elif block:
            yield block
            block = []
    if block:
        yield block


def _is_statement(text: str) -> bool:
    words = text.split()
    return len(words) >= MIN_WORDS and not _LEAD_IN_RE.search(text) and any(c.islower() for c in text)


def _unkept(spans: list[LineSpan], facts: list[ObservationFact]) -> list[LineSpan]:
    """The statements whose words no observation of their lines holds (nor they its words: an
    "Agreed: go live on 2 Dec" whose decision was kept as "Decision: go live on 2 Dec")."""
    told: dict[int, list[str]] = {}
    for fact in facts:
        said = _LABEL_RE.sub("", fact.text, count=1)
        for n in range(fact.line_start, fact.line_end + 1):
            told.setdefault(n, []).append(said)
    unkept = []
    for text, start, end in spans:
        words = _LABEL_RE.sub("", text, count=1)
        if not any(words[:_SAME_CHARS] in said or said[:_SAME_CHARS] in words
                   for n in range(start, end + 1) for said in told.get(n, ())):
            unkept.append((text, start, end))
    return unkept


def design_statements(
    structure: Structure, keys: Iterable[str], facts: list[ObservationFact]
) -> list[ObservationFact]:
    """Each statement of the design sections (headings `keys`) that `facts` do not hold, as Design."""
    spans: list[LineSpan] = []
    seen: set[LineSpan] = set()  # a section found by two of its keys is read once
    for section in find_sections(structure, frozenset(keys)):
        for span in statements(structure, _design_lines(structure, section)):
            if span not in seen:
                seen.add(span)
                spans.append(span)
    return [part_fact("Design", span, "detail") for span in _unkept(spans, facts)[:MAX_STATEMENTS]]


# A design section's sub-section that is another part of the template (a KEP Proposal's "User
# Stories", "Notes/Constraints/Caveats", "Risks and Mitigations"; its Design Details' "Test Plan",
# "Graduation Criteria", "Version Skew Strategy"): read by its own reader, or not a design.
_NOT_DESIGN_RE = re.compile(
    r"\b(?:stor(?:y|ies)|risks?|caveats?|tests?|testing|graduation|upgrade|downgrade|skew|questionnaire"
    r"|alternatives?|drawbacks?|questions?|faq|history|monitoring|troubleshooting|scalability"
    r"|dependencies|examples?|prior\s+art|rollout|rollback|goals?|non-goals?|motivation|summary)\b")


def _design_lines(structure: Structure, section: Section) -> list[tuple[int, str]]:
    """A design section's own lines; when it states nothing itself, its sub-sections' but those
    of another part (a design told in "### Change feed", "### Delivery")."""
    own = structure.lines(section)
    if statements(structure, own):
        return own
    lines: list[tuple[int, str]] = []
    sections = structure.sections
    for later in sections[sections.index(section) + 1:]:
        if later.level <= section.level:
            break
        if not _NOT_DESIGN_RE.search(section_key(structure.title(later))):
            lines.extend(structure.lines(later))
    return lines


# An architecture page's sections that describe nothing of the system: who to ask, where to read
# more, what its words mean, how the page changed.
_NOT_DESCRIBED = frozenset({
    "owners", "owner", "ownership", "contacts", "contact", "team", "maintainers", "glossary",
    "terms", "definitions", "terminology", "change log", "changelog", "revision history",
    "document history", "history", "table of contents", "contents", "toc", "further reading",
    "appendix", "metadata", "status", "faq", "questions", "open questions"})


def topic_statements(
    structure: Structure, claimed: frozenset[str], facts: list[ObservationFact], *, told: str = "Outcome"
) -> list[ObservationFact]:
    """Each statement of a meeting's topics or an architecture page's sections (every section
    but the preamble, the roll and the sections named by `claimed`, which other readers read)
    that `facts` do not hold, labelled by what it says (`told` when it says no part)."""
    spans: list[LineSpan] = []
    for section in _topics(structure, claimed):
        spans += statements(structure, structure.lines(section))
    return [part_fact(_topic_label(span[0], told), span, "detail")
            for span in _unkept(spans, facts)[:MAX_STATEMENTS]]


def _topics(structure: Structure, claimed: frozenset[str]) -> list[Section]:
    """The sections under the title but those `claimed` and the roll's (and their subsections)."""
    skipped = claimed | _ROLL_SECTIONS
    named = find_sections(structure, skipped)
    found: list[Section] = []
    under = 0  # the level of a skipped section whose subsections are skipped with it
    for index, section in enumerate(structure.sections[1:]):
        if under and section.level > under:
            continue
        under = 0
        if index == 0 and section.level == 1:
            continue  # the title: the meeting's name, its roll and its links
        if section in named or section_key(structure.title(section)) in skipped:
            under = section.level
            continue
        found.append(section)
    return found


def _topic_label(text: str, told: str) -> str:
    said = _LABEL_RE.sub("", text, count=1)
    found = next((label for label, cue in _CUES if cue.search(said)), None)
    if found is None or found not in {"Rejected", "Risk"} and states_rule(said):
        return "Constraint" if states_rule(said) else told  # a rule it keeps ("Only Ops may ...")
    return found
