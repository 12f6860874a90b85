"""Sections are read one way: the gate's line reader (tasks.markdown.sections, fences by
tasks.markdown.fences) and the search index's markdown-it tokens (tasks.search.sections) give
the same anchors and texts."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from tasks.markdown.sections import SectionUpdate, join_sections, merge_sections, split_sections
from tasks.search.sections import page_sections

# Container-free lines without setext underlines, indented code or raw HTML (which the line
# reader does not model).
LINE = st.sampled_from([
    "## Retry budget", "## Retry budget", "## Notes {#n}", "## Ünïcode ##", "### Sub", "# Title",
    "text", "more text", "", "```", "~~~", "````md", "- item", "| a |",
])


@settings(max_examples=400, deadline=None)
@given(st.lists(LINE, max_size=20))
def test_the_gate_and_the_index_see_the_same_sections(lines: list[str]) -> None:
    body = "\n".join(lines) + "\n"
    split = split_sections(body)
    indexed = [s for s in page_sections(body) if s.anchor]
    assert [(s.anchor, s.content) for s in split.sections] == [(s.anchor, s.text) for s in indexed]


def test_merge_keeps_what_a_rewritten_section_said() -> None:
    body = "# T\n\nintro\n\n## A\n\nold\n"
    update = SectionUpdate("a", "## A", "new", "agent run 7")
    merged, touched, records = merge_sections(body, [update], now_iso="2026-03-24T22:40:05Z")
    assert touched == ["a"] and records == 1
    split = split_sections(merged)
    assert split.anchors() == ["a", "superseded"]
    assert "> old" in split.sections[1].content
    assert merge_sections(merged, [update], now_iso="2026-03-25T00:00:00Z") == (merged, [], 0)
    assert join_sections(split_sections(merged)) == merged
