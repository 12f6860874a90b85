"""Conclusions read by what each statement says, whatever template the document follows (pure).

The genre readers (tasks/extract/genre_conclusions.py) read a part under the headings its
templates use; a document of no genre, and the sections of a genre document no genre reader
claimed, are read here, one statement at a time (a sentence, a list item, a definition, a table
row), by its form:

- a choice ("we decided / chose / selected / recommend ...", "the decision is", "was approved"):
  Decision;
- a rule (must / never / only / at most / shall / not allowed, "No service may ...", "needs an
  approving review"): Constraint;
- an action with its owner ("Ana will ...", "Ana to ...", "... (owner: Ana)"): Action item;
- in a statement that tells a failure, its cause ("because", "due to") and its repair
  ("we restarted ..."): Cause and Resolution;
- the document's opening paragraph: Summary (a document of no genre only).

A heading's meaning helps where the form alone does not tell (every item under "Policy" or
"Service levels" is a rule, every item under "Next steps" an action, the fallback under "Backout
plan" a mitigation): the heading is read by word stems, not matched to one template's headings.
Template boilerplate never becomes a fact (genre_text.clean_lines), nor a question, a command,
code, a header field or a statement of fewer than MIN_WORDS words.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from collections.abc import Set as AbstractSet
from functools import lru_cache
from typing import NamedTuple

from tasks.extract.decision_choice import lead_in_decisions
from tasks.extract.genre_conclusions import (
    _CONSTRAINT_RE,
    _FORBIDS_RE,
    _ONLY_RE,
    _preamble,
    _with_owner,
    action_table_items,
)
from tasks.extract.genre_parts import OUT_OF_SCOPE_RE
from tasks.extract.genre_prose import sentences
from tasks.extract.genre_text import (
    CHECKBOX_ITEM_RE,
    MAX_SPAN_LINES,
    clean_lines,
    clean_visible,
    list_items,
    part_fact,
    window_paragraph,
)
from tasks.extract.genres import is_field_line
from tasks.extract.incident_prose import tells_cause, tells_repair
from tasks.extract.line_search import WordGate
from tasks.extract.lines import is_relation_verb
from tasks.extract.model import Extraction, LineSpan, ObservationFact
from tasks.extract.ordinary_words import common_word
from tasks.extract.statement_text import MIN_WORDS
from tasks.extract.structure import Structure
from tasks.extract.tech_radar import ring_paragraphs
from tasks.extract.text import joined_lines, plain_text, shorten
from tasks.markdown.code_spans import replace_code_spans
from tasks.markdown.outline import bullet_heading, has_bullet_headings
from tasks.markdown.tables import table_cells

# A statement of fewer words says too little to be remembered on its own ("Approved.", "Yes").
# Caps: a page of forty rules is a page to link to, not forty facts to keep; the first ones a
# document states are its main ones. Per kind and per document (over all kinds).
MAX_PER_KIND = 15
MAX_PER_DOCUMENT = 30
# Statements kept only because of their heading (no form of their own), per section: a long list
# under "Policy" is kept whole up to this many items.
MAX_BY_HEADING = 8

# What a heading says its section holds, by word stems (the first that matches wins).
_ROLE_STEMS = (
    # sections whose statements are not what was concluded: the options weighed, the story, the
    # questions still open, references
    ("skip", r"\b(?:questions?|alternatives?|options?|considered|rejected|timeline|history|appendix"
             r"|glossary|references?|background|context|motivation|prior\s+art|drawbacks?|went\s+well"
             r"|changelog|revisions?|contents|attendees|agenda|findings|candidates|criteria"
             r"|scor(?:e|es|ing)|sustain|highlights|lessons?|learn(?:ed|ings?)|discussion|faq)\b"),
    ("action", r"\b(?:actions?|next\s+steps?|follow[- ]?ups?|to-?dos?|action\s+items?)\b"),
    # a decision tree's branches say what to do when a check fails
    ("mitigation", r"\b(?:decision\s+trees?|troubleshooting)\b"),
    ("decision", r"\b(?:decisions?(?![- ](?:making|process))|decided|recommendations?|recommended"
                 r"|outcome(?!s)|verdict|chosen|choice|approval|resolutions?\s+(?:of|by)\s+the\s+board)\b"),
    ("constraint", r"\b(?:constraints?|rules?|polic(?:y|ies)|principles?|requirements?|limitations?"
                   r"|guardrails?|invariants?|standards?|service\s+levels?|slas?|slos?|guarantees?"
                   # (an A3 report's "Current condition" is the problem as it stands, not a rule)
                   r"|non-functional|availability\s+targets?|(?<!current\s)conditions?)\b"),
    ("mitigation", r"\b(?:back-?out|roll-?back|mitigations?|workarounds?|fallback|contingency)\b"),
    ("risk", r"\brisks?\b"),
    # why the choice was made ("Why it moved", "Why we chose X", "Rationale", "Reasons")
    ("rationale", r"^(?:why\b(?!\s+(?:it|this|that)\s+matters)|rationale\b|reasons?\b|reasoning\b)"),
    ("summary", r"\b(?:summary|purpose|overview|abstract|tl;?dr|description\s+of\s+(?:the\s+)?change"
                r"|objectives?|executive)\b"),
    # what a page of no genre proposes to build ("How it works (proposed)", "Proposed design")
    ("design", r"^(?:how\s+it\s+(?:will\s+)?works?\b|proposed\s+(?:design|solution|approach|changes?)\b"
               r"|(?:the\s+)?(?:design|solution)$)"),
)
_ROLES = tuple((role, re.compile(pattern, re.I)) for role, pattern in _ROLE_STEMS)
# The roles whose every statement is kept as their kind, up to MAX_BY_HEADING per section.
_ROLE_LABELS = {"action": "Action item", "decision": "Decision", "constraint": "Constraint",
                "mitigation": "Mitigation", "rationale": "Rationale", "design": "Design"}
# The roles whose sections are read here with their caps (field_statements leaves them to this reader).
READ_BY_HEADING = frozenset({*_ROLE_LABELS, "risk"})

_NUMBERED_RE = re.compile(r"^\W{0,3}\d{1,2}[.)]\s")
# The roles a genre document's unclaimed section is read for.
# (not "rationale": a genre's own reader reads its why, a postmortem's "Why it happened" is its cause)
# (nor "design": a genre's own reader reads its design, an architecture page's "How it works" is no proposal)
_CLAIMING = frozenset({*_ROLE_LABELS, "risk"} - {"rationale", "design"})
# A changelog's title: the log's name, with at most a product's name before it and what it covers
# after ("CHANGES", "mypkg Changelog", "Release notes for v2.1"), not a title that only holds the
# word ("Anonymise borrowing history after return", "Going fine-free: what changes in notices").
_RELEASE_LOG_RE = re.compile(
    r"^\W*(?:(?!what\b)[\w.-]+\s+){0,2}?(?:change\s*log|changes|release\s+notes|release\s+history"
    r"|version\s+history|history|news|what'?s\s+new)\b(?:\s+(?:for|of|in|since)\s+\S+(?:\s+\S+)?)?\W*$", re.I)
# A licence's own text (LICENSE-Apache-2.0.txt, COPYING): its "shall"s are legal terms, not the
# team's rules. Its title names a licence and its opening states the licence's standard terms.
_LICENSE_TITLE_RE = re.compile(r"\b(?:licen[cs]e|copying)\b", re.I)
_LICENSE_TERMS_RE = re.compile(
    r"terms\s+and\s+conditions\s+for\s+use|permission\s+is\s+hereby\s+granted"
    r"|redistribution\s+and\s+use\s+in\s+source|everyone\s+is\s+permitted\s+to\s+copy",
    re.I)
_LICENSE_OPENING_LINES = 40

# A choice stated: who chose and the verb of choosing, or the decision named as such.
_CHOICE_RE = re.compile(
    # (with one word naming which: "the management team has decided that ...")
    r"\b(?:we|the\s+(?:[a-z]+\s+)?(?:board|team|committee|panel|cab|forum|group|programme\s+board|steering\s+group))\s+"
    r"(?:have\s+|has\s+|then\s+|finally\s+|eventually\s+|unanimously\s+|therefore\s+|now\s+)?"
    r"(?:decided|chose|selected|agreed\s+(?:to|on)|adopted|approved|picked|opted|settled\s+on|went\s+with"
    r"|recommends?|go\s+with|stay\s+with|will\s+(?:use|adopt|move|migrate|switch|run|keep|build|replace"
    r"|stay|standardi[sz]e|retire|decommission))\b"
    r"|\b(?:the\s+)?(?:decision|recommendation|outcome)\s+(?:is|was)\b"
    r"|\b(?:was|were|has\s+been|have\s+been)\s+(?:approved|selected|chosen|accepted)\b",
    re.I,
)
# A rule the genre readers' constraint pattern does not hold: "shall", "always", "not allowed",
# "needs an approving review", "reads only X", "on premises only", "No service may ...".
_RULE_RE = re.compile(
    r"\b(?:shall|always|not\s+allowed|not\s+permitted|prohibited|forbidden|(?:is|are)\s+required"
    r"|(?:needs?|requires?)\s+(?:an?\s+|one\s+|two\s+|written\s+)?(?:approv|review|sign)"
    r"|(?:reads?|writes?|runs?|uses?|deploys?|releases?|release|talks?|connects?)\s+only\b"
    r"|only\s+(?:on|in|at|to)\b)"
    r"|\bonly[.;]?\s*$",
    re.I,
)
_STRONG_RULE_RE = re.compile(
    r"\b(?:must|mustn't|shall|never|not\s+(?:allowed|permitted)|prohibited|forbidden|may\s+only"
    r"|at\s+most|no\s+more\s+than|(?:is|are)\s+required\s+to"
    r"|(?:needs?|requires?)\s+(?:an?\s+|one\s+|two\s+|written\s+)?(?:approv|review|sign))", re.I)
# A rule a system enforces, told as what it does: it turns away what breaks the rule ("The
# generator refuses a key it has already written", "the gateway rejects requests without a
# token", "The module fails the plan if the address is empty"), or does a thing for some cases
# and no others ("Coursebridge only enrols students whose registration is confirmed").
_ENFORCED_RE = re.compile(
    r"\b(?:refuses|rejects|denies)\s+(?!to\b)(?:an?|any|every|each|all|the|requests?|writes?|connections?"
    r"|messages?|logins?|files?|keys?|[a-z]+s\s+(?:without|with|whose|that|older|larger|from))\b"
    r"|\bfails\s+the\s+(?:plan|build|check|deploy(?:ment)?|pipeline|merge|release|validation|run|request)\b"
    r"|(?:^|\s)(?:[A-Z][\w-]+|[Ii]t|[Tt]his\s+[a-z]+|[Tt]he(?:\s+[\w-]+){1,2})\s+only\s+(?!(?:takes|happens|costs|lasts"
    r"|seems|means|matters|gets|has|is|was|does|needs)\b)[a-z]{3,}s\b")
_NOBODY_RE = re.compile(
    r"^(?:Nobody|No\s+one|Nothing|No\s+(?:other\s+)?[a-z]+)\s+(?:[\w-]+\s+){0,2}?"
    r"(?:may|can|cannot|will|should|must|(?:is|are)\s+to\s+be|(?:is|are)\s+[a-z]+ed|merges?|deploys?|connects?"
    r"|writes?|reads?|gets?)\b"
)
# An action item's form: who will do it, or its owner noted.
_ACTION_FORM_RE = re.compile(
    r"^(?P<actor>@[\w-]+|[A-Z][a-z]+(?:\s+[A-Z][a-z]+)?|The\s+[A-Z][\w-]*(?:\s+[A-Z][\w-]*)?\s+team)\s+"
    r"(?:will|to)\s+[a-z]"
    r"|\((?i:owners?|assignee|assigned\s+to|dri)\s*[:=-]"
    r"|^(?:action(?:\s+item)?|AI-?\d{1,3}|TODO\([^)]{1,40}\))\s*:",
)
# An action told in a minute's prose: a name, "to", what they will do (not "will": a design's
# "Sorter will choose ..." says how it works).
_NAMED_ACTION_RE = re.compile(r"^(?P<actor>@[\w-]+|[A-Z][a-z]+(?:\s+[A-Z][a-z]+)?)\s+to\s+[a-z]+\s")
# What a meeting agreed, said of the thing ("Queue-it agreed for January", "Option B approved by the
# board"); not a person agreeing to or with something ("Grace agreed with Tomasz").
_PASSIVE_CHOICE_RE = re.compile(
    r"^(?!(?:We|It|This|That|They|He|She|I|Nobody|Everyone|All)\b)[A-Z][\w.-]*(?:\s+[\w.-]+){0,4}?"
    r"\s+(?:agreed|approved)\s+(?:for|by|as|in|on|until|from)\b")
# A statement that tells something failed: only then is its "because" a cause, its "restarted" a fix.
_FAILURE_RE = re.compile(
    r"\b(?:fail(?:ed|ing|ure)?|down|outage|slow|errors?|saturated|broke(?:n)?|timed\s+out|overran"
    r"|stuck|lost|missed|crash(?:ed)?|unavailable|degraded|incident|throttled|expired)\b",
    re.I,
)
# A statement labelled as the reason for, a doubt about or an example of another one.
_ASIDE_RE = re.compile(r"^(?:rationale|reason|why|background|context|concerns?|questions?|examples?|notes?"
                       r"|e\.g)\b\W", re.I)
# An action list's item that reports progress ("storage estimate is half done"): no action to keep.
_PROGRESS_RE = re.compile(r"\b(?:done|completed|finished|in\s+progress|ongoing|closed)\b", re.I)
# A sentence that tells what happened ("every batch contained at least one old document"), with no
# word of obligation: its "at least" counts, it does not rule.
_TOLD_RE = re.compile(r"\b(?:was|were|had|did|contained|happened)\b", re.I)
_OBLIGES_RE = re.compile(
    r"\b(?:must|shall|may|cannot|can.t|required|needs?|requires?|not\s+allowed)\b", re.I)
# Someone who acted, in the past tense ("the network team moved", "we drained"): after a cause, its fix.
_ACTED_RE = re.compile(
    r"\b(?:we|they|on-call|the\s+[\w-]+(?:\s+[\w-]+)?\s+team)\s+(?:then\s+)?[a-z]{3,20}ed\b", re.I)
# A clause that supposes or explains in general ("To mitigate it, ...", "If it fails, ..."): no event told.
_HYPOTHETICAL_RE = re.compile(r"^(?:to|if|when|whenever|unless|in\s+essence|for\s+example|otherwise)\b", re.I)
# What the writers must think about is no rule of the system ("We must consider the case ...").
_REASONING_RE = re.compile(
    r"\bwe\s+(?:must|should|need\s+to)\s+(?:also\s+|first\s+|still\s+)?(?:consider|think|decide|discuss|figure"
    r"|remember|note|adjust|look|investigate|understand|ask|agree|be\s+careful)\b", re.I)
# A decision tree's branch that only sends the reader on ("Yes -> go to 3").
_NAVIGATION_RE = re.compile(r"\bgo\s+to\s+(?:step\s+)?\d{1,2}\b", re.I)
# A sentence that states the way back from a change ("Rollback is flipping the flag", "Back-out
# plan: redeploy 4.2"): a mitigation, as a Rollback section's items are.
# An option turned down: "We did not choose it because ...", "X was rejected as ...", "ruled out".
_REJECTS_RE = re.compile(
    r"\bwe\s+(?:did\s+not|didn't|do\s+not|chose\s+not\s+to)\s+(?:choose|pick|select|adopt|take|go\s+with)\b"
    r"|\b(?:was|were|has\s+been|have\s+been)\s+(?:rejected|ruled\s+out)\b|\bwe\s+(?:rejected|ruled\s+out)\b",
    re.I)
_ROLLBACK_RE = re.compile(
    r"^(?:the\s+|our\s+)?(?:roll-?back|back-?out)(?:\s+plan)?\s*(?:is|means|:)\s+\S", re.I)
# A line that is a command, not a statement.
_COMMAND_RE = re.compile(r"^(?:\$\s|>\s|sudo\s|kubectl\s|git\s|curl\s)")
# A paragraph that says who wrote the page or where it came from, not what it concludes.
_BYLINE_RE = re.compile(
    r"^(?:[\w-]+\s+){0,3}?(?:prepared|written|exported|posted|published|maintained|compiled|drafted|owned"
    r"|created|authored|last\s+(?:updated|reviewed)|updated)\s+(?:by|from|on)\b|^by\s",
    re.I,
)
# A line that places the page (a breadcrumb, "Libraries › Systems › Message Board") or lists a
# post's fields ("Samir Haddad (lead) · Mar 3rd · Notified 14 people"): no summary.
_NAVIGATION_LINE_RE = re.compile(r"\S\s[›»>]\s[^›»>]+\s[›»>]\s|\S\s[·•|]\s[^·•|]+\s[·•|]\s")
# A sentence that says what is left out ("Things I'm not proposing: automatic renewals ...",
# "Out of scope: ..."): its list is a non-goal.
_NON_GOAL_LEAD_RE = re.compile(
    r"^(?:(?:things\s+|what\s+)?(?:i'?m|i\s+am|we'?re|we\s+are)\s+not\s+(?:proposing|changing|doing|covering)"
    r"|out\s+of\s+scope|not\s+in\s+scope|non-?goals?)\s*:\s*(?P<text>\S.*)$", re.I)
# A risk list's item that asks instead of telling ("Open: who owns the reconciliation?" is read
# as a question by _useful; "TBD: ..." and "Question: ..." say it is not settled what the risk is).
_OPEN_QUESTION_RE = re.compile(r"^(?:tbd|tbc|todo|question|open\s+question)\b\W", re.I)
# The part of a risk's item that says what is done about it ("...; Finance will reconcile weekly").
_MITIGATES_RE = re.compile(r"\b(?:will|mitigat\w*|instead|fallback|workaround)\b", re.I)
# (a check mark is an item's marker too: a Dropbox Paper or Notion export's "☑ No form for Home students")
_ITEM_RE = re.compile(r"^\s*(?:[-*+]|\d{1,3}[.)]|[☑☒✅✔✓☐])\s+")
_OPEN_BOX = "☐"  # an item left open: a point still to settle, nothing concluded
_DEFINITION_RE = re.compile(r"^:\s+")


def add_plain_conclusions(result: Extraction, structure: Structure, *, whole: bool) -> None:
    """The document's conclusions read here, beside the observations it has (their lines not
    read again)."""
    held = {n for fact in result.observations for n in range(fact.line_start, fact.line_end + 1)}
    result.observations += plain_conclusions(structure, result.title, held, whole=whole)


def licence_text(title: str, structure: Structure) -> bool:
    """Is the document a licence's own text (its title names a licence, its opening states the
    licence's standard terms)? Its defined terms ("Licensor") are no subjects either."""
    return bool(_LICENSE_TITLE_RE.search(title)) and any(
        _LICENSE_TERMS_RE.search(line) for _, line in structure.visible[:_LICENSE_OPENING_LINES])


