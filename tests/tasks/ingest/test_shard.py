"""The shard planner: lossless, within budget, cuts only between top-level blocks."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tasks.ingest.shard import Shard, line_index, markdown_blocks, shard_plan, text_blocks
from tests.conftest import CORPUS

LARGE = CORPUS / "large"
LARGE_FILES = sorted(LARGE.glob("*")) if LARGE.is_dir() else []


def reassemble(text: str, plan: list[Shard]) -> str:
    """Shard bodies in order, with the added (reopened/closed) fence lines removed."""
    out = []
    for shard in plan:
        body = shard.body(text)
        assert body.startswith(shard.reopened_fence) and body.endswith(shard.closed_fence)
        out.append(body[len(shard.reopened_fence) : len(body) - len(shard.closed_fence)])
    return "".join(out)


def check_plan(text: str, plan: list[Shard], budget: int, *, markdown: bool = True) -> None:
    assert reassemble(text, plan) == text
    assert all(len(s.body(text)) <= budget for s in plan)
    assert [s.start for s in plan[1:]] == [s.end for s in plan[:-1]]
    index = line_index(text)
    blocks = markdown_blocks(text, index) if markdown else text_blocks(text, index)
    starts = {index.offset(b.start) for b in blocks}
    for before, shard in zip(plan, plan[1:], strict=False):
        if before.split_block is None and shard.split_block is None:
            assert shard.start in starts, f"cut at {shard.start} is not a top-level block start"


@pytest.mark.parametrize("path", LARGE_FILES, ids=lambda p: p.name)
@pytest.mark.parametrize("budget", [60_000, 7_000])
def test_corpus_large_documents_shard_losslessly(path: Path, budget: int) -> None:
    text = path.read_bytes().decode("utf-8")
    plan = shard_plan(text, budget)
    check_plan(text, plan, budget)
    if len(text) > budget:
        assert len(plan) >= 2


def section(level: int, name: str, size: int) -> str:
    paragraph = f"Text about {name} that goes on for a while. " * 8
    body = "\n\n".join([paragraph] * max(1, size // (len(paragraph) + 2)))
    return f"{'#' * level} {name}\n\n{body}\n\n"


def test_highest_heading_level_that_fits_wins() -> None:
    text = "".join(section(1, f"Part {p}", 300) + "".join(section(2, f"Part {p}.{s}", 1_500)
                                                          for s in range(3)) for p in range(4))
    budget = 6_000  # one part (about 5,000 chars) fits, two do not
    plan = shard_plan(text, budget)
    check_plan(text, plan, budget)
    assert len(plan) == 4
    for shard in plan:
        assert shard.headings[0].level == 1, "each shard should start at a top-level section"


def test_paragraph_boundaries_when_no_heading_fits() -> None:
    text = section(1, "Only", 20_000)
    plan = shard_plan(text, 5_000)
    check_plan(text, plan, 5_000)
    assert len(plan) >= 4 and all(s.split_block is None for s in plan)


def test_never_cuts_inside_table_list_or_html() -> None:
    table = "| a | b |\n|---|---|\n" + "".join(f"| row {i} | value {i} |\n" for i in range(40))
    items = "".join(f"- item {i}\n\n  continued paragraph of item {i}\n\n" for i in range(30))
    html = "<div>\n" + "".join(f"<p>html line {i}</p>\n" for i in range(40)) + "</div>\n"
    text = "\n".join(["# Doc", "", "intro", "", table, items, html, "tail", ""])
    budget = max(len(table), len(items), len(html)) + 50
    plan = shard_plan(text, budget)
    check_plan(text, plan, budget)
    bodies = [s.body(text) for s in plan]
    assert any(table in b for b in bodies)
    assert any(html in b for b in bodies)
    assert any(items in b for b in bodies)


def test_oversized_fence_is_closed_and_reopened() -> None:
    code = "".join(f"value_{i} = compute({i})\n" for i in range(800))
    text = "# Code\n\nBefore.\n\n```python\n" + code + "```\n\nAfter.\n"
    plan = shard_plan(text, 4_000)
    check_plan(text, plan, 4_000)
    split = [s for s in plan if s.split_block == "fence"]
    assert len(split) >= 4
    assert split[0].closed_fence == "```\n" and not split[0].reopened_fence
    assert all(s.reopened_fence == "```python\n" for s in split[1:])
    assert all(s.closed_fence == "```\n" for s in split[:-1])
    # Each shard with a fence stays valid markdown: one balanced fence token.
    for shard in split:
        kinds = [b.kind for b in markdown_blocks(shard.body(text))]
        assert kinds.count("fence") == 1


@pytest.mark.parametrize(("opening", "line", "reopened", "closed"), [
    ("- Example:\n\n   ```python\n", "   value = {i}  # filler for the list item\n", "   ```python\n",
     "   ```\n"),
    ("> Quoted:\n>\n> ~~~~sh\n", "> echo {i} and some filler text here\n", "> ~~~~sh\n", "> ~~~~\n"),
])
def test_fenced_code_inside_an_oversized_list_or_quote_is_closed_and_reopened(
        opening: str, line: str, reopened: str, closed: str) -> None:
    body = "".join(line.format(i=i) for i in range(400))
    text = "# Nested\n\n" + opening + body + closed + "\nAfter.\n"
    plan = shard_plan(text, 4_000)
    check_plan(text, plan, 4_000)
    split = [s for s in plan if s.split_block in {"list", "blockquote"}]
    assert len(split) >= 4
    assert split[0].closed_fence == closed and not split[0].reopened_fence
    assert all(s.reopened_fence == reopened for s in split[1:])
    assert all(s.closed_fence == closed for s in split[1:-1]) and not split[-1].closed_fence
    for shard in split[1:-1]:  # a middle piece is one balanced fence, not a runaway one
        assert [b.kind for b in markdown_blocks(shard.body(text))] in (["fence"], ["blockquote"])


def test_one_enormous_line_is_cut_by_characters() -> None:
    text = "x" * 10_000 + "\nend\n"
    plan = shard_plan(text, 3_000)
    check_plan(text, plan, 3_000)
    assert plan[0].split_block == "paragraph"


def test_plain_text_cuts_at_blank_lines() -> None:
    text = "".join(f"2026-03-24T22:{i % 60:02d}:00Z worker-{i} finished task {i}\n" + ("\n" if i % 5 == 4 else "")
                   for i in range(600))
    plan = shard_plan(text, 4_000, markdown=False)
    check_plan(text, plan, 4_000, markdown=False)
    assert all(text[s.start - 1 : s.start] == "\n" and text[s.start - 2 : s.start] == "\n\n" for s in plan[1:])


def test_frontmatter_stays_whole_and_first() -> None:
    text = "---\ntitle: Notes\ntags: [a, b]\n---\n" + section(1, "Body", 9_000)
    plan = shard_plan(text, 3_000)
    check_plan(text, plan, 3_000)
    assert plan[0].body(text).startswith("---\ntitle: Notes\ntags: [a, b]\n---\n")


LINES = st.sampled_from([
    "# Title", "## Section", "### Sub", "", "", "plain paragraph text", "more text here.",
    "```", "```python", "~~~", "    indented code", "| a | b |", "|---|---|", "| 1 | 2 |",
    "- item", "  - nested", "1. first", "> quote", "<div>", "</div>", "---", "***", "Setext",
    "===", "<!-- comment -->", "[ref]: http://example.com",
    "   ```", "- ```python", "  ~~~", "> ```", "1. ```", "   code in a list item",
])
FREE = st.text(alphabet="ab #-|`>*\t", max_size=60)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    lines=st.lists(st.one_of(LINES, FREE), min_size=0, max_size=250),
    newline=st.sampled_from(["\n", "\r\n", "\r"]),
    trailing=st.booleans(),
    budget=st.integers(min_value=400, max_value=3_000),
)
def test_generated_documents_shard_losslessly(lines: list[str], newline: str, trailing: bool,
                                              budget: int) -> None:
    text = newline.join(lines) + (newline if trailing and lines else "")
    plan = shard_plan(text, budget)
    check_plan(text, plan, budget)
    plain = shard_plan(text, budget, markdown=False)
    check_plan(text, plain, budget, markdown=False)
