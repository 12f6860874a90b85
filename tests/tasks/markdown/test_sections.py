"""Sections are read one way: the gate's split (tasks.markdown.sections), the search index's
sections (tasks.search.sections) and distill's structure (tasks.extract.structure) all read
tasks.markdown.blocks, and they give CommonMark's top-level `##` headings (markdown-it's full
grammar is the reference) with the same anchors and texts."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from tasks.extract.structure import scan
from tasks.markdown.blocks import anchor_of, unique_anchor
from tasks.markdown.parser import inline_parser
from tasks.markdown.sections import SectionUpdate, join_sections, merge_sections, split_sections
from tasks.search.sections import page_sections
from tests.tasks.markdown.test_blocks import FOUR_INPUTS, LINE


def reference_anchors(body: str) -> list[str]:
    """The anchors of the top-level h2 headings markdown-it's whole grammar reads."""
    tokens = inline_parser().parse(body)
    used: set[str] = set()
    anchors = []
    for i, token in enumerate(tokens):
        if token.type == "heading_open" and token.level == 0 and token.tag == "h2":
            base = anchor_of(tokens[i + 1].content.strip()) or f"section-{len(anchors) + 1}"
            anchors.append(unique_anchor(base, used))
    return anchors


def readers_agree(body: str) -> list[str]:
    """The anchors every reader sees, checked equal (texts too where a reader keeps them)."""
    split = split_sections(body)
    indexed = [s for s in page_sections(body) if s.anchor]
    assert [(s.anchor, s.text) for s in split.sections] == [(s.anchor, s.text) for s in indexed]
    structure = scan(body.split("\n"), 1)
    assert [s.heading for s in structure.sections if s.level == 2] == [
        s.heading for s in split.sections]
    assert split.anchors() == reference_anchors(body)
    return split.anchors()


@settings(max_examples=600, deadline=None)
@given(st.lists(LINE, max_size=24))
def test_the_gate_the_index_and_distill_see_the_same_sections(lines: list[str]) -> None:
    readers_agree("\n".join(lines) + "\n")


def test_the_four_inputs_of_the_review_give_the_same_anchors_everywhere() -> None:
    assert {body: readers_agree(body) for body in FOUR_INPUTS} == FOUR_INPUTS


def test_merge_keeps_what_a_rewritten_section_said() -> None:
    body = "# T\n\nintro\n\n## A\n\nold\n"
    update = SectionUpdate("a", "## A", "new", "agent run 7")
    merged, touched, records = merge_sections(body, [update], now_iso="2026-03-24T22:40:05Z")
    assert touched == ["a"] and records == 1
    split = split_sections(merged)
    assert split.anchors() == ["a", "superseded"]
    assert "> old" in split.sections[1].text
    assert merge_sections(merged, [update], now_iso="2026-03-25T00:00:00Z") == (merged, [], 0)
    assert join_sections(split_sections(merged)) == merged