def plain_conclusions(
    structure: Structure, title: str, held: AbstractSet[int], *, whole: bool
) -> list[ObservationFact]:
    """The conclusions of the document's statements, outside the lines `held` (what another
    reader kept); `whole`: a document of no genre (its summary too, and every section read),
    else only the sections no other reader kept a line of whose heading names a kind of
    conclusion (a genre document's other sections are its story, its alternatives, its API)."""
    if _RELEASE_LOG_RE.search(title):
        return []  # a changelog's items are what changed, each a line of its own history
    if licence_text(title, structure):
        return []  # its terms are the licence's, not conclusions of the team
    if any(_note_line(line) for _, line in structure.visible if "[" in line):
        return []  # a memory note states its own facts (`- [fact] ...`): nothing is inferred from it
    facts: list[ObservationFact] = []
    # a page of one paragraph is its own summary: none is kept apart
    told = sum(start not in structure.heading_lines for start, _ in structure.paragraphs)
    summary = _summary(structure) if whole and told >= 2 else None
    if summary is not None and not held & _lines(summary):
        facts.append(summary)
        facts += _summary_choices(structure, summary)  # "We now recommend X ...": what it decided
        held = held | _lines(summary)  # its sentences are not read again as rules or choices
    if whole:  # a decision told under the line that says it follows ("Decision, 4 May 2025:")
        visible = dict(clean_visible(structure))
        said = lead_in_decisions(structure.paragraphs, visible, structure.heading_lines)
        facts += [part_fact("Decision", span, "decision") for span in said
                  if not held & set(range(span[1], span[2] + 1))]
        held = held | {n for fact in facts for n in _lines(fact)}
        # a radar blip's "**Adopt** means: ..." (a radar page's rings are read by the genre
        # readers); its rules are read after it ("Nothing new is to be built against ...")
        facts += [part_fact("Decision", (shorten(plain_text(sentences([(start, text)])[0][0])), start, end),
                            _KIND)
                  for text, start, end in ring_paragraphs(structure) if not held & set(range(start, end + 1))]
    facts += _adopted_proposals(structure, held) if whole else []  # (their rules are read after them)
    counts: dict[str, int] = {}
    seen: set[str] = {fact.text for fact in facts}
    for role, lines in _sections(structure, held, whole=whole):
        by_heading = 0
        for label, span, from_heading in _statements(lines, role, prose=whole):
            fact = part_fact(label, span, _KIND)
            if fact.text in seen or counts.get(label, 0) >= MAX_PER_KIND or held & _lines(fact):
                continue
            if from_heading:
                if by_heading >= MAX_BY_HEADING:
                    continue
                by_heading += 1
            seen.add(fact.text)
            counts[label] = counts.get(label, 0) + 1
            facts.append(fact)
            if len(facts) >= MAX_PER_DOCUMENT:
                return facts
    return facts


