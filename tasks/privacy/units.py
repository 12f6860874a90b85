"""Semantic units of a markdown body, and their removal: what `forget` takes out of a page.

A unit is a top-level list item (with its continuation and nested lines), any other top-level
block (paragraph, fence, table, quote, HTML block), or a whole section when its heading
matches (the heading and everything under it down to the next heading of the same or a higher
level). Units come from markdown-it-py's block tokens and their line maps; a matching unit is
removed whole, never a line of it alone. Pure functions: no I/O.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from markdown_it import MarkdownIt

from tasks.markdown.parser import block_parser

_LIST_OPEN = frozenset({"bullet_list_open", "ordered_list_open"})


@dataclass(frozen=True)
class Unit:
    start: int  # first line, 0-based
    end: int  # one past the last line
    kind: str  # "list item", "section", "paragraph", "fence", ...

    def describe(self) -> str:
        return f"{self.kind}, lines {self.start + 1}-{self.end}"


def _parser() -> MarkdownIt:
    return block_parser()


def body_units(body: str) -> list[Unit]:
    """Every top-level unit of `body` in order (sections are added by `matching_units`).

    Link reference definitions (`[x]: https://...`) make no block token: each line no token
    covers is a unit of its own, so nothing escapes matching or counts as empty."""
    tokens = _parser().parse(body)
    units: list[Unit] = []
    covered: set[int] = set()
    depth_list = 0
    for token in tokens:
        if token.type in _LIST_OPEN and token.level == 0:
            depth_list = 1
        elif token.type.endswith("_list_close") and token.level == 0:
            depth_list = 0
        if token.nesting == -1 or token.map is None:
            continue
        if token.level == 0:
            covered.update(range(token.map[0], token.map[1]))
        if depth_list and token.type == "list_item_open" and token.level == 1:
            units.append(Unit(token.map[0], token.map[1], "list item"))
        elif token.level == 0 and token.type not in _LIST_OPEN:
            kind = token.type.removesuffix("_open").replace("_", " ")
            if token.type == "heading_open":
                kind = f"heading {token.tag}"
            units.append(Unit(token.map[0], token.map[1], kind))
    units += _uncovered(body.split("\n"), covered)
    return sorted(units, key=lambda u: u.start)


def _uncovered(lines: list[str], covered: set[int]) -> list[Unit]:
    """One unit per non-blank line no block token covers (a definition is one line)."""
    return [Unit(number, number + 1, "reference definition") for number, line in enumerate(lines)
            if line.strip() and number not in covered]


def _section_end(units: Sequence[Unit], at: int, total_lines: int) -> int:
    level = int(units[at].kind[-1])
    for later in units[at + 1:]:
        if later.kind.startswith("heading h") and int(later.kind[-1]) <= level:
            return later.start
    return total_lines


def matching_units(body: str, matches: Callable[[str], bool]) -> list[Unit]:
    """The units whose text `matches`; a matching heading takes its whole section."""
    lines = body.split("\n")
    units = body_units(body)
    found: list[Unit] = []
    covered_until = -1
    for position, unit in enumerate(units):
        if unit.start < covered_until:
            continue  # inside a section already taken
        if not matches("\n".join(lines[unit.start:unit.end])):
            continue
        if unit.kind.startswith("heading h"):
            end = _section_end(units, position, len(lines))
            found.append(Unit(unit.start, end, "section"))
            covered_until = end
        else:
            found.append(unit)
    return found


def remove_units(body: str, units: Sequence[Unit]) -> str:
    """`body` without the lines of `units`; at each seam a doubled blank line becomes one."""
    if not units:
        return body
    lines = body.split("\n")
    drop: set[int] = set()
    for unit in units:
        drop.update(range(unit.start, unit.end))
    kept: list[str] = []
    seam = False
    for number, line in enumerate(lines):
        if number in drop:
            seam = True
            continue
        if seam and not line.strip() and (not kept or not kept[-1].strip()):
            continue  # the blank line after a removed unit, when one is already there
        seam = False
        kept.append(line)
    return "\n".join(kept)


def has_content(body: str) -> bool:
    """Anything left but headings and blank lines?"""
    return any(not unit.kind.startswith("heading") for unit in body_units(body))




def history_lines(body: str) -> set[int]:
    """Lines (0-based) inside `## Superseded...` sections: a page's kept history."""
    lines = body.split("\n")
    units = body_units(body)
    inside: set[int] = set()
    for position, unit in enumerate(units):
        heading = lines[unit.start].lstrip("#").strip().casefold()
        if unit.kind == "heading h2" and heading.startswith("superseded"):
            inside.update(range(unit.start, _section_end(units, position, len(lines))))
    return inside


# Units forget may remove whole on its own: a top-level list item, a section under a matching
# heading, a reference definition. A match in a paragraph, a table, a code block, a quote or an
# HTML block is prose that says more than the topic: it asks for a manual rewrite.
_ENTRY_KINDS = frozenset({"list item", "section", "reference definition"})


def is_entry(unit: Unit) -> bool:
    """Is `unit` an entry forget removes whole (spec: "whole H2 entries or top-level bullets")?"""
    return unit.kind in _ENTRY_KINDS
