"""The teams a document names where it says who owns, decides or does something (pure,
precision first): an owner field or cell ("Owner: Digital Learning Platforms team",
"| Problem owner | Dev Ahluwalia, Head of Identity & Access |", "**Risk owner:** Head of
Warehouse Systems"), an action item's owner ("... - owner: Research Software Engineering (3)",
"(Owner: Hub Engineering)"), the owner column of a table of tasks ("| ... | SRE Guild | 11/07 |"),
the teams a field says took part ("Teams involved: Commerce, Payments SRE", "Requested by:
Warehouse Systems"; where people attend, only a name with a team's head word), and a person's
team in brackets when the document names it again ("Marek Nowak (Pricing)" and "outside
Pricing"; not a department that only attends: "Chloe Martin (Customer Care)"), a team with its
person in brackets ("Quadrant data quality: Registry (Grace Adeyemi)"), and the team a list of
recommendations is addressed to ("To the Student Systems team:", as NTSB reports write them),
and a team a sentence says owns, keeps or wrote the thing ("It is owned by the Booking team")

A value is a team when it is written like one: capitalized words ending in a team's head word
("Customer Billing team", "SRE Guild"), or capitalized English words and acronyms with no
person's name among them ("Research Software Engineering", "Identity & Access", "Payments SRE";
not "Hamza Rahimi"); one word alone ("Booking", "Pricing") only when the document writes it
again elsewhere and it is no person's given name. Never a role ("Head", "IC", "Chair"), a
known technology, a person the document names, or a value with digits."""

from __future__ import annotations

import re

from tasks.extract.document_people import DocumentPeople, task_owner_cells
from tasks.extract.ordinary_words import common_word, ordinary_word
from tasks.extract.structure import Structure
from tasks.extract.subject_terms import Seen
from tasks.extract.technologies import usual_spelling

TEAM_HEADS = frozenset("team teams squad guild tribe chapter crew".split())
# Fields whose value names who owns or took part ("Owner:", "| Service owner |", "maintainers:").
_FIELD_RE = re.compile(
    r"(?:^|(?<=[\s(|>*_]))(?:[Oo]wn(?:er|ers|ing[ -]team)|[Mm]aintainers?|[Rr]equested\s+by|[Dd]ecided\s+by"
    r"|[Dd]eciders|[Tt]eams?\s+involved|(?P<attendance>[Pp]resent|[Aa]ttendees))"
    r"[*_]*[ \t]*[:|=][ \t*_]*([^|\n]*)")
_FIELD_NEEDLES = ("wner", "wning", "aintainer", "equested", "ecided", "eciders", "involved", "resent",
                  "ttendees")
# A full name with its team in brackets: "Morag Tennant (Identity & Access)".
_AFFILIATION_RE = re.compile(
    r"(?<![\w@])@?([A-Z][\w'’-]+(?:[ \t]+[A-Z][\w'’-]+){1,2})[ \t]*"
    r"\(([A-Z][^()\n]{1,50}|[a-z][a-z0-9]*+(?:-[a-z0-9]++)++)\)")
# A team written as its handle or channel slug ("Priya Raman (billing-platform)"): in brackets only.
_SLUG_RE = re.compile(r"[a-z][a-z0-9]*+(?:-[a-z0-9]++)++")
# Where a field's value ends: a sentence's end, a middle dot, a dash between blanks, a bracket.
_VALUE_END_RE = re.compile(r"\.(?:\s|$)|[·;)]|\s[-–—]\s")
_ITEM_SPLIT_RE = re.compile(r",|/| and ")  # on a value whose blanks are single spaces
_BRACKETS_RE = re.compile(r"\([^()]*\)?")
_HEAD_OF_RE = re.compile(r"^(?:the\s+)?(?:head|director|lead|manager)\s+of\s+(?:the\s+)?", re.I)
_WORD_RE = re.compile(r"[A-Z][a-z]+|[A-Z]{2,5}s?|&")
# Words of a role or of nobody, never a team's name; words that alone name no team.
_NOT_TEAMS = frozenset(
    """head chair lead manager engineer commander owner owners scribe facilitator director vp cto ceo
    author reviewer approver ic tbd tbc none all everyone nobody team on-call oncall rota n/a""".split())
_NOT_ALONE = frozenset("user users customer customers vendor support status action actions".split())


