"""What a document of a genre states about itself: its status and its dates (pure).

Status: a `status` field (front matter or header block) first, then a Status section (the
status word it states: "proposed and accepted" -> accepted), then a Superseded / Deprecated
section. Dates: the record's own date fields (`creation-date`, `Created:`, `Start Date:`,
`Last updated:`, `Date:`), then, for the genre's main date (a proposal's creation, an incident's
day, a meeting's day), a date written in the title or the header block, else in the first
lines of prose ("On Tuesday 3 March 2020 at 14:05"). Each date is an ISO date (a month alone
as `YYYY-MM` when only a month is written), with the text as written kept beside it when it
differs.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from collections.abc import Set as AbstractSet
from dataclasses import replace
from datetime import date

from tasks.extract.date_fields import MAIN, OTHER, REVIEWED, UPDATED, WRITTEN, date_role
from tasks.extract.form_fields_age import aged_day
from tasks.extract.genres import (
    MINUTES,
    POSTMORTEM,
    PROPOSAL,
    HeaderField,
    header_lines,
    is_dated_item,
    is_log_item,
    issue_state,
)
from tasks.extract.model import ObservationFact
from tasks.extract.paragraphs import first_paragraph
from tasks.extract.revision_status import revision_status
from tasks.extract.status_text import (
    STATE_LABEL_RE,
    badge_status,
    emoji_status,
    is_pointer,
    states_state,
    status_observation,
    title_status,
    without_status_macros,
)
from tasks.extract.status_updates import MIN_UPDATES, first_posted, update_status
from tasks.extract.structure import Structure, find_section, section_key
from tasks.extract.tech_radar import RINGS
from tasks.extract.text import plain_text, shorten
from tasks.extract.tracker_history import history_status
from tasks.extract.yearless_dates import anchor_date, month_year, title_year, yearless_date
from tasks.markdown.tables import table_cells
from tasks.record_dates import MONTH_NAME, day_first_hint, find_date, month_number

STATUS_WORDS = (
    "implemented", "implementable", "accepted", "approved", "final", "active", "rejected",
    "declined", "withdrawn", "deferred", "postponed", "superseded", "replaced", "deprecated",
    "obsolete", "abandoned", "proposed", "provisional", "draft", "in review", "under review",
    "resolved", "closed", "open", "investigating", "monitoring", "completed", "done",
)
_STATUS_WORD_RE = re.compile(r"\b(" + "|".join(STATUS_WORDS) + r")\b", re.I)
_MONTH_YEAR_RE = re.compile(rf"\b(?P<month>{MONTH_NAME})\.?,?\s+(?P<year>(?:19|20)\d{{2}})\b", re.I)
_ON_DATE_RE = re.compile(
    r"(?:^|[\s(])[Oo]n\s+(?:the\s+(?:morning|afternoon|evening|night)\s+of\s+)?"
    r"(?P<when>(?:(?:mon|tues|wednes|thurs|fri|satur|sun)day,?\s+)?(?:the\s+)?"
    r"(?:\d{4}-\d{2}-\d{2}|[\w ,/.-]{3,30}?\d{4})"
    r"(?:,?\s+(?:at|around|from)\s+\d{1,2}[:.]\d{2}(?:\s*[ap]\.?m\.?)?"
    r"(?:\s+(?-i:[A-Z]{2,5})\b)?)?)",
    re.I,
)
_MONTH_NAME = MONTH_NAME
_ORDINAL = r"(?:st|nd|rd|th)?"
# A span of days written once ("January 14-19, 2026", "14-19 January 2026", "November 11 and
# November 15, 2025"): its first day is the date.
_MONTH_FIRST_SPAN_RE = re.compile(
    rf"\b(?P<month>{_MONTH_NAME})\.?\s++(?P<day>\d{{1,2}}){_ORDINAL}\s*+(?:-|–|—|to\b|and\b|until\b|through\b)"
    rf"\s*+(?:{_MONTH_NAME}\.?\s++)?\d{{1,2}}{_ORDINAL},?\s++(?P<year>(?:19|20)\d{{2}})\b", re.I)
_DAY_FIRST_SPAN_RE = re.compile(
    rf"\b(?P<day>\d{{1,2}}){_ORDINAL}\s*+(?:-|–|—|to\b|and\b|until\b)\s*+\d{{1,2}}{_ORDINAL}\s++(?P<month>{_MONTH_NAME})\b",
    re.I)
# An incident told as a span ("Between November 11 and November 15, 2025 we hit ...", "From
# Friday, 21 August 2026 to Wednesday, 2 September 2026, payments ...": its first day, whole).
_SPAN_OPENING_RE = re.compile(
    rf"(?:^|[\s(])(?:[Bb]etween|[Ff]rom)\s++(?P<when>{_MONTH_NAME}\.?\s++\d{{1,2}}{_ORDINAL}\s++"
    rf"(?:and|to|until|through)\s++(?:{_MONTH_NAME}\.?\s++)?\d{{1,2}}{_ORDINAL},?\s++(?:19|20)\d{{2}})\b"
    rf"|(?:^|[\s(])(?:[Bb]etween|[Ff]rom)\s++(?:(?:mon|tues|wednes|thurs|fri|satur|sun)day,?\s++)?"
    rf"(?P<day_first>\d{{1,2}}{_ORDINAL}\s++{_MONTH_NAME}\s++(?:19|20)\d{{2}}),?\s++(?:and|to|until|through)\b",
    re.I)
_TIMESTAMP_RE = re.compile(r"\b((?:19|20)\d{2}-\d{2}-\d{2})[T_](?=\d)")
# PEP's `01-Jun-2001`; Jira's `01/Mar/24 2:05 PM` (its two-digit year: the month's name leaves
# no doubt which part is the year).
_DAY_MON_YEAR_RE = re.compile(
    r"\b(?P<day>\d{1,2})(?:[-/. ](?P<month>[A-Za-z]{3,9})\.?[-/. ](?P<year>(?:19|20)\d{2})"
    r"|(?P<sep>[-/])(?P<month2>[A-Za-z]{3,9})(?P=sep)(?P<year2>\d{2})(?![\d:])"
    # the aviation and military style: the month's three letters in capitals between blanks ("22 OCT 26")
    r"|\s(?P<month3>(?-i:JAN|FEB|MAR|APR|MAY|JUN|JUL|AUG|SEP|OCT|NOV|DEC))\s(?P<year3>\d{2})(?![\d:]))\b"
)
_FULL_DATE_RE = re.compile(r"\b(?:19|20)\d{2}-\d{2}-\d{2}\b")
_STATUS_KEYS = ("status", "document status", "doc status", "proposal status", "incident status",
                "current status", "rfc status", "state", "review status", "postmortem status", "page status",
                "design status",
                # a Backstage component's `lifecycle: production`, a readiness review's verdict
                "lifecycle", "verdict",
                # the milestone a FireHydrant incident has reached ("Current milestone: Resolved")
                "current milestone",
                # front matter nested one level (genres.header_fields): `spec: {lifecycle: ..}`
                "spec lifecycle", "metadata status",
                # a proposal process's stage ("Stage: Accepted"), after every status field
                "stage",
                # a technology radar blip's ring (`ring: Adopt`): what the team decided of it
                "ring",
                # a LeanIX fact sheet's approval by its owners ("Quality seal: Approved")
                "quality seal")
_YEAR_MONTH_RE = re.compile(r"(?<![\w/.-])(?:19|20)\d{2}-(?:0[1-9]|1[0-2])(?![\w/]|[.-]\d)")
# A field line holding a second field ("Status: current as of 2024-08. Owner: messaging team."; a
# second part after a middle dot is cut as well: "Status: current · Maintained by the guild").
_NEXT_FIELD_RE = re.compile(r"\.\s+(?=[A-Z][A-Za-z ]{1,25}:\s)")
_BYLINE_WORD_RE = re.compile(
    r"\b(?:posted|published|written|updated|edited|reviewed|modified|created"
    # an incident tool's export line ("Exported from Rootly on 2026-01-21"): when the write-up was made
    r"|exported|prepared|compiled|revised)\b", re.I
)
# An icon of Confluence's and Jira's wiki markup before a status, as a page exported as text keeps
# it ("(/) DONE", "(!) AT RISK", "(x) Rejected").
_WIKI_ICON_RE = re.compile(r"^\((?:/|x|!|i|\?|y|n|on|off|\*[rgby]?)\)\s+(?=\w)", re.I)
_EDGE_MARKS_RE = re.compile(r"^(?!~~)[^\w(]+|[^\w)~]+$")  # a struck-through step keeps its marks
# A file filed by its day, the day first or last in its name (`2020-01-23-sync.md`,
# `zoom-summary-ops-sync-2026-12-01.md`, as meeting tools name their exports).
_STEM_DATE_RE = re.compile(r"^((?:19|20)\d{2})-(\d{2})-(\d{2})\b|(?<=[-_])((?:19|20)\d{2})-(\d{2})-(\d{2})$")

# ("Incident: INC-2025-0214, Tue 4 Mar 2025, 05:40-08:05" states the day it happened)
CREATED_KEYS = ("creation date", "created", "start date", "created on", "date", "released", "released on",
                "published", "incident date", "date of incident", "incident", "meeting date", "created at",
                "creation", "date created", "published on", "published at", "publish date",
                "publishdate", "pubdate", "date of meeting", "incident start", "start time",
                "started", "occurred", "occurred on", "date of occurrence", "occurrence date",
                "date and time", "date/time", "date time",
                "when", "proposed", "submitted", "opened", "drafted", "written", "incident date/time",
                # the day it took effect, when that is the only date a page gives
                "adopted", "adopted on", "approved", "approved on", "accepted", "accepted on",
                "ratified", "effective", "effective date", "effective from", "decided", "decision date",
                # a request's day (a risk acceptance, a change request)
                "requested", "requested on", "date requested", "raised", "raised on", "date raised",
                # the timestamps incident.io sets on every incident (its export's "Reported at")
                "reported at", "reported on", "reported", "impact started", "impact started at",
                # Rootly's and FireHydrant's field tables ("| Started at | 2026-01-14 03:42 UTC |")
                "started at", "incident started", "incident started at",
                # front matter nested one level: mkdocs-material's `date: {created: ..}`
                "date created", "dates created", "metadata created", "date published")
REVIEWED_KEYS = ("last reviewed", "reviewed", "review date", "last review", "reviewed on", "last verified",
                 "verified", "last tested", "last checked", "review last reviewed")
UPDATED_KEYS = ("last updated", "last update", "last modified", "updated", "last-updated",
                "last modified at", "last update date",  # Jekyll's, Docusaurus's `last_update: {date: ..}`
                "updated at", "updated on", "lastmod", "modified", "last revised", "revised",
                "last edited", "last run",  # an exported notebook's last run: when its outputs were made
                "date updated", "dates updated", "date modified", "metadata updated",
                # Microsoft Learn's front matter (the article's last review), AsciiDoc's revision date
                "ms.date", "revdate")
# Fields whose day is not the document's own (when it was last updated or reviewed, when
# something is due): their line never gives the main date ("| Last reviewed | 3rd of March 2026 |").
_OTHER_DATE_KEYS = frozenset({*UPDATED_KEYS, *REVIEWED_KEYS, "review date", "next review", "next review date",
                              "due date", "due", "target date", "target release", "deadline", "expires",
                              "expiry date"})
_NOT_MAIN = frozenset({OTHER, UPDATED, REVIEWED})
# The label of each genre's main date observation.
DATE_LABELS = {PROPOSAL: "Created", POSTMORTEM: "Incident date", MINUTES: "Meeting date"}
DEFAULT_DATE_LABEL = "Date"
CLOSING_DATE_LABEL = "Closing date"  # when a proposal's vote, a poll or an issue was closed


def genre_status(
    fields: Sequence[HeaderField], structure: Structure | None, *, status_words_only: bool = False,
    title: str = "",
) -> ObservationFact | None:
    """The status the document states, as a `Status: ...` observation. With `status_words_only`
    (a page of no genre, whose "Status" section is as often a progress report), a Status
    section counts only when it states a status word. After the fields, the lifecycle of the
    Backstage catalog entry the page keeps for its own component (`title` names it)."""
    for found in sorted(fields, key=lambda f: _STATUS_KEYS.index(f.key) if f.key in _STATUS_KEYS else 99):
        if (_is_status_key(found.key) or states_state(found.key, found.value)) and plain_text(found.value):
            own = without_status_macros(found.value)
            own = _COLUMN_GAP_RE.split(own)[0]  # an RFC's header: its second column is not the status
            own = _unclosed_emphasis(own)
            value = _FIELD_GAP_RE.split(_NEXT_FIELD_RE.split(plain_text(own))[0])[0].strip("*_ ")
            value = _SEE_ALSO_RE.sub("", value)
            value = _EDGE_MARKS_RE.sub("", value) or value  # "✅ Accepted", "[Draft]"
            value = _WIKI_ICON_RE.sub("", value) or value  # "(/) DONE"
            if is_pointer(value) or (found.key == "ring" and value.lower() not in RINGS):
                continue  # a deployment's `ring: canary` is no radar's ring
            return status_observation(value, found.line, found.line)
    tagged = _tag_status(fields)
    if tagged is not None:
        return tagged
    marked = title_status(title)
    if marked is not None:  # "[ACCEPTED] Use Kafka"
        line = structure.number(structure.sections[1]) if structure and len(structure.sections) > 1 else 1
        return status_observation(marked, line, line)
    if structure is None:
        return None
    return (catalog_lifecycle(structure, title) or _byline_status(structure) or mark_status(structure)
            # a status page's updates name the state it is in as written ("**Resolved** - This
            # incident has been resolved."), before a sentence of the update that says it too
            or _status_section(structure, status_words_only) or _updates_status(structure)
            or sentence_status(structure) or history_status(structure.visible)
            or _revision_status(structure))


def _revision_status(structure: Structure) -> ObservationFact | None:
    """The status of the latest row of the page's revision history, its rows' own dates telling
    which order they are in."""
    lines = revision_lines(structure)
    return revision_status(lines, day_first_hint(line for _, line in lines)) if lines else None


# A tracker's tags or labels that carry the record's state: Phabricator's project tag with the
# workboard column it sits in ("Tags: Platform-RFC (Under discussion), Billing"), GitHub's and
# GitLab's scoped labels ("Labels: status: accepted", "status::accepted", "status/accepted").
_TAG_KEYS = frozenset({"tags", "labels", "label", "projects", "project tags"})
_TAG_STATE = "|".join((*STATUS_WORDS, "under discussion", "in discussion"))
_TAG_STATUS_RE = re.compile(
    rf"^[^()]{{1,60}}\((?P<column>(?:{_TAG_STATE}))\)$"
    rf"|^status\s*(?::{{1,2}}|/)\s*(?P<label>(?:{_TAG_STATE}))$", re.I)


def _tag_status(fields: Sequence[HeaderField]) -> ObservationFact | None:
    """The status the first tag or label that carries a state gives, as written."""
    for found in fields:
        if found.key in _TAG_KEYS:
            for item in plain_text(found.value).split(","):
                match = _TAG_STATUS_RE.match(item.strip())
                if match is not None:
                    return status_observation(match["column"] or match["label"], found.line, found.line)
    return None


def _updates_status(structure: Structure) -> ObservationFact | None:
    """A status page's incident: the state its updates leave it in (`**Resolved** - ...`)."""
    found = update_status(structure)
    if found is None:
        return None
    # the state in lower case, as a status sentence gives it ("This incident has been resolved"),
    # and as the update writes it
    line, state = found
    written = f' (written "{state}")' if state != state.lower() else ""
    return ObservationFact(f"Status: {state.lower()}{written}", line, line, "status")


