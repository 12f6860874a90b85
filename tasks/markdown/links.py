"""Links of a markdown text: inline links and images, and `<a rel=... href=...>` typed links.

`link_targets` reads markdown-it-py's inline tokens and is the reference. `prose_link_targets`
is the fast path reconcile uses on every page it reads (on the corpus about 17x cheaper than
an inline parse): one regex per line outside fenced code; on a line holding a backtick (or a
backslash or "<" beside a link) a left-to-right scan that reads inline code spans, backslash
escapes and HTML tags as CommonMark does: a span of n backticks closes only at the next run
of exactly n, a run never closed is text, a link's text may hold a span, and a link's target
is read before a span that starts after its "[". So a link written inside a code span
("`[x](missing.md)`") is no link.

A code span may run over the lines of its paragraph, which one line cannot know. When a line
leaves a backtick run open, or holds a span with a "|" beside a table delimiter row (a table
row splits into cells before spans are read), the lines between the blank lines and fences
around it are read from markdown-it's block parse instead: each paragraph, heading and table
cell scanned whole.

For texts without container blocks, HTML blocks, link reference definitions, autolinks,
nested brackets, parentheses or spaces in a target, and links broken over lines, it finds the
same targets as markdown-it (property test in tests/tasks/markdown/test_links.py, whose texts
hold code spans, escapes and tables).

The regexes take no "[" in link text or target: a scan stops at the next opener, so a line of
a million "[" costs linear time, not quadratic; a closing backtick run is found by bisection
over the runs of its length, so a line of many unclosed runs is linear too.
"""

from __future__ import annotations

import posixpath
import re
from urllib.parse import unquote

from markdown_it.common.html_re import close_tag, open_tag

from tasks.markdown.code_spans import backtick_runs, closing_run, code_span_contents
from tasks.markdown.fences import code_flags, may_hold_fence, prose_lines
from tasks.markdown.parser import block_parser, inline_parser

# What follows a link's "]": "(", the target (group 1), an optional title, ")".
_TARGET_RE = re.compile(r"\(\s*+<?([^)\s>\[]++)>?(?:\s+\"[^\"]*\")?\s*\)")
# A link or image, group 1 its target (text may hold backslash escapes; a title may follow).
_LINK_RE = re.compile(r"!?\[(?:[^\[\]\\]++|\\.)*+\]" + _TARGET_RE.pattern)
# A link or image with its parts: "!" for an image, the text (one level of brackets allowed,
# "[[1]](url)"), the target. For line-level readers that keep positions or the link text
# (decision-record references, plain text of a line); it does not know code spans.
INLINE_LINK_RE = re.compile(
    r"(!?)\[((?:[^\[\]]++|\[[^\[\]]*+\])*+)\]\(\s*+<?([^)\s>\[]*+)>?(?:\s+\"[^\"]*\")?\s*+\)")
SCHEME_RE = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:")
_TAG_RE = re.compile(r"<a\b(?P<attrs>[^<>]*)>", re.IGNORECASE)
_ATTR_RE = re.compile(
    r"(?<![\w-])(?P<name>[A-Za-z][\w-]*+)\s*+=\s*(?:\"(?P<dq>[^\"]*)\"|'(?P<sq>[^']*)')")

# Where the inline scan stops: an escape, a backtick run, a link or image opener, a "<".
_INLINE_STOP_RE = re.compile(r"\\[\s\S]|`+|!?\[|<")
# Where a link's text scan stops: the same, and its closing "]".
_LABEL_STOP_RE = re.compile(r"\\[\s\S]|`+|[\[\]<]")
# A fence line indented 4+ or behind list or quote markers, which the line-level fence reader
# leaves to the prose lines: in a list item or quote it is a fence, not inline text.
_CONTAINED_FENCE_RE = re.compile(
    r"[ \t]*(?P<marks>(?:(?:>|[-+*]|\d{1,9}[.)])[ \t]*)*)(?:`{3,}[^`]*|~{3,}.*)$")
# A table's delimiter row ("|---|:--:|"): without one, a text holds no table row.
_TABLE_DELIMITER_RE = re.compile(r"^[ \t]*(?=[^\n]*\|)(?=[^\n]*-)[|:\- \t]+$", re.MULTILINE)
# An HTML open or close tag (CommonMark's grammar, as markdown-it reads it) or a URL autolink:
# both are read before a code span that starts inside them.
_HTML_RE = re.compile(f"{open_tag}|{close_tag}|<[A-Za-z][A-Za-z0-9+.-]{{1,31}}:[^<>\\x00-\\x20]*>")


