"""A stated status as the `Status: ...` observation records it (pure): the status itself, with
the text as written kept beside it when that says more.

A status field often carries when and by whom it was reached: "Accepted (2025-03-12)",
"Decided, 2025-04-09.", "accepted on September 1, 2026", "Accepted (expires 2025-12-31)",
"Recommendation accepted by the programme board on March 17th, 2025", "approved for the 2024.2
release cycle (Station Systems review, 18 March 2024)" (the release it was reached for), or a
list of the steps a record went through, the last one current ("Proposed (2021-09-02);
Accepted (2021-10-01)", as the ADRs that record "each status, along with the date it came into
force" write it; "Proposed -> Accepted"; "~~Proposed~~ Accepted", the steps left struck
through). The status is the words up to the status word; the rest is kept as written:
`Status: Accepted (written "Accepted (2025-03-12)")`. A clause that says more than when or by
whom ("Final, reviewed at the weekly on 2025-03-18", "Approved with conditions") is part of the
status and stays. A replacement named by its number and its title ("Replaced by CEP-0014: FHIR
Subscriptions for result notification") is named by its number.
"""

from __future__ import annotations

import re

from tasks.extract.model import ObservationFact
from tasks.extract.text import shorten
from tasks.record_dates import find_date

# The words a status ends with (genre_meta.STATUS_WORDS and the words of approval that records
# and pages use); "superseded" / "replaced" are followed by what replaced them, never cut there.
_STATUS_WORDS = (
    "implemented", "implementable", "accepted", "approved", "final", "active", "rejected", "declined",
    "withdrawn", "deferred", "postponed", "deprecated", "obsolete", "abandoned", "proposed",
    "provisional", "draft", "in review", "under review", "resolved", "closed", "open", "completed",
    "complete", "done", "decided", "agreed", "adopted", "ratified", "published", "endorsed",
    "mitigated", "merged", "shipped", "retired", "archived",
    # an experiment's state, as experimentation platforms show it (Optimizely, LaunchDarkly,
    # GrowthBook: "Running", "Paused", "Stopped")
    "running", "paused", "stopped",
)
_LEADING_STATUS_RE = re.compile(
    r"^(?P<status>(?:[A-Za-z-]{1,20}\s){0,2}?(?:" + "|".join(_STATUS_WORDS) + r"))\b(?P<rest>.*)$", re.I)
# A date-only remainder: ", 2025-04-09.", " on 3 May 2021", " - since 2024-01-10".
_DATE_CLAUSE_RE = re.compile(
    r"^[\s,;:–—-]{0,4}(?:(?:on|since|as\s+of|effective|from|in)\s+)?(?P<date>[\w ,/.-]{4,40}?)[\s.]*$", re.I)
# An aside in brackets at the end: "(2025-03-12)", "(expires 2025-12-31)", "(see below)".
_ASIDE_RE = re.compile(r"^\s*\((?P<aside>[^()]{1,80})\)[\s.;,]*(?P<after>.*)$")
# Who reached it, and when: " by the programme board on March 17th, 2025", " by user (2026-08-28)".
# The release or cycle a status was reached for ("approved for the 2024.2 release cycle").
_FOR_RELEASE_RE = re.compile(
    r"^\s+for\s+(?:the\s+)?(?:[\w.-]{1,20}\s+){1,3}?(?:release|cycle|milestone|sprint)(?:\s+cycle)?\b", re.I)
# A comma before the date too: " by the Architecture Board, 11 March 2025".
_BY_RE = re.compile(
    r"^\s+by\s+(?P<who>[^()\d\[\]]{2,60}?)\s*(?:\bon\s+|\(|,\s*)(?P<date>[^()]{4,40})\)?", re.I)
