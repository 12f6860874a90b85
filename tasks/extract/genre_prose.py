"""Conclusions a genre document states in prose rather than under a heading (pure).

- labelled paragraphs: `**Summary:** The payments API ...` / `**Root Causes:** ...` (the Google
  SRE template writes its parts so), read from the label to the paragraph's end;
- an incident's impact in numbers ("around 1.4 million image requests failed") when no Impact
  section or label states it;
- a list under a bold label alone on its line (`**Decisions**` then `- D1: ...`), as meeting
  notes written in a word processor mark their parts;
- a paragraph led by a plain label and a sentence (`Root cause: a staging-only setting ...`),
  and a list item so led (`- Trigger: an unthrottled client ...`);
- the paragraph under a plain line that is only a part's name (an IETF-style document's
  "Abstract" or "4.  Alternatives Considered", written without markdown headings);
- sentences of a paragraph with the lines each spans.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from functools import lru_cache

from tasks.extract.genre_text import MAX_SPAN_LINES, clean_lines, clean_visible, window_paragraph
from tasks.extract.model import LineSpan
from tasks.extract.structure import Structure, section_key
from tasks.extract.text import joined_lines, line_joint, plain_text, shorten

_LABEL_RE = re.compile(
    r"^\s*(?:[-*+]\s+)?(?:\*\*|__)(?P<label>[A-Za-z][A-Za-z ();/'-]{1,40}?)\s*(?::\s*(?:\*\*|__)"
    r"|(?:\*\*|__)\s*:)\s*(?P<text>.*)$"
)
# A label that is the whole line: bold (`**Decisions**`, `**Action items:**`, `__Outcome__`) or
# plain with its colon (`Decisions:`, the e-mail style of minutes).
# (Each run of blanks is read by one repeat: a colon must come between two, so none is quadratic.)
_LABEL_LINE_RE = re.compile(
    r"^\s*(?:(?:\*\*|__)(?P<label>[A-Za-z][A-Za-z ()/'-]{1,40}?)\s*(?:[.:]\s*)?(?:\*\*|__)\s*(?::\s*)?"
    r"|(?P<em>[*_])(?P<run_in>[A-Za-z][A-Za-z ()/'-]{1,40}?)[.:](?P=em)[ \t]*"
    r"|(?P<plain>[A-Z][A-Za-z()/'-]*(?: [A-Za-z()/'-]+){0,4}):[ \t]*)$"
)
# The ends a label alone on its line can have: its colon, its bold mark, or a run-in label's
# stop inside its emphasis (`*Constraints.*`, arc42's blackbox parts).
_LABEL_LINE_ENDS = (":", "**", "__", ".*", "._", ":*", ":_")
# A run-in label in emphasis that opens a paragraph, its stop inside the emphasis (`*Purpose.*
# The only writer of ...`, the way arc42's blackbox template and many house styles write a part).
_RUN_IN_RE = re.compile(
    r"^\s*(?P<em>\*\*|__|\*|_)(?P<label>[A-Za-z][A-Za-z ()/'-]{1,40}?)[.:](?P=em)[ \t]+(?P<text>\S.*)$"
)
# A plain label opening a paragraph; what follows must be a sentence, not a field's value.
_PLAIN_LABEL_RE = re.compile(r"^(?P<label>[A-Z][A-Za-z/'-]*(?: [A-Za-z/'-]+){0,3}):[ \t]+(?P<text>\S.*)$")
_MIN_SENTENCE_WORDS = 5
# "(?<=[.!?])\s+(?=...)" opened by its first blank, the stop checked behind it: the engine skips to
# the blanks instead of trying the lookbehind at every character.
_SENTENCE_RE = re.compile(r"\s(?<=[.!?]\s)\s*(?=[A-Z`\"'(\[])")
_QUANTITY = r"\d[\d,.]*\s*(?:%|percent|per\s*cent|million|thousand|k\b)?"
_IMPACT_RE = re.compile(
    r"(?<![\w.,])(?![1-5]\d{2}\s+(?:errors?|responses?|codes?|status)\b)" + _QUANTITY
    + r"\s+(?:of\s+(?:all\s+|our\s+|the\s+)?)?(?:[\w-]+\s+){0,2}"
    r"(?:requests?|users?|customers?|merchants?|accounts?|errors?|calls?|uploads?|downloads?|orders?"
    r"|payments?|transactions?|jobs?|builds?|queries|searches|messages|tickets|sessions?|sign-?ins?"
    r"|logins?|pages?|visitors?|tenants?|sites?|deploys?|deployments?|events?|emails?)\b",
    re.I,
)
_IMPACT_WORD_RE = re.compile(
    r"\b(?:fail(?:ed|ing)?|affected|unable|lost|dropped|errors?|degraded|retried|timed\s+out"
    r"|could\s+not|couldn't|rejected|declined|delayed|impacted|saw)\b",
    re.I,
)
_CAUSE_RE = re.compile(
    r"\b(?:root\s+cause\s+(?:was|is|of)|the\s+cause\s+(?:was|is)|(?:was|were)\s+caused\s+by"
    r"|(?:was|were)\s+triggered\s+by|caused\s+by\s+an?\b|stemmed\s+from|was\s+due\s+to)\b",
    re.I,
)
_ITEM_RE = re.compile(r"[-*+]\s|\d+[.)]\s")
# a table row, an indented block (headings and fences: the structure), a block quote (an e-mail's
# quoted earlier message, an epigraph: not the writer's telling)
_NOT_PROSE = ("|", "    ", ">")
_TIMELINE_KEYS = frozenset({"timeline", "day by day", "detailed timeline", "incident timeline"})


def labelled_paragraph(structure: Structure, keys: frozenset[str]) -> LineSpan | None:
    """The first paragraph led by a bold label that is one of `keys` (`**Impact:** ...`), its
    text without the label, with its lines."""
    if not any(_LABEL_RE.match(structure.visible[index][1]) for index in structure.holding("**", "__")):
        return None  # most documents have none: the boilerplate filter need not run (a label is bold)
    lines = clean_visible(structure)
    for index, (number, line) in enumerate(lines):
        match = _LABEL_RE.match(line)
        if match is None or section_key(match["label"]) not in keys:
            continue
        parts = [match["text"].strip()]
        end = number
        for later, text in lines[index + 1 : index + MAX_SPAN_LINES]:
            if not text.strip() or _LABEL_RE.match(text) or later in structure.heading_lines:
                break
            parts.append(text.strip())
            end = later
        text = plain_text(joined_lines(part for part in parts if part))
        if text:
            return shorten(text), number, end
    return None


def labelled_lists(
    structure: Structure, keys: frozenset[str], lead_in: re.Pattern[str] | None = None
) -> list[list[tuple[int, str]]]:
    """The lines under each label alone on its line (bold, or plain with its colon) that is one
    of `keys`, or under a sentence that `lead_in` matches and that ends with a colon ("Actions we
    agreed at the review (owners in brackets):"), up to the next heading, label, or paragraph
    that is not part of the list (the list items and their continuation lines)."""
    found: list[list[tuple[int, str]]] = []
    lines = structure.visible
    for index, (number, line) in enumerate(lines):
        # a label or a lead-in ends with its colon or its bold mark: a literal test skips prose
        if number in structure.heading_lines or not line.rstrip().endswith(_LABEL_LINE_ENDS):
            continue
        match = _LABEL_LINE_RE.match(line)
        labelled_by_key = match is not None and section_key(
            match["label"] or match["run_in"] or match["plain"]) in keys
        if not labelled_by_key and not (lead_in is not None and _lead_in(line, lead_in)):
            continue
        block: list[tuple[int, str]] = []
        for later, text in lines[index + 1:]:
            if later in structure.heading_lines or _LABEL_LINE_RE.match(text):
                break
            if text.strip() and not (_ITEM_RE.match(text.lstrip()) or text[:1] in " \t") and block:
                break  # a paragraph after the list ends it
            block.append((later, text))
        found.append(block)
    return found


def _lead_in(line: str, lead_in: re.Pattern[str]) -> bool:
    """A sentence of prose (not a list item) that ends with a colon and that `lead_in` matches."""
    text = line.strip()
    return (text.endswith(":") and len(text) <= _LEAD_IN_CHARS and not _ITEM_RE.match(text)
            and lead_in.search(text) is not None)


_LEAD_IN_CHARS = 120


# A plain line that names a part, numbered or not ("Abstract", "4.  Alternatives Considered").
_PART_NAME_LINE_RE = re.compile(
    r"^(?:\d{1,2}(?:\.\d{1,2}){0,2}\.?[ \t]+)?(?P<name>[A-Z][A-Za-z'-]*(?:[ \t][A-Za-z'-]+){0,4})[ \t]*$")


# A label alone on its line, closed by a colon, over the paragraphs it names ("Root cause
# analysis:" in a bug tracker's comment or a plain-text e-mail).
_ALONE_LABEL_RE = re.compile(r"^(?P<name>[A-Z][A-Za-z'/-]*(?:[ \t][A-Za-z'/-]+){0,4})[ \t]*:[ \t]*$")


def labelled_blocks(structure: Structure, keys: frozenset[str],
                    more: int) -> list[tuple[str, list[LineSpan]]]:
    """The paragraphs under each label alone on its line that names a part in `keys`
    ("Root cause analysis:" over a blank line and three paragraphs), with the key: the first
    paragraph and at most `more` after it, up to a blank-line-isolated line (another label, a
    comment's header) or a thematic break."""
    lines = structure.visible
    found: list[tuple[str, list[LineSpan]]] = []
    for index in sorted(structure.holding(":")):
        number, line = lines[index]
        match = _ALONE_LABEL_RE.match(line) if line.rstrip().endswith(":") else None
        if match is None or number in structure.heading_lines or section_key(match["name"]) not in keys:
            continue
        block: list[tuple[int, str]] = []
        for later, text in lines[index + 1 : index + 1 + 4 * MAX_SPAN_LINES]:
            if (later in structure.heading_lines or text.strip() in {"---", "***", "___"}
                    or _ALONE_LABEL_RE.match(text)):
                break
            block.append((later, text))
        paragraphs: list[LineSpan] = []
        rest = clean_lines(block)
        while len(paragraphs) <= more and (found_one := window_paragraph(rest, structure.code_content)):
            paragraphs.append(found_one)
            rest = [(n, text) for n, text in rest if n > found_one[2]]
        if paragraphs:
            found.append((section_key(match["name"]), paragraphs))
    return found


def named_paragraphs(structure: Structure, keys: frozenset[str]) -> list[LineSpan]:
    """The first paragraph under each plain line, at the margin and alone between blank lines,
    that is only the name of a part in `keys` (not a markdown heading)."""
    lines = structure.visible
    found: list[LineSpan] = []
    for index, (number, line) in enumerate(lines):
        match = _PART_NAME_LINE_RE.match(line)
        after_text = index > 0 and bool(lines[index - 1][1].strip())
        if (match is None or number in structure.heading_lines or after_text
                or section_key(match["name"]) not in keys):
            continue
        following = lines[index + 1 : index + 1 + MAX_SPAN_LINES]
        if not following or following[0][1].strip():
            continue
        paragraph = window_paragraph(clean_lines(following), structure.code_content)
        if paragraph is not None:
            found.append(paragraph)
    return found


# The labels a writer opens a plain summary of the story with, in a letter or an e-mail ("Short
# version: on Thursday ..."): the story itself, not a header field.
SPOKEN_SUMMARY_LABELS = frozenset({"short version", "the short version", "in short", "in brief", "in summary",
                                   "bottom line", "the gist"})


def plain_label(line: str) -> str | None:
    """The key of the plain label a line opens with (`Root cause: ...` -> "root cause")."""
    match = _PLAIN_LABEL_RE.match(line)
    return section_key(match["label"]) if match else None


def plain_labelled_paragraphs(structure: Structure, keys: frozenset[str]) -> list[LineSpan]:
    """Each paragraph led by a plain label that is one of `keys` and then a sentence (`Root
    cause: a staging-only Debezium setting reached production ...`), without the label; a
    field ("Impact: High") is not one."""
    lines = structure.by_number
    found: list[LineSpan] = []
    for start, end in structure.paragraphs:
        match = _PLAIN_LABEL_RE.match(lines.get(start, ""))
        if match is None or section_key(match["label"]) not in keys:
            continue
        last = min(end, start + MAX_SPAN_LINES - 1)
        rest = (lines.get(n, "").strip() for n in range(start + 1, last + 1))
        text = plain_text(joined_lines([match["text"], *rest]))
        if len(text.split()) >= _MIN_SENTENCE_WORDS:
            found.append((shorten(text), start, last))
    return found


def bold_labelled_paragraphs(structure: Structure, keys: frozenset[str]) -> list[LineSpan]:
    """Each paragraph led by a bold label that is one of `keys` and then a sentence (`**Cause:**
    the tail job republished the manifest ...`), without the label."""
    lines = structure.by_number
    found: list[LineSpan] = []
    for index in sorted(structure.holding("**", "__")):
        number, first = structure.visible[index]
        match = _LABEL_RE.match(first)
        if match is None or section_key(match["label"]) not in keys or not match["text"].strip():
            continue
        end = next((e for s, e in structure.paragraphs if s == number), None)
        if end is None:
            continue  # a label inside a paragraph, a list item's: not a paragraph of its own
        last = min(end, number + MAX_SPAN_LINES - 1)
        rest = (lines.get(n, "").strip() for n in range(number + 1, last + 1))
        text = plain_text(joined_lines([match["text"], *rest]))
        if len(text.split()) >= _MIN_SENTENCE_WORDS:
            found.append((shorten(text), number, last))
    return found


def bold_label(line: str) -> str | None:
    """The key of the bold label a line opens with (`**Resolution:** ...` -> "resolution")."""
    match = _LABEL_RE.match(line) if "**" in line or "__" in line else None
    return section_key(match["label"]) if match else None


def run_in_paragraphs(structure: Structure, keys: frozenset[str]) -> list[LineSpan]:
    """Each paragraph led by a run-in label in emphasis that is one of `keys` (`*Purpose.* The
    only writer of permit records ...`), without the label."""
    lines = structure.by_number
    found: list[LineSpan] = []
    for start, end in structure.paragraphs:
        first = lines.get(start, "")
        if not first.lstrip().startswith(("*", "_")):  # a literal test skips every other paragraph
            continue
        match = _RUN_IN_RE.match(first)
        if match is None or section_key(match["label"]) not in keys:
            continue
        last = min(end, start + MAX_SPAN_LINES - 1)
        rest = (lines.get(n, "").strip() for n in range(start + 1, last + 1))
        text = plain_text(joined_lines([match["text"], *rest]))
        if text:
            found.append((shorten(text), start, last))
    return found


def labelled_items(structure: Structure, keys: frozenset[str]) -> list[LineSpan]:
    """Each list item led by a plain label that is one of `keys` and then a sentence, as the SRE
    book's fields are written in a list (`- Root cause: search and registration share one
    pool.`, `- Trigger: ...`), without the label, with its indented continuation lines."""
    lines = structure.visible
    found: list[LineSpan] = []
    for index, (number, line) in enumerate(lines):
        if ":" not in line or line.lstrip()[:1] not in _ITEM_OPENERS:  # a literal test first
            continue
        marker = _ITEM_MARKER_RE.match(line)
        match = _PLAIN_LABEL_RE.match(line[marker.end():]) if marker else None
        if match is None or section_key(match["label"]) not in keys:
            continue
        parts, last = [match["text"]], number
        for later, text in lines[index + 1 : index + MAX_SPAN_LINES]:
            if not text[:1].isspace() or not text.strip() or _ITEM_MARKER_RE.match(text):
                break
            parts.append(text.strip())
            last = later
        text = plain_text(" ".join(parts))
        if len(text.split()) >= _MIN_SENTENCE_WORDS:
            found.append((shorten(text), number, last))
    return found


_ITEM_OPENERS = frozenset("-*+0123456789")


def sentences(parts: list[tuple[int, str]]) -> list[LineSpan]:
    """The sentences of a paragraph with the lines each spans; a list item ends a sentence
    (its marker is not part of the next one)."""
    return list(_paragraph_sentences(tuple(parts)))


# Pure; the constraint, conclusion, incident and decision readers split the same paragraphs
# (7,126 calls, 4,550 distinct paragraphs over ../shared/corpus). A tuple, so no caller can
# change what the next one is handed.
@lru_cache(maxsize=4096)
def _paragraph_sentences(parts: tuple[tuple[int, str], ...]) -> tuple[LineSpan, ...]:
    items: list[list[tuple[int, str]]] = []
    for number, line in parts:
        marker = _ITEM_MARKER_RE.match(line)
        if marker is not None or not items:
            items.append([])
        items[-1].append((number, line[marker.end():] if marker else line))
    return tuple(span for item in items for span in _item_sentences(item))


_ITEM_MARKER_RE = re.compile(r"^\s*(?:[-*+]|\d{1,3}[.)])\s+")


def _item_sentences(parts: list[tuple[int, str]]) -> list[LineSpan]:
    text, starts = "", []
    for index, (number, line) in enumerate(parts):
        starts.append((len(text), number))
        text += line + (line_joint(line, parts[index + 1][1]) if index + 1 < len(parts) else " ")
    found: list[LineSpan] = []
    position = 0
    for piece in [*_SENTENCE_RE.split(text)]:
        begin = text.find(piece, position)
        position = begin + len(piece)
        first = max(n for offset, n in starts if offset <= begin)
        last = max(n for offset, n in starts if offset < max(position - 1, begin + 1))
        sentence = plain_text(piece)
        if sentence:
            found.append((sentence, first, last))
    return found


def impact_sentence(structure: Structure) -> LineSpan | None:
    """The first prose sentence that counts what an incident cost ("212,000 requests failed"),
    outside its timeline, tables, lists and code."""
    return _first_sentence(structure, _counts_impact)


def _counts_impact(text: str) -> bool:
    return bool(_IMPACT_RE.search(text) and _IMPACT_WORD_RE.search(text))


def cause_sentence(structure: Structure) -> LineSpan | None:
    """The first prose sentence that names an incident's cause ("The root cause was ...",
    "... was caused by ..."), outside its timeline, tables, lists and code."""
    return _first_sentence(structure, lambda text: bool(_CAUSE_RE.search(text)))


def _first_sentence(structure: Structure, wanted: Callable[[str], bool]) -> LineSpan | None:
    for _start, parts in prose_paragraphs(structure):
        for sentence, first, last in sentences(parts):
            if wanted(sentence):
                return shorten(sentence), first, last
    return None


def prose_paragraphs(structure: Structure) -> Iterator[tuple[int, list[tuple[int, str]]]]:
    """(first line, its clean lines) of each paragraph of running prose: not in the timeline,
    a heading, code, a table, an indented block or a list, and under MAX_SPAN_LINES long."""
    skipped = timeline_lines(structure)
    lines = dict(clean_visible(structure))
    for start, end in structure.paragraphs:
        if (end - start >= MAX_SPAN_LINES or start in skipped or start in structure.heading_lines
                or start in structure.code):
            continue
        parts = [(n, lines.get(n, "").strip()) for n in range(start, end + 1)]
        opening = parts[0][1]
        if opening and not opening.startswith(_NOT_PROSE) and not _ITEM_RE.match(opening):
            yield start, parts


def timeline_lines(structure: Structure) -> set[int]:
    """The lines of the timeline sections ("## Timeline", "### Detailed timeline (UTC)") and
    of their subsections."""
    found: set[int] = set()
    for section in structure.sections[1:]:
        key = section_key(structure.title(section))
        if key in _TIMELINE_KEYS or key.split(" (")[0] in _TIMELINE_KEYS:
            level = section.level
            index = structure.sections.index(section)
            for later in structure.sections[index:]:
                if later is not section and later.level <= level:
                    break
                found.update(number for number, _ in structure.lines(later))
    return found


def labelled(line: str) -> bool:
    """Whether the line opens a bold-labelled paragraph (`**Impact:** ...`)."""
    return _LABEL_RE.match(line) is not None
