"""The label a kept statement's own words give it, where its part's label is only a default (pure).

A reader labels what it keeps by the part it read it in: a meeting's topic sentence is an
Outcome, a Decision section's item a Decision. The statement's own words can say more, in the
conventions every team's notes and records share:

- a meeting's line marked by the notes tool or the scribe as what it records ("ACTION: jun to
  write the checklist", MeetBot's and Zulip's "#action", "TODO:", "AGREED: ...", "#agreed"):
  an Action item or a Decision, whatever section holds it;
- a decision item that turns an option down ("Option 1 rejected because ...", "Why not B: ...",
  "Kafka is ruled out for now"), with no words that choose: the option rejected, kept as
  Rejected beside the Decision (the record's decision reader may have read it so; the words that
  turn it down are what a reader remembers it by);
- an incident summary's sentence that opens with how long the harm lasted ("For about 19 hours no
  output reached the archive"): the impact, kept beside the summary.
"""

from __future__ import annotations

import re
from dataclasses import replace

from tasks.extract.model import ObservationFact

# A scribe's or a notes tool's mark for what the line records: MeetBot's "ACTION:" / "AGREED:"
# (typed "#action", "#agreed"), a scribe's "TODO:", "AI:" (action item), "DECIDED:".
_ACTION_MARK_RE = re.compile(
    r"^\s*(?:#action\b:?|action(?:\s+items?)?\s*:|todo\s*:|to-do\s*:|a\.?i\.?\s*:)\s*\S", re.I)
_DECISION_MARK_RE = re.compile(r"^\s*(?:#agreed\b:?|#decided\b:?|agreed\s*:|decided\s*:)\s*\S", re.I)


def marked_label(statement: str) -> str | None:
    """The part a statement's leading mark names ("ACTION:" -> "Action item", "AGREED:" ->
    "Decision"), or None."""
    if _ACTION_MARK_RE.match(statement):
        return "Action item"
    return "Decision" if _DECISION_MARK_RE.match(statement) else None


# An option turned down: its name and the words that turn it down ("Option 3 is rejected for now",
# "Kafka was ruled out", "Why not B: ..."); not a choice that turns another down in passing.
_TURNED_DOWN_RE = re.compile(
    r"\b(?:rejected|ruled\s+out|turned\s+down|dropped\s+as\s+an\s+option|not\s+chosen|not\s+selected)\b"
    r"|^why\s+not\s+[^:.;]{1,60}:", re.I)
_CHOOSES_RE = re.compile(
    r"\b(?:we\s+(?:will|go\s+with|chose|choose|picked|pick|adopt|selected|select|decided\s+to)"
    r"|(?:is|was|are|were)\s+(?:chosen|selected|adopted|accepted|approved)|go(?:es)?\s+with|instead)\b", re.I)
_DECISION = "Decision: "
_REJECTED = "Rejected: "


# A choice told in the words that make it ("We decided to keep the old checker", "The group agreed to
# drop the column", "Concept B is selected", "We will go with the nightly rebuild").
CHOICE_RE = re.compile(
    r"\b(?:we|the\s+(?:board|team|committee|panel|group|meeting|forum|steering\s+group))\s+"
    r"(?:have\s+|has\s+|then\s+|finally\s+|eventually\s+|unanimously\s+)?"
    r"(?:decided\s+(?:to|that|on)|chose|selected|agreed\s+(?:to(?!\s+disagree)|on|that)|adopted|approved|opted|settled\s+on"
    r"|went\s+with|will\s+go\s+with|go\s+with)\b"
    r"|\b(?:is|are|was|were|has\s+been|have\s+been)\s+(?:selected|chosen|adopted)\b", re.I)


def rejected_decisions(observations: list[ObservationFact]) -> list[ObservationFact]:
    """The observations and, beside each Decision that turns an option down without choosing one,
    the same statement as Rejected (where no Rejected observation holds its lines already)."""
    rejected = {n for fact in observations if fact.text.startswith(_REJECTED)
                for n in range(fact.line_start, fact.line_end + 1)}
    added = [replace(fact, text=_REJECTED + fact.text.removeprefix(_DECISION), kind="detail")
             for fact in observations
             if fact.text.startswith(_DECISION) and _TURNED_DOWN_RE.search(fact.text.removeprefix(_DECISION))
             and not _CHOOSES_RE.search(fact.text)
             and rejected.isdisjoint(range(fact.line_start, fact.line_end + 1))]
    return observations + added


# An incident summary's sentence that opens with how long the harm lasted ("For about 40 minutes no
# ticket sold in the app reached the ledger", "Between 09:03 and 10:41 UTC the API returned errors",
# "From 07:10 to 16:25 on 5 March, nobody could log in"): the impact, as the SRE, PagerDuty and
# Atlassian templates open their summaries.
_TIME = r"\d{1,2}[:.]\d{2}(?:\s*(?:UTC|GMT|BST|CET|CEST|[AP]M))?"
_WINDOW_RE = re.compile(
    r"^(?:for\s+(?:about\s+|around\s+|roughly\s+|nearly\s+|almost\s+|over\s+|more\s+than\s+|just\s+over\s+)?"
    r"(?:\d+(?:\.\d+)?|an?|one|two|three|four|five|six|seven|eight|nine|ten|twelve|twenty|forty|ninety)\s*"
    r"(?:(?:and\s+a\s+half\s+)?(?:minutes?|mins?|hours?|hrs?|h|days?)\b)"
    rf"|(?:between|from)\s+(?:\S+\s+){{0,6}}?{_TIME}\b[^.;]{{0,60}}?\b(?:and|to|until|till)\s+(?:\S+\s+){{0,4}}?{_TIME})",
    re.I)


def summary_part(sentence: str) -> str | None:
    """The part an incident summary's sentence tells by its form: "Impact" for one that opens with
    how long the harm lasted; None otherwise."""
    return "Impact" if _WINDOW_RE.match(sentence) else None
