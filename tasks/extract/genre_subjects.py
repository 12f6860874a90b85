"""The subjects a genre document is about: technologies, systems, services, components and
teams, as typed entities related to the document (pure, precision first).

A capitalized phrase becomes a subject only on structural evidence: it recurs (three times, a
single word four) and it stands in the title or in a line a conclusion was read from (the
summary, cause, resolution, meaning, design ...). Never a heading word of the document or of
the genre's templates, a month or weekday, a placeholder, or the document's own name. What
recurs without that evidence stays a candidate (tasks/extract/candidates.py).

Relations: an incident `affected` the systems its title names, is `caused_by` what its cause
names and `mitigated_by` what its resolution names, and is `about` the others; any other
document is `about` its subjects. Types from the name's head word: "... team" a team,
"... service" / "... API" a service, "... database" / "... cluster" / "... pipeline" a system,
a runbook's or architecture page's subject a component, else a technology.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from tasks.extract.candidates import CandidateHits
from tasks.extract.genres import ARCHITECTURE, MINUTES, POSTMORTEM, RUNBOOK, TEMPLATE_WORDS
from tasks.extract.model import EntityFact, Extraction, NameRef, ObservationFact, RelationFact
from tasks.extract.naming import named
from tasks.extract.structure import Structure, section_key
from tasks.extract.text import excerpt

ABOUT = "about"
AFFECTED = "affected"
CAUSED_BY = "caused_by"
MITIGATED_BY = "mitigated_by"
MAX_SUBJECTS = 8
_NOT_SUBJECTS = frozenset(
    """utc gmt pst est am pm us eu uk tl;dr tldr todo tbd faq pr prs rfc rfcs tep teps kep keps
    pep adr note notes warning important example see also yes no ok n/a readme github http https
    january february march april may june july august september october november december
    monday tuesday wednesday thursday friday saturday sunday q1 q2 q3 q4 json yaml md
    post-mortem postmortem incident outage proposal design summary impact goals non-goals
    motivation alternatives timeline mitigation diagnosis meaning escalation decision decisions
    api apis cpu cpus sdk cdn dns ui url urls id ids ip os ram io sql db ssl tls ci cd qa""".split()
)

_TEAM_HEADS = frozenset({"team", "teams", "squad", "guild", "sig", "group", "working group"})
_SERVICE_HEADS = frozenset({"service", "services", "api", "apis", "server", "gateway", "sdk"})
_SYSTEM_HEADS = frozenset({"database", "db", "cluster", "pipeline", "cache", "queue", "store",
                           "storage", "registry", "platform", "bucket", "index"})


def add_genre_subjects(
    result: Extraction, genre: str, structure: Structure, hits: CandidateHits
) -> None:
    """The document's subjects as entities it is about (or, an incident, affected), each with
    an observation on the line that gives the evidence; promoted phrases leave the candidates."""
    assert result.subject is not None
    if genre == MINUTES:
        return  # the names in minutes are the people who attend and act, not subjects
    subject = result.subject.ref
    key_lines = _key_lines(result)
    roles = _role_lines(result)
    headings = {section_key(structure.title(section)) for section in structure.sections[1:]}
    title = result.title.lower()
    chosen: list[tuple[int, str, int, str]] = []  # (-count, phrase, evidence line, excerpt)
    lower = {phrase.lower() for phrase in hits.phrases}
    for phrase, seen in hits.phrases.items():
        if not _is_subject(phrase, seen, subject.display, headings):
            continue
        if phrase.lower().endswith("s") and phrase.lower()[:-1] in lower:
            continue  # "Tasks" beside "Task": one subject, its singular
        in_title = re.search(rf"\b{re.escape(phrase.lower())}\b", title) is not None
        evidence = next(((n, line) for n, line in seen if n in key_lines), None)
        if evidence is None and not in_title:
            continue
        line, text = evidence or (subject.line, result.title)
        chosen.append((-len(seen), phrase, line, text))
    promoted: set[str] = set()
    for _, phrase, line, text in sorted(chosen)[:MAX_SUBJECTS]:
        target = named(phrase, _entity_type(phrase, genre), line)
        if target is None:
            continue
        in_title = re.search(rf"\b{re.escape(phrase.lower())}\b", title) is not None
        relation = _relation(genre, in_title, line, roles)
        _relate(result, subject, relation, target, ObservationFact(
            f'Subject of "{subject.display}": {excerpt(text)}', line, line, "subject"))
        promoted.add(phrase.lower())
    result.candidates = [c for c in result.candidates if c.term.lower() not in promoted]


def _role_lines(result: Extraction) -> dict[int, str]:
    """An incident's cause and resolution lines: a subject named there caused or mitigated it."""
    roles: dict[int, str] = {}
    for fact in result.observations:
        role = CAUSED_BY if fact.text.startswith("Cause: ") else (
            MITIGATED_BY if fact.text.startswith("Resolution: ") else None)
        if role is not None:
            roles.update(dict.fromkeys(range(fact.line_start, fact.line_end + 1), role))
    return roles


