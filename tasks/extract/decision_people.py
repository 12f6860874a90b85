"""Who decided, wrote or owns a decision: the people and teams a record names in explicit
structure (front matter `deciders:` / `decision-makers:` / `authors:`, a `Deciders:` or
`Decided by:` line near the top) or with an explicit ownership verb ("the platform team will
own ...", "owned by the data team"). Pure, precision first: never a capitalized word alone,
never a placeholder ("[list everyone involved in the decision]").
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from tasks.extract.document_people import GROUP_WORDS
from tasks.extract.ordinary_words import ordinary_word, ordinary_words

PERSON_TYPE = "person"
TEAM_TYPE = "team"
DECIDED_BY = "decided_by"
AUTHORED_BY = "authored_by"
OWNED_BY = "owned_by"
# Whom a record says it consulted (MADR 4's `consulted:`, a RACI "Consulted:" line): the people
# and teams its decision was weighed with, what it is about beside its subjects.
CONSULTED = "about"

# Front-matter keys (and the same words on a `Key: value` line) and the relation they state.
_ROLE_KEYS = {
    "deciders": DECIDED_BY,
    "decider": DECIDED_BY,
    "decision-makers": DECIDED_BY,
    "decision_makers": DECIDED_BY,
    "decision makers": DECIDED_BY,
    "decided-by": DECIDED_BY,
    "decided_by": DECIDED_BY,
    "decided by": DECIDED_BY,
    "authors": AUTHORED_BY,
    "author": AUTHORED_BY,
    "owner": OWNED_BY,
    "owners": OWNED_BY,
    "owned by": OWNED_BY,
    "consulted": CONSULTED,
}
_ROLE_LINE_RE = re.compile(
    r"^\s*+(?:[-*+]\s++)?\**+(?P<key>deciders?|decision[ _-]makers|decided[ _-]by|authors?"
    r"|owners?|owned by|consulted)(?:\(s\))?\**+\s*+:\s*+\**+\s*+(?P<value>\S.*)$",  # "Author(s):" too
    re.I,
)
_TEAM_WORDS = frozenset(
    "team teams squad guild tribe chapter crew department committee board group".split()
)
# A team named with an explicit ownership verb: "the platform team will own", "owned by the
# data team", "the platform team operates". One to three words before "team", after "the".
_TEAM = r"the\s+(?P<team>(?:[A-Za-z][\w-]*\s+){1,3}team)\b"
_OWNER_RES = (
    re.compile(
        r"\b" + _TEAM + r"\s+(?:(?:will|shall|is\s+going\s+to|must)\s+)?"
        r"(?:own|owns|operate|operates|maintain|maintains|take\s+ownership|takes\s+ownership"
        r"|(?:is|will\s+be)\s+responsible\s+for)\b",
        re.I,
    ),
    re.compile(r"\b(?:owned|operated|maintained)\s+by\s+" + _TEAM, re.I),
)
# Words that make "the X team" no team's name ("the whole team", "the same team").
_NOT_TEAM_WORDS = frozenset(
    """whole same entire other new old our their your every each one a an this that which
    responsible relevant right wrong""".split()
)
# Entries that are placeholders or pronouns, not anyone's name.
_NOT_NAMES = frozenset(
    """everyone everybody all none n/a na tbd tbc todo unknown nobody anyone someone team the
    we us they them list name names involved optional""".split()
)
_NAME_RE = re.compile(r"^(?:@[\w.-]+(?:/[\w.-]+)?|[^\W\d_][\w'’.-]*(?:\s+[^\W\d_][\w'’.-]*){0,4})$")
# A person: "Alice Smith", "Frank van Dijk", "Erin O'Neil", "@jdoe".
_PERSON_RE = re.compile(
    r"^(?:@[\w.-]+|[^\W\d_a-z][\w'’.-]*(?:\s+(?:(?:van|von|de|der|den|da|di|du|del|la|le|dos|bin|al)"
    r"\s+)?[^\W\d_a-z][\w'’.-]*){0,3})$"
)
_LINK_RE = re.compile(r"\[([^\]]*)\]\([^)]*\)")
# No nested or overlapping repeats: linear on hostile input ("a@a@a@...").
_EMAIL_RE = re.compile(r"<[^<>\s@]*+@[^<>\s]*+>|[\w.+-]++@[\w-]++(?:\.[\w-]++)++")
MAX_VALUE_CHARS = 1000  # a list of deciders is never longer; a longer value is no list of names
_PARENS_RE = re.compile(r"\([^()]*\)")


@dataclass(frozen=True, slots=True)
class DecisionPerson:
    name: str
    entity_type: str  # person | team
    relation_type: str  # decided_by | authored_by | owned_by
    line_start: int
    line_end: int


def people_in_front_matter(
    meta: Mapping[str, object], line_of: Mapping[str, int]
) -> list[DecisionPerson]:
    """Deciders, authors and owners the front matter lists (a string or a list of names)."""
    found: list[DecisionPerson] = []
    for key, value in meta.items():
        relation_type = _ROLE_KEYS.get(str(key).lower())
        if relation_type is None:
            continue
        line = line_of.get(key, 1)
        entries = value if isinstance(value, list | tuple) else [value]
        for entry in entries:
            if isinstance(entry, str):
                found.extend(_entries(entry, relation_type, line, line))
    return found


def people_in_lines(lines: Iterable[tuple[int, str]]) -> list[DecisionPerson]:
    """`Deciders: Alice, Bob` / `* Decided by: platform team` lines (MADR 2, Nygard variants)."""
    found: list[DecisionPerson] = []
    for number, line in lines:
        match = _ROLE_LINE_RE.match(line)
        if match:
            key = " ".join(re.split(r"[ _-]", match.group("key").lower()))
            relation_type = _ROLE_KEYS[key]
            found.extend(_entries(match.group("value"), relation_type, number, number))
    return found


def deciders_in_status(lines: Iterable[tuple[int, str]]) -> list[DecisionPerson]:
    """The group a record's Status says accepted it ("(Accepted 09/03/2021 by the Research
    Computing Platform team.)", "Accepted on 07/03/2023 by the Rights & Metadata team."): a
    team that decided it. A capitalized name with a group's head word only ("by the team",
    "by everyone" name nobody)."""
    found: list[DecisionPerson] = []
    for number, line in lines:
        if " by " not in line:  # a literal gate before the pattern
            continue
        for match in _ACCEPTED_BY_RE.finditer(line):
            team = " ".join(match.group("team").split())
            found.append(DecisionPerson(team, TEAM_TYPE, DECIDED_BY, number, number))
    return found


# "accepted ... by the X team": the status verb, at most a date's words, then a capitalized name
# (words joined by "&" too) that ends in a group's head word.
_ACCEPTED_BY_RE = re.compile(
    r"\b(?:[Aa]ccepted|[Aa]pproved|[Aa]greed|[Dd]ecided)\b[^.()\n]{0,40}?\bby\s+(?:the\s+)?"
    r"(?P<team>[A-Z][\w-]*(?:\s+(?:&\s+)?[A-Z][\w-]*){0,4}"
    r"\s+(?i:team|guild|board|group|committee|unit|council))\b"
)


def owners_in_text(text: str, line_start: int, line_end: int) -> list[DecisionPerson]:
    """Teams a decision text names with an explicit ownership verb."""
    found: list[tuple[int, DecisionPerson]] = []
    for pattern in _OWNER_RES:
        for match in pattern.finditer(text):
            team = " ".join(match.group("team").split())
            if team.split()[0].lower() not in _NOT_TEAM_WORDS:
                found.append(
                    (match.start(), DecisionPerson(team, TEAM_TYPE, OWNED_BY, line_start, line_end))
                )
    return [person for _, person in sorted(found, key=lambda item: item[0])]


def unique(people: Iterable[DecisionPerson]) -> list[DecisionPerson]:
    """Each (name, relation) once, first statement kept."""
    seen: set[tuple[str, str]] = set()
    kept: list[DecisionPerson] = []
    for person in people:
        key = (person.name.lower(), person.relation_type)
        if key not in seen:
            seen.add(key)
            kept.append(person)
    return kept


def _consulted(value: str, start: int, end: int) -> list[DecisionPerson]:
    """The people and groups a `consulted:` value lists, split at commas only ("Parks and
    Recreation IT", "Office of Data and Analytics" are one group each): a name of ordinary
    English words or with a group's word is a team ("Revenue Engineering", "Contact Centre
    operations"), capitalized words no dictionary holds a person ("Oksana Melnyk (Data
    Platform)": the person; her team in brackets is left out)."""
    if len(value) > MAX_VALUE_CHARS or re.search(r"[\[{<]", value):
        return []  # a template's placeholder ("<list everyone consulted>")
    found: list[DecisionPerson] = []
    for part in re.split(r"\s*[,;]\s*", _PARENS_RE.sub(" ", value)):
        name = " ".join(part.split()).strip(".:- *_")
        if not name[:1].isupper() or not _NAME_RE.match(name) or name.lower() in _NOT_NAMES:
            continue
        team = _is_team(name) or ordinary_words(name.replace("&", " "))
        if team or _PERSON_RE.match(name):
            found.append(DecisionPerson(name, TEAM_TYPE if team else PERSON_TYPE, CONSULTED, start, end))
    return found


def _entries(value: str, relation_type: str, start: int, end: int) -> list[DecisionPerson]:
    """The names of one `deciders` value ("Alice Smith, Bob (2020-01-02), web team")."""
    if relation_type == CONSULTED:
        return _consulted(value, start, end)
    if len(value) > MAX_VALUE_CHARS:
        return []
    if re.search(r"[\[{<]", _LINK_RE.sub(r"\1", _EMAIL_RE.sub("", value))):
        return []  # a template's placeholder ("[list everyone involved]", "<name>")
    value, _, after = value.partition(" · ")  # "Identity & Access team · Reviewed with ...": the next field
    # "Cards & Ledger · Adaeze Okonkwo": a person's full name after it, the group's lead
    team = _joined_team(value, led=" " in after.strip() and _PERSON_RE.match(after.strip()) is not None)
    if team is not None:
        return [DecisionPerson(team, TEAM_TYPE, relation_type, start, end)]
    text = _PARENS_RE.sub(" ", _EMAIL_RE.sub(" ", _LINK_RE.sub(r"\1", value)))
    text = re.sub(r"<!--.*?-->|[*_`]", " ", text)
    people: list[DecisionPerson] = []
    for part in re.split(r"\s*(?:[,;&]|\band\b|\+)\s*", text):
        name = " ".join(part.split()).strip(".:- ")
        name = re.sub(r"^(?:(?:the|with|plus)\s+){1,2}", "", name, flags=re.I)  # "Ops, with the Web team"
        if _POST_OF_RE.match(name):  # "Ines Carvalho, Head of Provisioning Platform": her post,
            name = _POST_OF_RE.sub("", name)  # and the team she heads when it is written as one
            if not _is_team(name):
                continue
        name = _TEAM_POST_RE.sub(r"\1", name)  # "Hollis Greaves, Preservation team lead": the team she leads
        if not name or not _NAME_RE.match(name) or name.lower() in _NOT_NAMES:
            continue
        if any(word.lower() in _NOT_NAMES for word in name.split()) and not _is_team(name):
            continue
        entity_type = TEAM_TYPE if _is_team(name) else PERSON_TYPE
        if entity_type == PERSON_TYPE and not _PERSON_RE.match(name):
            continue  # "see git history": a person's name is capitalized words or a @handle
        people.append(DecisionPerson(name, entity_type, relation_type, start, end))
    return people


# A person's post over a group: "Head of Provisioning Platform", "Director of the Data Office".
_POST_OF_RE = re.compile(r"^(?:Head|Director|VP)\s+of\s+(?:the\s+)?")
# A person's post written after the team's name: "Preservation team lead", "Data squad manager".
_TEAM_POST_RE = re.compile(
    r"^(\w[\w ]*?\s(?:[Tt]eam|[Ss]quad|[Gg]roup))\s+(?:lead|leader|manager|head|captain)$")


def _joined_team(value: str, *, led: bool = False) -> str | None:
    """A team whose name joins words with "&" ("Fares & Payments (on-call rota ...)", "Depot
    Systems & Labels", "Identity & Access team"): capitalized English words on both sides, with
    a team's head word or a note that it is a team or a rota in brackets, or (`led`) a person's
    full name written after it ("Cards & Ledger · Adaeze Okonkwo"); never two people ("Ana Lima
    & Bo Chen")."""
    match = _JOINED_RE.fullmatch(value.strip())
    if match is None:
        return None
    words = f'{match["left"]} {match["right"]}'.split()
    if not all(ordinary_word(word.lower()) for word in words):
        return None
    noted = led or match["note"] is not None and _TEAM_NOTE_RE.search(match["note"]) is not None
    if match["head"]:  # "Identity & Access team"
        return f'{match["left"]} & {match["right"]} {match["head"]}'
    return f'{match["left"]} & {match["right"]}' if noted else None


_JOINED_RE = re.compile(
    r"(?P<left>[A-Z][a-z]+(?: [A-Z][a-z]+){0,2}) & (?P<right>[A-Z][a-z]+(?: [A-Z][a-z]+){0,2})"
    r"(?: (?P<head>[Tt]eam|[Ss]quad|[Gg]uild))?(?: ?\((?P<note>[^()\n]{0,80})\))?\.?")
_TEAM_NOTE_RE = re.compile(r"on-?call|\brota\b|rotation|\bteam\b|squad|#", re.I)


def _is_team(name: str) -> bool:
    """"platform team", "Data Guild", "@acme/platform" (a GitHub team handle), and a name made
    of capitalised words one of which only a group's name holds ("Platform Architecture",
    "Platform Reliability", "Data Engineering" in an owner field: a team, not a person)."""
    words = name.lower().split()
    return (name.startswith("@") and "/" in name) or (
        len(words) >= 2 and (words[-1] in _TEAM_WORDS or not GROUP_WORDS.isdisjoint(words))
    )