def link_targets(text: str) -> list[str]:
    """Targets of the markdown links and images in `text` (markdown-it-py's inline tokens),
    as markdown-it normalizes them (percent-encoded, entities decoded)."""
    targets: list[str] = []
    for token in inline_parser().parse(text):
        for child in token.children or []:
            if child.type == "link_open":
                targets.append(str(child.attrs.get("href", "")))
            elif child.type == "image":
                targets.append(str(child.attrs.get("src", "")))
    return targets


class _InlineScan:
    """One left-to-right pass over inline text (a line, or a paragraph's content), in the order
    CommonMark reads it: `targets` of the links and images found outside code spans. As one
    line of a paragraph or table row, its reading depends on the lines or cells around it when
    it left a backtick run `open_run`, or when it has a `piped_span` (a span holding a "|",
    which a table row splits at before any span is read)."""

    __slots__ = ("_runs", "_single_runs", "open_run", "piped_span", "targets", "text")

    def __init__(self, text: str) -> None:
        self.text = text
        self.targets: list[str] = []
        self.open_run = False
        self.piped_span = False
        self._runs: dict[int, list[int]] | None = None
        self._single_runs = "``" not in text
        pos = 0
        while (stop := _INLINE_STOP_RE.search(text, pos)) is not None:
            pos = self._link_end(stop) if stop.group()[0] in "![" else self._skip(stop)

    def _skip(self, stop: re.Match[str]) -> int:
        """Where the text goes on after an escape, a backtick run or a "<" at `stop`."""
        first = stop.group()[0]
        if first == "`":
            return self._code_span_end(stop.start(), stop.end())
        if first == "<":
            tag = _HTML_RE.match(self.text, stop.start())
            return tag.end() if tag is not None else stop.end()
        return stop.end()

    def _link_end(self, opener: re.Match[str]) -> int:
        label_end = self._label_end(opener.end())
        target = _TARGET_RE.match(self.text, label_end + 1) if label_end >= 0 else None
        if target is None:
            return opener.end()  # not a link: its text is read on as text
        self.targets.append(target.group(1))
        return target.end()

    def _label_end(self, pos: int) -> int:
        """The position of the "]" closing a link text that starts at `pos`, or -1."""
        while (stop := _LABEL_STOP_RE.search(self.text, pos)) is not None:
            char = stop.group()
            if char == "]":
                return stop.start()
            if char == "[":
                return -1  # nested brackets: not read (see the module docstring)
            pos = self._skip(stop)
        return -1

    def _code_span_end(self, start: int, end: int) -> int:
        """After the span the backtick run start:end opens, or after the run if it stays open."""
        length = end - start
        if length == 1 and self._single_runs:  # the common text: every run is one backtick
            close = self.text.find("`", end)
            if close < 0:
                self.open_run = True
                return end
            if "|" in self.text[end:close]:
                self.piped_span = True
            return close + 1
        if self._runs is None:
            self._runs = backtick_runs(self.text)
        close = closing_run(self._runs, length, end)
        if close < 0:
            self.open_run = True
            return end
        if "|" in self.text[end:close]:
            self.piped_span = True
        return close + length


def _block_link_targets(text: str) -> list[str]:
    """Targets of the links in each paragraph, heading and table cell of markdown-it's block
    parse, each scanned whole (a code span may run over lines but not out of its block)."""
    return [target for token in block_parser().parse(text) if token.type == "inline"
            for target in _InlineScan(token.content).targets]


def _chunk_link_targets(lines: list[str]) -> list[str]:
    """Targets of a run of prose lines between blank lines and fences: line by line, or, when
    a line's reading depends on its neighbours, from the block parse of the run."""
    targets: list[str] = []
    for index, line in enumerate(lines):
        if "`" in line or (("\\" in line or "<" in line) and "](" in line):
            found = _spanned_line_targets(index, lines)
            if found is None:
                return _block_link_targets("\n".join(lines))
            targets.extend(found)
        elif "](" in line:
            targets.extend(match.group(1) for match in _LINK_RE.finditer(line))
    return targets


