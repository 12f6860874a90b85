"""A page body as sections, from markdown-it-py tokens (never a line scanner of our own).

A section is a `## ` heading and what follows it up to the next one, with the anchor the
proposal gate gives it (explicit `{#anchor}` or the slug of the heading text, repeated headings
numbered -1, -2). Text before the first `## ` heading is the preamble (anchor ""). Deeper headings
are kept with the section they belong to, so a search on them lands on that section.
"""

from __future__ import annotations

from dataclasses import dataclass

from markdown_it import MarkdownIt

from tasks.markdown.parser import block_parser
from tasks.markdown.sections import anchor_of, unique_anchor


@dataclass(frozen=True)
class PageSection:
    anchor: str  # "" for the preamble
    heading: str  # the `## ` heading text ("" for the preamble)
    subheadings: tuple[str, ...]  # deeper (and h1) heading texts inside the section
    text: str  # the section's markdown under its heading


def _block_parser() -> MarkdownIt:
    # Block level only: headings and their line ranges are all we need (about 3x faster than a
    # full parse); an `inline` token still carries its raw text in .content. Without the list and
    # blockquote rules a page's sections are its top-level `## ` headings, as the proposal gate
    # sees them (a heading inside a list item or a quote is not a section), and long bulleted
    # pages parse about twice as fast.
    return block_parser(lists=False, quotes=False)


def page_sections(body: str) -> list[PageSection]:
    """The preamble (when it has text) and each `## ` section, in page order."""
    tokens = _block_parser().parse(body)
    lines = body.split("\n")
    cuts: list[tuple[int, int, str]] = []  # (heading first line, text first line, heading text)
    subheadings: list[tuple[int, str]] = []
    for i, token in enumerate(tokens):
        if token.type != "heading_open" or token.map is None:
            continue
        text = tokens[i + 1].content.strip() if i + 1 < len(tokens) else ""
        if token.tag == "h2":
            cuts.append((token.map[0], token.map[1], text))
        else:
            subheadings.append((token.map[0], text))
    sections: list[PageSection] = []
    starts = [c[0] for c in cuts] + [len(lines)]
    preamble = "\n".join(lines[: starts[0]]).strip("\n")
    preamble_heads = tuple(t for line, t in subheadings if line < starts[0])
    if preamble.strip():
        sections.append(PageSection("", "", preamble_heads, preamble))
    used: set[str] = set()
    for k, (first, text_from, heading) in enumerate(cuts):
        end = starts[k + 1]
        base = anchor_of(heading) or f"section-{k + 1}"
        sections.append(PageSection(
            anchor=unique_anchor(base, used),
            heading=heading,
            subheadings=tuple(t for line, t in subheadings if first < line < end),
            text="\n".join(lines[text_from:end]).strip("\n"),
        ))
    return sections
