"""Which genre a document is, from its structure (pure; never from its file name).

Genres beside decision records (tasks/extract/records.py), each recognised from the keys its
templates put in front matter or a header block, and the section headings they prescribe:

- proposal: design documents and enhancement proposals (KEP/TEP `kep.yaml` keys
  `creation-date`, `owning-sig`, `superseded-by`; Rust RFC `Start Date` / `RFC PR`; PEP headers
  `Status:` / `Created:`; Go design docs `Author:` / `Last updated:`; sections Summary,
  Motivation, Goals, Non-Goals, Proposal, Design Details, Alternatives, Drawbacks, ...);
- postmortem: incident reviews (Google SRE, PagerDuty, Atlassian templates: Impact, Root Cause,
  Trigger, Detection, Resolution, Timeline, Action Items, Lessons Learned);
- runbook: alert runbooks and playbooks (Meaning, Impact, Diagnosis, Mitigation, Escalation);
- minutes: meeting notes (Attendees, Agenda, Decisions, Action Items);
- architecture: architecture overviews and component reference pages (Components,
  Architecture, How it works, Responsibilities), with constraints stated in prose.

A document whose structure fits none is no genre (None): nothing is forced into one.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from tasks.extract.date_fields import date_role
from tasks.extract.genre_signs import holds_an_incident
from tasks.extract.runbook_faq import MIN_QUESTIONS, questions
from tasks.extract.runbook_steps import MIN_HOW_QUESTIONS, how_questions
from tasks.extract.runbook_tables import has_troubleshooting_table
from tasks.extract.status_text import names_state, without_status_macros
from tasks.extract.status_updates import MIN_UPDATES, update_states
from tasks.extract.structure import Structure, section_key
from tasks.extract.tech_radar import radar_rings
from tasks.extract.text import plain_text
from tasks.markdown.blocks import Section
from tasks.markdown.tables import table_cells

PROPOSAL = "proposal"
POSTMORTEM = "postmortem"
RUNBOOK = "runbook"
MINUTES = "minutes"
ARCHITECTURE = "architecture"
GENRES = (PROPOSAL, POSTMORTEM, RUNBOOK, MINUTES, ARCHITECTURE)

# A header line `Key: value`, `- Key: value`, `**Key:** value`, `* **Key**: value`, `> Key: value`.
_FIELD_RE = re.compile(
    r"^\s*+(?:>\s*+)?(?:[-*+]\s++)?(?:\*\*|__)?(?P<key>[A-Za-z][A-Za-z /-]{1,30}?|[a-z]+(?:_[a-z]+){1,3})"
    r"(?:\*\*|__)?\s*+:"
    r"(?:\*\*|__)?\s++(?P<value>\S.*)$"  # greedy: a lazy value before `\s*$` is quadratic on blank runs
)
# A key in emphasis that closes after it (Jira's wiki markup bolds with one star: "*Status:*
# Resolved"; "_Created:_ 2024-03-01"), read as a bold key; a line all in emphasis ("*Author: Ana
# Ruiz. Written 10 June 2025.*") is a byline, not a field.
_EMPHASIS_KEY_RE = re.compile(r"^(\s*+(?:[-+]\s++)?)([*_])([A-Za-z][A-Za-z /-]{0,30}?)(:?)\2(?=:?\s)")


# A field all in emphasis on its own line ("*Review state: Final*", "_Status: Draft_"), as a
# report's cover sets its state under the byline.
_EMPHASISED_FIELD_RE = re.compile(
    r"^\s*+([*_])(?P<key>[A-Za-z][A-Za-z /-]{0,30}):[ \t]++(?P<value>[^*_]{1,60}?)\1\s*$")


def _bold_key(line: str) -> str:
    """`line` with a key in single emphasis written in bold ("*Status:* x" -> "**Status:** x");
    a line all in emphasis that is one field naming the document's state or one of its dates
    ("*Review state: Final*") as that field (any other such line is a byline)."""
    if line.lstrip()[:1] not in ("*", "_"):  # a literal gate first
        return line
    whole = _EMPHASISED_FIELD_RE.match(line)
    if whole is not None and _names_own_field(field_key(whole["key"])):
        return f"**{whole['key']}:** {whole['value']}"
    return _EMPHASIS_KEY_RE.sub(r"\1**\3\4**", line, count=1)
# A field with a leader of dots to its value, as a typed form or a plain-text notice sets its
# header ("Reference ........ DA-26-014", "Outcome .......... APPROVED").
_LEADER_FIELD_RE = re.compile(
    r"^\s*+(?P<key>[A-Za-z][A-Za-z /-]{1,30}?)[ \t]++\.{3,}[ \t]*+(?P<value>[^.\s].*)$")
# An AsciiDoc document attribute in the header (`:revdate: 2026-11-20`, `:owner: SRE`).
_ATTRIBUTE_RE = re.compile(r"^:(?P<key>[A-Za-z][\w-]{0,30}):[ \t]++(?P<value>\S.*)$")
_TABLE_ROW_RE = re.compile(r"^\s*\|\s*(?P<key>[^|]{2,30}?)\s*\|\s*(?P<value>[^|]*[^|\s])\s*\|?\s*$")
# A header line written with a dash for its colon ("Status - Accepted", "Date – 03-Mar-2026"), as
# some wiki templates and hand-written pages do: read only for the keys a page states about itself,
# so a list's "Rome - the capital" is no field.
_DASH_FIELD_RE = re.compile(
    r"^\s*+(?:\*\*|__)?(?P<key>[A-Za-z][A-Za-z ]{1,24}?)(?:\*\*|__)?[ \t]++[-–—][ \t]++(?P<value>\S.*)$")
_DASH_FIELD_KEYS = frozenset({"status", "state", "date", "created", "last updated", "updated", "owner",
                              "owners", "author", "authors", "reviewers", "approvers", "deciders", "version",
                              "team"})


def _dash_field(line: str) -> re.Match[str] | None:
    """A `Key - value` header line whose key is one a page states about itself."""
    if " - " not in line and " – " not in line and " — " not in line:  # a literal gate first
        return None
    match = _DASH_FIELD_RE.match(line)
    return match if match and field_key(plain_text(match["key"])) in _DASH_FIELD_KEYS else None

_PROPOSAL_META = frozenset(
    """creation-date last-updated owning-sig participating-sigs reviewers approvers
    superseded-by see-also replaces editor kep-number tep-number rfc-pr start-date
    discussions-to post-history python-version""".split()
)
_ANY_PAGE_META = frozenset({"last updated", "last-updated", "see also", "see-also"})
_PROPOSAL_FIELDS = frozenset(
    {"start date", "rfc pr", "rust issue", "created", "last updated", "last update",
     "discussion at", "discussions-to", "pep", "post-history", "feature name", "authors",
     "author", "replaces", "superseded-by", "superseded by", "see also", "tracking issue"}
)
_POSTMORTEM_FIELDS = frozenset(
    {"internal post mortem", "post mortem", "postmortem", "incident date", "date of incident",
     "incident commander", "incident id", "incident", "severity", "sev", "duration", "problem record"}
)
# An alert's runbook names the alert it answers in its header (`| **Alert name** | `X` |`); a
# postmortem's Severity field is the alert's there, so the alert's name decides. (A bare "Alert:"
# is any page's line about an alert: a man page's SYNOPSIS, a postmortem's detection.)
_RUNBOOK_FIELDS = frozenset({"alert name", "alertname", "alert rule"})
# A checklist's or playbook's field that says when to reach for it ("**Use when:** the `X` alert
# fires"): worth a title's sign (a pattern catalogue's entry writes it too, with no steps to follow).
RUNBOOK_USE_FIELDS = frozenset({"use when", "use this when", "use this page when", "use this runbook when",
                                 "use this checklist when", "use this playbook when",
                                 # a help centre's article ("**When to use it:** Nightjar has rejected ...")
                                 "when to use it", "when to use this", "when to use this article"})
# A page's tags that name its genre (Docusaurus `tags: [cranes, runbook]`, HackMD's `###### tags:
# \`runbook\``, a wiki's labels): worth a genre's key section.
_GENRE_TAGS = {"runbook": RUNBOOK, "runbooks": RUNBOOK, "playbook": RUNBOOK, "playbooks": RUNBOOK,
               "sop": RUNBOOK, "postmortem": POSTMORTEM, "post-mortem": POSTMORTEM, "postmortems": POSTMORTEM,
               "incident-review": POSTMORTEM, "incident-report": POSTMORTEM}
_TAG_KEYS = frozenset({"tags", "labels"})
# A meeting's header fields: who attended and who wrote the notes ("Present: Ana, Bruno").
_MINUTES_FIELDS = frozenset(
    {"attendees", "attendance", "participants", "present", "absent", "regrets", "apologies", "scribe",
     "note taker", "notetaker", "notes", "notes by", "minutes", "minutes by", "facilitator", "chair"}
)
_SECTION_SIGNS: dict[str, frozenset[str]] = {
    PROPOSAL: frozenset(
        {"summary", "abstract", "motivation", "goals", "non-goals", "goals and non-goals",
         "proposal", "design details", "detailed design", "design", "alternatives",
         "alternatives considered", "drawbacks", "unresolved questions", "rationale",
         "rationale and alternatives", "prior art", "future possibilities", "future work",
         "guide-level explanation", "reference-level explanation", "specification",
         "backwards compatibility", "backward compatibility", "compatibility",
         "implementation", "implementation plan", "test plan", "graduation criteria",
         "upgrade & migration strategy", "user stories", "risks and mitigations",
         "open issues", "requirements", "background", "use cases", "problem", "draft design",
         "discussion and open questions", "open questions", "introduction",
         # Shape Up's pitch (Problem, Appetite, Solution, Rabbit holes, No-gos)
         "appetite", "rabbit holes", "no-gos", "no gos",
         # Fedora's Change proposal (Summary, Detailed Description, Scope, Upgrade/compatibility
         # impact, How To Test, Contingency Plan)
         "detailed description", "upgrade/compatibility impact", "how to test", "contingency plan",
         # Joel Spolsky's functional specification (Overview, Scenarios, Nongoals, Details, Open
         # Issues, Side Notes)
         "nongoals", "non goals", "scenarios", "side notes"}
    ),
    POSTMORTEM: frozenset(
        {"timeline", "root cause", "root causes", "root cause analysis", "impact",
         "incident impact", "customer impact", "trigger", "detection", "resolution",
         "resolution and recovery", "recovery", "mitigation", "remediation",
         "action items", "follow-up actions", "follow-ups", "corrective actions",
         "lessons learned", "what went well", "what went wrong", "where we got lucky",
         "incident summary", "contributing factors", "root cause and trigger",
         "what could have gone better", "what didn't go well", "key takeaways",
         "what happened", "how did it happen", "how did it happen?", "response", "what broke",
         "how we fixed it", "what we are changing", "what we're changing", "day by day",
         "what we are doing about it", "what we're doing about it", "what caused it",
         "leadup", "fault", "blameless root cause", "five whys", "follow-up tasks", "responders",
         "how'd we do", "related records", "what we learned", "how we noticed", "how it ended",
         "what made this hard", "what made it hard",
         # NASA's Lessons Learned Information System entry (Driving Event, Lesson(s) Learned)
         "driving event",
         # incident.io's and FireHydrant's retrospective templates
         "mitigators", "learnings and risks", "customer impact summary",
         # an After Action Review
         "what was expected", "what actually happened", "why was there a difference", "sustain", "improve",
         # a Kepner-Tregoe problem analysis (problem management's review of an incident)
         "specify the problem", "possible causes", "most probable cause", "probable cause",
         "verify the true cause", "true cause"}
    ),
    RUNBOOK: frozenset(
        {"meaning", "impact", "diagnosis", "mitigation", "escalation", "symptoms",
         "alert", "verification", "resolution", "troubleshooting", "prerequisites",
         "procedure", "steps", "rollback", "investigate", "investigation", "escalate", "fix",
         "severity", "check", "checks", "triage", "how to fix", "remediation", "why it matters",
         "who to call", "who to contact", "contacts", "what it means", "before you start",
         "before you begin", "if something goes wrong", "if it goes wrong", "if things go wrong",
         "rollback plan", "aborting", "abort", "validation", "verify", "post-checks", "pre-checks"}
    ),
    MINUTES: frozenset(
        {"attendees", "attendance", "participants", "agenda", "action items", "decisions", "minutes",
         "action item review", "meeting roles", "scheduled meetings",
         "notes", "discussion", "next meeting", "present", "absent", "consensus",
         "upcoming design meetings", "pending proposals", "nominated rfcs", "announcements",
         "quick recap"}  # Zoom's meeting summary: "Quick recap", "Next steps", "Summary"
    ),
    ARCHITECTURE: frozenset(
        {"architecture", "components", "overview", "how it works", "responsibilities",
         "services", "data flow", "design", "configuration", "deployment", "storage",
         "limitations", "constraints", "caveats", "known limitations", "known issues",
         "caching", "sharding", "replication", "the write path", "the read path", "write path",
         "read path", "http endpoints", "endpoints", "scaling", "high availability",
         "guaranteed properties", "data model", "limitation", "background", "structure",
         "format", "benefits", "interfaces", "dependencies", "failure modes", "rules",
         "invariants", "guarantees", "tech stack", "technology stack", "ownership", "operations",
         # C4 container pages and service READMEs
         "containers", "relationships", "architectural constraints", "known gaps", "system context",
         "slos", "service level objectives"}
    ),
}
# Sections that only one genre's templates have: one of them is worth two ordinary ones.
_KEY_SECTIONS: dict[str, frozenset[str]] = {
    PROPOSAL: frozenset({"motivation", "non-goals", "goals and non-goals", "design details",
                         "drawbacks", "unresolved questions", "prior art",
                         "rationale and alternatives", "guide-level explanation", "appetite",
                         "rabbit holes", "no-gos", "no gos", "contingency plan", "nongoals", "non goals"}),
    POSTMORTEM: frozenset({"root cause", "root causes", "root cause analysis", "lessons learned",
                           "incident summary", "incident impact", "contributing factors",
                           "what went well", "trigger", "leadup", "blameless root cause",
                           "five whys", "most probable cause", "verify the true cause"}),
    RUNBOOK: frozenset({"meaning", "diagnosis", "escalation", "escalate", "investigate", "what it means"}),
    MINUTES: frozenset({"attendees", "attendance", "agenda", "participants", "upcoming design meetings",
                        "nominated rfcs", "pending proposals", "quick recap"}),
    ARCHITECTURE: frozenset({"components", "architecture", "how it works", "responsibilities",
                             "failure modes"}),
}
# arc42's section names (a sign of an architecture page, "Building block view" one worth two) that
# are kept out of TEMPLATE_WORDS: "blocks", "runtime" and "view" are words of names too.
_ARC42_SIGNS = frozenset({"building blocks", "building block view", "runtime view", "deployment view",
                          "solution strategy", "crosscutting concepts", "cross-cutting",
                          "cross-cutting concepts", "architecture constraints", "quality goals",
                          "risks and technical debt",
                          # the building block view's levels ("5.1 Whitebox Overall System", "5.2 Level 2")
                          "whitebox overall system", "level 1", "level 2", "level 3",
                          # the RUP Software Architecture Document's sections and views
                          "architectural representation", "architectural goals and constraints",
                          "use-case view", "use case view", "logical view", "process view",
                          "implementation view", "data view", "size and performance"})
_ARC42_KEY_SIGNS = frozenset({"building blocks", "building block view", "architectural goals and constraints",
                              "logical view", "process view"})
# Headings of styles whose words are words of names too ("internal DNS", "error budget service"),
# so kept out of TEMPLATE_WORDS, each worth one (a key one two): Amazon's PR/FAQ (a press release
# written before the work, then its FAQs) and an SLO document (Google's template: service overview,
# SLIs and SLOs, error budget policy).
_STYLE_SIGNS: dict[str, frozenset[str]] = {
    PROPOSAL: frozenset({"press release", "internal faq", "external faq", "customer faq"}),
    ARCHITECTURE: frozenset({"slis and slos", "slos and slis", "service overview", "error budget policy",
                             "error budget"}),
    # an alert's page in plain words (what fires it, what users lose, whom it pages in turn)
    # an 8D report's disciplines (D0-D8; "team" and "response" are words of names too)
    POSTMORTEM: frozenset({"emergency response", "problem description", "interim containment actions",
                           "containment actions", "permanent corrective actions", "implement and validate",
                           "prevent recurrence", "team recognition"}),
    RUNBOOK: frozenset({"when this alert fires", "when the alert fires", "what it means for users",
                        "what this means for users", "escalation chain", "escalation path",
                        "escalation policy", "first five minutes", "first 5 minutes"}),
}
_STYLE_KEY_SIGNS = frozenset({"press release", "error budget policy"})
_TITLE_SIGNS: tuple[tuple[str, re.Pattern[str]], ...] = (
    (PROPOSAL, re.compile(r"^(?:proposal\b|design\s+doc|(?:KEP|TEP|RFC|PEP)[-\s#]*\d+)|\bproposal$"
                          r"|\bPR\s*/\s*FAQ\b|\bPRFAQ\b"
                          # a functional or technical specification ("SlotBook 3 Functional Specification")
                          r"|\b(?:functional|technical|product)\s+spec(?:ification)?\b", re.I)),
    (POSTMORTEM, re.compile(r"\b(?:post-?mortem|incident|outage|retrospective|downtime|8D\s+report)\b"
                            # an incident tracker's key ("INC-0419: Depot scanners synced late")
                            r"|^INC[-\s#]?\d{1,7}\b"
                            r"|^what happened\b|\bwent wrong\b|\blearning\s+review\b"
                            r"|\bdebrief\b|\bafter[- ]action\s+review\b"
                            r"|\bproblem\s+(?:analysis|review)\b", re.I)),
    (MINUTES, re.compile(r"\b(?:meeting|minutes|sync|stand-?up|triage|working\s+group"
                         r"|decision\s+(?:log|register)|decisions)\b", re.I)),
    (ARCHITECTURE, re.compile(r"\barchitecture\b|\b(?:design|system|platform|technical)\s+overview\b"
                              r"|^SLOs?\b|\bservice\s+level\s+objectives?\b"
                              # a page that is one arc42 section ("Isobar: building block view")
                              r"|\b(?:building\s+block|runtime|deployment)\s+view\b", re.I)),
    (RUNBOOK, re.compile(r"\b(?:runbook|playbook|standard operating procedure|SOP|maintenance procedure"
                         r"|checklist|operations\s+FAQ|ops\s+FAQ)\b"
                         r"|^(?:procedure|how to)\b"
                         # a help centre's troubleshooting article ("Truck sent to the lane: what to check")
                         r"|\bwhat\s+to\s+(?:check|do)\b|\btroubleshooting\b", re.I)),
)

# An issue tracker's state line under the title ("**Closed** · ana opened this issue on 3 Sep
# 2025 · 6 comments", "Open · bo wants to merge 2 commits"): the issue's status, not its story.
# GitHub's close reasons too, and its discussions' line ("Closed as outdated · **ana** started
# this conversation in Ideas").
_ISSUE_STATE_RE = re.compile(
    r"^\s*(?:\*\*|__)?(?P<state>Open|Closed(?:\s+as\s+(?:completed|not\s+planned|duplicate|resolved|outdated))?"
    r"|Merged|Draft)(?:\*\*|__)?\s*[·•|—–-]\s*(?:(?:\*\*|__)?@?[\w.-]{1,40}(?:\*\*|__)?\s+"
    r"(?:opened|closed|merged|wants\s+to\s+merge|filed|reported|started\s+this\s+(?:conversation|discussion))\b"
    # GitLab's header ("Closed · Issue created Mar 4, 2024 by Ana Ruiz", "Open · Incident created ...")
    r"|(?:issue|incident|epic|task|merge\s+request)\s+(?:created|opened|reported)\b)",
    re.I)


# The state on a line of its own, as GitHub's page copied as text leaves it ("**Closed**" over
# "tlind opened this issue on Mar 3, 2026 · 4 comments"): a state only above such a line.
_BARE_STATE_RE = re.compile(r"^\s*(?:\*\*|__)?(?P<state>Open|Closed|Merged|Draft)(?:\*\*|__)?\s*$", re.I)
# (the name in bold as a comment's header writes it: "**ana** opened this issue on 3 Feb 2025")
_OPENED_LINE_RE = re.compile(
    r"^\s*(?:\*\*|__)?@?[\w.-]{1,40}(?:\*\*|__)?\s+(?:opened\s+this|merged\s+\d|wants\s+to\s+merge)\b", re.I)


def issue_state(line: str, following: str = "") -> str | None:
    """The state an issue tracker's state line states (`Closed`), None for other lines;
    `following`, the next line of text, dates a bare state line as the tracker's."""
    match = _ISSUE_STATE_RE.match(line)
    if match is None and following:
        match = _BARE_STATE_RE.match(line) if _OPENED_LINE_RE.match(following) else None
    return match["state"] if match else None


