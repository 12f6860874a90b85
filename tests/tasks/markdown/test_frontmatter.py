"""Front matter is found one way (tasks.markdown.frontmatter); mdit-py-plugins' front_matter
rule is the reference, python-frontmatter's split the form pages had before."""

from __future__ import annotations

import pytest
from frontmatter.default_handlers import YAMLHandler
from hypothesis import given, settings
from hypothesis import strategies as st

from tasks.markdown.frontmatter import body_after, find_front_matter, opens_front_matter
from tasks.markdown.parser import front_matter_parser
from tasks.shard import frontmatter_lines, line_index
from tasks.store.errors import ContractError
from tasks.store.pages import split_page


def reference(text: str) -> tuple[int, str] | None:
    """(lines taken, YAML text) by markdown-it's front_matter rule."""
    tokens = front_matter_parser().parse(text)
    if tokens and tokens[0].type == "front_matter" and tokens[0].map:
        return tokens[0].map[1], tokens[0].content
    return None


def ours(text: str) -> tuple[int, str] | None:
    block = find_front_matter(text)
    if block is None:
        return None
    yaml_text = block.yaml(text).replace("\r\n", "\n").replace("\r", "\n")
    return block.lines, yaml_text.removesuffix("\n")


# Lines where the two readings agree by design: no dash run longer than 3 and no indented
# `---` (markdown-it closes on those, see the module docstring and the two tests below).
LINE = st.sampled_from([
    "---", "--- ", "---\t", "...", "... ", " ...", "....", "a: 1", "b: [x, y]", "", "  ",
    "text", "# heading", "- item", "```", "--", "---x", "key: '---'", "  nested: 2",
])
FIRST = st.sampled_from(["---", "--- ", "---\t", "----", "---x", "text", "", " ---"])
BREAK = st.sampled_from(["\n", "\r\n", "\r"])


@settings(max_examples=400, deadline=None)
@given(FIRST, st.lists(LINE, max_size=12), BREAK, st.booleans())
def test_front_matter_agrees_with_markdown_it(
    first: str, lines: list[str], newline: str, final_break: bool
) -> None:
    text = newline.join([first, *lines]) + (newline if final_break else "")
    expected = reference(text)
    if first.rstrip(" \t") != "---":
        # markdown-it also opens on "----" and "---x": we require the `---` line.
        assert find_front_matter(text) is None
        return
    assert ours(text) == expected
    block = find_front_matter(text)
    if block is not None:
        assert frontmatter_lines(text, line_index(text)) == block.lines
        assert opens_front_matter(text)


def test_a_longer_dash_run_or_an_indented_dash_line_does_not_close() -> None:
    text = "---\ndescription: |\n   ---\n  ----\n---\nbody\n"
    block = find_front_matter(text)
    assert block is not None and block.lines == 5
    assert block.yaml(text) == "description: |\n   ---\n  ----\n"
    assert reference(text) == (3, "description: |")  # markdown-it stops inside the scalar


def test_yaml_document_end_closes_and_end_bounds_the_search() -> None:
    text = "---\ntitle: x\n...\n\n\n  body\n"
    block = find_front_matter(text)
    assert block is not None and block.lines == 3
    assert body_after(text, block) == "  body\n"
    assert find_front_matter(text, end=10) is None
    assert find_front_matter("---\ntitle: x\n") is None
    assert opens_front_matter("---\ntitle: x\n")


_PYTHON_FRONTMATTER = YAMLHandler()
PAGE_LINE = st.sampled_from(["title: x", "n: 1", "", "   ", "body", "  indented", "## h", "\u00a0"])


@settings(max_examples=300, deadline=None)
@given(st.lists(PAGE_LINE, max_size=5), st.lists(PAGE_LINE, max_size=6), BREAK.filter(lambda b: b != "\r"))
def test_page_split_is_python_frontmatters_for_pages_closed_by_dashes(
    meta_lines: list[str], body_lines: list[str], newline: str
) -> None:
    text = newline.join(["---", *meta_lines, "---", *body_lines])
    yaml_text, body = _PYTHON_FRONTMATTER.split(text)
    block = find_front_matter(text)
    assert block is not None
    assert body_after(text, block) == body.lstrip("\n")
    assert block.yaml(text).strip() == yaml_text.strip()


def test_unclosed_front_matter_is_a_malformed_page() -> None:
    with pytest.raises(ContractError, match="never closed"):
        split_page("---\ntitle: x\nbody\n", file="wiki/x.md")
    assert split_page("----\ntitle: x\n").meta == {}
    page = split_page("---\r\ntitle: x\r\n...\r\n\r\nbody\r\n")
    assert (page.meta, page.body) == ({"title": "x"}, "body\r\n")
