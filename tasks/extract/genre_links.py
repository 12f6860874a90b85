"""Links a genre document states to other documents (pure, no I/O).

From its fields (`replaces:`, `superseded-by:`, `see-also:`, `depends-on:`, `related:` in front
matter or a header block; items are links, ids such as `TEP-0023` or titles) and from its prose:
a link after "replaced by" / "superseded by" / "deprecated in favor of" / "has been moved to"
is a supersession by the linked document, after "replaces" / "supersedes" one of it; any other
link to a markdown file relates the two. Paragraphs are read whole, so a link whose text wraps
across lines is one link; reference-style links (`[INC-42][INC-42]` with `[INC-42]: url`) read
as the inline link they stand for. Which document a link means is decided in distill
(tasks/distill/record_graph.py): by folder and file stem, by number, or by title.
"""

from __future__ import annotations

import posixpath
import re
from bisect import bisect_right
from collections.abc import Iterable, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import replace
from itertools import accumulate
from urllib.parse import unquote, urlparse

from tasks.extract.document_keys import NOT_RECORD_SERIES
from tasks.extract.genres import (
    HeaderField,
    dated_items,
    decision_rows,
    is_dated_item,
    is_log_item,
    log_item_ids,
)
from tasks.extract.link_headings import heading_mentions
from tasks.extract.link_items import (
    cited_numbers,
    cites_number,
    is_breadcrumb,
    is_file_name,
    key_item_link,
    wiki_target_link,
)
from tasks.extract.links import wikilink_spans
from tasks.extract.record_links import (
    AMENDS,
    BARE_PAGE_PATH_RE,
    BY_TITLE,
    ID_MENTION_RE,
    PARTS_KEY_MENTION_RE,
    RELATES_TO,
    SUPERSEDES,
    RecordLink,
    document_id,
    may_hold_bare_path,
    record_number,
)
from tasks.extract.structure import Structure
from tasks.extract.text import plain_text
from tasks.markdown.code_spans import mask_code_spans
from tasks.markdown.links import INLINE_LINK_RE, SCHEME_RE
from tasks.markdown.tables import table_cells

DEPENDS_ON = "depends_on"
# Field key -> (relation type, incoming: the other document is the relation's source).
_FIELD_RELATIONS: dict[str, tuple[str, bool]] = {
    "replaces": (SUPERSEDES, False),
    "supersedes": (SUPERSEDES, False),
    "obsoletes": (SUPERSEDES, False),
    "superseded by": (SUPERSEDES, True),
    "replaced by": (SUPERSEDES, True),
    "obsoleted by": (SUPERSEDES, True),
    "see also": (RELATES_TO, False),
    "related": (RELATES_TO, False),
    "related to": (RELATES_TO, False),
    "depends on": (DEPENDS_ON, False),
    "requires": (DEPENDS_ON, False),
    "extends": (AMENDS, False),
    "amends": (AMENDS, False),
    "related documents": (RELATES_TO, False),
    "related docs": (RELATES_TO, False),
    "related incidents": (RELATES_TO, False),
    "related pages": (RELATES_TO, False),
    "related runbooks": (RELATES_TO, False),
    "related proposals": (RELATES_TO, False),
    "previous incident": (RELATES_TO, False),
    "follow up to": (RELATES_TO, False),
    "follow up of": (RELATES_TO, False),
    "references": (RELATES_TO, False),
    "blocked by": (DEPENDS_ON, False),
    "succeeded by": (SUPERSEDES, True),
    # an RFC's header ("Updates: 7230", "Updated by: 9110"): the other amends, or is amended
    "updates": (AMENDS, False),
    "updated by": (AMENDS, True),
}
# Field keys that are other words too ("Updates: weekly in #ops"): read only when an item is a
# link, a path or an id, never a title.
_ID_ONLY_FIELDS = frozenset({"updates", "updated by", "updatedby"})
# The gap between the two columns of a plain-text RFC's header (no list of links is spaced so).
_COLUMN_GAP_RE = re.compile(r"[ \t]{8,}")
# Keys written as one word ("supersededBy", "seeAlso"), as field_key leaves them.
_FIELD_RELATIONS.update({key.replace(" ", ""): relation for key, relation in list(_FIELD_RELATIONS.items())})
_PROSE_VERBS: tuple[tuple[re.Pattern[str], str, bool], ...] = (
    (re.compile(r"\b(?:superseded|replaced|obsoleted|succeeded)\s+by\b|\bdeprecated\s+in\s+favou?r\s+of\b"
                r"|\bmoved\s+to\b", re.I), SUPERSEDES, True),
    (re.compile(r"\b(?:supersedes|replaces|obsoletes)\b", re.I), SUPERSEDES, False),
    (re.compile(r"\b(?:depends\s+on|builds\s+on)\b", re.I), DEPENDS_ON, False),
)
_SUPERSESSION_VERBS = tuple(verb for verb in _PROSE_VERBS if verb[1] == SUPERSEDES)
_ANY_VERB_RE = re.compile("|".join(f"(?:{pattern.pattern})" for pattern, _, _ in _PROSE_VERBS), re.I)
# The same verbs matched case-sensitively in a lower-cased ASCII paragraph: the same answer
# (their patterns are written in lower case), in half the time of the case-blind search
# that every paragraph of every document pays.
_ANY_VERB_LOWER_RE = re.compile(_ANY_VERB_RE.pattern)