# A comment's header in an issue thread ("**ana** commented on 4 Sep 2025"): who spoke, not what.
_COMMENT_HEADER_RE = re.compile(
    r"^\s*(?:\*\*|__)?@?[\w.-]{1,40}(?:\*\*|__)?\s+(?:commented|replied|wrote|closed\s+this)\b[^.]{0,60}$")


def is_thread_chrome(line: str) -> bool:
    """An issue thread's state line or a comment's header: the tracker's, not the writer's text."""
    return issue_state(line) is not None or _COMMENT_HEADER_RE.match(line) is not None


_DECISION_LOG_TITLE_RE = re.compile(r"\bdecisions?\s+(?:log|register)\b", re.I)


def names_a_decision_log(title: str) -> bool:
    """Does a page's title say it is a log of decisions ("Platform decision log", "Decision
    register")?"""
    return _DECISION_LOG_TITLE_RE.search(title) is not None


# A header field that names the document's series of proposals, as an RFC's first line does
# ("Request for Comments: 9110", "Harbourline Internal RFC: HIR-0023").
_SERIES_KEY_RE = re.compile(
    r"\b(?:rfc|request for (?:comments|proposals?)|enhancement proposal|design proposal)$")


@dataclass(frozen=True, slots=True)
class HeaderField:
    """A `Key: value` the document states about itself (front matter or header block)."""

    key: str  # lower-case, words separated by one space ("creation date" for creation-date)
    value: str
    line: int


