"""A page body as `## ` sections with anchors: split, join, and merge with superseded text kept.

Sections are the level-2 ATX headings of a body outside fenced code (fences read by
tasks.markdown.fences, CommonMark's rules). A heading's anchor is its explicit `{#anchor}` suffix
or the slug of its text; a repeated anchor is numbered GitHub's way (notes, notes-1, notes-2).
Text before the first section is the preamble. Rewriting a section keeps what it said before
under the body's last section, `## Superseded`, quoted and linked: superseded, not erased.

The search index reads sections from markdown-it tokens (tasks.search.sections) with the same
anchors (`anchor_of`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from slugify import slugify

from tasks.markdown.fences import code_flags, has_open_fence

SUPERSEDED_ANCHOR = "superseded"
SUPERSEDED_HEADING = "## Superseded"
SUPERSEDED_INTRO = "What rewritten sections said before, kept so nothing is erased."

# Linear in the line length: no lazy text before a blank run, and a blank run is tried only
# from its first blank.
_HEADING_RE = re.compile(r"^##[ \t]++(?P<text>.*[^ \t])[ \t]*+$")
_EXPLICIT_ANCHOR_RE = re.compile(r"(?<![ \t])[ \t]*+\{#(?P<anchor>[A-Za-z0-9_-]+)\}$")


@dataclass(frozen=True)
class Section:
    anchor: str
    heading: str  # the whole heading line, e.g. "## Retry budget"
    content: str  # the text under it, without surrounding blank lines


@dataclass(frozen=True)
class SplitBody:
    preamble: str
    sections: tuple[Section, ...]

    def anchors(self) -> list[str]:
        return [s.anchor for s in self.sections]

    def find(self, anchor: str) -> Section | None:
        return next((s for s in self.sections if s.anchor == anchor), None)


def heading_text(line: str) -> str | None:
    """The text of a `## ` heading line (its explicit anchor included), else None."""
    match = _HEADING_RE.match(line)
    return match.group("text") if match else None


def anchor_of(heading_text: str) -> str:
    """A heading's anchor: its explicit {#anchor} suffix, else the slug of its text."""
    explicit = _EXPLICIT_ANCHOR_RE.search(heading_text)
    if explicit:
        return explicit.group("anchor").lower()
    return slugify(heading_text.rstrip("#").strip())


def without_explicit_anchor(heading_text: str) -> str:
    return _EXPLICIT_ANCHOR_RE.sub("", heading_text).strip()


def normalize_anchor(value: str) -> str:
    return value.strip().lstrip("#").strip().lower()


def unique_anchor(base: str, used: set[str]) -> str:
    """`base`, or `base-1`, `base-2` ... when taken (GitHub's spelling); records the choice."""
    anchor, n = base, 0
    while anchor in used:
        n += 1
        anchor = f"{base}-{n}"
    used.add(anchor)
    return anchor


def split_sections(body: str) -> SplitBody:
    """Split a body on level-2 headings, never inside a fenced code block."""
    preamble: list[str] = []
    sections: list[tuple[str, str, list[str]]] = []
    used: set[str] = set()
    lines = body.split("\n")
    for line, in_code in code_flags(lines):
        text = None if in_code else heading_text(line)
        if text is not None:
            base = anchor_of(text) or f"section-{len(sections) + 1}"
            sections.append((unique_anchor(base, used), line.rstrip(), []))
        elif sections:
            sections[-1][2].append(line)
        else:
            preamble.append(line)
    return SplitBody(
        "\n".join(preamble).strip("\n"),
        tuple(Section(a, h, "\n".join(lines).strip("\n")) for a, h, lines in sections),
    )


def join_sections(split: SplitBody) -> str:
    parts = [split.preamble] if split.preamble else []
    for section in split.sections:
        parts.append(
            f"{section.heading}\n\n{section.content}" if section.content else section.heading
        )
    return "\n\n".join(parts) + "\n"