# A status list's steps ("Proposed (2021-09-02); Accepted (2021-10-01)", "Proposed -> Accepted").
_STEP_SPLIT_RE = re.compile(r"\s*(?:;|->|=>|→|⟶)\s*")
# A step struck through ("~~Proposed~~ Accepted"): a status the record has left.
_STRUCK_RE = re.compile(r"~~[^~]{1,60}~~")
# "Replaced by CEP-0014: FHIR Subscriptions ..." (a link's text: the record's number and title).
_REPLACED_BY_RE = re.compile(
    r"^(?P<head>(?:superseded|replaced|obsoleted)\s+by\s+\[?(?P<id>[A-Z][A-Za-z]{0,9}[- ]?\d{1,5}))"
    # its title after the id, or an aside or a sentence ("Superseded by ADR-019 (June 2024). Kept.")
    r"(?:(?:\s*:|\s+[-–—])\s+\S|\s*\(|\.(?:\s|$))", re.I)
# The next field of the same line ("accepted (2026-08-09). Scope: events.").
_NEXT_FIELD_RE = re.compile(r"\.\s+(?=[A-Z][A-Za-z ]{1,25}:\s)")
_NOT_CUT_BY = ("superseded", "replaced", "obsolete", "deprecated")
# A retired status that points to its successor after a dash ("Superseded — see ADR 12").
_RETIRED_SEE_RE = re.compile(r"^(?P<status>superseded|replaced|obsolete|deprecated)\s*[–—-]\s*see\b", re.I)


# The label a status line opens with ("Current state: Under Discussion", as the KIP and FLIP
# templates write their Status section; "**State:** Accepted"): the field's name, not its value.
STATE_LABEL_RE = re.compile(r"^[*_ \t]*(?:current[ \t]+)?(?:state|status)[*_ \t]*:[*_ \t]*", re.I)


def status_observation(value: str, start: int, end: int) -> ObservationFact:
    """The `Status:` observation of a status as written on lines `start`-`end`."""
    written = " ".join(value.split())
    written = STATE_LABEL_RE.sub("", written, count=1) or written
    status = normalised_status(written)
    text = f"Status: {shorten(status, 200)}"
    if status != written:
        text += f' (written "{shorten(written, 160)}")'
    return ObservationFact(text, start, end, "status")


# A status field that points elsewhere instead of stating one ("Status: see the checklist below",
# "Status: refer to the tracker"): no status (the words it points to are not the page's).
_POINTER_RE = re.compile(r"^\W{0,3}(?:see|refer\s+to|described|tracked)\b", re.I)


def is_status_word(text: str) -> bool:
    """`text` is a status and nothing more ("Final", "In review", "Approved.")."""
    leading = _LEADING_STATUS_RE.match(text.strip())
    return leading is not None and not leading["rest"].strip(" .")


def is_pointer(value: str) -> bool:
    """A status field's value that only points to where the status is."""
    return _POINTER_RE.match(value) is not None


def normalised_status(written: str) -> str:
    """The status a stated status text names (see the module's docstring); the text itself when
    it is all status."""
    text = _NEXT_FIELD_RE.split(written, maxsplit=1)[0].strip()
    if "~~" in text:  # a literal gate first
        text = _STRUCK_RE.sub("", text).strip(" ,;") or text
    steps = [step for step in _STEP_SPLIT_RE.split(text) if step]
    if len(steps) > 1 and all(_LEADING_STATUS_RE.match(step) for step in steps):
        text = steps[-1]  # the last step a record went through is its status
    replaced = _REPLACED_BY_RE.match(text)
    if replaced:
        return replaced["head"].replace("[", "")
    retired = _RETIRED_SEE_RE.match(text)
    if retired:  # "Superseded — see "Customs API v2" (Loomio, Nov 2026)": where to read on
        return retired["status"]
    leading = _LEADING_STATUS_RE.match(text)
    if leading is None:
        return _SENTENCE_STOP_RE.sub("", text)  # "Superseded by ADR 12 on 2025-11-03."
    status, rest = leading["status"], leading["rest"]
    if not rest.strip(" .") or _is_qualifier(status, rest):
        return status
    return text