# Every statement read here is a detail: kept and recalled, but its words are not read as the
# document's subjects (the genre readers' key parts are; a statement found by its form alone names
# what it compares or rejects as often as what the page is about).
_KIND = "detail"


def _lines(fact: ObservationFact) -> set[int]:
    return set(range(fact.line_start, fact.line_end + 1))


def _summary(structure: Structure) -> ObservationFact | None:
    """The opening paragraph (after the title, header fields and a byline), else the first
    paragraph of a section whose heading says it summarises; a paragraph the author labels its
    TL;DR (`**TL;DR** ...`, `TL;DR: ...`) before all."""
    tldr = _tldr(structure)
    if tldr is not None:
        return part_fact("Summary", tldr, _KIND)
    lines = [(n, "" if _unread(line) else line) for n, line in clean_lines(_preamble(structure))]
    while True:
        found = window_paragraph(lines, structure.code_content)
        if found is None:
            break
        text, _, last = found
        opening = dict(lines).get(found[1], "")
        if (len(text.split()) >= 8 and not _BYLINE_RE.match(text) and not _NAVIGATION_LINE_RE.search(text)
                and _useful(text)
                and not _ITEM_RE.match(opening) and not _field(opening) and " : " not in f" {text}"):
            return part_fact("Summary", found, _KIND)
        lines = [(n, line) for n, line in lines if n > last]
    defined = _defined_summary(structure)
    if defined is not None:
        return defined
    for section in structure.sections[1:]:
        if section.level > 1 and _role(structure.title(section)) == "summary":
            found = window_paragraph(clean_lines(structure.lines(section)), structure.code_content)
            if found is not None and len(found[0].split()) >= MIN_WORDS:
                return part_fact("Summary", found, _KIND)
    return None