_MARK_LINES = 12


def mark_status(structure: Structure) -> ObservationFact | None:
    """The status a badge or an emoji mark among the page's first lines shows (a shields.io
    `status-accepted` badge, "✅ **Accepted** · 2024-03-01"), or a notice's label that opens a
    paragraph there ("> **Deprecated:** use the new runbook", "Superseded by [v2](v2.md)."). A
    GitHub alert or a callout reaches this reader unboxed (tasks/markdown/boxes.py): "> [!WARNING]
    Obsolete" as the label "**Obsolete:**", the text under "> [!WARNING]" as a paragraph."""
    starts = {start for start, _ in structure.paragraphs}
    for number, line in structure.visible[:_MARK_LINES]:
        if number in structure.heading_lines:
            continue
        found = badge_status(line) or emoji_status(plain_text(line))
        if not found and number in starts and (label := _NOTICE_LABEL_RE.match(line)):
            found = label["state"] or label["replaced"]
        if found:
            return status_observation(found, number, number)
    return None


# A notice's label, alone or before its text: bold, with a colon or nothing after it ("archived in
# SampleTrack." continues a sentence: no label); "Superseded" before the "by" that names what
# replaced the page ("**Superseded** by [v2](v2.md)").
_NOTICE_LABEL_RE = re.compile(
    r"^\W{0,8}(?:\*\*|__)?(?:(?P<state>deprecated|obsolete|archived|superseded)"
    r"(?:\s*(?:\*\*|__)\s*:?|\s*[:!.—–]|\s*$)|(?P<replaced>superseded)(?:\*\*|__)?\s+by\s+\S)", re.I)


