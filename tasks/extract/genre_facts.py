"""A genre document's facts (tasks/extract/genres.py): its entity typed by genre, its status and
dates, the people and teams that wrote or own it, the links it states to other documents and
the conclusions it states (tasks/extract/genre_conclusions.py). Pure."""

from __future__ import annotations

import posixpath
import re
from collections import Counter
from collections.abc import Mapping
from itertools import islice
from typing import Any

from tasks.extract.decision_people import (
    AUTHORED_BY,
    OWNED_BY,
    PERSON_TYPE,
    TEAM_TYPE,
    people_in_front_matter,
    people_in_lines,
    unique,
)
from tasks.extract.document_keys import cited_incidents, own_keys
from tasks.extract.document_people import full_name
from tasks.extract.form_fields import form_answers
from tasks.extract.front_matter import key_lines
from tasks.extract.genre_conclusions import genre_conclusions
from tasks.extract.genre_links import field_links, prose_links, related_title_links, unique_links
from tasks.extract.genre_meta import field_dates, genre_dates, genre_status, revision_lines
from tasks.extract.genre_parts import log_last_day
from tasks.extract.genre_prose import prose_paragraphs, timeline_lines
from tasks.extract.genres import (
    ARCHITECTURE,
    MINUTES,
    POSTMORTEM,
    PROPOSAL,
    RUNBOOK,
    HeaderField,
    body_fields,
    field_of,
    header_fields,
    header_lines,
    is_field_line,
    recognise_genre,
)
from tasks.extract.link_items import see_title_links
from tasks.extract.model import (
    SUBJECT_DOCUMENT_TYPE,
    EntityFact,
    Extraction,
    NameRef,
    ObservationFact,
    RelationFact,
)
from tasks.extract.naming import named
from tasks.extract.non_subjects import names_a_post
from tasks.extract.ordinary_words import ordinary_word
from tasks.extract.record_fields import source_stem
from tasks.extract.record_links import RELATES_TO, RecordLink, record_number
from tasks.extract.runbook_alerts import alert_sections
from tasks.extract.structure import Structure, find_section, section_key
from tasks.extract.text import plain_text
from tasks.extract.titled_links import titled_links
from tasks.record_dates import day_first_hint

# The entity type of a genre's document.
GENRE_TYPES = {
    PROPOSAL: "proposal",
    POSTMORTEM: "incident",
    RUNBOOK: "runbook",
    MINUTES: "meeting",
    ARCHITECTURE: "document",
}
# Sections that make a document a decision record rather than a genre document.
_ADR_SECTIONS = ("context", "decision", "decision outcome", "consequences", "considered options",
                 "context and problem statement", "decision drivers",
                 "selection", "selected option")  # a decision matrix's choice (a Pugh concept selection)
_ADR_ONLY_SECTIONS = frozenset({"decision outcome", "consequences", "considered options",
                                "context and problem statement", "decision drivers"})
_PROPOSAL_ONLY_SECTIONS = frozenset({"motivation", "drawbacks", "unresolved questions", "prior art",
                                     "non-goals", "goals and non-goals", "design details",
                                     "future possibilities", "alternatives", "alternatives considered"})
_ADR_TITLE_RE = re.compile(r"^ADR[-\s]?\d+\b", re.I)
_PROPOSAL_TITLE_RE = re.compile(r"^(?:(?:RFC|KEP|TEP|PEP)[-\s#]*\d+|design\s+doc\b|proposal\b)", re.I)
# Fields that name who owns or wrote the document ("| **Postmortem owner** | Lena Fischer (Networking) |").
_PERSON_KEYS = frozenset({"author", "authors", "owner", "owners", "postmortem owner", "incident owner",
                          "document owner", "doc owner", "page owner", "runbook owner", "service owner",
                          "report owner", "review owner", "sev owner"})  # a SEV review's owner
# A name's affiliation in parentheses: "Lena Fischer (Platform networking)".
_AFFILIATION_RE = re.compile(r"\((?P<team>[A-Z][A-Za-z]+(?:[ -][A-Za-z]+){0,3})\)")
_OWNER_KEYS = {"owning sig": OWNED_BY, "owning team": OWNED_BY, "team": OWNED_BY,
               "owner": OWNED_BY, "owners": OWNED_BY}
