"""tasks.markdown.rule_gates: a gated parser gives markdown-it's own tokens, token for token
(types, maps, levels, markup, content, children), for every rule set the project builds."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt

from tasks.markdown.parser import block_parser, inline_parser
from tasks.markdown.rule_gates import gate_block_rules
from tests.conftest import CORPUS

# (html, tables, lists, quotes, indented code): the sets block_parser is asked for, and more.
RULE_SETS = [
    (True, True, True, True, True),
    (True, False, False, False, True),
    (True, False, False, True, True),
    (True, True, True, True, False),
    (False, False, True, True, True),
    (True, True, False, False, True),
]


def stock(html: bool, tables: bool, lists: bool, quotes: bool, code: bool) -> MarkdownIt:
    parser = MarkdownIt("commonmark", {"html": html})
    if tables:
        parser.enable("table")
    rules = {"inline": False, "list": lists, "blockquote": quotes, "code": code}
    return parser.disable([rule for rule, kept in rules.items() if not kept])


def gated(html: bool, tables: bool, lists: bool, quotes: bool, code: bool) -> MarkdownIt:
    return gate_block_rules(stock(html, tables, lists, quotes, code))


PAIRS = [(stock(*rule_set), gated(*rule_set)) for rule_set in RULE_SETS]

# Every line start a block rule looks at: markers of each rule with and without what they need
# after them, at every indent, setext underlines, table delimiter rows, reference definitions,
# HTML of each kind, lazy lines, tabs, and lines that only look like openers.
LINE = st.sampled_from([
    "", "", "text", "more text", "# Title", "## Sub ##", "#no", "   ### deep", "    ## code",
    "\t## tab", "===", "---", "- - -", "* * *", "___", "-", "--", "=", "Budget", "- item",
    "* star", "+ plus", "1. one", "2) two", "10. ten", "1.x", "-x", "  - nested", "    - deeper",
    "- ## x", "- ```", "- > q", "> quote", "> ## q", ">", "> - r", "```", "```py", "~~~",
    "````", "  ```", "     ```", "`code` text", "~x", "<div>", "</div>", "  <div>",
    "<!-- note", "-->", "<?pi ?>", "<![CDATA[", "]]>", "<pre>", "</pre>", "<x-y a=1>", "<b>",
    "[ref]: /url", "[ref]: /url 'title'", "[not a ref]", "   [r]: <u>", "| a | b |",
    "|---|---|", "a | b", "--|--", ":-:|", "|", "    indented code", "\tcode", "  lazy",
    "_em_", "*em*", "+", "0.", "<https://x>", "- [ ] task", "- | a |", "  |---|",
    # blanks and tabs in an indent, a line of blanks (last too), line ends and NUL to normalize
    "  ", " \t", "\t", " \t  - mixed", "  \t```", "\t\t> q", "a\r", "\r", "b\rc", "\0", "x\0y",
])


@settings(max_examples=800, deadline=None)
@given(st.lists(LINE, max_size=24), st.sampled_from(range(len(RULE_SETS))), st.booleans())
def test_a_gated_parser_gives_markdown_its_tokens(lines: list[str], rule_set: int,
                                                  newline: bool) -> None:
    body = "\n".join(lines) + ("\n" if newline else "")
    plain, fast = PAIRS[rule_set]
    assert fast.parse(body) == plain.parse(body)


def test_the_shared_parsers_are_gated_and_give_the_same_tokens() -> None:
    body = "# T\n\n- a\n  ## b\n\n> q\n\n| a |\n|---|\n| 1 |\n\n```\nx\n```\n[r]: /u\ntext\n---\n"
    assert block_parser().parse(body) == stock(True, True, True, True, True).parse(body)
    full = MarkdownIt("commonmark", {"html": True}).enable("table")
    assert inline_parser().parse(body) == full.parse(body)
    assert block_parser().parse(body)  # not an empty reading that would compare equal
    for parser in (block_parser(), block_parser(lists=False, quotes=False), inline_parser()):
        assert parser.get_active_rules()["block"][0] == "gated_dispatch"


def test_setext_headings_and_paragraphs_next_to_lists_and_references() -> None:
    # the setext gate reads ahead for an underline ("-" also opens a list, "=" under a
    # reference definition is a paragraph); without one it gives up as the rule does
    for body in ("a\nb\n\n2. x\n", "a\n---\n1. x\n", "a\n\n    b\n===\n", "[r]: /u\n===\n"):
        for plain, fast in PAIRS:
            assert fast.parse(body) == plain.parse(body), body


@pytest.mark.parametrize("rule_set", range(len(RULE_SETS)))
def test_every_corpus_document_reads_the_same(rule_set: int) -> None:
    plain, fast = PAIRS[rule_set]
    paths = sorted(CORPUS.rglob("*.md"))
    assert len(paths) > 100
    for path in paths:
        text = path.read_text(encoding="utf-8", errors="replace")
        assert fast.parse(text) == plain.parse(text), path