def owner_teams(structure: Structure, people: DocumentPeople) -> Seen:
    """The teams of the document's owner fields, task owners and people's brackets: term key
    (the name without its head word) -> (line, the name as written, with the head word when
    any spelling has one)."""
    # (line, value, how it is written: "owner" a field or cell, "attends" where people attend,
    # "bracket" a person's team in brackets)
    found: list[tuple[int, str, str]] = []
    lines = structure.visible
    fielded = structure.holding(*_FIELD_NEEDLES)
    for index in sorted(fielded | structure.holding("(")):  # a field or a bracket: no other line is read
        number, line = lines[index]
        if index in fielded and not _column_heads(lines, index):
            found.extend((number, item, "attends" if match.group("attendance") else "owner")
                         for match in _FIELD_RE.finditer(line) for item in _items(match.group(2), people))
        if "(" in line:
            found.extend((number, match.group(2), "bracket") for match in _AFFILIATION_RE.finditer(line)
                         if _person_like(match.group(1), people))
    found.extend((number, item, "owner") for number, cell in structure.remembered(task_owner_cells)
                 for item in _items(cell, people))
    found.extend(_addressed_teams(lines))
    found.extend((number, match["team"], "owner") for index in sorted(structure.holding(" by "))
                 for number, line in [lines[index]] for match in _BY_TEAM_RE.finditer(line))
    found.extend((number, match["team"], "owner") for number, line in lines if "(" in line
                 for match in _TEAM_OF_PERSON_RE.finditer(line) if _person_like(match["person"], people))
    seen: Seen = {}
    for number, written, how in found:
        slug = how == "bracket" and _SLUG_RE.fullmatch(written) and usual_spelling(written) is None
        name = written if slug else _team_name(written, people, structure.text)
        if name is None or not _sure(name, how, structure.text):
            continue
        hits = seen.setdefault(_team_key(name), [])
        if all(line != number for line, _ in hits):  # one hit a line (a field's bracket is read twice)
            hits.append((number, name))
    return {key: _with_head(hits) for key, hits in seen.items()}


def _addressed_teams(lines: list[tuple[int, str]]) -> list[tuple[int, str, str]]:
    """The teams a list of recommendations or actions is addressed to, on the line before its
    first item ("To the Student Systems team:" / "- R1: ...", as NTSB reports address their
    recommendations): who is to act."""
    return [(number, match["team"], "owner")
            for (number, line), (_, after) in zip(lines, lines[1:], strict=False)
            if (match := _ADDRESSED_RE.match(line)) is not None and _ITEM_RE.match(after)]


# A team a sentence says owns, keeps or wrote the thing ("It is owned by the Booking team", "Kept
# by the Booking team for the Tideway booking platform", "Prepared by the Payments squad"): the
# prose form of an owner field; only a name with a team's head word.
_BY_TEAM_RE = re.compile(
    r"\b(?:[Oo]wned|[Kk]ept|[Mm]aintained|[Pp]repared|[Ww]ritten|[Aa]uthored|[Rr]un|[Oo]perated|[Mm]anaged"
    r"|[Ss]upported)[ \t]+by[ \t]+(?:the[ \t]+)?"
    r"(?P<team>[A-Z][\w&'’-]*(?:[ \t]+(?:[A-Z][\w&'’-]*|&)){0,3}[ \t]+(?:team|squad|guild|tribe))\b")
# "To the Student Systems team:", "To Registry:" (a line of its own, before a list).
_ADDRESSED_RE = re.compile(
    r"\s*[*_]{0,2}To\s+(?:the\s+)?(?P<team>[A-Z][^:,.;()\n]{1,50}?)[*_]{0,2}:[*_]{0,2}\s*$")
_ITEM_RE = re.compile(r"\s*(?:[-*+]|\d{1,2}[.)])\s+\S")
# A team with the person who speaks for it in brackets, as a list of who owns what writes it
# ("- Quadrant data quality: Registry (Grace Adeyemi)"): the value of a field or an item.
_TEAM_OF_PERSON_RE = re.compile(
    r"(?:^\s*(?:[-*+]\s+)?|:[ \t]+)(?:the\s+)?(?P<team>[A-Z][\w&' -]{1,40}?)[ \t]+"
    r"\((?P<person>[A-Z][a-z'’-]+(?:[ \t]+[A-Z][a-z'’-]+){1,2})(?:[,;][^()]*)?\)")  # not "(GovUK PaaS)"


