"""What a document states about itself: its title, and a decision record's status and date."""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import date
from functools import lru_cache
from pathlib import PurePosixPath
from typing import Any

from schemas.common import PREFIX_PATTERN
from tasks.extract.front_matter import meta_line
from tasks.extract.genre_meta import iso_date
from tasks.extract.genres import body_fields, issue_state, opening_fence
from tasks.extract.model import LineSpan, SourceRef
from tasks.extract.paragraphs import first_paragraph
from tasks.extract.status_text import (
    TITLE_MARK_RE,
    badge_status,
    emoji_status,
    is_pointer,
    states_state,
    title_status,
    without_status_macros,
)
from tasks.extract.structure import Structure, find_section, section_key
from tasks.extract.text import plain_text
from tasks.markdown.blocks import Section
from tasks.markdown.tables import table_cells
from tasks.record_dates import day_first_hint, find_date

# Possessive blank runs: "status:" and a million blanks is not split a million^2 ways.
# The names a record gives its status field ("Decision status:" too).
STATUS_KEYS = ("status", "decision status", "adr status", "record status")
# A reStructuredText or MyST field list writes the key between colons (":Status: Accepted").
STATUS_LINE_RE = re.compile(
    r"^\s*(?:[-*+]\s+)?:?(?:\**|_{1,2})(?:status|(?:decision|adr|record)\s+status)(?:\**|_{1,2})\s*+:"
    r"\s*+(?:\**|_{1,2})\s*+"
    r"(?P<value>\S.*)$",
    re.I,
)
# A status field by a name other documents give it too ("State:" of a risk acceptance, "Stage:"
# of a proposal process): read once a page is known to be a record, never to decide it is one.
# A status written with a dash for its colon ("Status — Withdrawn, replaced by [..](..)") too.
_OTHER_STATUS_LINE_RE = re.compile(
    r"^\s*(?:[-*+]\s+)?\**(?:(?:state|stage)\**\s*+:|status\**[ \t]+[-–—])\s*+\**\s*+(?P<value>\S.*)$", re.I)
DATE_LINE_RE = re.compile(
    r"^\s*+(?:[-*+]\s++)?:?\**+(?:date|decided(?: on)?|accepted(?: on)?)\**+\s*+:"
    r"\s*+\**+\s*+(?P<value>\S.*)$",
    re.I,
)
_ADMONITION_RE = re.compile(r"^\s*:::\s*\w+\s+(?P<title>.+)$")
# "0007. Use Kafka", "ADR-0009 — Customs releases ...": the number and the dash after it.
_NUMBERED_TITLE_RE = re.compile(r"^(?:ADR[\s-]*)?\d+(?:[.:)]|\s+[–—-])?\s+(?=\S)", re.I)
# The UTC prefix of a stored raw file's name ("2026-03-24T22-40-05Z__").
_STORED_PREFIX_RE = re.compile(rf"^{PREFIX_PATTERN}__")

DECISION_HEADINGS = (
    "decision",
    "decision outcome",
    "decisions",
    "the decision",
    "our decision",
    "decision made",
    "decision and rationale",
    "proposal",
    "the proposal",
    "proposed solution",
    "proposed decision",
    "proposed change",
    "proposed changes",
    "what's proposed",
    "what is proposed",
    "what we decided",
    "what we will do",
    "outcome",
    "resolution",
    "solution",
    "chosen option",
    "decided",
    # a decision matrix's (a Pugh concept selection's, a Kepner-Tregoe decision analysis's) choice
    "selection",
    "selected option",
)
CONTEXT_HEADINGS = (
    "context",
    "background",
    "context and problem statement",
    "problem statement",
    "problem",
    "summary",
    "motivation",
)
NOT_DECISION_HEADINGS = frozenset(
    {
        *CONTEXT_HEADINGS,
        "status",
        "discussion",
        "risks",
        "definitions",
        "considered options",
        "options",
        "options considered",
        "decision drivers",
        "links",
        "references",
        "consequences",
        "pros and cons of the options",
        "date",
        "deciders",
        "relations",
    }
)
# Section words that are never a record's title (a record whose first heading is "# Context").
_SECTION_WORDS = frozenset({*DECISION_HEADINGS, *NOT_DECISION_HEADINGS, "title"})


