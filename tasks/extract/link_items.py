"""How a short piece of text names another page without a markdown link (pure, no I/O).

Teams name pages in fields, tables and notices in the forms their tools write:

- a wiki link, by the page's title (`[[Outstation gateway architecture]]`, Obsidian's and
  Confluence's) or by its file name (`[[inc-2024-017-gateway-outage|INC-2024-017]]`), also as an
  item of a front-matter list (`related: ["[[..]]"]`);
- a document's key with words after it, as document control tables and registers write it
  ("Supersedes | SOP-NET-004 rev C", "Related: INC-2024-017 (gateway outage)"): the key names it;
- a page's title after "see:", as a wiki export leaves a link to another page ("For the polling
  see: Outstation gateway architecture").

Which document each names is decided in distill (tasks/distill/record_graph.py): a title only
when one document of the memory has it, a key only when one document states it.
"""

from __future__ import annotations

import posixpath
import re

from tasks.extract.document_keys import NOT_RECORD_SERIES
from tasks.extract.record_links import (
    BY_TITLE,
    ID_MENTION_RE,
    PARTS_KEY_MENTION_RE,
    RELATES_TO,
    RecordLink,
    record_number,
)
from tasks.extract.structure import Structure

# A wiki link's target that is a file name, not a name: a slug of words joined by "-" or "_", a
# path, or a markdown file ("0007-cron-jobs", "runbooks/disk-full", "Notes.md").
_FILE_NAME_RE = re.compile(r"(?=[^\s]*[-_/])[\w./-]+|[\w -]+\.md", re.I)


def wiki_target_link(
    target: str, typed: tuple[str, bool], line: int, excerpt: str
) -> RecordLink:
    """The link a wiki link's target makes: to the file of that name in any folder (a wiki
    finds a page by its file name anywhere in it), else to the one document of that title."""
    target = target.strip()
    if not _FILE_NAME_RE.fullmatch(target):
        return RecordLink(*typed, target, None, None, line, excerpt, BY_TITLE)
    stem = posixpath.basename(target)
    stem = stem[:-3] if stem.lower().endswith(".md") else stem
    parent = posixpath.basename(posixpath.dirname(target))
    return RecordLink(*typed, target, stem, record_number(stem), line, excerpt, f"*/{parent}")


def is_file_name(target: str) -> bool:
    """Is a wiki link's target a file name (a slug, a path, a markdown file), not a title?"""
    return _FILE_NAME_RE.fullmatch(target.strip()) is not None


# What may follow a key in an item that names a document by it: its revision ("rev C", "v2",
# "(rev. 3)"), or its title after a separator or in brackets ("— Historian on TimescaleDB").
_AFTER_KEY_RE = re.compile(
    r"\s*(?:$|[,;(—–:|·]|-\s|(?:rev(?:ision)?\.?|v(?:ersion)?\.?|issue|edition)\s*[\w.]{1,6}\b)", re.I)


def leading_key(item: str) -> re.Match[str] | None:
    """The key an item opens with, when the rest only says which revision or what it is titled
    ("SOP-NET-004 rev C", "INC-2024-017 (gateway outage)"); None for a key inside a sentence
    ("INC-14 was caused by ...") or a version of a standard ("TLS-1 ...")."""
    match = PARTS_KEY_MENTION_RE.match(item) or ID_MENTION_RE.match(item)
    if match is None or match["prefix"].split("-")[0] in NOT_RECORD_SERIES:
        return None
    return match if _AFTER_KEY_RE.match(item, match.end()) else None


def key_item_link(
    item: str, typed: tuple[str, bool], line: int, excerpt: str, folder: str
) -> RecordLink | None:
    """A field's item that names a document by the key it opens with (leading_key): a link to
    the one document that states that key."""
    match = leading_key(item)
    if match is None:
        return None
    return RecordLink(*typed, match.group(), None, int(match["number"]), line, excerpt, folder, mention=True)


# "see: Title" at a line's end, after a sentence or alone: the title of another page, two to
# twelve words, no link, no sentence of its own.
_SEE_TITLE_RE = re.compile(
    r"(?:^|[\s(>*_])(?i:see(?:\s+also)?)(?:\*\*|__)?:(?:\*\*|__)?[ \t]+"
    r"(?P<title>[A-Za-z0-9][^\[\]()<>`.;!?:*_]{1,118}?)[ \t]*[.)]?[ \t]*$")
_SEE_NEEDLES = ("ee:", "EE:", "lso:", "LSO:", "ee**:", "ee:**", "lso:**")
_MAX_TITLE_WORDS = 12


def see_title_links(structure: Structure) -> list[RecordLink]:
    """The pages a line names by title after "see:" (_SEE_TITLE_RE), as links by title; a
    heading's or a code block's words are none."""
    visible = structure.visible
    links: list[RecordLink] = []
    for index in sorted(structure.holding(*_SEE_NEEDLES)):
        number, line = visible[index]
        if number in structure.heading_lines:
            continue
        match = _SEE_TITLE_RE.search(line)
        if match is None:
            continue
        title = match["title"].strip()
        if 2 <= len(title.split()) <= _MAX_TITLE_WORDS:
            links.append(RecordLink(RELATES_TO, False, title, None, None, number,
                                    " ".join(line.split())[:300], BY_TITLE))
    return links


