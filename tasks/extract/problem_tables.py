"""An incident's parts told as tables, not prose: an 8D report's problem description written as
5W2H rows (What / Where / When / Who found it / How many / How much, the D2 of every 8D form),
and a part with no text of its own whose table lists what was done (an 8D's interim containment
actions, its validation of each permanent action), each row kept by its text cells."""

from __future__ import annotations

import re

from tasks.extract.genre_parts import markdown_tables
from tasks.extract.model import LineSpan
from tasks.extract.structure import Structure
from tasks.extract.text import plain_text, shorten

# A 5W2H row's question and the part of the incident it answers: the extent (how many, how
# much) is the impact, who found it and how is the detection, what went wrong is the summary.
_FIVE_W_PARTS = {"what": "Summary", "problem": "Summary", "how many": "Impact", "how much": "Impact",
                 "who found it": "Detection", "who found": "Detection", "how found": "Detection",
                 "how was it found": "Detection", "how detected": "Detection", "detected by": "Detection",
                 "why": "Cause"}
_FIVE_W_KEYS = frozenset({*_FIVE_W_PARTS, "where", "when", "who", "how"})
_MIN_FIVE_W = 3  # three of the questions make a 5W2H table (a `| What | Owner |` one is not)
# A cell that only counts or ticks ("1", "#3", "yes", "✓"): no text of the row.
_INDEX_CELL_RE = re.compile(r"^(?:#?\d{1,3}\.?|yes|no|y|n|✓|✔|x|done)?$", re.I)


def five_w_rows(structure: Structure) -> list[tuple[str, LineSpan]]:
    """Each row of a 5W2H table (first column the question) whose question names a part of the
    incident, with that part's label: "Impact" for `| How many | 212 trucks turned away |`."""
    barred = [structure.visible[index] for index in sorted(structure.holding("|"))]
    found: list[tuple[str, LineSpan]] = []
    for _, rows in markdown_tables(barred):
        keys = [_question(cells[0]) for _, cells in rows if cells]
        if sum(key in _FIVE_W_KEYS for key in keys) < _MIN_FIVE_W:
            continue
        for (number, cells), key in zip(rows, keys, strict=True):
            label = _FIVE_W_PARTS.get(key)
            text = " ".join(plain_text(cell) for cell in cells[1:] if plain_text(cell))
            if label is not None and text:
                found.append((label, (shorten(text), number, number)))
    return found


def _question(cell: str) -> str:
    return " ".join(plain_text(cell).lower().rstrip("?: ").split())


def row_texts(lines: list[tuple[int, str]]) -> list[LineSpan]:
    """Each row of the first table in `lines` as its text cells, joined ("Customs Liaison checks
    the portal daily: R. Ellingham"; a row's number and tick cells left out), the first two."""
    for _, rows in markdown_tables(lines)[:1]:
        spans: list[LineSpan] = []
        for number, cells in rows:
            texts = [text for cell in cells if not _INDEX_CELL_RE.match(text := plain_text(cell).strip())]
            if texts:
                spans.append((shorten(": ".join(texts[:2])), number, number))
        return spans
    return []