def source_stem(source: SourceRef) -> str:
    """The file stem of the source as it was written (its original path, else its raw path)."""
    return _stem(source.original_path or source.raw_path)


@lru_cache(maxsize=1024)  # the readers of one document ask for its stem again and again
def _stem(path: str) -> str:
    return PurePosixPath(path).stem


def document_title(
    meta: Mapping[str, Any], structure: Structure, source: SourceRef
) -> tuple[str, int]:
    """The front matter's title, else a header block's (`Title:`), else the first top-level
    heading, else the top of an outline that starts a level down (_outline_top), else the file
    name."""
    title = meta.get("title")
    if isinstance(title, str) and title.strip():
        return plain_text(title), meta_line(meta, "title")
    header = _header_title(structure)
    if header is not None:
        return header
    for section in structure.sections[1:]:
        heading = structure.title(section)
        if section.level == 1 and heading:
            if section_key(heading) in _SECTION_WORDS:
                break  # "# Context" is the first section of an untitled record, not its title
            return _first_line(structure, section, heading), structure.number(section)
    top = _outline_top(structure)
    if top is not None:
        return _first_line(structure, structure.sections[1], top[0]), top[1]
    stem = source_stem(source)
    stem = _STORED_PREFIX_RE.sub("", stem)
    return stem.replace("-", " ").replace("_", " ").strip() or stem, 1


def _first_line(structure: Structure, section: Section, heading: str) -> str:
    """A heading's title: a setext heading over several lines (a plain-text export's block set off
    by a dashed rule, as an Etherpad pad's "PRESSBOOK SYNC · Thu 5 Nov" over its "here:" and
    "prev:" lines) is titled by its first line; any other heading by its text."""
    if section.body_line - section.line <= 2:  # one line of text and its underline, or an ATX heading
        return heading
    number = structure.number(section)
    lines = [plain_text(structure.by_number.get(number + offset, "")).strip()
             for offset in range(section.body_line - section.line - 1)]  # the underline left out
    texts = [text for text in lines if any(ch.isalpha() for ch in text)]
    return texts[0] if len(texts) > 1 else heading


_OUTLINE_TOP_LINES = 4  # a tool's preamble above it: "📝 Notes" and the day, as Gemini's notes open


def _outline_top(structure: Structure) -> tuple[str, int] | None:
    """A page without a top-level heading whose outline starts one level down: its first
    heading, the only one of its level, every other heading below it, after at most a short
    preamble ("📝 Notes" / "Oct 27, 2026" / "## Redress v2 design review" / "### Summary"), is
    its title written a level down."""
    sections = structure.sections[1:]
    if not sections or structure.sections[0].level != 0:
        return None
    first = sections[0]
    heading = structure.title(first)
    preamble = [line for _, line in structure.lines(structure.sections[0]) if line.strip()]
    if (len(preamble) > _OUTLINE_TOP_LINES or not heading or section_key(heading) in _SECTION_WORDS
            or any(section.level <= first.level for section in sections[1:])):
        return None
    return heading, structure.number(first)


def _header_title(structure: Structure) -> tuple[str, int] | None:
    """The `Title:` of a block of RFC 822 headers that opens the document, as PEPs and their
    kin write it ("PEP: 17" / "Title: Transactional outbox" / "Status: Accepted"), or the
    `Subject:` of a mail's headers (a `From:` among them)."""
    if not structure.sections or structure.sections[0].level != 0:
        return None
    lines = [(n, line) for n, line in [*opening_fence(structure), *structure.lines(structure.sections[0])]
             if line.strip()][:20]
    if not lines or not _HEADER_LINE_RE.match(lines[0][1]):
        return None
    subject: tuple[str, int] | None = None
    mail = False
    for number, line in lines:
        match = _HEADER_TITLE_RE.match(line)
        if match:
            return plain_text(match.group(1)), number
        if not (_HEADER_LINE_RE.match(line) or line[:1].isspace()):
            break  # the header block ended (a continuation line is indented)
        mail = mail or line.startswith("From:")
        if subject is None and (match := _MAIL_SUBJECT_RE.match(line)):
            subject = plain_text(match.group(1)), number
    # a mail's headers (an incident report sent to a list): its Subject is its title
    return subject if mail else None


