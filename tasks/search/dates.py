"""Dates on the read side (issue 28): the date a page is about, and the period a query names.

A page's date is the document's own (a `date:`-like front-matter key, else the first date its
title or opening states: "Session 3 - 2 April 2025", "# Postmortem ... - September 29, 2025"),
never the memory's write time. A query names a period with a day ("2 April 2025",
"2025-04-02"), a month ("August 2025", "2025-08") or a year ("in 2024"); `--after` / `--before`
take the same forms. Dates are ISO `YYYY-MM-DD` strings, so periods compare as text.
"""

from __future__ import annotations

import calendar
import re
from typing import Any

from tasks.store.errors import InputError

# Front-matter keys that state the document's date, most specific first.
DATE_KEYS = ("date", "incident_date", "incident-date", "meeting_date", "created", "creation-date",
             "created_date", "start-date", "last-updated", "last_updated")
OPENING_CHARS = 400  # how far into a page its stated date is looked for
_MONTHS = ("january february march april may june july august september october november "
           "december").split()
_MONTH_RE = "|".join([*_MONTHS, *(m[:3] for m in _MONTHS), "sept"])
_DAY_RE = re.compile(r"\b(\d{4})-(\d{2})-(\d{2})\b")
_YEAR_MONTH_RE = re.compile(r"\b(\d{4})-(\d{2})\b(?!-\d)")
_PART_RE = re.compile(rf"\b(early|mid|middle of|late|end of)[\s-]+(?:{_MONTH_RE})\b", re.I)
_PART_DAYS = {"early": (1, 10), "mid": (11, 20), "middle of": (11, 20), "late": (21, 31),
              "end of": (21, 31)}
_MONTH_YEAR_RE = re.compile(rf"\b(?:(\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?)?({_MONTH_RE})\.?"
                            rf"(?:\s+(\d{{1,2}})(?:st|nd|rd|th)?,?)?\s+((?:19|20)\d{{2}})\b", re.I)
_YEAR_RE = re.compile(r"(?<![\w.-])((?:19|20)\d{2})(?![\w-]|\.\d)")


def _month_number(name: str) -> int:
    name = name.lower()
    return 9 if name == "sept" else next(i for i, m in enumerate(_MONTHS, 1) if m.startswith(name[:3]))


def _month_period(year: int, month: int) -> tuple[str, str]:
    last = calendar.monthrange(year, month)[1]
    return f"{year:04d}-{month:02d}-01", f"{year:04d}-{month:02d}-{last:02d}"


def _valid_day(year: int, month: int, day: int) -> str | None:
    if not 1 <= month <= 12 or not 1 <= day <= calendar.monthrange(year, month)[1]:
        return None
    return f"{year:04d}-{month:02d}-{day:02d}"


def query_period(text: str) -> tuple[str, str] | None:
    """The period (first day, last day) the text names, the most precise first; None if none."""
    match = _DAY_RE.search(text)
    if match and (day := _valid_day(int(match[1]), int(match[2]), int(match[3]))):
        return day, day
    match = _MONTH_YEAR_RE.search(text)
    if match:
        year, month = int(match[4]), _month_number(match[2])
        day_text = match[1] or match[3]
        if day_text and (day := _valid_day(year, month, int(day_text))):
            return day, day
        first, last = _month_period(year, month)
        part = _PART_RE.search(text[:match.end()])
        if part:  # early / mid / late in the month: its first, second or last ten days
            start, end = _PART_DAYS[part[1].lower()]
            return first[:8] + f"{start:02d}", min(last, first[:8] + f"{end:02d}")
        return first, last
    match = _YEAR_MONTH_RE.search(text)
    if match and 1 <= int(match[2]) <= 12:
        return _month_period(int(match[1]), int(match[2]))
    match = _YEAR_RE.search(text)
    if match:
        return f"{match[1]}-01-01", f"{match[1]}-12-31"
    return None


def date_bound(text: str, option: str, *, end: bool) -> str:
    """`--after` / `--before` as an ISO day: the first day of the period it names, or with
    `end` its last; an InputError naming the option for anything else."""
    period = query_period(text.strip()) if text.strip() else None
    if period is None or len(text.strip()) > 30:
        raise InputError(f"{option} takes a date such as 2025-04-02, 2025-04 or 2025, not {text!r}",
                         hint="write the day, month or year the results may fall in")
    return period[1] if end else period[0]


def page_date(meta: dict[str, Any], title: str, opening: str) -> str | None:
    """The ISO day the page is about: a date front-matter key, else the first ISO-readable
    date in its title or opening text; None when it states none."""
    # Lazy for start-up: tasks.extract loads all its extractors; a query never dates pages.
    from tasks.extract.record_dates import find_date  # (the decision records' date reader)

    for key in DATE_KEYS:
        value = meta.get(key)
        if value is not None and (found := find_date(str(value), None)) and len(found) == 10 \
                and found[4] == "-":
            return found
    for text in (title, opening[:OPENING_CHARS]):
        found = find_date(text, None)
        if found and len(found) == 10 and found[4] == "-":
            return found
    return None