def field_key(key: str) -> str:
    # a table cell's key keeps its colon in Jira's printable view ("| Status: | Done |")
    return " ".join(re.split(r"[\s_-]+", key.strip().removesuffix(":").strip().lower()))


# Front-matter keys whose value is a mapping of the page's own fields.
_NESTED_KEYS = frozenset({"date", "dates", "spec", "metadata", "meta", "review", "last_update"})


def header_fields(
    meta: Mapping[str, Any],
    line_of: Mapping[str, int],
    structure: Structure,
) -> list[HeaderField]:
    """Front-matter keys with a scalar or list value, then the `Key: value` lines and two-column
    table rows of the header block (before the first section under the title)."""
    found: list[HeaderField] = []
    for key, value in meta.items():
        # a mapping's scalars one level down, each under both keys: mkdocs-material's blog
        # `date: {created: .., updated: ..}` ("date created"), a Backstage `spec: {lifecycle: ..}`
        nested = value.items() if isinstance(value, Mapping) and key in _NESTED_KEYS else ()
        for sub, inner in [(None, value), *nested]:
            values = inner if isinstance(inner, list) else [inner]
            text = ", ".join(str(v) for v in values if isinstance(v, str | int | float) or _is_date(v))
            if text:
                name = field_key(str(key) if sub is None else f"{key} {sub}")
                found.append(HeaderField(name, text, line_of.get(key, 1)))
    for number, line in _stacked_fields(_joined_link_wraps(header_lines(structure))):
        line = _bold_key(without_status_macros(line))  # a lozenge's bar splits no table row
        if "`" in line:  # a field in a code span ("`Status: Active` · `Owner: SRE`") is a field
            line = _CODE_FIELD_RE.sub(r"\1", line)
        pairs = _paired_cells(line)
        if pairs:
            found += [HeaderField(key, value, number) for key, value in pairs]
            continue
        for part in _FIELD_SPLIT_RE.split(line):
            match = (_FIELD_RE.match(part) or _TABLE_ROW_RE.match(part) or _dash_field(part)
                     or _ATTRIBUTE_RE.match(part)
                     or (_LEADER_FIELD_RE.match(part) if "..." in part else None))
            if match and not part.lstrip().startswith(("http", "|-", "| -")):
                key = field_key(plain_text(match.group("key")))
                if key and not key.startswith("-"):
                    found.append(HeaderField(key, _field_value(match), number))
    return found