# A sentence's full stop after the status's last word or number.
_SENTENCE_STOP_RE = re.compile(r"(?<=[a-z0-9])\.$")
# What replaced the document, after its status ("Withdrawn, replaced by [Carrier rates v2](..)"):
# a link the page states (genre_links), not part of the status.
_REPLACED_CLAUSE_RE = re.compile(
    r"^[\s,;:–—-]{1,4}(?:and\s+)?(?:replaced|superseded|obsoleted)\s+by\s+\S", re.I)


# A note after a dash that points elsewhere or tells the reader what to do ("Superseded — see
# "Customs API v2" (Loomio)", "Draft – for the Wednesday review, please comment inline").
_NOTE_CLAUSE_RE = re.compile(r"^[\s,;:]*[–—-]\s*(?:see|for|please)\b", re.I)
# What a draft waits for, after a comma ("Draft, for approval at the next CAB", "Draft, pending
# sign-off by the board"), as minutes and committee papers write it: the step to come, not a status.
_PENDING_CLAUSE_RE = re.compile(
    r"^\s*,\s*(?:(?:for|pending|awaiting)\s+(?:approval|review|sign-?off|ratification|confirmation|comments?"
    r"|agreement|adoption)|to\s+be\s+(?:approved|agreed|confirmed|ratified))\b", re.I)
_WAITING_STATUSES = ("draft", "proposed", "in review", "under review")
# A short note after a spaced dash that follows the state ("Closed — monitoring in place",
# "Resolved – follow-ups tracked in Jira"), as a form's answer or a tracker's field adds one.
_DASH_NOTE_RE = re.compile(r"^\s+[–—]\s+(?P<note>[^()\[\]]+?)[\s.]*$")
_NOTE_WORDS = 8
_ANY_STATUS_RE = re.compile(r"\b(?:" + "|".join((*_STATUS_WORDS, *_NOT_CUT_BY)) + r")\b", re.I)
# A draft's version in brackets ("DRAFT (v0.3)", "Draft (version 2)", "In review (rev. 4)").
_VERSION_RE = re.compile(
    r"^(?:v\d+(?:\.\d+)*|\d+\.\d+(?:\.\d+)?|(?:version|rev\.?|revision)\s*\d+(?:\.\d+)*)$")


def _is_qualifier(status: str, rest: str) -> bool:
    """`rest` only says when (or by whom and when) `status` was reached, what replaced it, which
    version reached it, or where to read on."""
    if _REPLACED_CLAUSE_RE.match(rest) or _NOTE_CLAUSE_RE.match(rest):
        return True
    if _PENDING_CLAUSE_RE.match(rest) and status.lower().endswith(_WAITING_STATUSES):
        return True
    note = _DASH_NOTE_RE.match(rest)
    if note and len(note["note"].split()) <= _NOTE_WORDS and not _ANY_STATUS_RE.search(note["note"]):
        return True  # "Closed — monitoring in place": what follows the state, not another state
    aside = _ASIDE_RE.match(rest)
    if aside:
        said = aside["aside"].strip().lower()
        if _VERSION_RE.match(said):
            return not aside["after"].strip(" .;,") or _is_qualifier(status, " " + aside["after"])
        return not aside["after"].strip() and (said.startswith("see ") or find_date(said, None) is not None
                                               or _has_month_date(said))
    date_clause = _DATE_CLAUSE_RE.match(rest)
    if date_clause and (find_date(date_clause["date"], None) or _has_month_date(date_clause["date"])):
        if _only_date(date_clause["date"]):
            return True
    release = _FOR_RELEASE_RE.match(rest)
    if release:  # "approved for the 2024.2 release cycle", perhaps with an aside after it
        after = rest[release.end():]
        return not after.strip(" .;,") or _is_qualifier(status, after)
    by = _BY_RE.match(rest)
    return bool(by and not status.lower().endswith(_NOT_CUT_BY)
                and (find_date(by["date"], None) or _has_month_date(by["date"])))