# The author's own summary's label, bold or plain, with or without its colon.
_TLDR_RE = re.compile(
    r"^\s*(?:\*\*|__)?(?:TL;\s?DR|TLDR)(?:\*\*|__)?\s*[:.—–-]?\s*(?:\*\*|__)?\s*(?P<text>\S.*)$", re.I)


def _tldr(structure: Structure) -> LineSpan | None:
    """The paragraph labelled TL;DR, its text without the label."""
    for start, end in structure.paragraphs:
        if end - start >= MAX_SPAN_LINES or start in structure.heading_lines:
            continue
        found = _TLDR_RE.match(structure.by_number.get(start, ""))
        if found is not None:
            rest = [structure.by_number.get(n, "").strip() for n in range(start + 1, end + 1)]
            text = plain_text(joined_lines([found["text"], *rest]))
            return (shorten(text), start, end) if _useful(text) else None
    return None


def _summary_choices(structure: Structure, summary: ObservationFact) -> list[ObservationFact]:
    """The sentences of the opening paragraph that state a choice ("We now recommend X as the
    storage engine"): a page that opens with its decision is kept as deciding it."""
    lines = [(n, structure.by_number.get(n, "")) for n in range(summary.line_start, summary.line_end + 1)]
    found: list[ObservationFact] = []
    for sentence, start, end in sentences(clean_lines(lines)):
        text = plain_text(sentence)
        if _useful(text) and _form(text, strict=True, stories=False) == "Decision":
            found.append(part_fact("Decision", (shorten(text), start, end), _KIND))
    return found


# A thread's proposal ("Here's what I'm proposing:" over a list) and a later message that adopts it
# ("This is decided: we go with Samir's five points", "Approved: the plan above"): its items are
# what was decided.
_PROPOSING_LEAD_RE = re.compile(
    r"\b(?:what\s+(?:i'?m|i\s+am|we'?re|we\s+are)\s+proposing|(?:i|we)\s+propose|my\s+proposal|the\s+proposal"
    r"|here'?s\s+the\s+plan|proposed\s+plan)\b[^:]{0,40}:\s*$", re.I)
_ADOPTS_RE = re.compile(
    r"\b(?:go(?:ing)?|went)\s+with\s+(?:[\w’']+(?:'s|’s)\s+|the\s+|your\s+|this\s+|that\s+)?(?:\w+\s+)?"
    r"(?:points?|proposal|plan|suggestions?|steps)\b"
    r"|\b(?:approved?|agreed|accepted?|decided)\W{1,3}(?:the\s+)?(?:proposal|plan)\s+(?:above|as\s+proposed)\b",
    re.I)


def _adopted_proposals(structure: Structure, held: AbstractSet[int]) -> list[ObservationFact]:
    """The items of a proposal's list ("What I am proposing:"): decisions where a later sentence
    of the page adopts it, else the design it proposes (a Loomio proposal's Details)."""
    if "ropos" not in structure.text:
        return []
    lines = clean_visible(structure)
    adopts = _ADOPTS_RE.search(structure.text) is not None
    adopted_at = next((n for n, line in lines if _ADOPTS_RE.search(plain_text(line))), 0) if adopts else 0
    label = "Decision" if adopts else "Design"
    for index, (number, line) in enumerate(lines):
        if ((adopts and number >= adopted_at) or "ropos" not in line
                or not _PROPOSING_LEAD_RE.search(plain_text(line))):
            continue
        block: list[tuple[int, str]] = []
        for after, text in lines[index + 1:]:
            if text.strip() and not (_ITEM_RE.match(text) or text.startswith((" ", "\t"))) and block:
                break
            block.append((after, text))
        items = [(shorten(plain_text(text)), start, end) for text, start, end in list_items(block)]
        return [part_fact(label, item, _KIND) for item in items
                if _useful(item[0]) and not held & set(range(item[1], item[2] + 1))]
    return []


