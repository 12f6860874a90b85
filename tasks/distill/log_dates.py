"""Numeric record dates that read both ways (`05/02/2018`), settled per decision log.

A record's own dates settle its reading (tasks/extract/record_dates.py); when they do not, the
other records of the same log (its folder) do: a log where any record writes a date whose first
number is over 12 (`26/03/2018`) is day-first, one where a second number is over 12 is
month-first. A log whose records give no evidence (or contradict each other) keeps the dates as
written, and distill says so in a warning. Pure: it rewrites the extractions' date observations.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from tasks.distill.record_graph import record_log
from tasks.extract import Extraction
from tasks.record_dates import find_date

_DATE_PREFIX = "Date: "
_AMBIGUOUS_RE = re.compile(r"\d{1,2}[/.-]\d{1,2}[/.-](?:\d{4}|\d{2})")


def settle_log_dates(extractions: Sequence[Extraction]) -> list[str]:
    """Rewrite each record's ambiguous date from its log's evidence; the warnings of logs
    whose evidence settles nothing."""
    logs: dict[str, list[Extraction]] = {}
    for extraction in extractions:
        if extraction.is_decision_record:
            logs.setdefault(record_log(extraction.source), []).append(extraction)
    warnings: list[str] = []
    for log, records in sorted(logs.items()):
        ambiguous = [(record, index) for record in records
                     for index, fact in enumerate(record.observations)
                     if fact.kind == "date" and _AMBIGUOUS_RE.fullmatch(fact.text.removeprefix(_DATE_PREFIX))]
        if not ambiguous:
            continue
        hints = {record.day_first for record in records if record.day_first is not None}
        if len(hints) != 1:
            example = ambiguous[0][0].observations[ambiguous[0][1]].text.removeprefix(_DATE_PREFIX)
            warnings.append(
                f"{log or '.'}: {len(ambiguous)} record date(s) such as {example!r} read both day-first "
                "and month-first, and no date of the log settles which: kept as written")
            continue
        day_first = hints.pop()
        for record, index in ambiguous:
            fact = record.observations[index]
            found = find_date(fact.text.removeprefix(_DATE_PREFIX), day_first)
            if found:
                record.observations[index] = replace(fact, text=f"{_DATE_PREFIX}{found}")
    return warnings