def _paired_cells(line: str) -> list[tuple[str, str]]:
    """A table row of fields side by side, each key's cell ending with its colon (an issue
    tracker's attribute table: Redmine's "| Status: | Closed | Start date: | 16/02/2026 |", Jira's
    printable view): each key (as field_key spells it) and its value; a field left empty is
    skipped. None for any other line."""
    if not line.lstrip().startswith("|") or line.count("|") < 5:  # a literal gate first
        return []
    cells = table_cells(line)
    if len(cells) < 4 or len(cells) % 2 or not (
            all(_PAIR_KEY_RE.match(key) for key in cells[::2]) or _control_row(cells)):
        return []
    return [(field_key(plain_text(key)), value.strip())
            for key, value in zip(cells[::2], cells[1::2], strict=True) if plain_text(value).strip()]


_PAIR_KEY_RE = re.compile(r"^\s*+(?:\*\*|__)?[A-Za-z%][A-Za-z %/.-]{0,30}:(?:\*\*|__)?\s*$")
# The other keys of a controlled document's control table, beside its state and its dates.
_CONTROL_KEYS = frozenset({"version", "owner", "document owner", "author", "approved by", "document id",
                           "document number", "doc id", "reference", "classification", "department"})


def _control_row(cells: list[str]) -> bool:
    """A document-control table's row of fields side by side without colons ("| Status | Approved
    | Version | 1.2 |"): every key a control key, one of them the state or a date, and no value
    a key's name (a log table's head, "| Date | Status | Owner | Notes |", pairs nothing)."""
    keys = [field_key(plain_text(cell)) for cell in cells[::2]]
    values = [field_key(plain_text(cell)) for cell in cells[1::2]]
    dated = [names_state(key) or date_role(key) is not None for key in keys]
    return (any(dated) and all(flag or key in _CONTROL_KEYS for flag, key in zip(dated, keys, strict=True))
            and not any(names_state(v) or date_role(v) is not None or v in _CONTROL_KEYS for v in values))


# A field written in a code span, as a badge-like header writes it.
_CODE_FIELD_RE = re.compile(r"`([A-Za-z][A-Za-z /-]{0,30}:[ \t][^`]{1,80})`")
# A key alone on its line: a definition list's term ("Status" over ": Accepted", Pandoc's and
# Python-Markdown's), or a bold paragraph over its value ("**Status**", a blank, "Approved").
_TERM_RE = re.compile(r"^\s*+(?:\*\*|__)?(?P<key>[A-Za-z][A-Za-z /-]{1,30}?)(?:\*\*|__)?\s*+$")
_BOLD_TERM_RE = re.compile(r"^\s*+(\*\*|__)(?P<key>[A-Za-z][A-Za-z /-]{1,30}?):?\1\s*+$")
_DEFINITION_RE = re.compile(r"^:[ \t]++(?P<value>\S.*)$")
_STACKED_VALUE_CHARS = 80
_STACKED_VALUE_WORDS = 6


def _stacked_fields(lines: list[tuple[int, str]]) -> list[tuple[int, str]]:
    """Header lines with a key stacked over its value read as one `Key: value` line: a
    definition list's term and its `: value` line, numbered as the term; a bold key alone over a
    short value one blank line below, when the key names a state or a date (status_text,
    date_fields), numbered as the value."""
    by_number = dict(lines)
    joined: list[tuple[int, str]] = []
    used: set[int] = set()
    for number, line in lines:
        if number in used:
            continue
        following = by_number.get(number + 1, "")
        definition = _DEFINITION_RE.match(following) if following.startswith(":") else None
        term = _TERM_RE.match(line) if definition else None
        if definition and term:
            joined.append((number, f"{term['key']}: {definition['value']}"))
            used.add(number + 1)
            continue
        bold = _BOLD_TERM_RE.match(line) if line.lstrip()[:2] in ("**", "__") else None
        value = by_number.get(number + 2, "").strip()
        if (bold and not following.strip() and _is_stacked_value(value)
                and _names_own_field(field_key(bold["key"]))):
            joined.append((number + 2, f"{bold['key']}: {value}"))
            used.add(number + 2)
            continue
        joined.append((number, line))
    return joined