_SEVERITY_KEYS = frozenset({"severity", "sev", "incident severity", "priority", "impact level"})
_STEM_DAY_RE = re.compile(r"^(?:19|20)\d{2}-\d{2}-\d{2}")
_PEOPLE_NOTES = {AUTHORED_BY: "Author", OWNED_BY: "Owner"}


def document_genre(
    result: Extraction, meta: Mapping[str, Any], structure: Structure
) -> tuple[str | None, list[HeaderField]]:
    """The document's genre (None when it fits none) and its header fields. A decision record
    with the sections only decision records have stays one; a document that the decision-record
    reader took for one only by a Summary and a Proposal section is a proposal."""
    fields = header_fields(meta, key_lines(meta), structure)
    if result.record_role:
        return None, fields
    genre = recognise_genre(fields, structure, result.title)
    if genre is None:
        return None, fields
    if result.is_decision_record and find_section(structure, *_ADR_SECTIONS) and not (
            genre == RUNBOOK and alert_sections(structure)):  # a page of alerts, each with its Context
        if genre != PROPOSAL or not _reads_as_proposal(structure, result.title):
            return None, fields
    result.is_decision_record = False
    return genre, fields


def _reads_as_proposal(structure: Structure, title: str) -> bool:
    """An RFC or design doc with Context and Decision sections beside the sections only
    proposals have (Motivation, Drawbacks, Unresolved questions, ...), and none that only
    decision records have (Consequences, Considered Options, Decision Outcome)."""
    if _ADR_TITLE_RE.match(title):
        return False
    keys = {section_key(structure.title(section)) for section in structure.sections[1:]}
    if keys & _ADR_ONLY_SECTIONS:
        return False
    signs = len(keys & _PROPOSAL_ONLY_SECTIONS)  # one is enough under an RFC's title, with a Proposal
    return signs >= 2 or bool(_PROPOSAL_TITLE_RE.match(title)) and signs + ("proposal" in keys) >= 2


def genre_subject(result: Extraction, genre: str, structure: Structure,
                  fields: list[HeaderField] | None = None) -> NameRef | None:
    """The subject typed by its genre (unless its front matter names a type); a meeting's
    name carries its day when its title does not, so minutes with one title stay apart; the
    identifier its title opens with ("GEP-0012: ...", "INC-14: ...") and the keys it states
    for itself (tasks/extract/document_keys.py) are aliases of it."""
    subject = result.subject
    if subject is None or subject.explicit_type:
        return subject.ref if subject else None
    names = subject.ref.names
    day = _STEM_DAY_RE.match(source_stem(result.source))
    if genre == MINUTES and day and not any(ch.isdigit() for ch in names[0]):
        names = (f"{names[0]} ({day.group(0)})", *names)
    ref = NameRef(names, GENRE_TYPES[genre], subject.ref.line)
    own = own_keys(result.title, fields or (), incident=genre == POSTMORTEM)
    stated = [*_title_ids(result.title, structure), *own]
    ids = [name for name in dict.fromkeys(stated) if name not in subject.aliases and name not in names]
    aliases = (*subject.aliases, *ids)
    result.subject = EntityFact(ref, aliases, subject.tags, True)
    return ref


# The identifier a document's title opens with, as proposals and incidents are numbered ("GEP-0012:
# Automatic contact scheduling", "INC-14: Catalog unavailable", "KEP-4412: Gang scheduling").
# (not a severity: "SEV-1: Checkout down" names no document)
_TITLE_ID_RE = re.compile(r"^((?!SEV-)[A-Z]{2,6}-\d{1,6})\s*[:–—]\s+\S")


def _title_ids(title: str, structure: Structure) -> list[str]:
    """The identifiers the title and the page's first heading (when the front matter's title
    left it out) open with."""
    heading = next((structure.title(s) for s in structure.sections[1:2] if s.level == 1), "")
    return list(dict.fromkeys(match.group(1) for text in (title, heading)
                              if (match := _TITLE_ID_RE.match(text)) is not None))