# A stem every match of those verbs holds: a paragraph holding none has no verb (most have
# none), found by a substring test instead of the pattern's search at every character.
_VERB_STEMS = ("supersede", "replace", "obsolete", "succeeded", "deprecated", "moved", "depends", "builds")


def states_link_verb(text: str) -> bool:
    """Does `text` hold one of the verbs that type a link ("superseded by", "depends on")?"""
    text = _unbolded(text)
    if text.isascii():
        lower = text.lower()
        return any(stem in lower for stem in _VERB_STEMS) and _ANY_VERB_LOWER_RE.search(lower) is not None
    return _ANY_VERB_RE.search(text) is not None
_ID_RE = re.compile(r"^(?:[A-Za-z]{2,8})?[-\s#]*0*(?P<number>\d{1,6})$")
_DEFINITION_RE = re.compile(r"^\s{0,3}\[(?P<label>[^\]]+)\]:\s*<?(?P<url>\S+?)>?(?:\s+[\"'(].*)?$")
_REFERENCE_RE = re.compile(r"(?<![\]!])\[(?P<text>[^\[\]]+)\](?:\[(?P<label>[^\[\]]*)\])?(?![(:\[])")
# A relative link to a page of the same site written without its suffix ("../runbooks/disk-full",
# as wikis and docs sites write them): a document's path, not a folder or a file of another kind.
# A site-root path too ("/ops/webhook-secret-rotation", as a wiki links its pages).
# A numbered page too ("../adr/0007-use-kafka", as Docusaurus and log4brains link records); a
# segment of digits alone ("/pull/41", "/2024") is a number, not a page.
_PAGE_PATH_RE = re.compile(r"^(?:(?:\.{1,2}/)+|/)(?:[\w-]+/)*(?=[\w-]*[A-Za-z])[A-Za-z0-9][\w-]*[A-Za-z0-9]$")
_MARKDOWN_SUFFIXES = frozenset({".md", ".markdown", ".mdx"})
_BUILT_PAGE_SUFFIXES = frozenset({".html", ".htm"})
_MAX_PARAGRAPH_CHARS = 20_000
# Sections whose options were not chosen: "X supersedes [Y]" there describes a design nobody
# adopted, so a link in them relates the documents and never supersedes (issue 23).
_NOT_CHOSEN_SECTIONS = frozenset({
    "alternatives", "alternatives considered", "rejected alternatives", "considered alternatives",
    "options considered", "rejected options", "other options", "alternative designs",
    "alternatives and rejected ideas", "rejected ideas"})
# Sections that list what a design or a page needs first (KEP's, JEP's and most proposal
# templates' "Dependencies"): a page named there is one this page depends on.
_DEPENDENCY_SECTIONS = frozenset({"dependencies", "dependency", "depends on"})


def _section_lines(structure: Structure, titles: AbstractSet[str]) -> set[int]:
    """The lines of the sections whose title is one of `titles` (lower case, blanks as one)."""
    return {number for section in structure.sections
            if " ".join(structure.title(section).lower().split()) in titles
            for number, _ in structure.lines(section)}


# A clause ends at a sentence's end or a semicolon: the verb of another clause states nothing of
# this link ("this entry replaces the entry of 2025-04-02; jobs move to [RFC 7](..)").
_CLAUSE_END_RE = re.compile(r"(?<=[.!?;])\s")
# What a supersession verb names without a link: an id ("superseded by KEP-1234", "Supersedes
# SOP-NET-004 rev C", a series of two words), an issue's number in its tracker ("superseded by
# #57", as GitHub writes it: a page of the same folder) or a dated page of the same folder
# ("Decision superseded by the entry of 2025-06-01"). Matched at the verb's end only (linear).
_ID_AFTER_VERB = r"(?P<id>[A-Z][A-Za-z]{1,7}(?:-[A-Z]{2,8})?(?:[- ]?| \#)\d{1,6}|\#\d{1,6})\b(?![\]])"
# (the verb may be bold and end with a colon: "**Superseded by:** SOP-OPS-12", "is superseded by: OPS-57")
_AFTER_VERB = r"(?:\*\*|__)?:?(?:\*\*|__)?[ \t]{1,3}"
_NAMED_AFTER_VERB_RE = re.compile(
    _AFTER_VERB + r"(?:the[ \t]+(?:entry|minutes|meeting|notes|decision|record)[ \t]+(?:of|from|on)[ \t]+"
    r"(?P<date>\d{4}-\d{2}-\d{2})\b|" + _ID_AFTER_VERB + ")")
