"""The shared parsers run exactly the rules their callers had (the inline rule off in block
parsers: it would triple the cost of the block model's and the shard planner's parse)."""

from __future__ import annotations

from markdown_it import MarkdownIt

from tasks.markdown.parser import block_parser, front_matter_parser, inline_parser
from tests.shipped_code import shipped_modules


def rules(parser: MarkdownIt) -> dict[str, list[str]]:
    """The active rules, less the gated parsers' dispatch (tasks.markdown.rule_gates), which
    only calls the block rules that follow it."""
    active = parser.get_active_rules()
    return {chain: [rule for rule in names if rule != "gated_dispatch"]
            for chain, names in active.items()}


def test_block_parsers_run_the_rules_their_callers_built() -> None:
    shard = MarkdownIt("commonmark", {"html": True}).enable("table").disable("inline")
    assert rules(block_parser()) == rules(shard)
    search = (MarkdownIt("commonmark", {"html": True}).enable("table")
              .disable(["inline", "list", "blockquote"]))
    assert rules(block_parser(lists=False, quotes=False)) == rules(search)
    custodian = MarkdownIt("commonmark").disable("inline")
    assert rules(block_parser(html=False, tables=False)) == rules(custodian)
    assert block_parser(html=False, tables=False).options["html"] is False
    blocks = MarkdownIt("commonmark", {"html": True}).enable("table").disable(["inline", "list"])
    assert rules(block_parser(lists=False)) == rules(blocks)  # a body with a quote
    assert "inline" not in rules(block_parser())["core"]


def test_parsers_are_built_once() -> None:
    assert block_parser() is block_parser()
    assert inline_parser() is inline_parser()
    assert "inline" in rules(inline_parser())["core"]
    tokens = front_matter_parser().parse("---\na: 1\n---\ntext\n")
    assert tokens[0].type == "front_matter" and tokens[0].content == "a: 1"


def test_only_the_markdown_layer_builds_a_parser() -> None:
    builders = [
        f"{rel}:{number}"
        for rel, path in shipped_modules()
        if not rel.startswith("tasks/markdown/")
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if "MarkdownIt(" in line
    ]
    assert builders == [], "take a parser from tasks.markdown.parser"
