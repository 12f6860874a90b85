"""The markdown-it-py parsers of the project, built once each (a parser is costly to build and
safe to share: `parse` keeps its state in the call).

Every module that needs markdown structure takes its parser here, so the rule sets are named in
one place. All are CommonMark; what differs is how much of the grammar a caller pays for:

- `block_parser`: block tokens with line maps, the `inline` rule off (a heading's or
  paragraph's `inline` token still carries its raw text in `.content`). Options turn raw HTML
  blocks, GFM tables and the list/quote/indented-code rules on or off.
- `inline_parser`: the full parse with inline children (links, images, inline HTML).
- `front_matter_parser`: the full parse plus mdit-py-plugins' `front_matter` rule, the
  reference the front-matter fast path is tested against (tasks.markdown.frontmatter).

The block rules of the first two are gated (tasks.markdown.rule_gates): the same tokens, with
the rule calls that cannot match skipped.
"""

from __future__ import annotations

from functools import lru_cache

from markdown_it import MarkdownIt
from mdit_py_plugins.front_matter import front_matter_plugin

from tasks.markdown.rule_gates import gate_block_rules


@lru_cache(maxsize=8)
def block_parser(
    *,
    html: bool = True,
    tables: bool = True,
    lists: bool = True,
    quotes: bool = True,
    indented_code: bool = True,
) -> MarkdownIt:
    """Block structure only. `lists=False` / `quotes=False` turn off list and block-quote
    containers (a heading inside one is then read as a top-level line, as a line scanner sees
    it, and long bulleted texts parse about twice as fast); `indented_code=False` reads 4-space
    indented lines as text."""
    parser = MarkdownIt("commonmark", {"html": html})
    if tables:
        parser.enable("table")
    rules = {"inline": False, "list": lists, "blockquote": quotes, "code": indented_code}
    return gate_block_rules(parser.disable([rule for rule, kept in rules.items() if not kept]))


@lru_cache(maxsize=8)
def inline_parser(*, html: bool = True) -> MarkdownIt:
    """The whole grammar, GFM tables included: inline tokens as children of `inline` tokens."""
    return gate_block_rules(MarkdownIt("commonmark", {"html": html}).enable("table"))


@lru_cache(maxsize=1)
def front_matter_parser() -> MarkdownIt:
    return MarkdownIt("commonmark", {"html": True}).enable("table").use(front_matter_plugin)