# Another id of a list after the first ("supersedes RB-3 and RB-5", "replaces #41, #42").
_NEXT_ID_RE = re.compile(r"[ \t]*(?:,|&|and)[ \t]*(?:and[ \t]+)?" + _ID_AFTER_VERB)
# A page's title in quotes right after the verb ('superseded by "Disk pressure triage"'): the
# one document of that title, when the memory has one.
_QUOTED_TITLE_RE = re.compile(_AFTER_VERB + r"(?:the[ \t]+)?[\"“](?P<title>[^\"”\n]{3,120})[\"”]")
# An item named by id between a supersession verb and the link of the page that holds it
# ("replaces decision DL-10 in the [decision log](..)", "superseded by DL-14 of [the log](..)"):
# the item is replaced, the page only holds it. Anchored at the verb's end (linear).
_ITEM_IN_CONTAINER_RE = re.compile(
    r"[ \t]{1,3}(?:[a-z]{2,12}[ \t]{1,3}){0,2}[A-Z][A-Za-z]{1,7}[- ]?\d{1,6}[ \t]{1,3}(?:in|of|from|on)"
    r"[ \t]{1,3}(?:(?:the|our|this|that)[ \t]{1,3})?")
# The subject of a clause that says "... replaces X" is this document when the clause opens with
# "This ..." / "It" or has no subject ("Supersedes the entry of 2025-04-02"). Minutes report what
# others decided ("RESOLUTION 1: The Entitlements Ledger replaces [TDD-7]"): they supersede only
# when the subject is their own entry.
_OWN_SUBJECT_RE = re.compile(r"^[\W_]*(?:(?:this|the\s+present|the\s+current|it)\b|$)", re.I)
# A table of more than two columns is a log of items ("| D-031 | ... | Superseded by D-058 |
# [ADR-0006](..) |"): what a row says is superseded is its item, never this page; a key-value
# table ("| Status | Superseded by [ADR-0015](..) |") speaks of the page.
_KEY_VALUE_BARS = 3


# Fields named after the kind of record they point to ("incident:
# ../postmortems/rca-almanac.md" in a runbook's front matter, "Design doc: [..](..)"): a link
# to that record when the value is a link or a path to a page; any other value (a key, a
# sentence) is the page's own field, not a link (an incident's "Incident: INC-14").
_RECORD_KIND_FIELDS = frozenset({"incident", "postmortem", "post mortem", "decision", "adr", "proposal",
                                 "spec", "design", "design doc", "rfc", "runbook", "problem"})


def field_links(
    fields: Iterable[HeaderField], folder: str, own: tuple[str, int | None]
) -> list[RecordLink]:
    """The links the document's fields state (`replaces: [TEP-0023]`)."""
    links: list[RecordLink] = []
    for found in fields:
        to_page = found.key in _RECORD_KIND_FIELDS
        # (any "Related ..." field lists related pages: "related-adrs", "Related tickets")
        relation = (RELATES_TO, False) if to_page or found.key.startswith("related ") else \
            _FIELD_RELATIONS.get(found.key)
        if relation is None:
            continue
        relation_type, incoming = relation
        # (an RFC's header is two columns: "Obsoletes: 0017          Payments" ends at the gap)
        for item in re.split(r"\s*,\s*", _COLUMN_GAP_RE.split(found.value.strip(), maxsplit=1)[0]):
            link = _item_link(item.strip(), relation_type, incoming, found, folder)
            if link is not None and found.key in _ID_ONLY_FIELDS and not (link.stem or link.number):
                continue
            if link is not None and not _is_own(link, folder, own) and (link.stem or not to_page):
                links.append(link)
    return links


def _item_link(
    item: str, relation_type: str, incoming: bool, found: HeaderField, folder: str
) -> RecordLink | None:
    inline = INLINE_LINK_RE.search(item)
    excerpt = f"{found.key}: {found.value}"[:300]
    if inline:
        link = _target_link(inline.group(2), inline.group(3), (relation_type, incoming),
                            (found.line, excerpt), folder)
        label = inline.group(2).strip()
        if link is not None or not (_ID_RE.match(label) and label[:1].isalpha()):
            return link  # an issue's "#123" names no document
        item = label  # `[RFC 19](https://.../pull/19)`: the document its label names
    path = item.strip("\"'<>")
    page = path.split("#", 1)[0]  # "log.md#DL-04": the page, and the part of it the field names
    if page and (posixpath.splitext(page)[1].lower() in _MARKDOWN_SUFFIXES or _PAGE_PATH_RE.match(page)):
        # a path written bare ("see-also: ../postmortems/disk-full.md", "/proposals/0057-wal.md")
        return _target_link(path, path, (relation_type, incoming), (found.line, excerpt), folder)
    number = _ID_RE.match(item)
    if number:
        return RecordLink(relation_type, incoming, item, None, int(number["number"]), found.line,
                          excerpt, folder)
    wiki = wikilink_spans(item)  # `related: ["[[Gateway architecture]]"]`
    if wiki and len(wiki) == 1:
        return wiki_target_link(wiki[0][2], (relation_type, incoming), found.line, excerpt)
    keyed = key_item_link(item, (relation_type, incoming), found.line, excerpt, folder)
    if keyed is not None:  # "Supersedes | SOP-NET-004 rev C"
        return keyed
    if item:
        return RecordLink(relation_type, incoming, item, None, None, found.line, excerpt, folder)
    return None