# A Backstage catalog entry kept in a YAML fence (`apiVersion: backstage.io/v1alpha1`), its
# component's name and its `spec.lifecycle` (production, experimental, deprecated).
_CATALOG_NAME_RE = re.compile(r"^\s{1,8}name:\s*['\"]?(?P<value>[\w.-]{1,80})['\"]?\s*$")
_CATALOG_LIFECYCLE_RE = re.compile(r"^\s{1,8}lifecycle:\s*['\"]?(?P<value>[\w-]{1,40})['\"]?\s*$")


def catalog_lifecycle(structure: Structure, title: str) -> ObservationFact | None:
    """The lifecycle of the one Backstage catalog entry a page keeps in a fence, when the entry
    is the page's own component: every word of its name is a word of the page's title
    (`journey-planner` on "Journey Planner Service"); a page of many entries states none."""
    content = structure.code_content
    if not content or not any("backstage.io" in line for line in content.values()):  # a literal gate first
        return None
    entries: list[list[tuple[int, str]]] = []
    previous = None
    for number in sorted(content):
        if previous is None or number != previous + 1 or content[number].startswith("apiVersion:"):
            entries.append([])  # a new fence, or the next document of a multi-document YAML
        entries[-1].append((number, content[number]))
        previous = number
    found = [entry for entry in entries
             if any(line.startswith("apiVersion: backstage.io") for _, line in entry)
             and any("lifecycle:" in line for _, line in entry)]
    if len(found) != 1:
        return None
    names = [m["value"] for _, line in found[0] if (m := _CATALOG_NAME_RE.match(line))]
    words = set(re.split(r"[\W_]+", title.lower()))
    if not names or not set(re.split(r"[\W_]+", names[0].lower())) <= words:
        return None
    for number, line in found[0]:
        match = _CATALOG_LIFECYCLE_RE.match(line)
        if match:
            return ObservationFact(f"Status: {match['value']}", number, number, "status")
    return None


def _unclosed_emphasis(value: str) -> str:
    """A bold field's value up to where its emphasis closes ("**Document status: Superseded.**
    Replaced by ..."): the prose after it is not the status."""
    for mark in ("**", "__"):
        if value.count(mark) % 2:
            return value.split(mark, 1)[0]
    return value


# Where a line of fields puts the next one: a middle dot or a bar, blanks and `&nbsp;` around it
# ("**Page status:** Current ✅ &nbsp;|&nbsp; **Last reviewed:** 2nd June 2025").
_FIELD_GAP_RE = re.compile(r"(?:\s|&nbsp;)++[·|•](?:\s|&nbsp;)|&nbsp;")
# A pointer after a status ("Ready with conditions (see the end of this page)").
_SEE_ALSO_RE = re.compile(r"\s*\((?:see|details|more)\b[^()]{0,80}\)\s*$", re.I)


def _is_status_key(key: str) -> bool:
    """`Status:`, or the status of the document itself by another name ("Entry status",
    "Approval status"), not of something it describes ("Build status", "Order status")."""
    if key in _STATUS_KEYS:
        return True
    words = key.split()
    return len(words) == 2 and words[1] == "status" and words[0] in _DOCUMENT_NOUNS


# What a page calls itself, in a status field's name or a sentence about its status.
_DOCUMENT_NOUNS = frozenset({
    "entry", "catalogue", "catalog", "publication", "approval", "decision", "adr", "spec", "plan",
    "runbook", "playbook", "policy", "article", "record", "report", "deck", "memo", "analysis",
    "evaluation", "assessment", "standard", "guideline", "charter", "principles", "explainer",
    "draft", "brief", "pitch", "change", "request", "problem", "retro", "retrospective", "minutes",
    # a project's own page (Confluence's project-plan blueprint: "Project status | IN PROGRESS")
    "project",
})


# The gap between an RFC header's two columns ("Status: Accepted          J. Harlow").
_COLUMN_GAP_RE = re.compile(r"(?<=\S)[ \t]{3,}(?=\S)")
# A status stated in a sentence about the document itself ("This write-up is final", "This
# proposal was accepted on 4 March 2025 by the architecture forum"), in emphasis too ("_This deck
# is final._": no \b before it, since "_" is a word character).
_STATUS_SENTENCE_RE = re.compile(
    r"(?<![A-Za-z])(?:(?:this|the)\s+(?:proposal|pitch|rfc|document|doc|write-?up|post-?mortem|report|page|design|spec"
    r"|specification|decision|review|plan|runbook|procedure|deck|slides|presentation|entry|memo|analysis"
    r"|evaluation|assessment|policy|standard|guideline|explainer|one-pager|retrospective|retro"
    r"|(?:post-?incident\s+|incident\s+)review)"
    # a status page's closing line ("This incident has been resolved.")
    r"|this\s+incident)"
    r"\s+(?:is|was|has\s+been|is\s+now|was\s+formally)"
    r"\s+(?:now\s+)?(?P<word>accepted|approved|final|rejected|declined|withdrawn|deferred|superseded|deprecated"
    r"|obsolete|abandoned|implemented|closed|completed?|adopted|ratified|published|retired|archived|resolved"
    r"|(?:a\s+)?draft)\b", re.I)
_STATUS_SENTENCE_LINES = 20


def sentence_status(structure: Structure) -> ObservationFact | None:
    """The status a sentence among the page's first lines states about the page itself, else
    the last step of the incident's life its summary lines give."""
    for number, line in structure.visible[:_STATUS_SENTENCE_LINES]:
        found = _STATUS_SENTENCE_RE.search(line) if number not in structure.heading_lines else None
        if found:
            word = re.sub(r"^a\s+", "", found["word"].lower())
            return ObservationFact(f"Status: {word}", number, number, "status")
    return _lifecycle_status(structure)


# A line an incident bot writes when the incident moves on ("- Incident closed at 09:45 on Tue 3
# Mar 2026 by @pieter.vos", "Incident resolved on 3 March"): a Slack or Teams channel's summary.
_LIFECYCLE_RE = re.compile(
    r"^\s*+(?:[-*+]\s++)?(?:\*\*|__)?incident\s++(?:was\s++)?(?P<word>closed|resolved|declined|cancell?ed|merged)"
    r"(?:\*\*|__)?\s++(?:at|on|by)\b", re.I)


def _lifecycle_status(structure: Structure) -> ObservationFact | None:
    """The last lifecycle line among the page's first lines (they are written in order)."""
    found = None
    for number, line in structure.visible[:_STATUS_SENTENCE_LINES]:
        match = _LIFECYCLE_RE.match(line) if "ncident" in line else None  # a literal gate first
        if match:
            found = ObservationFact(f"Status: {match['word'].lower()}", number, number, "status")
    return found