def _is_stacked_value(value: str) -> bool:
    """A field's value alone on its line: a few words, not a sentence (a bold label over a
    paragraph, a notice's title over its text, is a section of prose, not a field)."""
    return (0 < len(value) <= _STACKED_VALUE_CHARS and value[0] not in "#|-*+>:`"
            and not value.endswith(".") and len(value.split()) <= _STACKED_VALUE_WORDS)


def _names_own_field(key: str) -> bool:
    """A key that names the document's state or one of its dates."""
    return names_state(key) or date_role(key) is not None


def _joined_link_wraps(lines: list[tuple[int, str]]) -> list[tuple[int, str]]:
    """Header lines with a link whose text wraps onto the next, indented line ("- **Status:**
    Replaced by [CEP-0014: FHIR Subscriptions for result" / "  notification](cep-0014.md)")
    read as one line, numbered as its first."""
    joined: list[tuple[int, str]] = []
    last = 0  # the number of the last line read into joined[-1]
    for number, line in lines:
        if joined and number == last + 1 and line[:1].isspace() and line.strip():
            first, previous = joined[-1]
            if previous.count("[") > previous.count("]"):
                joined[-1], last = (first, f"{previous} {line.strip()}"), number
                continue
        joined.append((number, line))
        last = number
    return joined


# Fields written on one line, apart by a middle dot or a bar ("Owner: Identity team · Last
# reviewed: 2025-05-12 · Severity: P2", bold keys too: FireHydrant's "**Incident:** INC-88 ·
# **Severity:** SEV3") or after a sentence's full stop ("Owner: Learn team. Last run:
# 2025-10-27.", "Catalogue entry kept by Billing. Entry status: Published.") or a gap of blanks
# (Jira's "Created: 03/Mar/26 9:14 AM  Updated: 11/Mar/26 4:02 PM") or a spaced dash (a cover
# sheet's "Version: 1.2 — Status: Approved", an archive stamp's "ARCHIVE COPY — Status: SUPERSEDED");
# it starts after a non-blank, so a run of blanks is read once (linear), not from each of its characters.
_FIELD_SPLIT_RE = re.compile(
    # (a bold key after one blank too, as Jira's issue header writes its fields in a row:
    # "**Status:** In Progress **Resolution:** Unresolved")
    r"(?<=\S)(?:\s+[·•|—–]|(?<=[a-z)])\.|[ \t](?=[ \t])|(?=[ \t]\*\*[A-Z][A-Za-z ]{1,25}:\*\*[ \t]))\s+"
    r"(?=(?:\*\*|__)?[A-Z][A-Za-z ]{1,25}(?:\*\*|__)?:(?:\*\*|__)?\s)")


def body_fields(structure: Structure, limit: int = 80) -> list[HeaderField]:
    """The `Key: value` lines and two-column table rows of the document's first `limit` lines
    outside its header block (a metadata table under "## Incident details")."""
    found: list[HeaderField] = _column_fields(structure.visible[:limit])
    for number, line in structure.visible[:limit]:
        if number in structure.heading_lines:
            continue
        line = _bold_key(line)
        match = _FIELD_RE.match(line) or _TABLE_ROW_RE.match(line)
        if match is None or len(match.group("key").split()) > 4 or line.lstrip().startswith("http"):
            continue
        key = field_key(plain_text(match.group("key")))
        value = _field_value(match)
        if key and not key.startswith("-") and len(plain_text(value)) <= 80:
            found.append(HeaderField(key, value, number))
    return found


_COLUMN_KEYS = frozenset({"status", "state", "date", "created", "last updated", "updated",
                          "author", "authors", "owner", "incident date", "severity", "start date"})
_SEPARATOR_RE = re.compile(r"^\s*\|?\s*:?-{3,}:?\s*(?:\|\s*:?-{3,}:?\s*)+\|?\s*$")


def _column_fields(lines: list[tuple[int, str]]) -> list[HeaderField]:
    """A metadata table written across (`| Status | Author | Created |` over one row of
    values): each column's key and its value in the first row."""
    for index in range(len(lines) - 2):
        (_, head), (_, rule), (number, row) = lines[index : index + 3]
        if not head.lstrip().startswith("|") or not _SEPARATOR_RE.match(rule):
            continue
        keys = [field_key(plain_text(cell)) for cell in table_cells(head)]
        values = table_cells(row)
        if "decision" in keys:
            continue  # a decision log kept as a table: its first row is an entry, not the page's
        if index + 3 < len(lines) and lines[index + 3][1].lstrip().startswith("|"):
            continue  # a table of many rows is a log ("| Date | Done by |"), not the page's own fields
        if len(keys) >= 2 and len(keys) == len(values) and _COLUMN_KEYS & set(keys):
            return [HeaderField(key, value, number) for key, value in zip(keys, values, strict=True)
                    if key and plain_text(value)]
    return []


def field_of(line: str) -> tuple[str, str] | None:
    """A `Key: value` line's key (as field_key spells it) and value, None for other lines."""
    match = _FIELD_RE.match(line)
    if match is None or len(match.group("key").split()) > 4:
        return None
    return field_key(plain_text(match.group("key"))), _field_value(match)


def _field_value(match: re.Match[str]) -> str:
    """A field's or a table row's value, without the blanks around it and, for a field, the
    backslash of a markdown hard break at its end ("Owner: Ana Ruiz  \\")."""
    value = match.group("value")
    if match.re is _FIELD_RE and value.endswith("\\") and value[:-1].strip():
        value = value[:-1]
    return value.strip()


def is_field_line(line: str) -> bool:
    """A header block's `Key: value` line (not prose)."""
    match = _FIELD_RE.match(line)
    return match is not None and len(match.group("key").split()) <= 4


def _is_date(value: object) -> bool:
    return hasattr(value, "isoformat")


# Sections that hold the page's own fields, by their name: an incident tool's export opens with
# its fields under "## Key information" (incident.io) or "## Incident details".
_FIELD_SECTIONS = frozenset({"metadata", "status", "key information", "incident details",
                             # a form's or a report's first part (the CAST handbook's "Basic
                             # information": the loss event, the losses, the hazard)
                             "basic information", "basic details", "general information",
                             "incident information", "document information", "document details",
                             "document control", "page properties"})


def header_lines(structure: Structure) -> list[tuple[int, str]]:
    """The lines before the first section below the title (at most 30); a block of fields
    underlined by `---` (a setext heading to markdown) is header, not a section, and so is a
    first section named for the fields it holds (_FIELD_SECTIONS)."""
    end = None
    subtitle = _subtitle(structure)
    for section in structure.sections[1:]:
        title = structure.title(section)
        if (section.level >= 2 and not _FIELD_RE.match(title) and section is not subtitle
                and section_key(title) not in _FIELD_SECTIONS):
            end = structure.number(section)
            break
    # (the lines are in order: the first 30 before `end` are among the first 30 lines)
    return [*opening_fence(structure),
            *[(n, line) for n, line in structure.visible[:30] if end is None or n < end]]