# A breadcrumb: the line that places a page in its wiki's tree ("Parent: [[Network Data]]",
# "Breadcrumbs: Home > Ops", "You are here: ..."), no link the page states.
_BREADCRUMB_RE = re.compile(
    r"^[\W_]{0,6}(?:parent(?:\s+page)?|breadcrumbs?|you\s+are\s+here)[\W_]{0,4}:", re.I)


def is_breadcrumb(text: str) -> bool:
    """Is a paragraph a breadcrumb line (_BREADCRUMB_RE)?"""
    return text[:1] in "PpBbYy*_>[ " and _BREADCRUMB_RE.match(text) is not None


# An issue's or a ticket's number in its tracker, after the word that says whose or what it is
# ("Redmine #2291", "Feature #2304", "per #214", "see issue #12"; "PR #57" is ID_MENTION_RE's):
# a bare "#1234" is as often a public project's pull request in a changelog, no page of the
# memory. Not a heading's mark, an HTML entity ("&#8212;"), a URL's fragment or a colour.
HASH_MENTION_RE = re.compile(
    r"(?:\b[A-Z][a-z][A-Za-z]{0,14}|\b(?:issue|pr|bug|ticket|story|task|feature|epic|discussion|incident|change"
    r"|request|per|see))[ ](?P<key>#(?P<number>\d{2,6}))(?![\w-]|[.,]\d)")
# A tracker's item cited by its kind and number, as its users write it in a sentence ("Shortcut
# epic 311", "bug 2231", "story 4127"), or by its key in lower case ("internal ref sc-4127", a
# number of three digits or more: "covid-19", "step-2" are none): it names the page that states
# that id (its title "Epic 311: ...", "sc-4127 · ..."), no other.
_KIND_NUMBER_RE = re.compile(
    r"(?<![\w/.#@=&?-])(?i:epic|story|bug|issue|ticket|feature|incident|problem|case)[ ](?P<number>\d{1,6})"
    r"(?![\w-]|[.,:/-]\d)")
_LOWER_KEY_RE = re.compile(r"(?<![\w/.#@=&?-])(?P<series>[a-z]{2,8})-(?P<number>\d{3,6})(?![\w-]|[.,:/-]\d)")
# What each pattern needs, found faster than the pattern itself: " #" and a digit, a "-" and
# three digits, a blank and a digit after one of the kinds' words (in any case but all capitals,
# which ID_MENTION_RE reads).
_HASH_DIGIT_RE = re.compile(r" #\d")
_DASH_DIGITS_RE = re.compile(r"-\d\d\d")
_BLANK_DIGIT_RE = re.compile(r" \d")
_KIND_NEEDLES = ("pic ", "tory ", "ug ", "ssue ", "icket ", "eature ", "ncident ", "roblem ", "ase ")


def _citing_patterns(text: str) -> list[re.Pattern[str]]:
    """The patterns of cited_numbers that may match `text`, by the literal tests above first
    (most paragraphs pass none)."""
    patterns = []
    if "#" in text and _HASH_DIGIT_RE.search(text) is not None:
        patterns.append(HASH_MENTION_RE)
    if "-" in text and _DASH_DIGITS_RE.search(text) is not None:
        patterns.append(_LOWER_KEY_RE)
    if _BLANK_DIGIT_RE.search(text) is not None and any(needle in text for needle in _KIND_NEEDLES):
        patterns.append(_KIND_NUMBER_RE)
    return patterns


def cites_number(text: str) -> bool:
    """Does a text cite a page as cited_numbers reads it?"""
    return any(pattern.search(text) is not None for pattern in _citing_patterns(text))


def cited_numbers(text: str) -> list[tuple[int, str, int]]:
    """Where a text cites a page by a tracker number, an item's kind and number, or a key in
    lower case ("#2291", "epic 311", "sc-4127"): (position, the citation, its number)."""
    found = []
    for pattern in _citing_patterns(text):
        group = "key" if pattern is HASH_MENTION_RE else 0  # "Redmine #2291": the number, "#2291"
        for match in pattern.finditer(text):
            if pattern is not _LOWER_KEY_RE or match["series"].upper() not in NOT_RECORD_SERIES:  # "utf-8"
                found.append((match.start(group), match.group(group), int(match["number"])))
    return found


# A page's own tracker number in its title, as trackers title their pages: GitHub's "Title #57",
# Redmine's "Feature #2291", a postmortem's "(incident #2207)".
_TITLE_HASH_RE = re.compile(
    r"^[A-Z][a-z]{2,12}[ ]#(?P<kind>\d{1,6})(?::|$)|[ ]#(?P<end>\d{1,6})$"
    r"|\((?:[a-z]{2,12}[ ])?#(?P<bracket>\d{1,6})\)$")


def hash_key(text: str) -> tuple[str, int] | None:
    """The ("#", number) a citation by tracker number names ("#2291"); None for other text."""
    text = text.strip()
    return ("#", int(text[1:])) if text[:1] == "#" and text[1:].isdigit() else None


def title_hash(title: str) -> str | None:
    """The tracker number a page's title gives it (_TITLE_HASH_RE), as "#57"."""
    match = _TITLE_HASH_RE.search(title.strip())
    return None if match is None else f"#{match['kind'] or match['end'] or match['bracket']}"
