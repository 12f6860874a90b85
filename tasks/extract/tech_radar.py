"""A team's technology radar (pure): its rings Adopt / Trial / Assess / Hold, each a section of
items ("- **ScyllaDB** - accounts and sessions; proven under launch load").

Each item is a decision the team took about a technology: use it (Adopt), try it on one system
(Trial), study it (Assess), stop starting new work on it (Hold).
"""

from __future__ import annotations

import re

from tasks.extract.genre_text import clean_visible, list_items
from tasks.extract.model import LineSpan
from tasks.extract.structure import Structure, section_key, with_subsections

RINGS = ("adopt", "trial", "assess", "hold")
MIN_RINGS = 3  # "Hold" alone is a heading of any page


def radar_rings(structure: Structure) -> int:
    """How many of the radar's rings the page has as headings."""
    return len({key for section in structure.sections[1:]
                if (key := section_key(structure.title(section))) in RINGS})


def radar_decisions(structure: Structure, limit: int) -> list[LineSpan]:
    """Each item of each ring, as "Adopt: <item>", when the page is a radar."""
    if radar_rings(structure) < MIN_RINGS:
        return []
    found: list[LineSpan] = []
    for section in structure.sections[1:]:
        ring = section_key(structure.title(section))
        if ring not in RINGS:
            continue
        for text, first, last in list_items(with_subsections(structure, section), limit=limit):
            found.append((f"{ring.capitalize()}: {text}", first, last))
    return found[: limit * len(RINGS)]


# A blip page's paragraph that opens with its ring in bold and says what the ring means for the
# technology ("**Adopt** means: new historian workloads go on TimescaleDB, ...", "**Hold**: do
# not start new work on it."): the team's decision about it.
_RING_LEAD_RE = re.compile(
    r"^(?:\*\*|__)(?P<ring>adopt|trial|assess|hold)(?:\*\*|__)\s*(?:means\s*)?[:.—–-]?\s*"
    r"(?:(?:\*\*|__)\s*)?(?P<text>\S.*)$", re.I)


def ring_paragraphs(structure: Structure) -> list[LineSpan]:
    """Each paragraph led by a ring in bold, as "Adopt: <what it means here>"."""
    if "**" not in structure.text and "__" not in structure.text:
        return []
    lines = dict(clean_visible(structure))
    found: list[LineSpan] = []
    for start, end in structure.paragraphs:
        lead = _RING_LEAD_RE.match(lines.get(start, "").strip())
        if lead is None or end - start > 8:
            continue
        rest = [lines.get(n, "").strip() for n in range(start + 1, end + 1)]
        found.append((" ".join([f"{lead['ring'].capitalize()}: {lead['text']}", *rest]).strip(), start, end))
    return found