def prose_links(
    structure: Structure, folder: str, own: tuple[str, int | None], *, typed_only: bool = False,
    reported: bool = False,
) -> list[RecordLink]:
    """The links the document's paragraphs state, typed by the verb before each; with
    `typed_only`, only the paragraphs with such a verb are read (a document of no genre); with
    `reported` (minutes), "X replaces Y" supersedes Y only when X is this document."""
    lines = structure.by_number
    definitions = _definitions([structure.visible[i] for i in sorted(structure.holding("["))])
    not_chosen = _section_lines(structure, _NOT_CHOSEN_SECTIONS)
    depending = _section_lines(structure, _DEPENDENCY_SECTIONS)
    links: list[RecordLink] = []
    head_end, status_lines = _notice_place(structure)
    log_ids: set[str] | None = None
    dated_log: bool | None = None  # a log whose entries open with their day (genres.dated_items)
    for start, end in structure.paragraphs:
        text = " ".join(lines.get(n, "").strip() for n in range(start, end + 1))
        if len(text) > _MAX_PARAGRAPH_CHARS or (start == end and is_breadcrumb(text)):
            continue  # (a breadcrumb places the page in its wiki's tree: it states no link)
        typed = states_link_verb(text)
        bare_path = may_hold_bare_path(text)
        mentions = not typed_only and (ID_MENTION_RE.search(text) is not None
                                       or PARTS_KEY_MENTION_RE.search(text) is not None
                                       or cites_number(text))
        if ("[" not in text and not typed and not bare_path and not mentions) or (typed_only and not typed):
            continue
        table = text.startswith("|")
        if table:  # a verb types the links of its own cell: each "|" ends a clause
            text = text.replace("|", ";")
        first = lines.get(start, "")
        # a row of a log kept as a table, or an entry of one kept as a list ("- **BD-4** (2026-01-12)
        # ... Supersedes BD-1 (built in [PR 1187](..))"): what it supersedes is its entry's, not the page's
        log_rows = (first.count("|") > _KEY_VALUE_BARS) if table else is_log_item(first)
        if not table and not log_rows and is_dated_item(first):  # "- **2026-02-17 — decided:** ..."
            dated_log = dated_items(structure) >= 2 if dated_log is None else dated_log
            log_rows = dated_log
        if log_rows and not table and log_ids is None:
            log_ids = log_item_ids(structure)  # the log's own numbering names its entries, no page
        where = _LineEnds((start, end), lines)
        found = _paragraph_links(_inline_references(text, definitions), where, folder, own)
        if bare_path:
            found += _bare_path_links(text, where, folder, own)
        if "[[" in text:
            found += _wiki_links(text, where, folder, own)
        if mentions:
            found += _mention_links(text, where, folder, log_ids or frozenset())
        if typed and not log_rows:  # "superseded by KEP-1234": a document named without a link
            found += _named_links(text, where, folder, own)
        near_top = (start < head_end or start in status_lines) and not log_rows  # a notice's place
        found = _replacement_of_notice(text, found) if found and near_top else found
        if start in not_chosen or log_rows:
            found = [replace(link, relation_type=RELATES_TO, incoming=False) for link in found]
        elif reported and typed and not _supersedes_itself(text):
            found = [link if link.incoming or link.relation_type != SUPERSEDES
                     else replace(link, relation_type=RELATES_TO) for link in found]
        links += found + _dependencies(found) if start in depending else found
    # "### Lag alert (INC0048213 follow-up)": a key a heading cites
    return links if typed_only else links + heading_mentions(structure, folder)


# A notice near a page's top that the page is out of use: a label that opens its paragraph
# ("> **Deprecated:** ...", "⚠️ OBSOLETE", a GitHub alert's "> [!WARNING] Archived" as boxes.py
# unboxes it: "**Archived:**"), its status ("Status:
# Obsolete, see ..."), or a sentence whose subject is the page ("This runbook is no longer
# maintained", "This page is outdated").
_NOTICE_RE = re.compile(
    r"^\W{0,8}(?:deprecated|obsolete|archived|retired|outdated)\b"
    r"|^\W{0,4}(?:document\s+|page\s+)?status\W{0,6}(?:deprecated|obsolete|archived|retired|superseded|replaced)\b"
    r"|\bthis\s+(?:page|document|doc|runbook|playbook|guide|design|proposal|article|note|procedure|rfc|spec"
    r"|record|checklist)\s+(?:is|has\s+been|was)\s+(?:now\s+)?(?:deprecated|obsolete|outdated|retired|archived"
    r"|no\s+longer\s+(?:maintained|used|valid|current|accurate|updated))\b", re.I)
# What points from such a notice to the page to read instead ("use [X] instead", "see [X]",
# "the current design is described in [X]").
_POINTER_RE = re.compile(
    r"\b(?:use|see|read|refer\s+to|go\s+to|follow|in\s+favou?r\s+of|moved\s+to|lives\s+(?:at|in)|now\s+(?:at|in)"
    r"|current\s+(?:version|design|page|runbook|document|process))\b", re.I)
