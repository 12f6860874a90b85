"""Where a text's leading YAML front matter is: one reading for pages, sources and the index.

Front matter opens with a first line `---` (blanks may follow) and closes at the first later
line that is `---` or `...` (YAML's document end), at column 0, blanks may follow. A text whose
first line opens it but that no line closes has none (`opens_front_matter` tells that case
apart for callers that report it). Lines end with \\n, \\r\\n or a lone \\r, as markdown-it counts
them (tasks.ingest.shard.LineIndex).

This is the reading of mdit-py-plugins' `front_matter` rule (the reference of the property test
in tests/tasks/markdown/test_frontmatter.py) less two of its quirks: markdown-it also closes on
a longer run of dashes and on a `---` indented by up to 3 blanks, which can sit inside a YAML
block scalar. Loading the YAML is the caller's: pages, sources and the search index each load it
their own way (alias-safe, with line layout, or every scalar as a string).

`find_front_matter` is the measured fast path of ingest's large sources (one regex search, no
per-line loop; `end` bounds the search without copying the text).

Front matter as people write it: Docusaurus-style sites accept `title: ADR004: Module Export
Structure`, which strict YAML refuses (a ': ' inside a plain value). `quote_plain_values` is
the line-based reading callers fall back on when strict YAML fails: each top-level
`key: value` line that YAML cannot read on its own, and whose value opens no structure (no
quote, flow collection, block scalar, alias, anchor or tag), has its value, the rest of the
line, rewritten as a quoted string; every other line stays as written, so anything more complex
still fails the YAML load that follows (tasks.store.safe_yaml.load_yaml_quoting_plain_values).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

import yaml

_OPEN_RE = re.compile(r"---[ \t]*+(?:\r\n?|\n)")
# A line break, then a closing line ended by a line break or by the end of the searched text
# (a literal first character lets the regex engine skip from line break to line break).
_CLOSE_RE = re.compile(r"[\r\n](?:---|\.\.\.)[ \t]*+(?=[\r\n]|\Z)")
# Whitespace-only lines (any Unicode blank, as python-frontmatter's `\s*$` strips them).
_BLANK_LINES_RE = re.compile(r"(?:[^\S\n]*+\n)*+")
_ONLY_BLANKS_RE = re.compile(r"\s*+\Z")


@dataclass(frozen=True, slots=True)
class FrontMatterBlock:
    """Character offsets of a front matter block and the number of lines it takes."""

    yaml_start: int  # the line after the opening `---`
    yaml_end: int  # the start of the closing line (the YAML text ends with its line break)
    body_start: int  # just past the closing line's line break
    lines: int  # lines taken, both delimiter lines included

    def yaml(self, text: str) -> str:
        return text[self.yaml_start : self.yaml_end]


def opens_front_matter(text: str) -> bool:
    """Is the first line `---` (with a line after it)? Closed or not."""
    return _OPEN_RE.match(text) is not None


def find_front_matter(text: str, end: int | None = None) -> FrontMatterBlock | None:
    """The leading front matter block of `text`, closed within its first `end` characters."""
    stop = len(text) if end is None else min(end, len(text))
    opening = _OPEN_RE.match(text, 0, stop)
    if opening is None:
        return None
    closing = _CLOSE_RE.search(text, opening.end() - 1, stop)  # from the opening line break
    if closing is None:
        return None
    body_start = closing.end()
    if text.startswith("\r\n", body_start):
        body_start += 2
    elif body_start < len(text) and text[body_start] in "\r\n":
        body_start += 1
    start = closing.start() + 1
    breaks = text.count("\n", 0, start)
    if text.find("\r", 0, start) >= 0:  # \r\n is one line break, a lone \r is one too
        breaks += text.count("\r", 0, start) - text.count("\r\n", 0, start)
    return FrontMatterBlock(opening.end(), start, body_start, breaks + 1)


def body_after(text: str, block: FrontMatterBlock) -> str:
    """The body after a front matter block, the blank lines before it dropped (a page's form:
    python-frontmatter's split, kept by tasks.store.pages)."""
    if _ONLY_BLANKS_RE.match(text, block.body_start):
        return ""
    blanks = _BLANK_LINES_RE.match(text, block.body_start)
    return text[blanks.end() if blanks else block.body_start :]


# A top-level `key: value` line (its value the rest of the line, trailing blanks dropped).
_KEY_VALUE_RE = re.compile(r"([A-Za-z_][\w.-]*)[ \t]*:[ \t]+(\S(?:.*\S)?)[ \t]*")
# Values that open a structure (quoted or flow or block scalar, alias, anchor, tag, directive):
# not the simple text this reading is for.
_STRUCTURE_STARTS = tuple("'\"[{|>*&!%#")
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


@dataclass(frozen=True, slots=True)
class QuotedValue:
    """A front matter line whose plain value YAML could not read, now read as text."""

    line: int  # 0-based line of the YAML text
    key: str
    value: str  # the rest of the line

    def fix(self) -> str:
        """The line as YAML reads it: the value single-quoted."""
        return f"{self.key}: '{self.value.replace(chr(39), chr(39) * 2)}'"


def _reads_alone(line: str) -> bool:
    try:
        yaml.load(line, Loader=_LOADER)  # the safe loader; one line, no structure
    except yaml.YAMLError:
        return False
    return True


def quote_plain_values(yaml_text: str) -> tuple[str, list[QuotedValue]]:
    """`yaml_text` with each simple top-level `key: value` line that YAML cannot read on its own
    rewritten `key: "value"` (a JSON string is a YAML double-quoted one), and those lines."""
    lines = yaml_text.split("\n")
    quoted: list[QuotedValue] = []
    for number, line in enumerate(lines):
        ending = "\r" if line.endswith("\r") else ""
        match = _KEY_VALUE_RE.fullmatch(line.removesuffix("\r"))
        if match is None or match.group(2).startswith(_STRUCTURE_STARTS) or _reads_alone(line):
            continue
        key, value = match.groups()
        lines[number] = f"{key}: {json.dumps(value, ensure_ascii=False)}{ending}"
        quoted.append(QuotedValue(number, key, value))
    return "\n".join(lines), quoted


__all__ = ["FrontMatterBlock", "QuotedValue", "body_after", "find_front_matter", "opens_front_matter",
           "quote_plain_values"]
