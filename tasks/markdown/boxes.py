"""Admonitions and directives as structure (pure): the boxes teams write in every public markup
family, read as prose. A Docusaurus, VuePress or HackMD container (`:::warning Title` ... `:::`),
a MyST directive (a ```{important} fence or `:::{note}`), an MkDocs Material box (`!!! danger
"Title"` or `??? tip` over an indented body), a Sphinx/rST directive (`.. warning::` over an
indented body), a GitHub alert or Obsidian callout (`> [!WARNING]` over its quoted lines), a
GitBook hint (`{% hint style="danger" %}` ... `{% endhint %}`) and an AsciiDoc admonition
(`[WARNING]` over a `====` block, or a `NOTE:` paragraph).

`unbox` rewrites a body line for line (the count kept, so every line keeps its number): the
markup lines become blank, a box's title becomes a bold label (`**Rollback:**`) over its body,
the body loses its indent or quote marks, so its sentences reach the readers as a paragraph's
do. What kind each box was (note, warning, ...) is kept in the `Box` list beside it."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

# The kinds the families name (Docusaurus, MkDocs Material, Sphinx, GitHub, GitBook, AsciiDoc).
KINDS = frozenset({
    "note", "tip", "info", "warning", "danger", "caution", "important", "attention", "hint",
    "error", "seealso", "admonition", "abstract", "summary", "tldr", "success", "check", "done",
    "question", "help", "faq", "failure", "fail", "missing", "bug", "example", "quote", "cite",
    "todo", "notice"})
# An AsciiDoc admonition names one of these five only, in capitals.
_ASCIIDOC_KINDS = ("NOTE", "TIP", "IMPORTANT", "WARNING", "CAUTION")


@dataclass(frozen=True, slots=True)
class Box:
    """One admonition: its kind (lower case), its title as written ('' when none), and the
    [first, end) offsets in the body of its text (the title's line and the markup left out)."""

    kind: str
    title: str
    first: int
    end: int


_FENCE_RE = re.compile(r"^\s{0,3}(?P<mark>`{3,}|~{3,})")
_MYST_FENCE_RE = re.compile(r"^\s{0,3}(?P<mark>`{3,}|:{3,})\s*\{(?P<kind>[A-Za-z-]+)\}\s*(?P<title>.*)$")
_COLON_RE = re.compile(r"^\s{0,3}(?P<mark>:{3,})\s*(?P<kind>[A-Za-z]+)\s*"
                       r"(?:\[(?P<bracket>[^\]]*)\]|\{[^}]*\})?\s*(?P<title>.*)$")
_COLON_CLOSE_RE = re.compile(r"^\s{0,3}(?P<mark>:{3,})\s*$")
_MKDOCS_RE = re.compile(r"^(?P<indent>\s*)(?:!!!|\?\?\?\+?)\s*(?P<kind>[A-Za-z]+)(?:\s+[\w-]+)*"
                        r"(?:\s+\"(?P<title>[^\"]*)\")?\s*$")
_RST_RE = re.compile(r"^(?P<indent>\s*)\.\.\s+(?P<kind>[A-Za-z-]+)::\s*(?P<rest>.*)$")
_RST_OPTION_RE = re.compile(r"^\s*:[\w-]+:")
_ALERT_RE = re.compile(r"^\s{0,3}>\s*\[!(?P<kind>[A-Za-z]+)\][+-]?\s*(?P<title>.*)$")
_QUOTED_RE = re.compile(r"^\s{0,3}> ?")
_HINT_RE = re.compile(r"^\s*\{%\s*hint\s+style=\"(?P<kind>[A-Za-z]+)\"\s*%\}\s*$")
_HINT_CLOSE_RE = re.compile(r"^\s*\{%\s*endhint\s*%\}\s*$")
_ADOC_BLOCK_RE = re.compile(r"^\[(?P<kind>NOTE|TIP|IMPORTANT|WARNING|CAUTION)\]\s*$")
_ADOC_DELIMITER_RE = re.compile(r"^={4,}\s*$")
_ADOC_TITLE_RE = re.compile(r"^\.(?P<title>[A-Za-z][^.].*)$")
_ADOC_LINE_RE = re.compile(r"^(?P<kind>NOTE|TIP|IMPORTANT|WARNING|CAUTION): (?=\S)")
# the literal marks a body must hold for any family to be there: most bodies hold none
_MARKS = (":::", "```{", "!!!", "???", ".. ", "[!", "{% hint", "NOTE", "TIP:", "IMPORTANT",
          "WARNING", "CAUTION")


def unbox(body: list[str]) -> tuple[list[str], list[Box]]:
    """`body` with its admonitions' markup taken out (line for line), and the boxes found."""
    text = "\n".join(body)
    if not any(mark in text for mark in _MARKS):
        return body, []
    lines = list(body)
    boxes: list[Box] = []
    fence = ""  # the mark of the code fence the walk is in ('' outside code)
    index = 0
    while index < len(lines):
        line = lines[index]
        if fence:
            if line.strip().startswith(fence) and not line.strip().strip(fence[0]):
                fence = ""
            index += 1
            continue
        box, after = _box_at(lines, index, boxes)
        if box is not None:
            boxes.append(box)
            index = after
            continue
        code = _FENCE_RE.match(line)
        if code is not None:
            fence = code["mark"]
        index += 1
    return lines, sorted(boxes, key=lambda box: box.first)


def _box_at(lines: list[str], index: int, boxes: list[Box]) -> tuple[Box | None, int]:
    """The box that opens on line `index` (`lines` rewritten in place, the boxes inside it added
    to `boxes`), and the line after it."""
    line = lines[index]
    for read in (_fenced, _indented, _quoted, _hint, _asciidoc):
        found = read(lines, index, line)
        if found is not None:
            box, after = found
            if read is _fenced or read is _indented:  # a box inside a box ("::::note" over ":::tip")
                inner, nested = unbox(lines[box.first : box.end])
                lines[box.first : box.end] = inner
                boxes.extend(replace(one, first=one.first + box.first, end=one.end + box.first)
                             for one in nested)
            return box, after
    return None, index


def _label(lines: list[str], index: int, title: str) -> str:
    """The line a box's opening becomes: its title as a bold label over the body, or blank (a
    blank line too under a line of text, which the label would join as one paragraph)."""
    title = title.strip().strip("\"'").strip()
    if index and lines[index - 1].strip():
        return ""
    if ": " in title:  # a title of fields ("Owner: Data team · Last updated: 14 May 2026"): as written
        return title
    return f"**{title.rstrip(':.')}:**" if title else ""


def _fenced(lines: list[str], index: int, line: str) -> tuple[Box, int] | None:
    """A colon container or a MyST fence, closed by a line of the same mark (nested ones inside)."""
    if ":::" not in line and "```" not in line:
        return None
    opened = _MYST_FENCE_RE.match(line) or (_COLON_RE.match(line) if ":::" in line else None)
    if opened is None:
        return None
    kind = opened["kind"].lower()
    if kind not in KINDS:
        return None
    title = opened.groupdict().get("bracket") or opened["title"]
    mark = opened["mark"]
    end = _fence_end(lines, index + 1, mark)
    lines[index] = _label(lines, index, title)
    first = index + 1
    while first < end and _RST_OPTION_RE.match(lines[first]):  # ":class: dropdown"
        lines[first] = ""
        first += 1
    if end < len(lines):
        lines[end] = ""
    return Box(kind, title.strip().strip("\"'"), first, end), min(end + 1, len(lines))


def _fence_end(lines: list[str], start: int, mark: str) -> int:
    """The closing line of a fence opened with `mark`: a line of that character alone, at least
    as long, past any nested fence of the same character (the end of the body when none)."""
    depth = 0
    char = mark[0]
    for number in range(start, len(lines)):
        said = lines[number].strip()
        if said and not said.strip(char) and said.startswith(char * 3):
            if depth > 0:
                depth -= 1  # a nested fence's close
            elif len(said) >= len(mark):
                return number
        elif said.startswith(char * 3) and said.strip(char).strip():
            depth += 1  # a fence opened inside ("```python", ":::tip")
    return len(lines)


def _indented(lines: list[str], index: int, line: str) -> tuple[Box, int] | None:
    """An MkDocs box (`!!! kind "Title"`) or an rST directive (`.. kind::`) over indented lines."""
    if "!!!" in line or "???" in line:
        opened = _MKDOCS_RE.match(line)
        title = opened["title"] or "" if opened else ""
        first_text = ""
    elif ".. " in line and "::" in line:
        opened = _RST_RE.match(line)
        kind = opened["kind"].lower() if opened else ""
        title = opened["rest"] if opened and kind == "admonition" else ""
        first_text = opened["rest"] if opened and kind != "admonition" else ""
    else:
        return None
    if opened is None or opened["kind"].lower() not in KINDS:
        return None
    margin = len(opened["indent"])
    end = index + 1
    while end < len(lines) and (not lines[end].strip() or _indent(lines[end]) > margin):
        end += 1
    while end > index + 1 and not lines[end - 1].strip():
        end -= 1  # the blank lines after the body are not the box's
    body = [said for said in lines[index + 1 : end] if said.strip()]
    cut = min((_indent(said) for said in body), default=0)
    lines[index] = first_text.strip() if first_text.strip() else _label(lines, index, title)
    first = index if first_text.strip() else index + 1
    for number in range(index + 1, end):
        lines[number] = lines[number][cut:] if lines[number].strip() else ""
    start = index + 1
    while start < end and _RST_OPTION_RE.match(lines[start]):  # ":class: tip"
        lines[start] = ""
        start += 1
    first = first if first == index else start
    return Box(opened["kind"].lower(), title.strip(), first, end), end


def _indent(line: str) -> int:
    return len(line.expandtabs(4)) - len(line.expandtabs(4).lstrip())


def _quoted(lines: list[str], index: int, line: str) -> tuple[Box, int] | None:
    """A GitHub alert or an Obsidian callout: `> [!KIND] Title` over its quoted lines."""
    if "[!" not in line:
        return None
    opened = _ALERT_RE.match(line)
    if opened is None or opened["kind"].lower() not in KINDS:
        return None
    end = index + 1
    while end < len(lines) and lines[end].lstrip().startswith(">"):
        lines[end] = _QUOTED_RE.sub("", lines[end], count=1)
        end += 1
    lines[index] = _label(lines, index, opened["title"])
    return Box(opened["kind"].lower(), opened["title"].strip(), index + 1, end), end


def _hint(lines: list[str], index: int, line: str) -> tuple[Box, int] | None:
    """A GitBook hint: `{% hint style="kind" %}` ... `{% endhint %}`."""
    if "{%" not in line:
        return None
    opened = _HINT_RE.match(line)
    if opened is None:
        return None
    end = index + 1
    while end < len(lines) and not _HINT_CLOSE_RE.match(lines[end]):
        end += 1
    lines[index] = ""
    if end < len(lines):
        lines[end] = ""
    return Box(opened["kind"].lower(), "", index + 1, end), min(end + 1, len(lines))


def _asciidoc(lines: list[str], index: int, line: str) -> tuple[Box, int] | None:
    """An AsciiDoc admonition: `[WARNING]` (a `.Title` above it) over a `====` block or a
    paragraph, or a paragraph that opens `NOTE: `."""
    if not line.startswith(_ASCIIDOC_KINDS) and not line.startswith("["):
        return None
    inline = _ADOC_LINE_RE.match(line)
    if inline is not None and (index == 0 or not lines[index - 1].strip()):
        lines[index] = line[inline.end():]
        end = _paragraph_end(lines, index)
        return Box(inline["kind"].lower(), "", index, end), end
    opened = _ADOC_BLOCK_RE.match(line)
    if opened is None:
        return None
    title = ""
    above = _ADOC_TITLE_RE.match(lines[index - 1]) if index else None
    if above is not None:
        title = above["title"].strip()
        lines[index - 1] = ""
    lines[index] = _label(lines, index, title)
    if index + 1 < len(lines) and _ADOC_DELIMITER_RE.match(lines[index + 1]):
        delimiter = lines[index + 1].strip()
        lines[index + 1] = ""
        end = index + 2
        while end < len(lines) and lines[end].strip() != delimiter:
            end += 1
        if end < len(lines):
            lines[end] = ""
        return Box(opened["kind"].lower(), title, index + 2, end), min(end + 1, len(lines))
    end = _paragraph_end(lines, index + 1)
    return Box(opened["kind"].lower(), title, index + 1, end), end


def _paragraph_end(lines: list[str], start: int) -> int:
    end = start
    while end < len(lines) and lines[end].strip():
        end += 1
    return end