_NOTICE_LINES = 25  # a notice stands at the top: the page's header and first paragraphs


def _notice_place(structure: Structure) -> tuple[int, frozenset[int]]:
    """Where a notice about the whole page stands: the page's head (its lines before the first
    heading under its title, at most _NOTICE_LINES of them) and its Status section; a status
    under another heading is an entry's or a part's ("### D-012 ..." then "**Status:** Superseded")."""
    first_line = structure.visible[0][0] if structure.visible else 0
    heads = structure.sections[1:]
    if heads and heads[0].level == 1:
        heads = heads[1:]  # the page's title
    head_end = min(structure.number(heads[0]) if heads else first_line + _NOTICE_LINES,
                   first_line + _NOTICE_LINES)
    status = frozenset(number for section in heads if structure.title(section).strip().lower() == "status"
                       for number, _ in structure.lines(section))
    return head_end, status


def _replacement_of_notice(text: str, found: list[RecordLink]) -> list[RecordLink]:
    """A notice that the page is out of use, pointing to a page ("**Deprecated:** use [the new
    runbook](disk-v2.md) instead", "Status: Obsolete, see [v2](v2.md)"): that page supersedes
    this one; the notice's other links, and every link of any other paragraph, stay as read."""
    notice = _NOTICE_RE.search(text)
    if notice is None or any(link.relation_type == SUPERSEDES for link in found):
        return found
    pointer = _POINTER_RE.search(text, notice.end())
    target = pointer and next((link for link in found if link.stem is not None and not link.mention
                               and link.relation_type == RELATES_TO
                               and text.find(f"[{link.text}", pointer.end()) >= 0), None)
    if pointer is None or target is None:
        return found
    return [replace(link, relation_type=SUPERSEDES, incoming=True) if link is target else link
            for link in found]


def _paragraph_links(
    text: str, where: _LineEnds, folder: str, own: tuple[str, int | None]
) -> list[RecordLink]:
    links: list[RecordLink] = []
    previous_end = 0
    excerpt = ""
    for match in INLINE_LINK_RE.finditer(text):
        if match.group(1):
            continue  # an image
        window = _CLAUSE_END_RE.split(text[previous_end : match.start()])[-1]
        previous_end = match.end()
        if not excerpt:
            excerpt = " ".join(INLINE_LINK_RE.sub(lambda m: m.group(2), text).split())[:300]
        line = where.line_of(match.start())
        link = _target_link(match.group(2), match.group(3), _verb(window), (line, excerpt), folder)
        if link is not None and not _is_own(link, folder, own):
            links.append(link)
    return links


def _bare_path_links(
    text: str, where: _LineEnds, folder: str, own: tuple[str, int | None]
) -> list[RecordLink]:
    """Pages a paragraph names by a relative path written bare, typed by the verb before each."""
    links: list[RecordLink] = []
    previous_end = 0
    masked = mask_code_spans(text) if "`" in text else text
    for match in BARE_PAGE_PATH_RE.finditer(text):
        if not match.group().startswith(".") and masked[match.start():match.end()] != match.group():
            continue  # a path from the root in a code span is a file named, not a page cited
        window = _CLAUSE_END_RE.split(text[previous_end : match.start()])[-1]
        previous_end = match.end()
        line = where.line_of(match.start())
        excerpt = " ".join(text.split())[:300]
        # a path from the docs' root ("(design/kiosk.md)") is cited, as a repository's pages cite
        # each other; only a relative one is typed by its verb (an outline's paragraph is long)
        typed = _verb(window) if match.group().startswith(".") else (RELATES_TO, False)
        link = _target_link(match.group(), match.group(), typed, (line, excerpt), folder)
        if link is not None and not _is_own(link, folder, own):
            links.append(link)
    return links


def _wiki_links(
    text: str, where: _LineEnds, folder: str, own: tuple[str, int | None]
) -> list[RecordLink]:
    """Pages a paragraph names by wiki link by their file name (`[[0007-cron-jobs|ADR 7]]`,
    `[[runbooks/disk-full]]`), typed by the verb before each: a wiki finds a page by its file name
    anywhere in it, so the target is a stem of any folder. A link by a name (`[[Legacy
    Mainframe]]`) is the mention of an entity that tasks/extract/lines.py makes of it, and a
    citation of the page when a document has that title."""
    links: list[RecordLink] = []
    previous_end = 0
    for start, end, target in wikilink_spans(text):
        window = _CLAUSE_END_RE.split(text[previous_end:start])[-1]
        previous_end = end
        excerpt = " ".join(text.split())[:300]
        if not is_file_name(target):
            # a page named by its title (Logseq's and Obsidian's `[[Offline work orders]]`): cited
            # when a document of the memory has that title (record_graph.RecordIndex); an outline's
            # paragraph is long, so a verb types it only right before it, said of this page
            # ("> **Superseded** by [[SOP-11 Alarm triage]]")
            links.append(wiki_target_link(target, _verb_of_page(window), where.line_of(start), excerpt))
            continue
        link = wiki_target_link(target, _verb(window), where.line_of(start), excerpt)
        if not _is_own(link, folder, own):
            links.append(link)
    return links


