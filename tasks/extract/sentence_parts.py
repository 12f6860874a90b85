"""The part a sentence tells by its own words, whatever section holds it (pure).

A review or a runbook written by any team puts a part where its writer thought of it: how an
incident was noticed in "What didn't go so well" ("Nobody was paged; the first signal was a
user"), whom to call inside a mitigation step ("If it persists, hand over to the Network
team"), what users lose inside the alert's meaning ("Riders will not see departures until it
recovers"). The heading says one part; the sentence says another, and both are kept:

- detection: how it was noticed, or that nothing noticed it ("Nobody was alerted for 86
  minutes", "the first signal was a customer call", "We learned about it from a tweet", "The
  support desk noticed on Monday morning", "a resident emailed the inbox to say ...");
- a runbook step's check (Diagnosis: "Check the consumer lag first", "If X keeps growing, the
  consumer is failing on one message") and its hand-over (Escalation: "hand over to the
  Storage team", "then call the vendor's service desk");
- a runbook's consequence for the people it serves (Impact: "Analysts will not see new runs",
  "Carriers receive manifests late or not at all").

Each reader takes sentences already split (text, first line, last line) and keeps the order.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import replace

from tasks.extract.model import LineSpan, ObservationFact

# How an incident was noticed, or that nothing noticed it: no alert, nobody paged, the first
# signal, learned of it, someone noticed or raised it, or wrote in to say so.
_NOTICED_RE = re.compile(
    r"\b(?:nobody|no\s+one|nothing|no\s+alert(?:ing)?|no\s+monitor(?:ing)?)\b[^.;]{0,60}?"
    r"\b(?:alert(?:ed|s)?|paged|noticed|caught|fired|flagged|detected)\b"
    r"|\bno\s+(?:alert|alarm|monitor)(?:s|ing)?\s+(?:on|for|fired|covered|watched)\b"
    r"|\bbefore\s+(?:anyone|anybody|our\s+(?:monitoring|alerting|alerts?)|monitoring|alerting|an?\s+alert)\b"
    r"|\bfirst\s+(?:signal|sign|indication|report|alert|symptom|we\s+heard|we\s+knew)\b"
    r"|\b(?:learned|learnt|heard|found\s+out)\s+(?:about|of)\s+(?:it|this|the\s+(?:incident|outage|problem|issue|failure))\b"
    r"|\bnoticed\s+(?:on|at|when|in|during|first|it|that|the|a|an|before|after)\b"
    r"|\braised\s+(?:it|the\s+alarm|the\s+issue)\b"
    r"|\b(?:called|emailed|e-mailed|phoned|rang|messaged|wrote\s+to)\b[^.;]{0,80}?\bto\s+(?:say|report|tell|complain)\b",
    re.I)
# A literal gate before the pattern: most sentences hold none of these.
_NOTICED_WORDS = ("alert", "paged", "notic", "caught", "flagged", "detect", "monitor", "before", "first",
                  "learn", "heard", "found out", "raised", "called", "mailed", "phoned", "rang", "messaged",
                  "wrote to")

# A step's check: it opens with a verb of looking (the page tells the operator to look before acting).
_CHECK_OPENING_RE = re.compile(
    r"^(?:(?:if|when)\b[^,;:]{1,80},\s+)?(?:(?:first|then|next),?\s+)?(?:check|inspect|look\s+at|look\s+for|compare|confirm\s+(?:whether|if|that)"
    r"|verify\s+(?:whether|if)|find\s+out|see\s+(?:whether|if)|query|grep|search\s+the\s+logs?)\b", re.I)
# ... or it reads what was seen ("If Redelivered keeps growing, the consumer is failing on one
# message", "Above 1 s, the database is the bottleneck").
_READING_RE = re.compile(
    r"^(?:if|when|above|below|once)\b[^,]{1,120},\s+(?:then\s+)?(?:the\s+|it\s+|this\s+)?[\w.-]+(?:\s+[\w.-]+)?\s+"
    r"(?:is|are)\s+(?:the\s+(?:bottleneck|culprit|problem|cause)|(?:failing|stuck|down|the\s+issue)\b)"
    # ... or it names the likely cause ("Most often the consumer has stopped after a token expiry")
    r"|^(?:most\s+often|usually|typically|in\s+most\s+cases|nine\s+times\s+out\s+of\s+ten)\b,?\s+(?!you\b|we\b)",
    re.I)
# A hand-over to another team or desk ("hand over to the Equipment team", "then call the
# vendor's service desk", "raise a ticket with Networks").
_HAND_OVER_RE = re.compile(
    r"\b(?:hand\s+(?:it\s+)?over\s+to|pass\s+(?:it\s+)?to|then\s+(?:call|page|contact|ring)"
    r"|raise\s+(?:a|an)\s+(?:ticket|case|incident)\s+with|open\s+(?:a|an)\s+(?:ticket|case)\s+with)\s+(?:the\s+)?\S"
    # whom to page or call, named by role ("page the on-call", "contact the vendor")
    r"|\b(?:page|call|contact|ring|notify)\s+the\s+(?:[\w-]+\s+){0,2}?(?:on-?call|vendor|supplier|provider"
    r"|service\s+desk|support|duty\s+\w+)\b",
    re.I)
# What the people a service serves lose while the alert fires: they will not / cannot do
# something, or get it late.
_LOSES_RE = re.compile(
    r"\b(?:users?|customers?|clients?|patrons?|riders?|passengers?|students?|staff|analysts?|operators?"
    r"|members?|viewers?|guests?|sites?|carriers?|partners?|callers?|readers?|players?|traders?|teams?"
    r"|planners?|forecasters?|engineers?|agents?|drivers?|shoppers?|buyers?|sellers?|merchants?)\b[^.;]{0,60}?"
    r"\b(?:will\s+not|won't|cannot|can't|could\s+not|stop|stops|lose|loses|miss|misses|are\s+not\s+able"
    r"|is\s+not\s+able|do\s+not\s+(?:see|get|receive)|does\s+not\s+(?:see|get|receive)"
    r"|(?:see|get|receive)\s+\w+(?:\s+\w+)?\s+late)\b"
    r"|\b(?:every|each)\s+minute\s+it\s+lasts\b|\blate\s+or\s+not\s+at\s+all\b"
    r"|\b(?:loses|lose|losing)\s+(?:\w+\s+)?revenue\b", re.I)

# What an incident cost, counted: a number of things, people or money, or "nobody / every", with a
# word of harm ("612 students were paid twice", "about 41% of viewers got an error", "The cost is
# estimated at EUR 38,000", "nobody could log in to Moodle", "Our contact centre took 412 calls").
_COUNT_RE = re.compile(
    r"(?<![\w.-])\d[\d,]*(?:\.\d+)?(?:\s*(?:%|percent)|k\b|m\b|\s+(?!(?:s|ms|[kmgt]b)\b)[a-z]{3,})"
    r"|(?:EUR|USD|GBP|€|£|\$)\s?\d"
    r"|\b(?:nobody|no\s+one)\b", re.I)
_HARM_RE = re.compile(
    r"\b(?:(?:nobody|no\s+one)\s+could|failed(?!\s+over)|failing|could\s+not|couldn't|unable|skipped|wrong|twice|doubled?|duplicated?|late"
    r"|delayed|waited|lost|gave\s+up|walked|discount|revenue|calls|tickets|complaints|overcharged|over-?stated"
    r"|missed|exposed|affected|impacted|abandoned|rejected|refunded|thrown\s+away|dropped|stale"
    r"|without\s+(?:their|its|a|an|the)\b|no\s+(?:fresh|new)\b)", re.I)
# a clock time or a date is no count of what was lost ("at 16:00", "on 14 March 2026")
_TIME_RE = re.compile(r"\b\d{1,2}[:.]\d{2}\b"
                      r"|\b\d{1,2}\s+(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]*"
                      r"|\b(?:19|20)\d{2}(?:[-/]\d{1,2}){0,2}\b|\b\d{1,2}[-/]\d{1,2}[-/]\d{2,4}\b|\b\d+(?:\.\d+)*\s*(?:UTC|GMT|BST|CET|AM|PM)\b"
                      r"|\b\d[\d.]*\s+(?:seconds?|minutes?|hours?|days?|weeks?)\b", re.I)
# ... not what the responders did about it ("rebooked the 214 vehicles by hand", "deleted the 212
# duplicate loans"), nor a story told from a clock time ("At 18:01 the link dropped ...")
_RESPONSE_RE = re.compile(
    r"\b(?:rolled\s+\S+\s+back|rolled\s+back|requeued|replayed|refunded|rebooked|deleted|stopped|pushed|fixed"
    r"|corrected|repriced|restored|reverted|redrove|re-?ran|resent|recalled|paged|raised)\b"
    r"|^(?:at|by|around|from)\s+(?:about\s+)?\d{1,2}[:.]\d{2}\b", re.I)
# What the responders did, told in the story: who acted ("we", "the on-call engineer", a person's
# name), then a verb of doing in the past, at a clock time or as a first-person act ("At 17:26
# Tobias moved all traffic to Fastly", "We republished the key", "The team paused the connector").
_ACTOR = (r"(?:(?i:we|i|the\s+(?:on-?call(?:\s+(?:engineer|lead|DBA))?|team|incident\s+(?:lead|commander)"
          r"|responders?|[\w-]+\s+team))|(?!The\b|That\b|This\b|It\b|From\b)[A-Z][a-z]+\s+[A-Z][a-z]+"
          r"(?:\s+from\s+[A-Z][\w ]{1,40}?)?)")
_ACTED_RE = re.compile(
    r"^(?:(?i:at|by|around|from|on\s+\w+\s+at)\s+(?:about\s+)?\d{1,2}[:.]\d{2}(?:\s*[A-Z]{2,4})?,?\s+)?"
    + _ACTOR + r"\s+(?:then\s+|also\s+|quickly\s+|finally\s+|manually\s+|first\s+)?"
    r"(?!(?:noticed|saw|found|called|identified|reported|learned|learnt|decided|assumed|thought|expected|knew"
    r"|had|merged|deployed|shipped|released|wrote|asked|agreed|spotted|emailed|posted|opened|declared|paged"
    r"|escalated|needed|wanted|tried|started|changed|introduced|received|got|heard|spent|watched|began|enlisted"
    r"|took\s+(?:incident|over|charge|command)|joined|suspected|followed|deleted\s+those)\b)"
    r"(?P<verb>[a-z]+(?:ed|ew|ook|ut|ent|ove|an|ade|ound|ept|eft|ew)\b)")
_CLOCK_RE = re.compile(r"\b\d{1,2}[:.]\d{2}\b")
_FIRST_PERSON_RE = re.compile(r"^(?:we|the\s+(?:on-?call|team|responders?))\b", re.I)
_CONTAINS_RE = re.compile(r"\b(?:paused|halted|throttled|suspended|disabled|took\s+\S+(?:\s+\S+)?\s+offline"
                          r"|stopped|blocked|switched\s+off|turned\s+off)\b", re.I)
# ... a repair beside the containment makes the act the resolution ("paused the connector, grew the
# volumes and replayed the missing orders")
_REPAIRS_RE = re.compile(r"\b(?:replayed|restored|re-?sent|re-?ran|fixed|repaired|republished|redeployed"
                         r"|rolled\s+(?:\S+\s+)?back|reverted|recreated|rebuilt)\b", re.I)
# A sentence that names itself a lesson ("Lesson for all of us: an integration that receives
# nothing must be treated as broken", "That is a lesson we take seriously: ...", "The takeaway: ...").
_LESSON_RE = re.compile(r"\b(?:lessons?(?:\s+learn[et]d?)?|takeaways?|moral)\b[^.:;?]{0,50}:\s+\S", re.I)
MAX_NOTICED = 3
MAX_COSTS = 3
MAX_ACTS = 3


def response_part(sentence: str) -> str | None:
    """The part a story sentence tells of what the responders did: "Mitigation" for one that
    contains the harm ("We took the dataset offline at 16:24"), "Resolution" for another act at
    a clock time or in the first person ("We republished the key"); None for any other."""
    match = _ACTED_RE.match(sentence)
    if match is None or tells_detection(sentence):
        return None
    if not _CLOCK_RE.search(sentence) and not _FIRST_PERSON_RE.match(sentence):
        return None
    contained = _CONTAINS_RE.search(sentence) is not None and _REPAIRS_RE.search(sentence) is None
    return "Mitigation" if contained else "Resolution"


def names_lesson(sentence: str) -> bool:
    """Does the sentence name what follows its colon a lesson?"""
    return _LESSON_RE.search(sentence) is not None


def tells_cost(sentence: str) -> bool:
    """Does the sentence count what an incident cost: a number (not a time or a date) or "nobody
    / every", and a word of harm?"""
    counted = _TIME_RE.sub(" ", sentence)
    return (_COUNT_RE.search(counted) is not None and _HARM_RE.search(sentence) is not None
            and _RESPONSE_RE.search(sentence) is None and not tells_detection(sentence))


