"""Record-to-record links that a decision record states (pure, no I/O).

A reference is a relative markdown link to another file of the log (`[ADR 10](0010-x.md)`) or an
explicit id (`ADR-006`, `ADR 15`, `ADR013`, `adr-0006`, `ADR #0033`, a zero-padded `0006`). What
the line says before the reference types it, directed:

- `superseded by` / `replaced by` (the other record is newer) and `supersedes` / `replaces`;
  with "partly", "in part", "some aspects of" ... it is `partially_supersedes`;
- `amended by` / `supplemented by` and `amends` / `supplements` / `extends`;
- anything else (a "see also", a link in passing) is `relates_to`.

Which record a reference means is decided later, against the records of the same log
(`resolve_record`): by the link's file stem first, then by the number, then by the title.
A name alone (a heading word, a capitalized phrase) never makes a record link.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import PurePosixPath

from tasks.markdown.code_spans import mask_code_spans
from tasks.markdown.links import INLINE_LINK_RE

SUPERSEDES = "supersedes"
PARTIALLY_SUPERSEDES = "partially_supersedes"
AMENDS = "amends"
RELATES_TO = "relates_to"
RECORD_RELATION_TYPES = (SUPERSEDES, PARTIALLY_SUPERSEDES, AMENDS, RELATES_TO)


@dataclass(frozen=True, slots=True)
class RecordLink:
    """`incoming`: the other record is the relation's source (it supersedes/amends this one)."""

    relation_type: str
    incoming: bool
    text: str  # the reference as written: link text, id, or a title in a status line
    stem: str | None  # the link's file stem, when it is a link
    number: int | None  # the record number the reference names, when it names one
    line: int
    excerpt: str
    # Where the linked file is (genre links, tasks/extract/genre_links.py): its memory folder,
    # or "*/<parent>" for a link by URL (matched by its last folder, else its stem alone), or
    # BY_TITLE for a wiki's link by a page's title (`[[Offline work orders]]`, in any folder);
    # None for a decision record's link (resolved in the record's own log).
    folder: str | None = None
    # A document named in passing by its series and number ("see ADR-0015", "follows INC-2291"):
    # it means only the document that states that id, never a number of the same folder.
    mention: bool = False


# The folder of a link that names its page by title, in any folder of the memory (a wiki's
# `[[Page title]]`): it resolves to the one document of that title, else it is no link.
BY_TITLE = "*title"
# The folder of a reference by the words of a page's title and the noun it calls the page by
# ("the stand-in balance proposal": tasks/extract/titled_links.py), in any folder.
BY_WORDS = "*words"
_LINK_RE = INLINE_LINK_RE  # groups: "!" mark, text, target; linear on a run of "["
_ID_RE = re.compile(
    r"(?<![\w/.,-])(?:ADR[\s#_-]{0,2}(?P<adr>\d{1,5})|(?P<padded>0\d{3}))(?![\w/]|[.,]\d)", re.I
)
_PARTIAL_RE = re.compile(
    r"\b(?:partly|partially|in\s+part|some\s+(?:aspects|parts)\s+of|parts?\s+of)\b", re.I
)
_VERBS: tuple[tuple[re.Pattern[str], str, bool], ...] = (
    (
        re.compile(
            r"\b(?:superseded|replaced|obsoleted|overridden|overruled)"
            r"(?:\s+(?:in\s+part|partly|partially))?\s+by\b",
            re.I,
        ),
        SUPERSEDES,
        True,
    ),
    (re.compile(r"\b(?:supersedes?|replaces|obsoletes|overrides|overrules)\b", re.I), SUPERSEDES, False),
    (re.compile(r"\b(?:amended|supplemented|extended|refined)\s+by\b", re.I), AMENDS, True),
    (re.compile(r"\b(?:amends|supplements|extends|refines)\b", re.I), AMENDS, False),
)
_NUMBER_STEM_RE = re.compile(r"^(?:adr)?[-_]?0*(\d{1,5})(?:[-_.]|$)", re.I)
# What stands before "superseded by" when the record as a whole is meant ("This ADR has been").
# A note's label may come first ("**Edit (17 Feb 2026, @ana):** this is superseded by"), and
# "this" alone is the record too.
_WHOLE_SUBJECT_RE = re.compile(
    r"^[\s>*_:-]*(?:(?:edit|edited|update|updated|note)\b[^:]{0,60}:[\s*_]*)?"
    r"(?:(?:this|the)\s+(?:adr|decision|record|document|discussion|issue|proposal)\s+|this\s+)?"
    r"(?:has\s+been|is\s+now|is|was)?[\s*_]*$",
    re.I,
)
_DIGIT_RE = re.compile(r"\d")  # (every _ID_RE match has one)
# A relative path to a page written bare in a sentence ("Design: RCS-12 (../proposals/rcs-12.md)",
# "see ../postmortems/disk-full.md"), as plain-text mail and chat exports write them, or from the
# docs' root with a folder ("(design/kiosk-offline.md)", as a repository's pages name each other):
# not inside a markdown link's "](", not the tail of a URL or a longer path.
BARE_PAGE_PATH_RE = re.compile(
    r"(?<![\w/.\]:@~-])(?<!\]\()(?:(?:\.{1,2}/)+(?:[\w-]+/)*|(?:[\w-]+/)+)[\w.-]*\w\.(?:md|markdown|mdx)\b"
)