# What may stand between a verb and the link it types: a blank, emphasis, a colon.
_VERB_TO_LINK_RE = re.compile(r"[\s*_:]*")


def _verb_of_page(window: str) -> tuple[str, bool]:
    """The relation a verb that ends `window` states of this page (the clause has no other
    subject: "Superseded by", "This page replaces"); relates_to otherwise."""
    window = _unbolded(window)
    verbs = list(_ANY_VERB_RE.finditer(window))
    last = verbs[-1] if verbs else None
    if last is None or not _VERB_TO_LINK_RE.fullmatch(window, last.end()):
        return RELATES_TO, False
    if not _OWN_SUBJECT_RE.match(_NOTICE_LABEL_RE.sub("", window[: last.start()], count=1)):
        return RELATES_TO, False
    return _verb(window)


# A notice's label before its verb ("Deprecated: moved to [[..]]", "Note: superseded by").
_NOTICE_LABEL_RE = re.compile(r"^[\W_]*[A-Za-z][\w ]{0,30}:")


# A page's list of related pages by their titles alone, without links, as a help centre's
# export leaves it (Zendesk's "Related articles", a wiki's "Related pages", "See also"): each
# item that reads as a title cites the document of that title, when the memory has exactly one
# (record_graph.RecordIndex); a sentence, a link or a comment is no title.
_RELATED_LABEL_RE = re.compile(
    r"^\s*(?:\*\*|__)?(?:related\s+(?:articles|pages|documents|docs|reading)|see\s+also"
    r"|further\s+reading)(?:\*\*|__)?\s*:?\s*$", re.I)
_TITLE_ITEM_RE = re.compile(r"^\s*[-*+]\s+(?P<title>[^\s\[\]()<>`][^\[\]()<>`]{2,118}[^\s.;!?\[\]()<>`])\s*$")
_TITLE_WORDS = 12


def related_title_links(structure: Structure) -> list[RecordLink]:
    """The titles a related-pages list names (see _RELATED_LABEL_RE), as links by title."""
    visible = structure.visible
    links: list[RecordLink] = []
    for index in sorted(structure.holding("elated", "ee also", "EE ALSO", "urther reading")):
        number, label = visible[index]
        if number in structure.heading_lines:  # a heading's words, as the block model reads them
            label = next((structure.title(section) for section in structure.sections[1:]
                          if structure.number(section) == number), label)
        if not _RELATED_LABEL_RE.match(label):
            continue
        for number, line in visible[index + 1:]:
            if not line.strip():
                continue
            item = _TITLE_ITEM_RE.match(line)
            if item is None:
                if not _ITEM_RE.match(line):
                    break  # the list ended
                continue  # an item with a link or a sentence: the paragraph readers' own
            title = item["title"].strip()
            if len(title.split()) <= _TITLE_WORDS:
                links.append(RecordLink(RELATES_TO, False, title, None, None, number, title, BY_TITLE))
    return links


_ITEM_RE = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s")


def _mention_links(
    text: str, where: _LineEnds, folder: str, entries: AbstractSet[str] = frozenset()
) -> list[RecordLink]:
    """Documents a paragraph names by id without a link ("see ADR-0015", "from COE-2024-02"):
    related, whatever the verb (a supersession needs the verb and a link or an id right after
    it: _named_links). Not in a code span, nor a link's text or target (the link itself says
    what it means), nor one of `entries`, the ids of the page's own log entries."""
    plain = INLINE_LINK_RE.sub(lambda m: " " * len(m.group(0)), mask_code_spans(text))
    links: list[RecordLink] = []
    excerpt = ""
    keyed = [match for match in PARTS_KEY_MENTION_RE.finditer(plain)
             if match["prefix"] not in NOT_RECORD_SERIES]  # "CVE-2021-44228" is no record's key
    ids = ((m.start(), m.group(), int(m["number"])) for m in [*ID_MENTION_RE.finditer(plain), *keyed])
    found = sorted([*ids, *cited_numbers(plain)])  # "Redmine #2291", "Shortcut epic 311", "sc-4127"
    for position, cited, number in found:
        if cited in entries:
            continue
        excerpt = excerpt or " ".join(INLINE_LINK_RE.sub(lambda m: m.group(2), text).split())[:300]
        links.append(RecordLink(RELATES_TO, False, cited, None, number, where.line_of(position), excerpt,
                                folder, mention=True))
    return links