def _subtitle(structure: Structure) -> Section | None:
    """The heading right under the page's title that names what the title numbers (Redmine's
    "Feature #2291" over "## Migrate the herbarium to Specify 7", an action card's "# ACTION CARD
    FW-3" over "## Seed vault temperature alarm"): no text between the two, and the next heading
    under it one level deeper, so every section of the page is its own. Its lines up to that next
    heading (a tracker's attribute table, a card's revision line) are the page's header."""
    heads = structure.sections[1:4]
    if len(heads) < 3 or heads[0].level != 1 or heads[1].level != 2 or heads[2].level <= heads[1].level:
        return None
    between = range(structure.number(heads[0]) + 1, structure.number(heads[1]))
    if any(structure.by_number.get(number, "").strip() for number in between):
        return None
    title = section_key(structure.title(heads[1]))
    return None if any(title in signs for signs in _SECTION_SIGNS.values()) else heads[1]


def opening_fence(structure: Structure) -> list[tuple[int, str]]:
    """The lines of a fenced block that opens the document before any text but its title, when
    at least two of them are header fields (`last_reviewed: 2025-06-12` in a YAML fence too):
    a PEP-style header kept in a code fence so that it renders as
    written ("```" / "PEP: 3" / "Status: Superseded" / "Created: 12-Sep-2024" / "```")."""
    if not structure.code_content:
        return []
    first_code = min(structure.code)
    if any(line.strip() and n < first_code and n not in structure.heading_lines
           for n, line in structure.visible):
        return []  # text before it: the fence is an example, not the page's header (a title may come first)
    lines: list[tuple[int, str]] = []
    for number in sorted(structure.code_content):
        if number > first_code + 1 + len(lines):
            break  # the first fence's content ends where its numbers stop following on
        lines.append((number, structure.code_content[number]))
    return lines if sum(bool(_FIELD_RE.match(line)) for _, line in lines) >= 2 else []


def recognise_genre(
    fields: Iterable[HeaderField], structure: Structure, title: str
) -> str | None:
    """The genre the document's structure fits best, None when it fits none (score < 3)."""
    # a page whose parts sit one level down (an issue's "### Incident report" over "#### Impact")
    # is read two levels below its top, as others are read to their third
    top = min((section.level for section in structure.sections[1:] if section.level >= 2), default=2)
    keys = [_sign_key(section_key(structure.title(section)))
            for section in structure.sections[1:] if section.level <= max(3, top + 1)]
    field_keys = {f.key for f in fields}
    scores = dict.fromkeys(GENRES, 0)
    for genre in GENRES:
        signs = _SECTION_SIGNS[genre]
        seen = {key for key in keys if key in signs}
        scores[genre] += len(seen) + len(seen & _KEY_SECTIONS[genre])
    for genre, signs in _STYLE_SIGNS.items():
        seen = {key for key in keys if key in signs}
        scores[genre] += len(seen) + len(seen & _STYLE_KEY_SIGNS)
    arc42 = {key for key in keys if key in _ARC42_SIGNS}
    scores[ARCHITECTURE] += len(arc42) + len(arc42 & _ARC42_KEY_SIGNS)
    proposal_meta = {k for k in field_keys if k.replace(" ", "-") in _PROPOSAL_META}
    proposal_meta |= {k for k in field_keys if _SERIES_KEY_RE.search(k)}  # "Harbourline Internal RFC: HIR-23"
    # "last_updated" alone is any page's metadata (a TechDocs page's), not a KEP's
    scores[PROPOSAL] += 3 * bool(proposal_meta - _ANY_PAGE_META) + 2 * bool(field_keys & _PROPOSAL_FIELDS)
    scores[POSTMORTEM] += 3 * bool(field_keys & _POSTMORTEM_FIELDS)
    scores[MINUTES] += 3 * bool(field_keys & _MINUTES_FIELDS)
    scores[RUNBOOK] += 3 * bool(field_keys & _RUNBOOK_FIELDS) + 2 * bool(field_keys & RUNBOOK_USE_FIELDS)
    for genre in _tagged_genres(fields, structure):
        scores[genre] += 3
    scores[POSTMORTEM] += sum(bool(_INCIDENT_HEADING_RE.search(key)) for key in keys if key not in
                              _SECTION_SIGNS[POSTMORTEM]) + 2 * _tells_an_incident(structure)
    scores[POSTMORTEM] += 2 * _names_itself_an_incident_review(structure)
    # an incident report in any template: its event or cause, its impact, its actions
    scores[POSTMORTEM] += 3 * holds_an_incident(keys, field_keys)
    # an e-mail's subject line is its title ("Subject: Postmortem: quote engine timeouts")
    subject = next((plain_text(f.value) for f in fields if f.key == "subject"), "")
    for genre, pattern in _TITLE_SIGNS:
        if pattern.search(title) or (subject and pattern.search(subject)):
            scores[genre] += 2
    if _DECISION_LOG_TITLE_RE.search(title):  # a log of decisions says so: it outweighs a system's
        scores[MINUTES] += 2                   # name in it ("Outage Systems - decision log")
    if dated_entries(structure) >= 2:  # a log kept in one page, an entry a day
        scores[MINUTES] += 2
    if _looks_like_alert(title) and scores[RUNBOOK]:
        scores[RUNBOOK] += 2
    for genre, score in _body_signs(structure).items():
        scores[genre] += score
    best = max(GENRES, key=lambda genre: (scores[genre], -GENRES.index(genre)))
    return best if scores[best] >= 3 else None


def _tagged_genres(fields: Iterable[HeaderField], structure: Structure) -> set[str]:
    """The genres a page's tags name: its front matter's `tags:` or `labels:`, or a heading that
    lists them (HackMD's `###### tags: ` then each tag in backticks)."""
    texts = [f.value for f in fields if f.key in _TAG_KEYS]
    texts += [title for section in structure.sections[1:3]
              if _TAGS_HEADING_RE.match(title := structure.title(section))]
    return {_GENRE_TAGS[word] for text in texts for word in re.findall(r"[\w-]+", text.lower())
            if word in _GENRE_TAGS}


_TAGS_HEADING_RE = re.compile(r"^tags:\s", re.I)


def decision_entries(structure: Structure, *, plain: bool = False) -> int:
    """How many lines are a log entry's bold `**Decision:**` field; `plain`: its unadorned
    `Decision:` too (a log's entry, not what an index page writes; a meeting's notes write it too)."""
    bold = sum(bool(_DECISION_FIELD_RE.match(structure.visible[index][1]))  # the field's name is bold
               for index in structure.holding("**", "__"))
    if not plain:
        return bold
    return bold + sum(bool(_PLAIN_DECISION_FIELD_RE.match(line)) for _, line in structure.visible
                      if line[:1] in "Dd")


def dated_entries(structure: Structure) -> int:
    """How many sections open with a day ("### 2025-02-11 — ...", "## 22/04/2025: ...")."""
    return sum(_DATED_HEADING_RE.match(structure.title(section)) is not None
               for section in structure.sections[1:])


def dated_entry_title(title: str) -> str | None:
    """A log entry's title after the day its heading opens with ("2025-01-20 - Terraform state in
    one storage account" -> "Terraform state in one storage account"), None if it opens with none."""
    match = _DATED_HEADING_RE.match(title)
    rest = title[match.end():].lstrip(" \t-–—:|,") if match else ""
    return rest or None


