"""A document's status as only its revision history states it (pure): the Status column of the
row of its latest revision, as a controlled document's or a post-incident review's "Document
history" table keeps it (`| Version | Date | Author | Status | Change |`, its last row "Final");
the row with the latest day when the table lists its newest revision first."""

from __future__ import annotations

from collections.abc import Sequence

from tasks.extract.model import ObservationFact
from tasks.extract.status_text import is_status_word, status_observation
from tasks.extract.text import plain_text
from tasks.markdown.tables import table_cells
from tasks.record_dates import find_date

_STATUS_HEADS = frozenset({"status", "state", "document status", "approval status"})
_ISO_LENGTH = len("2024-03-13")


def revision_status(lines: Sequence[tuple[int, str]], day_first: bool | None) -> ObservationFact | None:
    """The `Status:` of the latest row of a revision table among `lines` (revision_lines), when
    its Status cell is a status word and nothing else; None for any other table."""
    rows = [(number, [plain_text(cell).strip("*_ ") for cell in table_cells(line)])
            for number, line in lines if line.lstrip().startswith("|")]
    if len(rows) < 3:  # a head, its rule, and a row
        return None
    heads = [cell.lower() for cell in rows[0][1]]
    column = next((index for index, head in enumerate(heads) if head in _STATUS_HEADS), None)
    if column is None:
        return None
    entries = [(number, cells) for number, cells in rows[2:] if column < len(cells) and cells[column]]
    if not entries:
        return None
    number, cells = _latest(entries, heads.index("date") if "date" in heads else None, day_first)
    return status_observation(cells[column], number, number) if is_status_word(cells[column]) else None


def _latest(entries: list[tuple[int, list[str]]], date_column: int | None,
            day_first: bool | None) -> tuple[int, list[str]]:
    """The last row, or the first when its day is later than the last row's (newest first)."""
    if date_column is None:
        return entries[-1]
    first, last = (_day(cells, date_column, day_first) for _, cells in (entries[0], entries[-1]))
    return entries[0] if first and last and first > last else entries[-1]


def _day(cells: list[str], column: int, day_first: bool | None) -> str | None:
    found = find_date(cells[column], day_first) if column < len(cells) else None
    return found if found and len(found) == _ISO_LENGTH and found[4] == "-" else None