def may_hold_bare_path(text: str) -> bool:
    """Can `text` hold a page's path written bare (a cheap test before BARE_PAGE_PATH_RE)?"""
    return "/" in text and ".m" in text
# A cross-reference role of Sphinx and MyST: {doc}`0007-holds` or :doc:`Holds <../decisions/0007-holds>`
# (its target a document's path without the suffix, its text the title before "<target>").
DOC_ROLE_RE = re.compile(
    r"(?:\{doc\}|:doc:)`(?:(?P<title>[^`<]{1,200}?)\s*<(?P<target>[^`<>]{1,300})>|(?P<bare>[^`<>]{1,300}))`")
_ITEM_MARKER_RE = re.compile(r"^(?:[-*+>]|\d+[.)])\s+")
_WEB_RE = re.compile(r"^[a-z][a-z0-9+.-]*:|^//|^#", re.I)


# A document's own id as its file stem or title writes it: a series prefix and a number
# ("rfc-0007-partitioned-log", "RFD 12 Edge cache", "INC-42: Brokers out of disk", "KEP-1234").
# The number may follow a "#" or a word that says it is one ("INC #42", "LLIS entry 0007", "RFC
# no. 7"), and run long with its zeros, as ServiceNow numbers its records ("INC0048812").
_NUMBER_AFTER = r"(?:[-_ ]?#[ ]?|[ ](?i:no\.|number|entry)[ ]|[-_ ]?)0*"
# A team's or project's key before the series ("SR-DEC-07", "SRCH-INC-0419", as trackers prefix
# their project's key): the series is both words, written in capitals.
_TEAM_SERIES = r"[A-Z]{2,8}-[A-Z]{2,8}"
_DOCUMENT_ID_RE = re.compile(
    r"^(?P<prefix>[A-Za-z]{2,8}|" + _TEAM_SERIES + ")" + _NUMBER_AFTER + r"(?P<number>\d{1,6})(?![\w])")


# A document's id written in a sentence ("see ADR-0015", "as decided in ADR 12", "follows
# INC-2291"): an upper-case series of 2-8 letters and a number, as a whole word. Not the tail of a
# path, a URL or a longer name ("/ADR-3", "us-EAST-1"), nor a version, a date or an id of more
# parts ("TLS 1.3", "CVE-2021-44228"). A team's key may open the series ("per SR-DEC-07").
ID_MENTION_RE = re.compile(
    r"(?<![\w/.#@=&?-])(?P<prefix>(?:[A-Z]{2,8}-)?[A-Z]{2,8})" + _NUMBER_AFTER.replace("_", "")
    + r"(?P<number>\d{1,6})(?![\w]|[.,:/-]\d)"
)

