"""Decision records (Nygard, MADR 2-4, log4brains, Y-statements): whether a document is one
(or a log's template or index page), and the facts it states: status, date, decision, the
record links it states (tasks/extract/record_links.py), the technologies its decision names as
subject (tasks/extract/decision_subjects.py) and the people and teams that decided, wrote or own it
(tasks/extract/decision_people.py)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from tasks.extract.decision_choice import choice_paragraph
from tasks.extract.decision_parts import decision_parts
from tasks.extract.decision_people import (
    AUTHORED_BY,
    CONSULTED,
    DECIDED_BY,
    OWNED_BY,
    deciders_in_status,
    owners_in_text,
    people_in_front_matter,
    people_in_lines,
    unique,
)
from tasks.extract.decision_subjects import REJECTS, REPLACES, USES, DecisionSubject, decision_subjects
from tasks.extract.front_matter import key_lines, meta_line
from tasks.extract.genre_meta import sentence_status
from tasks.extract.genres import (
    dated_entries,
    dated_items,
    decision_entries,
    decision_rows,
    header_fields,
    log_items,
)
from tasks.extract.model import (
    CUT_MARK,
    MAX_DECISION_CHARS,
    EntityFact,
    Extraction,
    LineSpan,
    NameRef,
    ObservationFact,
    RelationFact,
    SourceRef,
)
from tasks.extract.naming import named
from tasks.extract.ordinary_words import ordinary_words
from tasks.extract.paragraphs import first_paragraph
from tasks.extract.record_fields import (
    CONTEXT_HEADINGS,
    DATE_LINE_RE,
    DECISION_HEADINGS,
    NOT_DECISION_HEADINGS,
    STATUS_LINE_RE,
    is_template,
    marked_status,
    record_date,
    record_status,
    source_stem,
)
from tasks.extract.record_links import RecordLink, links_in_line, record_number, status_title_link
from tasks.extract.status_text import status_observation
from tasks.extract.structure import Structure, find_section, section_key, with_subsections
from tasks.extract.technologies import usual_spelling
from tasks.extract.text import plain_text, shorten
from tasks.markdown.blocks import Section
from tasks.record_dates import day_first_hint

_PARTIAL_RE = re.compile(r"\b(?:partly|partially|in\s+part|part\s+of)\b", re.I)
_WHOLE_RECORD_RE = re.compile(
    r"\b(?:this|the)\s+(?:adr|decision|record|document)\b[^.]{0,400}?\b(?:has\s+been|is|was)"
    r"\s+superseded",
    re.I,
)
_ADR_TITLE_RE = re.compile(r"^ADR[-\s]?\d+\b", re.I)
_Y_STATEMENT_RE = re.compile(
    r"\bin the context of\b.{0,600}?\bfacing\b.{0,600}?\bwe decided\b", re.I | re.S
)
# A Y-statement's clauses when each is a paragraph of its own (the template writes one a line)
_Y_OPENING_RE = re.compile(r"^\W{0,3}in the context of\b", re.I)
_Y_CLAUSE_RE = re.compile(r"^\W{0,3}(?:facing|we\s+decided|(?:and\s+)?neglected"
                          r"|(?:in\s+order\s+)?to\s+achieve|accepting|because)\b", re.I)
_Y_CLAUSES = 7
_DECIDED_RE = re.compile(r"decided", re.I)  # (the Y-statement's last word, as it matches it)
_INDEX_STEMS = frozenset({"index", "readme", "_index", "toc", "summary"})
_DECISION_LOG_RE = re.compile(r"\b(?:ADRs?|decision records?|decision log)\b", re.I)
_RECORD_STEM_RE = re.compile(r"^(?:adr[-_]?)?\d{3,5}[-_]", re.I)
# A file named by its day (`2020-02-03-specialization-review.md`): minutes and write-ups are filed
# so; the number is a date, not a record's number.
_DAY_STEM_RE = re.compile(r"^(?:19|20)\d{2}-\d{2}-\d{2}\b")
_SUBJECT_NOTES = {USES: "Used", REPLACES: "Replaced", REJECTS: "Rejected"}
_PEOPLE_NOTES = {DECIDED_BY: "Decider of", AUTHORED_BY: "Author of", OWNED_BY: "Owner of",
                 CONSULTED: "Consulted on"}


@dataclass(frozen=True, slots=True)
class RecordParts:
    """Where a decision record states what: its status, its decision section, a Y-statement."""

    status: LineSpan | None
    decision: Section | None
    y_statement: LineSpan | None


def classify_record(
    result: Extraction, meta: Mapping[str, Any], structure: Structure, source: SourceRef
) -> RecordParts:
    """Is this a decision record (or a template / index page of a log)? Sets the flags on
    `result` (its title already set); returns the stated status, the decision section and a
    Y-statement."""
    sections, title = structure.sections, result.title
    status = record_status(meta, structure, title)
    decision = find_section(structure, *DECISION_HEADINGS)
    context = find_section(structure, *CONTEXT_HEADINGS)
    y_statement = _y_statement(structure)
    stem = source_stem(source)
    declared = (
        bool(_ADR_TITLE_RE.match(title))
        or (bool(_RECORD_STEM_RE.match(stem)) and not _DAY_STEM_RE.match(stem))
        or "decision record" in str(meta.get("description", "")).lower()
    )
    result.is_decision_record = (
        (decision is not None and (context is not None or status is not None))
        or (declared and (decision is not None or context is not None or status is not None))
        or y_statement is not None
        or (declared and _is_sign_post(structure))
    )
    if result.is_decision_record and is_template(title, source):
        result.record_role = "template"  # it describes the format, it records no decision
    elif not result.is_decision_record and _is_log_index(stem, title, structure):
        result.record_role = "index"
    if result.is_decision_record and decision is None and y_statement is None:
        decision = next(
            (
                section
                for section in sections[1:]
                if section.level == 2
                and section_key(structure.title(section)) not in NOT_DECISION_HEADINGS
            ),
            None,
        )
    return RecordParts(status, decision, y_statement)


def _is_sign_post(structure: Structure) -> bool:
    """A numbered record that only points to where it is kept: a title, a `Date:` line and a
    link, a few lines in all (its date is still the record's)."""
    headings = structure.heading_lines
    prose = [line for number, line in structure.visible if line.strip() and number not in headings]
    return (
        0 < len(prose) <= 6
        and any(DATE_LINE_RE.match(line) for line in prose)
        and any("](" in line or "http" in line for line in prose)
    )


def _y_statement(structure: Structure) -> LineSpan | None:
    """A Y-statement paragraph ("In the context of ..., facing ..., we decided ...")."""
    if not _DECIDED_RE.search(structure.text):
        return None  # (a paragraph's text joins its lines: "decided" is within one of them)
    lines = structure.by_number
    paragraphs = structure.paragraphs
    for index, (start, end) in enumerate(paragraphs):
        text = " ".join(lines.get(n, "").strip() for n in range(start, end + 1))
        if _Y_STATEMENT_RE.search(text):
            return plain_text(text), start, end
        if _Y_OPENING_RE.match(text):
            found = _y_clauses(structure, index)
            if found is not None:
                return found
    return None


def _y_clauses(structure: Structure, index: int) -> LineSpan | None:
    """A Y-statement written a clause a paragraph ("In the context of ...," / "facing ...," /
    "we decided for ...," / "and neglected ...," / "to achieve ...," / "accepting that ..."), from
    its opening paragraph `index` on: the paragraphs that follow each other, each opening with
    the next clause, joined."""
    lines = structure.by_number
    paragraphs = structure.paragraphs
    start, end = paragraphs[index]
    texts = [" ".join(lines.get(n, "").strip() for n in range(start, end + 1))]
    for later, later_end in paragraphs[index + 1 : index + _Y_CLAUSES]:
        text = " ".join(lines.get(n, "").strip() for n in range(later, later_end + 1))
        if later - end > 2 or later in structure.heading_lines or not _Y_CLAUSE_RE.match(text):
            break
        texts.append(text)
        end = later_end
    joined = " ".join(texts)
    return (plain_text(joined), start, end) if _Y_STATEMENT_RE.search(joined) else None


def _is_log_index(stem: str, title: str, structure: Structure) -> bool:
    """The index or README page of a decision log (lists or explains the records), not a log
    kept in one page, whose entries are sections headed by their day ("### 2025-02-11 — ...")."""
    if stem.lower() not in _INDEX_STEMS and not _DECISION_LOG_RE.search(title):
        return False
    if (decision_entries(structure, plain=True) >= 2 or len(decision_rows(structure)) >= 2
            or log_items(structure) >= 2 or dated_items(structure) >= 2):
        return False  # a log kept in one file (one table, one list): its entries state their decisions
    return dated_entries(structure) < 2 and any(_DECISION_LOG_RE.search(line)
                                                for _, line in structure.visible[:30])


def add_record_facts(
    result: Extraction, record: RecordParts, structure: Structure, meta: Mapping[str, Any]
) -> None:
    """A decision record's status, date, decision, the record links it states, and the
    subjects and people its decision names."""
    status = record.status or marked_status(structure, result.title)
    status_text = status[0] if status else ""
    whole_superseded = status_text.lower().startswith("superseded") and not _PARTIAL_RE.search(
        status_text
    )
    result.record_superseded = whole_superseded
    if status:
        result.observations.append(status_observation(status_text, status[1], status[2]))
    elif (stated := sentence_status(structure)) is not None:  # "This one-pager was approved by ..."
        result.observations.append(stated)
    date = record_date(meta, structure, status)
    result.day_first = day_first_hint(line for _, line in structure.visible)
    if date:
        result.observations.append(ObservationFact(f"Date: {date[0]}", date[1], date[1], "date"))
    found = record.y_statement
    if found is None and record.decision is not None:
        found = _decision_text(structure, record.decision)
    if found:
        text, start, end = found
        text = shorten(text, MAX_DECISION_CHARS)
        result.observations.append(ObservationFact(f"Decision: {text}", start, end, "decision"))
    result.observations += decision_parts(structure, record.decision, found, record.y_statement)
    result.observations += _stated_outcome(meta, structure, found)
    result.record_links = _record_links(result, status, whole_superseded,
                                        [*_front_matter_status(meta, status), *structure.visible])
    _add_decision_subjects(result, found)
    _add_decision_people(result, found, structure, meta)


def _stated_outcome(
    meta: Mapping[str, Any], structure: Structure, found: LineSpan | None
) -> list[ObservationFact]:
    """The outcome a record's header states in a sentence (Atlassian's DACI template's `Outcome`
    row: "Build our own LoRaWAN network on ChirpStack"), a decision in its own words beside the
    one its section tells; a detail, its names read from the section."""
    said = found[0] if found else ""
    return [ObservationFact(f"Decision: {shorten(plain_text(field.value), MAX_DECISION_CHARS)}", field.line,
                            field.line, "detail")
            for field in header_fields(meta, key_lines(meta), structure)
            if field.key in _OUTCOME_KEYS and len(field.value.split()) >= _MIN_OUTCOME_WORDS
            and plain_text(field.value) not in said][:1]


_OUTCOME_KEYS = frozenset({"outcome", "decision outcome", "decision"})
_MIN_OUTCOME_WORDS = 4  # a sentence, not a status word or a link ("Decision | [DR-12](...)")


def _decision_text(structure: Structure, decision: Section) -> LineSpan | None:
    """The decision's first paragraph (and the list it introduces). When the section goes on
    (more paragraphs, a table, code), the text ends with a visible mark and its range covers
    the whole section: nothing is cut silently."""
    lines = with_subsections(structure, decision)
    found = first_paragraph(lines, structure.code_content, limit=MAX_DECISION_CHARS)
    if found is None:
        return None
    found = choice_paragraph(lines, structure.code_content, found) or found
    text, start, end = found
    after = [n for n, line in lines if n > end and line.strip() and not line.strip().startswith("<!--")]
    if lines:
        last_line = lines[-1][0]
        after += [n for n, line in structure.code.items() if end < n <= last_line and line.strip()]
    if after:
        if not text.endswith(CUT_MARK):
            text += CUT_MARK
        end = max(after)
    return text, start, end


def _add_decision_subjects(result: Extraction, decision: LineSpan | None) -> None:
    """Technologies, services and systems the decision and its title name as its subject:
    entities related to the decision (uses / replaces / rejects), each with an observation and
    its lines (the decision's, else the title's)."""
    assert result.subject is not None
    subject = result.subject.ref
    found = [(item, decision[1], decision[2]) for item in decision_subjects(decision[0])] if (
        decision
    ) else []
    named_names = [item.name.lower() for item, _, _ in found]
    # The title adds what the decision does not name ("Use RDS instead of provisioned EC2"),
    # never another spelling of a name it does ("Mongo" beside "MongoDB", "Lunr" beside "Lunr.js").
    found += [
        (item, subject.line, subject.line)
        for item in decision_subjects(result.title)
        if not any(item.name.lower() in name or name in item.name.lower() for name in named_names)
    ]
    named_names += [item.name.lower() for item, _, _ in found]
    # the options it did not choose: what their names name is rejected (each at its first lines)
    rejected: dict[str, tuple[int, int]] = {}
    for fact in (fact for fact in result.observations if fact.text.startswith("Rejected: ")):
        for name in _option_names(fact.text.removeprefix("Rejected: ")):
            if not any(name.lower() in known or known in name.lower() for known in named_names):
                rejected.setdefault(name, (fact.line_start, fact.line_end))
    found += [(DecisionSubject(name, REJECTS), start, end) for name, (start, end) in rejected.items()]
    for item, start, end in found:
        target = named(item.name, item.entity_type, start)
        if target is None or target.display.lower() == subject.display.lower():
            continue
        note = f'{_SUBJECT_NOTES[item.relation_type]} by the decision "{subject.display}"'
        _add_related(result, item.relation_type, target, ObservationFact(note, start, end, "subject"))


# The names an option not chosen is made of ("AWS Batch with Step Functions", "Keep Airflow and
# add the KubernetesExecutor"): runs of capitalized words and CamelCase names before the reason.
_OPTION_NAME_RE = re.compile(r"(?<![\w.-])[A-Z][\w.+-]*[a-z0-9][\w.+-]*(?:\s+[A-Z][\w.+-]*[a-z0-9][\w.+-]*)*"
                             r"|(?<![\w.-])[A-Z]{2,6}(?:\s+[A-Z][a-z][\w.+-]*)+")
# A word that describes by a name rather than names ("NHS-wide", "Kafka-based", "AWS-native").
_DESCRIBING_RE = re.compile(r"-[a-z]+$")
_OPTION_REASON_RE = re.compile(r",\s+because\b|:\s")
_MAX_OPTION_WORDS = 8
_OPTION_VERBS = frozenset("""keep use adopt build write run move migrate switch stay buy add extend
    replace introduce do nothing status quo option""".split())


def _option_names(option: str) -> list[str]:
    """The product names an option not chosen names, before the reason it lost: the option's
    first word when it is a verb ("Keep", "Use"), and ordinary words ("Custom Solution"), unless
    a known technology's ("Airflow"), are no names."""
    head = _OPTION_REASON_RE.split(option, maxsplit=1)[0]
    if len(head.split()) > _MAX_OPTION_WORDS:
        return []  # a sentence that tells a rejection ("... we decided against this"), not an option's name
    names: list[str] = []
    for match in _OPTION_NAME_RE.finditer(head):
        if head.startswith(("'s", "’s"), match.end()):
            continue  # "Michael Nygard's template": whose it is, not what
        words = match.group(0).split()
        while words and words[0].lower() in _OPTION_VERBS:
            words = words[1:]
        name = " ".join(words)
        known = usual_spelling(name) is not None
        # one word is a name by its shape (KubernetesExecutor, DocumentDB) or as a known one; not
        # "Managed", "Cloud-optimised" or "NHS-wide" opening an option's description
        shaped = " " in name or (any(ch.isupper() or ch.isdigit() for ch in name[1:])
                                 and not _DESCRIBING_RE.search(name))
        if name and (known or shaped and not ordinary_words(name)) and name not in names:
            names.append(name)
    return names


def _add_decision_people(
    result: Extraction,
    decision: LineSpan | None,
    structure: Structure,
    meta: Mapping[str, Any],
) -> None:
    """People and teams the record names as its deciders, authors or owners: entities the
    decision is decided_by / authored_by / owned_by, each with an observation and its line."""
    assert result.subject is not None
    subject = result.subject.ref
    visible = structure.visible
    status = find_section(structure, "status")
    found = unique(
        [
            *people_in_front_matter(meta, key_lines(meta)),
            *people_in_lines([*visible[:40], *visible[-12:]]),
            *(owners_in_text(*decision) if decision else []),
            *(deciders_in_status(structure.lines(status)) if status is not None else []),
        ]
    )
    for person in found:
        target = named(person.name, person.entity_type, person.line_start)
        if target is None or target.display.lower() == subject.display.lower():
            continue
        note = f'{_PEOPLE_NOTES[person.relation_type]} the decision "{subject.display}"'
        observation = ObservationFact(note, person.line_start, person.line_end, "subject")
        _add_related(result, person.relation_type, target, observation)


def _add_related(
    result: Extraction, relation_type: str, target: NameRef, observation: ObservationFact
) -> None:
    """An entity the decision names (typed explicitly), its relation and its observation."""
    assert result.subject is not None
    result.entities.append(EntityFact(target, explicit_type=True))
    result.relations.append(RelationFact(result.subject.ref, relation_type, target))
    result.entity_observations.append((target, observation))


def _front_matter_status(meta: Mapping[str, Any], status: LineSpan | None) -> list[tuple[int, str]]:
    """The front matter's status line as written, when the status was read from it (MADR's
    `status: "superseded by [ADR-0005](0005-example.md)"`): the record it names, by link, id or
    title, is the record's link, as a status line in the body's is."""
    value = meta.get("status")
    if not isinstance(value, str) or status is None:
        return []
    if status[1] != meta_line(meta, "status"):
        return []  # the status was read from the body
    return [(status[1], f"Status: {value}")]


def _record_links(
    result: Extraction,
    status: LineSpan | None,
    whole_superseded: bool,
    visible: list[tuple[int, str]],
) -> list[RecordLink]:
    """Every record reference of the record, first statement of each (type, target) kept."""
    own_stem = result.record_key or source_stem(result.source)
    own_number = record_number(own_stem)
    links: list[RecordLink] = []
    seen: set[tuple[str, bool, str]] = set()
    for number, line in visible:
        in_status = bool(status and status[1] <= number <= status[2])
        # "These IP ranges have been superseded by ..." in the body of a record that is not
        # superseded as a whole: a partial supersession.
        partial_default = not whole_superseded and not in_status and not _WHOLE_RECORD_RE.search(
            line
        ) and not STATUS_LINE_RE.match(line)
        found = links_in_line(
            line, number, own_stem=own_stem, own_number=own_number, partial_default=partial_default
        )
        if not found and in_status and status:
            title_link = status_title_link(
                plain_text(line), number, partial_default=bool(_PARTIAL_RE.search(status[0]))
            )
            found = [title_link] if title_link else []
        for link in found:
            key = (link.relation_type, link.incoming, (link.stem or link.text).lower())
            if key not in seen:
                seen.add(key)
                links.append(link)
    return links
