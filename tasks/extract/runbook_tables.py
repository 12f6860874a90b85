"""A troubleshooting page kept as a table (pure): `| Problem | Likely cause | Fix |`.

Each row says what an operator sees, why, and what to do; the row's fix is a mitigation of
that problem, whatever the columns are called in a house's words ("Symptom", "What you see";
"Resolution", "What to do").
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from tasks.extract.text import plain_text
from tasks.markdown.tables import table_cells

_PROBLEM_RE = re.compile(
    r"^(?:problems?|symptoms?|issues?|errors?|what you see|observations?|signs?)\b", re.I)
_FIX_RE = re.compile(
    r"^(?:fix(?:es)?|resolutions?|solutions?|what to do|actions?|mitigations?|remed(?:y|ies)|workarounds?"
    r"|how to fix|steps|response)\b", re.I)
_SEPARATOR_RE = re.compile(r"^\s*\|?\s*:?-{3,}:?\s*(?:\|\s*:?-{3,}:?\s*)+\|?\s*$")


def troubleshooting_rows(lines: Sequence[tuple[int, str]]) -> list[tuple[int, str, str]]:
    """Each row of every troubleshooting table in `lines`: (its line, the problem, the fix)."""
    rows: list[tuple[int, str, str]] = []
    columns: tuple[int, int] | None = None
    for index, (number, line) in enumerate(lines):
        if not line.lstrip().startswith("|"):
            columns = None
            continue
        if columns is None:
            following = lines[index + 1][1] if index + 1 < len(lines) else ""
            columns = _columns(line) if _SEPARATOR_RE.match(following) else None
            continue
        if _SEPARATOR_RE.match(line):
            continue
        cells = table_cells(line)
        problem, fix = columns
        if len(cells) > max(columns) and plain_text(cells[fix]):
            rows.append((number, plain_text(cells[problem]), plain_text(cells[fix])))
    return rows


def has_troubleshooting_table(lines: Sequence[tuple[int, str]]) -> bool:
    return any(line.lstrip().startswith("|") and _columns(line) for _, line in lines)


def _columns(header: str) -> tuple[int, int] | None:
    """The problem column and the fix column of a table's header row, None when it has not both."""
    cells = [plain_text(cell).strip() for cell in table_cells(header)]
    problem = next((i for i, cell in enumerate(cells) if _PROBLEM_RE.match(cell)), None)
    fix = next((i for i, cell in enumerate(cells) if _FIX_RE.match(cell)), None)
    return (problem, fix) if problem is not None and fix is not None and problem < fix else None