def _defined_summary(structure: Structure) -> ObservationFact | None:
    """A definition list's "Purpose" (or "Summary", "Overview") entry: a catalogue entry's summary."""
    lines = clean_visible(structure)
    for index, (_, line) in enumerate(lines[:-1]):
        following = lines[index + 1][1]
        definition = _DEFINITION_RE.match(following)
        if (definition and line.strip() and len(line) < 40 and _role(plain_text(line)) == "summary"):
            entry = [(lines[index + 1][0], following[definition.end():])]
            for number, text in lines[index + 2 : index + 6]:  # its indented continuation lines
                if not text.startswith((" ", "\t")) or not text.strip():
                    break
                entry.append((number, text.strip()))
            text = plain_text(joined_lines(part for _, part in entry))
            if _useful(text):
                return part_fact("Summary", (shorten(text), entry[0][0], entry[-1][0]), _KIND)
    return None


@lru_cache(maxsize=4096)  # pure; headings repeat from page to page ("Summary", "Next steps")
def _role(heading: str) -> str | None:
    return next((role for role, pattern in _ROLES if pattern.search(heading)), None)


def heading_role(heading: str) -> str | None:
    """What a heading says its section holds, by word stems ("risk", "skip", ...), or None."""
    return _role(heading)


def _sections(
    structure: Structure, held: AbstractSet[int], *, whole: bool
) -> Iterator[tuple[str | None, list[tuple[int, str]]]]:
    """Each section's role and clean lines: every section of a document of no genre (the
    preamble too), else the sections below the title that hold no line another reader kept."""
    if whole and has_bullet_headings(structure.text):
        outline = _outline_sections(structure)
        if outline:
            yield from outline
            return
    for index, section in enumerate(structure.sections):
        lines = structure.lines(section)
        if index and section.level == 1 and index == 1:
            role = None  # the title's own section: the preamble's lines
        elif index:
            role = _role(structure.title(section))
            if role == "action" and _NUMBERED_RE.match(structure.title(section)):
                role = None  # "### 1. PD-0412 follow-ups": one topic of an agenda, what was said about it
        else:
            role = None
        if role == "skip" or not lines:
            continue
        if not whole and (index == 0 or section.level == 1 or (role is not None and role not in _CLAIMING)
                          or any(n in held for n, _ in lines)):
            continue
        if role == "action":  # a task list of next steps ("- [ ] [Ana Ruiz] Update the doc: ..."), its
            unread = {n for n, line in lines if _unread(line)}  # boxes are no template's to fill in
            yield role, [(n, "" if n in unread else _unquoted(line)) for n, line
                         in clean_lines([(n, CHECKBOX_ITEM_RE.sub(r"\1", line)) for n, line in lines])
                         if n not in structure.heading_lines]
            continue
        yield role, [(n, "" if _unread(line) else _unquoted(line)) for n, line in clean_lines(lines)
                     if n not in structure.heading_lines]


def _unquoted(line: str) -> str:
    """A line of a block quote as its text ("> **Agreed.** We move ..." -> "**Agreed.** We move
    ..."; a bare ">" is the blank line between its paragraphs): an outcome or a decision quoted
    from its author is read as the statements it holds, no marker inside them."""
    text = line.lstrip(" ")
    if not text.startswith(">") or len(line) - len(text) > 3:
        return line
    while text.startswith(">"):
        text = text[1:].removeprefix(" ")
    return text




# A block that is a template to copy (Logseq's `template::` property): it and its children.
_TEMPLATE_BLOCK_RE = re.compile(r"^\s*(?:[-*+]\s+)?template::")


def _outline_sections(structure: Structure) -> list[tuple[str | None, list[tuple[int, str]]]]:
    """An outline's sections: the blocks under each heading block, read by the heading's role,
    each block a list item of its own whatever its depth (a block nested under another is a
    reply or a detail of it, said on its own: "- DECISION: replace the 7 phones")."""
    found: list[tuple[str | None, list[tuple[int, str]]]] = []
    role: str | None = None
    lines: list[tuple[int, str]] = []
    headings = 0
    template: int | None = None  # the depth of a template block, whose blocks are the template's
    for number, line in clean_visible(structure):
        depth = len(line) - len(line.lstrip())
        if template is not None and (depth > template or not line.strip()):
            continue
        template = depth if _TEMPLATE_BLOCK_RE.match(line) else None
        heading = bullet_heading(line)
        if heading is None:
            lines.append((number, "" if _unread(line) else line.strip()))
            continue
        headings += 1
        if lines and role != "skip":
            found.append((role, lines))
        title = plain_text(heading)
        role = _role(title)
        if role == "action" and len(title.split()) > 3:
            role = None  # "Marlow Fen clock SEV follow-ups": a topic of the agenda, what was said on it
        lines = []
    if lines and role != "skip":
        found.append((role, lines))
    return found if headings >= 2 else []


def _field(line: str) -> bool:
    """A header field's line (`Owner: Ana`); a field is short, and its pattern is not run on a
    long line (its lazy value before trailing blanks would be quadratic there)."""
    return len(line) <= _MAX_FIELD_CHARS and is_field_line(line)


_MAX_FIELD_CHARS = 300


def _note_line(line: str) -> bool:
    """A memory note's own line (`- [fact] ...`, `- uses [[X]]`): read by tasks/extract/lines.py.
    A sentence that only links a page (`- Priya: the blip is published, see [[Radar]].`) is prose:
    outliners (Logseq, Obsidian, Roam) write every page name as a wiki link."""
    if "[" not in line:
        return False
    if _NOTE_LINE_RE.match(line):
        return True
    relation = _NOTE_RELATION_RE.match(line) if "[[" in line else None
    return relation is not None and is_relation_verb(relation["verb"])


def _unread(line: str) -> bool:
    """A line no statement is read from: a memory note's, or an outliner's block property
    (`attendees:: [[Priya]], [[Tomasz]]`, `collapsed:: true`), a field."""
    return _note_line(line) or ("::" in line and _PROPERTY_LINE_RE.match(line) is not None)


_NOTE_LINE_RE = re.compile(r"^\s*[-*+]\s+\[(?![xX]\]|[Oo]ptional\])[A-Za-z][\w -]{0,40}\]\s")
# `- uses [[X]]`, `- depends_on [[X]]`: a verb, then the link (the verb checked by lines.py's vocabulary).
_NOTE_RELATION_RE = re.compile(r"^\s*[-*+]\s+(?P<verb>[A-Za-z][A-Za-z0-9_ -]{0,40}?)\s+\[\[")
# An outliner block's property (`type:: [[meeting]]`, `collapsed:: true`, `id:: 6745e1c2-...`).
_PROPERTY_LINE_RE = re.compile(r"^\s*(?:[-*+]\s+)?[A-Za-z][\w-]{0,40}::(?:\s|$)")