_MONTH_DATE_RE = re.compile(r"\b(?:19|20)\d{2}-\d{2}\b")
_DATE_WORDS_RE = re.compile(
    r"^(?:\d{1,4}(?:st|nd|rd|th)?|of|jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?"
    r"|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?"
    r"|mon|tue|wed|thu|fri|sat|sun|[a-z]+day|\d{4}[-/.]\d{1,2}(?:[-/.]\d{1,2})?|\d{1,2}[/.-]\d{1,2}[/.-]\d{2,4})\.?$",
    re.I)


def _has_month_date(text: str) -> bool:
    return _MONTH_DATE_RE.search(text) is not None


def _only_date(text: str) -> bool:
    """Every word of `text` is a word of a date ("March 17th, 2025", "Tue 3 Mar 2026")."""
    words = [word.strip(",") for word in text.split()]
    return bool(words) and all(_DATE_WORDS_RE.match(word) for word in words if word)


# Where else a page writes its status than in a `Status:` field.
# A status mark in a title: "[ACCEPTED] Use Kafka", "Use Kafka [Draft]", "Use Kafka (Superseded)".
TITLE_MARK_WORDS = ("superseded", "deprecated", "rejected", "proposed", "accepted", "approved", "draft",
                    "withdrawn", "deferred", "final", "implemented", "obsolete", "abandoned", "wip",
                    # a wiki page kept for the record ("Runbook: Solr restarts (RETIRED)")
                    "retired", "archived")
TITLE_MARK_RE = re.compile(r"\s*\[(?:" + "|".join(TITLE_MARK_WORDS) + r")\]\s*", re.I)
_TITLE_MARK_RE = re.compile(
    r"\[(?P<bracket>" + "|".join(TITLE_MARK_WORDS) + r")\]|\((?P<paren>" + "|".join(TITLE_MARK_WORDS)
    + r")\)\s*$"
    # the mark after a dash that ends the title ("Retry budgets — DRAFT", "Payments API - Deprecated")
    + r"|\s[—–-]\s+(?P<dash>" + "|".join(TITLE_MARK_WORDS) + r")\s*$"
    # the mark before a colon that opens the title ("DRAFT: Move search to OpenSearch")
    + r"|^(?P<prefix>" + "|".join(TITLE_MARK_WORDS) + r"):\s+\S", re.I)


def title_status(title: str) -> str | None:
    """The status a title's mark states ("[ACCEPTED] Use Kafka" -> ACCEPTED, "Retry budgets —
    DRAFT" -> DRAFT, "DRAFT: Retry budgets" -> DRAFT), None for none."""
    stripped = title.rstrip()
    marked = (stripped.endswith(")") or ":" in title[:16]
              or any(mark in title for mark in ("[", "—", "–", " - ")))
    match = _TITLE_MARK_RE.search(title) if marked else None
    if match is None:
        return None
    return match["bracket"] or match["paren"] or match["dash"] or match["prefix"]


# A shields.io badge whose label is the status ("![status](https://img.shields.io/badge/status-accepted-green)"):
# its message, with the badge's escapes undone ("--" a dash, "_" a blank, "%20" a blank).
_BADGE_RE = re.compile(
    r"img\.shields\.io/(?:static/v1\?label=|badge/)(?P<label>status|state|stage|lifecycle)"
    r"(?:-|&message=)(?P<message>[A-Za-z0-9_% ]{1,40}(?:--[A-Za-z0-9_% ]{1,40})?)(?:-|&color=)[A-Za-z0-9]",
    re.I)


def badge_status(line: str) -> str | None:
    """The status a status badge on `line` shows, None for a line without one."""
    match = _BADGE_RE.search(line) if "shields.io" in line else None  # a literal gate first
    if match is None:
        return None
    return match["message"].replace("--", "-").replace("%20", " ").replace("_", " ").strip() or None