def strip_title_line(preamble: str) -> tuple[str, str]:
    """(the H1 line or '', the rest) of a preamble."""
    lines = preamble.split("\n")
    if lines and lines[0].startswith("# "):
        return lines[0], "\n".join(lines[1:]).strip("\n")
    return "", preamble.strip("\n")


def _quote(text: str) -> str:
    return "\n".join(f"> {line}" if line.strip() else ">" for line in text.split("\n"))


@dataclass(frozen=True)
class SectionUpdate:
    anchor: str  # "" means the page's introduction (the text before the first section)
    heading: str
    content: str
    source: str


def superseded_entry(update: SectionUpdate, old: str, label: str, now_iso: str) -> str:
    where = (
        f"[the current section](#{update.anchor})" if update.anchor else "the current introduction"
    )
    return (
        f"### {label}, superseded {now_iso}\n\n"
        f"Replaced by {where}; the new text came from: {' '.join(update.source.split())}.\n\n"
        f"{_quote(old)}"
    )


@dataclass
class _Merge:
    """A body being merged: its preamble and sections, what changed, the records kept."""

    preamble: str
    sections: list[Section]
    now_iso: str
    touched: list[str]
    records: list[str]

    def apply(self, update: SectionUpdate) -> None:
        new_text = update.content.strip("\n")
        if not update.anchor:
            self._replace_introduction(update, new_text)
            return
        index = next((i for i, s in enumerate(self.sections) if s.anchor == update.anchor), None)
        if index is None:
            self.sections.append(Section(update.anchor, update.heading, new_text))
            self.touched.append(update.anchor)
            return
        old = self.sections[index]
        if old.content == new_text:
            return
        if old.content:
            label = old.heading.lstrip("#").strip()
            self.records.append(superseded_entry(update, old.content, label, self.now_iso))
        self.sections[index] = Section(old.anchor, old.heading, new_text)
        self.touched.append(update.anchor)

    def _replace_introduction(self, update: SectionUpdate, new_text: str) -> None:
        title_line, intro = strip_title_line(self.preamble)
        if not new_text or new_text == intro:
            return
        if intro:
            self.records.append(superseded_entry(update, intro, "Introduction", self.now_iso))
        self.preamble = "\n\n".join(part for part in (title_line, new_text) if part)
        self.touched.append("")


def merge_sections(
    body: str, updates: list[SectionUpdate], *, now_iso: str
) -> tuple[str, list[str], int]:
    """Apply section updates to a page body.

    Returns (new body, anchors whose text changed, number of superseded records added).
    A section whose text is already the proposed text is left alone, so a replay is a no-op.
    """
    split = split_sections(body)
    merge = _Merge(
        split.preamble, [s for s in split.sections if s.anchor != SUPERSEDED_ANCHOR], now_iso, [], []
    )
    for update in updates:
        merge.apply(update)
    if not merge.touched and not merge.records:
        return body, [], 0
    superseded = split.find(SUPERSEDED_ANCHOR)
    if merge.records:
        previous = superseded.content if superseded else SUPERSEDED_INTRO
        superseded = Section(
            SUPERSEDED_ANCHOR, SUPERSEDED_HEADING, "\n\n".join([previous, *merge.records])
        )
    if superseded is not None:
        merge.sections.append(superseded)
    body = join_sections(SplitBody(merge.preamble, tuple(merge.sections)))
    return body, merge.touched, len(merge.records)


__all__ = [
    "SUPERSEDED_ANCHOR",
    "SUPERSEDED_HEADING",
    "SUPERSEDED_INTRO",
    "Section",
    "SectionUpdate",
    "SplitBody",
    "anchor_of",
    "has_open_fence",
    "heading_text",
    "join_sections",
    "merge_sections",
    "normalize_anchor",
    "split_sections",
    "strip_title_line",
    "superseded_entry",
    "unique_anchor",
    "without_explicit_anchor",
]
