"""Links are read one way (tasks.markdown.links): the line fast path reconcile uses agrees with
markdown-it-py's inline tokens, the reference."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from tasks.markdown.links import (
    INLINE_LINK_RE,
    link_targets,
    local_link_paths,
    prose_link_targets,
    typed_anchor_links,
)

TARGET = st.sampled_from([
    "a.md", "../b.md", "c/d.md#part", "e.md?x=1", "https://x.org/y", "#top", "/abs.md", "img.png",
    "mailto:x@y.org", "f-g_h.md",
])
TEXT = st.sampled_from(["x", "two words", "**bold**", "", "a_b"])


@st.composite
def link(draw: st.DrawFn) -> str:
    target = draw(TARGET)
    spelled = draw(st.sampled_from([target, f"<{target}>", f" {target} ", f'{target} "title"']))
    return f"{draw(st.sampled_from(['', '!']))}[{draw(TEXT)}]({spelled})"


# Lines of container-free texts without the constructs the fast path does not read (see the
# module docstring): fences, headings, tables and prose around links.
LINE = st.one_of(
    st.sampled_from(["```", "~~~", "````", "text", "", "## Heading", "| a | b |", "|---|---|",
                     "---", "[not a link]", "](", "plain (paren)"]),
    st.builds(lambda a, b, c: f"{a}{b}{c}", st.sampled_from(["", "see ", "| "]), link(),
              st.sampled_from(["", " and more", " |"])),
    st.builds(lambda a, b: f"{a} {b}", link(), link()),
)


@settings(max_examples=400, deadline=None)
@given(st.lists(LINE, max_size=14))
def test_prose_links_agree_with_markdown_it(lines: list[str]) -> None:
    text = "\n".join(lines) + "\n"
    assert prose_link_targets(text) == link_targets(text)


def test_local_link_paths() -> None:
    body = ("[a](b.md) ![i](../img/p.png) [w](https://x.org) [s](#top) [q](c.md?x#y)\n"
            "~~~\n[code](gone.md)\n~~~\n[e](d%20e.md) [up](../../../out.md)\n")
    assert local_link_paths("wiki/concepts/a.md", body) == [
        "../out.md", "wiki/concepts/b.md", "wiki/concepts/c.md", "wiki/concepts/d e.md",
        "wiki/img/p.png"]


def test_inline_link_parts_and_typed_links() -> None:
    line = "see [ADR [10]](0010-x.md) and ![img](p.png \"t\")"
    found = [(m.group(1), m.group(2), m.group(3)) for m in INLINE_LINK_RE.finditer(line)]
    assert found == [("", "ADR [10]", "0010-x.md"), ("!", "img", "p.png")]
    body = 'x <a rel="derived-from" href="prismer://asset/a1">s</a> <A HREF=\'w/p.md\' Rel="Child_Of">'
    assert typed_anchor_links(body) == [("derived-from", "prismer://asset/a1"), ("child_of", "w/p.md")]


def test_a_million_openers_is_linear() -> None:
    assert prose_link_targets("[" * 200_000 + "](" * 100_000) == []
    assert list(INLINE_LINK_RE.finditer("[" * 200_000)) == []