# A status stated inside the page's byline, a line that is only emphasis ("*Written by Hana Sato
# for the Realtime team. Review held 25/03/2025. Status: final.*"), as a learning review writes it.
_BYLINE_RE = re.compile(r"^\s*[*_]{1,2}(?=\S)(?P<text>[^*_]{3,300})(?<=\S)[*_]{1,2}\s*$")
_BYLINE_STATUS_RE = re.compile(
    r"(?:^|[.;·|]\s)\s?status\s*:\s*(?P<value>[A-Za-z][A-Za-z ,-]{0,40}?)\s*(?:[.;·|]|$)", re.I
)
# A line in emphasis that is only the status field ("*Status: in production since Season 2;
# sessionisation on Flink in trial.*"): all of it is the status, figures and clauses too.
_BYLINE_FIELD_RE = re.compile(r"status\s*:\s*(?P<value>[^.·|]{1,200}?)\.?$", re.I)
_BYLINE_LINES = 12


def _byline_status(structure: Structure) -> ObservationFact | None:
    """The status a byline among the page's first lines states, before its first section
    below the title."""
    headings = 0
    opening = structure.visible[:_BYLINE_LINES]
    for index, (number, line) in enumerate(opening):
        headings += number in structure.heading_lines
        if headings > 1:
            break
        following = next((text for _, text in opening[index + 1:] if text.strip()), "")
        state = issue_state(line, following)
        if state is not None:
            return ObservationFact(f"Status: {state}", number, number, "status")
        byline = _BYLINE_RE.match(line)
        found = (_BYLINE_FIELD_RE.match(byline["text"]) or _BYLINE_STATUS_RE.search(byline["text"])
                 if byline else None)
        if found:
            return status_observation(found["value"].strip(), number, number)
        item = _byline_item_status(byline["text"]) if byline else None
        if item:
            return status_observation(item, number, number)
        field = _item_field_status(line) if byline is None and "·" in line else None
        if field:  # "`Application` · Fact sheet completion **84%** · Quality seal: **Approved**"
            return status_observation(field, number, number)
    return None


_ITEM_FIELD_RE = re.compile(r"^(?P<key>[A-Za-z][A-Za-z ]{1,30}?)\s*:\s*(?P<value>\S.*)$")


def _item_field_status(line: str) -> str | None:
    """The value of a status field that is one item of a line of items set apart by middle dots
    (a catalogue's or a forum's header line), the items plain."""
    items = _BYLINE_ITEM_SPLIT_RE.split(plain_text(line))
    for item in items if len(items) > 1 else ():
        field = _ITEM_FIELD_RE.match(item.strip())
        key = " ".join(field["key"].lower().split()) if field else ""
        if field and _is_status_key(key) and not is_pointer(field["value"]):
            return field["value"].strip()
    return None


# A byline's items, set apart by middle dots or bars ("*Tracking ID: KVR-PIR-2412-3 · Final ·
# Published Dec 19th 2024*", "*... · Version 2.1 · Approved by the Architecture Board, 11 March
# 2025*"); an item that is a status word alone, or one reached by someone, is the page's status.
_BYLINE_ITEM_SPLIT_RE = re.compile(r"\s[·•|]\s")
_BYLINE_ITEM_STATUS_RE = re.compile(
    r"^(?P<value>(?:final|draft|approved|accepted|rejected|superseded|deprecated|withdrawn|proposed"
    r"|in review|under review|decided|agreed|ratified|endorsed|adopted|resolved|closed)"
    r"(?:\s+by\s+[^·•|]{2,80})?)\.?$", re.I)


# A byline's items set apart by a dash too ("*Draft — last updated 5 January 2026*").
_BYLINE_ITEM_DASH_RE = re.compile(r"\s[·•|—–]\s")


def _byline_item_status(text: str) -> str | None:
    """The status item of a byline of several items (a bold "**Resolved**" alone is a status
    page's update label, not a byline)."""
    items = _BYLINE_ITEM_DASH_RE.split(text)
    for item in items if len(items) > 1 else ():
        match = _BYLINE_ITEM_STATUS_RE.match(item.strip())
        if match:
            return match["value"]
    return None


def _status_section(structure: Structure, status_words_only: bool = False) -> ObservationFact | None:
    """A Status section's status word (the last it reaches: "proposed and accepted" is
    accepted), else a Superseded / Deprecated / Withdrawn / Rejected section's title."""
    headed = heading_status(structure)
    if headed is not None:
        return headed
    section = find_section(structure, "status", "current status", "state")
    paragraph = first_paragraph(structure.lines(section)) if section is not None else None
    if section is None:  # a notice titled "Status" (":::info Status" / "**In review.** ..." / ":::")
        paragraph = first_paragraph(_status_admonition(structure))
    if paragraph:
        text, start, end = paragraph
        text = STATE_LABEL_RE.sub("", text, count=1)  # "**Current state:** Under Discussion" (KIP)
        words = _STATUS_WORD_RE.findall(text)
        value = words[-1].lower() if words else shorten(text, 200)
        bare = _EDGE_MARKS_RE.sub("", text)
        if status_words_only and not (words and len(bare.split()) <= 6):
            return None  # a progress report, not a status
        opening = _EDGE_MARKS_RE.sub("", _SENTENCE_END_RE.split(bare, maxsplit=1)[0])
        if words and len(opening.split()) <= 3 and _STATUS_WORD_RE.fullmatch(opening):
            # the section states the status alone ("Accepted"), or in a sentence of its own before
            # the story ("Resolved. Migration rolled back at 07:38"): as written
            value = opening
        return ObservationFact(f"Status: {value}", start, end, "status")
    retired = find_section(structure, "superseded", "deprecated", "withdrawn", "rejected")
    if retired is not None:
        line = structure.number(retired)
        first = next((n for n, text in structure.lines(retired) if text.strip()), line)
        title = structure.title(retired).strip().lower()
        return ObservationFact(f"Status: {title}", line, first, "status")
    return None


_SENTENCE_END_RE = re.compile(r"(?<=[.!])[*_]{0,2}\s+")
# A notice (admonition) titled as a Status section: Docusaurus's and HackMD's ":::info Status",
# MyST's ":::{note} Current status", MkDocs's '!!! note "Status"' (tasks.markdown.boxes).
_STATUS_TITLES = frozenset({"status", "current status", "state", "current state"})
_ADMONITION_LINES = 40


def _status_admonition(structure: Structure) -> list[tuple[int, str]]:
    """The lines of the first notice titled "Status" among the page's first lines."""
    base = structure.first_line
    top = structure.visible[min(_ADMONITION_LINES, len(structure.visible)) - 1][0] if structure.visible else 0
    for box in structure.boxes:
        if base + box.first > top:
            break
        if section_key(box.title) in _STATUS_TITLES:
            lines = structure.by_number
            return [(base + offset, lines[base + offset]) for offset in range(box.first, box.end)
                    if base + offset in lines]
    return []


# A status field written as a heading ("## Status: Closed", "### Status — Accepted").
_HEADING_STATUS_RE = re.compile(
    r"^(?:status|current\s+status|state)\s*+(?::|[-–—]\s)\s*+(?P<value>\S.{0,80})$", re.I)


def heading_status(structure: Structure) -> ObservationFact | None:
    """The status a heading states as a field ("## Status: Closed")."""
    for section in structure.sections[1:]:
        title = structure.title(section).strip(" *_")
        found = _HEADING_STATUS_RE.match(title) if title[:3].lower() in ("sta", "cur") else None
        if found:
            line = structure.number(section)
            return status_observation(plain_text(found["value"]).strip("*_ "), line, line)
    return None


def iso_date(text: str, day_first: bool | None = None) -> str | None:
    """The first date `text` states, ISO (`YYYY-MM` for a month alone); None when none.
    Beside the decision-record forms: a timestamp (`2024-03-14T10:00:00Z`) and PEP's
    `01-Jun-2001`. A numeric `05/03/2024` is read as `day_first` says (the document's other
    dates settle it; `05.03.2024` with dots is day-first: record_dates), else kept as written."""
    text = _TIMESTAMP_RE.sub(r"\1 ", text)
    text = _MONTH_FIRST_SPAN_RE.sub(lambda m: f"{m['month']} {m['day']}, {m['year']}", text)
    text = _DAY_FIRST_SPAN_RE.sub(lambda m: f"{m['day']} {m['month']}", text)
    text = _DAY_MON_YEAR_RE.sub(_day_month_year, text)
    found = find_date(text, day_first)
    if found and re.fullmatch(r"\d{4}-\d{2}-\d{2}", found):
        return found
    month = _MONTH_YEAR_RE.search(text)
    if month:
        return f"{month['year']}-{month_number(month['month']):02d}"
    numeric = _YEAR_MONTH_RE.search(text) if found is None else None
    if numeric:
        return numeric.group(0)
    return found if found else None


