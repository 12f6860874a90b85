"""Fenced code is read one way everywhere, by CommonMark's rules; markdown-it-py is the
reference. The three bugs of the 2026-12-01 review (a tilde block holding backticks) first."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt

from tasks.checks.scan import markdown_links
from tasks.distill.entity_pages import merge_hand_sections
from tasks.markdown.fences import code_flags, fence_language, has_open_fence
from tasks.markdown.outline import first_sentence
from tasks.markdown.sections import split_sections

TILDE_HOLDING_BACKTICKS = "~~~markdown\n```\n[x](missing.md)\n## Relations\nnot prose.\n~~~\n"


def test_a_link_inside_a_tilde_block_is_code_and_the_link_after_it_is_found() -> None:
    body = f"Intro\n\n{TILDE_HOLDING_BACKTICKS}\nAfter [y](present.md)\n"
    assert markdown_links("wiki/concepts/a.md", body) == ["wiki/concepts/present.md"]


def test_hand_written_text_after_a_fenced_block_is_kept() -> None:
    old = ("# E\n\n## Observations\n\n- old\n\n## My notes\n\nExample:\n\n```md\n## Relations\n"
           "kept?\n```\n\nend\n")
    merged = merge_hand_sections("# E\n\n## Observations\n\n- a\n", old)
    assert merged.endswith("## My notes\n\nExample:\n\n```md\n## Relations\nkept?\n```\n\nend\n")
    assert not has_open_fence(merged)


def test_a_description_never_comes_from_inside_a_code_block() -> None:
    assert first_sentence(f"{TILDE_HOLDING_BACKTICKS}\nReal prose here.\n", markdown=True) == (
        "Real prose here.")


def test_proposal_sections_ignore_headings_in_code() -> None:
    split = split_sections(f"Intro\n\n## Real\n\n{TILDE_HOLDING_BACKTICKS}\n## Next\n\ntext\n")
    assert [section.anchor for section in split.sections] == ["real", "next"]


def test_closing_rules() -> None:
    lines = ["````", "```", "~~~~", "````  ", "after", "``` js `x`", "```js", "code", "```"]
    assert [code for _line, code in code_flags(lines)] == [
        True, True, True, True, False, False, True, True, True]
    assert has_open_fence("text\n~~~\nnever closed\n```\n")
    assert not has_open_fence("```\na\n```\n")


_MD = MarkdownIt("commonmark")


def reference_code_lines(text: str) -> set[int]:
    lines: set[int] = set()
    for token in _MD.parse(text):
        if token.type == "fence" and token.map:
            lines.update(range(token.map[0], token.map[1]))
    return lines


# Lines of container-free documents (no list or quote: see tasks.markdown.fences).
LINE = st.sampled_from([
    "```", "````", "~~~", "~~~~", "``` python", "~~~ md ```", "```js `x`", "   ```", "  ~~~~~",
    "``", "text with [a](b.md)", "## Heading", "", "more prose", "``` ", "~~~   ",
])


@settings(max_examples=300, deadline=None)
@given(st.lists(LINE, max_size=30))
def test_code_lines_agree_with_markdown_it(lines: list[str]) -> None:
    text = "\n".join(lines) + "\n"
    ours = {number for number, (_line, code) in enumerate(code_flags(text.split("\n")[:-1])) if code}
    assert ours == reference_code_lines(text)


def test_a_fence_lines_language_is_its_info_strings_first_word() -> None:
    assert fence_language("```bash title=run.sh") == "bash"
    assert fence_language("   ~~~  shell-session") == "shell-session"
    assert fence_language("      ```console") == "console"  # inside a list item
    assert fence_language("```") == ""
    assert fence_language("```{r}") == ""
    assert fence_language("bash") is None
    assert fence_language("``not a fence") is None


def test_a_colon_fenced_diagram_is_found_and_an_admonition_is_not() -> None:
    """Azure DevOps wiki's "::: mermaid" ... ":::" holds a diagram's source; Docusaurus's
    ":::note" ... ":::" holds prose and is no diagram."""
    from tasks.markdown.fences import colon_diagrams

    lines = ["Text.", "", "::: mermaid", "graph LR", "  A --> B", ":::", "", ":::note", "Prose.", ":::"]
    assert colon_diagrams(lines) == [(2, 6)]
    assert colon_diagrams([":::mermaid", "graph TD"]) == [(0, 2)]  # never closed: to the end
    assert colon_diagrams(["    ::: mermaid", "x", ":::"]) == []  # indented 4: a code block's text
