"""tasks.markdown.blocks, the one block model: its reading of a body against markdown-it's whole
block grammar, its sections, and the guard that no module outside tasks/markdown reads fence or
ATX-heading syntax itself."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from tasks.markdown.blocks import _parsed_reading, _plain_reading, plain_titles, read_blocks, sections
from tasks.markdown.parser import block_parser
from tests.conftest import REPO_ROOT
from tests.shipped_code import shipped_modules
from tests.tasks.store.test_layering import imported_tasks_modules

# The four inputs the readers disagreed on (review 2026-12-01 pm, smell 1), with the anchors
# CommonMark gives them: an indented ATX heading is one, a heading inside an HTML block is not,
# a setext heading is one, a heading indented under a list item belongs to the item.
FOUR_INPUTS = {
    "intro\n\n   ## Budget\n\ntext\n": ["budget"],
    "<div>\n## Inside\n</div>\n": [],
    "Budget\n------\n\ntext\n": ["budget"],
    "- item\n\n  ## nested\n": [],
}

# Headings of every form (ATX indented 0-4 spaces or a tab, setext underlines, closing hashes,
# explicit anchors), the containers that hold or end them (list items, quotes, HTML blocks),
# fences and tables.
LINE = st.sampled_from([
    "## Retry budget", "## Retry budget", "## Notes {#n}", "## Ünïcode ##", "### Sub", "# Title",
    " ## One", "  ## Two", "   ## Budget", "    ## code", "\t## Tab", "Budget", "------", "===",
    "text", "more text", "", "", "```", "~~~", "````md", "  ```", "- item", "1. first", "- ```",
    "  ## nested", "   - deeper", "> quote", "> ## Quoted", "> ```", "<div>", "</div>", "  <div>",
    "<!-- note -->", "  <!-- open", "-->", "     ```", "  x", "* * *", "| a |", "|---|",
    "   </pre>", "    - ## x", "10. a", "- | a |", "  |---|", "a | b", "--|--", "-", "- <div>",
    "- <https://x>", "  <b>", "    text", "- - x", "-\tx", "> - r",
])


@settings(max_examples=600, deadline=None)
@given(st.lists(LINE, max_size=24))
def test_the_fast_reading_gives_the_whole_grammars_top_level_headings_and_fences(
    lines: list[str],
) -> None:
    body = "\n".join(lines) + "\n"
    tokens = block_parser().parse(body)
    headings = [(t.map[0], t.map[1], int(t.tag[1]), tokens[i + 1].content.strip())
                for i, t in enumerate(tokens)
                if t.type == "heading_open" and t.level == 0 and t.map]
    fences = [(t.map[0], t.map[1]) for t in tokens if t.type == "fence" and t.level == 0 and t.map]
    blocks = read_blocks(body)
    assert [(h.line, h.body_line, h.level, h.text)
            for h in blocks.headings if h.depth == 0] == headings
    assert set(fences) <= {(f.start, f.end) for f in blocks.fences if f.depth == 0}


# Lines of plain bodies and the lines next to them that are not plain: headings of every
# length with closing hashes and blanks, emphasis, code spans and bullets at the margin, the
# rules, underlines, fences and openers their first characters could begin.
PLAIN_LINE = st.sampled_from([
    "## Retry budget", "# T", "#", "# ", "## x ##", "### x #\t", "#\tx", "###### six", "####### 7",
    "#x", "##x", "#5", "_None yet._", "__init__", "_ x", "*x*", "**b**", "* x", "+ x", "- x",
    "- [a](b)", "- `c`", "- **b**", "- - x", "- ***", "-x", "-", "- ", "--", "---", "===", "=x",
    "`code`", "``x", "```", "~x", "~~~", "text", "more", "2026 was", "1. a", "10) b", "| a |",
    "", " ", "\t", "  x", "<b>", "[a]: b", "> q", "a\0b", "\u00a0x", "x  ", "#  a  #  ",
])


@settings(max_examples=800, deadline=None)
@given(st.lists(PLAIN_LINE, max_size=16), st.booleans())
def test_a_plain_body_is_read_as_markdown_it_reads_it(lines: list[str], newline: bool) -> None:
    body = "\n".join(lines) + ("\n" if newline else "")
    split = tuple(body.split("\n"))
    plain = _plain_reading(body, split)
    if plain is not None:
        assert plain == _parsed_reading(body, split)


def test_plain_bodies_are_read_without_a_parse() -> None:
    body = "# Pydantic\n\nA technology.\n\n## Observations\n\n- a [x](y)\n- b\n\n## Relations\n\n_None yet._\n"
    plain = _plain_reading(body, tuple(body.split("\n")))
    assert plain is not None and plain == _parsed_reading(body, tuple(body.split("\n")))
    assert [(h.line, h.level, h.text) for h in plain.headings] == [
        (0, 1, "Pydantic"), (4, 2, "Observations"), (9, 2, "Relations")]
    assert plain.paragraphs == ((2, 3), (6, 8), (11, 12))
    for other in ("x\n---\n", "```\n# x\n```\n", "- ## x\n", "  # x\n", "<div>\n# x\n"):
        assert _plain_reading(other, tuple(other.split("\n"))) is None


def test_sections_cut_at_their_level_with_anchors_lines_and_markup() -> None:
    body = ("# T\n\npre\n\n## A {#x}\n\ntext\n### Sub\n\nmore\n\nB b\n---\n\n"
            "- item\n\n  ## in the item\n\n## A\n")
    blocks = read_blocks(body)
    preamble, x, b, a = sections(blocks, 2)
    assert (preamble.anchor, preamble.text, preamble.subheadings) == ("", "# T\n\npre", ("T",))
    assert (x.anchor, x.heading, x.markup, x.line, x.body_line, x.end) == (
        "x", "A {#x}", "## A {#x}", 4, 5, 11)
    assert x.text == "text\n### Sub\n\nmore" and x.subheadings == ("Sub",)
    assert (b.anchor, b.heading, b.markup, b.line, b.body_line) == ("b-b", "B b", "B b\n---", 11, 13)
    assert b.subheadings == ("in the item",) and "## in the item" in b.text
    assert (a.anchor, a.text, a.end) == ("a", "", 20)  # to the end of body.split("\n")
    every = sections(blocks, None)
    assert [(s.level, s.heading, s.anchor) for s in every] == [
        (0, "", ""), (1, "T", ""), (2, "A {#x}", ""), (3, "Sub", ""), (2, "B b", ""), (2, "A", "")]


def test_line_numbers_follow_the_newlines_of_the_body() -> None:
    body = "a\r\n## X\r\ntext\rmore\n## Y\n"  # a lone \r ends no line of body.split("\n")
    blocks = read_blocks(body)
    assert [(h.line, h.text) for h in blocks.headings] == [(1, "X"), (3, "Y")]
    assert blocks.lines == tuple(body.split("\n"))


def test_a_fence_knows_its_code_lines() -> None:
    blocks = read_blocks("text\n\n```py\na\nb\n```\n\n~~~\nopen to the end\n")
    assert [(f.start, f.end, f.content_start, f.content_end) for f in blocks.fences] == [
        (2, 6, 3, 5), (7, 9, 8, 9)]


def test_paragraphs_are_the_fast_readings_whichever_reading_gives_the_headings() -> None:
    """A list item over `---` makes the whole grammar read the headings (a list and a rule,
    not a setext heading); the table is still one paragraph, as distill reads sentences and
    links from paragraphs the same way in every body."""
    blocks = read_blocks("# T\n\n- a\n- b\n---\n\n| k | v |\n|---|---|\n| x | y |\n")
    assert [(h.line, h.text) for h in blocks.headings] == [(0, "T")]
    assert blocks.paragraphs == ((6, 9),)


# Fence syntax (a run of three backticks or tildes, or a regex of one) in any string, and
# ATX-heading syntax in a regex: a "#" repeated, quantified or followed by a blank.
_FENCE_SYNTAX_RE = re.compile(r"```|~~~|`\{3|~\{3")
_ATX_PATTERN_RE = re.compile(r"#(?:\{\d|[+*]|#|\[ |\[\\t|\\s|\\t| )")
_RE_CALLS = frozenset({"compile", "match", "fullmatch", "search", "sub", "subn", "split",
                       "findall", "finditer"})


def _strings(node: ast.AST) -> list[str]:
    values = node.elts if isinstance(node, ast.Tuple) else [node]
    return [v.value for v in values if isinstance(v, ast.Constant) and isinstance(v.value, str)]


def _docstrings(tree: ast.Module) -> set[int]:
    nodes = [tree, *(n for n in ast.walk(tree)
                     if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef))]
    return {id(n.body[0].value) for n in nodes
            if n.body and isinstance(n.body[0], ast.Expr) and isinstance(n.body[0].value, ast.Constant)}


def _syntax_reads(path: Path) -> list[int]:
    """Lines where `path` reads fence or ATX-heading syntax itself: a string holding fence
    syntax, a regex with an ATX heading, a startswith/endswith on a fence or a "#"."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = _docstrings(tree)
    found: set[int] = set()
    for node in ast.walk(tree):
        if (isinstance(node, ast.Constant) and isinstance(node.value, str)
                and id(node) not in docstrings and _FENCE_SYNTAX_RE.search(node.value)):
            found.add(node.lineno)
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.args):
            continue
        texts = _strings(node.args[0])
        if (node.func.attr in _RE_CALLS and isinstance(node.func.value, ast.Name)
                and node.func.value.id == "re" and any(_ATX_PATTERN_RE.search(t) for t in texts)):
            found.add(node.lineno)
        if node.func.attr in ("startswith", "endswith") and any(
                t.startswith(("#", "```", "~~~")) for t in texts):
            found.add(node.lineno)
    return sorted(found)