def _day_month_year(match: re.Match[str]) -> str:
    """`01-Jun-2001` / `01/Mar/24` as `1 Jun 2001` / `1 Mar 2024` (a two-digit year before 70 is
    of the 2000s)."""
    if match["year"]:
        return f"{match['day']} {match['month']} {match['year']}"
    year = int(match["year2"] or match["year3"])
    return f"{match['day']} {match['month2'] or match['month3']} {year + (1900 if year >= 70 else 2000)}"


# A full stop or emphasis mark after a date ends the sentence, not the date ("2025-10-27.").
_TRAILING_STOP_RE = re.compile(r"(?<=\d)[.*_]{1,3}$")


def _date_fact(label: str, written: str, line: int, day_first: bool | None = None) -> ObservationFact | None:
    written = _TRAILING_STOP_RE.sub("", plain_text(written).strip("'\" "))
    found = iso_date(written, day_first)
    if found is None:
        return None
    text = f"{label}: {found}"
    if written != found:
        text += f' (written "{shorten(written, 80)}")'
    return ObservationFact(text, line, line, "date")


_PROJECT_CREATED_KEYS = tuple(key for key in CREATED_KEYS if key not in {"start date", "started"})
# The lines of a page's opening that may date it by month alone (its byline, its first paragraph).
_OPENING_LINES = 8


def genre_dates(  # noqa: PLR0913  each place a document states its dates, read by the caller once
    genre: str | None,
    fields: Sequence[HeaderField],
    title: tuple[str, int],
    prose: list[tuple[int, str]],
    stem: str,
    timeline: AbstractSet[int] = frozenset(),
    revisions: Sequence[tuple[int, str]] = (),
    opening: Sequence[tuple[int, str]] = (),
) -> list[ObservationFact]:
    """The document's main date and its last-updated date, as observations; `timeline` holds
    the line numbers of its timeline sections (genre_prose.timeline_lines), `revisions` the
    lines of its revision history (revision_lines), `opening` its header lines (a wiki's byline:
    "Created by Ana Ruiz, last modified on Mar 03, 2026")."""
    label = DATE_LABELS.get(genre or "", DEFAULT_DATE_LABEL)
    facts: list[ObservationFact] = []
    order = day_first_hint([*(f.value for f in fields), *(line for _, line in prose[:200])])
    if order is None:
        order = stem_order(stem, [title[0], *(f.value for f in fields)])
    started = _project_start(fields, order)
    main, bylines = _own_day(label, fields, started is not None, opening, order)
    main = main or _date_fact(label, title[0], title[1], order)
    first_revision, last_revision = _revision_dates(label, revisions, order)
    main = main or first_revision or _status_day(label, fields, order)
    anchor = None
    if main is None or genre == POSTMORTEM:  # the year a day written without one is of
        anchor = _story_anchor(stem, fields, title[0], prose)
    if main is None:
        main = _yearless_main(label, fields, title, anchor)
    if genre == POSTMORTEM and (main is None or _MONTH_ONLY_RE.search(main.text) or _is_email(fields)):
        # an e-mail's `Date:` is when it was sent; the incident's day is the one its story opens with
        # a title's month ("sign-in outage, May 2025") gives way to the day the story opens with
        main = _on_date(label, prose[:40]) or main or _yearless_on_date(label, prose[:40], anchor)
    main = main or _vocabulary_date(label, fields, MAIN, order)
    changed = bylines.get("Last updated")  # a wiki's "last modified on ..."
    other_dates = _other_date_lines(fields) | {fact.line_start for fact in (changed, started) if fact}
    # a page whose fields date it (last updated, reviewed) but not its writing: a date of its
    # prose is what it tells of ("On 19 May 2025 the job restored ..."), not its own; an
    # incident's or a meeting's day is still told in its opening lines
    if main is None:  # an RFC's first-page header: its date right-aligned ("          12 March 2026")
        main = _right_column_date(label, opening, order)
    if main is None and genre == POSTMORTEM:  # a status page's incident: its first update's day
        main = _first_update_day(label, prose, order)
    if main is None and (not other_dates or genre in {POSTMORTEM, MINUTES}):
        main = _opening_date(label, genre, prose, other_dates, order)
    if main is None and genre == POSTMORTEM:  # a status page's incident: its first update's stamp
        posted = first_posted(prose)
        main = _date_fact(label, posted[1], posted[0], order) if posted else None
    if main is None and genre == POSTMORTEM:
        main = _timeline_date(label, [(n, line) for n, line in prose if n in timeline], order)
    if main is None and genre in {MINUTES, POSTMORTEM}:
        main = _stem_date(label, stem)
    if main is not None:
        facts.append(main)
    footer = footer_dates(prose, order)
    updated = (_field_date("Last updated", fields, UPDATED_KEYS, order) or last_revision
               or changed or footer.get("Last updated") or revision_mark_date(opening, order))
    reviewed = _field_date("Review date", fields, REVIEWED_KEYS, order) or footer.get("Review date")
    facts += [fact for fact in (updated, reviewed, started) if fact]
    return facts


# A date alone, as a header's column holds it ("12 March 2026", "March 2026", "2026-03-12").
_LONE_DATE_RE = re.compile(
    r"(?:\d{1,2}\s+)?[A-Z][a-z]{2,8}\.?\s+(?:\d{1,2},\s+)?(?:19|20)\d{2}|(?:19|20)\d{2}-\d{2}-\d{2}")
# How far right a line's text starts when it is laid out as a right column (an RFC's header).
_RIGHT_ALIGNED = 20


def _right_column_date(
    label: str, opening: Sequence[tuple[int, str]], order: bool | None,
) -> ObservationFact | None:
    """The date of a header laid out in two columns, as an IETF-style RFC's first page is (RFC
    7322: the left column names the series and category, the right the authors and, last, the
    date): a date alone in the right column, after a wide gap or right-aligned."""
    for number, line in opening[:_BYLINE_DATE_LINES * 2]:
        columns = _COLUMN_GAP_RE.split(line.strip())
        right = columns[-1].strip()
        aligned = len(columns) > 1 or len(line) - len(line.lstrip()) >= _RIGHT_ALIGNED
        if aligned and _LONE_DATE_RE.fullmatch(right):
            return _date_fact(label, right, number, order)
    return None


def _other_date_lines(fields: Sequence[HeaderField]) -> set[int]:
    """The lines of the fields that date something else than the page's own day: its last update
    or review, a deadline, an end (by their exact names, or by the date vocabulary's words when
    they hold a date)."""
    return {f.line for f in fields if f.key in _OTHER_DATE_KEYS
            or (f.key not in CREATED_KEYS and date_role(f.key) in _NOT_MAIN
                and any(ch.isdigit() for ch in f.value) and iso_date(f.value) is not None)}


def _opening_date(
    label: str, genre: str | None, prose: list[tuple[int, str]], other_dates: AbstractSet[int],
    order: bool | None,
) -> ObservationFact | None:
    """The first date of the page's opening lines that is its own: not another field's day,
    a log's row or entry, a link to another page, nor when an incident's write-up was made."""
    # a log whose entries open with their day ("- **2026-02-17 — decided:** ..."): the days from
    # its first entry on are its entries' (an incident's timeline items are its own story)
    entries = [] if genre == POSTMORTEM else [n for n, line in prose[:200] if is_dated_item(line)]
    first_entry = entries[0] if len(entries) >= 2 else None
    return next((fact for number, line in prose[:25] if (first_entry is None or number < first_entry)
                 and number not in other_dates and not _wide_row(line) and not is_log_item(line)
                 and not _RELATED_FIELD_RE.match(line)
                 and not (genre == POSTMORTEM and _WRITE_UP_MADE_RE.search(line))  # when it was written
                 and (fact := _date_fact(label, line, number, order)) is not None), None)


