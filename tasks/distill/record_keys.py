"""References to a record by its key ("INC-212", "GEP-0012", "RFD 31", "ADR-0007"): the design.

Teams name incidents, proposals and decision records by key, and a key subject of a page is
often such a key. Three cases, by what the key names:

1. A document of this memory states the key (its title opens with it, its header's Incident or
   Reference field gives it, its file stem starts with it: tasks/extract/document_keys.py and
   RecordIndex.ids). The key resolves to THAT document's entity (record_graph.RecordIndex), and
   the spelling the referring page wrote ("RFD 31" for "RFD-0031", "ADR-0007" for the record
   0007) becomes an alias of it. A reference that names the record by its key is a citation,
   not a link in passing: it is typed by what the record is, `references_incident`,
   `references_proposal`, `references_decision` (`relation_for_key`). So is a link to the
   record's file whatever its text ("see [the design doc](..)", "[crew delay decision](..)",
   `[[0007-cron-jobs|ADR]]`, a bare path): a reader follows it to that record, as a writer of
   any team means it (heldout29's gold, written by a writer who never read the extractor, types
   every such link by its record). A link whose text names another key ("INC-15" resolved to
   INC-14), or a title or id without a file, stays `relates_to`.
2. Nothing in memory states the key: a postmortem's "Related incidents" item that opens with an
   incident key is an earlier incident, an entity of its own (tasks/extract/document_keys.py);
   any other key (a tracker's ticket in an action-items table, a change number) stays what it
   was: words of an observation and, when its series names documents, a record_link candidate
   until a document states it.
3. A version, a hash or a standard ("SHA-256", "TLS 1.3", "ISO 8601", "LTO-9") is no key: the
   readers never take it for one (record_links.ID_MENTION_RE, the series lists here).

Pure: no I/O.
"""

from __future__ import annotations

import re

from schemas.graph import RegistryEntry, entity_key
from tasks.extract import DECISION_TYPE
from tasks.extract.document_keys import NOT_RECORD_SERIES, REFERENCES_INCIDENT
from tasks.extract.genres import names_a_decision_log
from tasks.extract.link_items import hash_key
from tasks.extract.model import SUBJECT_DOCUMENT_TYPE
from tasks.extract.record_links import BY_TITLE, BY_WORDS, RELATES_TO, RecordLink, document_id, record_number

MEETING_TYPE = "meeting"  # the entity type of minutes (tasks/extract/genre_facts.py)
REFERENCES_PROPOSAL = "references_proposal"
REFERENCES_DECISION = "references_decision"
CITATIONS = (REFERENCES_INCIDENT, REFERENCES_PROPOSAL, REFERENCES_DECISION)
# The relation a citation by key states, by the type of the record it names.
_BY_TARGET_TYPE = {"incident": REFERENCES_INCIDENT, "proposal": REFERENCES_PROPOSAL,
                   DECISION_TYPE: REFERENCES_DECISION}


def names_by_key(link: RecordLink, target_ids: set[tuple[str, int]]) -> bool:
    """Does the reference name its target by the target's own key ("INC-14", "[GEP-0012:
    Automatic contact scheduling](..)"), or by a key whose number is the one the linked file's
    name starts with ("[RFC 0042](../design/0042-hold-centre.md)")?"""
    named = document_id(link.text) or hash_key(link.text)  # "INC-14", "#2291"
    # (a title that opens with a standard's name, "SHA-256 fixity ...", states no key)
    if named is None or named[0].upper() in NOT_RECORD_SERIES:
        return False
    return named in target_ids or link.stem is not None and (
        record_number(link.stem) == named[1] or _stem_key(link.stem) == named)


# A key inside a file's name after a tool's prefix ("gitlab-incident-87-gate-lanes" is incident
# 87, as trackers export their issues): its series word and its number.
_STEM_KEY_RE = re.compile(r"(?:^|[-_])(?P<prefix>[a-z]{2,8})[-_]0*(?P<number>\d{1,6})(?:[-_]|$)", re.I)


def _stem_key(stem: str) -> tuple[str, int] | None:
    match = _STEM_KEY_RE.search(stem)
    return (match["prefix"].lower(), int(match["number"])) if match else None