_HEADER_LINE_RE = re.compile(r"^[A-Z][A-Za-z]*(?:-[A-Za-z]+)*:\s+\S")
_HEADER_TITLE_RE = re.compile(r"^Title:\s+(\S.*?)\s*$")
_MAIL_SUBJECT_RE = re.compile(r"^Subject:\s+(?:(?:Re|RE|Fwd|FW|Fw):\s*)*(\S.*?)\s*$")


def is_template(title: str, source: SourceRef) -> bool:
    """A decision log's template: a placeholder in its title or a file named template."""
    stem = source_stem(source).lower()
    named = _ID_PREFIX_RE.sub(_kind_or_key, _TRACKER_PREFIX_RE.sub("", title))
    placeholder = next((m for m in re.finditer(r"\[[^\]]*\]", named)
                        if not TITLE_MARK_RE.fullmatch(m.group(0))  # "[ACCEPTED]" is a status mark
                        and not _BRACKETED_KEY_RE.fullmatch(m.group(0))), None)
    return bool(placeholder) or stem == "template" or stem.endswith(("-template", "_template"))


# A tracker's key in brackets ("[RFC-RT-004] Field activity", "[PROJ-42] Retry uploads", as Jira
# and many RFC templates title a page): the record's id, not a placeholder to fill in.
_BRACKETED_KEY_RE = re.compile(r"\[[A-Z][A-Z0-9]{0,9}(?:-[A-Z0-9]{1,10}){0,3}-\d{1,6}\]")
# The prefix a GitHub issue form gives every title it files ("[RFC]: Use Kafka", "[Proposal]: ..."):
# a kind, not a placeholder, and no part of the record's name.
_TRACKER_PREFIX_RE = re.compile(r"^\[[A-Za-z][\w -]{0,20}\]:\s*+(?=\S)")
# A kind or an identifier in capitals leading a title, HashiCorp's "[RFC] Enable widgets" or a
# numbered "[RFC-RT-004] Field activity": what the document is, where a template's placeholder
# is words to replace ("[short title of solved problem]").
_ID_PREFIX_RE = re.compile(r"^\[[A-Z][A-Z0-9]*+(?:-[A-Z0-9]++)*+\][ \t]++(?=\S)")


def _kind_or_key(prefix: re.Match[str]) -> str:
    """A title's leading "[RFC]" (a kind) or "[RFC-RT-004]" (a key) is dropped; "[ADR-NNNN]" and
    "[NNNN]", letters standing for a number still to write, stay as the placeholder they are."""
    text = prefix.group(0)
    if any(ch.isdigit() for ch in text):
        return ""
    words = text.strip("[] \t").split("-")
    return text if len(words) > 1 or len(set(words[0])) == 1 else ""


def document_name(title: str) -> str:
    """A document's name from its title, without status marks and an issue form's prefix."""
    name = _TRACKER_PREFIX_RE.sub("", title)
    key = _BRACKETED_KEY_RE.match(name)
    if key:  # "[RFC-RT-004] Field activity": the key is part of the name, its brackets are not
        name = key.group(0)[1:-1] + name[key.end():]
    return " ".join(TITLE_MARK_RE.sub(" ", name).split()) or title


def record_name(title: str) -> str:
    """A record's name from its title, without status marks, an issue form's prefix and a
    leading number."""
    name = document_name(title)
    if not re.match(r"^ADR[-\s]?\d+\s*:", name, re.I):
        name = _NUMBERED_TITLE_RE.sub("", name)
    return " ".join(name.split())