def _first_update_day(label: str, prose: list[tuple[int, str]], order: bool | None) -> ObservationFact | None:
    """A status page's incident: its updates run newest first, so the day it began is its last
    stamp's ("Posted Mar 03, 2025 - 23:41 UTC" under a Resolved one of Mar 04), not its first."""
    posted = first_posted(prose, least=MIN_UPDATES)
    return _date_fact(label, posted[1], posted[0], order) if posted else None


def _own_day(
    label: str, fields: Sequence[HeaderField], project: bool, opening: Sequence[tuple[int, str]],
    order: bool | None,
) -> tuple[ObservationFact | None, dict[str, ObservationFact]]:
    """The day the page's own date fields give (a project's page: not its Start date; a tracker's
    filing byline before its Start date), and the dates of the page's bylines, by label."""
    bylines = _byline_dates(opening, order)
    main = _field_date(label, fields, _PROJECT_CREATED_KEYS if project else CREATED_KEYS, order)
    return _filed_before_start(label, main, fields, bylines, order), bylines


def _filed_before_start(
    label: str, main: ObservationFact | None, fields: Sequence[HeaderField],
    bylines: dict[str, ObservationFact], order: bool | None,
) -> ObservationFact | None:
    """An issue tracker's "Start date" is when work began, not when the issue was filed: the
    filing day its byline gives comes first (Redmine's "Added by Jonas Meier on 12.02.2024 09:14."
    over "| Status: | Closed | Start date: | 19.02.2024 |"); `main` otherwise."""
    filed = bylines.get(DEFAULT_DATE_LABEL)
    if main is None or filed is None or main != _field_date(label, fields, ("start date",), order):
        return main
    return replace(filed, text=filed.text.replace(f"{DEFAULT_DATE_LABEL}: ", f"{label}: ", 1))


def _project_start(fields: Sequence[HeaderField], order: bool | None) -> ObservationFact | None:
    """A project's page (Confluence's project plan: "Project status", "Start date"): the day
    the project started, not the day the page was written."""
    if not any(f.key == "project status" for f in fields):
        return None
    return _field_date("Start date", fields, ("start date",), order)


def _story_anchor(
    stem: str, fields: Sequence[HeaderField], title: str, prose: list[tuple[int, str]]
) -> date | None:
    """What dates a day written without its year: a whole date of the page, else the year its
    title names, else the one month and year its opening names ("April 2026")."""
    return (anchor_date([stem, *(f.value for f in fields), *(line for _, line in prose[:40])])
            or title_year(title) or _written_day(prose[:_OPENING_LINES])
            or month_year(line for _, line in prose[:_OPENING_LINES]))


def _written_day(opening: Sequence[tuple[int, str]]) -> date | None:
    """The whole day a byline among the opening lines writes ("By Tim Okafor · July 4, 2025")."""
    for _, line in opening:
        byline = _BY_AUTHOR_RE.match(line) or _BYLINE_DATE_WORD_RE.search(line)
        found = iso_date(line) if byline and any(ch.isdigit() for ch in line) else None
        if found and _FULL_DATE_RE.fullmatch(found):
            return date.fromisoformat(found)
    return None


_REVISION_SECTIONS = ("revision history", "document history", "version history", "change history",
                      "revisions", "document revisions", "history of changes")


def revision_lines(structure: Structure) -> list[tuple[int, str]]:
    """The lines of a document's revision history section (`| Version | Date | Author | Change |`),
    else of a version table among its header lines (a document-control table under the title,
    as arc42 pages and exported specifications open)."""
    section = find_section(structure, *_REVISION_SECTIONS)
    if section is not None:
        return structure.lines(section)
    table: list[tuple[int, str]] = []
    for number, line in header_lines(structure):
        if line.lstrip().startswith("|"):
            table.append((number, line))
        elif table:
            break  # the first table ended
    if not table:
        return []
    heads = {plain_text(cell).strip("*_ ").lower() for cell in table_cells(table[0][1])}
    # (a controlled document numbers its versions as issues: "| Issue | Date | Author | Change |")
    return table if heads & {"version", "revision", "rev", "v", "issue"} and "date" in heads else []


def _revision_dates(
    label: str, lines: Sequence[tuple[int, str]], order: bool | None
) -> tuple[ObservationFact | None, ObservationFact | None]:
    """The first and the last day of a revision history table's Date column (in either row
    order): the day the document was written and the day it was last changed."""
    rows = [(number, table_cells(line)) for number, line in lines if line.lstrip().startswith("|")]
    if len(rows) < 3:  # a head, its rule, and a row
        return None, None
    heads = [plain_text(cell).strip("*_ ").lower() for cell in rows[0][1]]
    if "date" not in heads:
        return None, None
    column = heads.index("date")
    dated = sorted((fact.text.split(": ", 1)[1][:10], fact) for number, cells in rows[2:]
                   if column < len(cells) and (fact := _date_fact(label, cells[column], number, order))
                   and _FULL_DATE_RE.search(fact.text))
    if not dated:
        return None, None
    first, last = dated[0][1], dated[-1][1]
    updated = replace(last, text=last.text.replace(f"{label}: ", "Last updated: ", 1))
    return first, updated if len(dated) > 1 else None


def _is_email(fields: Sequence[HeaderField]) -> bool:
    """A document sent as an e-mail: its header names a sender and a recipient or subject."""
    keys = {f.key for f in fields}
    return "from" in keys and bool(keys & {"to", "subject", "cc"})


_MONTH_ONLY_RE = re.compile(r"^[^:]*: \d{4}-\d{2}(?![\d-])")


def _wide_row(line: str) -> bool:
    """A row of a table of three or more columns (a decision log's entry, `| 2024-06-03 | ... |
    Sam | agreed |`): its date is the entry's, not the page's (a two-column header table's is)."""
    return line.lstrip().startswith("|") and line.count("|") >= 4


# A header line that points to another document ("Related: [learning review of 18/03/2025](..)"):
# the date it holds is the other document's.
_RELATED_FIELD_RE = re.compile(
    r"^\W{0,4}(?:related|see\s+also|see-also|links?|references?|supersedes|superseded[\s-]by|replaces"
    r"|depends[\s-]on|previous|next|follow-up\s+to"
    # the meeting before or after this one ("Previous minutes: 2026-03-03", "Next meeting: ...")
    r"|(?:previous|next|last)\s+(?:minutes|meeting|notes|session|review|retro))\W{0,4}:", re.I
)


def _yearless_fact(label: str, text: str, line: int, anchor: date | None,
                   at_start: bool = False) -> ObservationFact | None:
    found = yearless_date(text, anchor, at_start=at_start)
    return ObservationFact(f'{label}: {found[0]} (written "{shorten(found[1], 80)}")', line, line,
                           "date") if found else None


def _yearless_main(
    label: str, fields: Sequence[HeaderField], title: tuple[str, int], anchor: date | None
) -> ObservationFact | None:
    """A day written without its year in a date field ("Date: 9 February" under "# Incident
    review 2026"), else in the title ("Architecture forum — Tue 17 Mar")."""
    stated = next((fact for f in fields if f.key in CREATED_KEYS
                   and (fact := _yearless_fact(label, f.value, f.line, anchor, at_start=True))), None)
    return stated or _yearless_fact(label, title[0], title[1], anchor)


_ON_RE = re.compile(r"(?:^|[\s(])[Oo]n\s++(?=\S)")


def _yearless_on_date(
    label: str, prose: list[tuple[int, str]], anchor: date | None
) -> ObservationFact | None:
    """The day an incident write-up opens its story with, its year left to the rest of the page
    ("On the 3rd of March the checkout ...")."""
    if anchor is None:
        return None
    for number, line in prose:
        for match in _ON_RE.finditer(line) if "n " in line else ():  # a literal gate first
            if _BYLINE_WORD_RE.search(line[: match.start()]):
                continue
            fact = _yearless_fact(label, line[match.end():match.end() + 40], number, anchor, at_start=True)
            if fact is not None:
                return fact
    return None


