"""Gates in front of markdown-it-py's block rules: the same tokens, fewer rule calls.

markdown-it tries its block rules in turn at the start of every block, and its paragraph and
setext-heading rules try every rule that may interrupt a paragraph on each of a paragraph's
lines (about seven calls a line, each logging at debug level). Almost every rule gives up at
once unless its line starts with one of a few characters: a fence with "`" or "~", a quote with
">", a heading with "#" ... A gate reads that character the way the rule does
(`src[bMarks[line] + tShift[line]]`) and calls the rule only when it may match; otherwise it
returns False as the rule would, without its call, its debug log and its checks. The rules
themselves are markdown-it's own, installed through `Ruler.at` (the plugin API), so the tokens
are markdown-it's (tests/tasks/markdown/test_rule_gates.py compares them, hypothesis and corpus).

The gates rest on each rule's first checks (markdown-it-py 3 and 4):

- fence, blockquote, hr, list, reference, html_block, heading return False when the first
  character after the line's indent is not one of their markers (a list: a bullet or a digit);
- table returns False unless the NEXT line starts with "|", "-" or ":" (its delimiter row);
- code returns False unless the line is indented into a code block (`is_code_block`);
- lheading returns False unless a line of the paragraph under it starts with "-" or "=" (its
  underline); it then leaves `parentType` set to "paragraph" (unless the line is code), which
  the gate does too.

A line whose character cannot be read (past the end of the source) is handed to the rule.

The paragraph rule itself always matches, so it has no gate; it stays markdown-it's own. The
rules it asks about each of its lines (those that may end a paragraph) are the gated ones, since
the ruler's chains are compiled from the entries the gates replaced. (A copy of the paragraph
rule with the gate inside its loop was measured against this: no difference on ../shared/corpus
or the 20 MB corpus, so markdown-it's rule is kept.)
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from itertools import accumulate
from typing import Any, Literal

from markdown_it import MarkdownIt
from markdown_it.parser_block import ParserBlock
from markdown_it.rules_block.state_block import StateBlock
from markdown_it.rules_core.normalize import NEWLINES_RE
from markdown_it.rules_core.state_core import StateCore
from markdown_it.token import Token
from markdown_it.utils import EnvType

BlockRule = Callable[[StateBlock, int, int, bool], bool]

# The characters a line may start with (after its indent) for each rule to match it.
_MARKERS: dict[str, frozenset[str]] = {
    "fence": frozenset("`~"),
    "blockquote": frozenset(">"),
    "hr": frozenset("*-_"),
    "list": frozenset("*-+0123456789"),
    "reference": frozenset("["),
    "html_block": frozenset("<"),
    "heading": frozenset("#"),
}
_DELIMITER_ROW = frozenset("|-:")
_UNDERLINE = frozenset("-=")


def _marker_gate(rule: BlockRule, markers: frozenset[str]) -> BlockRule:
    def gated(state: StateBlock, start: int, end: int, silent: bool) -> bool:
        pos = state.bMarks[start] + state.tShift[start]
        if pos < len(state.src) and state.src[pos] not in markers:
            return False
        return rule(state, start, end, silent)

    return gated


def _table_gate(rule: BlockRule) -> BlockRule:
    def gated(state: StateBlock, start: int, end: int, silent: bool) -> bool:
        row = start + 1
        if row >= end:
            return False
        pos = state.bMarks[row] + state.tShift[row]
        if pos >= state.eMarks[row] or state.src[pos] not in _DELIMITER_ROW:
            return False
        return rule(state, start, end, silent)

    return gated


def _code_gate(rule: BlockRule) -> BlockRule:
    def gated(state: StateBlock, start: int, end: int, silent: bool) -> bool:
        return state.is_code_block(start) and rule(state, start, end, silent)

    return gated


def _lheading_gate(rule: BlockRule) -> BlockRule:
    def gated(state: StateBlock, start: int, end: int, silent: bool) -> bool:
        src, b_marks, t_shift, e_marks = state.src, state.bMarks, state.tShift, state.eMarks
        line = start + 1
        while line < end:
            pos = b_marks[line] + t_shift[line]
            if pos >= e_marks[line]:  # an empty line ends the paragraph
                break
            if src[pos] in _UNDERLINE:
                return rule(state, start, end, silent)
            line += 1
        if not state.is_code_block(start):
            state.parentType = "paragraph"  # as the rule leaves it when it finds no underline
        return False

    return gated


class _Dispatch:
    """The first rule of the main chain: it tries, in chain order, only the rules that may
    match the block's first character (a marker-gated rule unwrapped, the others as they are),
    so the chain after it is reached only if none of them matches. Built again when the
    parser's rules change (the ruler then compiles a new chain)."""

    def __init__(self, ruler: Any, markers: dict[BlockRule, tuple[BlockRule, frozenset[str]]]
                 ) -> None:
        self.ruler = ruler
        self.markers = markers  # a marker gate -> the rule it gates, its markers
        self.chain: list[BlockRule] | None = None
        self.by_char: dict[str, list[BlockRule]] = {}
        self.others: list[BlockRule] = []

    def _compile(self, chain: list[BlockRule]) -> None:
        rules = [rule for rule in chain if rule is not self]
        chars = set().union(*(markers for _, markers in self.markers.values()))
        self.others = [rule for rule in rules if rule not in self.markers]
        self.by_char = {char: [self.markers[rule][0] if rule in self.markers else rule
                               for rule in rules
                               if rule not in self.markers or char in self.markers[rule][1]]
                        for char in chars}
        self.chain = chain

    def __call__(self, state: StateBlock, start: int, end: int, silent: bool) -> bool:
        chain = self.ruler.getRules("")
        if chain is not self.chain:
            self._compile(chain)
        pos = state.bMarks[start] + state.tShift[start]
        if pos >= len(state.src):
            return False  # the chain after this rule reads the line
        for rule in self.by_char.get(state.src[pos], self.others):
            if rule(state, start, end, silent):
                return True
        return False


