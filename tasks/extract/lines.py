"""Facts read line by line outside code: observation lines `- [decision] Use WAL #db`,
relation lines `- depends_on [[Other]]`, wiki links (a `mentions` relation from the subject),
prose lines (for mentions found later) and the hits candidates are made from."""

from __future__ import annotations

import re

from schemas.relation_vocabulary import RELATION_VERBS
from tasks.extract.candidates import CandidateHits
from tasks.extract.links import wikilink_targets
from tasks.extract.model import (
    DEFAULT_LINKED_TYPE,
    CandidateFact,
    EntityFact,
    Extraction,
    NameRef,
    ObservationFact,
    RelationFact,
)
from tasks.extract.naming import link, named
from tasks.extract.structure import Structure, section_key
from tasks.extract.text import plain_text, snake
from tasks.markdown.code_spans import replace_code_spans

# Passive relation types and their active-voice form (the relation is turned around).
PASSIVE_RELATIONS = {
    "superseded_by": "supersedes",
    "replaced_by": "replaces",
    "used_by": "uses",
    "owned_by": "owns",
    "implemented_by": "implements",
    "depended_on_by": "depends_on",
    "required_by": "requires",
    "consumed_by": "consumes",
    "called_by": "calls",
    "extended_by": "extends",
    "contained_by": "contains",
    "included_by": "includes",
}

# `- [category] text`; a ticked task box (`- [x] Backout plan tested`) is no category: a
# checklist's item, in any document (a change request's CAB list, a release checklist).
_OBSERVATION_RE = re.compile(
    r"^\s*[-*+]\s+\[(?P<category>(?![xX]\])[A-Za-z][\w -]{0,40})\]\s+(?P<text>\S.*)$"
)
_RELATION_LINE_RE = re.compile(
    r"^\s*[-*+]\s+(?P<type>[A-Za-z][A-Za-z0-9_ -]{0,40}?)\s+"
    r"\[\[(?P<target>[^\]|#]+)(?:[|#][^\]]*)?\]\]\s*(?P<rest>.*)$"
)
_RELATION_SECTIONS = frozenset({"relations", "relationships", "related"})
_OBSERVATION_CATEGORIES = frozenset(
    """decision fact technique requirement idea risk issue problem question constraint preference
    lesson insight note todo task status observation context rationale consequence goal
    assumption finding tip warning bug feature convention rule pattern learning action
    """.split()
)
_KNOWN_VERBS = RELATION_VERBS | PASSIVE_RELATIONS.keys()
_RELATION_TYPE_RE = re.compile(r"^[a-z][a-z0-9_]*$")


def add_line_facts(result: Extraction, subject: NameRef, structure: Structure) -> CandidateHits:
    """Every visible line's facts on `result`; returns the candidate hits the lines gave."""
    hits = CandidateHits(heading_lines=structure.heading_lines)
    declared_relations = _relation_section_lines(structure)
    previous: tuple[int, str] | None = None  # the line before, when its sentence may run on
    for number, line in structure.visible:
        bracket = "[" in line  # an observation's category and a relation's link both hold one
        observation = _OBSERVATION_RE.match(line) if bracket else None
        if observation:
            _add_observation(result, subject, observation, number)
            continue
        relation = _RELATION_LINE_RE.match(line) if bracket else None
        # "- The [[Memory Writer]] now ...": a first word is not a verb
        if relation and is_relation_verb(relation.group("type"), number in declared_relations):
            _add_relation_line(result, subject, relation, number, line)
            continue
        prose = _add_prose_line(result, subject, hits, number, line)
        if previous and prose and previous[0] == number - 1 and not _ITEM_OR_ROW_RE.match(line):
            hits.add_wrapped_phrases(previous[0], previous[1], prose)  # "the Hourly" / "Rollup job"
        previous = (number, prose) if prose and not _ITEM_OR_ROW_RE.match(line[:1]) else None
    return hits


# A line that opens a list item, a table row, a quote, a heading or markup: no sentence runs onto it.
_ITEM_OR_ROW_RE = re.compile(r"\s*+(?:[-*+>|<#]|\d+[.)]\s|http)")


def _relation_section_lines(structure: Structure) -> set[int]:
    """The numbers of the lines under a Relations heading (any verb there is a relation)."""
    return {
        number
        for section in structure.sections
        if section_key(structure.title(section)) in _RELATION_SECTIONS
        for number, _ in structure.lines(section)
    }


def _add_observation(
    result: Extraction, subject: NameRef, observation: re.Match[str], number: int
) -> None:
    """`- [category] text`: an observation, and the wiki links in it as mentions."""
    category = _category(observation.group("category"))
    obs_text = plain_text(observation.group("text"))
    if obs_text:
        result.observations.append(ObservationFact(f"[{category}] {obs_text}", number, number))
    for target in wikilink_targets(observation.group("text")):
        link(result, subject, "mentions", target, number)


def _add_relation_line(
    result: Extraction, subject: NameRef, relation: re.Match[str], number: int, line: str
) -> None:
    """`- verb [[Target]] rest`: a relation (a passive verb turned around; an unknown passive
    or an odd verb a candidate), and the other wiki links of the line as mentions."""
    relation_type = snake(relation.group("type"))
    target_name = relation.group("target")
    if relation_type in PASSIVE_RELATIONS:
        source = named(target_name, DEFAULT_LINKED_TYPE, number)
        if source:
            result.entities.append(EntityFact(source))
            result.relations.append(RelationFact(source, PASSIVE_RELATIONS[relation_type], subject))
    elif relation_type.endswith("_by") or not _RELATION_TYPE_RE.match(relation_type):
        result.candidates.append(
            CandidateFact(
                f"{relation_type} {target_name.strip()}", "passive_relation", number, line.strip()
            )
        )
    else:
        link(result, subject, relation_type, target_name, number)
    for extra in wikilink_targets(relation.group("rest")):
        link(result, subject, "mentions", extra, number)


def _add_prose_line(
    result: Extraction, subject: NameRef, hits: CandidateHits, number: int, line: str
) -> str | None:
    """Any other line: its wiki links (outside code spans) as mentions, its plain text as
    prose (returned), its code terms and capitalized phrases as candidate hits."""
    has_code = "`" in line  # most lines have no code span: no span reading for them
    outside_code = replace_code_spans(line) if has_code else line
    for target in wikilink_targets(outside_code):
        link(result, subject, "mentions", target, number)
    stripped = line.strip()
    if not stripped:
        return None
    prose = plain_text(outside_code if has_code else stripped)  # plain_text trims blanks
    if prose:
        result.prose.append((number, prose))
    if has_code:
        hits.add_code_terms(number, stripped)
    if not stripped.startswith(("|", "<", "http")):
        hits.add_phrases(number, stripped, prose)
    elif stripped.startswith("|"):  # a table's sentence cells ("| Add SAML checks in Checkly | SRE |")
        for cell in prose.split("|") if "|" in prose else ():
            if len(cell.split()) >= 4:
                hits.add_phrases(number, stripped, cell.strip())
    return prose


def is_relation_verb(written: str, in_relations_section: bool = False) -> bool:
    """A verb of the vocabulary (or its passive), a snake_case identifier (`stores_data_in`),
    or any verb in a Relations section; never the first word of a prose list item."""
    verb = snake(written)
    return in_relations_section or verb in _KNOWN_VERBS or ("_" in written and verb == written)


def _category(written: str) -> str:
    """An observation's category: a known one in lower case, a bracketed name as written."""
    category = " ".join(written.split())
    return category.lower() if category.lower() in _OBSERVATION_CATEGORIES else category
