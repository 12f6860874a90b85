"""Dates as decision records write them, to ISO `YYYY-MM-DD` (pure; never invents a date).

Forms: `2017-06-30`, `2017/06/30`, `20170630` only where a date field states it, `30/06/2017`,
`30.06.2017` (dots: day first unless the record's other dates say otherwise), `30-06-2017`,
`30 June 2017`, `30th of June, 2017`, `June 30, 2017`, `Jun 30 2017`, `Jun 30 '17`.
A numeric `a/b/yyyy` date is read day-first or month-first from the record's own other dates
(one with a part over 12 settles the order); when nothing settles it and both readings are
possible, the date is kept as written (`05/03/2021`), not guessed.

Read by the extractors (tasks/extract), distill's log dates and the search index's page dates:
a module of its own below all of them, so an index update dates its pages without importing
tasks.extract (whose package loads every extractor and compiles ~300 regexes: ~0.2-0.3 s).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from datetime import date
from functools import lru_cache

_MONTHS = {
    name: number
    for number, names in enumerate(
        (
            ("january", "jan"),
            ("february", "feb"),
            ("march", "mar"),
            ("april", "apr"),
            ("may",),
            ("june", "jun"),
            ("july", "jul"),
            ("august", "aug"),
            ("september", "sep", "sept"),
            ("october", "oct"),
            ("november", "nov"),
            ("december", "dec"),
        ),
        start=1,
    )
    for name in names
}
# A month's name or its abbreviation as prose writes it (case-insensitive patterns use it).
MONTH_NAME = (r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?"
              r"|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)")


def month_number(name: str) -> int:
    """1-12 for a month's name or abbreviation as MONTH_NAME matches it ("Sept", "march")."""
    return _MONTHS[name.lower()]


_MONTH = r"(?P<month>" + "|".join(sorted(_MONTHS, key=len, reverse=True)) + r")\.?"
_ORD = r"(?:st|nd|rd|th)?"
_DATE_RE = re.compile(
    r"(?<![\w/.-])(?:"
    r"(?P<iy>\d{4})[-/.](?P<im>\d{1,2})[-/.](?P<id>\d{1,2})"
    r"|(?P<na>\d{1,2})[/.-](?P<nb>\d{1,2})[/.-](?P<ny>\d{4})"
    r"|(?P<sa>\d{1,2})/(?P<sb>\d{1,2})/(?P<sy>\d{2})"
    r"|(?P<dd>\d{1,2})" + _ORD + r"(?:\s+of)?\s+" + _MONTH + r",?\s+(?:(?P<dy>\d{4})|['’](?P<dy2>\d{2}))"
    r"|" + _MONTH.replace("month", "month2") + r"\s+(?P<md>\d{1,2})" + _ORD
    + r",?\s+(?:(?P<my>\d{4})|['’](?P<my2>\d{2}))"
    r")(?![\w/]|[.-]\d)",
    re.I,
)
# Every numeric `a/b/yyyy` or `a/b/yy` date has a digit, a separator and a digit: a text without
# one has none, and the date regex (slow: it tries every position) is not run over it.
_NUMERIC_HINT_RE = re.compile(r"\d[-/.]\d")
_COMPACT_RE = re.compile(r"^(?P<y>(?:19|20)\d{2})(?P<m>\d{2})(?P<d>\d{2})$")


def _iso(year: int, month: int, day: int) -> str | None:
    try:
        return date(year, month, day).isoformat()
    except ValueError:
        return None


def day_first_hint(texts: Iterable[str]) -> bool | None:
    """True when the record's numeric dates are day-first, False month-first, None unknown."""
    return _day_first(tuple(texts))


# Pure: a document's lines are asked twice (its record date, then its genre's or its record's
# facts); the answer for the lines asked last is remembered (a tuple of lines hashes at C speed).
@lru_cache(maxsize=8)
def _day_first(texts: tuple[str, ...]) -> bool | None:
    for finder in (_stated_order, _day_first_of_dates, _day_first_of_days):
        found = finder(texts)
        if found is not None:
            return found
    return None


# The order a page states for its dates ("Dates are DD/MM/YY.", "date format: MM/DD/YYYY"): the
# pattern itself, in capitals as templates write it.
_STATED_ORDER_RE = re.compile(r"(?<![\w/])(?:(?P<day>DD[/.-]MM)|MM[/.-]DD)(?:[/.-](?:YY){1,2})?(?![\w/])")


def _stated_order(texts: tuple[str, ...]) -> bool | None:
    for text in texts:
        if "DD" in text:
            match = _STATED_ORDER_RE.search(text)
            if match is not None:
                return match["day"] is not None
    return None