def gate_block_rules(parser: MarkdownIt) -> MarkdownIt:
    """Put a gate in front of each block rule of `parser` that has one, and the dispatch at
    the head of its main chain (in place; returned). Rules keep their names, order, chains and
    enabled state."""
    ruler: Any = parser.block.ruler
    markers: dict[BlockRule, tuple[BlockRule, frozenset[str]]] = {}
    for entry in ruler.__rules__:
        name, rule = entry.name, entry.fn
        if name in _MARKERS:
            gate = _marker_gate(rule, _MARKERS[name])
            markers[gate] = (rule, _MARKERS[name])
            ruler.at(name, gate, {"alt": list(entry.alt)})
        elif name == "table":
            ruler.at(name, _table_gate(rule), {"alt": list(entry.alt)})
        elif name == "code":
            ruler.at(name, _code_gate(rule), {"alt": list(entry.alt)})
        elif name == "lheading":
            ruler.at(name, _lheading_gate(rule), {"alt": list(entry.alt)})
    first = ruler.__rules__[0].name
    ruler.before(first, "gated_dispatch", _Dispatch(ruler, markers), {"alt": []})
    block = _ParserBlock()
    block.ruler = parser.block.ruler
    parser.block = block
    parser.core.ruler.at("normalize", _normalize)
    return parser


def _normalize(state: StateCore) -> None:
    """markdown-it's normalize rule (line endings to "\\n", NUL to U+FFFD) without its
    substitution of every "\\n" by itself when the text has no "\\r" (most texts)."""
    src = NEWLINES_RE.sub("\n", state.src) if "\r" in state.src else state.src
    state.src = src.replace("\0", "\ufffd") if "\0" in src else src


class _ParserBlock(ParserBlock):
    """markdown-it's block parser, its state's line marks computed by `_line_marks`."""

    def parse(self, src: str, md: MarkdownIt, env: EnvType, outTokens: list[Token]
              ) -> list[Token] | None:
        if not src:
            return None
        state = _StateBlock("", md, env, outTokens)  # every field as markdown-it sets it
        state.src = src
        state.bMarks, state.eMarks, state.tShift, state.sCount = _line_marks(src)
        state.bsCount = [0] * len(state.bMarks)
        state.lineMax = len(state.bMarks) - 1
        self.tokenize(state, state.line, state.lineMax)
        return state.tokens


# Token's fields (markdown-it-py 4): a token is made with them set as Token(type, tag, nesting)
# sets them, without the dataclass's __init__ and __post_init__ (a quarter of the time).
_TOKEN_FIELDS = ("type", "tag", "nesting", "attrs", "map", "level", "children", "content",
                 "markup", "info", "meta", "block", "hidden")
_SAME_TOKEN = tuple(field.name for field in dataclasses.fields(Token)) == _TOKEN_FIELDS


class _StateBlock(StateBlock):
    def push(self, ttype: str, tag: str, nesting: Literal[-1, 0, 1]) -> Token:
        """StateBlock.push: the same token, made faster when Token has the fields above."""
        if not _SAME_TOKEN:
            return super().push(ttype, tag, nesting)
        token = _new(Token)
        token.type, token.tag, token.nesting, token.attrs, token.map = ttype, tag, nesting, {}, None
        token.children, token.content, token.markup, token.info = None, "", "", ""
        token.meta, token.block, token.hidden = {}, True, False
        if nesting < 0:
            self.level -= 1  # closing tag
        token.level = self.level
        if nesting > 0:
            self.level += 1  # opening tag
        self.tokens.append(token)
        return token

    def getLines(self, begin: int, end: int, indent: int, keepLastLF: bool) -> str:
        """StateBlock.getLines: lines [begin, end) as one slice where nothing is cut from
        them (no indent to strip) and no container is open (a quote moves its lines' begin
        marks; the setext rule leaves parentType "paragraph", so only the level tells)."""
        if indent or self.level or self.blkIndent or begin >= end:
            return super().getLines(begin, end, indent, keepLastLF)
        last = self.eMarks[end - 1] + 1 if keepLastLF else self.eMarks[end - 1]
        return self.src[self.bMarks[begin] : last]


_new = object.__new__


def _line_marks(src: str) -> tuple[list[int], list[int], list[int], list[int]]:
    """StateBlock's marks of `src` (each line's begin and end offsets, its leading blanks and
    their columns, a tab to the next multiple of 4; a last line of blanks without "\\n" has
    none; a fake line at the end), from str methods instead of a loop over each line's blanks."""
    lines = src.split("\n")
    if not lines[-1].strip(" \t"):  # the text ends with "\n", or with a line of blanks only
        lines.pop()
    begins = list(accumulate((len(line) + 1 for line in lines), initial=0))
    ends = [begin + len(line) for begin, line in zip(begins, lines, strict=False)]
    shifts = [len(line) - len(line.lstrip(" \t")) for line in lines]
    counts = [_columns(line[:shift]) if "\t" in line[:shift] else shift
              for line, shift in zip(lines, shifts, strict=True)]
    length = len(src)
    begins[-1] = length
    return begins, [*ends, length], [*shifts, 0], [*counts, 0]


def _columns(blanks: str) -> int:
    column = 0
    for char in blanks:
        column += 4 - column % 4 if char == "\t" else 1
    return column