def _named_links(
    text: str, where: _LineEnds, folder: str, own: tuple[str, int | None]
) -> list[RecordLink]:
    """Supersessions by a document the verb names by id or date, not by a link."""
    links: list[RecordLink] = []
    for pattern, relation_type, incoming in _SUPERSESSION_VERBS:
        for verb in pattern.finditer(text):
            if _inside_quotation(text[: verb.start()]):
                continue
            named = _NAMED_AFTER_VERB_RE.match(text, verb.end())
            excerpt = " ".join(INLINE_LINK_RE.sub(lambda m: m.group(2), text).split())[:300]
            line = where.line_of(verb.start())
            if named is None:
                quoted = _QUOTED_TITLE_RE.match(text, verb.end())
                if quoted is not None:
                    title = quoted["title"].strip()
                    links.append(RecordLink(relation_type, incoming, title, None, None, line, excerpt,
                                            BY_TITLE))
                continue
            references = [named["date"] or named["id"]]
            end = named.end()
            while named["id"] and (more := _NEXT_ID_RE.match(text, end)) is not None:
                references.append(more["id"])
                end = more.end()
            for reference in references:
                link = _named_link(reference, (relation_type, incoming), line, excerpt, folder)
                if not _is_own(link, folder, own):
                    links.append(link)
    return links


def _named_link(
    reference: str, typed: tuple[str, bool], line: int, excerpt: str, folder: str
) -> RecordLink:
    """A link to the page an id or a date names: by its number in the folder ("KEP-1234",
    "#57"), by the key a page states ("SOP-NET-004"), or by the date its stem opens with."""
    number = _ID_RE.match(reference)
    keyed = document_id(reference) if number is None else None
    numbered = int(number["number"]) if number else keyed[1] if keyed else None
    return RecordLink(*typed, reference, None, numbered, line, excerpt, folder, mention=keyed is not None)


def _dependencies(found: list[RecordLink]) -> list[RecordLink]:
    """The pages a Dependencies section names, as pages this one depends on; the citations stay
    too (a citation by key is typed by what the page is: record_keys)."""
    return [replace(link, relation_type=DEPENDS_ON) for link in found if link.relation_type == RELATES_TO]


def _supersedes_itself(text: str) -> bool:
    """Does a clause of `text` say this document replaces another ("This entry replaces ...",
    "Supersedes ..."), rather than that something else does?"""
    for pattern, _, incoming in _SUPERSESSION_VERBS:
        for verb in pattern.finditer(text):
            if not incoming and _OWN_SUBJECT_RE.match(_CLAUSE_END_RE.split(text[: verb.start()])[-1]):
                return True
    return False


def _unbolded(text: str) -> str:
    """`text` without bold marks, which may split a verb ("**Superseded** by [..](..)")."""
    return text.replace("**", "").replace("__", "") if "**" in text or "__" in text else text


def _verb(window: str) -> tuple[str, bool]:
    """The relation the last verb of `window` states (relates_to without one)."""
    window = _unbolded(window)
    chosen: tuple[int, int, str, bool] | None = None
    for pattern, relation_type, incoming in _PROSE_VERBS:
        for match in pattern.finditer(window):
            if chosen is None or match.start() > chosen[0]:
                chosen = (match.start(), match.end(), relation_type, incoming)
    if chosen is None or (chosen[2] == SUPERSEDES and _inside_quotation(window[: chosen[0]])):
        return RELATES_TO, False  # a quotation reports what another page says of itself
    if chosen[2] == SUPERSEDES and _ITEM_IN_CONTAINER_RE.fullmatch(window, chosen[1]):
        return RELATES_TO, False  # the item the verb names is replaced, not the page holding it
    return chosen[2], chosen[3]


def _inside_quotation(before: str) -> bool:
    """Does a quotation opened in `before` stay open at its end ('is a stub: "This alert has
    been moved to [...]"': a page quoting another, as a list of sources does)?"""
    return before.count('"') % 2 == 1 or before.rfind("“") > before.rfind("”")


def _definitions(visible: Sequence[tuple[int, str]]) -> dict[str, str]:
    found: dict[str, str] = {}
    for _, line in visible:
        if line.lstrip().startswith("["):
            match = _DEFINITION_RE.match(line)
            if match:
                found.setdefault(" ".join(match["label"].lower().split()), match["url"])
    return found


def _inline_references(text: str, definitions: dict[str, str]) -> str:
    """`[text][label]`, `[text][]` and `[label]` with a definition, as inline links."""
    if not definitions:
        return text

    def inline(match: re.Match[str]) -> str:
        label = match["label"] or match["text"]
        url = definitions.get(" ".join(label.lower().split()))
        return f"[{match['text']}]({url})" if url else match.group(0)

    return _REFERENCE_RE.sub(inline, text)


class _LineEnds:
    """Where each line of a paragraph (`span`, its first and last line) ends in its joined text
    (each line stripped, then a blank), found once a paragraph: the source line of a character
    by bisection, not a walk of the lines for each link (a list of links: one a line)."""

    __slots__ = ("ends", "first", "last")

    def __init__(self, span: tuple[int, int], lines: dict[int, str]) -> None:
        self.first, self.last = span
        self.ends = list(accumulate(len(lines.get(number, "").strip()) + 1
                                    for number in range(self.first, self.last + 1)))

    def line_of(self, position: int) -> int:
        """The source line of a character of the joined paragraph (the last line past its end)."""
        index = bisect_right(self.ends, position)
        return self.first + index if index < len(self.ends) else self.last