def _spanned_line_targets(index: int, chunk: list[str]) -> list[str] | None:
    """Targets of the line `chunk[index]`, which holds a backtick, an escape or a "<"; None
    when its reading depends on the other lines of its chunk."""
    line = chunk[index]
    fence = _CONTAINED_FENCE_RE.match(line)
    if fence is not None and (fence.group("marks") or index == 0):
        # A fence in a list or quote, or (first after a blank line, indented 4+) indented code
        # in a text without containers: no link, no open span. Indented after a paragraph
        # line, it may be the paragraph's text: read on.
        return []
    if ("](" not in line and "``" not in line and "\\" not in line and "<" not in line
            and line.count("`") % 2 == 0):
        # The common line: single backticks, paired in turn, and no link to find.
        targets: list[str] = []
        open_run = False
        piped_span = "|" in line and any("|" in span for span in code_span_contents(line))
    else:
        scan = _InlineScan(line)
        targets, open_run, piped_span = scan.targets, scan.open_run, scan.piped_span
    if open_run or (piped_span and _TABLE_DELIMITER_RE.search("\n".join(chunk))):
        return None
    return targets


def prose_link_targets(text: str) -> list[str]:
    """Targets of the inline links and images outside code, in order, as written."""
    if "`" not in text:  # no code span: every line is read alone
        if "](" not in text:  # no line holds a link
            return []
        lines = text.splitlines()
        return _chunk_link_targets(list(prose_lines(lines)) if may_hold_fence(text) else lines)
    targets: list[str] = []
    chunk: list[str] = []
    for line, code in code_flags(text.splitlines()):
        if code or not line.strip(" \t"):  # no code span or table runs past a fence or blank line
            if chunk:
                targets.extend(_chunk_link_targets(chunk))
                chunk = []
        else:
            chunk.append(line)
    targets.extend(_chunk_link_targets(chunk))
    return targets


def _plain_path(path: str) -> bool:
    """A relative path that unquoting, dropping an anchor or a query, joining to a plain folder
    and normpath leave as written: no '%', '#', '?' or ':' (no scheme), no leading, doubled or
    trailing slash, no '.' or '..' part. Index pages and hubs link 100,000 such paths."""
    return (bool(path) and "%" not in path and "#" not in path and "?" not in path
            and ":" not in path and path[0] != "/" and "//" not in path and "./" not in path
            and not path.endswith(("/", "/.", "/..")) and path not in (".", ".."))


def local_link_paths(rel: str, body: str) -> list[str]:
    """Local link targets of the page `rel`'s body, resolved to root-relative posix paths
    (code skipped; anchors, queries, absolute paths and URLs dropped), sorted, unique.

    A target that leaves the root keeps its leading '../' so the caller reports it.
    """
    base = posixpath.dirname(rel)
    plain_base = not base or _plain_path(base)
    targets: set[str] = set()
    for target in prose_link_targets(body):
        if plain_base and _plain_path(target):  # what the steps below leave as it is
            targets.add(f"{base}/{target}" if base else target)
            continue
        if target.startswith(("#", "/")) or SCHEME_RE.match(target):
            continue
        path = unquote(target.split("#", 1)[0].split("?", 1)[0])
        if path:
            targets.add(posixpath.normpath(posixpath.join(base, path)))
    return sorted(targets)


def typed_anchor_links(body: str) -> list[tuple[str, str]]:
    """(rel lowercased, href) of every <a rel=... href=...> tag of a body outside code, in
    order: the raw HTML markdown-it reads (inline HTML and HTML blocks, as before a tag in an
    HTML comment counts), never a tag written in a code span or a fenced or indented code
    block. A body with no such tag anywhere (most bodies) is not parsed."""
    if ("<a" not in body and "<A" not in body) or not any(
            _typed_link(tag) for tag in _TAG_RE.finditer(body)):
        return []
    html: list[str] = []
    for token in inline_parser().parse(body):
        if token.type == "html_block":
            html.append(token.content)
        elif token.type == "inline":
            html.extend(child.content for child in token.children or []
                        if child.type == "html_inline")
    return [link for content in html for tag in _TAG_RE.finditer(content)
            if (link := _typed_link(tag)) is not None]


def _typed_link(tag: re.Match[str]) -> tuple[str, str] | None:
    attrs = {
        m.group("name").lower(): (m.group("dq") if m.group("dq") is not None else m.group("sq"))
        for m in _ATTR_RE.finditer(tag.group("attrs"))
    }
    rel, href = attrs.get("rel"), attrs.get("href")
    return (rel.lower(), href) if rel and href is not None else None


__all__ = [
    "INLINE_LINK_RE",
    "SCHEME_RE",
    "link_targets",
    "local_link_paths",
    "prose_link_targets",
    "typed_anchor_links",
]