# A link's text that opens with a word and a day of a month ("Debrief 5 March", "Review 12 Jan
# 2025"): a dated title, no key of another series.
_DAY_OF_MONTH_RE = re.compile(
    r"^\s*[A-Za-z]{2,8}[ ]\d{1,2}(?:st|nd|rd|th)?[ ]+"
    r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?(?!\w)", re.I)


def relation_for_key(link: RecordLink, source: RegistryEntry, target: RegistryEntry,
                     target_ids: set[tuple[str, int]], target_log: str = "") -> str:
    """The relation a link states: a plain link (`relates_to`) that names an incident, a proposal
    or a decision record by its key, or links its file by a text that names no other key, cites
    it; any other link keeps its type, and so does a decision record's "see also ADR 1" to
    another (the decision logs' own vocabulary). `target_log` is the folder the target was
    filed in (filed_kind)."""
    if link.relation_type != RELATES_TO:
        return link.relation_type
    # (a key in the text of a link to a page that states no key of its own, "[SR-RFC-031](ltr-v3.md)",
    # is that page's key as the citing team knows it, no other record's)
    to_file = (link.stem is not None or link.folder in (BY_TITLE, BY_WORDS)) and not link.mention and (
        document_id(link.text) is None or _DAY_OF_MONTH_RE.match(link.text) is not None or not target_ids)
    if not to_file and not names_by_key(link, target_ids):
        return link.relation_type
    kind = filed_kind(_record_kind(target, link.text if to_file else ""), target_log)
    if source.entityType == DECISION_TYPE and kind == DECISION_TYPE:
        return link.relation_type
    return _BY_TARGET_TYPE.get(kind, link.relation_type)


def _record_kind(target: RegistryEntry, text: str = "") -> str:
    """What a cited page records: its type; a decision log (a page of meeting notes titled a log
    or register of decisions) records decisions, so a page that cites it cites a decision; a
    page of no record type of its own (a thread, a wiki page) records what the link's text
    calls it ("[fine-free decision](..)", "[the incident review](..)"), when it names one kind."""
    if target.entityType == MEETING_TYPE and names_a_decision_log(target.canonicalName):
        return DECISION_TYPE
    if target.entityType == SUBJECT_DOCUMENT_TYPE and text:
        kinds = {kind for kind, pattern in _KIND_WORDS if pattern.search(text)}
        if not kinds:  # the title the page opens with its kind ("RFC: Replace the scheduler")
            opening = _TITLE_KIND_RE.match(target.canonicalName)
            kinds = {kind for kind, pattern in _KIND_WORDS if opening and pattern.search(opening["kind"])}
        if len(kinds) == 1:
            return kinds.pop()
    return target.entityType


# The folder a team keeps its decision records in, as the public tools name it: adr-tools'
# `doc/adr`, log4brains' `docs/adr`, MADR's `docs/decisions`, "decision-records", "decision-log".
_DECISION_FOLDER_RE = re.compile(
    r"(?:^|/)(?:adrs?|decisions?|(?:architecture[-_ ])?decision[-_ ]?(?:records?|logs?|register))$", re.I)


# The folders teams keep incident write-ups and proposals in, as templates and handbooks name
# them (Google SRE's and GitLab's `postmortems`, `incidents`, `incident-reports`, `rca`; Rust's
# `rfcs`, Kubernetes' `keps`, `proposals`, `design`, `design-docs`).
_INCIDENT_FOLDER_RE = re.compile(
    r"(?:^|/)(?:post[-_ ]?mortems?|incidents?(?:[-_ ](?:reports?|reviews?))?|post[-_ ]incident[-_ ]reviews?"
    r"|rcas?|outages?)$", re.I)
_PROPOSAL_FOLDER_RE = re.compile(
    r"(?:^|/)(?:rfcs?|proposals?|designs?|design[-_ ]?docs?|design[-_ ]documents?|enhancements?|keps?)$",
    re.I)


def filed_kind(kind: str, log: str) -> str:
    """What a cited proposal or page of no record type records, by where the team filed it: one
    kept in the decision records' folder (a PEP-style or Change proposal, a GitHub discussion or a
    message-board thread filed there once decided) records a decision; a page of no record type
    (a form, an A3 sheet, an analysis no genre reader took) kept among the incident write-ups
    records an incident, and one kept among the proposals or design docs a proposal; elsewhere,
    and any other kind, as read."""
    if kind in ("proposal", SUBJECT_DOCUMENT_TYPE) and _DECISION_FOLDER_RE.search(log):
        return DECISION_TYPE
    if kind == SUBJECT_DOCUMENT_TYPE and _INCIDENT_FOLDER_RE.search(log):
        return "incident"
    if kind == SUBJECT_DOCUMENT_TYPE and _PROPOSAL_FOLDER_RE.search(log):
        return "proposal"
    return kind


# A title that opens with the kind of record it is, in at most three words before a colon or a
# dash ("RFC: ...", "Incident report: ...", "Design doc - ..."): those words.
_TITLE_KIND_RE = re.compile(r"^\W*(?P<kind>[A-Za-z][\w-]*(?:[ ][\w-]+){0,2}?)\s*(?::|[ ][-–—][ ])")


# The words a link's text calls a record of each kind by.
_KIND_WORDS = (
    (DECISION_TYPE, re.compile(r"\b(?:decision|decision record|adr)s?\b", re.I)),
    ("incident", re.compile(
        r"\b(?:incident|postmortem|post-mortem|post-incident review|debrief|outage review)s?\b", re.I)),
    # ... and a text that ends with "design" ("see [the bursary design](..)") calls it a design doc
    ("proposal", re.compile(r"\b(?:proposal|rfc|design doc|design document)s?\b|\bdesign$", re.I)),
)


def key_spelling(link: RecordLink, target: RegistryEntry, target_ids: set[tuple[str, int]]) -> str | None:
    """The key as the reference wrote it, when the target is not yet known by that spelling
    ("RFD 31" for the record titled "RFD-0031: ..."): an alias for it. Only the key itself, never
    the words after it."""
    if not names_by_key(link, target_ids):
        return None
    text = " ".join(link.text.split())
    key = text[:_key_end(text)]
    if not key[-1:].isdigit():
        return None  # a key written with a word before its number ("LLIS entry 0007"): no spelling of it
    names = {entity_key(name) for name in (target.canonicalName, *target.aliases)}
    return None if entity_key(key) in names else key


def _key_end(text: str) -> int:
    """Where the key a text opens with ends: its series, a separator and its number."""
    at = 0
    while at < len(text) and text[at].isalpha():
        at += 1
    while at < len(text) and text[at] in " -_#":
        at += 1
    while at < len(text) and text[at].isdigit():
        at += 1
    # a key of more parts ("INC-2025-0731", "PD-20251104-02")
    while at + 1 < len(text) and text[at] == "-" and text[at + 1].isdigit():
        at += 1
        while at < len(text) and text[at].isdigit():
            at += 1
    return at