def add_genre_facts(
    result: Extraction,
    genre: str,
    structure: Structure,
    meta: Mapping[str, Any],
    fields: list[HeaderField],
) -> None:
    """Status, dates, people, links and conclusions of a genre document."""
    assert result.subject is not None
    subject = result.subject.ref
    # the header's own fields first, a form response's answers last (form_fields)
    stated = [*fields, *_page_fields(body_fields(structure)), *form_answers(structure)]
    result.day_first = day_first_hint(line for _, line in structure.visible)  # its folder's evidence too
    status = genre_status(stated, structure, title=result.title)
    if status is not None:
        result.observations.append(status)
    stem = source_stem(result.source)
    timeline = timeline_lines(structure) if genre == POSTMORTEM else set()
    dates = genre_dates(
        genre, stated, (result.title, subject.line), structure.visible, stem, timeline,
        revision_lines(structure), header_lines(structure),
    )
    if not any(fact.text.startswith("Last updated: ") for fact in dates):
        # a decision log kept as a table: updated when its newest row was written
        dates += [fact for fact in (log_last_day(structure),) if fact is not None]
    result.observations += dates
    if genre == POSTMORTEM:
        result.relations += cited_incidents(structure, subject, result.subject.aliases)
        severity = _severity(fields, structure)
        if severity is not None:
            result.observations.append(severity)
        result.observations += _incident_times(stated)
    status_text = status.text if status else ""
    result.observations += _without_doubled_steps(genre_conclusions(genre, structure, status_text))
    _add_people(result, subject, structure, meta, fields)
    _add_action_teams(result, subject)
    result.record_key = stem
    result.record_links = _document_links(result, structure, fields, reported=genre == MINUTES)


def _page_fields(found: list[HeaderField]) -> list[HeaderField]:
    """The body's fields that are the page's own: a key that each entry of a log states again
    (`**Status:**`, `**Date:**` under every decision of a register) is the entries', not the page's."""
    counts = Counter(field.key for field in found)
    return [field for field in found if counts[field.key] == 1]


def _without_doubled_steps(facts: list[ObservationFact]) -> list[ObservationFact]:
    """A procedure's step that also states a constraint ("4. Scale the workers back; they must
    all be ready before you go on") is kept once, as the step: a constraint read from lines a
    step already holds is dropped, unless the step says much more than the rule (an FAQ's answer
    of several sentences, one of them "Do not edit the replicas by hand")."""
    steps = [(f.line_start, f.line_end, len(f.text) - len(_STEP_LABEL)) for f in facts
             if f.text.startswith(_STEP_LABEL)]
    return [f for f in facts if f.kind != "constraint"
            or not any(start <= f.line_start and f.line_end <= end
                       and _MORE * (len(f.text) - len(_RULE_LABEL)) >= 2 * size
                       for start, end, size in steps)]


_MORE = 3  # a step over one and a half times as long as a rule it holds says more than the rule
_RULE_LABEL = "Constraint: "


_STEP_LABEL = "Procedure: "


def add_document_links(result: Extraction, structure: Structure, fields: list[HeaderField]) -> None:
    """A document of no genre: the status and dates its own fields state (`status:`,
    `created:`, `last-updated:`) and the supersessions it states ("This alert has been moved
    to [..](..)", `Superseded-By:`), so what replaced it is found; nothing else changes."""
    stated = [*fields, *form_answers(structure)]  # a form response's answers after its header
    status = genre_status(stated, structure, status_words_only=True, title=result.title)
    if status is not None:
        result.observations.append(status)
    result.day_first = day_first_hint(line for _, line in structure.visible)  # its folder's evidence too
    title = (result.title, result.subject.ref.line) if result.subject is not None else None
    result.observations += field_dates(stated, title, header_lines(structure), source_stem(result.source),
                                       structure.visible, revision_lines(structure))
    subject = result.subject
    # A document that is only a document (an options analysis, a change request, a catalogue
    # page: no entity type of its own) is found by its file, so a link from another page
    # reaches it, and the pages it links to are related to it.
    plain = (subject is not None and not subject.explicit_type
             and subject.ref.entity_type == SUBJECT_DOCUMENT_TYPE)
    links = _document_links(result, structure, fields, typed_only=not plain)
    typed = [link for link in links if link.relation_type != RELATES_TO]
    if typed:
        result.record_key = source_stem(result.source)
        result.record_links = typed if not plain else links
    elif plain:
        result.document_key = source_stem(result.source)
        result.record_links = links