def tells_detection(sentence: str) -> bool:
    """Does the sentence tell how an incident was noticed, or that nothing noticed it?"""
    lowered = sentence.lower()
    return any(word in lowered for word in _NOTICED_WORDS) and _NOTICED_RE.search(sentence) is not None


def noticed_sentences(told: Iterable[LineSpan]) -> list[LineSpan]:
    """The sentences that tell how the incident was noticed (at most MAX_NOTICED)."""
    return [span for span in told if tells_detection(span[0])][:MAX_NOTICED]


def step_part(sentence: str) -> str | None:
    """The part a runbook step's sentence tells apart from the step's own: "Diagnosis" for a
    check or a reading of what was seen, "Escalation" for a hand-over; None otherwise."""
    if _HAND_OVER_RE.search(sentence):
        return "Escalation"
    if _CHECK_OPENING_RE.match(sentence) or _READING_RE.match(sentence):
        return "Diagnosis"
    return None


def tells_loss(sentence: str) -> bool:
    """Does the sentence tell what the people a service serves lose while it is down?"""
    return _LOSES_RE.search(sentence) is not None


# An option turned down, told in the words that turn it down ("We considered it and rejected it:
# only 40% of the fleet has a box", "Alternative considered: ... Rejected, because ...").
_REJECTION_RE = re.compile(
    r"\b(?:rejected|declined|vetoed|turned\s+down|ruled\s+out|decided\s+against)\b", re.I)
_RATIONALE = "Rationale: "


def rejections_told(observations: list[ObservationFact]) -> list[ObservationFact]:
    """The observations, a reason that tells an option turned down kept as the Rejected option it
    tells (the reason a reader kept by its "because" is why the option was rejected), where no
    Rejected observation holds its lines already (a reader that read the options apart keeps the
    reason beside them)."""
    rejected = {n for fact in observations if fact.text.startswith("Rejected: ")
                for n in range(fact.line_start, fact.line_end + 1)}
    return [replace(fact, text="Rejected: " + fact.text.removeprefix(_RATIONALE))
            if fact.text.startswith(_RATIONALE) and _REJECTION_RE.search(fact.text)
            and rejected.isdisjoint(range(fact.line_start, fact.line_end + 1)) else fact
            for fact in observations]