# A key of more parts written in a sentence ("(from COE-2024-02)", "INC-2025-0731"), as incident
# and review series number theirs by year: it names only the document whose title or alias opens
# with the whole key (record_graph.RecordIndex.resolve), never another of the same year.
PARTS_KEY_MENTION_RE = re.compile(
    r"(?<![\w/.#@=&?-])(?P<prefix>[A-Z]{2,8})-(?P<number>\d{1,8})-\d{1,6}(?![\w-]|[.,:/]\d)"
)

# Series that name documents in most teams' memories (decision records, proposals, incidents): a
# mention of one that no document states yet waits for it and is a candidate; another series
# ("HTTP 503", "SEV 1") does so only once a document of the memory states an id of it.
RECORD_SERIES = frozenset({"adr", "rfc", "rfd", "kep", "pep", "tep", "kip", "jep", "flip", "sep",
                           "inc", "pir", "coe", "prb"})


def document_id(text: str | None) -> tuple[str, int] | None:
    """The (lower-case series, number) a stem, title or reference starts with ("RFD 12")."""
    match = _DOCUMENT_ID_RE.match(text.strip()) if text else None
    return (match["prefix"].lower(), int(match["number"])) if match else None


def record_number(stem: str | None) -> int | None:
    """The number a record's file stem starts with (`0006-x`, `adr006-x`); dates are not."""
    if not stem:
        return None
    match = _NUMBER_STEM_RE.match(stem)
    return int(match.group(1)) if match else None


def _link_stem(target: str) -> str | None:
    if not target or _WEB_RE.match(target):
        return None
    path = PurePosixPath(target.split("#", 1)[0])
    if path.suffix.lower() not in {".md", ".markdown", ".mdx", ""} or not path.name:
        return None
    return path.stem


def _typed(line: str, position: int, partial_default: bool) -> tuple[str, bool]:
    """The relation the verb nearest before `position` in its clause states (relates_to without
    one). With `partial_default` (the record is not superseded as a whole), "These IP ranges
    have been superseded by ..." is partial: its subject is a part of the record."""
    chosen: tuple[int, str, bool] | None = None
    # a verb types the links of its own clause: "Supersedes ADR-0003; see [the architecture page]"
    clause = max(line.rfind(";", 0, position), line.rfind(". ", 0, position)) + 1
    for pattern, relation_type, incoming in _VERBS:
        for match in pattern.finditer(line, clause, position):
            if chosen is None or match.start() > chosen[0]:
                chosen = (match.start(), relation_type, incoming)
    if chosen is None:
        return RELATES_TO, False
    start, relation_type, incoming = chosen
    part_only = incoming and partial_default and not _WHOLE_SUBJECT_RE.match(line[:start])
    if relation_type == SUPERSEDES and (_PARTIAL_RE.search(line) or part_only):
        relation_type = PARTIALLY_SUPERSEDES
    return relation_type, incoming


