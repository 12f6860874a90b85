"""Signs of a genre from what a document holds, whatever its template calls the parts (pure).

An incident report states an event that happened: when it happened, what it cost, why, and what
is done so it does not happen again. Teams write it in many templates beside the postmortem's
(an A3's Current condition / Root cause analysis / Countermeasures; an 8D's disciplines; a CAST
analysis's Losses / Proximate events / Recommendations; an occurrence, near-miss or deviation
report's Date of occurrence / Root cause / Corrective and preventive actions (CAPA); an RFO
notice's Event start / Impact / Preventive actions; an ITIL problem record). Each of those parts
is recognised by the words its headings and fields use across those templates, and a document
that holds most of them is an incident report.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

# The event: when it happened ("Date of occurrence", "Event start", "Incident time", "Loss
# event"), or its story told in order; a field only about the event ("Current status of the
# incident") says nothing of when.
_EVENT = r"(?:occurrence|event|incident|outage|near[- ]miss|deviation)"
_EVENT_FIELD_RE = re.compile(
    rf"^(?:(?:date|time|day|start)\s+(?:and\s+time\s+)?of\s+(?:the\s+)?{_EVENT}|{_EVENT}\s+(?:date|time|start|began|no)"
    rf"|(?:loss\s+)?{_EVENT})\b")
_EVENT_HEADING_RE = re.compile(
    r"\b(?:timeline|chronology|sequence\s+of\s+events|(?:proximate\s+)?events|narrative|what\s+happened)\b")
# What it cost: impact, losses, consequences, harm, the condition found.
_IMPACT_RE = re.compile(
    r"\b(?:impact|loss(?:es)?|consequences?|harm|hazards?|damage|current\s+condition|risk\s+(?:index|assessment))\b")
# Why it happened.
_CAUSE_RE = re.compile(r"\b(?:causes?|causal|contributing\s+factors?|whys|why\s+it\s+happened)\b")
# What is done about it: corrective or preventive actions, countermeasures, recommendations.
_ACTION_RE = re.compile(
    r"\b(?:corrective|preventive|preventative|countermeasures?|capa|recommendations?|remediation"
    r"|follow-?ups?|action\s+items?|actions\s+taken)\b")

EVENT = "event"
IMPACT = "impact"
CAUSE = "cause"
ACTION = "action"
# Of the four parts, an incident report holds at least this many, one of them its actions and
# another what happened or why (a proposal's Risks and Consequences and Follow-up are no incident).
MIN_INCIDENT_PARTS = 3


def incident_parts(headings: Iterable[str], field_keys: Iterable[str]) -> set[str]:
    """The parts of an incident report among a document's section keys (section_key's spelling)
    and its header fields' keys (field_key's)."""
    parts: set[str] = set()
    headings = list(headings)
    keys = list(field_keys)
    if any(_EVENT_FIELD_RE.search(key) for key in keys) or any(
            _EVENT_HEADING_RE.search(heading) for heading in headings):
        parts.add(EVENT)
    for part, pattern in ((IMPACT, _IMPACT_RE), (CAUSE, _CAUSE_RE), (ACTION, _ACTION_RE)):
        if any(pattern.search(text) for text in (*headings, *keys)):
            parts.add(part)
    return parts


def holds_an_incident(headings: Iterable[str], field_keys: Iterable[str]) -> bool:
    """Does the document hold the parts of an incident report: its actions, what happened or
    why, and a third of the four (event, impact, cause, action)?"""
    parts = incident_parts(headings, field_keys)
    return (len(parts) >= MIN_INCIDENT_PARTS and ACTION in parts
            and bool(parts & {EVENT, CAUSE}))
