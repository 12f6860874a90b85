"""What a decision decides about: the technologies, systems and services a record names as the
subject of its decision ("We will use Luxon", "migrating from MongoDB to AWS DocumentDB",
"Chosen option: "Lunr.js"", a title "Use RDS instead of MySQL"). Pure, precision first: only a
name (capitalized words, an acronym, a code span) right after the verb counts; "use a
mechanism", "use one of the following" and "instead of provisioning our own ..." do not.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

USES = "uses"
REPLACES = "replaces"
REJECTS = "rejects"

# One word of a name: Capitalized (Luxon, DocumentDB, Lunr.js, Prettier-ESLint) or an acronym.
_WORD = r"(?:[A-Z][A-Za-z0-9]*(?:[.+-][A-Za-z0-9]+)*)"
# A name ends where the capitalized words end: never a cut "Markdown Architectural Decision".
_NAME = (
    rf"(?:`(?P<{{g}}c>[A-Za-z@][\w./@-]{{{{1,40}}}})`"
    rf"|(?P<{{g}}n>{_WORD}(?:\s+{_WORD}){{{{0,3}}}})"
    r"(?![\w+-]|\.\w|\s+(?!Replacement\b)[A-Z]))"
)
_DET = r"(?:(?:the|a|an)\s+(?:native\s+|standard\s+|managed\s+)?)?"


def _name(group: str) -> str:
    return _NAME.format(g=group)


_PATTERNS: tuple[tuple[re.Pattern[str], tuple[tuple[str, str], ...]], ...] = (
    # "migrating from MongoDB to AWS DocumentDB", "move from X to Y", "switch from X to Y"
    (
        re.compile(
            r"\b(?:migrat\w*|mov\w*|switch\w*)\s+from\s+" + _DET + _name("old")
            + r"\s+to\s+" + _DET + _name("new")
        ),
        (("old", REPLACES), ("new", USES)),
    ),
    # "X Replacement by Y", "replace X with Y", "X replaced by Y"
    (
        re.compile(r"(?:^|\s)" + _name("old") + r"\s+(?:[Rr]eplacement|replaced)\s+(?:by|with)\s+"
                   + _DET + _name("new")),
        (("old", REPLACES), ("new", USES)),
    ),
    (
        re.compile(r"\b[Rr]eplace\s+" + _DET + _name("old") + r"\s+with\s+" + _DET + _name("new")),
        (("old", REPLACES), ("new", USES)),
    ),
    # "We will use X", "we are using X", "we have decided to use X", "Use X for ...",
    # "should use X", "mocked by using X", "we use X"
    (
        re.compile(
            r"(?:^|[.;:]\s+|\b(?i:we|should|shall|will|must|to|by|decided\s+that\s+we)\s+"
            r"(?:(?i:will|shall|are|have\s+decided\s+to|decided\s+to|are\s+going\s+to)\s+)?)"
            r"(?:[Uu]se|[Uu]sing|[Aa]dopt|[Aa]dopting)\s+" + _DET + _name("new")
            + r"(?:\s+instead\s+of\s+" + _DET + _name("old") + r")?"
        ),
        (("new", USES), ("old", REJECTS)),
    ),
    # "X is the preferred library"
    (
        re.compile(r"(?:^|[.;:]\s+)" + _name("new") + r"\s+is\s+the\s+preferred\b"),
        (("new", USES),),
    ),
    # Chosen option: "Lunr.js" (MADR), an "Option 2:" label dropped
    (
        re.compile(r"\bChosen option:\s*\"(?:Option\s+\d+:\s*)?" + _name("new") + r"\""),
        (("new", USES),),
    ),
)
# Words that start a capitalized phrase but name no technology.
_NOT_NAMES = frozenset(
    """we i it this that these those they our all any each every one some option options
    the a an in on for to of and or if when while as at by from with new old current""".split()
)


@dataclass(frozen=True, slots=True)
class DecisionSubject:
    name: str
    relation_type: str  # uses | replaces | rejects


def decision_subjects(text: str) -> list[DecisionSubject]:
    """The named subjects of one decision text (or title), in order of appearance, once each."""
    found: list[tuple[int, DecisionSubject]] = []
    for pattern, roles in _PATTERNS:
        for match in pattern.finditer(text):
            for group, relation_type in roles:
                name = match.group(f"{group}c") or match.group(f"{group}n")
                name = _clean(name)
                if name:
                    start = match.start(f"{group}c") if match.group(f"{group}c") else match.start(
                        f"{group}n"
                    )
                    found.append((start, DecisionSubject(name, relation_type)))
    seen: set[str] = set()
    subjects: list[DecisionSubject] = []
    for _, subject in sorted(found, key=lambda item: item[0]):
        if subject.name.lower() not in seen:
            seen.add(subject.name.lower())
            subjects.append(subject)
    return subjects


def _clean(name: str | None) -> str | None:
    if not name:
        return None
    name = name.strip().rstrip(".,;:")
    if name.split()[0].lower() in _NOT_NAMES or len(name) < 2:
        return None
    if re.fullmatch(r"ADR[\s-]*\d*", name, re.I):
        return None
    return name