def _timeline_date(label: str, rows: list[tuple[int, str]], order: bool | None) -> ObservationFact | None:
    """An incident's day as its timeline's first dated row states it (`2024-03-05 14:05 deploy`),
    when nothing before it does."""
    return next((fact for number, line in rows if (fact := _date_fact(label, line, number, order))), None)


def _on_date(label: str, prose: list[tuple[int, str]]) -> ObservationFact | None:
    """The day an incident write-up opens its story with ("On Thursday 9 January 2025 at 10:15
    CET, ...", "... started failing on 3 June 2023"), before a byline's publishing date."""
    for number, line in prose:
        openings = sorted([*_ON_DATE_RE.finditer(line), *_SPAN_OPENING_RE.finditer(line)],
                          key=lambda m: m.start())
        for match in openings:
            if _BYLINE_WORD_RE.search(line[: match.start()]):
                continue  # "Posted on 12 March 2024": when it was written, not what happened
            when = match["when"] or match.groupdict().get("day_first") or ""
            fact = _date_fact(label, when.rstrip(" ,"), number)
            if fact is not None:
                return fact
    return None


def field_dates(  # noqa: PLR0913  each place a page states its dates, read by the caller once
    fields: Sequence[HeaderField],
    title: tuple[str, int] | None = None,
    opening: Sequence[tuple[int, str]] = (),
    stem: str = "",
    closing: Sequence[tuple[int, str]] = (),
    revisions: Sequence[tuple[int, str]] = (),
) -> list[ObservationFact]:
    """The dates a document of no genre states in its own fields, else in its title ("Review,
    2020-02-03", "thread of Tuesday 14 October 2025"), else in a byline among its `opening`
    lines ("Exported from the team's retro board, 11 March 2026"), else in the first row of its
    revision history (`revisions`, revision_lines), else in its file name
    (`2025-10-09-idp-key-rollover.md`); its last update or review also in the last row of its
    revision history or a footer among its `closing` lines; never from the rest of its prose."""
    order = day_first_hint([*(f.value for f in fields), *(line for _, line in opening)])
    if order is None and title is not None:
        order = stem_order(stem, [title[0], *(f.value for f in fields)])
    main = _field_date(DEFAULT_DATE_LABEL, fields, CREATED_KEYS, order)
    if main is None and title is not None:
        fact = _date_fact(DEFAULT_DATE_LABEL, title[0], title[1])
        main = fact if fact is not None and _FULL_DATE_RE.search(fact.text) else None  # a day, not a month
    bylines = _byline_dates(opening, order)
    main = _filed_before_start(DEFAULT_DATE_LABEL, main, fields, bylines, order)
    first_revision, last_revision = _revision_dates(DEFAULT_DATE_LABEL, revisions, order)
    main = (main or bylines.get(DEFAULT_DATE_LABEL) or _status_day(DEFAULT_DATE_LABEL, fields, order)
            or _vocabulary_date(DEFAULT_DATE_LABEL, fields, MAIN, order) or first_revision
            or _stem_date(DEFAULT_DATE_LABEL, stem))
    footer = footer_dates(closing, order)
    found = [main, _field_date("Last updated", fields, UPDATED_KEYS, order) or bylines.get("Last updated")
             or last_revision or footer.get("Last updated") or revision_mark_date(opening, order),
             _field_date("Review date", fields, REVIEWED_KEYS, order) or bylines.get("Review date")
             or footer.get("Review date"), bylines.get(CLOSING_DATE_LABEL)]
    return [fact for fact in found if fact is not None]


# A line that tells when an incident's write-up was made ("Export of the slide deck presented at
# the retro, 20 November 2025"), not when the incident was (a status page's "Posted Jun 02" is).
_WRITE_UP_MADE_RE = re.compile(
    r"\b(?:exported|presented|prepared|written|published|compiled|issued|updated|edited|revised|reviewed)\b",
    re.I)
# A byline's verb and the label of the date it gives (an issue tracker's "tlind opened this issue
# on Mar 3, 2026" is the day it was filed; a pull request's "priya-s merged 6 commits into main
# from holds on Mar 12, 2026" the day it was merged).
_BYLINE_DATE_WORD_RE = re.compile(
    r"\b(?:(?P<main>posted|published|written|exported|prepared|presented|created|compiled|issued"
    # a meeting's or a review's day, as its notes open ("The review was held on 9 March 2026")
    r"|held|took\s+place"
    r"|opened\s+this\s+(?:issue|pull\s+request)|merged\s+\d{1,5}\s+commits?\s+into|started"
    # Redmine's "Added by Jonas Meier on 12.02.2024 09:14. Updated on ...": the day it was filed
    r"|added\s+by)"
    r"|(?P<updated>updated|edited|modified|revised)|(?P<reviewed>reviewed|checked|verified)"
    # a proposal's or a poll's close, as Loomio's and trackers' bylines give it ("Closed Thu 5 Nov 2026")
    r"|(?P<closed>closed))\b", re.I)
# A byline that opens with its author ("By Tim Okafor · July 4, 2025 · 5 min read", "_by Ana Ruiz, 3 March").
_BY_AUTHOR_RE = re.compile(r"^\W{0,3}[Bb]y\s++[A-Z@]")
# The end of a byline's clause: a full stop before the next sentence or field.
_CLAUSE_END_RE = re.compile(r"(?<=[a-z0-9)])\.(?:\s|$)|[;·|]")
_BYLINE_DATE_LINES = 8


def _byline_dates(opening: Sequence[tuple[int, str]], order: bool | None) -> dict[str, ObservationFact]:
    """The dates a byline among the first lines gives, by label: the clause after "Published",
    "Exported from ...", "Reviewed on", "opened this issue on", up to its full stop or the next
    verb, holds a whole date."""
    found: dict[str, ObservationFact] = {}
    # a header table's rows are not counted (a byline under a page-properties table)
    written = [(number, line) for number, line in opening if not line.lstrip().startswith("|")]
    for number, line in written[:_BYLINE_DATE_LINES]:
        if _BY_AUTHOR_RE.match(line) and not _BYLINE_DATE_WORD_RE.search(line):
            # a blog's byline: its author, then the day it was posted ("By Tim Okafor · July 4, 2025")
            fact = _date_fact(DEFAULT_DATE_LABEL, line, number, order)
            if fact is not None and _FULL_OR_NUMERIC_RE.match(fact.text.split(": ", 1)[1]):
                found.setdefault(DEFAULT_DATE_LABEL, fact)
            continue
        words = [*_BYLINE_DATE_WORD_RE.finditer(line)]
        for index, word in enumerate(words):
            label = ("Last updated" if word["updated"] else "Review date" if word["reviewed"]
                     else CLOSING_DATE_LABEL if word["closed"] else DEFAULT_DATE_LABEL)
            # a clause ends where the next verb's begins: Confluence's "Created by Ana Ruiz, last
            # modified on Mar 03, 2026" dates the last change, not the page's creation
            end = words[index + 1].start() if index + 1 < len(words) else len(line)
            clause, *rest = _CLAUSE_END_RE.split(line[word.start():end], maxsplit=1)
            fact = _date_fact(label, clause, number, order)
            if fact is None and rest and _BY_WHOM_RE.search(clause):
                # its author, then the day past a dot ("Last edited by Ana Ruiz · 03/11/2026")
                fact = _date_fact(label, _CLAUSE_END_RE.split(rest[0], maxsplit=1)[0], number, order)
            whole_day = fact is not None and _FULL_OR_NUMERIC_RE.match(fact.text.split(": ", 1)[1])
            if fact is not None and whole_day and label not in found:
                found[label] = fact
    return found


_FULL_OR_NUMERIC_RE = re.compile(r"\d{4}-\d{2}-\d{2}|\d{1,2}[/.-]\d{1,2}[/.-]\d{2,4}")
# A revision's mark and the day it was issued, as a card's, a checklist's or a controlled
# document's header line gives them ("Rev 3 — 23/03/2026", "Rev 4 · 22 OCT 26", "Version 1.2,
# 3 March 2026", "Issue 3.1 - 5 October 2026"): the day of the revision in force.
_REVISION_MARK_RE = re.compile(
    r"(?<![\w.])(?:rev(?:ision)?\.?|version|issue|ver\.)[ \t]*+\d{1,3}(?:\.\d{1,3})?[a-z]?"
    r"[ \t]*+[—–·,:|-][ \t]*+"
    r"(?P<day>[^;·|()]{6,30})", re.I)


