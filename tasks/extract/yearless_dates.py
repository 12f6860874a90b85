"""A day written without its year ("Tue 17 Mar", "on the 3rd of March"), dated by the year of
the document's own full dates (pure; never guessed without one).

Minutes titled by their weekday ("Architecture forum — Tue 17 Mar") and write-ups that open
with "On the 3rd of March" leave the year to the rest of the page: a `Previous minutes:
2026-03-03` line, a `Written 2024-03-08` byline, the file name, else a year its title names
alone ("# Incident review 2026" over "Date: 9 February"). The day is read in the year
that puts it nearest that anchor (a December day beside a January anchor is of the year
before); a weekday written beside it must agree, else nothing is read.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from datetime import date

from tasks.record_dates import MONTH_NAME, month_number

_MONTH = rf"(?P<month>{MONTH_NAME})\.?"
_WEEKDAY = r"(?:(?P<weekday>mon|tue|wed|thu|fri|sat|sun)[a-z]*+\.?,?\s++)?"
# "Tue 17 Mar", "17th of March", "the 3rd of March", "Tuesday, March 17", "March 17th"; no
# year after it (a year would make it a whole date, read elsewhere).
_YEARLESS_RE = re.compile(
    rf"(?<![\w.,/:-]){_WEEKDAY}(?:the\s++)?(?:(?P<day>\d{{1,2}})(?:st|nd|rd|th)?\s++(?:of\s++)?{_MONTH}"
    rf"|{_MONTH.replace('month', 'month2')}\s++(?P<day2>\d{{1,2}})(?:st|nd|rd|th)?)"
    r"(?![\w/-]|,?\s*+(?:19|20)\d{2}|\s*+\d)",
    re.I)
_ANCHOR_RE = re.compile(r"(?<![\w/.-])((?:19|20)\d{2})-(\d{2})-(\d{2})(?![\w/]|[.-]\d)")
_WEEKDAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")


def anchor_date(texts: Iterable[str]) -> date | None:
    """The first whole ISO date among `texts` (a document's fields, lines, file name)."""
    for text in texts:
        if "-" not in text:  # a literal gate: an ISO date has its dashes
            continue
        for match in _ANCHOR_RE.finditer(text):
            try:
                return date(int(match[1]), int(match[2]), int(match[3]))
            except ValueError:
                continue
    return None


# A year written alone in a title ("Incident review 2026: Northgate telemetry loss", "Offsite 2026").
_TITLE_YEAR_RE = re.compile(r"(?<![\w/.:'’-])((?:19|20)\d{2})(?![\w/.'’-]|:\d)")


def title_year(title: str) -> date | None:
    """The middle of the one year a title names alone, as an anchor: a day of that year is
    nearer it than the same day of the year before or after."""
    years = {match[1] for match in _TITLE_YEAR_RE.finditer(title)}
    return date(int(years.pop()), 7, 2) if len(years) == 1 else None


# A month and its year with no day ("_Elm Prairie location, April 2026._", a debrief's byline);
# not the month of a whole date ("Tue 15 Sep 2026", "3rd of March 2026").
_MONTH_YEAR_RE = re.compile(
    rf"(?<![\w.,/:-])(?<!\d\s)(?<!\d(?:st|nd|rd|th)\s)(?<!of\s){_MONTH}\s++((?:19|20)\d{{2}})"
    r"(?![\w/'’-]|[.:]\d)", re.I)


def month_year(texts: Iterable[str]) -> date | None:
    """The middle of the one month its year that `texts` (a page's opening lines) name without
    a day, as an anchor: a day written without its year in the story ("On Tue 7 Apr") is of
    that year. None when they name no such month or more than one."""
    found = {(month_number(m["month"]), int(m[2])) for text in texts if "20" in text or "19" in text
             for m in _MONTH_YEAR_RE.finditer(text) if m["month"][0].isupper()}
    if len(found) != 1:
        return None
    month, year = found.pop()
    return date(year, month, 15)


def yearless_date(text: str, anchor: date | None, *, at_start: bool = False) -> tuple[str, str] | None:
    """(ISO date, the words as written) of the first day `text` writes without its year (with
    `at_start`, only one that opens `text`), read in the year nearest `anchor`; None without an
    anchor or when a written weekday disagrees."""
    if anchor is None:
        return None
    opening = _YEARLESS_RE.match(text) if at_start else None
    matches = ([opening] if opening else []) if at_start else _YEARLESS_RE.finditer(text)
    for match in matches:
        if not (match["month"] or match["month2"])[0].isupper():
            continue  # "step 3 may fail": a month's name is written with its capital
        month = month_number(match["month"] or match["month2"])
        day = int(match["day"] or match["day2"])
        candidates = []
        for year in (anchor.year - 1, anchor.year, anchor.year + 1):
            try:
                candidates.append(date(year, month, day))
            except ValueError:
                continue
        if not candidates:
            continue
        found = min(candidates, key=lambda d: abs((d - anchor).days))
        if match["weekday"] and _WEEKDAYS.index(match["weekday"][:3].lower()) != found.weekday():
            return None  # the weekday says another year: not read
        return found.isoformat(), match.group(0).strip()
    return None
