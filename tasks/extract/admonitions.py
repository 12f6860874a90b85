"""Warning boxes as risks (pure): of the admonitions every markup family writes
(tasks.markdown.boxes: a `:::warning` container, a MyST or rST directive, an MkDocs box, a GitHub
alert, a GitBook hint, an AsciiDoc block), the text of a warning, danger or caution box is what
the page flags as a risk; a note's or a tip's is not."""

from __future__ import annotations

from tasks.extract.genre_text import MAX_SPAN_LINES
from tasks.extract.model import LineSpan
from tasks.extract.structure import Structure
from tasks.extract.text import joined_lines, plain_text, shorten

RISK_KINDS = frozenset({"warning", "danger", "caution"})


def risk_boxes(structure: Structure) -> list[LineSpan]:
    """The text of each warning, danger or caution box, with its lines."""
    found: list[LineSpan] = []
    lines = structure.by_number if structure.boxes else {}
    base = structure.first_line
    for box in structure.boxes:
        if box.kind not in RISK_KINDS:
            continue
        words = [(base + offset, lines[base + offset].strip())
                 for offset in range(box.first, min(box.end, box.first + MAX_SPAN_LINES))
                 if lines.get(base + offset, "").strip()]
        if words:
            told = plain_text(joined_lines(said for _, said in words))
            if len(told.split()) >= 4:
                found.append((shorten(told), words[0][0], words[-1][0]))
    return found


def boxed_lines(structure: Structure) -> frozenset[int]:
    """The numbers of the lines inside any box (its title's line too): an aside to the page's
    text, as a quoted notice is, never the page's lead or summary."""
    return structure.remembered(_boxed_lines)


def _boxed_lines(structure: Structure) -> frozenset[int]:
    base = structure.first_line
    return frozenset(base + offset for box in structure.boxes
                     for offset in range(box.first - 1, box.end))
