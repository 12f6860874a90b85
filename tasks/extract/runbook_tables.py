"""A troubleshooting page kept as a table (pure): `| Problem | Likely cause | Fix |`, or a table of
the codes an operator reads (`| Reason code | Meaning | What you do |`).

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
    r"|how to fix|steps|response|what you do|what to do next)\b", re.I)
# A code the operator reads off a screen or a log (`| reason_code | Meaning | What to do |`): the
# problem of a table of codes, read in a runbook (not a sign of one: an API's error table has it).
_CODE_RE = re.compile(r"^(?:[a-z]+[ _])?codes?$", re.I)  # "reason_code", "Reject code", "Code"
# What a code or a symptom means (`| Meaning |`, `| What it means |`, `| Likely cause |`): its diagnosis.
_MEANING_RE = re.compile(r"^(?:meaning|what it means|likely cause|probable cause|cause|explanation)$", re.I)
_SEPARATOR_RE = re.compile(r"^\s*\|?\s*:?-{3,}:?\s*(?:\|\s*:?-{3,}:?\s*)+\|?\s*$")


def troubleshooting_rows(lines: Sequence[tuple[int, str]]) -> list[tuple[int, str, str, str]]:
    """Each row of every troubleshooting table in `lines` (or table of codes): (its line, the
    problem, the fix, what the problem means: "" when the table has no such column)."""
    rows: list[tuple[int, str, str, str]] = []
    columns: tuple[int, int] | None = None
    meaning: int | None = None
    for index, (number, line) in enumerate(lines):
        if not line.lstrip().startswith("|"):
            columns = None
            continue
        if columns is None:
            following = lines[index + 1][1] if index + 1 < len(lines) else ""
            columns = _columns(line, codes=True) if _SEPARATOR_RE.match(following) else None
            meaning = _meaning_column(line) if columns else None
            continue
        if _SEPARATOR_RE.match(line):
            continue
        cells = table_cells(line)
        problem, fix = columns
        if len(cells) > max(columns) and plain_text(cells[fix]):
            means = plain_text(cells[meaning]) if meaning is not None and meaning < len(cells) else ""
            rows.append((number, plain_text(cells[problem]), plain_text(cells[fix]), means))
    return rows


def has_troubleshooting_table(lines: Sequence[tuple[int, str]]) -> bool:
    return any(line.lstrip().startswith("|") and _columns(line) for _, line in lines)


def _columns(header: str, *, codes: bool = False) -> tuple[int, int] | None:
    """The problem column and the fix column of a table's header row, None when it has not both;
    `codes`: a column of codes is the problem's too."""
    cells = [plain_text(cell).strip() for cell in table_cells(header)]
    problem = next((i for i, cell in enumerate(cells)
                    if _PROBLEM_RE.match(cell) or codes and _CODE_RE.match(cell)), None)
    fix = next((i for i, cell in enumerate(cells) if _FIX_RE.match(cell)), None)
    return (problem, fix) if problem is not None and fix is not None and problem < fix else None


def _meaning_column(header: str) -> int | None:
    cells = [plain_text(cell).strip() for cell in table_cells(header)]
    return next((i for i, cell in enumerate(cells) if _MEANING_RE.match(cell)), None)