def _target_link(
    label: str, target: str, typed: tuple[str, bool], where: tuple[int, str], folder: str
) -> RecordLink | None:
    """A link to a markdown document: in the memory's folders (relative) or by URL. `typed`:
    the relation and its direction; `where`: the line and the excerpt that state it."""
    (relation_type, incoming), (line, excerpt) = typed, where
    if not target or target[:1] == "#":
        return None  # a link within the page (a URL fragment), not to a document
    if relation_type == SUPERSEDES and not incoming and "#" in target:
        # "supersedes: log.md#DL-04": a part of the page (an entry, a section) is replaced, the
        # page that holds it stands (as "replaces DL-04 in the [log](..)": _ITEM_IN_CONTAINER_RE)
        relation_type = RELATES_TO
    label = " ".join(label.split())
    if SCHEME_RE.match(target) or target.startswith("//"):
        path = urlparse(target).path
        if posixpath.splitext(path)[1].lower() not in _MARKDOWN_SUFFIXES:
            # a page kept elsewhere (a wiki, a shared doc) named by its title: the memory's copy
            # of it, when one document has that title (record_graph.RecordIndex)
            titled = _TITLE_LABEL_RE.fullmatch(label) is not None and document_id(label) is None
            return (RecordLink(relation_type, incoming, label, None, None, line, excerpt, BY_TITLE)
                    if titled else None)
        parent = posixpath.basename(posixpath.dirname(path))
        stem = posixpath.splitext(posixpath.basename(path))[0]
        return RecordLink(relation_type, incoming, label, stem, record_number(stem), line, excerpt,
                          f"*/{parent}")
    # a file name with blanks, escaped as a URL ("../incidents/Webhook%20delivery%20failures.md")
    path = target.split("#", 1)[0].split("?", 1)[0]
    path = unquote(path) if "%" in path else path
    if path.endswith("/") and _PAGE_PATH_RE.match(path[:-1]):
        path = path[:-1]  # a docs site's directory URL of a page ("../architecture/dispatch-overview/")
    suffix = posixpath.splitext(path)[1].lower()
    # (a docs site's built page, "../runbooks/disk-full.html", is the page of that stem)
    if not path or (suffix not in _MARKDOWN_SUFFIXES and suffix not in _BUILT_PAGE_SUFFIXES
                    and not _PAGE_PATH_RE.match(path)):
        return None
    stem = posixpath.splitext(posixpath.basename(path))[0]
    if path.startswith("/"):
        place = f"*/{posixpath.basename(posixpath.dirname(path))}"
    else:
        place = posixpath.normpath(posixpath.join(folder, posixpath.dirname(path)))
        place = "" if place == "." else place
    return RecordLink(relation_type, incoming, label, stem, record_number(stem), line, excerpt, place)


# A link's text that may be a page's title: two to twelve words, a letter first, no sentence.
_TITLE_LABEL_RE = re.compile(r"[A-Za-z][^\[\]()<>`.!?;]{0,100}\s\S[^\[\]()<>`!?;]{0,100}")


def _is_own(link: RecordLink, folder: str, own: tuple[str, int | None]) -> bool:
    """A link to the document itself (its own file, or its own number without a file)."""
    own_stem, own_number = own
    if link.stem is not None:
        return link.stem == own_stem and link.folder in (folder, f"*/{posixpath.basename(folder)}")
    return link.number is not None and link.number == own_number


def unique_links(links: Iterable[RecordLink]) -> list[RecordLink]:
    """Each (type, direction, target) once, the first statement kept."""
    seen: set[tuple[str, bool, str, str]] = set()
    kept: list[RecordLink] = []
    for link in links:
        key = (link.relation_type, link.incoming, link.folder or "", (link.stem or link.text).lower())
        if key not in seen:
            seen.add(key)
            kept.append(link)
    return kept


# A log entry's key as its row's first cell writes it whole ("DL-01", "**DEC-7**").
_ENTRY_KEY_RE = re.compile(r"[A-Z][A-Za-z]{1,7}-?\d{1,5}")
_ENTRY_SERIES_MIN = 2  # one keyed row is a table that happens to hold a key; two are a numbering


def log_entry_keys(structure: Structure) -> list[str]:
    """The keys a decision log numbers its entries by: the first cell of each row of a table
    with a Decision column that opens with its day (`| DL-01 | 14/03/25 | ... |`), or the id each
    entry of a log kept as a list opens with (`- **BD-4** (2026-01-12) ...`); kept when two
    entries or more share a series, in the page's order. A page that cites "DL-05" cites the
    log that holds it (tasks/distill/record_graph.py)."""
    lines = structure.by_number
    keys = [cell for number in decision_rows(structure)
            if (cell := plain_text(next(iter(table_cells(lines.get(number, ""))), "")).strip("*_ "))
            and _ENTRY_KEY_RE.fullmatch(cell)]
    keys += sorted(log_item_ids(structure))
    series: dict[str, int] = {}
    for key in keys:
        named = document_id(key)
        if named is not None and named[0].upper() not in NOT_RECORD_SERIES:
            series[named[0]] = series.get(named[0], 0) + 1
    return [key for key in dict.fromkeys(keys)
            if (named := document_id(key)) is not None and series.get(named[0], 0) >= _ENTRY_SERIES_MIN]
