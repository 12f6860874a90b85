"""A stated status as the `Status: ...` observation records it (pure): the status itself, with
the text as written kept beside it when that says more.

A status field often carries when and by whom it was reached: "Accepted (2025-03-12)",
"Decided, 2025-04-09.", "accepted on September 1, 2026", "Accepted (expires 2025-12-31)",
"Recommendation accepted by the programme board on March 17th, 2025", or a list of the steps a
record went through, the last one current ("Proposed (2021-09-02); Accepted (2021-10-01)", as
the ADRs that record "each status, along with the date it came into force" write it). The
status is the words up to the status word; the rest is kept as written:
`Status: Accepted (written "Accepted (2025-03-12)")`. A clause that says more than when or by
whom ("Final, reviewed at the weekly on 2025-03-18", "Approved with conditions") is part of the
status and stays. A replacement named by its number and its title ("Replaced by CEP-0014: FHIR
Subscriptions for result notification") is named by its number.
"""

from __future__ import annotations

import re

from tasks.extract.model import ObservationFact
from tasks.extract.text import shorten
from tasks.record_dates import find_date

# The words a status ends with (genre_meta.STATUS_WORDS and the words of approval that records
# and pages use); "superseded" / "replaced" are followed by what replaced them, never cut there.
_STATUS_WORDS = (
    "implemented", "implementable", "accepted", "approved", "final", "active", "rejected", "declined",
    "withdrawn", "deferred", "postponed", "deprecated", "obsolete", "abandoned", "proposed",
    "provisional", "draft", "in review", "under review", "resolved", "closed", "open", "completed",
    "complete", "done", "decided", "agreed", "adopted", "ratified", "published", "endorsed",
    "mitigated", "merged", "shipped", "retired", "archived",
)
_LEADING_STATUS_RE = re.compile(
    r"^(?P<status>(?:[A-Za-z-]{1,20}\s){0,2}?(?:" + "|".join(_STATUS_WORDS) + r"))\b(?P<rest>.*)$", re.I)
# A date-only remainder: ", 2025-04-09.", " on 3 May 2021", " - since 2024-01-10".
_DATE_CLAUSE_RE = re.compile(
    r"^[\s,;:–—-]{0,4}(?:(?:on|since|as\s+of|effective|from|in)\s+)?(?P<date>[\w ,/.-]{4,40}?)[\s.]*$", re.I)
# An aside in brackets at the end: "(2025-03-12)", "(expires 2025-12-31)", "(see below)".
_ASIDE_RE = re.compile(r"^\s*\((?P<aside>[^()]{1,80})\)[\s.;,]*(?P<after>.*)$")
# Who reached it, and when: " by the programme board on March 17th, 2025", " by user (2026-08-28)".
_BY_RE = re.compile(r"^\s+by\s+(?P<who>[^()\d\[\]]{2,60}?)\s*(?:\bon\s+|\()(?P<date>[^()]{4,40})\)?", re.I)
# A status list's steps ("Proposed (2021-09-02); Accepted (2021-10-01)").
_STEP_SPLIT_RE = re.compile(r"\s*;\s*")
# "Replaced by CEP-0014: FHIR Subscriptions ..." (a link's text: the record's number and title).
_REPLACED_BY_RE = re.compile(
    r"^(?P<head>(?:superseded|replaced|obsoleted)\s+by\s+\[?(?P<id>[A-Z][A-Za-z]{0,9}[- ]?\d{1,5}))"
    r"(?:\s*:|\s+[-–—])\s+\S", re.I)
# The next field of the same line ("accepted (2026-08-09). Scope: events.").
_NEXT_FIELD_RE = re.compile(r"\.\s+(?=[A-Z][A-Za-z ]{1,25}:\s)")
_NOT_CUT_BY = ("superseded", "replaced", "obsolete", "deprecated")


def status_observation(value: str, start: int, end: int) -> ObservationFact:
    """The `Status:` observation of a status as written on lines `start`-`end`."""
    written = " ".join(value.split())
    status = normalised_status(written)
    text = f"Status: {shorten(status, 200)}"
    if status != written:
        text += f' (written "{shorten(written, 160)}")'
    return ObservationFact(text, start, end, "status")


def normalised_status(written: str) -> str:
    """The status a stated status text names (see the module's docstring); the text itself when
    it is all status."""
    text = _NEXT_FIELD_RE.split(written, maxsplit=1)[0].strip()
    steps = [step for step in _STEP_SPLIT_RE.split(text) if step]
    if len(steps) > 1 and all(_LEADING_STATUS_RE.match(step) for step in steps):
        text = steps[-1]  # the last step a record went through is its status
    replaced = _REPLACED_BY_RE.match(text)
    if replaced:
        return replaced["head"].replace("[", "")
    leading = _LEADING_STATUS_RE.match(text)
    if leading is None:
        return text
    status, rest = leading["status"], leading["rest"]
    if not rest.strip(" .") or _is_qualifier(status, rest):
        return status
    return text


def _is_qualifier(status: str, rest: str) -> bool:
    """`rest` only says when (or by whom and when) `status` was reached."""
    aside = _ASIDE_RE.match(rest)
    if aside:
        said = aside["aside"].strip().lower()
        return not aside["after"].strip() and (said.startswith("see ") or find_date(said, None) is not None
                                               or _has_month_date(said))
    date_clause = _DATE_CLAUSE_RE.match(rest)
    if date_clause and (find_date(date_clause["date"], None) or _has_month_date(date_clause["date"])):
        return _only_date(date_clause["date"])
    by = _BY_RE.match(rest)
    return bool(by and not status.lower().endswith(_NOT_CUT_BY)
                and (find_date(by["date"], None) or _has_month_date(by["date"])))


_MONTH_DATE_RE = re.compile(r"\b(?:19|20)\d{2}-\d{2}\b")
_DATE_WORDS_RE = re.compile(
    r"^(?:\d{1,4}(?:st|nd|rd|th)?|of|jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?"
    r"|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?"
    r"|mon|tue|wed|thu|fri|sat|sun|[a-z]+day|\d{4}[-/.]\d{1,2}(?:[-/.]\d{1,2})?|\d{1,2}[/.-]\d{1,2}[/.-]\d{2,4})\.?$",
    re.I)


def _has_month_date(text: str) -> bool:
    return _MONTH_DATE_RE.search(text) is not None


def _only_date(text: str) -> bool:
    """Every word of `text` is a word of a date ("March 17th, 2025", "Tue 3 Mar 2026")."""
    words = [word.strip(",") for word in text.split()]
    return bool(words) and all(_DATE_WORDS_RE.match(word) for word in words if word)