def decision_rows(structure: Structure) -> list[int]:
    """The rows of a decision log kept as one table: a table whose header names a Decision
    column (`| Date | Decision | Owner | Status |`), each row that opens with a day in its first
    or second cell (`| 2024-06-03 | Replace ... |`, `| DEC-1 | 2024-02-05 | ... |`)."""
    rows: list[int] = []
    decisions = False  # does the current table's header name a Decision column?
    visible = structure.visible
    for index in sorted(structure.holding("|")):  # (a row holds a bar: the other lines are no row)
        number, line = visible[index]
        if line.lstrip().startswith("|"):
            previous = visible[index - 1][1] if index else ""
            if not previous.lstrip().startswith("|"):
                decisions = _DECISION_COLUMN_RE.search(line) is not None
            elif decisions and _DATED_ROW_RE.match(line):
                rows.append(number)
    return rows


# A day as a log's entry opens with it: 2025-02-11, 22/04/2025, 3 June 2024.
_DAY = (r"(?:(?:19|20)\d{2}-\d{1,2}-\d{1,2}|\d{1,2}[/.]\d{1,2}[/.](?:19|20)?\d{2}"
        r"|\d{1,2}\s+[A-Z][a-z]{2,8}\.?\s+(?:19|20)\d{2})")
_DATED_HEADING_RE = re.compile(r"^\W*" + _DAY + r"\b")


# An entry of a decision log kept as a list: an item that opens with the entry's id and its day
# ("- **BD-4** (2026-01-12) Seat holds move to ...", "* DEC-7 — 3 June 2024: ...").
_LOG_ITEM_RE = re.compile(r"^\s{0,3}[-*+][ \t]+(?:\*\*|__)?(?P<id>[A-Z][A-Za-z]{0,7}-?\d{1,5})(?:\*\*|__)?"
                          r"[ \t:.,—–-]{0,4}\(?" + _DAY + r"\b")


def log_item_id(line: str) -> str | None:
    """The id of the entry `line` opens in a decision log kept as a list (its id, then its
    day: "BD-4" of "- **BD-4** (2026-01-12) ..."), None for any other line."""
    match = _LOG_ITEM_RE.match(line) if line.lstrip()[:1] in "-*+" else None
    return match["id"] if match else None


def is_log_item(line: str) -> bool:
    """Does `line` open an entry of a decision log kept as a list?"""
    return log_item_id(line) is not None


def log_item_ids(structure: Structure) -> set[str]:
    """The ids of the entries of a decision log kept as a list: the log's own numbering."""
    return {found for _, line in structure.visible if (found := log_item_id(line)) is not None}


def log_items(structure: Structure) -> int:
    """How many list items open with a log entry's id and day, or with a day and the word that
    says it was decided ("- **2026-02-17 — decided:** litho goes back to ..."): a log kept as
    a list whose entries are named by their day alone."""
    return len(log_item_ids(structure)) + dated_decision_items(structure)


# A log entry named by its day: the day, then what it is ("2026-02-17 — decided:", "3 June 2024,
# decision:"); a timeline's dated item tells what happened, not a decision.
DAY_PATTERN = _DAY
_DECIDED_AFTER_DAY_RE = re.compile(r"[ \t:.,—–-]{0,4}(?:decided|decision|agreed)\b", re.I)


def dated_decision_items(structure: Structure) -> int:
    """How many list items open with a day and the word that says it was decided (dated items,
    is_dated_item, whose day is followed by "decided", "decision" or "agreed")."""
    return sum(_DECIDED_AFTER_DAY_RE.match(line, match.end("day")) is not None
               for _, line in structure.visible
               if line.lstrip()[:1] in "-*+" and (match := _DATED_ITEM_RE.match(line)) is not None)


# An entry of a decision log kept as a list with no ids: an item that opens with its day and
# goes on in words ("- **2026-02-17 — decided:** litho bay goes back to ..."), not with a link (an
# index page's "- 2023-03-03 [ADR-7: Use Kafka](..)" lists records kept elsewhere).
_DATED_ITEM_RE = re.compile(r"^\s{0,3}[-*+][ \t]+(?:\*\*|__)?(?P<day>" + _DAY + r")\b[^\[\w]{0,12}[^\W\d]")


def is_dated_item(line: str) -> bool:
    """Does `line` open a list item with a day and go on in words (a log's entry, when the page
    holds two or more: dated_items)?"""
    return line.lstrip()[:1] in "-*+" and _DATED_ITEM_RE.match(line) is not None


def dated_items(structure: Structure) -> int:
    """How many list items open with a day and go on in words (a log's entries)."""
    return sum(is_dated_item(line) for _, line in structure.visible)


_DATED_ROW_RE = re.compile(r"^\s*\|(?:[^|\n]{0,20}\|)?[ \t]*(?:\*\*)?" + _DAY + r"(?:\*\*)?[ \t]*\|")
_DECISION_COLUMN_RE = re.compile(r"\|\s*(?:\*\*)?decisions?\b", re.I)


# A table that lists components and what each does (`| component | responsibility |`).
# A C4 container table names the technology between (`| Container | Technology | Responsibility |`).
_COMPONENT_TABLE_RE = re.compile(
    r"^\s*\|\s*(?:components?|containers?|services?|systems?|modules?)\s*\|(?:[^|]{0,40}\|){0,2}?"
    r"\s*(?:responsibilit(?:y|ies)|role|purpose|what it does|description)\s*\|", re.I)
# A decision log's entry (`**Decision:** We adopt Renovate ...`), not a meeting's "Decision: see".
_DECISION_FIELD_RE = re.compile(r"^\s*(?:[-*+]\s+)?(?:\*\*|__)decision(?:\*\*|__)?\s*:", re.I)
_PLAIN_DECISION_FIELD_RE = re.compile(r"^decision:\s+\S", re.I)


def _body_signs(structure: Structure) -> dict[str, int]:
    """Signs in the body: a components table (an architecture page's), two or more bold
    `**Decision:**` entries (a decision log's, kept in one file)."""
    signs: dict[str, int] = {}
    barred = [structure.visible[index] for index in sorted(structure.holding("|"))]  # a table's rows
    if any(_COMPONENT_TABLE_RE.match(line) for _, line in barred):
        signs[ARCHITECTURE] = 3
    if has_troubleshooting_table(barred):  # `| Problem | Likely cause | Fix |`
        signs[RUNBOOK] = 3
    if how_questions(structure) >= MIN_HOW_QUESTIONS:  # an FAQ: "How do I add a broker?"
        signs[RUNBOOK] = 3
    elif questions(structure) >= MIN_QUESTIONS:  # an FAQ of Q/A pairs: worth one, an operations
        signs[RUNBOOK] = 1                        # FAQ's title or sections say the rest
    if radar_rings(structure) >= 3:  # a technology radar: Adopt / Trial / Assess / Hold
        signs[ARCHITECTURE] = 3
    if _system_questions(structure) >= 3:  # a system's page as questions: "What does it do?"
        signs[ARCHITECTURE] = 3
    if len(update_states(structure)) >= MIN_UPDATES:  # a status page's incident: `**Resolved** - ...`
        signs[POSTMORTEM] = 3
    if (decision_entries(structure) >= 2 or len(decision_rows(structure)) >= 2
            or dated_decision_items(structure) >= 2):
        signs[MINUTES] = 3  # a decision log kept in one file, in one table, or as dated items
    return signs