def links_in_line(
    line: str, number: int, *, own_stem: str | None, own_number: int | None, partial_default: bool
) -> list[RecordLink]:
    """The record references of one line, typed by the verb before each."""
    bare_path = may_hold_bare_path(line)
    role = "doc" in line and "`" in line  # a Sphinx or MyST {doc} role (DOC_ROLE_RE)
    if "[" not in line and not bare_path and not role and not _DIGIT_RE.search(line):
        return []  # (no link, no record number: most lines; the regexes below find nothing)
    excerpt = " ".join(  # plain words: link text without its target, no emphasis marks
        _LINK_RE.sub(lambda m: m.group(2), line).replace("**", "").replace("__", "").split()
    )
    excerpt = _ITEM_MARKER_RE.sub("", excerpt)
    text = mask_code_spans(line) if "`" in line else line
    found: list[tuple[int, str, str | None, int | None, bool]] = []
    for match in _LINK_RE.finditer(text):
        stem = None if match.group(1) else _link_stem(match.group(3))
        if stem is None:
            continue
        label = " ".join(match.group(2).split())
        ids = [_id_number(m) for m in _ID_RE.finditer(label)]
        found.append((match.start(), label, stem, record_number(stem) or (ids[0] if ids else None), False))
    if role:
        found += _role_links(line)
    masked = _LINK_RE.sub(lambda m: " " * len(m.group(0)), text)
    for match in _ID_RE.finditer(masked):
        found.append((match.start(), match.group(0), None, _id_number(match), False))
    # a document of another series named in passing ("follows INC-2291"): related, by its id only
    found += [(match.start(), match.group(), None, int(match["number"]), True)
              for match in ID_MENTION_RE.finditer(masked) if match["prefix"] != "ADR"]
    if bare_path:  # a page's path written bare ("(../runbooks/lag.md)")
        for match in BARE_PAGE_PATH_RE.finditer(masked):
            stem = _link_stem(match.group())
            found.append((match.start(), match.group(), stem, record_number(stem), False))
    links: list[RecordLink] = []
    own_id = document_id(own_stem)
    own_series = own_id[0] if own_id else None
    for position, label, stem, ref_number, mention in sorted(found):
        if mention:
            # a record of the log's own series ("Supersedes: DR-001" in DR-004-vault.md) is typed by
            # the verb of its clause; another series' document ("replaces the steps of INC-2291") is
            # related; both are found by their id only
            named = document_id(label)
            relation_type, incoming = RELATES_TO, False
            if named is not None and named[0] == own_series:
                relation_type, incoming = _typed(masked, position, partial_default)
            links.append(RecordLink(relation_type, incoming, label, None, ref_number, number, excerpt,
                                    mention=True))
            continue
        if (stem and own_stem and stem == own_stem) or (
            stem is None and ref_number is not None and ref_number == own_number
        ):
            continue  # the record itself
        relation_type, incoming = _typed(masked, position, partial_default)
        if stem is not None and BARE_PAGE_PATH_RE.fullmatch(label) and not label.startswith("."):
            relation_type, incoming = RELATES_TO, False  # a path from the docs' root: cited
        links.append(RecordLink(relation_type, incoming, label, stem, ref_number, number, excerpt))
    return links


def _role_links(line: str) -> list[tuple[int, str, str | None, int | None, bool]]:
    """The pages a line's {doc} roles cite: (position, text, stem, number, mention)."""
    found: list[tuple[int, str, str | None, int | None, bool]] = []
    for match in DOC_ROLE_RE.finditer(line):
        stem = _link_stem(match["target"] or match["bare"])
        if stem is not None:
            text = " ".join((match["title"] or stem).split())
            found.append((match.start(), text, stem, record_number(stem), False))
    return found


def _id_number(match: re.Match[str]) -> int:
    return int(match.group("adr") or match.group("padded"))


def status_title_link(status_text: str, line: int, *, partial_default: bool) -> RecordLink | None:
    """`Superseded by DNS Infrastructure` in a status, without a link or id: the title."""
    match = re.search(r"\b(?:superseded|replaced)\s+by\s+(?P<title>[^.;,(]+)", status_text, re.I)
    if not match or not match.group("title").strip():
        return None
    partial = partial_default or bool(_PARTIAL_RE.search(status_text))
    relation_type = PARTIALLY_SUPERSEDES if partial else SUPERSEDES
    title = match.group("title").strip()
    return RecordLink(relation_type, True, title, None, None, line, status_text)


def is_record_like(link: RecordLink) -> bool:
    """A reference that names a record (worth a candidate when it resolves to none)."""
    return (
        link.relation_type != RELATES_TO
        or link.number is not None
        or bool(link.stem and record_number(link.stem) is not None)
    )