def record_status(meta: Mapping[str, Any], structure: Structure, title: str) -> LineSpan | None:
    """The stated status: a Status section, a `Status:` line (near the top or at the end), a
    header table's status row, the front matter, a superseded admonition, or a `[superseded]` title mark."""
    visible = structure.visible
    section = find_section(structure, "status")
    if section is not None:
        found = first_paragraph(structure.lines(section))
        if found and _clean_status(found[0]):
            return _clean_status(found[0]), found[1], found[2]
    for number, line in [*visible[:40], *visible[-12:]]:
        match = STATUS_LINE_RE.match(line)
        stated = _clean_status(plain_text(match.group("value"))) if match else ""
        if stated and not is_pointer(stated):  # "Status: see below" states none
            return stated, number, number
    for number, line in visible[:40]:  # a header table's row (`| status | accepted |`, MADR's)
        cells = table_cells(without_status_macros(line)) if line.lstrip().startswith("|") else []
        if len(cells) == 2 and plain_text(cells[0]).strip("*_ :").lower() in STATUS_KEYS:
            stated = _clean_status(plain_text(cells[1]))
            if stated and not set(stated) <= set("-: "):
                return stated, number, number
    value = meta.get("status")
    if isinstance(value, str) and _clean_status(plain_text(value)):
        key_line = meta_line(meta, "status")
        return _clean_status(plain_text(value)), key_line, key_line
    for number, line in visible[:15]:
        admonition = _ADMONITION_RE.match(line)
        if admonition and re.match(r"(?i)superseded|deprecated", admonition.group("title").strip()):
            return plain_text(admonition.group("title")), number, number
    marked = title_status(title)
    if marked is not None and marked.lower() == "superseded":  # "[superseded] Use Kafka"
        return marked, 1, 1
    return None


def marked_status(structure: Structure, title: str) -> LineSpan | None:
    """The status a record states outside its status field: a `State:` or `Stage:` line, a
    status badge or an emoji mark among its first lines ("✅ Accepted"), its title's mark
    ("[ACCEPTED] Use Kafka")."""
    for number, line in structure.visible[:40]:
        match = _OTHER_STATUS_LINE_RE.match(line)
        if match and _clean_status(plain_text(match.group("value"))):
            return _clean_status(plain_text(match.group("value"))), number, number
    # a field the status vocabulary names ("Phase: Accepted", "Document state: Draft"), also as a
    # column of a metadata table written across (`| Status | Date |` over `| Accepted | ... |`)
    for field in body_fields(structure, 40):
        value = _clean_status(plain_text(without_status_macros(field.value)))
        if value and (field.key in STATUS_KEYS or states_state(field.key, value)) and not is_pointer(value):
            return value, field.line, field.line
    opening = structure.visible[:15]
    for index, (number, line) in enumerate(opening):
        following = opening[index + 1][1] if index + 1 < len(opening) else ""
        # an issue's or a discussion's state line ("Closed as outdated · ana started this ...")
        found = badge_status(line) or emoji_status(plain_text(line)) or issue_state(line, following)
        if found:
            return found, number, number
    marked = title_status(title)
    return (marked, 1, 1) if marked else None


def _clean_status(value: str) -> str:
    """A status without leading emoji or punctuation ("✅ Accepted" -> "Accepted"); a step struck
    through keeps its marks ("~~Proposed~~ Accepted": status_text reads past it); an aside at
    its end that only points to where it is told ("Superseded (see below)") is no part of it."""
    value = re.sub(r"^(?!~~)[^\w\[(]+", "", value).strip()
    aside = _END_ASIDE_RE.search(value)
    return value[:aside.start()].rstrip() if aside and is_pointer(aside["aside"]) and aside.start() else value


_END_ASIDE_RE = re.compile(r"\s*\((?P<aside>[^()]{1,60})\)\s*$")


_TITLE_ISO_RE = re.compile(r"(?<![\w/.-])(?:19|20)\d{2}-\d{2}-\d{2}(?![\w/]|[.-]\d)")