# A heading that asks what a system is, in the present tense ("What does it do?", "Who owns it?",
# "What depends on it?", "Where does it run?"); a postmortem asks in the past ("How did it happen?").
_SYSTEM_QUESTION_RE = re.compile(
    r"^(?:what|who|where|how)\s+(?:(?:does|do|is)\s+it\b|(?:owns|runs|uses|calls|depends\s+on|reads|writes)"
    r"\s+(?:to\s+)?it\b)")


def _system_questions(structure: Structure) -> int:
    """How many of the page's headings ask what its system is or does."""
    return sum(_SYSTEM_QUESTION_RE.match(section_key(structure.title(section))) is not None
               for section in structure.sections[1:])


# A free-form write-up's headings that tell an incident ("How we fixed it", "What we are changing").
_INCIDENT_HEADING_RE = re.compile(
    r"\b(?:went wrong|fixed|fix it|root cause|outage|incident|downtime|recurrence|we(?: are|'re) changing"
    r"|took so long|prevent)\b")
# The opening of an incident write-up: a day, a time of day, and what broke ("On Saturday 3 June
# 2023 at around 10:00 UTC our builds started failing").
_DAY_RE = re.compile(
    r"\b(?:\d{4}-\d{2}-\d{2}|\d{1,2}(?:st|nd|rd|th)?\s+(?:January|February|March|April|May|June|July"
    r"|August|September|October|November|December)|(?:January|February|March|April|May|June|July"
    r"|August|September|October|November|December)\s+\d{1,2}(?:st|nd|rd|th)?)\b")
_CLOCK_RE = re.compile(r"\b(?:[01]?\d|2[0-3]):[0-5]\d\b")
_BROKE_RE = re.compile(
    r"\b(?:fail(?:ed|ing|ures?)?|outage|down|unavailable|degraded|errors?|broke|broken|delayed"
    r"|could not|couldn't|incident|stopped|timed\s+out|time-?outs?"
    r"|rejected|dropped|lost|stalled|stuck)\b", re.I)


def _tells_an_incident(structure: Structure) -> bool:
    """Does the document open (before its first section, or in that section's first lines) by
    telling when something broke: a day, a time of day and a word of failure in one paragraph?"""
    opening = structure.sections[1] if len(structure.sections) > 1 else None
    lines = [text for _, text in structure.lines(structure.sections[0])]
    if opening is not None:
        own = [text for _, text in structure.lines(opening)]
        # a write-up without headings (a blog post) tells it in its first paragraphs, after a byline
        lines += own[:8] if len(structure.sections) > 2 else _paragraphs("\n".join(own))[:_OPENING_PARAGRAPHS]
    for paragraph in _paragraphs("\n".join(lines)):
        if _DAY_RE.search(paragraph) and _CLOCK_RE.search(paragraph) and _BROKE_RE.search(paragraph):
            return True
    return False


_OPENING_PARAGRAPHS = 4


def _paragraphs(text: str) -> list[str]:
    return [paragraph for paragraph in text.split("\n\n") if paragraph.strip()]


# A write-up that names what it is in its opening ("This post-incident review is final", "In this
# postmortem we ...", "the write-up of Tuesday's outage").
_SELF_NAMED_INCIDENT_RE = re.compile(
    r"\b(?:this|our)\s+(?:post-?incident\s+(?:review|report)|post-?mortem|incident\s+(?:report|review)"
    r"|outage\s+report)\b"
    # a mail's "Here is the promised write-up of Tuesday's seat reservation outage"
    r"|\bwrite-?up\s+(?:of|on|about)\s+(?:[\w'’-]+\s+){0,5}?(?:outage|incident)s?\b"
    # an e-mail's "A short write-up of this afternoon's outage"
    r"|\b(?:a|this|our)\s+(?:(?:short|quick|brief|first)\s+)?write-?up\s+(?:of|on|about)\b", re.I)


def names_itself(line: str) -> bool:
    """Does the line call its document an incident review ("This post-incident review is
    final; ...")? Such a paragraph is about the document, not the incident."""
    # a cheap literal gate first
    gate = "ncident" in line or "ortem" in line or "utage" in line or "rite" in line
    return gate and _SELF_NAMED_INCIDENT_RE.search(line) is not None


def _names_itself_an_incident_review(structure: Structure) -> bool:
    """Does the document's opening (its first lines before a second heading) call itself an
    incident review?"""
    lines = [text for number, text in structure.visible[:_SELF_NAMED_LINES]
             if number not in structure.heading_lines]
    return any(names_itself(line) for line in lines)


_SELF_NAMED_LINES = 12


_SUFFIX_SIGNS = frozenset({"configuration", "sharding", "endpoints", "architecture", "components"})


# A numbered stage of a procedure as its heading ("Procedure 1: Pre-checks (T-24h)", "Step 3 - Verify").
_STAGE_TITLE_RE = re.compile(
    r"^(?P<stage>procedure|stage|step|phase|part)\s+\d{1,2}\s*[:.)–—-]\s*(?P<part>\S.*)$")


def _sign_key(key: str) -> str:
    """A heading as the sign it is: "How compaction works" -> "how it works", "Compactor
    configuration" -> "configuration", "Immediate actions (completed)" -> "immediate actions"; a
    numbered stage of a procedure ("Procedure 4: Escalation", "Procedure 2: Opening a wave") is the
    part it names, else a procedure."""
    stage = _STAGE_TITLE_RE.match(key)
    if stage is not None:
        part = _sign_key(stage["part"])
        named = any(part in signs for signs in _SECTION_SIGNS.values())
        # a numbered step of a procedure ("Step 1: Read the reason code") is a procedure's
        return part if named or stage["stage"] not in ("procedure", "step") else "procedure"
    key = re.split(r"\s*[(:,\[]", key, maxsplit=1)[0].strip().rstrip("?")
    if re.fullmatch(r"how\s.+\swork(?:s|ed)?", key) or re.match(r"how\s(?:it|they)\s", key):
        return "how it works"
    if key.startswith(("structure of", "format of")):
        return key.split()[0]
    words = key.split()
    if len(words) >= 2 and words[-1] in _SUFFIX_SIGNS:
        return words[-1]
    if len(words) >= 2 and words[-1] in _QUALIFIERS and key not in _ALL_SIGNS:
        base = " ".join(words[:-1])  # "Mitigation summary", "Escalation steps": the part they qualify
        return base if base in _ALL_SIGNS else key
    return key


# Words a heading adds after a part's name to say how it is told ("Mitigation summary", "Impact
# details", "Escalation steps", "Resolution notes"): the heading is that part.
_QUALIFIERS = frozenset({"summary", "details", "notes", "steps", "overview", "section", "process"})
_ALL_SIGNS = frozenset(sign for signs in _SECTION_SIGNS.values() for sign in signs)


def _looks_like_alert(title: str) -> bool:
    """An alert's name as a title: one CamelCase word ("KubeAPIDown", "etcdNoLeader")."""
    return bool(re.fullmatch(r"[A-Za-z]+[A-Z][A-Za-z0-9]*", title.strip()))


# Every word of the genres' template headings ("root", "cause", "action", "items", ...): never a
# subject on its own (tasks/extract/genre_subjects.py).
TEMPLATE_WORDS = frozenset(
    word
    for table in (_SECTION_SIGNS, _KEY_SECTIONS)
    for signs in table.values()
    for sign in signs
    for word in sign.split()
)
