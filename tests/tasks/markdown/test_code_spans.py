"""Code spans are read one way (tasks.markdown.code_spans): the line reader agrees with
markdown-it-py's `code_inline` tokens, and no module outside the markdown layer finds code
spans with its own regex."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tasks.markdown.code_spans import (
    CodeSpan,
    code_span_contents,
    code_spans,
    mask_code_spans,
    replace_code_spans,
)
from tasks.markdown.parser import inline_parser
from tests.shipped_code import shipped_modules

# Backtick runs of every length that matters, escapes, spaces (stripped or kept at a span's
# ends), letters, and brackets and emphasis marks that must not change where a span is.
LINE = st.lists(
    st.sampled_from(["`", "``", "```", "\\", "\\`", " ", "  ", "a", "bc", "*", "_", "[", "]", "!"]),
    max_size=14,
).map("".join)


def reference_spans(line: str) -> list[tuple[str, str]]:
    """(backtick run, content) of markdown-it's code_inline tokens for `line` as a paragraph's
    only line: prefixed with "p " so no block rule (fence, indented code, heading, list item)
    takes it. One line holds no line ending, so none is turned into a space; a span's content
    is compared after markdown-it's one-space strip, which code_spans does too."""
    return [
        (child.markup, child.content)
        for token in inline_parser().parse(f"p {line}") if token.type == "inline"
        for child in token.children or [] if child.type == "code_inline"
    ]


def _run(line: str, start: int) -> str:
    """The backtick run at `line[start]`."""
    return line[start:len(line) - len(line[start:].lstrip("`"))]


@settings(max_examples=1500)
@given(LINE)
def test_code_spans_agree_with_markdown_it(line: str) -> None:
    text = f"p {line}"
    spans = code_spans(text)
    written = [text[span.start:span.end] for span in spans]
    runs = [_run(text, span.start) for span in spans]
    assert list(zip(runs, [span.content for span in spans], strict=True)) == reference_spans(line)
    for span, run in zip(written, runs, strict=True):  # each span as written: run, text, run
        assert span.endswith(run) and len(span) > 2 * len(run)
    assert code_span_contents(text) == [span.content for span in spans]
    masked = mask_code_spans(text, "#")
    assert masked == "".join(
        "#" if any(span.start <= index < span.end for span in spans) else char
        for index, char in enumerate(text)
    )
    assert replace_code_spans(text, "#") == re.sub("#+", "#", masked)


@pytest.mark.parametrize(("line", "spans"), [
    ("no code", []),
    ("a `b` c `d`", [CodeSpan(2, 5, "b"), CodeSpan(8, 11, "d")]),
    ("``a`b`` c", [CodeSpan(0, 7, "a`b")]),  # a run of two closes only at a run of two
    ("`a``b`", [CodeSpan(0, 6, "a``b")]),
    ("`` ` ``", [CodeSpan(0, 7, "`")]),  # one space stripped from each end
    ("` `", [CodeSpan(0, 3, " ")]),  # all spaces: kept
    ("`  a  `", [CodeSpan(0, 7, " a ")]),
    ("```", []),  # an unclosed run is text
    ("`` a ` b", []),
    ("``a` `b`", [CodeSpan(3, 6, " ")]),  # the unclosed run is text; the next run opens
    ("\\`a` b`", [CodeSpan(3, 7, " b")]),  # an escaped backtick opens nothing
    ("\\``a`", [CodeSpan(2, 5, "a")]),  # the rest of an escaped run opens
    ("\\\\`a`", [CodeSpan(2, 5, "a")]),  # an escaped backslash escapes no backtick
    ("`a\\`", [CodeSpan(0, 4, "a\\")]),  # no escape inside a span
])
def test_code_spans(line: str, spans: list[CodeSpan]) -> None:
    assert code_spans(line) == spans
    assert [(_run(line, span.start), span.content) for span in spans] == reference_spans(line)
    assert code_span_contents(line) == [span.content for span in spans]


def test_mask_keeps_offsets_and_replace_drops_each_span() -> None:
    line = "see ``a`b`` and `c` here"
    assert mask_code_spans(line) == "see         and     here"
    assert mask_code_spans(line, "x") == "see xxxxxxx and xxx here"
    assert replace_code_spans(line) == "see   and   here"
    assert replace_code_spans(line, "") == "see  and  here"
    assert mask_code_spans("no code") == "no code" and replace_code_spans("`a") == "`a"


# A code span in a regex source: a backtick, maybe a group, then a class or run of anything
# but backticks ("`([^`]+)`", "`(?P<code>.+?)`"); a fence's "`{3,}" is none.
_SPAN_PATTERN_RE = re.compile(r"`\(?(?:\?P<\w+>)?(?:\[\^`|\.[*+])")


def _span_regexes(path: Path) -> list[int]:
    """Lines where `path` compiles a regex that reads a code span."""
    return [
        node.lineno
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
        and node.func.attr == "compile" and isinstance(node.func.value, ast.Name)
        and node.func.value.id == "re" and node.args
        and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)
        and _SPAN_PATTERN_RE.search(node.args[0].value)
    ]


def test_only_the_markdown_layer_reads_code_spans(tmp_path: Path) -> None:
    found = [
        f"{rel}:{number}"
        for rel, path in shipped_modules()
        if not rel.startswith("tasks/markdown/")
        for number in _span_regexes(path)
    ]
    assert found == [], "read code spans with tasks.markdown.code_spans"
    sample = tmp_path / "sample.py"
    sample.write_text("import re\n" + "".join(
        f"X{number} = re.compile(r{pattern!r})\n" for number, pattern in enumerate([
            "`([^`\\n]+)`", "`[^`]+`", "`(?P<code>.+?)`", "x`.*`", "`{3,}|~{3,}", "[`*_]"])))
    assert _span_regexes(sample) == [2, 3, 4, 5]