# A day and month written without a year, the month zero-padded ("recomputed 23/08 to 02/09",
# "08/23"): a date, not a ratio or a fraction ("24/7", "50/50", "3/4"); evidence of the order
# when no full date gives any.
_DAY_MONTH_RE = re.compile(r"(?<![\w/.:-])(?:(?P<day>1[3-9]|2\d|3[01])/(?P<month>0[1-9])"
                           r"|(?P<month_first>0[1-9])/(?P<late>1[3-9]|2\d|3[01]))(?![\w/.:%-])")


def _day_first_of_days(texts: tuple[str, ...]) -> bool | None:
    for text in texts:
        if "/" not in text:
            continue
        match = _DAY_MONTH_RE.search(text)
        if match is not None:
            return match["day"] is not None
    return None


def _day_first_of_dates(texts: tuple[str, ...]) -> bool | None:
    for text in texts:
        if not _NUMERIC_HINT_RE.search(text):
            continue
        for match in _DATE_RE.finditer(text):
            parts = _numeric_parts(match)
            if parts is None:
                continue
            first, second, year = parts
            if first > 12 >= second:
                return True
            if second > 12 >= first:
                return False
            named = _named_weekday(text, match)
            if named is not None and first != second:
                as_day_first = _weekday(year, second, first) == named
                if as_day_first != (_weekday(year, first, second) == named):
                    return as_day_first  # "04/11/2025 (Tuesday)": only 4 November is a Tuesday
    return None


_WEEKDAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")
_WEEKDAY_RE = re.compile(r"\b(mon|tue|wed|thu|fri|sat|sun)[a-z]*\b", re.I)
_WEEKDAY_REACH = 14  # characters either side of a date where its weekday is written


def _named_weekday(text: str, match: re.Match[str]) -> int | None:
    """The weekday written right beside a date ("Tuesday 04/11/2025", "04/11/2025 (Tue)")."""
    before = text[max(0, match.start() - _WEEKDAY_REACH) : match.start()]
    after = text[match.end() : match.end() + _WEEKDAY_REACH]
    found = [*_WEEKDAY_RE.finditer(before)][-1:] or [*_WEEKDAY_RE.finditer(after)][:1]
    return _WEEKDAYS.index(found[0].group(1).lower()) if found else None


def _weekday(year: int, month: int, day: int) -> int | None:
    try:
        return date(year, month, day).weekday()
    except ValueError:
        return None


def find_date(text: str, day_first: bool | None, *, compact: bool = False) -> str | None:
    """The first date stated in `text`: ISO when its reading is certain, else as written."""
    if compact:
        match = _COMPACT_RE.match(text.strip())
        if match:
            return _iso(int(match["y"]), int(match["m"]), int(match["d"]))
    for match in _DATE_RE.finditer(text):
        found = _read(match, day_first)
        if found:
            return found
    return None


def _numeric_parts(match: re.Match[str]) -> tuple[int, int, int] | None:
    """(first, second, year) of a numeric `a/b/yyyy` or `a/b/yy` date (`10/04/18`: 2018; a
    two-digit year over 69 is of the 1900s)."""
    if match.group("na"):
        return int(match["na"]), int(match["nb"]), int(match["ny"])
    if match.group("sa"):
        year = int(match["sy"])
        return int(match["sa"]), int(match["sb"]), year + (1900 if year > 69 else 2000)
    return None


def _read(match: re.Match[str], day_first: bool | None) -> str | None:
    if match.group("iy"):
        return _iso(int(match["iy"]), int(match["im"]), int(match["id"]))
    parts = _numeric_parts(match)
    if parts is not None:
        first, second, year = parts
        if day_first is None and "." in match.group(0):
            day_first = True  # dots are written day-first wherever they are used ("09.03.2026")
        if first > 12 or (day_first and second <= 12):
            return _iso(year, second, first)
        if second > 12 or day_first is False:
            return _iso(year, first, second)
        if first == second:
            return _iso(year, first, second)
        return match.group(0) if _iso(year, first, second) else None  # both readings possible
    if match.group("dd"):
        return _iso(_year(match["dy"], match["dy2"]), _MONTHS[match["month"].lower()], int(match["dd"]))
    return _iso(_year(match["my"], match["my2"]), _MONTHS[match["month2"].lower()], int(match["md"]))


def _year(full: str | None, elided: str | None) -> int:
    """A year as written in full, or with its century elided after an apostrophe ("Mar 3 '26":
    the month's name leaves no doubt which part is the year; always of the 2000s)."""
    return int(full) if full else 2000 + int(elided or 0)