def _document_links(
    result: Extraction, structure: Structure, fields: list[HeaderField], *, typed_only: bool = False,
    reported: bool = False,
) -> list[RecordLink]:
    stem = source_stem(result.source)
    folder = posixpath.dirname((result.source.original_path or result.source.raw_path).replace("\\", "/"))
    own = (stem, record_number(stem))
    return unique_links([*field_links(fields, folder, own),
                         *prose_links(structure, folder, own, typed_only=typed_only, reported=reported),
                         *related_title_links(structure), *titled_links(structure),
                         *see_title_links(structure)])


def _severity(fields: list[HeaderField], structure: Structure) -> ObservationFact | None:
    """An incident's stated severity: a header field, else a `Severity:` line of its body, else
    the level its opening paragraph names (PagerDuty's "we suffered a 1 minute SEV-1 due to ...")."""
    stated = [(f.line, f.key, f.value) for f in fields]
    stated += [(n, *found) for n, line in structure.visible if (found := field_of(line))]
    for line, key, value in stated:
        if key in _SEVERITY_KEYS and plain_text(value):
            return ObservationFact(f"Severity: {plain_text(value)}", line, line, "severity")
    story = (parts for _, parts in prose_paragraphs(structure) if not is_field_line(parts[0][1]))
    for parts in islice(story, _SEVERITY_PARAGRAPHS):
        for number, text in parts:
            level = _SEV_LEVEL_RE.search(text) if "SEV" in text.upper() else None  # a literal gate first
            if level is not None:
                return ObservationFact(f"Severity: {level.group(0)}", number, number, "severity")
    return None


# Where incident tools write when it started and ended: incident.io's "Impact started at" /
# "Resolved at", a post-incident review's "Incident Start" / "Incident Resolved", FireHydrant's
# Started / Resolved milestones.
_START_KEYS = ("impact started at", "impact start", "incident start", "incident started", "started at",
               "start time", "started")
_END_KEYS = ("impact ended at", "impact end", "incident end", "incident resolved", "resolved at", "ended at",
             "end time", "resolved")
_CLOCK_RE = re.compile(r"\b(?:[01]?\d|2[0-3]):[0-5]\d\b")


def _incident_times(stated: list[HeaderField]) -> list[ObservationFact]:
    """When the incident started and ended, as its fields state them with a time of day
    (kept as written; its day is read by genre_meta.genre_dates)."""
    found: list[ObservationFact] = []
    for label, keys in (("Incident start", _START_KEYS), ("Incident end", _END_KEYS)):
        field = next((f for key in keys for f in stated if f.key == key and _CLOCK_RE.search(f.value)), None)
        if field is not None:
            said = f"{label}: {plain_text(field.value)}"
            found.append(ObservationFact(said, field.line, field.line, "date"))
    return found


# A severity level as incident tools write it ("SEV-1", "Sev 2", "SEV3"); read in the opening
# paragraphs only, where the summary states the incident's own (not "would have been a SEV-1").
_SEV_LEVEL_RE = re.compile(r"\bSEV[- ]?[0-5]\b", re.I)
_SEVERITY_PARAGRAPHS = 2