def _statements(
    lines: list[tuple[int, str]], role: str | None, *, prose: bool
) -> Iterator[tuple[str, LineSpan, bool]]:
    """Each statement of a section with its label and whether only its heading gave it;
    `prose`: its paragraphs are read by the heading's role too (a genre document's paragraphs
    under "Constraints" may explain what a constraint is: only their own form counts there)."""
    lead: str | None = None  # "Constraints the build must respect:" over a list
    told_choice = False
    for block in _blocks(lines):
        first = block[0][1].strip()
        if role is None and lead is None and not _cued(block):
            # a paragraph without a word any form of prose needs: no pattern is run on it (it may
            # still lead the list after it in: "Next steps:")
            said = plain_text(joined_lines(line.strip() for _, line in block))
            lead = said if said.endswith(":") else None
            continue
        if first.startswith("|"):
            yield from _row_statements(block, role)
            lead = None
            continue
        entries, term = _entries(block)
        if entries:
            entry_role = _role(term) if term else (_role(lead) if lead else None)
            loose = prose or (entry_role or role) is not None  # a list's "only" rules under a role
            for entry in entries:
                yield from _entry_statements(entry, entry_role or role, _Mode(True, loose, prose))
            lead = None
            continue
        # a section's paragraphs are read by its role; a choice, in its first one only (what
        # follows "We recommend option B" argues for it)
        text = plain_text(joined_lines(line.strip() for _, line in block))
        # (a paragraph that leads in a list, "What we saw:", is said by its list, not its heading)
        said_by_role = prose and not (role == "decision" and told_choice) and not text.endswith(":")
        yield from _entry_statements(block, role if said_by_role else None,
                                     _Mode(False, prose and role == "constraint", prose))
        told_choice = True
        lead = text if text.endswith(":") else None


def _cued(block: list[tuple[int, str]]) -> bool:
    """Does a paragraph hold a word some form of a prose statement needs (a literal test,
    before any pattern; a list's items are read whole, their owners too)?"""
    if any(_ITEM_RE.match(line) or _DEFINITION_RE.match(line) for _, line in block):
        return True
    if block[0][1].lstrip().startswith("|"):
        return True  # a table: its header says what its rows are (a Decision, an Owner column)
    text = " ".join(line for _, line in block).lower()
    return any(cue in text for cue in _CUES)


# The literal words every form of a prose statement needs one of (lower case): a rule's, a
# choice's, a cause's and a repair's.
_CUES = ("must", "shall", "never", "only", "most", "least", "not allowed", "not permitted", "do not",
         "don't", "mustn't", "always", "prohibit", "forbid", "requir", "need", "no ", "nobody", "nothing",
         "decid", "chose", "select", "agree", "adopt", "approv", "pick", "opted", "settled", "went with",
         "recommend", "go with", "stay with", "will ", "decision", "outcome", "because", "due to",
         "caused", "result of", "stemmed", ", so ", "restor", "revert", "rolled", "restart", "enabl",
         "failed over", "drain", "paus", "moved", "recover", "at a time", "more than", "cannot", "can only",
         "redeploy", "re-ran", "rerun", "cleared", "flushed", "purged", "disabled", "replayed",
         "proposing:", "scope", "not covered", "refuses", "rejects", "denies", "fails the",
         "non-goal", "rollback", "roll-back", "backout", "back-out")


def _blocks(lines: list[tuple[int, str]]) -> Iterator[list[tuple[int, str]]]:
    """Runs of non-blank lines, none longer than MAX_SPAN_LINES."""
    block: list[tuple[int, str]] = []
    for number, line in [*lines, (0, "")]:
        if line.strip() and len(block) < MAX_SPAN_LINES:
            block.append((number, line))
        elif block:
            yield block
            block = [(number, line)] if line.strip() else []


def _entries(block: list[tuple[int, str]]) -> tuple[list[list[tuple[int, str]]], str | None]:
    """The list items or definitions of a block (each with its continuation lines), and the
    term or lead-in line above them (a definition's term: "Constraints", "Known limitations")."""
    entries: list[list[tuple[int, str]]] = []
    term: str | None = None
    left_open: set[int] = set()
    for number, line in block:
        item = _ITEM_RE.match(line) or _DEFINITION_RE.match(line)
        if item is not None and not (line.startswith((" ", "\t")) and entries and _ITEM_RE.match(line)):
            if line.lstrip().startswith(_OPEN_BOX):
                left_open.add(len(entries))
            entries.append([(number, line[item.end():])])
        elif entries:
            entries[-1].append((number, line.strip()))
        else:
            term = plain_text(line)
    return [entry for index, entry in enumerate(entries) if index not in left_open], term


class _Mode(NamedTuple):
    """How a statement is read. `listed`: a list item or a definition, not a paragraph's
    sentence. `loose`: a rule in any of its words ("only", "cannot"), else only in the strong
    ones (prose describes how a thing works in those words as often as it states a rule).
    `stories`: a failure's cause and fix are read too (not in a genre document: a postmortem's
    reader reads them, and a proposal's "because ... error" argues, it tells no incident)."""

    listed: bool
    loose: bool
    stories: bool


def _entry_statements(
    entry: list[tuple[int, str]], role: str | None, mode: _Mode
) -> Iterator[tuple[str, LineSpan, bool]]:
    """The statements of a list item, a definition or a paragraph: an action item whole, else
    each sentence (each clause, when its clauses say different things: a cause and its fix)."""
    listed = mode.listed
    if any(_field(line) and len(line.split(":", 1)[0].split()) <= 3 for _, line in entry[:1]) and not listed:
        return  # a header field ("Owner: Ana"), not "We recommend option B: rebuild it"
    whole = plain_text(joined_lines(line.strip() for _, line in entry if not _PLANNING_RE.match(line)))
    first, last = entry[0][0], entry[-1][0]
    if listed:
        marked = _marked(whole)
        if marked is not None:
            if marked[1]:
                yield marked[0], (shorten(marked[1]), first, last), False
            return
    if listed and role == "action" and _PROGRESS_RE.search(whole):
        return  # "Programme board decision (done, March 17th)": progress, no action left
    if (listed and _useful(whole) and (role == "action" or _action_form(whole))
            and not _PROGRESS_RE.search(whole)):
        if not _CHOICE_RE.search(whole) or role == "action":
            yield "Action item", (_with_owner(shorten(whole)), first, last), role == "action"
            return
    if listed and role == "risk":  # the risk, and what is done about it when its last clause says
        clauses = [part.strip() for part in whole.split(";")]
        answer = clauses[-1] if len(clauses) > 1 and _useful(clauses[-1]) else ""
        # ("...; Finance will reconcile weekly": a mitigation; "...; never copy it to the warehouse": a rule)
        said = "Mitigation" if answer and _MITIGATES_RE.search(answer) else (
            "Constraint" if answer and _form(answer, strict=True, stories=False) == "Constraint" else None)
        risk = "; ".join(clauses[:-1]) if said else whole
        if _useful(risk) and not _OPEN_QUESTION_RE.match(risk):
            yield "Risk", (shorten(risk), first, last), True
        if said:
            yield said, (shorten(answer), first, last), True
        return
    for sentence, start, end in sentences(entry):
        yield from _sentence_statements(sentence, (start, end), role, mode)


