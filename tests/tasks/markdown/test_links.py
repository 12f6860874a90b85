"""Links are read one way (tasks.markdown.links): the line fast path reconcile uses agrees with
markdown-it-py's inline tokens, the reference, code spans included (a link written in one is no
link, so reconcile reports no dead link for it); typed `<a>` links are the raw HTML markdown-it
reads, never a tag in code."""

from __future__ import annotations

import posixpath
from pathlib import Path
from urllib.parse import unquote

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tasks.checks.reconcile import reconcile_memory
from tasks.markdown.fences import prose_lines
from tasks.markdown.links import (
    INLINE_LINK_RE,
    SCHEME_RE,
    _plain_path,
    link_targets,
    local_link_paths,
    prose_link_targets,
    typed_anchor_links,
)
from tasks.markdown.parser import inline_parser
from tasks.proposals.gate import asset_pointers
from tasks.store.operation import begin_operation
from tasks.store.settings import load_settings
from tests.memory_builder import CONCEPT, NOW, build_healthy_memory

normalize_link = inline_parser().normalizeLink

TARGET = st.sampled_from([
    "a.md", "../b.md", "c/d.md#part", "e.md?x=1", "https://x.org/y", "#top", "/abs.md", "img.png",
    "mailto:x@y.org", "f-g_h.md", "g`h.md",
])
# Link texts: a code span in one stays inside it (one that ran past the "]" would make the
# brackets after it nested, which the fast path does not read).
TEXT = st.sampled_from(["x", "two words", "**bold**", "", "a_b", "`x`", "``z`` ", "\\`"])
# Backtick runs that open, close or stand alone: spans around links, inside link texts and
# over lines (two lines of one paragraph, or split by a blank line, heading or table row).
TICKS = st.sampled_from(["", "`", "``", "```", " `", "\\`"])
MARK = st.sampled_from(["", "!", "\\"])  # a link, an image, an escaped bracket


@st.composite
def link(draw: st.DrawFn) -> str:
    target = draw(TARGET)
    spelled = draw(st.sampled_from([target, f"<{target}>", f" {target} ", f'{target} "title"']))
    return f"{draw(MARK)}[{draw(TEXT)}]({spelled})"


# Lines of container-free texts without the constructs the fast path does not read (see the
# module docstring): fences, headings, tables, code spans and prose around links.
LINE = st.one_of(
    st.sampled_from(["```", "~~~", "````", "text", "", "## Heading", "| a | b |", "|---|---|",
                     "---", "[not a link]", "](", "plain (paren)", "`", "``", "a ` b", "`c` d",
                     "a <span title=\"`\">", "## `h"]),
    st.builds(lambda a, o, b, c, z: f"{a}{o}{b}{c}{z}", st.sampled_from(["", "see ", "| "]),
              TICKS, link(), TICKS, st.sampled_from(["", " and more", " |"])),
    st.builds(lambda a, o, b: f"{a} {o}{b}", link(), TICKS, link()),
)


def reference_targets(text: str) -> list[str]:
    """link_targets without autolinks ("<https://x.org>" outside a link), which the fast path
    does not read."""
    return [
        str(child.attrs.get("href" if child.type == "link_open" else "src", ""))
        for token in inline_parser().parse(text) for child in token.children or []
        if child.type == "image" or (child.type == "link_open" and child.markup != "autolink")
    ]


def _fence_or_table(line: str) -> bool:
    """A "```" line holding a "|": over a delimiter row markdown-it reads a table header (its
    table rule runs before the fence rule), the line-level fence reader a fence (left to
    tasks/markdown/fences.py)."""
    return line.startswith("```") and "|" in line


def texts() -> st.SearchStrategy[str]:
    lines = st.lists(LINE.filter(lambda line: not _fence_or_table(line)), max_size=14)
    return lines.map(lambda lines: "\n".join(lines) + "\n")


@settings(max_examples=1000, deadline=None)
@given(texts())
def test_prose_links_agree_with_markdown_it(text: str) -> None:
    assert [normalize_link(t) for t in prose_link_targets(text)] == reference_targets(text)


@settings(max_examples=300, deadline=None)
@given(texts())
def test_local_link_paths_agree_with_markdown_it(text: str) -> None:
    expected = set()
    for href in reference_targets(text):
        path = unquote(href.split("#", 1)[0].split("?", 1)[0])
        if path and not href.startswith(("#", "/")) and not SCHEME_RE.match(href):
            expected.add(posixpath.normpath(posixpath.join("wiki/concepts", path)))
    assert local_link_paths("wiki/concepts/p.md", text) == sorted(expected)


@settings(max_examples=300, deadline=None)
@given(texts().filter(lambda text: "`" not in text and "\\" not in text and "<" not in text))
def test_inline_link_re_agrees_with_markdown_it_outside_code(text: str) -> None:
    """INLINE_LINK_RE reads one line and knows no code span (extract's line readers mask
    single-backtick spans before they use it)."""
    found = [normalize_link(m.group(3)) for line in prose_lines(text.splitlines())
             for m in INLINE_LINK_RE.finditer(line)]
    assert found == reference_targets(text)


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
    # Backtick runs: 1,400 unclosed runs of distinct lengths (about a million characters),
    # link texts opening spans, escapes and tags; each is a few hundred milliseconds at most.
    assert prose_link_targets("".join("`" * i + "[x" for i in range(1, 1400))) == []
    assert prose_link_targets("[`a](" * 50_000 + "`") == []
    assert prose_link_targets("\\`[" * 100_000 + '<a b="' * 100_000) == []
    # one span per two lines of a paragraph: one link per two lines
    assert prose_link_targets("`[x](a.md)\n" * 20_000) == ["a.md"] * 10_000