def _add_people(
    result: Extraction,
    subject: NameRef,
    structure: Structure,
    meta: Mapping[str, Any],
    fields: list[HeaderField],
) -> None:
    """Authors and owners the document names in its fields: person and team entities it is
    authored_by / owned_by, each with an observation on the field's line."""
    header = [(f.line, f"{'author' if f.key.startswith('author') else 'owner'}: {f.value}")
              for f in fields if f.key in _PERSON_KEYS]
    found = unique([
        *people_in_front_matter(meta, key_lines(meta)),
        *people_in_lines(header),
        *people_in_lines(structure.visible[:30]),
    ])
    teams = [(f, _OWNER_KEYS[f.key]) for f in fields if f.key in _OWNER_KEYS and f.key != "owners"]
    # a name an owning-team field gives is a team, though an owner field names it as a person
    # would be named ("**Owner:** Depot Systems" beside "Owning team: Depot Systems (#depot-systems)")
    targets: list[tuple[str, str, str, int]] = [
        (_team_value(f.value), TEAM_TYPE, relation, f.line) for f, relation in teams if f.key != "owner"]
    led = _teams_with_leads(fields)  # "Owner: Branch IT (Kofi Mensah)": the team, then its person
    targets += [(p.name, TEAM_TYPE if p.name in led else p.entity_type, p.relation_type, p.line_start)
                for p in found]
    targets += [(person, PERSON_TYPE, OWNED_BY, line) for person, line in led.values()]
    targets += [(f.value.strip(), TEAM_TYPE, OWNED_BY, f.line) for f in fields if _team_slug_owner(f)]
    persons = {p.name for p in found if p.entity_type != TEAM_TYPE and p.name not in led}
    persons.update(person for person, _ in led.values())
    targets += [(plain_text(match["team"]), TEAM_TYPE, OWNED_BY, f.line) for f in fields
                if f.key in _PERSON_KEYS for value in [plain_text(f.value)]
                for match in _AFFILIATION_RE.finditer(value)
                if not names_a_post(match["team"]) and match["team"] not in persons
                and not (_after_a_team(value[:match.start()], persons) and not full_name(match["team"]))]
    targets += [(team, TEAM_TYPE, OWNED_BY, f.line) for f in fields if f.key in _PERSON_KEYS
                for team in _lower_case_teams(f.value)]
    targets += [(match["team"], TEAM_TYPE, OWNED_BY, f.line) for f in fields  # "owner: Claims Squad"
                if f.key in _PERSON_KEYS for match in _NAMED_TEAM_RE.finditer(plain_text(f.value))]
    seen: set[str] = set()
    for name, entity_type, relation_type, line in targets:
        target = named(name, entity_type, line)
        if target is None or target.display.lower() in seen or relation_type not in _PEOPLE_NOTES:
            continue
        if target.display.lower() == subject.display.lower() or len(target.display) > 60:
            continue
        seen.add(target.display.lower())
        note = f'{_PEOPLE_NOTES[relation_type]} of "{subject.display}"'
        result.entities.append(EntityFact(target, explicit_type=True))
        result.relations.append(RelationFact(subject, relation_type, target))
        result.entity_observations.append((target, ObservationFact(note, line, line, "subject")))


def _teams_with_leads(fields: list[HeaderField]) -> dict[str, tuple[str, int]]:
    """The teams an owner or author field names with a person in brackets ("Owner: Branch IT
    (Kofi Mensah)", "Owner: Data Platform (Ana Lima), #data"): team -> (person, line). The
    bracket holds a person's full name and the name before it is none (a person's own team is
    written the other way round: "Kofi Mensah (Branch IT)")."""
    led: dict[str, tuple[str, int]] = {}
    for field in fields:
        if field.key not in _PERSON_KEYS:
            continue
        for match in _TEAM_LEAD_RE.finditer(plain_text(field.value)):
            team, person = " ".join(match["team"].split()), " ".join(match["person"].split())
            if full_name(person) and not full_name(team) and not names_a_post(team):
                led[team] = (person, field.line)
    return led


# A capitalized name (a word of capitals too: "Branch IT") then a bracket of capitalized words.
_TEAM_LEAD_RE = re.compile(
    r"(?:^|(?<=[,;·]\s))(?P<team>[A-Z][\w&-]*(?:[ \t]+[A-Z][\w&-]*){0,3})[ \t]*"
    r"\((?P<person>[A-Z][\w'-]+(?:[ \t]+[A-Z][\w'-]+){1,3})\)")


def _after_a_team(before: str, persons: set[str]) -> bool:
    """Does a bracket follow a name of plain capitalized words that is no person the page
    names: a team's, whose bracket says what it owns ("Farm Data Platform (FieldLink code)")
    or who leads it ("Farm Data Platform (Marisol Okafor)"), not a person's team ("Wes
    Tuttle (Elm Prairie location)")?"""
    words = _NAME_BEFORE_BRACKET_RE.findall(before)
    name = " ".join(words[-1].split()) if words else ""
    return bool(name) and name not in persons and all(ordinary_word(word.lower()) for word in name.split())