# An item's own label that says what it states: "DECISION: ...", "Agreed: ...", "Migration order
# agreed: ...", "Risk raised by Tomasz: ..."; the label is not kept unless it names the topic.
_LABELLED_RE = re.compile(
    r"^(?:(?P<decision>decision|decided|agreed|resolved|resolution)"
    r"|(?P<topic>[A-Za-z][\w -]{0,40}?\s(?:agreed|decided))"
    r"|(?P<risk>risk)(?:\s+(?:raised|flagged|noted))?(?:\s+by\s+[^:]{1,40})?)"
    r"\s*:\s*(?P<text>\S.*)$", re.I)
# A review's finding rated by its risk (the AWS Well-Architected review's "HRI" / "MRI", a
# risk register's "High risk:", "Medium:"), with the question or area it answers before the colon
# ("HRI — SEC 7 (data classification): loans keep patron IDs indefinitely").
_RISK_RATING_RE = re.compile(
    r"^(?:[HML]RI\b|(?:critical|high|medium|low)[- ](?:risk|severity)\b(?:\s+(?:issue|finding))?)"
    r"[^:]{0,50}:\s*(?P<text>\S.*)$", re.I)
# An outliner's or org-mode's task marker: the block is a task; one done or dropped is no action left.
_TASK_MARKER_RE = re.compile(
    r"^(?P<marker>TODO|LATER|NOW|DOING|WAITING|DONE|CANCELED|CANCELLED)\s+(?P<text>\S.*)$")
_OPEN_TASKS = frozenset({"TODO", "LATER", "NOW", "DOING", "WAITING"})
# "Priya — DBA hire in the 2027 plan": the task's owner before a dash.
_OWNER_FIRST_RE = re.compile(
    r"^(?P<owner>@[\w-]+|[A-Z][\w'’-]+(?:\s+[A-Z][\w'’-]+)?)\s+[—–-]\s+(?P<text>\S.*)$")
# org-mode's and Logseq's planning lines under a task (`SCHEDULED: <2026-12-10 Thu>`).
_PLANNING_RE = re.compile(r"^\s*(?:SCHEDULED|DEADLINE|CLOSED):\s*[<\[]")


def _marked(text: str) -> tuple[str, str] | None:
    """A list item's kind and text when a label or a task marker says it: ("Decision", ...),
    ("Risk", ...), ("Action item", ...); an empty text for a task done (nothing to keep)."""
    task = _TASK_MARKER_RE.match(text)
    if task is not None:
        if task["marker"] not in _OPEN_TASKS:
            return "Action item", ""
        said = task["text"]
        owned = _OWNER_FIRST_RE.match(said)
        said = f"{owned['text']} (owner: {owned['owner']})" if owned else _with_owner(said)
        return ("Action item", said) if _useful(said) else None
    rated = _RISK_RATING_RE.match(text) if ":" in text[:80] else None
    if rated is not None:
        return ("Risk", rated["text"]) if _useful(rated["text"]) else None
    label = _LABELLED_RE.match(text) if ":" in text[:60] else None
    if label is None or not _useful(label["text"]):
        return None
    if label["risk"]:
        return "Risk", label["text"]
    return "Decision", text if label["topic"] else label["text"]


def _action_form(text: str) -> bool:
    """Does an item say who will do it ("Ana to draft ...", "... (owner: Ana)")? A single common
    word before "to" is no one ("Back to normal at 19:52")."""
    found = _ACTION_FORM_RE.search(text)
    actor = found["actor"] if found else None
    return found is not None and not (actor and " " not in actor and common_word(actor))


def _sentence_statements(
    sentence: str, lines: tuple[int, int], role: str | None, mode: _Mode
) -> Iterator[tuple[str, LineSpan, bool]]:
    if not _useful(sentence):
        return
    start, end = lines
    # minutes told in prose: "Rhys to run the solver on last January's data" (who, then what), "Queue-it
    # agreed for January" (what was agreed, then for when)
    owned = _NAMED_ACTION_RE.match(sentence)
    if owned is not None and not common_word(owned["actor"].split()[0]):
        yield "Action item", (_with_owner(shorten(sentence)), start, end), False
        return
    if _PASSIVE_CHOICE_RE.match(sentence):
        yield "Decision", (shorten(sentence), start, end), False
        return
    left_out = _NON_GOAL_LEAD_RE.match(plain_text(sentence)) if ":" in sentence else None
    if left_out is not None and _useful(left_out["text"]):
        yield "Non-goal", (shorten(left_out["text"]), start, end), False
        return
    if OUT_OF_SCOPE_RE.match(sentence):  # "X is not covered: its controller cannot ...": a rule too
        yield "Non-goal", (shorten(sentence), start, end), False
    clauses = [part.strip() for part in sentence.split("; ")] if "; " in sentence else [sentence]
    labels = [_form(clause, strict=not mode.loose, stories=mode.stories) for clause in clauses]
    if "Cause" in labels:  # "... because X; the network team moved CCTV to its own VLAN": the fix
        labels = [label or ("Resolution" if _ACTED_RE.search(clause) else None)
                  for clause, label in zip(clauses, labels, strict=True)]
    if len({label for label in labels if label}) > 1:  # a cause and its fix in one sentence
        for clause, label in zip(clauses, labels, strict=True):
            if label and _useful(clause):
                yield label, (shorten(clause), start, end), False
        return
    label = next((label for label in labels if label), None)
    if label is not None:
        yield label, (shorten(sentence), start, end), False
    elif role in _ROLE_LABELS and (mode.listed or role != "action"):
        yield _ROLE_LABELS[role], (shorten(sentence), start, end), True


# _form's patterns behind the words every match of each holds (one of them: a verb of choice, a
# rule's word, a failure's), so a clause that holds none is not searched (see line_search.WordGate).
_STRONG_RULE = WordGate(_STRONG_RULE_RE, ("must", "shall", "never", "not", "prohibited", "forbidden",
                                          "may", "most", "more", "need", "require"))
_RULE = WordGate(_RULE_RE, ("shall", "always", "not", "prohibited", "forbidden", "required", "need",
                            "require", "only"))