def test_only_the_markdown_layer_reads_fence_and_heading_syntax(tmp_path: Path) -> None:
    found = [
        f"{rel}:{number}"
        for rel, path in shipped_modules()
        if not rel.startswith("tasks/markdown/")
        for number in _syntax_reads(path)
    ]
    assert found == [], "read headings, sections and fences with tasks.markdown.blocks"
    sample = tmp_path / "sample.py"
    sample.write_text("\n".join([
        '"""A docstring may say ``` and ## freely."""',
        "import re",
        'A = re.compile(r"^#{1,6}[ \\t]+(.*)$")',
        'B = re.compile(r"^ {0,3}(`{3,}|~{3,})")',
        'C = line.startswith(("```", "~~~"))',
        'D = line.startswith("# ")',
        'E = re.match(r"^##\\s", line)',
        'F = "```" in line',
        'G = re.compile(r"^[a-z]+:|^#", re.I)',  # a URL fragment, not a heading
        'H = tag.lstrip("#")',  # a tag's "#", not a heading
        'I = f"## {title}"',  # writing a heading is not reading one
    ]) + "\n")
    assert _syntax_reads(sample) == [3, 4, 5, 6, 7, 8]


def test_the_markdown_layer_imports_no_stage() -> None:
    """tasks/markdown is the ground the stages stand on: it imports only itself (Heading lives
    here, not in the shard planner it was once taken from)."""
    modules = sorted((REPO_ROOT / "tasks" / "markdown").glob("*.py"))
    assert len(modules) > 8
    stray = {
        f"{path.name}: {name}"
        for path in modules
        for name in imported_tasks_modules(path)
        if not name.startswith("tasks.markdown")
    }
    assert stray == set()


def test_a_plain_title_may_carry_a_note_in_brackets() -> None:
    body = ("Hi all,\n\nWhat we did\n\n- Restarted the importer.\n\n"
            "What we will change (owners agreed at this morning's stand-up)\n\n- Ana adds an alert.\n\n"
            "Thanks (and sorry) to everyone who stayed late\n\nBye.\n")
    titles = [span.text for span in plain_titles(read_blocks(body))]
    assert titles == ["What we did", "What we will change (owners agreed at this morning's stand-up)"]
