"""A page body as the search index, `show` and `browse` see it: tasks.markdown.blocks' level-2
sections, the same sections and anchors the proposal gate extends.

The preamble (anchor "") comes first when it has text. Deeper headings (and an h1) stay with
the section they belong to, as its subheadings, so a search on them lands on that section.
"""

from __future__ import annotations

from tasks.markdown.blocks import Section, read_blocks, sections

PageSection = Section  # the index's name for a section (tasks/search/index.py builds one)


def page_sections(body: str) -> list[Section]:
    """The preamble (when it has text) and each `##` section, in page order."""
    preamble, *rest = sections(read_blocks(body), 2)
    return [preamble, *rest] if preamble.text.strip() else rest