_ENFORCED = WordGate(_ENFORCED_RE, ("refuses", "rejects", "denies", "fails the", "only "))
# The condition a refusal is told under ("If the WMS rejects a file, ...", "... when the database
# refuses writes"): what happens then, not the rule.
_UNDER_CONDITION_RE = re.compile(r"\b(?:if|when|whenever|unless|once|until|after|before|while)\s+[^,;:]*$",
                                 re.I)


def _enforced(text: str, lower: str) -> bool:
    """Does a clause state a rule its system enforces (_ENFORCED_RE), outside a condition?"""
    found = _ENFORCED.search(text, lower)
    return found is not None and not _UNDER_CONDITION_RE.search(text[: found.start() + 1])
_CHOICE = WordGate(_CHOICE_RE, ("decided", "chose", "selected", "agreed", "adopted", "approved", "picked",
                                "opted", "settled", "went", "recommend", "go", "stay", "will", "decision",
                                "outcome", "accepted"))
_FAILURE = WordGate(_FAILURE_RE, ("fail", "down", "outage", "slow", "error", "saturated", "broke", "timed",
                                  "overran", "stuck", "lost", "missed", "crash", "unavailable", "degraded",
                                  "incident", "throttled", "expired"))


def _form(clause: str, *, strict: bool, stories: bool) -> str | None:
    """The kind a clause states by its own form, if any; `strict`: a rule only in the strong
    words (must, never, shall, at most, not allowed), not "only" or "cannot", which a
    description of how a thing works uses as often as a rule does."""
    text = replace_code_spans(clause, "CODE")  # a rule word inside a code span is no rule
    lower = text.lower()
    strong = (_STRONG_RULE.search(text, lower) or _NOBODY_RE.match(text) or _FORBIDS_RE.search(text)
              or _enforced(text, lower))
    if strong or (not strict and (_CONSTRAINT_RE.search(text) or _RULE.search(text, lower)
                                  or _ONLY_RE.match(text))):
        if not (_TOLD_RE.search(text) and not _OBLIGES_RE.search(text)) and not _REASONING_RE.search(text):
            return "Constraint"
    if _CHOICE.search(text, lower):
        return "Decision"
    if "reject" in lower or " not " in lower or "ruled" in lower:
        if _REJECTS_RE.search(text):  # an option turned down, told as such
            return "Rejected"
    if "back" in lower and _ROLLBACK_RE.match(text):  # "Rollback is flipping the flag, which ..."
        return "Mitigation"
    if not stories or _HYPOTHETICAL_RE.match(text):
        return None
    if _FAILURE.search(text, lower):
        if tells_cause(text):
            return "Cause"
        if tells_repair(text):
            return "Resolution"
    elif tells_repair(text) and re.search(r"\b(?:moved|recovered|restored)\b", text):
        return "Resolution"
    return None


def _useful(text: str) -> bool:
    """A statement worth a fact: some words, not a question, a command, only code, or what
    explains or doubts another statement ("Rationale. ...", "Concern (Priya): ...")."""
    if (text.rstrip("*_ ").endswith(("?", ":", "e.g.", "i.e.")) or text.startswith(("(", "!!!"))
            or _COMMAND_RE.match(text) or len(text) < 20 or _ASIDE_RE.match(text)
            or _NAVIGATION_RE.search(text)):
        return False
    return len(replace_code_spans(text).split()) >= MIN_WORDS


def _row_statements(block: list[tuple[int, str]], role: str | None = None
                    ) -> Iterator[tuple[str, LineSpan, bool]]:
    """A table's rows: the cell of its Decision column a decision, of its Mitigation column a
    mitigation, a requirement row's text (`FR-3`, `NFR-2`) a constraint; under a heading that
    says what its section holds ("Non-functional requirements", "Constraints"), each row's
    statement (the column its header names so, else the one that says the most) is of that kind."""
    rows = [(n, [plain_text(cell) for cell in table_cells(line)]) for n, line in block]
    if len(rows) < 3:
        return
    actions = action_table_items(block)  # `| Action | Owner | Due |`: each row an owned action
    for text, start, end in actions:
        yield "Action item", (text, start, end), False
    if actions:
        return
    header = [cell.lower() for cell in rows[0][1]]
    columns = [(i, _COLUMN_LABELS[key]) for i, cell in enumerate(header)
               for key in _COLUMN_LABELS if key in cell.split()]
    for number, cells in rows[2:]:
        if any(_TEMPLATE_CELL_RE.match(cell) for cell in cells):
            continue  # the template's blank row to copy ("YYYY-MM-DD", "<name>")
        for index, label in columns[:1]:
            if index < len(cells) and _useful(cells[index]):
                yield label, (shorten(cells[index]), number, number), False
        if not columns and cells and _REQUIREMENT_ID_RE.match(cells[0]):
            text = max(cells[1:], key=len, default="")
            if _useful(text):
                yield "Constraint", (shorten(text), number, number), False
                continue
        if not columns and role == "constraint":
            said = _rule_row(header, cells)
            if _useful(said) and len(_WORD_RE.findall(said)) >= 3:  # not `| hashicorp/aws | ~> 5.0 |`
                yield "Constraint", (shorten(said), number, number), True


# The header words of the column that states a rule table's rule.
_RULE_COLUMNS = frozenset({"requirement", "requirements", "constraint", "constraints", "rule", "rules",
                           "description", "statement", "policy", "principle"})
_WORD_RE = re.compile(r"(?<![\w/.-])[A-Za-z]{2,}(?![\w/.-])")
_ROW_ID_RE = re.compile(r"^(?:#|[A-Z]{0,6}-?\d{1,4}[a-z]?\.?|[A-Z]{1,6}-\d{1,4})$")


def _rule_row(header: list[str], cells: list[str]) -> str:
    """A row of a table of rules (under "Requirements", "Non-functional", "Constraints"): the
    cell of the column its header names the rule, else the row's cells but its number ("R3")
    read together ("Read a player's entitlements — p99 under 50 ms")."""
    named = next((i for i, cell in enumerate(header) if cell in _RULE_COLUMNS), None)
    if named is not None:
        return cells[named] if named < len(cells) else ""
    return " — ".join(cell for index, cell in enumerate(cells)
                      if cell and not (index == 0 and _ROW_ID_RE.match(cell)))


_COLUMN_LABELS = {"decision": "Decision", "outcome": "Decision", "chosen": "Decision",
                  "mitigation": "Mitigation", "workaround": "Mitigation", "fallback": "Mitigation"}
_TEMPLATE_CELL_RE = re.compile(r"^(?:YYYY-MM-DD|YYYY|<[^<>]{1,40}>|\.\.\.|…)$")
_REQUIREMENT_ID_RE = re.compile(r"^(?:N?FR|REQ|NFR|CON)-?\d{1,4}\b")
