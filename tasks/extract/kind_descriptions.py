"""System phrases that only say what kind of thing a named system is (prec71, issue 23 item 4,
entity precision): "Conveyor, our job runner,", "the back-office tool, Backstage",
"LegalEye, a stateless legality service", "OHIP, Oracle's integration platform", "FindIt is
the library's discovery service", "Atlas (the new metrics layer)". The name is the subject
(tasks/extract/subject_marks.py's appositive_names reads it); the phrase describes it and is
no system of its own. Pure.
"""

from __future__ import annotations

import re
from functools import lru_cache

from tasks.extract.ordinary_words import common_word

# A name: a capitalized word ("Conveyor", "LaunchDarkly", "OHIP") or a code span (`shipit`);
# a common word capitalized ("However, the parser ...", "It is the search service") is none.
_NAME = r"(?P<{}>[A-Z][\w.-]*[A-Za-z0-9]|`[^`\s]+`)"
# What opens the kind: an article or a possessive ("our", "Oracle's", "the library's").
_OPENER = r"(?:[Oo]ur|[Tt]he|[Aa]n?|[Ii]ts|[Tt]heir|[A-Za-z][\w-]*['’]s)"
# Up to two words before the kind's own words ("a stateless legality service", "the library's").
_BETWEEN = r"(?:[\w'’-]+\s+){0,2}?"
# Where an appositive after the name ends: a comma, a dash, the clause's end, a relative clause.
_CLOSE = r"(?=\s*(?:[,;:]|—|--|\.(?:\s|$)|$|\s(?:that|which|who)\b))"


@lru_cache(maxsize=512)
def _patterns(phrase: str) -> tuple[re.Pattern[str], re.Pattern[str]]:
    """The phrase alone, and the shapes that write it as the kind of a name: after the name and
    a comma ("Conveyor, our job runner,") or "is" ("FindIt is the library's discovery
    service"), before a comma and the name ("the back-office tool, Backstage."), or in brackets
    after the name ("Atlas (the new metrics layer)"). Not a name in brackets after the kind:
    "the dispatch database (PostgreSQL)" names what the database runs on, not the database."""
    kind = r"(?i:" + r"\s+".join(map(re.escape, phrase.split())) + ")"
    alone = re.compile(rf"(?<![\w-]){kind}(?![\w-])")
    described = re.compile(
        rf"{_NAME.format('n1')},\s+{_OPENER}\s+{_BETWEEN}(?P<k1>{kind}){_CLOSE}"
        rf"|{_NAME.format('n2')}\s+(?:is|was|remains|becomes)\s+{_OPENER}\s+{_BETWEEN}(?P<k2>{kind})(?![\w-])"
        rf"|(?<![\w-])(?P<k3>{kind}),\s+{_NAME.format('n3')}{_CLOSE}"
        rf"|{_NAME.format('n5')}\s+\({_OPENER}\s+{_BETWEEN}(?P<k5>{kind})\)")
    return alone, described


def only_describes_a_name(phrase: str, lines: list[str]) -> bool:
    """Is every mention of a system `phrase` in `lines` the kind of a name the sentence gives,
    never the system itself (a mention wrapped across a line break is read as the system)?"""
    alone, described = _patterns(phrase)
    found = False
    for line in lines:
        spans = {match.span() for match in alone.finditer(line)}
        if not spans:
            continue
        kinds = {match.span(f"k{i}") for match in described.finditer(line) for i in (1, 2, 3, 5)
                 if match.group(f"k{i}") and not common_word(match.group(f"n{i}").strip("`"))}
        if spans - kinds:
            return False  # written as the system itself
        found = True
    return found
