"""Numeric dates that read both ways (`05/02/2018`), settled per folder.

A document's own dates settle its reading (tasks/record_dates.py); when they do not, the other
documents of the same folder do (a decision log's records, a team's postmortems or runbooks): a
folder where any document writes a date whose first number is over 12 (`26/03/2018`) is
day-first, one where a second number is over 12 is month-first. A folder whose documents give no
evidence (or contradict each other) is settled by the nearest folder above it whose documents
all agree (a team's `docs/architecture/` page by the day-first postmortems of `docs/postmortems/`:
one tree, one team's way of writing dates), never by the memory's root alone (folders ingested
side by side may be anyone's); a folder still unsettled settles each of its pages by how the page
spells (tasks/distill/date_spelling.py: British spelling writes the day first), and keeps the
dates of a page that says nothing either way as written, which distill says in a warning. Pure:
it rewrites the extractions' date observations (`Date: 05/02/2018`, `Review date: 03/02/2025
(written "03/02/2025 by R. Menon")`).
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Sequence
from dataclasses import replace

from tasks.distill.date_spelling import spelling_day_first
from tasks.distill.record_graph import record_log
from tasks.extract import Extraction
from tasks.record_dates import find_date

_AMBIGUOUS_RE = re.compile(
    r"(?P<label>[A-Z][A-Za-z ]{0,30}): (?P<date>\d{1,2}[/.-]\d{1,2}[/.-](?:\d{4}|\d{2}))"
    r"(?P<rest> \(written .*)?", re.S)


def settle_log_dates(extractions: Sequence[Extraction]) -> list[str]:
    """Rewrite each document's ambiguous dates from its folder's evidence; the warnings of
    folders whose evidence settles nothing."""
    folders: dict[str, list[Extraction]] = {}
    for extraction in extractions:
        folders.setdefault(record_log(extraction.source), []).append(extraction)
    warnings: list[str] = []
    for folder, documents in sorted(folders.items()):
        ambiguous = [(document, index, found) for document in documents
                     for index, fact in enumerate(document.observations)
                     if fact.kind == "date" and (found := _AMBIGUOUS_RE.fullmatch(fact.text))]
        if not ambiguous:
            continue
        hints = _hints(folder, folders)
        if len(hints) == 1:
            _settle(ambiguous, hints.pop())
            continue
        spelled = {id(document): spelling_day_first(text for _, text in document.prose)
                   for document, _, _ in ambiguous}
        for day_first in (True, False):  # each page its own reading: folders side by side disagree
            _settle([one for one in ambiguous if spelled[id(one[0])] is day_first], day_first, guessed=True)
        left = [one for one in ambiguous if spelled[id(one[0])] is None]
        if left:
            warnings.append(
                f"{folder or '.'}: {len(left)} date(s) such as {left[0][2]['date']!r} read both "
                "day-first and month-first, and no date of the folder settles which: kept as written")
    return warnings


def _settle(ambiguous: Sequence[tuple[Extraction, int, re.Match[str]]], day_first: bool, *,
            guessed: bool = False) -> None:
    """Rewrite each date in the order given; one read from the page's spelling (`guessed`)
    keeps the text as written beside it, so a reader sees what was read."""
    for document, index, found in ambiguous:
        settled = find_date(found["date"], day_first)
        if settled:
            fact = document.observations[index]
            rest = found["rest"] or (f' (written "{found["date"]}")' if guessed else "")
            text = f"{found['label']}: {settled}{rest}"
            document.observations[index] = replace(fact, text=text)


def _hints(folder: str, folders: dict[str, list[Extraction]]) -> set[bool]:
    """The readings the documents of `folder` give; when they settle nothing, those of the
    nearest folder above it (all documents under it) that give one reading or more."""
    hints = {document.day_first for document in folders[folder] if document.day_first is not None}
    parent = posixpath.dirname(folder)
    while not hints and parent:
        below = parent + "/"
        hints = {document.day_first for name, documents in folders.items() if name.startswith(below)
                 for document in documents if document.day_first is not None}
        parent = posixpath.dirname(parent)
    return hints
