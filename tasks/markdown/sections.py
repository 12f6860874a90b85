"""A page body as `##` sections with anchors: split, join, and merge with superseded text kept.

Sections are tasks.markdown.blocks' level-2 sections (top-level ATX or setext headings, as
CommonMark reads them), with its anchors. Text before the first section is the preamble.
Rewriting a section keeps what it said before under the body's last section, `## Superseded`,
quoted and linked: superseded, not erased.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from tasks.markdown.blocks import Section, read_blocks, sections
from tasks.markdown.fences import has_open_fence

SUPERSEDED_ANCHOR = "superseded"
SUPERSEDED_HEADING = "## Superseded"
SUPERSEDED_INTRO = "What rewritten sections said before, kept so nothing is erased."

# Linear in the line length: no lazy text before a blank run, and a blank run is tried only
# from its first blank.
_HEADING_RE = re.compile(r"^##[ \t]++(?P<text>.*[^ \t])[ \t]*+$")


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


def written_section(anchor: str, heading_line: str, text: str) -> Section:
    """A section about to be written: its anchor, its heading line, the text under it."""
    return Section(anchor, heading_text(heading_line) or "", text=text, level=2,
                   markup=heading_line)


def has_title(body: str) -> bool:
    """Whether a body opens with a top-level h1 (ATX or setext) on its first line."""
    heads = read_blocks(body).headings
    return bool(heads) and heads[0].line == 0 and heads[0].level == 1 and heads[0].depth == 0


def split_sections(body: str) -> SplitBody:
    """A body's preamble and its level-2 sections (tasks.markdown.blocks' reading)."""
    preamble, *rest = sections(read_blocks(body), 2)
    return SplitBody(preamble.text, tuple(rest))


def join_sections(split: SplitBody) -> str:
    parts = [split.preamble] if split.preamble else []
    for section in split.sections:
        parts.append(
            f"{section.markup}\n\n{section.text}" if section.text else section.markup
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
            self.sections.append(written_section(update.anchor, update.heading, new_text))
            self.touched.append(update.anchor)
            return
        old = self.sections[index]
        if old.text == new_text:
            return
        if old.text:
            label = old.heading or old.markup.lstrip("#").strip()
            self.records.append(superseded_entry(update, old.text, label, self.now_iso))
        self.sections[index] = replace(old, text=new_text)
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
        previous = superseded.text if superseded else SUPERSEDED_INTRO
        superseded = written_section(
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
    "has_open_fence",
    "has_title",
    "heading_text",
    "join_sections",
    "merge_sections",
    "split_sections",
    "strip_title_line",
    "superseded_entry",
    "written_section",
]