def revision_mark_date(opening: Sequence[tuple[int, str]], order: bool | None) -> ObservationFact | None:
    """The `Last updated:` day a revision mark among the page's header lines gives, when the
    words after its mark are a whole date and nothing else."""
    for number, line in opening[:_BYLINE_DATE_LINES]:
        match = _REVISION_MARK_RE.search(line) if any(ch.isdigit() for ch in line) else None
        if match is None or not _only_day(match["day"]):
            continue
        fact = _date_fact("Last updated", match["day"], number, order)
        if fact is not None and _FULL_DATE_RE.search(fact.text.split(" (", 1)[0]):
            return fact
    return None


def _only_day(text: str) -> bool:
    """Every word of `text` is a date's (a day, a month's name or number, a year)."""
    words = text.replace(",", " ").split()
    return bool(words) and all(_DAY_WORD_RE.match(word) for word in words)


_DAY_WORD_RE = re.compile(
    rf"^(?:\d{{1,4}}(?:st|nd|rd|th)?\.?|{MONTH_NAME}\.?|\d{{1,4}}[/.-]\d{{1,2}}[/.-]\d{{1,4}})$", re.I)
_BY_WHOM_RE = re.compile(r"\bby\s+\S", re.I)
# A page's footer that dates its last edit or review, as wikis and docs sites print it (GitLab's
# "Last edited on 2026-03-27 by Wen Li.", GOV.UK's "Page last reviewed: 17 March 2025",
# MediaWiki's "This page was last edited on 4 March 2025", mkdocs-material's "Last update:
# March 3, 2025"): "last" and the verb, outside a table or a list (an action item "verified
# 2025-07-01" is no date of the page).
_FOOTER_RE = re.compile(  # an emphasised footer too ("_Last reviewed 19/10/26._": "_" is a word character)
    r"(?<![^\W_])last\s+(?:(?P<reviewed>reviewed|verified|checked)|edited|updated?|modified|revised)\b", re.I)
_FOOTER_LINES = 4


def footer_dates(lines: Sequence[tuple[int, str]], order: bool | None) -> dict[str, ObservationFact]:
    """The last-updated and review dates the closing lines of a page give, by label: the clause
    from "last" to its full stop holds a whole date, or an age the export stamp on its line
    dates (form_fields_age)."""
    closing = [(number, line) for number, line in lines[-3 * _FOOTER_LINES:] if line.strip()]
    found: dict[str, ObservationFact] = {}
    for number, line in closing[-_FOOTER_LINES:]:
        match = _FOOTER_RE.search(line) if "ast " in line and line.lstrip()[:1] not in "|-*+" else None
        if match is None:
            continue
        label = "Review date" if match["reviewed"] else "Last updated"
        clause = _CLAUSE_END_RE.split(line[match.start():], maxsplit=1)[0]
        fact = _date_fact(label, clause, number, order)
        aged = aged_day(clause, line, order) if fact is None else None
        if aged is not None:  # "Last updated 4 days ago · Exported ... on 24 Nov 2026"
            written = shorten(aged[1], 120)
            fact = ObservationFact(f'{label}: {aged[0]} (written "{written}")', number, number, "date")
        if fact is not None and _FULL_OR_NUMERIC_RE.match(fact.text.split(": ", 1)[1]):
            found.setdefault(label, fact)
    return found


def _field_date(
    label: str, fields: Sequence[HeaderField], keys: Sequence[str], day_first: bool | None = None
) -> ObservationFact | None:
    """The first whole date of the fields `keys` name (in their order), else of a field the date
    vocabulary gives the same role (date_fields: "Authored", "Date opened", "Incident window")."""
    for key in keys:
        joined = key.replace(" ", "")  # a front matter key in camelCase ("lastReviewed")
        for found in fields:
            if found.key in (key, joined):
                fact = _date_fact(label, found.value, found.line, day_first)
                if fact is not None:
                    return fact
    role = UPDATED if keys is UPDATED_KEYS else REVIEWED if keys is REVIEWED_KEYS else None
    return _vocabulary_date(label, fields, role, day_first) if role is not None else None


def _vocabulary_date(
    label: str, fields: Sequence[HeaderField], role: str, day_first: bool | None = None
) -> ObservationFact | None:
    """The first whole date of a field no exact name knows that the date vocabulary gives `role`
    (date_fields: "Authored", "Date opened", "Incident window"). A page's main date is asked for
    so only after its exact fields, title and story have given none."""
    for found in fields:
        found_role = date_role(found.key)
        if found_role == WRITTEN and label != DATE_LABELS[POSTMORTEM]:
            found_role = MAIN  # a page's or a proposal's own day; an incident's is the day it happened
        if found.key not in _KNOWN_DATE_KEYS and found_role == role:
            fact = _date_fact(label, found.value, found.line, day_first)
            if fact is not None and _FULL_DATE_RE.search(fact.text.split(" (", 1)[0]):
                return fact
    return None


# Every date field name known by its exact spelling (their order of preference above).
_KNOWN_DATE_KEYS = frozenset({*CREATED_KEYS, *UPDATED_KEYS, *REVIEWED_KEYS, *_OTHER_DATE_KEYS})


# A status field that says when the record was decided ("Status: Approved by the Digital
# Architecture Board, 17 August 2026", "Status: Accepted (2025-03-12)", "Accepted on 3 March 2025").
_DECIDED_STATUS_RE = re.compile(r"^\W*(?:accepted|approved|adopted|ratified|agreed|decided|final)\b", re.I)


def _status_day(label: str, fields: Sequence[HeaderField], order: bool | None) -> ObservationFact | None:
    """The day the status field gives for the decision, when no field of its own dates the record:
    an "approved:" field's day told in the status (a supersession's day, "Superseded on ...", is
    the later record's, never this one's)."""
    for found in fields:
        if _is_status_key(found.key) and _DECIDED_STATUS_RE.match(plain_text(found.value)):
            # the field's own value: a byline's next item ("Status: Final · Issued 9 September
            # 2026") dates the issue of the page, not the status
            own = _BYLINE_ITEM_SPLIT_RE.split(found.value, maxsplit=1)[0]
            fact = _date_fact(label, own, found.line, order)
            if fact is not None and _FULL_DATE_RE.search(fact.text.split(" (", 1)[0]):
                return fact
            return None
    return None


def stem_order(stem: str, texts: Sequence[str]) -> bool | None:
    """The order of a page's numeric dates when its file name gives the day one of them is
    (a meeting tool's export: `...-2026-12-01.md` titled "(12/01/2026)": month-first); True
    day-first, False month-first, None when no date of `texts` reads as the file name's day."""
    match = _STEM_DATE_RE.search(stem) if any(ch.isdigit() for ch in stem) else None
    if match is None:
        return None
    year, month, day = (int(match[i] or match[i + 3]) for i in (1, 2, 3))
    for text in texts:
        for first, second, written_year in _NUMERIC_DAY_RE.findall(text):
            if first == second or int(written_year) % 100 != year % 100:
                continue
            if (int(first), int(second)) == (month, day):
                return False
            if (int(first), int(second)) == (day, month):
                return True
    return None


# A numeric day with its year ("12/01/2026", "1.12.26"): its first two numbers' order unknown.
_NUMERIC_DAY_RE = re.compile(r"(?<![\d/.])(\d{1,2})[/.](\d{1,2})[/.]((?:19|20)?\d{2})(?![\d/.])")


def _stem_date(label: str, stem: str) -> ObservationFact | None:
    """Minutes and incident reviews are filed by their day (`2020-01-23.md`): the only date
    many of them carry in full."""
    match = _STEM_DATE_RE.search(stem)
    if not match:
        return None
    year, month, day_of = (match[1], match[2], match[3]) if match[1] else (match[4], match[5], match[6])
    try:
        day = date(int(year), int(month), int(day_of)).isoformat()
    except ValueError:
        return None
    return ObservationFact(f"{label}: {day} (from the file name)", 1, 1, "date")