def _relation(genre: str, in_title: bool, line: int, roles: dict[int, str]) -> str:
    """An incident `affected` what its title names, is `caused_by` what its cause names and
    `mitigated_by` what its resolution names; any other relation is `about`."""
    if genre != POSTMORTEM:
        return ABOUT
    if in_title:
        return AFFECTED
    return roles.get(line, ABOUT)


def _key_lines(result: Extraction) -> set[int]:
    """The lines the document's conclusions were read from."""
    lines: set[int] = set()
    for fact in result.observations:
        if fact.kind in {"conclusion", "constraint", "action", "decision"}:
            lines.update(range(fact.line_start, fact.line_end + 1))
    return lines


def _is_subject(phrase: str, seen: list[tuple[int, str]], own: str,
                headings: Iterable[str]) -> bool:
    words = phrase.lower().replace("-", " ").split()
    single = len(words) == 1
    if len(seen) < (4 if single else 3) or phrase.lower() == own.lower():
        return False
    if phrase.lower() in _NOT_SUBJECTS or phrase.lower() in headings:
        return False
    if all(word in TEMPLATE_WORDS or word in _NOT_SUBJECTS for word in words):
        return False  # "Root Cause", "Action Items": template words, not a subject
    if re.fullmatch(r"[A-Z]{1,2}\d*", phrase) or re.search(r"\d{3,}", phrase):
        return False
    if single and sum(not _starts_line(phrase, line) for _, line in seen) < 2:
        return False  # a word that only starts items ("Rate limiting ...") is no name
    return not (words[0] in _NOT_SUBJECTS and len(words) <= 2)


def _starts_line(phrase: str, line: str) -> bool:
    """The phrase only starts the line, an item or a clause ("18:01 UTC - Rate limiter ...")."""
    for match in re.finditer(rf"\b{re.escape(phrase)}\b", line):
        before = line[: match.start()].rstrip(" *_`")
        if before and before[-1] not in ":-–—(|#>.!?" and not before[-1].isdigit():
            return False
    return True


def _entity_type(phrase: str, genre: str) -> str:
    head = phrase.lower().split()[-1]
    if head in _TEAM_HEADS or phrase.lower().startswith("sig-"):
        return "team"
    if head in _SERVICE_HEADS:
        return "service"
    if head in _SYSTEM_HEADS:
        return "system"
    return "component" if genre in {RUNBOOK, ARCHITECTURE} else "technology"


def _relate(result: Extraction, subject: NameRef, relation_type: str, target: NameRef,
            observation: ObservationFact) -> None:
    if target.display.lower() == subject.display.lower():
        return
    result.entities.append(EntityFact(target, explicit_type=True))
    result.relations.append(RelationFact(subject, relation_type, target))
    result.entity_observations.append((target, observation))
