"""Dates on the read side (issue 28): the date a page is about, and the period a query names.

A page's date is the document's own (a `date:`-like front-matter key, else the first date its
title or opening states: "Session 3 - 2 April 2025", "# Postmortem ... - September 29, 2025"),
never the memory's write time. A query names a period with a day ("2 April 2025",
"2025-04-02"), a month ("August 2025", "March of 2021", "2025-08"), a quarter or a half ("Q3
2024", "2024-Q3", "the third quarter of 2024", "H1 2025", "first half of 2025") or a year ("in
2024"; not a number of something: "2000 requests", "2048 ms"); `--after` / `--before` take the
same forms. Dates are ISO `YYYY-MM-DD` strings, so periods compare as text.
"""

from __future__ import annotations

import calendar
import re
from typing import Any

from tasks.record_dates import find_date  # (the decision records' date reader)
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
                            rf"(?:\s+(\d{{1,2}})(?:st|nd|rd|th)?,?)?\s+(?:of\s+)?((?:19|20)\d{{2}})\b",
                            re.I)
_YEAR = r"((?:19|20)\d{2})"
_ORDINALS = {"first": 1, "1st": 1, "second": 2, "2nd": 2, "third": 3, "3rd": 3, "fourth": 4,
             "4th": 4, "last": 0}
_ORDINAL_RE = "|".join(_ORDINALS)
# (quarter or half as Q3 / H1 / "third quarter" / "first half", and the year), either order
_PART_OF_YEAR_RES = (
    re.compile(rf"\b([qh])([1-4])(?:\s+of|,)?[\s-]+{_YEAR}\b", re.I),
    re.compile(rf"\b{_YEAR}[\s-]+([qh])([1-4])\b", re.I),
    re.compile(rf"\b({_ORDINAL_RE})\s+(quarter|half)\s+(?:of\s+)?{_YEAR}\b", re.I),
)
_YEAR_RE = re.compile(r"(?<![\w.-])((?:19|20)\d{2})(?![\w-]|\.\d)")
# A four-digit number followed by one of these counts something ("2000 requests"): not a year.
_COUNTED_RE = re.compile(r"\s*(?:%|[kmgt]?b\b|k?hz\b|(?:ms|s|sec|secs|seconds|minutes|hours|"
                         r"bytes|requests|rows|lines|items|users|tokens|words|characters|chars|"
                         r"times|px|points|errors|files|pages|records)\b)", re.I)


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
    return _part_of_year(text) or _year(text)


def _part_of_year(text: str) -> tuple[str, str] | None:
    """A quarter or a half of a year: Q3 2024, 2024-Q3, H1 2025, the third quarter of 2024."""
    for number, pattern in enumerate(_PART_OF_YEAR_RES):
        match = pattern.search(text)
        if match is None:
            continue
        if number == 0:
            kind, part, year = match[1].lower(), int(match[2]), int(match[3])
        elif number == 1:
            year, kind, part = int(match[1]), match[2].lower(), int(match[3])
        else:
            part, kind, year = _ORDINALS[match[1].lower()], match[2][0].lower(), int(match[3])
        months = 3 if kind == "q" else 6
        if match[0].lower().startswith("last"):  # the last quarter, the last half
            part = 12 // months
        if part * months > 12:  # H3, H4, "third half": not a part of a year
            continue
        return (_month_period(year, part * months - months + 1)[0],
                _month_period(year, part * months)[1])
    return None


def _year(text: str) -> tuple[str, str] | None:
    """A year the text names ("in 2024"), not a four-digit count of something ("2000 rows")."""
    for match in _YEAR_RE.finditer(text):
        if not _COUNTED_RE.match(text, match.end()):
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


_FRONT_KEY_RE = re.compile(r"^([\w-]+)[ \t]*:[ \t]*(.+?)[ \t]*$", re.M)


def _front_matter(text: str) -> dict[str, str]:
    """The `key: value` lines of a front-matter block that opens the text: an ingested
    document's own, kept verbatim in its source page's Content section."""
    text = text.lstrip()
    end = text.find("\n---", 3) if text.startswith("---\n") else -1
    return {key.lower(): value.strip("'\"") for key, value in _FRONT_KEY_RE.findall(text[4:end])
            } if end > 0 else {}


def _iso_day(text: str) -> str | None:
    found = find_date(text, None)
    return found if found and len(found) == 10 and found[4] == "-" else None


def page_date(meta: dict[str, Any], title: str, opening: str, content: str = "") -> str | None:
    """The ISO day the page is about: a date key of its front matter or of the front matter its
    verbatim `content` opens with (an ingested document's own), else the first ISO-readable
    date in its title, its opening text or its content's opening (a record's `Date:` line);
    None when it states none."""
    for keys in (meta, _front_matter(opening), _front_matter(content)):
        for key in DATE_KEYS:
            value = keys.get(key)
            if value is not None and (found := _iso_day(str(value))):
                return found
    for text in (title, opening[:OPENING_CHARS], content[:OPENING_CHARS]):
        if found := _iso_day(text):
            return found
    return None