# The capitalized words that end the text before a bracket ("..., Farm Data Platform ").
_NAME_BEFORE_BRACKET_RE = re.compile(r"(?<![\w-])[A-Z][a-z]+(?:[ \t]+[A-Z][a-z]+){0,3}[ \t]*$")


def _team_value(value: str) -> str:
    """A team field's name without what the line goes on to say: its channel in brackets, the
    next sentence or field ("Catalogue (#catalogue). Service owner: Maya Torres." -> "Catalogue")."""
    return _TEAM_VALUE_END_RE.split(value, maxsplit=1)[0].strip()


# Where a team's name ends: a bracket, a sentence's end, a semicolon, or the next "Label:".
_TEAM_VALUE_END_RE = re.compile(r" ?[(;]|\.(?:\s|$)|\s[A-Z][a-z]+(?: [a-z]+)?:")


def _lower_case_teams(value: str) -> list[str]:
    """A team written in lower case as an owner's affiliation: "Grace Oyelaran (payments team)"."""
    return [match["team"] for match in _LOWER_TEAM_RE.finditer(plain_text(value))]


# A team an owner or author field names by its name and a team's head word ("Claims Squad",
# "Priya Raman (Payments Squad, engineering manager)", "Clinical Platform team"): the owning team.
_NAMED_TEAM_RE = re.compile(
    r"(?<![\w&-])(?P<team>(?:[A-Z][\w&-]*[ \t]{1,2}){1,3}(?:[Tt]eam|Squad|Guild|Tribe|Crew|Chapter))\b")
_LOWER_TEAM_RE = re.compile(r"\((?P<team>[a-z][a-z-]+(?: [a-z][a-z-]+)? team)\)")


def _team_slug_owner(field: HeaderField) -> bool:
    """An owner field whose value is a team's handle, a lower-case hyphenated slug
    ("owner: platform-networking"), not a person's name (those are read as people)."""
    return field.key in {"owner", "owners"} and _TEAM_SLUG_RE.fullmatch(field.value.strip()) is not None


_TEAM_SLUG_RE = re.compile(r"[a-z][a-z0-9]*(?:-[a-z0-9]+)+")
# "(owner: Booking team, HOT-3932)." too: the item's ticket after its owner, as Atlassian's
# corrective actions list them.
_ACTION_TEAM_RE = re.compile(r"\(owner: (?P<team>(?:[A-Z][\w-]*\s+){1,3}team)(?:,[^)]*)?\)\.?$")


def _add_action_teams(result: Extraction, subject: NameRef) -> None:
    """A team that owns an action item ("... (owner: Observability team)"): a team the
    document is about, with an observation on the item's line."""
    seen = {entity.ref.display.lower() for entity in result.entities}
    for fact in result.observations:
        match = _ACTION_TEAM_RE.search(fact.text) if fact.kind == "action" else None
        target = named(match["team"], TEAM_TYPE, fact.line_start) if match else None
        if target is None or target.display.lower() in seen:
            continue
        seen.add(target.display.lower())
        result.entities.append(EntityFact(target, explicit_type=True))
        result.relations.append(RelationFact(subject, "about", target))
        note = f'Owner of an action item of "{subject.display}"'
        observation = ObservationFact(note, fact.line_start, fact.line_end, "subject")
        result.entity_observations.append((target, observation))


# A task box (`- [x] ...`) is no observation category at the source (tasks/extract/lines.py).
_OPTIONAL_OBSERVATION_RE = re.compile(r"^\[optional\]", re.I)


def drop_boilerplate_lines(result: Extraction) -> None:
    """A document's "[Optional]" lines are template boilerplate (a proposal's questionnaire, a
    MADR record's Links section), not the `- [category] text` observation lines they look like."""
    result.observations = [
        fact for fact in result.observations
        if fact.kind != "line" or not _OPTIONAL_OBSERVATION_RE.match(fact.text)
    ]
