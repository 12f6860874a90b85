"""The people a document names as people, so that their names are never taken for the
technologies or systems it is about: its authors and owners (the person entities its fields
gave), a byline ("Written by Ilse Brandt for the payments team"), an owner named beside a task
("(Owner: Ilse Brandt, PAY-311)", "Assignee: Tomás Ruiz"), and the attendance of minutes
(tasks/extract/subject_marks.py `meeting_people`). Precision first: only names in those places."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from tasks.extract.ordinary_words import ordinary_words
from tasks.extract.structure import Structure

# One to four capitalised words: "Ilse Brandt", "Tomás Ruiz", "Frank van Dijk".
_PARTICLE = r"(?:(?:van|von|de|der|den|da|di|du|del|la|le|dos|bin|al)\s+)?"
_PERSON = r"([^\W\d_a-z][\w'’-]*(?:\s+" + _PARTICLE + r"[^\W\d_a-z][\w'’-]*){0,3})"
_BYLINE_RE = re.compile(r"\b(?:[Ww]ritten|[Aa]uthored|[Pp]repared|[Cc]ompiled|[Ee]dited|[Rr]eported)\s+by\s+"
                        + _PERSON)
_OWNER_RE = re.compile(r"\b(?:[Oo]wner|[Oo]wned by|[Aa]ssignee|[Aa]ssigned to|DRI)\s*[:=]?\s+" + _PERSON)
# An incident's or a review's roles, as a field or a header-table row ("**Incident Commander:**
# Sipho Ndlovu", "| **Scribe** | Julia Nowak |"), or after the name in a list of responders
# ("- Sipho Ndlovu, Incident Commander"); an action item's owner after a dash ("... — Julia Nowak").
_ROLES = (r"(?:[Ii]ncident [Cc]ommander|IC|[Ss]cribe|[Cc]omm(?:unication)?s [Ll]ead|[Tt]ech(?:nical)? [Ll]ead"
          r"|[Oo]n-?call(?: engineer)?|[Rr]esponders?|[Rr]eviewers?|[Aa]pprovers?|[Nn]ote[- ]?taker"
          r"|[Ff]acilitator|[Pp]ostmortem [Oo]wner|[Ii]ncident [Oo]wner)")
_ROLE_RE = re.compile(r"(?:^|\|)\s*(?:[-*+]\s+)?[*_]*" + _ROLES + r"[*_]*\s*[:|]\s*[*_]*\s*" + _PERSON)
_NAME_ROLE_RE = re.compile(r"^\s*[-*+]\s+" + _PERSON + r",\s+(?:the\s+)?" + _ROLES + r"\b")
_DASH_RE = re.compile(r"\s[–—]\s+" + _PERSON + r"\s*$")
# A line that may name a person in one of those places (one search a line, the patterns after).
_HINT_RE = re.compile(r"by |ssign|DRI|wner|ommander|[Ss]cribe|[Ll]ead\b|[Oo]n-?call|esponder|eviewer|pprover"
                      r"|[Tt]aker|acilitator|\bIC\b|\s[–—]\s")


@dataclass(frozen=True, slots=True)
class DocumentPeople:
    """Full names and given names, lower case."""

    full: frozenset[str] = field(default_factory=frozenset)
    given: frozenset[str] = field(default_factory=frozenset)

    def names(self, phrase: str) -> bool:
        """True when the phrase is one of the people ("Ilse Brandt") or a given name of one
        of them written alone or before their family name ("Ilse", "Ilse B.")."""
        words = phrase.lower().lstrip("@").split()
        if not words:
            return False
        return " ".join(words) in self.full or (len(words) <= 2 and words[0] in self.given)


def document_people(structure: Structure, stated: Iterable[str] = ()) -> DocumentPeople:
    """The people of `stated` (the person entities the document's fields gave) and those its
    bylines and owner notes name."""
    full = {" ".join(name.lower().lstrip("@").split()) for name in stated}
    for _, line in structure.visible:
        if not _HINT_RE.search(line):
            continue
        for pattern in (_BYLINE_RE, _OWNER_RE, _ROLE_RE, _NAME_ROLE_RE, _DASH_RE):
            names = (_folded(match.group(1)) for match in pattern.finditer(line))
            full.update(name for name in names if _is_person(name))
    full.discard("")
    return DocumentPeople(frozenset(full), frozenset(name.split()[0] for name in full))


def _folded(name: str) -> str:
    return " ".join(name.lower().split())


# Words of a team's or a department's name, not of a person's: "Payments Infrastructure".
_GROUP_WORDS = frozenset(
    """team teams squad guild tribe group department committee board infrastructure infra platform
    engineering operations ops reliability sre services support security data council office""".split())


def _is_person(name: str) -> bool:
    """A full name of two or more words, not all of them ordinary English words and none a
    word of a group's name: "Ilse Brandt", not "Payments Infrastructure" or "Monday Morning"."""
    words = name.split()
    return len(words) >= 2 and not ordinary_words(name) and not _GROUP_WORDS.intersection(words)
