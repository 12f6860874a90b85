"""Reading a genre document's sections without its template boilerplate (pure).

Boilerplate never becomes a fact: HTML comments (a template's instructions), review and release
check-box lists (`- [ ] Design reviewed`), "[Optional]" questionnaire lines, instructions
addressed to the author ("Describe ...", "This section should ..."), table-of-contents lines
(links to the page's own anchors) and placeholders (`<describe>`, TBD). What is left of a
section is read as its first paragraph or its list items, each with a range of at most
MAX_SPAN_LINES lines.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import lru_cache

from tasks.extract.model import LineSpan, ObservationFact
from tasks.extract.paragraphs import first_paragraph
from tasks.extract.structure import Structure, section_key, with_subsections
from tasks.extract.text import joined_lines, plain_text, shorten
from tasks.markdown.blocks import Section
from tasks.markdown.fences import FenceTracker

MAX_SPAN_LINES = 40
# A list item written as a task (`- [ ] text`, `1. [x] text`): a template's review list, except
# where a runbook's checklist or an action list reads it (its box removed with `.sub(r"\1", ...)`).
CHECKBOX_ITEM_RE = re.compile(r"^(\s*(?:[-*+]|\d+[.)])\s+)\[[ xX]\]\s*")
_OPTIONAL_RE = re.compile(r"\[\s*optional\s*\]|\(\s*optional\s*\)\s*:?\s*$", re.I)
_INSTRUCTION_RE = re.compile(
    r"^[\s>*_-]*(?:this\s+section\s+(?:should|must|is\s+(?:for|where)|can|may)|use\s+this\s+section"
    r"|describe\s|explain\s|list\s+(?:the|any|all)\s|provide\s|fill\s+in|summari[sz]e\s+(?:the|what)"
    r"|include\s+(?:a|any|the)\s|outline\s|replace\s+this|delete\s+this"
    # a Y-statement template's "_Replace the bold parts of the Y-statement with your own text._"
    r"|replace\s+the\s+(?:[\w-]+\s+){0,2}?(?:parts?|text|placeholders?)\s+(?:of|in|with)\b"
    r"|add\s+(?:any\s|a\s+(?:link|diagram|description|summary|section|note|list|short|brief|few)\b)"
    r"|what\s+is\s+the\s+(?:problem|impact)\b|how\s+(?:will|do)\s+(?:you|we)\s)",
    re.I,
)
_TOC_RE = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+\[[^\]]*\]\(#[^)]*\)\s*$")
# A link definition to the page's own anchor (`[summary]: #summary` under each Rust RFC heading).
_ANCHOR_DEFINITION_RE = re.compile(r"^\s{0,3}\[[^\]]+\]:\s*#\S*\s*$")
_PLACEHOLDER_RE = re.compile(r"^\s*(?:[-*+]\s+)?(?:<[^<>]+>|tbd|tbc|todo|n/?a|none|-)\.?\s*$", re.I)
# A paragraph line that is one bracketed text of words: a template's instruction left in place
# (PEP 12: "[Describe why particular design decisions were made.]"; a list item's "[Design doc]"
# may be a shortcut link, so only a plain line, and a word gap so "[TOC]" or "[1]" is not one).
_BRACKETED_RE = re.compile(r"^\s*\[[^\[\]\s]++(?:\s++[^\[\]\s]++)++\]\s*$")
# A drawing flattened into a paragraph (a diagram of box-drawing and block characters, a progress
# bar: "OID Space [███░░██...] ↑ Next OID Counter (must skip ...)"): a picture, not a statement.
_DRAWING_RE = re.compile(r"[\u2500-\u259f]{4}")
# A help centre's or docs site's page-feedback widget and request footer, exported with the page
# ("Was this article helpful? Yes No", "3 out of 4 found this helpful", "Have more questions?
# Submit a request"), and the closing fence of an admonition container (":::"): no one's words.
_PAGE_WIDGET_RE = re.compile(
    r"^(?:was this (?:article|page|doc|document|answer|section) helpful\b"
    r"|\d+ out of \d+ found this helpful\b|have more questions\?|did this answer your question\b"
    r"|:{3,}$)", re.I)
_ITEM_RE = re.compile(r"^(?P<indent>\s*)(?:[-*+]|\d+[.)])\s+(?P<text>\S.*)$")
# A line that is only a template tag (GitBook's `{% hint style="danger" %}`, `{% endtabs %}`, a
# Jekyll or Liquid `{% include note.html %}`): the block's markup, none of its text.
_TEMPLATE_TAG_RE = re.compile(r"^\{%-?\s*[a-z][\w-]*(?:\s[^%]*)?-?%\}$")


def clean_lines(lines: list[tuple[int, str]]) -> list[tuple[int, str]]:
    """The lines without HTML comments and boilerplate lines (blank lines kept as blank)."""
    kept: list[tuple[int, str]] = []
    in_comment = in_instruction = False
    for number, line in lines:
        text = line
        if in_comment or "<!--" in text:
            text, in_comment = _strip_comments(text, in_comment)
        kind = _line_kind(text)
        if kind == _BLANK:
            in_instruction = False
        elif kind == _INSTRUCTION or (in_instruction and not _ITEM_RE.match(text)):
            in_instruction, text = True, ""  # an instruction's lines, to the paragraph's end
        elif kind == _BOILERPLATE:
            text = ""
        kept.append((number, text))
    return kept


def clean_visible(structure: Structure) -> list[tuple[int, str]]:
    """clean_lines of the document's visible lines, cleaned once and shared by its readers
    (five of them read the whole document so; never change the list)."""
    return structure.remembered(_clean_visible)


def _clean_visible(structure: Structure) -> list[tuple[int, str]]:
    return clean_lines(structure.visible)


def _strip_comments(line: str, in_comment: bool) -> tuple[str, bool]:
    out: list[str] = []
    position = 0
    while position < len(line):
        if in_comment:
            close = line.find("-->", position)
            if close < 0:
                return "".join(out), True
            position, in_comment = close + 3, False
        else:
            opening = line.find("<!--", position)
            if opening < 0:
                out.append(line[position:])
                break
            out.append(line[position:opening])
            position, in_comment = opening + 4, True
    text = "".join(out)
    return (text if text.strip() else ""), in_comment


# What clean_lines reads a line as, from its text alone: blank, an instruction to the author
# (it and the rest of its paragraph go), other boilerplate (it goes), or plain.
_BLANK, _INSTRUCTION, _BOILERPLATE, _PLAIN = range(4)


# A document's lines are cleaned again by each reader of its sections (five to ten times): what
# a line is, read from its text alone, is remembered for the lines read last (one look-up a line).
@lru_cache(maxsize=8192)
def _line_kind(line: str) -> int:
    stripped = line.strip()
    if not stripped:
        return _BLANK
    if _INSTRUCTION_RE.match(stripped):
        return _INSTRUCTION
    return _BOILERPLATE if _is_boilerplate(stripped) else _PLAIN


def _is_boilerplate(stripped: str) -> bool:
    return bool(
        CHECKBOX_ITEM_RE.match(stripped)
        or _OPTIONAL_RE.search(stripped)
        or _TOC_RE.match(stripped)
        or _ANCHOR_DEFINITION_RE.match(stripped)
        or _PLACEHOLDER_RE.match(stripped)
        or _BRACKETED_RE.match(stripped)
        or _DRAWING_RE.search(stripped)
        or _PAGE_WIDGET_RE.match(stripped)
        or (stripped.startswith("{%") and _TEMPLATE_TAG_RE.match(stripped) is not None)
        or (stripped[:1] in "MG" and _MEETBOT_CHROME_RE.match(stripped) is not None)
        or (stripped.startswith("The key words") and _RFC2119_DEFINITION_RE.match(stripped) is not None)
    )


# A specification's definition of its requirement words ('The key words "MUST" and "MAY" are to
# be read as in RFC 2119.'): every RFC-style document's, not one of its rules.
_RFC2119_DEFINITION_RE = re.compile(r'^The key words\s+"MUST"')


# A MeetBot summary's own lines: when the bot started and ended the meeting, and its footer.
_MEETBOT_CHROME_RE = re.compile(
    r"^(?:Meeting\s+(?:started\s+by\s+\S+\s+at|ended\s+at)\s+\d{1,2}:\d{2}|Generated\s+by\s+`?MeetBot\b)")


def find_sections(structure: Structure, keys: frozenset[str]) -> list[Section]:
    """The sections whose heading is one of `keys`, or one of them followed by words in
    parentheses or after a colon ("Immediate Actions (Completed)", "Impact: customers"), or
    by what it is about ("What was the impact on customers and the business?")."""
    found = []
    for index, section in enumerate(structure.sections[1:]):
        if index == 0 and section.level == 1:
            continue  # the title ("# Proposal: Go should have generics")
        key, base, about, noun = _heading_keys(structure.title(section))
        if key in keys or base in keys or about in keys or noun in keys:
            found.append(section)
    return found


@lru_cache(maxsize=4096)  # pure; every genre reader asks for its sections by the same headings
def _heading_keys(title: str) -> tuple[str, str, str, str]:
    """The keys a heading is found by: its section key, the key without an aside, that
    without what it is about, and that as the part's noun ("Mitigate" -> "mitigation",
    "Escalate to" -> "escalation")."""
    key = section_key(title)
    # "why did it happen? (5 whys)" -> "why did it happen"
    # "alert - what you are looking at" -> "alert": what follows a spaced dash says what it is about
    base = _ASIDE_SPLIT_RE.split(key, maxsplit=1)[0].strip().rstrip("?.! ")
    about = _ABOUT_RE.split(base, maxsplit=1)[0]
    bare = _TRAILING_PREPOSITION_RE.sub("", about)
    return key, base, about, _PART_NOUNS.get(bare, bare)


# A heading's verb for a part, as the part's noun: the templates name the part, writers the act.
_PART_NOUNS = {"mitigate": "mitigation", "escalate": "escalation", "diagnose": "diagnosis",
               "resolve": "resolution", "detect": "detection", "remediate": "remediation",
               "investigate": "investigation", "recover": "recovery", "verify": "verification",
               "validate": "validation", "roll back": "rollback"}
# "Escalate to", "Who to call for": the preposition waits for what the heading leaves out.
_TRAILING_PREPOSITION_RE = re.compile(r"\s+(?:to|for|on|of|with)$")
_ASIDE_SPLIT_RE = re.compile(r"\s*[(:\[]|\s[-–—]\s")  # what a heading adds after its name
# What a heading is about after its part's name: "impact on customers", "root cause of the outage".
_ABOUT_RE = re.compile(r" (?:on|of|for|to) ")


def section_paragraph(structure: Structure, section: Section) -> LineSpan | None:
    """The section's first paragraph without boilerplate (its subsections' when it has none of
    its own), within MAX_SPAN_LINES lines."""
    own = clean_lines(structure.lines(section))
    if not any(line.strip() for _, line in own):
        own = clean_lines(with_subsections(structure, section))
    return window_paragraph(own, structure.code_content)


def window_paragraph(lines: list[tuple[int, str]], code: Mapping[int, str]) -> LineSpan | None:
    """The first paragraph of `lines`, read from at most MAX_SPAN_LINES lines."""
    start = next((i for i, (_, line) in enumerate(lines) if line.strip()), None)
    if start is None:
        return None
    first = lines[start][0]
    window = [(n, line) for n, line in lines[start:] if n < first + MAX_SPAN_LINES]
    found = first_paragraph(window, code)
    if found is None or not found[0].strip() or found[0].strip() in {":", "."}:
        return None
    return found


_BARE_MARKERS = frozenset({"-", "*", "+"})


def list_items(lines: list[tuple[int, str]], limit: int = 20, *, nested: bool = False) -> list[LineSpan]:
    """The top-level list items of `lines` (up to 4 continuation lines joined; nested items
    left out, or each an item of its own when `nested`), boilerplate removed."""
    items: list[list[tuple[int, str]]] = []
    top: int | None = None
    previous_blank = True
    attached = False  # the last non-blank line was the item's (a paragraph after the list is not)
    fence = FenceTracker()  # a fence indented under an item: its code is the item's, as code
    for number, line in clean_lines(lines):
        match = None if fence.open else _ITEM_RE.match(line)
        if match and (top is None or len(match["indent"]) <= top or nested):
            top = len(match["indent"]) if top is None or len(match["indent"]) <= top else top
            items.append([(number, match["text"])])
            attached = True
        elif match or line.strip() in _BARE_MARKERS:
            # a nested item left out: its wrapped lines are not its parent's; a marker left bare
            # (a MADR "* <!-- numbers of drivers can vary -->" bullet) is no line of the item before
            attached = False
        elif items and attached and (part := _fenced_part(fence, line)) is not None:
            if part and len(items[-1]) < 4:
                items[-1].append((number, part))
            continue
        elif items and line.strip() and match is None and len(items[-1]) < 4 and attached and (
            line.startswith((" ", "\t")) or not previous_blank
        ):
            items[-1].append((number, line.strip()))
        elif line.strip() and match is None:
            attached = False
        previous_blank = not line.strip()
    spans: list[LineSpan] = []
    for item in items[:limit]:
        text = shorten(plain_text(joined_lines(part for _, part in item)).replace("~~", ""))
        if len(text) > 3:
            spans.append((text, item[0][0], item[-1][0]))
    return spans


def _fenced_part(fence: FenceTracker, line: str) -> str | None:
    """One line of a list item fed to `fence`: a code line as a code span ("$ oc cluster-info"),
    "" for the fence's own lines ("```console"), None when the line is no fenced code."""
    stripped = line.strip()
    if not fence.open:
        return "" if fence.feed(stripped) else None
    fence.feed(stripped)
    return f"`{stripped}`" if fence.open and stripped else ""


def part_fact(label: str, span: LineSpan, kind: str) -> ObservationFact:
    """A part a document states, as its observation "Label: text" over at most MAX_SPAN_LINES lines."""
    text, start, end = span
    return ObservationFact(f"{label}: {text}", start, min(end, start + MAX_SPAN_LINES - 1), kind)