def record_date(
    meta: Mapping[str, Any], structure: Structure, status: LineSpan | None
) -> tuple[str, int] | None:
    """The date a record states: a `Date:` line, a Date section, the front matter, a date in
    the status or in the lines before the first section (prose), an ISO date in its title.
    Never guessed."""
    visible = structure.visible
    day_first = day_first_hint([line for _, line in visible])
    return (
        _date_line(visible, day_first)
        or _date_section(structure, day_first)
        or _front_matter_date(meta, day_first)
        or (_status_date(visible, status, day_first) if status is not None else None)
        or _preamble_date(structure, day_first)
        or _title_date(structure)
    )


def _title_date(structure: Structure) -> tuple[str, int] | None:
    """An ISO date in the title heading ("# Specialization Review, 2020-02-03"): notes taken
    for a record, with no Date line of their own."""
    if len(structure.sections) < 2 or structure.sections[1].level != 1:
        return None
    title = structure.title(structure.sections[1])
    match = _TITLE_ISO_RE.search(title)
    found = find_date(match.group(0), None) if match else None
    return (found, structure.number(structure.sections[1])) if found else None


def _date_line(visible: list[tuple[int, str]], day_first: bool | None) -> tuple[str, int] | None:
    """A `Date:` / `Decided on:` line near the top or at the end."""
    for number, line in [*visible[:40], *visible[-12:]]:
        match = DATE_LINE_RE.match(line)
        if match:
            found = find_date(plain_text(match.group("value")), day_first, compact=True)
            if found:
                return found, number
    return None


def _date_section(structure: Structure, day_first: bool | None) -> tuple[str, int] | None:
    """The first date in a Date section."""
    section = find_section(structure, "date", "dates")
    if section is not None:
        for number, line in structure.lines(section):
            found = find_date(plain_text(line), day_first, compact=True)
            if found:
                return found, number
    return None


def _front_matter_date(meta: Mapping[str, Any], day_first: bool | None) -> tuple[str, int] | None:
    """The front matter's `date` (a YAML date, or text in one of the record date forms)."""
    value = meta.get("date")
    if isinstance(value, date):
        return value.isoformat()[:10], meta_line(meta, "date")
    if isinstance(value, str | int):
        found = find_date(str(value), day_first, compact=True)
        if found:
            return found, meta_line(meta, "date")
    return None


def _status_date(
    visible: list[tuple[int, str]], status: LineSpan, day_first: bool | None
) -> tuple[str, int] | None:
    """A date written in the status ("Accepted on 3 May 2021")."""
    for number, line in visible:
        if status[1] <= number <= status[2]:
            found = find_date(plain_text(line), day_first)
            if found:
                return found, number
    return None


# A header field or row whose day is a deadline, not when the record was written or decided (a
# DACI page's "Due date" row above its "Outcome | Option B, decided 05/11/2024").
_DEADLINE_FIELD_RE = re.compile(
    r"^\s*+[|*_-]?\s*+\**+\s*+(?:due(?:\s+(?:date|by))?|deadline|target\s+date|expires|expiry\s+date"
    r"|next\s+review(?:\s+date)?)\s*+\**+\s*+[:|]", re.I)


def _named_month_date(line: str, day_first: bool | None) -> str | None:
    """A day written with its month's short name and a two-digit year (a Jira export's
    `Created: 12/Feb/24 10:41 AM`, PEP's `01-Jun-2001`), as the genre readers read it."""
    found = iso_date(plain_text(line), day_first) if "/" in line or "-" in line else None
    return found if found and len(found) == len("2024-02-12") else None


def _preamble_date(structure: Structure, day_first: bool | None) -> tuple[str, int] | None:
    """A date in the lines before the first section (or under the title heading); a deadline's
    day ("| **Due date** | 29/11/2024 |") only when no other line of it gives one: a day still to
    come is not when the record was written or decided, but it is the page's only date then."""
    sections = structure.sections
    preamble = structure.lines(sections[0]) + (
        structure.lines(sections[1]) if len(sections) > 1 and sections[1].level == 1 else []
    )
    deadline: tuple[str, int] | None = None
    for number, line in preamble[:15]:
        found = find_date(plain_text(line), day_first) or _named_month_date(line, day_first)
        if found and _DEADLINE_FIELD_RE.match(line):
            deadline = deadline or (found, number)
        elif found:
            return found, number
    return deadline