# Inline code spans (CommonMark 6.1): a run of n backticks opens a span that closes only at the
# next run of exactly n backticks, across the lines of a paragraph; a run never closed is text.
@pytest.mark.parametrize(("text", "targets"), [
    ("use `[x](missing.md)` syntax\n", []),
    ("``a ` [x](m.md) ``\n", []),
    ("``a [x](m.md) `b`\n", ["m.md"]),  # "``" never closes: it is text
    ("`[x](a.md)`` [y](b.md)\n", ["a.md", "b.md"]),  # "`" finds no lone "`" to close with
    ("[`x`](a.md) and [`y](b.md)`\n", ["a.md"]),
    ("see `a\n[x](m.md)` b\n", []),  # a span runs over the lines of its paragraph
    ("see `a\n\n[x](m.md)` b\n", ["m.md"]),  # ... but not past a blank line
    ("see `a\n## H [x](m.md)`\n", ["m.md"]),  # ... nor into a heading
    ("[x](a`b.md) `c`\n", ["a`b.md"]),  # a link's target is read before any span after it
    ("\\`[x](a.md)`\n", ["a.md"]),  # an escaped backtick opens nothing
    ("\\\\`[x](a.md)`\n", []),  # an escaped backslash escapes nothing
    ("\\[x](a.md)\n", []),  # an escaped bracket opens no link
    ('<span title="`">[x](a.md)`\n', ["a.md"]),  # an HTML tag is read before a span
])
def test_links_inside_code_spans_are_not_links(text: str, targets: list[str]) -> None:
    assert [normalize_link(t) for t in targets] == link_targets(text)  # the reference agrees
    assert prose_link_targets(text) == targets


def test_local_link_paths_skip_code_spans() -> None:
    body = "Write links as `[text](missing.md)` or ``[t](`gone.md`)``; see [real](b.md).\n"
    assert local_link_paths("wiki/concepts/a.md", body) == ["wiki/concepts/b.md"]


def test_typed_anchor_links_skip_code() -> None:
    body = (
        'Write `<a rel="derived-from" href="prismer://asset/in-span">` to point at an asset.\n\n'
        '```html\n<a rel="child_of" href="wiki/fenced.md">x</a>\n```\n\n'
        '    <a rel="child_of" href="wiki/indented.md">x</a>\n\n'
        'Real: <a rel="derived-from" href="prismer://asset/a1">s</a>\n\n'
        '<div>\n<a rel="child_of" href="wiki/block.md">b</a>\n</div>\n'
    )
    assert typed_anchor_links(body) == [
        ("derived-from", "prismer://asset/a1"), ("child_of", "wiki/block.md")]
    assert typed_anchor_links("`<a rel=\"x\" href=\"y\">`\n~~~\n<a rel='x' href='y'>\n~~~\n") == []
    # The write gate asks for the assets a body points at: none from a documented example.
    assert asset_pointers(body) == ["a1"]


def test_reconcile_reports_no_dead_link_inside_a_code_span(tmp_path: Path) -> None:
    root = tmp_path / "memory"
    build_healthy_memory(root)
    page = root / CONCEPT
    text = page.read_text()
    old = "How work moves"
    assert old in text
    page.write_text(text.replace(
        old, "Links are written `[text](missing-page.md)`, ``[t](`gone.md`)`` or\n`[t](\n"
        "also-gone.md)`. " + old))
    _report, summary = reconcile_memory(
        begin_operation(load_settings(root, fixed_clock=NOW), "reconcile"), check=True)
    assert summary.status == "healthy", summary.findings
    assert not [f for f in summary.findings if f.code == "dead_link"]
    page.write_text(text.replace(old, "See [gone](missing-page.md). " + old))
    _report, summary = reconcile_memory(
        begin_operation(load_settings(root, fixed_clock=NOW), "reconcile"), check=True)
    assert [f.code for f in summary.findings if f.code == "dead_link"] == ["dead_link"]


def _resolved_the_long_way(base: str, target: str) -> str | None:
    """local_link_paths's steps for one target, none skipped."""
    if target.startswith(("#", "/")) or SCHEME_RE.match(target):
        return None
    path = unquote(target.split("#", 1)[0].split("?", 1)[0])
    return posixpath.normpath(posixpath.join(base, path)) if path else None


@settings(max_examples=600, deadline=None)
@given(st.sampled_from(["", "wiki/concepts", "wiki", "a/b.c/d", "../up", "x/./y", "x//y"]),
       st.text(alphabet="ab.:/%#?-_ 2", min_size=1, max_size=14))
def test_a_plain_link_resolves_as_written_joined_to_its_folder(base: str, target: str) -> None:
    """The plain paths local_link_paths takes as written are the ones its steps leave so."""
    if _plain_path(target) and (not base or _plain_path(base)):
        assert _resolved_the_long_way(base, target) == (f"{base}/{target}" if base else target)
    rel = f"{base}/page.md" if base else "page.md"
    expected = _resolved_the_long_way(base, target)
    if "]" not in target and "(" not in target and ")" not in target and " " not in target:
        assert local_link_paths(rel, f"See [it]({target}).\n") == ([expected] if expected else [])