def _sure(name: str, how: str, text: str) -> bool:
    """Where people attend, only a name with a team's head word is a team ("Grid Flexibility
    team"); a person's team in brackets is one the document is about when it names it again
    ("Marek Nowak (Pricing)", "outside Pricing"), not a department that only attends."""
    if how == "attends":
        return name.split()[-1].lower() in TEAM_HEADS
    return how != "bracket" or _written(_team_key(name), text.lower()) >= 2


def _written(phrase: str, text: str) -> int:
    return len(re.findall(rf"(?<![\w-]){re.escape(phrase)}(?![\w-])", text))


def _items(value: str, people: DocumentPeople) -> list[str]:
    """The names a field's value lists, a person's bracketed team among them
    ("Maya Okafor (Ticketing team)"), what the line goes on to say left out."""
    value = " ".join(value.split())
    teams = [match.group(2) for match in _AFFILIATION_RE.finditer(value)
             if _person_like(match.group(1), people)]
    plain = _VALUE_END_RE.split(_BRACKETS_RE.sub(" ", value), maxsplit=1)[0]
    return [*teams, *(part.strip() for part in _ITEM_SPLIT_RE.split(plain))]


def _column_heads(lines: list[tuple[int, str]], index: int) -> bool:
    """Is line `index` a table's row of column heads ("| Action | Owner | Status |")?"""
    return (lines[index][1].lstrip().startswith("|") and index + 1 < len(lines)
            and _DELIMITER_RE.match(lines[index + 1][1]) is not None)


_DELIMITER_RE = re.compile(r"^\s*\|?\s*:?-{3,}")


def _person_like(name: str, people: DocumentPeople) -> bool:
    """A full name of a person: one the document names, or words no dictionary holds."""
    return people.names(name) or not all(ordinary_word(word.lower()) for word in name.split())


def _team_word(word: str) -> bool:
    """A word of a team's name: "&", an acronym ("SRE"), a common English word or a longer
    dictionary word ("Fares"); not the short rare words of people's names ("Wen Li", "Lea")."""
    lower = word.lower()
    return (word == "&" or word.isupper() or common_word(lower) or (len(lower) >= 5 and ordinary_word(lower))
            or _work_word(lower))


def _work_word(lower: str) -> bool:
    """Is `lower` the "-ing" noun of a dictionary word, the work a team is named after ("booking",
    "metering", "pricing": book, meter, price), which the dictionary does not list itself?"""
    stem = lower.removesuffix("ing")
    return stem != lower and len(stem) >= 3 and (ordinary_word(stem) or ordinary_word(stem + "e"))


def _team_name(written: str, people: DocumentPeople, text: str) -> str | None:
    """`written` as a team's name, or None (see the module's docstring)."""
    value = _HEAD_OF_RE.sub("", " ".join(written.strip(" \t*_`.:").split()))
    value = re.sub(r"^[Tt]he\s+", "", value)
    words = value.split()
    if not 1 <= len(words) <= 5 or not value[:1].isupper() or re.search(r"\d", value):
        return None
    headed = words[-1].lower() in TEAM_HEADS and len(words) > 1
    body = words[:-1] if headed else words
    if any(word.lower() in _NOT_TEAMS for word in body) or len(body) > 4:
        return None
    if not all(_WORD_RE.fullmatch(word) and _team_word(word) for word in body):
        return None  # a person ("Hamza Rahimi"), a lower-case phrase, a handle
    if all(word.isupper() for word in body) and not headed:
        return None  # "SRE", "IC": a role or a kind, alone
    if usual_spelling(value) is not None or people.names(value):
        return None
    if len(body) == 1 and not headed and (
            _written(value, text) < 2
            or value.lower() in people.given or value.lower() in _NOT_ALONE):
        return None  # "Booking" written once, "Will": no sure team
    return value


def _team_key(name: str) -> str:
    words = name.lower().split()
    return " ".join(words[:-1] if len(words) > 1 and words[-1] in TEAM_HEADS else words)


def _with_head(hits: list[tuple[int, str]]) -> list[tuple[int, str]]:
    """Every hit spelled as the fullest spelling ("Identity & Access team" over "Identity & Access")."""
    fullest = max((name for _, name in hits), key=lambda name: (len(name), name))
    return [(number, fullest) for number, _ in hits]
