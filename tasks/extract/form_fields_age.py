"""A day a page's stamp gives as an age, read against the day of the export that printed it (pure).

Wikis and docs sites print a page's last change as an age ("Last updated 4 days ago", GitBook's
and Confluence's footers); their exports stamp the day they were made on the same line
("· Exported from GitBook on 24 Nov 2026", "Printed on 3 March 2026"). The age counted back from
that day is the day of the change; an age with no such day beside it dates nothing.
"""

from __future__ import annotations

import re
from datetime import date, timedelta

from tasks.extract.text import plain_text
from tasks.record_dates import find_date

# An age in days or weeks ("4 days ago", "a week ago", "yesterday").
_AGE_RE = re.compile(
    r"\b(?:(?P<count>\d{1,3}|an?|one|two|three|four|five|six)\s+(?P<unit>day|week)s?\s+ago|(?P<yesterday>yesterday))\b",
    re.I)
_WORD_COUNTS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6}
# The stamp of the export the page was printed by, and the clause that holds its day.
_STAMP_RE = re.compile(r"\b(?:exported|printed|generated|downloaded|saved)\b(?P<clause>[^·|;]{0,80})", re.I)
_WHOLE_DAY_RE = re.compile(r"^\d{4}-\d{2}-\d{2}$")


def aged_day(clause: str, line: str, day_first: bool | None = None) -> tuple[str, str] | None:
    """The ISO day an age in `clause` ("4 days ago") stands for, counted back from the export day
    stamped on `line`, and the words it was read from; None without both."""
    age = _AGE_RE.search(clause)
    stamp = _STAMP_RE.search(line) if age else None
    exported = find_date(stamp["clause"], day_first) if stamp else None
    if age is None or stamp is None or exported is None or not _WHOLE_DAY_RE.match(exported):
        return None
    if age["yesterday"]:
        days = 1
    else:
        count = age["count"].lower()
        weeks = age["unit"].lower() == "week"
        days = (int(count) if count.isdigit() else _WORD_COUNTS[count]) * (7 if weeks else 1)
    day = date.fromisoformat(exported) - timedelta(days=days)
    return day.isoformat(), f"{age.group(0)}, {plain_text(stamp.group(0)).strip()}"