# A header line that is a status mark alone, an emoji before it ("✅ **Accepted** · 2024-03-01",
# "🟢 Approved"): the emoji says it is a mark, not a sentence.
_EMOJI_STATUS_RE = re.compile(
    r"^[^\w\s\[(|>*_`#-]{1,3}\s*+(?P<word>" + "|".join(_STATUS_WORDS) + r")\b\s*+(?:[·•|—–-]\s*+\S.*)?$",
    re.I)


def emoji_status(plain_line: str) -> str | None:
    """The status of a header line that is an emoji and a status word (`plain_line` as plain text)."""
    if not plain_line or plain_line[0].isascii():  # a literal gate: an emoji is no ASCII character
        return None
    match = _EMOJI_STATUS_RE.match(plain_line)
    return match["word"] if match else None


# Confluence's status lozenge in wiki markup ("{status:colour=Green|title=ACCEPTED}"), whose bar
# would split a table row's cell in two.
_STATUS_MACRO_RE = re.compile(r"\{status:(?P<options>[^{}]{0,160})\}", re.I)
_MACRO_TITLE_RE = re.compile(r"(?:^|\|)\s*title=(?P<title>[^|]{1,40})")


def without_status_macros(line: str) -> str:
    """`line` with each status lozenge written as its title ("ACCEPTED")."""
    if "{status" not in line.lower():
        return line

    def title(macro: re.Match[str]) -> str:
        found = _MACRO_TITLE_RE.search(macro["options"])
        return found["title"].strip() if found else ""

    return _STATUS_MACRO_RE.sub(title, line)


# The nouns a field's name ends with when it holds where a document stands: its status, state,
# stage or phase (a proposal process), lifecycle (a service catalogue), outcome or verdict (a
# vote, a readiness review) — "Status", "Document state", "Phase", "RFC stage", "Outcome".
_STATE_NOUNS = frozenset({"status", "state", "stage", "phase", "lifecycle", "outcome", "verdict"})
# What the words before that noun may call the document itself or its review ("Document state",
# "Review status", "Proposal stage"); any other word names something the page describes ("Build
# status", "Order state", "Project phase" of a plan's work).
_OWN_NOUNS = frozenset({
    "document", "doc", "page", "proposal", "rfc", "design", "spec", "decision", "adr", "record", "review",
    "approval", "current", "publication", "entry", "report", "runbook", "playbook", "policy", "memo",
    "incident", "postmortem", "writeup", "write up", "article", "plan", "change", "request", "draft",
    # a tracker's workflow: the state its record is in (Shortcut's "Workflow state", Jira's and
    # Azure DevOps' "Workflow status"), a ticket's or a story's
    "workflow", "ticket", "issue", "story", "card",
})
# The words of a state a team gives a document (a field named by the vocabulary above holds one):
# a field that is only named so ("Phase: 2 of 3", "Outcome: faster builds") states none.
STATE_WORD_RE = re.compile(
    r"\b(?:" + "|".join(_STATUS_WORDS) + r"|in\s+progress|not\s+started|on\s+hold|under\s+discussion"
    r"|in\s+discussion|superseded|replaced|investigating|identified|monitoring)\b", re.I)


def names_state(key: str) -> bool:
    """Does a field's key (lower case, as genres.field_key spells it) name the state of the
    document itself: one of the state nouns, alone or after a word for the document?"""
    words = key.split()
    if not words or words[-1] not in _STATE_NOUNS or len(words) > 3:
        return False
    return len(words) == 1 or " ".join(words[:-1]) in _OWN_NOUNS


def states_state(key: str, value: str) -> bool:
    """A field that states the document's state: a key naming its state and a value holding a
    state word ("Document state: Draft", "Phase: Accepted", "Outcome: Rejected by vote")."""
    return names_state(key) and STATE_WORD_RE.search(value) is not None
