"""The conclusions a reader wants kept from a genre document, as observations with their lines.

- proposal: its summary, its chosen design, each non-goal; for a rejected, withdrawn or
  superseded proposal, why (its status section or the sentence that says so);
- postmortem: summary, cause, impact, resolution, detection, trigger, mitigators, each lesson,
  and each action item with its owner; a narrative review's cause, trigger, detection and loss
  from the sentences of its story (tasks/extract/incident_prose.py); a status page's Identified
  and Monitoring updates (tasks/extract/status_updates.py);
- runbook: the alert (as its opening paragraph states it, "The alert fires when ..."), its
  meaning, impact, diagnosis, mitigation and escalation; a maintenance procedure's steps
  (Procedure, "Stage 1: ...") and its rollback;
- architecture: its overview and the constraints it states (must / must not / never / only /
  at most / at least / cannot);
- minutes: each decision and each action item with its owner; an issue it lists that tells
  how it was fixed, its cause and resolution;
- in any house style: a part under a heading that asks about it ("What was the impact on
  customers?"), a plain "Short version:" paragraph, an e-mail's story, a troubleshooting
  table's fixes (tasks/extract/runbook_tables.py), a plain-text RFC's abstract and its MUST
  sentences.

Template boilerplate is never read (tasks/extract/genre_text.py).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import replace

from tasks.extract.admonitions import boxed_lines, risk_boxes
from tasks.extract.decision_choice import lead_in_decisions
from tasks.extract.document_keys import trailing_ticket
from tasks.extract.entry_details import entry_details
from tasks.extract.genre_parts import (
    architecture_parts,
    dated_entry_decisions,
    decision_log_rows,
    faq_answer_lines,
    figure_rows,
    items_apart,
    options_not_chosen,
    out_of_scope_sentences,
    proposal_parts,
    rejected_sentences,
    rule_items,
    scope_exclusions,
    section_paragraphs,
    subsection_paragraphs,
    table_rows,
)
from tasks.extract.genre_prose import (
    SPOKEN_SUMMARY_LABELS,
    bold_label,
    bold_labelled_paragraphs,
    cause_sentence,
    impact_sentence,
    labelled,
    labelled_blocks,
    labelled_items,
    labelled_lists,
    labelled_paragraph,
    named_paragraphs,
    plain_label,
    plain_labelled_paragraphs,
    prose_paragraphs,
    run_in_paragraphs,
    sentences,
    timeline_lines,
)
from tasks.extract.genre_text import (
    CHECKBOX_ITEM_RE,
    MAX_SPAN_LINES,
    clean_lines,
    clean_visible,
    find_sections,
    list_items,
    section_paragraph,
    window_paragraph,
)
from tasks.extract.genre_text import part_fact as _fact
from tasks.extract.genres import (
    ARCHITECTURE,
    DAY_PATTERN,
    MINUTES,
    POSTMORTEM,
    PROPOSAL,
    RUNBOOK,
    RUNBOOK_USE_FIELDS,
    field_of,
    header_lines,
    is_field_line,
    is_thread_chrome,
    names_itself,
)
from tasks.extract.incident_prose import (
    alert_and_meaning,
    detection_sentences,
    duration_sentences,
    explaining_sentences,
    loss_sentences,
    named_cause_sentences,
    named_repair_sentences,
    repair_sentences,
    response_part,
    rollback_sentences,
    story_detection,
    story_sentences,
    summary_impacts,
    summary_parts,
    tells_cause,
    tells_repair,
    timeline_detection,
    timeline_entries,
    timeline_repairs,
    trigger_sentence,
)
from tasks.extract.model import CUT_MARK, MAX_OBSERVATION_CHARS, LineSpan, ObservationFact
from tasks.extract.problem_tables import five_w_rows, row_texts
from tasks.extract.review_statements import INCIDENT_PARTS, RUNBOOK_PARTS, incident_part, review_statements
from tasks.extract.runbook_alerts import alert_facts, alert_sections, listed_alerts
from tasks.extract.runbook_checklist import part_of, preamble_steps, step_parts
from tasks.extract.runbook_faq import question_answers, question_lines
from tasks.extract.runbook_steps import boxed_items, checklist_steps, faq_answers
from tasks.extract.runbook_tables import troubleshooting_rows
from tasks.extract.sentence_parts import (
    MAX_ACTS,
    MAX_COSTS,
    names_lesson,
    noticed_sentences,
    step_part,
    tells_cost,
    tells_loss,
)
from tasks.extract.sentence_parts import response_part as acted_part
from tasks.extract.status_postmortem import identified_containment, postmortem_parts
from tasks.extract.status_updates import is_update_chrome, update_parts
from tasks.extract.structure import Structure, section_key, with_subsections
from tasks.extract.tech_radar import radar_decisions
from tasks.extract.text import joined_lines, plain_text, shorten
from tasks.markdown.blocks import Section
from tasks.markdown.code_spans import replace_code_spans  # a rule word inside one is no rule
from tasks.markdown.tables import table_cells

_CONTEXT_SECTIONS = frozenset({"context and scope"})
# Each part's label and the headings it is read from, the likelier first.
_SectionKeys = tuple[tuple[str, tuple[str, ...]], ...]
_PROPOSAL_PARTS: _SectionKeys = (
    ("Summary", ("tl;dr", "tldr", "abstract", "summary", "executive summary", "overview",
                 "introduction", "objective", "objectives", "elevator pitch", "one-line summary",
                 "press release", "problem", "problem statement", "the problem",
                 # a Google design doc's opening section: what is being built, in its landscape
                 *_CONTEXT_SECTIONS)),
    ("Design", ("proposal", "design", "detailed design", "design details", "the proposal",
                "proposed design", "proposed solution", "the design", "the actual design",
                "proposed approach", "design proposal", "detailed proposal", "technical design",
                "high-level design", "design overview", "proposed change", "proposed changes",
                "proposed implementation", "specification", "reference-level explanation",
                "solution", "approach", "decision",
                # Fedora's Change proposal (its Summary, then the change told in full)
                "detailed description",
                # a Spolsky functional spec's (Overview, Scenarios, Nongoals, Details) and a
                # Loomio proposal's body: what the proposal does, told in full
                "details")),
    # the budget a pitch is shaped to (Shape Up's Appetite: "Six weeks, one designer")
    ("Constraint", ("appetite", "budget", "time budget")),
)
# (the names other readers use: a design's every statement, a meeting's topics; part_statements)
PROPOSAL_SUMMARY_SECTIONS = _PROPOSAL_PARTS[0][1]
PROPOSAL_DESIGN_SECTIONS = _PROPOSAL_PARTS[1][1]
_NON_GOALS = frozenset({"non-goals", "non goals", "nongoals", "out of scope", "not in scope",
                        "non-requirements", "anti-goals", "explicit non-goals", "no-gos", "no gos",
                        # an Amazon narrative's plain-words heading
                        "what we are not doing", "what we're not doing", "what we will not do",
                        "what we won't do"})
NON_GOAL_SECTIONS = _NON_GOALS
_NON_GOALS_LINE_RE = re.compile(
    r"^\s*(?:\*\*|__)?(?:non-?goals|out\s+of\s+scope)\s*(?:\*\*|__)?\s*:?\s*(?:\*\*|__)?\s*$", re.I
)
# The end of a labelled list: a line that is neither an item, its continuation nor blank.
_NON_GOALS_END_RE = re.compile(r"^(?![-*+]\s|\d+[.)]\s|\s|$)")
_WHY_RETIRED = frozenset({"superseded", "deprecated", "withdrawn", "rejected", "rejection",
                          "reason for rejection", "reasons for withdrawal", "status"})
_RETIRED_STATUS_RE = re.compile(r"withdrawn|rejected|declined|superseded|deprecated|abandoned|replaced", re.I)
# A proposal whose design was never adopted (a superseded or deprecated one was, for a while).
_NEVER_ADOPTED_RE = re.compile(r"withdrawn|rejected|declined|abandoned", re.I)
_RETIRED_SENTENCE_RE = re.compile(
    r"\b(?:withdrawn|rejected|declined|deprecated|not\s+(?:be\s+)?pursu|will\s+not\s+(?:be\s+)?pursu"
    r"|in\s+favou?r\s+of|superseded|replaced\s+by)", re.I
)
# A write-up's list of the chores done to end it names who did them and who was asked (people,
# partners) as often as systems: its items are kept as details, not read for subjects.
_TAKEN_SECTIONS = ("what we did", "what we have done", "what we've done", "what was done", "actions taken")
_POSTMORTEM_PARTS: _SectionKeys = (
    ("Summary", ("summary", "incident summary", "executive summary", "issue summary", "tl;dr",
                 "tldr", "the short version", "short version", "in short", "in brief", "problem statement",
                 "overview", "incident overview", "incident description", "what happened",
                 "description", "the incident", "abstract", "what actually happened",
                 # an 8D report's D2
                 "problem description")),
    ("Cause", ("root cause", "root causes", "root cause analysis", "cause", "causes",
               "root cause and trigger", "contributing factors", "contributors", "what broke",
               "what caused it", "what caused the outage", "how did it happen", "why it happened",
               "why did it happen", "why did this happen", "the cause", "why it failed",
               "the technical problem", "blameless root cause", "fault", "five whys", "5 whys", "analysis",
               # an After Action Review's (What was expected / What actually happened / Why was
               # there a difference / Sustain / Improve)
               "why was there a difference", "why were they different",
               # a Kepner-Tregoe analysis's
               "most probable cause", "probable cause", "the true cause", "true cause", "likely cause",
               # a lessons-learned entry's (NASA LLIS: Abstract, Driving Event, Lesson(s) Learned,
               # Recommendation(s)): the event and what led to it
               "driving event")),
    ("Impact", ("impact", "incident impact", "customer impact", "customer impact summary", "impact summary",
                "user impact", "user-facing impact",
                "business impact", "impact assessment", "who was affected", "blast radius",
                "what was the impact", "what was the customer impact",
                # an e-mail write-up's plain heading for what the incident cost
                "what it cost", "what it cost us", "the cost", "cost of the incident",
                # a public post's, addressed to its customers
                "what you saw", "what you may have seen", "what customers saw", "what users saw",
                "what customers experienced", "what users experienced",
                # Google Cloud's incident report (ISSUE SUMMARY, DETAILED DESCRIPTION OF IMPACT,
                # ROOT CAUSE, REMEDIATION AND PREVENTION, DETAILED TIMELINE)
                "detailed description of impact", "description of impact")),
    ("Resolution", ("resolution", "mitigation", "resolution and recovery", "mitigation and resolution",
                    "resolution/mitigation", "resolution / mitigation", "recovery",
                    "how we fixed it", "how it was fixed", "how it was resolved", "how we resolved it",
                    "the fix", "fix", "remediation", "immediate actions", "how it ended",
                    # an ITIL problem record's fix for good, after its workaround
                    "permanent fix", "permanent solution", "permanent resolution",
                    "what fixed it", "what fixed this", "what fixed the problem",
                    # Azure's post-incident review ("How did we respond?": the response, step by step)
                    "how did we respond", "how we responded", "our response",
                    # an e-mail write-up's list of what was done to end it
                    *_TAKEN_SECTIONS,
                    # an 8D report's D0 (what was done at once)
                    "emergency response", "emergency response actions",
                    # Google Cloud's (what was done, then the steps against recurrence)
                    "remediation and prevention")),
    ("Detection", ("detection", "how we noticed", "how it was detected", "how we detected it",
                   "how was it detected", "how we found out", "how we found it",
                   # a field of the incident's key information (`- **Detected by:** a viewer complaint`)
                   "detected by", "detection method")),
    # the SRE book's Trigger (the change that set a latent cause off), apart from its Root Causes
    ("Trigger", ("trigger", "triggers", "what triggered it")),
    # what limited the damage (incident.io's Contributors / Mitigators / Learnings template)
    ("Mitigation", ("mitigators", "mitigating factors",
                    # what keeps the service going until the fix (an ITIL problem record's)
                    "workaround", "workarounds", "temporary workaround",
                    # an 8D report's D3 (what holds the problem until the fix)
                    "interim containment actions", "containment actions", "interim containment")),
    # whether the actions worked (NASA LLIS's "Evidence of Recurrence Control Effectiveness")
    ("Outcome", ("evidence of recurrence control effectiveness", "recurrence control effectiveness",
                 "effectiveness of actions", "effectiveness of the actions",
                 "effectiveness of corrective actions",
                 # an 8D report's D6 (each permanent action, done and validated)
                 "implement and validate", "implement and validate corrective actions",
                 "validate corrective actions")),
)
_PART_KEYS = frozenset(key for _, keys in _POSTMORTEM_PARTS for key in keys)
_SUMMARY_ORDER = ("summary", "incident summary", "executive summary", "issue summary", "tl;dr", "tldr",
                  "abstract")
_SUMMARY_SECTIONS = frozenset(_SUMMARY_ORDER)
_TLDR = frozenset({"tl;dr", "tldr"})
# The plain labels a write-up's own summary opens with ("Short version: ...", "In short: ...").
_SUMMARY_LABELS = _SUMMARY_SECTIONS | SPOKEN_SUMMARY_LABELS
_STORY_SECTIONS = ("what happened", "the incident", "incident description", "description")
_ACTION_SECTIONS = frozenset(
    {"action items", "action item", "follow-up actions", "follow-ups", "follow-up items",
     "follow up", "follow-up", "follow-up tasks", "followups", "follow up actions",
     "corrective actions", "corrective and preventative measures", "next steps",
     "short-term improvements", "medium-term improvements", "long-term improvements",
     "planned actions", "preventive actions", "preventative actions", "todo", "todos",
     "action plan", "action item review", "actions", "remediation items", "remediations",
     "what we are changing", "what we're changing", "what we are doing about it",
     "what we're doing about it", "what we will do", "what we'll do", "what's next", "prevention",
     "decisions and action items", "action items and decisions", "improvements",
     "what we will change", "improve", "to improve", "what to improve", "what happens next"}
)
_ACTION_HEADING_RE = re.compile(
    r"\b(?:prevent(?:ing|ion)?\b.*\b(?:again|recurr\w*|future)|going\s+forward|follow[- ]?ups?\b"
    r"|action\s+items?\b|what\s+we(?:'re|\s+are|\s+will|'ll)\s+(?:doing|changing|do|change)\b|moving\s+forward"
    # a heading that asks how the next one is made rarer or smaller (Azure's post-incident review:
    # "How are we making incidents like this less likely or less impactful?")
    r"|\bless\s+(?:likely|impactful|frequent|severe|probable)\b)"
)
_RUNBOOK_PARTS: _SectionKeys = (
    ("Meaning", ("meaning", "what it means", "what this alert means", "what the alert means",
                 "what the alert does not mean", "what this alert does not mean", "what does it mean",
                 "alert",
                 "description", "overview", "summary", "symptoms",
                 "what does this alert mean", "about this alert", "alert description", "problem")),
    ("Alert", ("alert", "alert description", "alert rule", "trigger", "symptom", "symptoms",
               "when this alert fires", "when the alert fires", "when it fires", "trigger conditions",
               "what triggers this alert", "alert condition", "alert conditions",
               # a page that answers several alerts lists them first, a table of monitors
               "alerts covered", "alerts", "monitors", "monitors covered", "alerts in this runbook")),
    # "What it means for users" is what users lose (the Impact), not what the alert measures
    ("Impact", ("impact", "user impact", "customer impact", "business impact", "what it means for users",
                "what it means for customers", "what this means for users", "what this means for customers")),
    ("Summary", ("purpose", "objective", "objectives", "purpose of this procedure")),  # an SOP's
    ("Diagnosis", ("diagnosis", "troubleshooting", "investigation", "debugging", "possible causes",
                   "possible checks", "checks", "check", "how to investigate", "diagnose",
                   "investigate", "triage")),
    ("Mitigation", ("mitigation", "resolution", "remediation", "fix", "how to fix", "solution",
                    "solutions", "procedure", "steps", "mitigation steps", "what to do", "actions",
                    "recovery", "workaround", "resolve", "response",
                    "possible resolutions")),  # a GitLab alert playbook's
    ("Escalation", ("escalation", "escalate", "escalation path", "escalation chain", "escalation policy",
                    "who to call", "who to contact",
                    "contacts", "if something goes wrong", "if it goes wrong", "if things go wrong")),
)
_DECISION_SECTIONS = frozenset({"decisions", "decision", "resolutions", "consensus", "outcomes",
                                "agreed", "decided", "outcome", "decisions made", "key decisions",
                                "conclusions", "agreements", "summary of decisions"})
# The same in a design document or an architecture page, where "Outcomes" and "Conclusions" are
# what it hopes for or what a study found, not what was decided.
_DESIGN_DECISION_SECTIONS = frozenset({"decisions", "decision", "key decisions", "decisions made",
                                       "design decisions", "key design decisions", "decision log",
                                       "summary of decisions", "decided", "agreed",
                                       "determinations"})  # an Oxide RFD's
_DECISION_LINE_RE = re.compile(
    # a log's entry may open with its day ("- **2026-02-17 — decided:** litho goes back to ...")
    r"^\s*(?:[-*+]\s+)?(?:\*\*|__)?(?:" + DAY_PATTERN + r"[ \t,—–-]{1,4})?"
    # its number or key ("Decision 3:", "Decision #3:", "Decision D-25-31:", "Resolution 2024-07:")
    r"(?:(?:decision|resolution)(?:\s+(?:no\.?\s*|\#)?(?:\d{1,4}(?:[-./]\d{1,3})?|[a-z]{1,5}-?\d[\w.-]{0,10}))?"
    # where it was decided ("Decision at the ops review: ...", "Decision from the CAB: ...")
    r"|decision\s+(?:at|in|from)\s+(?:the\s+)?[\w-]+(?:\s+[\w-]+){0,3}?|decided|resolved"
    r"|consensus|agreed|outcome|conclusion)"
    r"(?:\*\*|__)?\s*:(?:\*\*|__)?\s*(?P<text>\S.*)$", re.I
)
# A list item of minutes that opens with the verb of its decision ("- Decided to remove it in the
# February release.", "- Agreed that the pool stays"): the whole item is the decision.
_DECIDED_ITEM_RE = re.compile(r"^\s*[-*+]\s+(?P<text>(?:we\s+)?(?:decided|agreed)\s+(?:to|that|on)\s+\S.*)$",
                              re.I)
# A decision log entry's field that says what follows from it (`**Consequences:** Users must ...`).
_CONSEQUENCE_LINE_RE = re.compile(
    r"^\s*(?:[-*+]\s+)?(?:\*\*|__)?consequences?(?:\*\*|__)?\s*:(?:\*\*|__)?\s*(?P<text>\S.*)$", re.I
)
_ACTION_LINE_RE = re.compile(
    r"^\s*(?:[-*+]\s+)?(?:\*\*|__)?(?:action(?:\s+item)?|AI|TODO)(?:\*\*|__)?\s*(?:\([^)]*\))?"
    r"\s*:(?:\*\*|__)?\s*(?P<text>\S.*)$", re.I
)
_CONSTRAINT_RE = re.compile(
    r"\b(?:must(?:\s+not)?|mustn't|never|at\s+(?:most|least)|cannot|(?:can|may)\s+only|shall(?:\s+not)?"
    r"|only\s+(?:one|a\s+single|once|the|by|when|if|after|within|from|through|via)"
    r"|(?:is|are|be|remains?|stays?)\s+(?:the\s+)?only"
    r"|required\s+to|should\s+only|no\s+more\s+than|exactly\s+one|(?:is|are)\s+not\s+allowed|may\s+not"
    r"|at\s+a\s+time"
    # "no service reads another's tables": a rule that forbids every one of a kind
    r"|no\s+(?:other\s+)?(?:service|team|client|component|process|job|user)s?\s+(?:may|can|reads?|writes?|calls?"
    r"|accesses?|touches?)"
    # "No other container may call OPERA Cloud", "No component of YieldBase may open a connection",
    # "no dispatch rule may use data from YieldBase": whatever the kind, none of it may
    r"|no\s+(?:[\w-]+\s+){1,3}?(?:of\s+[\w-]+\s+)?may\s+(?!not\b)"
    # where a thing may be kept and nowhere else ("The client certificate lives only in the
    # Activator's secret store", "Secrets live in Azure Key Vault only")
    r"|(?:lives?|stored|kept|held)\s+only\s+(?:in|on)"
    r"|(?:lives?|stored|kept|held)\s+(?:in|on)\s[^.;]{1,60}?\sonly(?=\s*[.;]|\s*$))\b",
    re.I,
)
# An owner and a due day in brackets after the item ("... hit rate (Sade, by 21 Feb).").
_BRACKET_OWNER_RE = re.compile(
    r"\s*\((?P<owner>[A-Z][a-z]+(?:\s+[A-Z][a-z]+)?),\s+(?P<due>(?:by|due)\s+[^)]{1,20})\)\.?")
_DASH_OWNER_RE = re.compile(r"\s[–—]\s+(?P<owner>[A-Z][\w'’-]+(?:\s+[A-Z][\w'’-]+){0,2}(?:\s+team)?)\s*$")
_OWNER_RES = (
    re.compile(r"\((?:owners?|assignee|assigned\s+to|dri)\s*[:=-]\s*(?P<owner>[^)]+)\)", re.I),
    re.compile(r"\b(?:owners?|assignee|dri)\s*:\s*(?P<owner>@?[\w][\w .'-]{0,40}?)\s*(?:[,;)]|$)", re.I),
    re.compile(r"^(?P<owner>@[\w-]+|[A-Z]?[a-z]+(?:\s+[A-Z][a-z]+)?)\s+to\s+[a-z]"),
    re.compile(r"^(?P<owner>@[\w-]+|[A-Z][a-z]+(?:\s+[A-Z][a-z]+)?)\s+will\s+[a-z]"),
    re.compile(r"^(?P<owner>[A-Z][a-z]+(?:\s+[A-Z][a-z]+)?):\s+[a-z]"),
    re.compile(r"\s[-–—]\s+(?P<owner>@[\w-]+)\s*$"),
    _DASH_OWNER_RE,
    re.compile(r"^(?P<owner>@[\w-]+):\s"),
    _BRACKET_OWNER_RE,
    re.compile(r"[(\[](?P<owner>@[\w-]+)[)\]]"),
    re.compile(r"\s(?P<owner>@[\w-]+)\s*$"),
)
# Words that open an item as "X to ..." without naming who ("Switched to pnpm", "Need to ...").
_NOT_OWNERS = frozenset("""we the this it they need needs plan plans move switch continue migrate
    want wants have has try start add update write work look make use begin going due how what
    time ability note notes concern question answer update status result results idea""".split())
_OWNER_COLUMNS = frozenset({"owner", "owners", "owner(s)", "assignee", "assignees", "assigned to",
                            "who", "dri", "responsible", "lead", "team"})
_ACTION_COLUMNS = frozenset({"item", "task", "description", "what", "todo", "follow-up", "title"})
# An action item written as a check box (`- [ ] Add an alert (@ana)`): the box is not its text.
# A line that is only emphasis and says who wrote the page or when ("*Posted by Ann, 3 May
# 2024*", "_Owner: ingest team · Last updated: May 30, 2025_"): the page's byline, not prose.
_BYLINE_RE = re.compile(
    r"^\s*[*_]+(?=[^*_]*(?:\b(?:posted|published|written|updated|owner|author|by)\b|\d{4}))[^*_]{3,160}[*_]+\s*$",
    re.I,
)
# A line that is only emphasis and says which tool the page was exported from ("_Exported from
# FireHydrant. Fields marked "—" were left empty._"): the tool's note, not the writer's summary.
_EXPORT_NOTE_RE = re.compile(
    r"^\s*[*_]+(?=[^*_]*(?<![A-Za-z])(?:exported|generated|imported|copied|migrated|synced|mirrored)\s+(?:from|by|with)\b)"
    r"[^*_]{3,200}[*_]+\s*$", re.I)
_ONLY_RE = re.compile(r"^Only\s")
# (after the condition it holds under too: "If messages sit in the dead-letter queue, do not purge them")
_FORBIDS_RE = re.compile(r"(?:^|;\s|^(?:[Ii]f|[Ww]hen|[Uu]nless|[Ww]hile|[Dd]uring)\s[^,;]{3,80},\s)"
                         r"(?:[Dd]o\s+not|[Dd]on't|[Nn]ever)\s")
# A decision item's own label ("- Decision: RFC 0057 is accepted").
# An item's own key before its text: "D1: ...", "DEC-4 -", "Decision 2:".
_ITEM_KEY_RE = re.compile(
    r"^(?:(?:decision|dec|d)[- ]?\d{1,3}|(?:decision|decided|agreed|outcome))\s*[:.)–—-]\s*", re.I
)
_DECISION_LABEL_RE = re.compile(r"^(?:decision|decided|agreed|outcome)\s*:\s*", re.I)
# A "decision" line that only points to the meeting's recording or slides ("Decision: Recording
# available here: https://...").
_NOT_DECISION_RE = re.compile(
    r"^Decision:\s+(?:the\s+)?(?:recording|video|slides|deck|transcript|notes|minutes|meeting\s+notes)\b"
    r"[^.]{0,40}?\b(?:available|here|posted|shared|uploaded|link|at)\b", re.I)
MAX_CONSTRAINTS = 30
MAX_ACTIONS = 30


def genre_conclusions(
    genre: str, structure: Structure, status: str
) -> list[ObservationFact]:
    """The genre's conclusions, in document order of each kind; a review's and a runbook's then
    every statement of their parts that no reader kept (review_statements.py)."""
    facts = _READERS[genre](structure, status)
    if genre in _STATEMENT_PARTS:
        parts, own_part = _STATEMENT_PARTS[genre]
        facts += review_statements(structure, facts, parts, own_part)
    return facts


def _parts(structure: Structure, parts: _SectionKeys, *, boxed: bool = False) -> list[ObservationFact]:
    """Each part from the section of its name ("Meaning"), else its first section of another
    name no earlier part read ("Alert"), else a paragraph led by a bold label (`**Impact:**`).
    `boxed`: a section written as a check-box list (an ops checklist's "Mitigation" under
    `- [ ]` items) gives each item, its box removed."""
    facts: list[ObservationFact] = []
    used: set[int] = set()
    for label, keys in parts:
        sections = [s for s in find_sections(structure, frozenset(keys)) if structure.number(s) not in used
                    and not _named_elsewhere(structure, s, label, keys, parts)]
        sections.sort(key=lambda s: _priority(structure, s, keys))
        # an "Overview" inside the design's own section outlines the design, not the document,
        # when a section of the document's own level says what it is about ("Context and scope")
        own = [s for s in sections if not _inside_other_part(structure, s, label, parts)]
        sections = own or sections
        found = None
        steps: list[LineSpan] = []
        keyed = 0  # how many steps are key (0: all)
        by_paragraph = label in _WHOLE_PARTS
        kind = "detail" if label in _DETAIL_PARTS else "conclusion"
        for section in sections[:1]:
            used.add(structure.number(section))
            if section_key(structure.title(section)) in _TOLD_AS_DETAIL:
                kind = "detail"  # the chores done and who did them, the event told: not read for subjects
            found = section_paragraph(structure, section)
            if found is None and label == "Impact":  # told as a table of figures (PagerDuty's)
                found = figure_rows(structure.lines(section))
            steps = _steps(structure, section, nested=label == "Diagnosis") if label in _STEP_PARTS else []
            if boxed and not steps:
                steps = boxed_items(structure.lines(section), structure.heading_lines, _MAX_STEPS)
                found = found or (steps[0] if steps else None)
            if label in _WHOLE_PARTS:  # a design is told over several paragraphs, each kept
                steps = section_paragraphs(structure, structure.lines(section), _MAX_STEPS)
                # or, when it has no text of its own, over sub-sections each opened by its
                # statement (a KEP's Proposal text is followed by user stories: not its design)
                steps = steps or subsection_paragraphs(structure, section, MAX_STEPS)
            if not steps and label in _STEP_PARTS:  # the first sub-section's steps are the key ones
                steps, keyed = _subsection_steps(structure, section)
            if label in _CASE_PARTS and not steps:  # told case by case, a paragraph (or sub-section) each
                steps = section_paragraphs(structure, with_subsections(structure, section), _MAX_STEPS)
                # (an e-mail's sign-off after its last part, "Ana", is no paragraph of it)
                steps = [step for step in steps if len(step[0].split()) >= _MIN_CASE_WORDS]
                by_paragraph = True
            steps = _alert_openings(structure, section, label) or steps
            found, steps = _table_steps(structure, section, label, found, steps)
        if not sections:
            found = labelled_paragraph(structure, frozenset(keys))
        # its first paragraph is the key one for subjects; each step of a numbered or bulleted fix
        # is kept, not the first few cut
        keyed = 1 if by_paragraph else keyed or len(steps)
        if len(steps) > 1:
            facts += [_fact(label, step, kind if index < keyed else "detail")
                      for index, step in enumerate(steps)]
        elif found:
            facts.append(_fact(label, found, kind))
        if sections:  # nothing cut silently: a list kept as one text keeps its further items
            told = steps or ([found] if found else [])
            facts += [_fact(label, item, "detail") for item in _cut_list_items(structure, sections[0], told)]
        facts += _further_sections(structure, sections, label, used)  # "Possible causes", then "Diagnosis"
    return facts


def _further_sections(structure: Structure, sections: list[Section], label: str, used: set[int]
                      ) -> list[ObservationFact]:
    """The items (else the paragraphs) of each further section a part's headings name, after the
    one read as the part, outside it and its sub-sections (a detail each: the first is the key),
    for the parts told as steps (a runbook's diagnosis, mitigation and resolution)."""
    if len(sections) < 2 or label not in _STEP_PARTS:
        return []
    held = {n for n, _ in with_subsections(structure, sections[0])}
    facts: list[ObservationFact] = []
    for section in sections[1:_MAX_PART_SECTIONS]:
        own = structure.lines(section)
        if structure.number(section) in held or any(n in held for n, _ in own):
            continue
        used.add(structure.number(section))
        told = list_items(own, limit=_MAX_STEPS) or section_paragraphs(structure, own, _MAX_STEPS)
        facts += [_fact(label, item, "detail") for item in told]
    return facts


_MAX_PART_SECTIONS = 3


# Parts a form writes as a table, a row each: what was done (an 8D's D3 and D6), the alerts a
# runbook answers (`| Monitor | Fires when | Urgency |`).
_ROW_PARTS = frozenset({"Mitigation", "Outcome", "Alert"})


def _table_steps(structure: Structure, section: Section, label: str, found: LineSpan | None,
                 steps: list[LineSpan]) -> tuple[LineSpan | None, list[LineSpan]]:
    """A part told by a table: an escalation as a table of when and whom to call (no text of its
    own), or a text that leads into one ("Almost always, one of:") and each of its rows."""
    if found is None and label == "Escalation":
        steps = table_rows(structure.lines(section))[:_MAX_STEPS]
        return (steps[0] if steps else None), steps
    if label in _ROW_PARTS:  # an 8D's containment actions, a runbook's alerts: a part that opens
        rows = row_texts(structure.lines(section))[:_MAX_STEPS]  # with its table (before any text)
        if rows and (found is None or rows[0][1] < found[1]):
            return rows[0], rows
    if found is not None and len(steps) <= 1 and found[0].endswith(":"):
        return found, [found, *table_rows(structure.lines(section))[:_MAX_STEPS]]
    if label in _WHOLE_PARTS:  # a design's "Conflict rules:" over a table: each rule a row
        steps = [step for told in steps for step in (told, *_led_table(structure, told))]
    return found, steps


def _led_table(structure: Structure, paragraph: LineSpan) -> list[LineSpan]:
    """The rows of the table a paragraph leads into ("Conflict rules:" over `| Case | Rule |`),
    each as its first two cells; none when the paragraph does not end with a colon."""
    if not paragraph[0].rstrip().endswith(":"):
        return []
    lines = structure.by_number
    number = paragraph[2] + 1
    while number in lines and not lines[number].strip():
        number += 1
    table: list[tuple[int, str]] = []
    while number in lines and lines[number].lstrip().startswith("|"):
        table.append((number, lines[number]))
        number += 1
    return table_rows(table)[:_MAX_STEPS]


def _cut_rest(structure: Structure, facts: list[ObservationFact], labels: tuple[str, ...]
              ) -> list[ObservationFact]:
    """The sentences of a kept paragraph that its observation cut short ("... [...]": a summary
    of eight sentences), kept after it under the same label, each piece within the observation's
    size and with its own lines: a long paragraph is remembered whole, not its opening alone."""
    found: list[ObservationFact] = []
    for fact in facts:
        label = fact.text.split(": ", 1)[0]
        if label not in labels or not fact.text.endswith(CUT_MARK):
            continue
        kept = " ".join(plain_text(fact.text[len(label) + 2 : -len(CUT_MARK)]).split())
        numbers = [n for n in range(fact.line_start, fact.line_end + 1) if n not in structure.heading_lines]
        lines = clean_lines([(n, structure.by_number.get(n, "")) for n in numbers])
        told = [(" ".join(plain_text(text).split()), first, last)
                for text, first, last in sentences([(n, line.strip()) for n, line in lines])]
        rest = [span for span in told if span[0] and span[0] not in kept]
        piece: list[LineSpan] = []
        room = MAX_OBSERVATION_CHARS - len(label) - 2
        for span in rest:
            if piece and len(" ".join(text for text, _, _ in [*piece, span])) > room:
                found.append(_piece(label, piece))
                piece = []
            piece.append(span)
        if piece:
            found.append(_piece(label, piece))
    return found[:_MAX_PIECES]


_MAX_PIECES = 4


def _piece(label: str, spans: list[LineSpan]) -> ObservationFact:
    text = shorten(" ".join(text for text, _, _ in spans))
    return _fact(label, (text, spans[0][1], spans[-1][2]), "detail")


def _cut_list_items(structure: Structure, section: Section, paragraphs: list[LineSpan]) -> list[LineSpan]:
    """Each item of a list that a kept paragraph holds but whose text was cut short ("... [...]"):
    a design told as a numbered list keeps its fourth step and on, a list of contributing factors
    its fourth factor, each a statement of its own."""
    lines = structure.lines(section)
    found: list[LineSpan] = []
    for text, start, end in paragraphs:
        if text.endswith(CUT_MARK):
            within = [(n, line) for n, line in lines if start <= n <= end]
            found += [item for item in list_items(within, limit=_MAX_STEPS) if item[0] not in text]
    return found


def _alert_openings(structure: Structure, section: Section, label: str) -> list[LineSpan]:
    """A runbook for several alerts, an Alert section with no text of its own and a sub-section
    each ("### LanternConsumerLagHigh", "Fires when ..."): the opening paragraph of each, at most
    _MAX_STEPS; none for any other part or shape."""
    if label != "Alert" or section_paragraphs(structure, structure.lines(section), 1):
        return []
    sections = structure.sections
    found: list[LineSpan] = []
    for sub in sections[sections.index(section) + 1:]:
        if sub.level <= section.level or len(found) == _MAX_STEPS:
            break
        if sub.level == section.level + 1 and (opening := section_paragraph(structure, sub)) is not None:
            found.append(opening)
    return found


def _inside_other_part(structure: Structure, section: Section, label: str, parts: _SectionKeys) -> bool:
    """Whether the section is a sub-section of one that another part is read from ("### Overview"
    under "## The actual design")."""
    sections = structure.sections
    level = section.level
    for parent in reversed(sections[1:sections.index(section)]):
        if parent.level < level:
            key = section_key(structure.title(parent))
            if any(key in keys for name, keys in parts if name != label):
                return True
            level = parent.level
    return False


def _named_elsewhere(structure: Structure, section: Section, label: str, keys: tuple[str, ...],
                     parts: _SectionKeys) -> bool:
    """Whether another part names the section's whole heading ("What it means for users", an
    Impact) when this part matches only its first words ("what it means", a Meaning)."""
    key = section_key(structure.title(section))
    return key not in keys and any(key in other for name, other in parts if name != label)


# Parts kept as facts but not read for subjects: who noticed is a place, a person or a channel
# as often as a system ("Branch staff at Eastgate called the Catalogue team").
_DETAIL_PARTS = frozenset({"Detection"})


# The parts told over several paragraphs, each a statement of its own (the chosen design's
# state machine, then "The fallback steps are not configurable", then how APNs authenticates).
_WHOLE_PARTS = frozenset({"Design"})
# The parts a runbook or a write-up tells case by case when they are no list of steps: a
# paragraph per cause ("**Fix B - RGW overloaded.** Halve the worker count ..."), a sub-section
# per failure ("### State directory hung (NFS)"), or a second paragraph that goes on; a
# triage's checks as numbered sub-sections ("### 1. Is it one channel?", "### 2. Is it the CDN?");
# an impact told over paragraphs, what is late then what is not lost ("Nothing is lost while the
# queue grows: ...").
_CASE_PARTS = frozenset({"Resolution", "Mitigation", "Meaning", "Diagnosis", "Impact"})
# The parts whose section is often a list of steps taken or to take (a triage's checks too).
_STEP_PARTS = frozenset({"Resolution", "Mitigation", "Diagnosis"})
_MAX_STEPS = 8
_HEADED_PARTS = _STEP_PARTS | {"Escalation"}
_MIN_CASE_WORDS = 3


def _steps(structure: Structure, section: Section, *, nested: bool = False) -> list[LineSpan]:
    """The items of the list a section opens with (a sentence before it may introduce it);
    `nested`: its sub-items too, each of its own (a triage step's "Reason `None`: ..." cases)."""
    lines = clean_lines(structure.lines(section))
    paragraphs = [n for n, line in lines if line.strip()]
    if not paragraphs:
        return []
    opening = [(n, line) for n, line in lines if n < paragraphs[0] + MAX_SPAN_LINES]
    items = list_items(opening, limit=_MAX_STEPS, nested=nested)
    if not items or items[0][1] > paragraphs[0] + 2:
        return []
    return items + _closing_paragraph(structure, lines, items[-1][2])


def _subsection_steps(structure: Structure, section: Section) -> tuple[list[LineSpan], int]:
    """The list items of a part's sub-sections when it has no text of its own ("## Fixes" over
    "### One consumer is behind" and "### Beacon lost the stream"), each step its own, and how
    many are the first sub-section's (the key ones, as a first paragraph is); none when the
    sub-sections are told in paragraphs more than in lists."""
    if any(line.strip() for _, line in structure.lines(section)):
        return [], 0
    lines = with_subsections(structure, section)
    items = list_items(lines, limit=2 * _MAX_STEPS)
    listed = {n for _, start, end in items for n in range(start, end + 1)}
    told = [n for n, line in lines if line.strip() and n not in listed and n not in structure.heading_lines]
    if not items or len(told) > len(items):
        return [], 0
    heading = next((n for n in sorted(structure.heading_lines) if n > items[0][1]), None)
    return items, sum(heading is None or item[1] < heading for item in items)


def _closing_paragraph(structure: Structure, lines: list[tuple[int, str]], after: int) -> list[LineSpan]:
    """The paragraph that closes a list of steps ("After any fix, confirm that ..."): a step
    too. None when more list follows (items past the window) or when it sits in a list item."""
    rest = [(n, line) for n, line in lines if n > after]
    start = next((i for i, (_, line) in enumerate(rest) if line.strip()), None)
    if start is None or rest[start][1][:1] in " \t" or list_items(rest[start:start + 1]):
        return []
    found = window_paragraph(rest[start:], structure.code_content)
    return [found] if found else []


def _priority(structure: Structure, section: Section, keys: tuple[str, ...]) -> int:
    """Where a section's heading stands among a part's headings (0: the likeliest)."""
    key = section_key(structure.title(section))
    base = re.split(r"\s*[(:\[]|\s[-–—]\s", key, maxsplit=1)[0].strip()  # as find_sections reads it
    return keys.index(key) if key in keys else keys.index(base) if base in keys else len(keys)


def _proposal(structure: Structure, status: str) -> list[ObservationFact]:
    """Summary (a `**TL;DR:**` line first: the author's own), design, non-goals, and why a
    retired proposal was retired."""
    facts = _parts(structure, _PROPOSAL_PARTS)
    facts += _detailed_design(structure, facts) + _stated_design(structure, facts)
    # a Google design doc's "Context and scope" summarises the landscape the design enters: kept,
    # but the systems it names are its neighbours, not read as the document's subjects
    context = {n for section in find_sections(structure, _CONTEXT_SECTIONS)
               for n, _ in structure.lines(section)}
    facts = [replace(f, kind="detail") if f.line_start in context else f for f in facts]
    tldr = labelled_paragraph(structure, _TLDR) or _header_abstract(structure)
    if tldr is not None:
        others = [fact for fact in facts if not fact.text.startswith("Summary: ")]
        facts = [_fact("Summary", tldr, "conclusion"), *others]
    if not any(f.text.startswith("Summary: ") for f in facts):  # "Abstract" on a plain line
        said = named_paragraphs(structure, frozenset(_PROPOSAL_PARTS[0][1]))
        facts = [_fact("Summary", said[0], "conclusion"), *facts] if said else facts
    facts = _with_summary(structure, facts)
    facts += _cut_rest(structure, facts, ("Summary", "Design"))
    facts += _proposing_paragraphs(structure, facts)
    facts += _non_goals(structure)
    if _RETIRED_STATUS_RE.search(status):
        why = _why_retired(structure, status)
        if why is not None:
            facts.append(why)
    if never := _NEVER_ADOPTED_RE.search(status):  # its design was never the team's: not "Design"
        label = f"{never.group(0).capitalize()} design: "
        facts = [replace(f, text=label + f.text.removeprefix("Design: ")) if f.text.startswith("Design: ")
                 else f for f in facts]
    summary = _lines_of(facts, "Summary")  # the abstract says what the document requires: not one
    stated = _constraints(structure)
    design = _lines_of(facts, "Design") - summary
    # an RFC 2119 requirement anywhere; in lower case, a rule of the chosen design itself ("The
    # queue must never hold more than 5,000 taps" inside a Reference-level explanation)
    facts += [fact for fact in stated if fact.line_start not in summary and _REQUIREMENT_RE.search(fact.text)]
    # a detail: the design's names are read from the Design part, not again from each of its rules
    facts += [replace(fact, kind="detail") for fact in stated if fact.line_start in design - summary
              and not _REQUIREMENT_RE.search(fact.text)]
    parts = proposal_parts(structure)
    # a goal that forbids ("Never book a contact the orbit service has not confirmed") or limits
    # ("A column reaches the portal only if it is listed") is a rule
    # the design keeps, as a Constraints section's item is
    parts += [replace(fact, text="Constraint: " + fact.text.removeprefix("Goal: ")) for fact in parts
              if fact.text.startswith("Goal: ") and _states_limit(fact.text.removeprefix("Goal: "))]
    # its Alternatives (a rationale may name the option it turned down: "(rejected: ...)")
    read = {n for fact in parts if fact.text.startswith("Rejected: ")
            for n in range(fact.line_start, fact.line_end + 1)}
    read |= {f.line_start for f in facts if f.text.startswith("Why ")}  # the proposal's own rejection
    facts += [fact for fact in rejected_sentences(structure) if fact.line_start not in read]
    read |= {f.line_start for f in facts if f.text.startswith("Rejected: ")}
    facts += [fact for fact in options_not_chosen(structure, design) if fact.line_start not in read]
    answers = faq_answer_lines(structure) - summary  # a FAQ's answer that states a rule
    ruled = {f.line_start for f in parts if f.text.startswith("Constraint: ")}
    facts += [fact for fact in map(_answered, stated) if fact.line_start in answers
              and fact.line_start not in ruled and _CONSTRAINT_RE.search(replace_code_spans(fact.text))]
    facts += _led_in_decisions(structure, facts + parts) + _conditions(structure)
    return (facts + parts + _rollout_steps(structure) + _design_decisions(structure)
            + _stated_rules(structure, facts + parts) + _flagged_risks(structure))


# A header block's Abstract field (a Debian DEP's `Abstract:` over its indented lines).
_ABSTRACT_FIELD_RE = re.compile(r"^(?P<indent>\s*)Abstract:\s*(?P<text>.*)$")


def _header_abstract(structure: Structure) -> LineSpan | None:
    """The text of the header's Abstract field, its folded lines (indented deeper) joined: the
    author's own summary, as a TL;DR is."""
    lines = header_lines(structure)
    for index, (number, line) in enumerate(lines):
        field = _ABSTRACT_FIELD_RE.match(line)
        if field is None:
            continue
        parts, last = [field["text"].strip()], number
        for later, text in lines[index + 1 : index + MAX_SPAN_LINES]:
            if not text.strip() or len(text) - len(text.lstrip()) <= len(field["indent"]):
                break
            parts.append(text.strip())
            last = later
        said = plain_text(joined_lines(part for part in parts if part))
        return (shorten(said), number, last) if len(said.split()) >= _MIN_CASE_WORDS else None
    return None


def _non_goals(structure: Structure) -> list[ObservationFact]:
    """The Non-goals section's items (else its paragraph), else a "Non-goals:" list; and each
    sentence elsewhere that leaves something out of scope."""
    facts: list[ObservationFact] = []
    for section in find_sections(structure, _NON_GOALS)[:1]:
        items = list_items(with_subsections(structure, section), limit=12)
        if not items:
            found = section_paragraph(structure, section)
            items = [found] if found else []
        facts += [_fact("Non-goal", item, "conclusion") for item in items]
    if not facts:
        facts += [_fact("Non-goal", item, "conclusion") for item in _labelled_non_goals(structure)]
    listed = _lines_of(facts, "Non-goal")
    return facts + [_fact("Non-goal", span, "conclusion") for span in out_of_scope_sentences(structure)
                    if span[1] not in listed]


def _led_in_decisions(structure: Structure, facts: list[ObservationFact]) -> list[ObservationFact]:
    """The decision told under a line that says it follows ("Decision, 2 Feb 2026, after the
    call:"), where no fact read already holds its lines."""
    read = {n for fact in facts for n in range(fact.line_start, fact.line_end + 1)}
    said = lead_in_decisions(structure.paragraphs, dict(clean_visible(structure)), structure.heading_lines)
    return [_fact("Decision", span, "decision") for span in said if span[1] not in read]


def _conditions(structure: Structure) -> list[ObservationFact]:
    """An approval's conditions (`Conditions:` over a list, as a change board or review board
    writes them under its outcome): each a rule the approved work must keep."""
    return [_fact("Constraint", item, "detail") for block in labelled_lists(structure, _CONDITION_LABELS)
            for item in list_items(block, limit=MAX_ACTIONS)]


# A design's plan to put it in place, in steps ("### Rollout": "1. Run the indexer in shadow for
# two weeks ...").
_ROLLOUT_SECTIONS = frozenset({"rollout", "rollout plan", "migration plan", "deployment plan", "launch plan",
                               "rollout strategy", "migration strategy"})


def _states_limit(goal: str) -> bool:
    """Does a goal forbid ("Never book ...") or state a rule ("A column reaches the portal only if
    it is listed in the dictionary")?"""
    return _FORBIDS_RE.match(goal) is not None or _CONSTRAINT_RE.search(replace_code_spans(goal)) is not None


def _rollout_steps(structure: Structure) -> list[ObservationFact]:
    """Each item of the first rollout section's list (a question left there is the template's)."""
    for section in find_sections(structure, _ROLLOUT_SECTIONS)[:1]:
        items = list_items(structure.lines(section), limit=MAX_STEPS)
        return [_fact("Procedure", item, "detail") for item in items if not item[0].rstrip().endswith("?")]
    return []


# The section that details a design the proposal's Proposal section outlines (the KEP template's
# "Design Details", a design doc's "Detailed design", a Rust RFC's "Reference-level explanation",
# a HashiCorp RFC's "Implementation").
_DETAIL_SECTIONS = frozenset({"design details", "detailed design", "reference-level explanation",
                              "technical design", "implementation details",
                              # HashiCorp's RFC template's: how the proposal will be built
                              "implementation",
                              # a Kafka KIP's (and the Apache-style proposals'): the interfaces it changes
                              "public interfaces", "public interface changes", "interface changes",
                              "api changes"})


def _detailed_design(structure: Structure, facts: list[ObservationFact]) -> list[ObservationFact]:
    """The opening paragraph of each section that details the design, when the Design part was
    read from another section (a KEP's Proposal): the design's detail, not only its outline."""
    design = _lines_of(facts, "Design")
    found: list[ObservationFact] = []
    # an OpenStack spec's "<area> impact" sections (REST API impact, Security impact): what the
    # change does to each area, a detail of the design ("None." says nothing)
    impacts = [section for section in structure.sections[2:]
               if _AREA_IMPACT_RE.match(section_key(structure.title(section)))]
    for section in [*find_sections(structure, _DETAIL_SECTIONS), *impacts] if design else []:
        # its own text only: the template's sub-sections (Test Plan, Graduation Criteria) are no
        # design; each paragraph of it ("The relay must be idempotent: ...", after the event's fields)
        found += [_fact("Design", paragraph, "detail")
                  for paragraph in section_paragraphs(structure, structure.lines(section), _MAX_STEPS)
                  if paragraph[1] not in design and len(paragraph[0].split()) >= _MIN_CASE_WORDS]
    return found


_AREA_IMPACT_RE = re.compile(r"^(?:[\w/-]+\s){1,4}impact$")


# A sentence that says what the document changes ("This RFC adds a fourth stage, `guard`, ...",
# "The proposal replaces the nightly export with ..."): the section it opens tells the design,
# whatever its heading ("Architecture changes", "How it works", "The plan").
_CHANGES_RE = re.compile(
    r"\b(?:this|the)\s+(?:rfc|proposal|design|doc|document|change|pitch|kep|pep)\s+(?:adds|introduces"
    r"|replaces|changes|moves|splits|removes|extends|makes|puts|turns)\b", re.I)


def _stated_design(structure: Structure, facts: list[ObservationFact]) -> list[ObservationFact]:
    """When no section was read as the design: the first section that says what the document
    changes, each paragraph and each item of its lists a Design (details: a section found by
    what it says is not read for the document's subjects)."""
    if _lines_of(facts, "Design") or not _CHANGES_RE.search(structure.text):
        return []
    read = {n for fact in facts for n in range(fact.line_start, fact.line_end + 1)}
    for section in structure.sections[2:]:
        own = structure.lines(section)
        if any(n in read for n, _ in own) or not any(_CHANGES_RE.search(line) for _, line in own):
            continue
        told = items_apart(structure, section_paragraphs(structure, own, _MAX_STEPS), _MAX_STEPS)
        told += [item for item in list_items(own, limit=_MAX_STEPS) if item[1] not in {t[1] for t in told}]
        return [_fact("Design", span, "detail") for span in sorted(told, key=lambda span: span[1])]
    return []


# A question written on the line above its answer, read into the answer's first sentence
# ("Q: How long can a phone stay offline? A: A phone may hold at most ...").
_QUESTION_LEAD_RE = re.compile(r"^Constraint: (?:(?:Q\s*[:.]\s*)?[^?]{3,200}\?\s+)?A(?:nswer)?\s*[:.]\s*"
                               r"|^Constraint: (?:Q\s*[:.]\s*)?[^?]{3,200}\?\s+")


def _answered(fact: ObservationFact) -> ObservationFact:
    """The constraint without the question that leads it, from the answer's first line."""
    text = _QUESTION_LEAD_RE.sub("Constraint: ", fact.text, count=1)
    if text == fact.text:
        return fact
    asked = "?" in fact.text[: len(fact.text) - len(text) + len("Constraint: ")]  # a question line above
    start = fact.line_start + 1 if asked and fact.line_end > fact.line_start else fact.line_start
    return replace(fact, text=text, line_start=start)


def _design_decisions(structure: Structure) -> list[ObservationFact]:
    """A design document's own list of what it decided (a "Decisions" section, a dated
    decision log table), each item a decision."""
    rows = decision_log_rows(structure, _states_rule)  # a dated table's rows: its Decision column
    dated = {fact.line_start for fact in rows}
    # details: their names are not read as the page's subjects (a choice names what it rejected)
    listed = _section_decisions(structure, _DESIGN_DECISION_SECTIONS)
    return [replace(fact, kind="detail") for fact in rows + [f for f in listed if f.line_start not in dated]]


def _states_rule(sentence: str) -> bool:
    """Does a sentence state a rule ("FASTQ must not be deleted until ...")?"""
    return len(sentence) >= 20 and _CONSTRAINT_RE.search(replace_code_spans(sentence)) is not None


def _stated_rules(structure: Structure, facts: list[ObservationFact]) -> list[ObservationFact]:
    """Each item of a section whose heading says it lists rules, not read already as a constraint."""
    stated = {fact.line_start for fact in facts if fact.text.startswith("Constraint: ")}
    return [fact for fact in rule_items(structure) if fact.line_start not in stated]


states_rule = _states_rule  # (a statement's rule, for part_statements)


# The requirement key words of RFC 2119 as a specification writes them (upper case), not as the
# boilerplate that defines them quotes them ('The key words "MUST", "MUST NOT" ...').
_REQUIREMENT_RE = re.compile(r'(?<!")\b(?:MUST(?: NOT)?|SHALL(?: NOT)?|REQUIRED|MAY)\b(?!")')


def _labelled_non_goals(structure: Structure) -> list[LineSpan]:
    """The list after a `**Non-goals:**` line (a Goals and non-goals section written as two
    labelled lists)."""
    lines = structure.visible
    for index, (number, line) in enumerate(lines):
        if number not in structure.heading_lines and _NON_GOALS_LINE_RE.match(line):
            following: list[tuple[int, str]] = []
            for later, text in lines[index + 1 : index + MAX_SPAN_LINES]:
                if later in structure.heading_lines or (following and _NON_GOALS_END_RE.match(text)):
                    break
                following.append((later, text))
            return list_items(following, limit=12)
    return []


def _with_summary(structure: Structure, facts: list[ObservationFact]) -> list[ObservationFact]:
    """`facts`, led by a Summary from the opening paragraph when no Summary section gave one."""
    if not any(f.text.startswith("Summary: ") for f in facts):
        found = window_paragraph(clean_lines(_preamble(structure)), structure.code_content)
        if found and not found[0].rstrip().endswith("?"):  # a form's first question says nothing
            facts.insert(0, _fact("Summary", found, "conclusion"))
    return facts


def _preamble(structure: Structure) -> list[tuple[int, str]]:
    """The lines before the first section below the title, without header fields."""
    sections = structure.sections
    lines = list(structure.lines(sections[0]))
    if len(sections) > 1 and sections[1].level == 1:
        lines += structure.lines(sections[1])
    kept: list[tuple[int, str]] = []
    in_field = in_comment = False
    for number, line in lines:
        # a reStructuredText comment (`..` over indented lines: an OpenStack spec's licence notice)
        in_comment = bool(_RST_COMMENT_RE.match(line)) or in_comment and line[:1] in (" ", "\t")
        if in_comment:
            line = ""
        if not line.strip():
            in_field = False
        elif (is_field_line(line) or _BYLINE_RE.match(line) or labelled(line) or names_itself(line)
              or is_update_chrome(line)):
            in_field = True  # `**Summary:** ...` wrapped: its lines are the field's
        if (in_field or _BYLINE_RE.match(line) or _EXPORT_NOTE_RE.match(line) or _SALUTATION_RE.match(line)
                or is_thread_chrome(line)):
            line = ""  # an e-mail's "Hi all," greets; it does not open the story
        kept.append((number, line))
    return kept


_RST_COMMENT_RE = re.compile(r"^\.\.(?:\s*$|\s+(?!\[|_|\|)(?![\w-]+::))")
_SALUTATION_RE = re.compile(
    r"^\s*(?:hi|hello|hey|dear|greetings|good\s+(?:morning|afternoon|evening))\b[\w ,'-]{0,30}?[,!:]?\s*$",
    re.I)


# The paragraph in which a document says what it proposes ("This doc proposes a topology model
# inside NetLedger that answers that question"), after the landscape its opening section draws.
_PROPOSES_RE = re.compile(
    r"^(?:this|the\s+present)\s+(?:doc|document|design(?:\s+doc)?|proposal|rfc|kep|pep|one-pager|page)\s+"
    r"(?:proposes|describes|introduces|suggests|recommends)\b", re.I)


def _proposing_paragraphs(structure: Structure, facts: list[ObservationFact]) -> list[ObservationFact]:
    """The paragraph of the summary's section, after the one kept as the Summary, that says
    what the document proposes: a Summary too (a detail: its names are read from the design)."""
    kept = _lines_of(facts, "Summary")
    for section in find_sections(structure, frozenset(_PROPOSAL_PARTS[0][1]))[:1]:
        for text, start, end in section_paragraphs(structure, structure.lines(section), _MAX_STEPS):
            if start not in kept and _PROPOSES_RE.match(text):
                return [_fact("Summary", (text, start, end), "detail")]
    return []


def _why_retired(structure: Structure, status: str) -> ObservationFact | None:
    """Why a proposal was withdrawn, rejected or superseded: the section that says so, else
    the first paragraph that does."""
    word = _RETIRED_STATUS_RE.search(status)
    label = f"Why {word.group(0).lower() if word else 'retired'}"
    for section in find_sections(structure, _WHY_RETIRED):
        found = section_paragraph(structure, section)
        if found and _RETIRED_SENTENCE_RE.search(found[0]):
            return _fact(label, found, "conclusion")
    lines = structure.by_number
    for start, end in structure.paragraphs:
        if end - start >= MAX_SPAN_LINES:
            continue
        own = [lines.get(n, "").strip() for n in range(start, end + 1)]
        if all(is_field_line(line) for line in own if line):
            continue  # the header block (`- Status: Superseded`) says so, not why
        text = plain_text(joined_lines(own))
        if _RETIRED_SENTENCE_RE.search(text) and "<!--" not in lines.get(start, ""):
            return _fact(label, (shorten(text), start, end), "conclusion")
    return None


def _postmortem(structure: Structure, status: str) -> list[ObservationFact]:
    """A free-form write-up opens with its summary and tells the cause under "What happened":
    its opening paragraph is the Summary unless a summary section states one."""
    parts = _POSTMORTEM_PARTS
    strong = find_sections(structure, _SUMMARY_SECTIONS) or labelled_paragraph(structure, _SUMMARY_SECTIONS)
    opening = window_paragraph(clean_lines(_preamble(structure)), structure.code_content)
    (summary, summary_keys), (cause, cause_keys), *others = parts
    asked = _why_headings(structure)
    # a part titled "Why" alone asks why it happened: before the story ("What happened" then tells
    # the incident); its own "Why X dropped them" (or "Why it hurt so much") after it
    cause_keys += tuple(key for key in asked if _WHY_ALONE_RE.match(key))
    if not strong and opening and not _quoted(structure, opening[1]):
        summary_keys, cause_keys = _SUMMARY_ORDER, cause_keys + _STORY_SECTIONS
    cause_keys += tuple(key for key in asked if key not in cause_keys)
    # a part named by what it tells, in the writer's own words ("What guests and hotels saw", "Why
    # we did not notice", "How it was noticed"): the heading's verb says which part it is
    others = [(label, keys + _headings_like(structure, _TOLD_BY_HEADING[label], keys))
              if label in _TOLD_BY_HEADING else (label, keys) for label, keys in others]
    parts = ((summary, summary_keys), (cause, cause_keys), *others)
    facts = _response_entries(structure, _with_summary(structure, _parts(structure, parts)))
    told_cause = any(fact.text.startswith("Cause: ") for fact in facts)
    if not find_sections(structure, _SUMMARY_SECTIONS):  # "Short version: on Thursday ..." states it
        # in plain words or in bold ("**Short version:** from 01:00 this morning ...")
        said = (plain_labelled_paragraphs(structure, _SUMMARY_LABELS)
                or run_in_paragraphs(structure, _SUMMARY_LABELS))
        if said:
            facts = [_fact("Summary", said[0], "conclusion"),
                     *(fact for fact in facts if not fact.text.startswith("Summary: "))]
    last_of: dict[str, ObservationFact] = {}  # a part told in steps goes on after its last step
    for fact in facts:
        if fact.text.startswith(_TOLD_AT_LENGTH):
            label = fact.text.split(": ", 1)[0]
            if label not in last_of or fact.line_end > last_of[label].line_end:
                last_of[label] = fact
    facts += [more for fact in last_of.values() for more in _next_paragraphs(structure, fact)]
    read = {n for fact in facts for n in range(fact.line_start, fact.line_end + 1)}
    facts += [_fact(label, found, "conclusion") for label, keys in _POSTMORTEM_PARTS[1:]
              for found in [*plain_labelled_paragraphs(structure, frozenset(keys)),
                            *labelled_items(structure, frozenset(keys)),
                            *bold_labelled_paragraphs(structure, frozenset(keys))] if found[1] not in read]
    # a status page's updates, read as prose is (not key lines for the subjects: "the export job")
    # (kept beside a write-up's own part: the Identified update names the cause as found that day)
    kept = {fact.text for fact in facts}
    facts += [_fact(label, found, "detail") for label, found in update_parts(structure)
              if f"{label}: {found[0]}" not in kept]
    # the Postmortem update's paragraphs after its summary, and what the Identified update did at once
    facts += [_fact(label, found, "detail") for label, found in postmortem_parts(structure)]
    facts += [_fact("Mitigation", found, "detail") for found in identified_containment(structure)]
    for label, reader in (("Cause", cause_sentence), ("Impact", impact_sentence)):
        if not any(fact.text.startswith(f"{label}: ") for fact in facts):
            found = reader(structure)
            if found is not None:
                facts.append(_fact(label, found, "conclusion"))
    decided = [fact for fact in _decision_lines(structure) if fact.line_start not in read]
    facts += [fact for fact in _confirmed_causes(structure) if fact.line_start not in read]
    for story_reader in _STORY_READERS:  # each reads beside what the readers before it found
        facts += story_reader(structure, facts)
    if not told_cause:  # no part of its own: the story beside the summary tells it
        facts += _story_causes(structure, facts)
    return facts + _lessons(structure) + _actions(structure, more=_REVIEW_ACTION_SECTIONS) + decided


def _story_causes(structure: Structure, facts: list[ObservationFact]) -> list[ObservationFact]:
    """The paragraphs of a review's story ("What happened" beside its Summary) when no section
    names the cause: each a Cause (a detail), unless a cause read from its sentences holds it all;
    not the paragraph read as the Summary (a "Description" may be both)."""
    held = _lines_of(facts, "Cause")
    summary = _lines_of(facts, "Summary")
    found: list[ObservationFact] = []
    for section in find_sections(structure, frozenset(_STORY_SECTIONS))[:1]:
        for span in section_paragraphs(structure, structure.lines(section), _MORE_PARAGRAPHS + 1):
            lines = range(span[1], span[2] + 1)
            if not all(n in held for n in lines) and not any(n in summary for n in lines):
                found.append(_fact("Cause", span, "detail"))
    return found


_RESPONSE_SECTIONS = frozenset({"how did we respond", "how we responded", "our response"})
# A lessons-learned entry's story of the event (who was on shift, what they saw): its people,
# roles and places are told as often as its systems.
_TOLD_EVENTS = frozenset({"driving event"})
_TOLD_AS_DETAIL = frozenset({*_TAKEN_SECTIONS, *_RESPONSE_SECTIONS, *_TOLD_EVENTS})


def _response_entries(structure: Structure, facts: list[ObservationFact]) -> list[ObservationFact]:
    """The response told entry by entry ("How did we respond?": "10:22 The help desk raised a
    P1", "10:50 Ana identified connection exhaustion", "11:05 The job was stopped"): an entry
    that tells who noticed it is the detection, one that tells who found what was wrong the
    diagnosis, the others the resolution."""
    lines = {n for section in find_sections(structure, _RESPONSE_SECTIONS)
             for n, _ in structure.lines(section)}
    if not lines:
        return facts
    found: list[ObservationFact] = []
    for fact in facts:
        label, _, text = fact.text.partition(": ")
        part = response_part(text) if label == "Resolution" and fact.line_start in lines else None
        found.append(replace(fact, text=f"{part}: {text}", kind="detail") if part else fact)
    return found


def _contributing_factors(structure: Structure, facts: list[ObservationFact]) -> list[ObservationFact]:
    """Each contributing factor listed beside a root cause section (PagerDuty's and incident.io's
    templates have both): a cause too, when no Cause read it already."""
    read = {n for fact in facts if fact.text.startswith("Cause: ")
            for n in range(fact.line_start, fact.line_end + 1)}
    found: list[ObservationFact] = []
    named = [section for section in structure.sections[1:]  # "What we think contributed" too
             if _CONTRIBUTED_RE.search(section_key(structure.title(section)))]
    sections = [*find_sections(structure, _CONTRIBUTING_SECTIONS), *named]
    blocks = [structure.lines(section) for section in sections]
    # or under a label alone on its line (`**Contributing factors**` inside "Why it happened")
    if "ontribut" in structure.text:  # a literal gate: most reviews write no such label
        blocks += labelled_lists(structure, _CONTRIBUTING_SECTIONS)
    for lines in blocks:
        items = list_items(lines, limit=MAX_STEPS)
        found += [_fact("Cause", item, "detail") for item in items if item[1] not in read]
    return found


_CONTRIBUTING_SECTIONS = frozenset({"contributing factors", "contributors", "contributing causes"})
# A heading that asks, in its own words, what contributed ("What we think contributed").
_CONTRIBUTED_RE = re.compile(r"^what\b.*\bcontributed\b")


def _what_went_wrong(structure: Structure, facts: list[ObservationFact]) -> list[ObservationFact]:
    """Each item (else each paragraph) of a review's "What went wrong" (the SRE book's and
    incident.io's section beside "What went well"): a cause that made it happen or last ("The
    connector treated 401 like any other error", "The dead-letter queues had no alarm"), a
    detail, where no part read its lines already. Each item of its list is a Lesson too: the SRE
    template files What went wrong under Lessons Learned (told in paragraphs, it is the story)."""
    read = {n for fact in facts for n in range(fact.line_start, fact.line_end + 1)}
    found: list[ObservationFact] = []
    went_wrong = find_sections(structure, _WENT_WRONG)[:1]
    for section in [*went_wrong, *find_sections(structure, _FINDINGS)[:1]]:
        lines = with_subsections(structure, section)
        items = list_items(lines, limit=MAX_STEPS)
        told = items or section_paragraphs(structure, lines, _MAX_STEPS)
        # a finding that rules a suspect out ("Gatehouse SSO was not a factor") is no cause: what
        # the diagnosis settled
        found += [_fact("Diagnosis" if _RULED_OUT_RE.search(span[0]) else "Cause", span, "detail")
                  for span in told if span[1] not in read]
        if section in went_wrong:
            found += [_fact("Lesson", span, "detail") for span in items]
    return found


_WENT_WRONG = frozenset({"what went wrong", "what went badly", "what didn't go well", "what did not go well",
                         "what didn't go so well", "what did not go so well"})  # FireHydrant's
_RULED_OUT_RE = re.compile(
    r"\b(?:was|were|is|are)\s+not\s+(?:a\s+)?(?:factor|contributing\s+factor|involved|the\s+cause|a\s+cause"
    r"|to\s+blame)\b|\bruled\s+out\b|\bplayed\s+no\s+part\b", re.I)
# What an investigation found on the way to the cause (a problem record's dated notes): causes too.
_FINDINGS = frozenset({"investigation notes", "investigation", "findings", "investigation findings",
                       "key findings", "analysis notes", "investigation log"})


# A tested hypothesis marked as the cause at its end ("... Explains every IS and every IS NOT.
# *True cause.*"), as a Kepner-Tregoe analysis or a debugging log lists its possible causes.
_CONFIRMED_CAUSE_RE = re.compile(r"\b(?:true|confirmed|actual|real)\s+(?:root\s+)?cause\W*$", re.I)
_HYPOTHESES_RE = re.compile(r"\bcauses\b|\bhypothes[ei]s\b")


def _confirmed_causes(structure: Structure) -> list[ObservationFact]:
    """Each item of a list of possible causes that its writer marks as the true one."""
    facts: list[ObservationFact] = []
    for section in structure.sections[2:]:
        if not _HYPOTHESES_RE.search(section_key(structure.title(section))):
            continue
        lines = structure.lines(section)
        items = list_items(lines)
        if not items:
            continue
        ends = [item[1] - 1 for item in items[1:]] + [lines[-1][0] if lines else 0]
        for (text, start, end), last in zip(items, ends, strict=True):
            # the mark may sit past the lines an item's text is read from: read to the next item
            own = [(n, line) for n, line in lines if start <= n <= last and line.strip()]
            if own and _CONFIRMED_CAUSE_RE.search(" ".join(line for _, line in own).rstrip()):
                facts.append(_fact("Cause", (text, start, max(end, own[-1][0])), "conclusion"))
    return facts


def _labelled_parts(structure: Structure, facts: list[ObservationFact]) -> list[ObservationFact]:
    """The parts a plain-text review names by a label alone on its line ("Root cause analysis:"
    in a bug tracker's comment, "Impact:" in an e-mail, over the paragraphs that tell it): its
    first paragraph a conclusion, the next two details; lines another part holds are not read."""
    read = {n for fact in facts for n in range(fact.line_start, fact.line_end + 1)}
    found: list[ObservationFact] = []
    for label, keys in _POSTMORTEM_PARTS[1:]:
        for _, paragraphs in labelled_blocks(structure, frozenset(keys), _MORE_PARAGRAPHS):
            found += [_fact(label, span, "conclusion" if index == 0 else "detail")
                      for index, span in enumerate(paragraphs) if span[1] not in read]
    return found


# A heading that names the cause as such ("Probable Cause", "Root cause", "Most probable cause").
_CAUSE_HEADING_RE = re.compile(r"\bcauses?\b")


def _cause_named_sections(structure: Structure, facts: list[ObservationFact]) -> list[ObservationFact]:
    """The first paragraph of each section of the Cause part whose heading names the cause,
    when another section was read as the cause (an accident report's "Analysis" before its
    "Probable Cause"): a cause stated under its own name is always kept."""
    read = {n for fact in facts for n in range(fact.line_start, fact.line_end + 1)}
    cause_keys = frozenset(dict(_POSTMORTEM_PARTS)["Cause"])
    found: list[ObservationFact] = []
    for section in find_sections(structure, cause_keys):
        if not _CAUSE_HEADING_RE.search(section_key(structure.title(section))):
            continue
        paragraph = section_paragraph(structure, section)
        if paragraph is not None and not any(n in read for n in range(paragraph[1], paragraph[2] + 1)):
            found.append(_fact("Cause", paragraph, "conclusion"))
    return found


def _decision_lines(structure: Structure) -> list[ObservationFact]:
    """Each `Decision: ...` line outside a heading (an incident thread's "Decision at the ops
    review: we will ..."), with the lines its sentence wraps onto."""
    lines = {n: line for n, line in structure.visible if n not in structure.heading_lines}
    facts: list[ObservationFact] = []
    for number, line in lines.items():
        match = _DECISION_LINE_RE.match(line) if "ecision" in line else None  # a cheap gate first
        said = f"Decision: {plain_text(match['text'])}" if match else ""
        if match and not _NOT_DECISION_RE.match(said) and not _open(match["text"]):
            text, last = _wrapped(match["text"], number, lines)
            facts.append(_fact("Decision", (shorten(plain_text(text)), number, last), "decision"))
    return facts


# A heading that asks why the incident happened in its own words ("Why BagTrack dropped them",
# "Why the failover did not help"); not why something matters, nor a review's "Why was there a
# difference" (a part of its own already).
# ... or ends by asking it (Azure's post-incident review: "What went wrong and why?")
_WHY_HEADING_RE = re.compile(r"^why(?:\s+(?!(?:it|this|that)\s+matters?\b)\S|\W*$)"
                             r"|^what\b[\w\s'-]{0,40}\band\s+why\W*$")
_WHY_ALONE_RE = re.compile(r"^why\W*$")
# ... nor why it was not caught sooner ("Why we didn't catch it"): how it was detected, not its cause.
_NOT_CAUGHT_RE = re.compile(
    r"\b(?:catch|caught|notice|noticed|detect|detected|spot|spotted|see|saw|find|found)\b")


# What those it hit saw or went through is the impact ("What guests and hotels saw"; not what the
# responders saw, "What people saw" in a learning review tells the story); how it was noticed (or
# why it was not) is the detection. (A heading that asks why it happened is the cause: _why_headings.)
_TOLD_BY_HEADING = {
    "Impact": re.compile(r"^what\s+(?!(?:people|we|they|the\s+team|the\s+on-call|on-call|responders?"
                         r"|engineers)\s)(?:[\w'-]+\s+){1,4}(?:saw|experienced|went\s+through)$"),
    "Detection": re.compile(r"^(?:how|why|when)\b.{0,40}?\b(?:notice|noticed|detect|detected|spot|spotted"
                            r"|caught|catch|found\s+out)\b"),
    # what those affected can do to soften the next one (Azure's post-incident review: "How can
    # customers make incidents like this less impactful?"), not what the writers will change
    "Mitigation": re.compile(r"^how\s+can\s+(?!we\b|i\b)[\w\s'-]{2,40}?\s+make\s+(?:\w+\s+){1,4}less\s+"
                             r"(?:impactful|disruptive|painful|severe)$"),
}


def _headings_like(structure: Structure, pattern: re.Pattern[str], keys: tuple[str, ...]) -> tuple[str, ...]:
    """The headings of `structure` (below its title) that `pattern` matches, as keys of a part."""
    found = (section_key(structure.title(section)) for section in structure.sections[2:])
    return tuple(dict.fromkeys(key for key in found if key not in keys and pattern.match(key)))


def _why_headings(structure: Structure) -> tuple[str, ...]:
    """The headings of `structure` that ask why it happened, as keys of its Cause part."""
    keys = (section_key(structure.title(section)) for section in structure.sections[2:])
    asked = (key for key in keys if _WHY_HEADING_RE.match(key) and not _NOT_CAUGHT_RE.search(key))
    return tuple(dict.fromkeys(key for key in asked if key not in _NOT_STORY))


def _quoted(structure: Structure, number: int) -> bool:
    """Is the line a block quote's (an epigraph or the template's note on how the review is
    written: "> This review follows our learning-review format"), not the writer's summary?"""
    return structure.by_number.get(number, "").lstrip().startswith(">") or number in boxed_lines(structure)


_LESSON_SECTIONS = frozenset(
    {"lessons learned", "lessons learnt", "lessons", "what we learned", "what we learnt", "learnings",
     "key learnings", "key takeaways", "takeaways", "what made this hard", "what made it hard",
     "learnings and risks", "how'd we do", "how did we do",
     "what made this difficult", "what made it difficult", "what did we learn", "what have we learned",
     "sustain", "what to sustain",
     # GitLab's incident review template (What went well / What can be improved)
     "what can be improved", "what could be improved", "what could have gone better"}
)
# Sections whose sentences are not the story of the incident (its "because" is not its cause).
_NOT_STORY = _LESSON_SECTIONS | _ACTION_SECTIONS | frozenset(
    {"what went well", "what went wrong", "where we got lucky", "what didn't go well",
     "what didn't go so well",
     "what could have gone better", "five whys", "5 whys", "responders", "appendix", "glossary",
     "references", "supporting information", "backlog check", "recurrence", "questions",
     # a learning review's account of why each step made sense to the people then (their first
     # guesses are not the cause)
     "local rationality"}
)


def _lessons(structure: Structure) -> list[ObservationFact]:
    """Each lesson a review states (Lessons learned, "What we learned", "What made this hard",
    what went well and why): each item, else each paragraph (`**Busy looked like broken.** ...`)."""
    facts: list[ObservationFact] = []
    read = {n for section in _action_sections(structure) for n, _ in structure.lines(section)}
    for section in find_sections(structure, _LESSON_SECTIONS | _WENT_WELL):
        lines = [(n, line) for n, line in with_subsections(structure, section) if n not in read]
        read |= {n for n, _ in lines}  # a lesson section inside another is read once
        items = list_items(lines, limit=12) or _lead_paragraphs(structure, lines) or _asked_paragraphs(
            structure, lines)
        if not items:
            found = section_paragraph(structure, section)
            items = [found] if found else []
        facts += [_fact("Lesson", item, "detail") for item in items]
    return facts


def _lead_paragraphs(structure: Structure, lines: list[tuple[int, str]]) -> list[LineSpan]:
    """The paragraphs of a section written as bold-led points (`**Busy looked like broken.** ...`),
    each a point of its own; none when fewer than two open so (a plain section's closing line,
    "Questions to #data-infra.", is no lesson)."""
    found = section_paragraphs(structure, lines, _MAX_LESSONS)
    led = [span for span in found if _BOLD_LEAD_RE.match(dict(lines).get(span[1], ""))]
    return led if len(led) >= 2 else []


_BOLD_LEAD_RE = re.compile(r"^\s*(?:\*\*|__)[^*_]{2,80}(?:\*\*|__)\s*\S")
# A paragraph that is only a bold label: a question a retrospective's export asks its team
# (FireHydrant's `**What went well?**`), the heading of the paragraphs under it, not a lesson.
_BOLD_ONLY_RE = re.compile(r"^\s*(?:\*\*|__)[^*_]{2,80}(?:\*\*|__)\s*$")


def _asked_paragraphs(structure: Structure, lines: list[tuple[int, str]]) -> list[LineSpan]:
    """The paragraphs of a section whose points sit under bold labels (`**What went well?**`),
    each a lesson; none when no paragraph is such a label."""
    found = section_paragraphs(structure, lines, 2 * _MAX_LESSONS)
    asked = {span[1] for span in found if span[1] == span[2]
             and _BOLD_ONLY_RE.match(dict(lines).get(span[1], ""))}
    return [span for span in found if span[1] not in asked][:_MAX_LESSONS] if asked else []


# What went well, and so is worth keeping: a lesson too ("The whiteboard fallback worked because
# the planners practise it twice a year").
_WENT_WELL = frozenset({"what went well", "what worked", "what went right"})
_MAX_LESSONS = 6


def _told(structure: Structure, facts: list[ObservationFact]) -> list[ObservationFact]:
    """What a review tells in its story rather than under a part's heading: the causes its
    sentences explain ("... because ...", "..., so ..."), the change that triggered it, how it
    was noticed and how long it lasted (from its summary), and what was lost for good."""
    summary = _lines_of(facts, "Summary")
    read = {n for f in facts for n in range(f.line_start, f.line_end + 1)} - summary
    not_story = structure.remembered(_not_story_lines)
    skipped = read | not_story
    story = story_sentences(structure)
    told = [("Cause", found) for found in named_cause_sentences(story, skipped)]
    told += [("Cause", found) for found in explaining_sentences(story, skipped, summary)
             if all(found[1] != other[1] for _, other in told)]
    if not any(f.text.startswith("Trigger: ") for f in facts):
        trigger = trigger_sentence(story, skipped)
        told += [("Trigger", trigger)] if trigger else []
    told += [("Detection", found) for found in detection_sentences(story, summary)]
    if not any(f.text.startswith("Detection: ") for f in facts) and not any(
            label == "Detection" for label, _ in told):
        # how it was noticed, told in the story rather than the summary ("The operator noticed it at 18:03")
        told += [("Detection", found) for found in story_detection(story, not_story)]
    if not any(f.text.startswith("Impact: ") for f in facts):
        told += [("Impact", found) for found in duration_sentences(story, summary)]
    impact = [fact.text for fact in facts if fact.text.startswith("Impact: ")]  # told there already?
    impact += [found[0] for label, found in told if label == "Impact"]
    told += [("Impact", found) for found in summary_impacts(story, summary)
             if not any(found[0] in said for said in impact)]  # the summary's own, sentence by sentence
    stated = [fact.text for fact in facts]  # a TL;DR's "Cause: ..." and "Fixed by ..." sentences
    told += [(label, found) for label, found in summary_parts(story, summary)
             if not any(text.startswith(f"{label}: ") and found[0] in text for text in stated)]
    told += [("Impact", found) for found in loss_sentences(story)
             if not any(found[0] in said for said in impact)]
    named = [(label, found) for label, found in named_repair_sentences(story, skipped)
             if not any(f.text.startswith(f"{label}: ") for f in facts)]
    told += named
    if not any(f.text.startswith("Resolution: ") for f in facts) and not any(
            label == "Resolution" for label, _ in named):
        told += [("Resolution", found) for found in repair_sentences(story, skipped)]
    # a write-up with no part of its own for how it ended (an incident.io export) tells it in its
    # timeline ("15:40 — Fix deployed: ..."), and how it was noticed there too
    entries = timeline_entries(structure)
    if not any(f.text.startswith(("Resolution: ", "Mitigation: ")) for f in facts) and not any(
            label in {"Resolution", "Mitigation"} for label, _ in told):
        told += timeline_repairs(entries)
    if not any(f.text.startswith("Detection: ") for f in facts) and not any(
            label == "Detection" for label, _ in told):
        noticed = timeline_detection(entries)
        told += [("Detection", noticed)] if noticed else []
    return [_fact(label, found, "detail") for label, found in told]  # read from prose: not key lines


def _noticed(structure: Structure, facts: list[ObservationFact]) -> list[ObservationFact]:
    """The sentences of a review's prose and list items, in whatever part, that tell how the
    incident was noticed or that nothing noticed it ("Nobody was paged; the first signal was a
    user" under "What didn't go so well"): a Detection each (a detail), unless a Detection holds
    it already; not in the timeline (read by its entries) or the actions (what will be built)."""
    said = [fact.text for fact in facts if fact.text.startswith("Detection: ")]
    skipped = timeline_lines(structure) | {n for section in _action_sections(structure)
                                           for n, _ in with_subsections(structure, section)}
    told = [(text, first, last) for text, first, last, _ in story_sentences(structure)]
    for section in structure.sections:
        lines = [(n, line) for n, line in structure.lines(section) if n not in skipped]
        told += [sentence for text, start, _ in list_items(lines, limit=MAX_ACTIONS)
                 for sentence in sentences([(start, text)])]
    told = sorted(span for span in told if span[1] not in skipped)
    return [_fact("Detection", span, "detail") for span in noticed_sentences(told)
            if not any(span[0] in text for text in said)]


def _not_story_lines(structure: Structure) -> frozenset[int]:
    """The lines of a review's action items and of its timeline and lessons: no part of its story
    (built once a document, shared by the story's readers)."""
    lines = {n for section in _action_sections(structure) for n, _ in structure.lines(section)}
    lines |= {n for section in find_sections(structure, _NOT_STORY)
              for n, _ in with_subsections(structure, section)}
    return frozenset(lines)


def _costs(structure: Structure, facts: list[ObservationFact]) -> list[ObservationFact]:
    """The sentences of a review's story that count what the incident cost ("612 students were
    paid twice", "The cost is estimated at EUR 38,000 in lost revenue"), at most MAX_COSTS, an
    Impact each (a detail), unless an Impact holds the sentence already; not in the timeline,
    the actions or the lessons, nor a sentence read as its cause."""
    said = [fact.text for fact in facts if fact.text.startswith(("Impact: ", "Cause: "))]
    not_story = structure.remembered(_not_story_lines)
    found: list[ObservationFact] = []
    for text, first, last, start in story_sentences(structure):
        if start in not_story or not tells_cost(text) or any(text in other for other in said):
            continue
        found.append(_fact("Impact", (shorten(text), first, last), "detail"))
        if len(found) == MAX_COSTS:
            break
    return found


def _responses(structure: Structure, facts: list[ObservationFact]) -> list[ObservationFact]:
    """The sentences of a review's story that tell what the responders did ("At 17:26 Tobias moved
    all traffic to Fastly", "We took the dataset offline at 16:24"), at most MAX_ACTS, a
    Resolution or a Mitigation each (a detail), unless a Resolution or a Mitigation holds it
    already; not in the actions or the lessons, nor a sentence that explains why."""
    said = [fact.text for fact in facts if fact.text.startswith(("Resolution: ", "Mitigation: "))]
    not_story = structure.remembered(_not_story_lines)
    found: list[ObservationFact] = []
    for text, first, last, start in story_sentences(structure):
        if start in not_story or tells_cause(text) or any(text in other for other in said):
            continue
        part = acted_part(text)
        if part is not None:
            found.append(_fact(part, (shorten(text), first, last), "detail"))
            if len(found) == MAX_ACTS:
                break
    return found


def _named_lessons(structure: Structure, facts: list[ObservationFact]) -> list[ObservationFact]:
    """The story's sentences that name a lesson as such ("Lesson for all of us: ..."), a Lesson
    each (a detail), unless a Lesson holds the sentence already."""
    said = [fact.text for fact in facts if fact.text.startswith("Lesson: ")]
    return [_fact("Lesson", (shorten(text), first, last), "detail")
            for text, first, last, _ in story_sentences(structure)
            if ("esson" in text or "akeaway" in text or "oral" in text) and names_lesson(text)
            and not any(text in other for other in said)][:MAX_COSTS]


# The readers of what a review states outside its parts' own sections, in the order they run.
def _problem_rows(structure: Structure, facts: list[ObservationFact]) -> list[ObservationFact]:
    """An 8D report's 5W2H rows (problem_tables.py), each a part of the incident no part read."""
    read = {n for fact in facts for n in range(fact.line_start, fact.line_end + 1)}
    return [_fact(label, found, "conclusion") for label, found in five_w_rows(structure)
            if found[1] not in read]


_STORY_READERS: tuple[Callable[[Structure, list[ObservationFact]], list[ObservationFact]], ...] = (
    _problem_rows, _cause_named_sections, _labelled_parts, _contributing_factors, _what_went_wrong, _told,
    _noticed, _costs, _responses, _named_lessons)


def _lines_of(facts: list[ObservationFact], label: str) -> set[int]:
    return {n for f in facts if f.text.startswith(f"{label}: ") for n in range(f.line_start, f.line_end + 1)}


# The parts of an incident its review tells in more than one paragraph: each is kept.
_TOLD_AT_LENGTH = ("Cause: ", "Resolution: ", "Impact: ")
_MORE_PARAGRAPHS = 2
_MIN_MORE_WORDS = 3


def _field_item(line: str) -> bool:
    """Is the line a bold field of a list of them (`- **Duration:** 2 days`), as an export's key
    information lists Impact, Duration and Detected by: the field after the part's, not more of it?"""
    return line.lstrip()[:2] in _ITEM_MARKS and labelled(line)


_ITEM_MARKS = frozenset({"- ", "* ", "+ "})


def _next_paragraphs(structure: Structure, fact: ObservationFact) -> list[ObservationFact]:
    """The paragraphs after `fact`'s in its section (at most _MORE_PARAGRAPHS), each with the
    same label ("Cause: Staging did not catch it because ...")."""
    section = next((s for s in structure.sections[1:]
                    if any(n == fact.line_start for n, _ in structure.lines(s))), None)
    if section is None:
        return []
    label = fact.text.split(": ", 1)[0]
    lines = [(n, line) for n, line in clean_lines(structure.lines(section)) if n > fact.line_end]
    found: list[ObservationFact] = []
    while len(found) < _MORE_PARAGRAPHS:
        paragraph = window_paragraph(lines, structure.code_content)
        first = dict(lines).get(paragraph[1], "") if paragraph else ""
        if (paragraph is None or plain_label(first) in _PART_KEYS or bold_label(first) in _PART_KEYS
                or _field_item(first)):
            break  # "Root cause: ..." / "Impact: High" after a Five whys list: another part
        if len(paragraph[0].split()) < _MIN_MORE_WORDS:
            break  # an e-mail's sign-off ("Ana") or a bare label after the part: not more of it
        found.append(_fact(label, paragraph, "detail"))  # not a key line for the subjects
        lines = [(n, line) for n, line in lines if n > paragraph[2]]
    return found


def section_action_items(structure: Structure) -> list[ObservationFact]:
    """The items of a page's Action items sections (a decision record's: DACI's "Action items"),
    read from its section titles alone: no pass over its lines."""
    return _actions(structure, sections_only=True)


# What a review recommends is what it asks to be done (NASA's lessons-learned entries, safety
# boards' reports and many post-incident reviews list their action items as "Recommendations"); a
# design's or a meeting's recommendation is a choice, not a task.
# A review's "Tasks" (Meta's SEV review lists its follow-ups so) are its action items too; a
# design's or a runbook's tasks are its work plan or its steps.
ACTION_SECTIONS = _ACTION_SECTIONS
DECISION_SECTIONS = _DECISION_SECTIONS
_REVIEW_ACTION_SECTIONS = frozenset({"recommendations", "recommended actions", "recommendations and actions",
                                     "safety recommendations", "tasks", "sev tasks", "review tasks"})


def _actions(structure: Structure, *, sections_only: bool = False,
             more: frozenset[str] = frozenset()) -> list[ObservationFact]:
    """Each action item, with its owner when the item names one; an item written as a task
    (`- [ ] Marco: finish the test`) is one too (a check box elsewhere is a template's review list);
    `more`: further headings of action sections (a review's "Recommendations")."""
    facts: list[ObservationFact] = []
    seen: set[int] = set()
    sections = _action_sections(structure)
    sections += [section for section in find_sections(structure, more) if section not in sections]
    blocks = [with_subsections(structure, section) for section in sections]
    if not sections_only:
        blocks += labelled_lists(structure, _ACTION_SECTIONS, _ACTION_LEAD_IN_RE)  # `**Action items**`
        blocks += _owned_tables(structure)
    for index, lines in enumerate(blocks):
        lines = [(n, CHECKBOX_ITEM_RE.sub(r"\1", line)) for n, line in lines]
        items = [*_table_items(lines), *list_items(lines, limit=MAX_ACTIONS)]
        if not items and index < len(sections) and not sections_only:
            items = _told_actions(structure, lines)  # "First, ... Second, ...": told in paragraphs
        for text, start, end in items:
            if start in seen:
                continue  # a subsection's item, read with its parent section
            seen.add(start)
            facts.append(_fact("Action item", (_with_owner(text), start, end), "action"))
            if len(facts) >= MAX_ACTIONS:
                return facts
    return facts


# A sentence that counts the changes off ("First, the cache is gone.", "Second, ...", "Finally, ...").
_ORDINAL_RE = re.compile(r"^(?:first(?:ly)?|second(?:ly)?|third(?:ly)?|fourth(?:ly)?|fifth(?:ly)?|finally"
                         r"|lastly)\b,?\s+\S", re.I)


def _told_actions(structure: Structure, lines: list[tuple[int, str]]) -> list[LineSpan]:
    """The actions of a section that tells them in prose rather than in a list: each sentence
    that counts a change off ("First, ...", "Second, ...") when two or more do (at most
    MAX_ACTIONS); none when the prose counts nothing off (what it says is a report, not a list)."""
    paragraphs = section_paragraphs(structure, lines, MAX_ACTIONS)
    told = [(said, span[1], span[2]) for span in paragraphs for said, _, _ in sentences([(span[1], span[0])])]
    counted = [span for span in told if _ORDINAL_RE.match(span[0])]
    return counted if len(counted) >= 2 else []


# A sentence that introduces the list of actions agreed ("Actions we agreed at the review on
# Monday (owners in brackets):"), not the steps taken during the incident.
# "Here is what we are doing about it:" promises them too.
_ACTION_LEAD_IN_RE = re.compile(
    r"^(?!.*\b(?:taken|took|did|done|completed|performed|tried)\b)"
    r"(?:(?=.*\b(?:agreed|owners?|will|to\s+do|planned|next)\b).*"
    r"\b(?:actions?|action\s+items?|follow-?ups?|follow-up\s+(?:work|tasks|items)|next\s+steps)\b"
    r"|.*\bwhat\s+we(?:'re|\s+are|\s+will|'ll)\s+(?:doing|changing|going\s+to\s+(?:do|change))\b"
    # a public incident report's "We are taking the following steps to prevent recurrence:"
    r"|.*\b(?:steps|measures|actions|changes)\s+to\s+(?:prevent|avoid|reduce)\b)", re.I)


def _action_sections(structure: Structure) -> list[Section]:
    """The sections of action items: by their template names, or a heading that promises what
    will change ("How are we preventing it from happening again?", "Going forward")."""
    named = find_sections(structure, _ACTION_SECTIONS)
    return [section for section in structure.sections[2:]
            if section in named or _ACTION_HEADING_RE.search(section_key(structure.title(section)))
            and not _agenda_topic(structure.title(section), section.level, structure)]


def _agenda_topic(title: str, level: int, structure: Structure) -> bool:
    """Is a numbered heading one topic of a numbered list of topics ("### 1. PD-0412 follow-ups"
    beside "### 2. Node group changes"): what was said about it, not a list of actions?"""
    return _NUMBERED_HEADING_RE.match(title) is not None and sum(
        1 for s in structure.sections[2:]
        if s.level == level and _NUMBERED_HEADING_RE.match(structure.title(s))) >= 2


_NUMBERED_HEADING_RE = re.compile(r"^\W{0,3}\d{1,2}[.)]\s")


def _owned_tables(structure: Structure) -> list[list[tuple[int, str]]]:
    """The tables anywhere in the page whose header names an owner and a due day (`| # | Change |
    Owner | Target |` under "Permanent fix"): work assigned to be done, whatever its heading."""
    tables: list[list[tuple[int, str]]] = []
    table: list[tuple[int, str]] = []
    for number, line in [*structure.visible, (0, "")]:
        if line.lstrip().startswith("|"):
            table.append((number, line))
            continue
        if len(table) >= 3 and owned_action_header(table_cells(table[0][1])):
            tables.append(table)
        table = []
    return tables


def owned_action_header(cells: list[str]) -> bool:
    """Does a table's header name who owns each row and by when (an action table), or who owns
    each action (`| Action | Owner |`)?"""
    header = {plain_text(cell).lower() for cell in cells}
    owned = bool(header & _OWNER_COLUMNS)
    return owned and bool(header & _DUE_COLUMNS or any("action" in cell for cell in header))


# The column of an action table that says by when ("| Owner | Due |").
_DUE_COLUMNS = frozenset({"due", "due date", "due by", "target", "target date", "deadline", "eta",
                          "by when", "due on"})


def action_table_items(lines: list[tuple[int, str]]) -> list[LineSpan]:
    """The rows of a table of owned actions (owned_action_header), else none."""
    first = next((line for _, line in lines if line.lstrip().startswith("|")), None)
    return _table_items(lines) if first is not None and owned_action_header(table_cells(first)) else []


def _table_items(lines: list[tuple[int, str]]) -> list[LineSpan]:
    """The rows of an action-item table (`| Action Item | Type | Owner | Bug |`), each as its
    action and "owner: X" when the table has an owner column."""
    rows = [(n, table_cells(line))
            for n, line in clean_lines(lines) if line.strip().startswith("|")]
    if len(rows) < 3:
        return []
    header = [plain_text(cell).lower() for cell in rows[0][1]]
    owner_column = next((i for i, cell in enumerate(header) if cell in _OWNER_COLUMNS), None)
    action_column = next(
        (i for i, cell in enumerate(header) if "action" in cell or cell in _ACTION_COLUMNS), None
    )
    if action_column is None:  # `| # | Change | Owner | Target |`: the column that says the most
        width = [sum(len(cells[i]) for _, cells in rows[2:] if i < len(cells)) for i in range(len(header))]
        action_column = max((i for i in range(len(header)) if i != owner_column),
                            key=lambda i: (width[i], -i), default=0)
    items: list[LineSpan] = []
    for number, cells in rows[2:]:
        if len(cells) <= action_column or not plain_text(cells[action_column]):
            continue
        text = plain_text(cells[action_column])
        if owner_column is not None and len(cells) > owner_column and plain_text(cells[owner_column]):
            text += f" (owner: {plain_text(cells[owner_column])})"
        items.append((shorten(text), number, number))
    return items


def _with_owner(text: str) -> str:
    """An item with its owner noted (`... (owner: Ana)`); an owner written after a dash
    ("Add an alert — Julia Nowak") is the note, not the item's text; a tracker key after the
    last dash ("— PAY-311") is the item's ticket, noted after its owner (document_keys)."""
    text, ticket = trailing_ticket(text)
    owner = _owner(text)
    if not owner or "(owner:" in text.lower():
        return f"{text} (ticket: {ticket})" if ticket else text
    dash = _DASH_OWNER_RE.search(text)
    if dash and dash["owner"] == owner:
        text = text[: dash.start()].rstrip()
    ticket_note = f", {ticket}" if ticket else ""
    bracket = _BRACKET_OWNER_RE.search(text)
    if bracket and bracket["owner"] == owner:  # "(Sade, by 21 Feb)" -> "(owner: Sade, by 21 Feb)"
        text = f"{text[: bracket.start()]}{text[bracket.end():]}".rstrip()
        return f"{text} (owner: {owner}, {bracket['due']}{ticket_note})"
    return f"{text} (owner: {owner}{ticket_note})"


def owned_item(text: str) -> str | None:
    """An item with its owner noted (`... (owner: Ana)`) when it names one, else None."""
    return _with_owner(text) if _owner(text) else None


def _owner(text: str) -> str | None:
    for pattern in _OWNER_RES:
        match = pattern.search(text)
        if match:
            owner = match["owner"].strip(" .,:")
            first = owner.split()[0].lower() if owner else ""
            if owner and first not in _NOT_OWNERS and not first.endswith(("ed", "ing")):
                return owner
    return None


def _runbook(structure: Structure, status: str) -> list[ObservationFact]:
    """Its alert, meaning, impact, diagnosis, mitigation and escalation, and the rules an
    operator must keep ("Only one rebalance may run at a time", "Do not start at peak")."""
    stages = _procedure_sections(structure)
    parts = _PROCEDURE_PARTS if stages else _RUNBOOK_PARTS
    # (a heading that ends in a part's word is that part: "Quick checks", "Procedure 4: Escalation")
    parts = tuple((label, keys + _headed_by(structure, keys) if label in _HEADED_PARTS else keys)
                  for label, keys in parts)
    facts = _opening_alert(structure) + _parts(structure, parts, boxed=True)
    facts += _alert_goes_on(structure, facts)
    # an SOP's purpose tells what the procedure is for, in the words of whoever it serves: a detail
    # for the subjects (its links and cut names are not what the page is about)
    facts = [replace(fact, kind="detail") if fact.text.startswith("Summary: ") else fact for fact in facts]
    alerts = alert_sections(structure)
    if alerts:  # a page of several alerts: each alert's parts, the page's own (escalation) kept
        inside = {n for section, under in alerts for sub in [section, *under]
                  for n, _ in structure.lines(sub)}
        facts = [fact for fact in facts if fact.line_start not in inside] + alert_facts(structure, alerts)
    for section in stages:
        steps = list_items(structure.lines(section), limit=MAX_STEPS)
        facts += [_fact("Procedure", step, "conclusion") for step in steps]
        facts += [_fact("Mitigation", found, "conclusion") for found in rollback_sentences(steps)]
    # the alerts its symptoms list with what fires each (a detail: the names are the alerts')
    facts += [_fact("Alert", item, "detail") for item in listed_alerts(structure)]
    # the sentence that says when the alert fires, unless an alert part holds it already (a
    # Symptoms list read as the Alert tells what is seen, not the condition)
    alerted = _lines_of(facts, "Alert")
    facts += [fact for fact in _alert_sentence(structure) if fact.line_start not in alerted]
    facts += _use_when(structure, facts)
    facts += _diagnosis_tables(structure) + _unheaded_steps(structure, facts)
    facts += _checklist_steps(structure, facts) + _faq_pairs(structure, facts)
    if not stages:
        facts += _case_steps(structure, facts)
    # a scope's exclusion names what the page is not about: a detail, not read for subjects
    facts += [_fact("Non-goal", span, "detail") for span in scope_exclusions(structure)]
    asked = {number for number, _ in question_lines(structure)}  # a question states no rule
    facts += _table_fixes(structure) + [fact for fact in _constraints(structure, imperatives=True)
                                        if fact.line_start not in asked]
    window = _window_rules(structure)
    facts = [fact for fact in facts if not any(_within(fact, rule) for rule in window)] + window
    facts += _fallback_steps(structure, facts)
    used_when = _use_this_page(structure, facts)  # "Use this page when patrons cannot ...": no rule
    said = {fact.text.removeprefix("Summary: ") for fact in used_when}
    facts = [fact for fact in facts if fact.text.removeprefix("Constraint: ") not in said] + used_when
    facts += _question_checks(structure, facts) + _hand_overs(structure, facts)
    return facts + _stated_rules(structure, facts) + _sentence_parts(facts) + _after_items(structure, facts)


# A runbook's part for after the incident ("3. After it's over", "Once resolved", "Follow-up"):
# what the operator still owes (a report, a count, a ticket), each item an action item.
_AFTER_HEADING_RE = re.compile(
    r"^(?:after\s+(?:it(?:'s|\s+is)\s+(?:over|resolved|fixed)|the\s+(?:incident|alert|outage)|recovery)"
    r"|afterwards|once\s+(?:it(?:'s|\s+is)\s+)?(?:resolved|over|fixed|recovered)|post-incident"
    r"|follow[- ]?ups?|after-?care)$")


def _hand_overs(structure: Structure, facts: list[ObservationFact]) -> list[ObservationFact]:
    """Each sentence of a runbook's paragraphs that no part read which hands over to whoever
    answers next ("Call the Customs Liaison desk (ext. 4410).", "Page the DBA on-call."): an
    escalation stated where the case is told, not under an Escalation heading (a detail)."""
    # (a rule read from the paragraph's sentence, "Do not release a hold yourself.", leaves the rest unread)
    read = {n for fact in facts if not fact.text.startswith("Constraint: ")
            for n in range(fact.line_start, fact.line_end + 1)}
    found: list[ObservationFact] = []
    for section in structure.sections[1:]:
        for text, start, _ in section_paragraphs(structure, structure.lines(section), _MAX_STEPS):
            if start in read or text.lstrip().startswith(("-", "*", "|", ">")):
                continue
            found += [_fact("Escalation", told, "detail") for told in sentences([(start, text)])
                      if part_of(told[0]) == "Escalation"]
    return found


def _question_checks(structure: Structure, facts: list[ObservationFact]) -> list[ObservationFact]:
    """The items of a runbook's section that asks a triage question ("2. Which dependency?", "Is
    it the network?") when no part read them: the checks that answer it, each a Diagnosis."""
    read = {n for fact in facts for n in range(fact.line_start, fact.line_end + 1)}
    return [_fact("Diagnosis", item, "detail") for section in structure.sections[1:]
            if _TRIAGE_QUESTION_RE.match(section_key(structure.title(section)))
            and structure.title(section).rstrip().endswith("?")
            for item in list_items(structure.lines(section), limit=_MAX_STEPS) if item[1] not in read]


_TRIAGE_QUESTION_RE = re.compile(r"^(?:which|what|where|is\s+it|is\s+the|are|does|did|has|can)\b")


def _after_items(structure: Structure, facts: list[ObservationFact]) -> list[ObservationFact]:
    """Each item of a runbook's after-the-incident section that no part read."""
    read = {n for fact in facts for n in range(fact.line_start, fact.line_end + 1)}
    return [_fact("Action item", item, "action") for section in structure.sections[1:]
            if _AFTER_HEADING_RE.match(section_key(structure.title(section)))
            for item in list_items(structure.lines(section), limit=MAX_ACTIONS) if item[1] not in read]


# The parts whose sentences are read again for the part each tells: a step's (a check, a
# hand-over) and the alert's meaning (what the people served lose).
_STEP_LABELS = ("Mitigation: ", "Resolution: ", "Procedure: ")
_TOLD_LABELS = ("Meaning: ", "Alert: ", "Summary: ")


def _sentence_parts(facts: list[ObservationFact]) -> list[ObservationFact]:
    """The sentences of a runbook's steps that check or hand over ("Check the lag first", "If it
    persists, hand over to the Storage team": Diagnosis, Escalation) and of its meaning that tell
    what the people it serves lose ("Analysts will not see new runs": Impact), each a detail
    beside the part its heading named, unless that part holds the sentence already."""
    held = {fact.text for fact in facts}
    found: list[ObservationFact] = []
    for fact in facts:
        steps = fact.text.startswith(_STEP_LABELS)
        if not steps and not fact.text.startswith(_TOLD_LABELS):
            continue
        # (a list kept as one text joins its items with "; ": each item is read apart)
        items = _JOINED_ITEMS_RE.split(fact.text.split(": ", 1)[1])
        for said, _, _ in [told for item in items for told in sentences([(fact.line_start, item)])]:
            part = (step_part(said) or _told_part(said)) if steps else "Impact" if tells_loss(said) else None
            if part is not None and not any(other.startswith(f"{part}: ") and said in other
                                            for other in held):
                found.append(_fact(part, (said, fact.line_start, fact.line_end), "detail"))
                held.add(f"{part}: {said}")
    return found


# A question that asks who owns or answers for what ("Who owns what?", "Who is responsible for X?").
_WHO_OWNS_RE = re.compile(r"^who\s+(?:owns|is\s+responsible|looks\s+after|runs|supports|is\s+on\s+call)\b",
                          re.I)


def _faq_pairs(structure: Structure, facts: list[ObservationFact]) -> list[ObservationFact]:
    """An operations FAQ's Q/A pairs (tasks/extract/runbook_faq.py): each answer's first paragraph
    with its question, as an FAQ's how-to answer is read (a Procedure); the items of an answer to
    "Who owns what?" a Responsibility each; the later sentences of an answer that check, hand
    over or name the likely cause (sentence_parts.step_part). Lines another part holds are not
    read twice."""
    held = {n for fact in facts for n in range(fact.line_start, fact.line_end + 1)}
    found: list[ObservationFact] = []
    for question, _, answer in question_answers(structure):
        lines = [(n, line) for n, line in clean_lines(answer) if n not in held]
        items = list_items(lines, limit=_MAX_STEPS)
        if _WHO_OWNS_RE.match(question) and items:
            found += [_fact("Responsibility", item, "conclusion") for item in items]
            continue
        opening = window_paragraph(lines, structure.code_content)
        if opening is None:
            continue
        text, first, last = opening
        asked = question if question.endswith(("?", ".", "!")) else f"{question}?"
        found.append(_fact("Procedure", (shorten(f"{asked} {text}"), first, last), "conclusion"))
        for span in section_paragraphs(structure, [(n, line) for n, line in lines if n > last], _MAX_STEPS):
            told = sentences([(span[1], span[0])])
            found += [_fact(part, (said, span[1], span[2]), "detail") for said, _, _ in told
                      if (part := step_part(said) or _told_part(said)) is not None]
    return found


_JOINED_ITEMS_RE = re.compile(r"(?<=[.!?:]);\s+")
_GO_TO_RE = re.compile(r"^(?:go|continue|skip)\s+(?:on\s+)?(?:to|with)\s+step\b", re.I)


def _told_part(sentence: str) -> str | None:
    """A step's sentence that escalates or says what a reading means (runbook_checklist.part_of);
    not a bare pointer to another step ("Go to step 9")."""
    part = part_of(sentence)
    return part if part in {"Escalation", "Diagnosis"} and not _GO_TO_RE.match(sentence) else None


def _within(fact: ObservationFact, rule: ObservationFact) -> bool:
    """Is `fact` a constraint read from a sentence of the window's `rule` (kept once, whole)?"""
    return (fact.text.startswith("Constraint: ")
            and rule.line_start <= fact.line_start <= fact.line_end <= rule.line_end
            and fact.text.removeprefix("Constraint: ") in rule.text)


# A maintenance procedure's section that says when it may be done ("When: Sunday 06:00-08:00,
# before any branch opens"): each item a rule of the procedure.
_WINDOW_SECTIONS = frozenset({"when", "maintenance window", "change window", "when to run",
                              "when to run this", "when to run it", "when to do this", "timing", "window"})


def _window_rules(structure: Structure) -> list[ObservationFact]:
    """Each item (else each paragraph) of a procedure's When or maintenance-window section: a
    Constraint on when the work may be done."""
    facts: list[ObservationFact] = []
    for section in find_sections(structure, _WINDOW_SECTIONS)[:1]:
        lines = structure.lines(section)
        told = list_items(lines, limit=MAX_STEPS) or section_paragraphs(structure, lines, _MAX_STEPS)
        facts += [_fact("Constraint", span, "constraint") for span in told]
    return facts


_GOES_WRONG = frozenset({"if something goes wrong", "if it goes wrong", "if things go wrong"})


def _fallback_steps(structure: Structure, facts: list[ObservationFact]) -> list[ObservationFact]:
    """The sentences of an "If it goes wrong" item that tell what to do beside the sentence that
    says whom to call ("A relay does not come back after reboot: leave it down, the other side
    carries the depot. Page the on-call only if both are down."): a Mitigation each (a detail);
    a sentence that states a rule is the rule's, an item that calls no one is not read here."""
    escalations = _lines_of(facts, "Escalation")
    found: list[ObservationFact] = []
    for section in find_sections(structure, _GOES_WRONG)[:1]:
        for text, start, end in list_items(structure.lines(section), limit=MAX_STEPS):
            if start not in escalations:
                continue
            told = [said for said, _, _ in sentences([(start, text)])]
            if not any(part_of(said) == "Escalation" for said in told):
                continue
            found += [_fact("Mitigation", (said, start, end), "detail") for said in told
                      if part_of(said) is None and not _states_rule(said) and not _FORBIDS_RE.search(said)]
    return found


# A runbook's opening sentence that says when to reach for it ("Use this page when patrons cannot
# borrow e-books"): what the page is for, its summary.
_USE_THIS_RE = re.compile(
    r"^Use\s+this\s+(?:page|runbook|playbook|checklist|procedure|guide|document|doc)\s+(?:when|if)\s+\S")


def _use_this_page(structure: Structure, facts: list[ObservationFact]) -> list[ObservationFact]:
    """The opening sentence that says when to use the page, as its Summary, unless one is read."""
    if any(fact.text.startswith("Summary: ") for fact in facts):
        return []
    for text, start, end in section_paragraphs(structure, _preamble(structure), _OPENING_PARAGRAPHS):
        said = sentences([(start, text)])[0][0]
        if _USE_THIS_RE.match(said):
            return [_fact("Summary", (said, start, end), "detail")]
        if _FOR_WHOM_RE.match(plain_text(text)):  # whom it serves, then when it is wanted: all of it
            return [_fact("Summary", (shorten(plain_text(text)), start, end), "detail")]
    return []


# A help centre article's opening that says whom it serves ("This article is for Gate Operations
# clerks ... When GateLine cannot clear a truck, ...", "**Who this is for:** ... **When to use it:** ...").
_FOR_WHOM_RE = re.compile(
    r"^(?:this\s+(?:article|page|runbook|playbook|procedure|guide)\s+is\s+(?:for|meant\s+for|written\s+for)\b"
    r"|who\s+this\s+(?:article\s+|page\s+|runbook\s+|procedure\s+)?is\s+for\s*:)", re.I)


_OPENING_PARAGRAPHS = 3  # a breadcrumb, a byline or a metadata table may come first


def _headed_by(structure: Structure, keys: tuple[str, ...]) -> tuple[str, ...]:
    """The headings of `structure` (below its title) that end in one of a part's one-word keys,
    in the singular or the plural, as further keys of it: "Quick checks" and "First checks" are
    checks, "Fixes" a fix (a runbook's steps named by what they are, with a word of their own)."""
    words = frozenset(key for key in keys if " " not in key)
    found: list[str] = []
    for section in structure.sections[2:]:
        key = section_key(structure.title(section))
        last = key.rsplit(" ", 1)[-1]
        singular = (last[:-2] if last.endswith("es") else "", last[:-1] if last.endswith("s") else "")
        if key not in keys and (last in words or any(word in words for word in singular)):
            found.append(key)
    return tuple(dict.fromkeys(found))


def _alert_goes_on(structure: Structure, facts: list[ObservationFact]) -> list[ObservationFact]:
    """The paragraphs after the alert's condition in the section that states it ("When this alert
    fires": when, then "It means that a channel is not receiving ..."), no part having read them:
    what the alert means (details)."""
    held = {n for fact in facts for n in range(fact.line_start, fact.line_end + 1)}
    found: list[ObservationFact] = []
    for fact in facts:
        if not fact.text.startswith("Alert: "):
            continue
        section = next((s for s in reversed(structure.sections[1:])
                        if structure.number(s) <= fact.line_start), None)
        if section is None:
            continue
        after = [(n, line) for n, line in structure.lines(section) if n > fact.line_end]
        spans = [span for span in section_paragraphs(structure, after, _MAX_STEPS)
                 if not held & set(range(span[1], span[2] + 1))]
        held |= {n for span in spans for n in range(span[1], span[2] + 1)}  # (a table of alerts: once)
        found += [_fact("Meaning", span, "detail") for span in spans]
    return found


def _case_steps(structure: Structure, facts: list[ObservationFact]) -> list[ObservationFact]:
    """The numbered steps of each section an alert's runbook gives a case of its own ("## Licence
    server unreachable", "## Step A: one collection is starving the others": where its triage
    sends the reader), no part having read it: the fix for that case, each step a Mitigation (a
    detail: its tools and paths are the case's, not what the page is about)."""
    held = {n for fact in facts for n in range(fact.line_start, fact.line_end + 1)}
    keys = {key for _, part in _RUNBOOK_PARTS for key in part} | _NOT_CASES
    found: list[ObservationFact] = []
    for section in structure.sections[2:]:
        lines = structure.lines(section)
        if section_key(structure.title(section)) in keys or any(n in held for n, _ in lines):
            continue
        steps = list_items(lines, limit=_MAX_STEPS)
        if len(steps) >= 2 and _ORDERED_RE.match(structure.by_number.get(steps[0][1], "")):
            found += [_fact("Mitigation", step, "detail") for step in steps]
    return found


_ORDERED_RE = re.compile(r"^\s{0,3}\d{1,2}[.)]\s")
# A runbook's sections of steps that are no fix of a case: how to set up, verify or undo.
_NOT_CASES = frozenset({"prerequisites", "before you start", "before you begin", "verification", "verify",
                        "validation", "rollback", "rollback plan", "post-checks", "pre-checks", "history",
                        "changelog", "see also", "related", "references", "setup", "set up",
                        "first five minutes", "first 5 minutes"})  # the triage, where the cases are named


def _diagnosis_tables(structure: Structure) -> list[ObservationFact]:
    """Each row of the table a Diagnosis section keeps among its steps (`| Failed task | Usual
    meaning |`): what is seen and what it means, a diagnosis of its own (a detail: terse cells)."""
    keys = frozenset(dict(_RUNBOOK_PARTS)["Diagnosis"])
    return [_fact("Diagnosis", row, "detail") for section in find_sections(structure, keys)[:1]
            for row in table_rows(with_subsections(structure, section))[:MAX_STEPS]]


def _unheaded_steps(structure: Structure, facts: list[ObservationFact]) -> list[ObservationFact]:
    """A checklist's items (a mitigation when the page answers an alert, else the procedure)
    and the constraints they state ("Never restart more than one data node at a time"); an FAQ's
    how-to answers. Lines another part already holds are not read twice."""
    held = {n for fact in facts for n in range(fact.line_start, fact.line_end + 1)}
    label = "Mitigation" if any(fact.text.startswith("Alert: ") for fact in facts) else "Procedure"
    steps = [step for step in checklist_steps(structure, MAX_STEPS) if step[1] not in held]
    found = [_fact(label, step, "conclusion") for step in steps]
    for text, first, last in steps:
        for clause in sentences([(first, text)]):
            if _FORBIDS_RE.search(clause[0]) or _CONSTRAINT_RE.search(clause[0]):
                found.append(_fact("Constraint", (clause[0], first, last), "constraint"))
    answers = [answer for answer in faq_answers(structure, MAX_STEPS) if answer[1] not in held]
    return found + [_fact("Procedure", answer, "conclusion") for answer in answers]


def _use_when(structure: Structure, facts: list[ObservationFact]) -> list[ObservationFact]:
    """A checklist's header field that says when to reach for it ("**Use when:** the `X` alert
    fires (lag above 2 million for 10 minutes)"): the alert it answers, unless one is read."""
    if any(fact.text.startswith("Alert: ") for fact in facts):
        return []
    for number, line in header_lines(structure):
        field = field_of(line)
        if field is not None and field[0] in RUNBOOK_USE_FIELDS and plain_text(field[1]).strip():
            return [_fact("Alert", (shorten(plain_text(field[1])), number, number), "conclusion")]
    return []


def _checklist_steps(structure: Structure, facts: list[ObservationFact]) -> list[ObservationFact]:
    """The numbered steps of a checklist with no part headings, each step's action (a mitigation
    when the page answers an alert, else the procedure) and the diagnosis, escalation and outcome
    its sentences tell (tasks/extract/runbook_checklist.py)."""
    label = "Mitigation" if any(fact.text.startswith("Alert: ") for fact in facts) else "Procedure"
    return [_fact(part, span, "conclusion" if part == label else "detail")
            for step in preamble_steps(structure) for part, span in step_parts(step, label)]


def _alert_sentence(structure: Structure) -> list[ObservationFact]:
    """The sentence that says when the page's alert fires, wherever the page states it (a
    procedure's first step: "Confirm the alert. The `X` alert fires when ...")."""
    for text, first, last, _ in story_sentences(structure):
        if _ALERT_FIRES_RE.search(text):  # a Meaning section may hold it too: the condition is its own part
            return [_fact("Alert", (text, first, last), "conclusion")]
    return []


_ALERT_FIRES_RE = re.compile(
    r"\balert\b[^.]{0,60}?\b(?:fires|triggers|is\s+raised|goes\s+off)\s+(?:\w+\s+)?(?:when|if)\b"
    # "Use this checklist when `SearchApiLatencyHigh` fires": the alert named before its verb
    r"|\b(?:when|if|once)\s+(?:the\s+)?`?[A-Z][\w.-]{2,80}`?(?:\s+alert)?\s+"
    r"(?:fires|triggers|pages|goes\s+off|is\s+raised)\b"
    # under the alert's own heading (`## CraneTelemetryStale`), the sentence leaves it unnamed:
    # "Fires when no message has arrived for 5 minutes."
    r"|^(?:it\s+|this\s+)?(?:fires|triggers|is\s+raised|goes\s+off)\s+(?:when|if|after)\b", re.I)


# A cell that only sends the reader elsewhere ("See \"Customs holds\" below", "see above").
_POINTER_RE = re.compile(r"^see\b.{0,80}\b(?:below|above)\W*$", re.I)


def _table_fixes(structure: Structure) -> list[ObservationFact]:
    """Each row of a troubleshooting table: its fix, for its problem, a mitigation; a clause of
    the fix that forbids or limits ("never raise it above the quota") a constraint too."""
    facts: list[ObservationFact] = []
    for number, problem, fix, means in troubleshooting_rows(structure.visible)[:MAX_STEPS]:
        # a detail: a row's cells are terse ("Text empty for PDFs"), not names to read subjects from
        if means:  # a table of codes says what each means: the diagnosis the code gives
            told = shorten(f"{means} (when: {problem})")
            facts.append(_fact("Diagnosis", (told, number, number), "detail"))
        if _POINTER_RE.match(fix):
            continue  # `See "Customs holds" below`: the fix is told elsewhere, read there
        facts.append(_fact("Mitigation", (shorten(f"{fix} (when: {problem})"), number, number), "detail"))
        for clause in (part.strip() for part in fix.split(";")):
            if _FORBIDS_RE.search(clause) or _CONSTRAINT_RE.search(clause) or _ONLY_RE.match(clause):
                facts.append(_fact("Constraint", (clause, number, number), "constraint"))
    return facts


# A maintenance procedure (no alert to answer): its numbered steps are the procedure, and its
# Rollback section the mitigation.
_ALERT_SECTIONS = frozenset({"meaning", "symptoms", "symptom", "alert", "what it means", "triage",
                             "diagnosis", "alert description", "what this alert means", "troubleshooting"})
_ALERT_HEADING_RE = re.compile(r"\b(?:this|the)\s+alert\b", re.I)
_PROCEDURE_SECTIONS = frozenset({"procedure", "steps", "the procedure", "maintenance procedure"})
_STAGE_RE = re.compile(r"^(?:stage|step|phase|part)\s+\d{1,2}\b")
_PROCEDURE_PARTS: _SectionKeys = tuple(
    (label, tuple(key for key in keys if key not in _PROCEDURE_SECTIONS)
     + (("rollback", "rollback plan", "back-out plan", "backout plan", "roll back", "rolling back")
        if label == "Mitigation" else ()))
    for label, keys in _RUNBOOK_PARTS
)
MAX_STEPS = 12


def _procedure_sections(structure: Structure) -> list[Section]:
    """The sections of a procedure's steps ("Procedure", "Stage 1: distribute the next key"), none
    in an alert's runbook (its steps are the mitigation)."""
    if find_sections(structure, _ALERT_SECTIONS) or any(
            _ALERT_HEADING_RE.search(structure.title(section)) for section in structure.sections[2:]):
        return []  # a heading about the alert ("What the alert means"): an alert's runbook
    return [section for section in structure.sections[2:]
            if section_key(structure.title(section)) in _PROCEDURE_SECTIONS
            or _STAGE_RE.match(section_key(structure.title(section)))]


def _opening_alert(structure: Structure) -> list[ObservationFact]:
    """When the alert fires and what it means, as a runbook's opening paragraph states them
    ("The alert fires when ... It measures freshness, not throughput")."""
    paragraph: list[tuple[int, str]] = []
    for number, line in [*clean_lines(_preamble(structure)), (0, "")]:
        if line.strip():
            paragraph.append((number, line.strip()))
            continue
        alert, meaning = alert_and_meaning(paragraph) if paragraph else (None, None)
        if alert is not None:
            said = [_fact("Alert", alert, "conclusion")]
            return said + ([_fact("Meaning", meaning, "conclusion")] if meaning else [])
        paragraph = []
    return []


def _architecture(structure: Structure, status: str) -> list[ObservationFact]:
    facts: list[ObservationFact] = []
    found = _lead_paragraph(clean_lines(_preamble(structure)), structure)
    if found is None:
        first = next((s for s in structure.sections[1:] if s.level >= 2), None)
        found = section_paragraph(structure, first) if first else None
    if found and not _title_block(structure, found):
        facts.append(_fact("Overview", found, "conclusion"))
    constraints = _constraints(structure)
    facts += [_fact("Decision", item, "decision") for item in radar_decisions(structure, MAX_STEPS)]
    facts += constraints + architecture_parts(structure, {fact.line_start for fact in constraints})
    facts += _led_in_parts(structure, [f.text.split(": ", 1)[-1] for f in facts])
    return facts + _design_decisions(structure) + _stated_rules(structure, facts) + _flagged_risks(structure)


# A line that leads into the rules a system keeps ("Rules the application follows:", "Constraints:")
# or into the parts it is made of ("GateLine is made of:", "The pipeline consists of:").
_RULES_LEAD_RE = re.compile(r"^(?:the\s+|our\s+)?(?:rules|constraints|invariants|guarantees)\b[^:.]{0,60}:$",
                            re.I)
_PARTS_LEAD_RE = re.compile(r"\b(?:is|are)\s+(?:made\s+(?:up\s+)?of|built\s+from|composed\s+of)\s*:$"
                            r"|\bconsists?\s+of\s*:$", re.I)


def _led_in_parts(structure: Structure, said: list[str]) -> list[ObservationFact]:
    """Each item of a list led in as the page's rules (a Constraint) or as the parts the system
    is made of (its Design), unless a fact read already says it whole."""
    if ":" not in structure.text:
        return []
    facts: list[ObservationFact] = []
    for label, lead_in in (("Constraint", _RULES_LEAD_RE), ("Design", _PARTS_LEAD_RE)):
        for block in labelled_lists(structure, frozenset(), lead_in):
            facts += [_fact(label, item, "detail") for item in list_items(block, limit=MAX_STEPS)
                      if not any(item[0] in text for text in said)]
    return facts


def _flagged_risks(structure: Structure) -> list[ObservationFact]:
    """The text of each warning box (tasks/extract/admonitions.py): a risk the page flags."""
    return [_fact("Risk", span, "detail") for span in risk_boxes(structure)]


# A line of a page's fields run together with separators ("Design doc · Author: Kofi Mensah ·
# Reviewers: ...", "Component reference · Storage platform · maintained by ..."): no statement.
_FIELD_RUN_RE = re.compile(r"\S\s[·•]\s[^·•]+\s[·•]\s|^[^·•]{1,40}\s[·•]\s[\w ]{1,30}:\s")


def _lead_paragraph(lines: list[tuple[int, str]], structure: Structure) -> LineSpan | None:
    """The page's lead: its first paragraph that is a statement, past a wiki's tagline ("From
    the engineering wiki"), a notice quoted over the page ("> This article needs citations")
    and an infobox table; the first paragraph when none is."""
    first = found = window_paragraph(lines, structure.code_content)
    while found is not None:
        opening = dict(lines).get(found[1], "").lstrip()
        if (len(found[0].split()) >= _LEAD_WORDS and not opening.startswith((">", "|"))
                and not _FIELD_RUN_RE.search(opening) and found[1] not in boxed_lines(structure)):
            return found
        lines = [(n, line) for n, line in lines if n > found[2]]
        found = window_paragraph(lines, structure.code_content)
    return first


_LEAD_WORDS = 8


def _title_block(structure: Structure, span: LineSpan) -> bool:
    """A cover's lines, no statement: short lines none of which ends a sentence ("Brindle Card
    Payments Platform" / "Software Architecture Document" / "Version 2.1", a RUP document's)."""
    lines = [structure.by_number.get(n, "").strip() for n in range(span[1], span[2] + 1)]
    return len(lines) >= 2 and all(len(line.split()) <= 6 and not line.endswith((".", "!", "?", ":", ";"))
                                   for line in lines)


# An admonition's label before what it flags: AsciiDoc's (`WARNING: Do not ...`, also written so in
# markdown), a word processor's or a wiki's (`Warning: ...`, `**Caution:**`), GitHub's alert (`[!WARNING]`).
_ADMONITION_RE = re.compile(r"^(?:\[!(?:NOTE|TIP|IMPORTANT|WARNING|CAUTION)\]\s*"
                            r"|(?:\*\*|__)?(?:NOTE|TIP|IMPORTANT|WARNING|CAUTION|DANGER"
                            r"|Note|Tip|Important|Warning|Caution|Danger)(?:\*\*|__)?\s*:\s*(?:\*\*|__)?\s*)")


def _constraints(structure: Structure, *, imperatives: bool = False) -> list[ObservationFact]:
    """Each sentence stating a constraint, with the lines it spans; with `imperatives`, an
    instruction that forbids ("Do not ...", "Never ...") too."""
    lines = dict(clean_visible(structure))
    facts: list[ObservationFact] = []
    for start, end in structure.paragraphs:
        if end - start >= MAX_SPAN_LINES:
            continue
        parts = [(n, lines.get(n, "").strip()) for n in range(start, end + 1)]
        if parts[0][1].startswith("|") or start in structure.heading_lines:
            continue
        for said, first, last in sentences(parts):
            sentence = _ADMONITION_RE.sub("", said, count=1)  # "WARNING: Do not ...": the rule it flags
            forbids = imperatives and _FORBIDS_RE.search(sentence) is not None
            if ((_CONSTRAINT_RE.search(sentence) or _ONLY_RE.match(sentence) or forbids)
                    and (len(sentence) >= 20 or (forbids and len(sentence.split()) >= 3))):
                facts.append(_fact("Constraint", (shorten(sentence), first, last), "constraint"))
                if len(facts) >= MAX_CONSTRAINTS:
                    return facts
    return facts


def _section_decisions(structure: Structure, keys: frozenset[str]) -> list[ObservationFact]:
    """Each item (or row, else the paragraph) of a section that names itself the decisions."""
    facts: list[ObservationFact] = []
    for section in find_sections(structure, keys):
        items = list_items(structure.lines(section)) or _table_items(structure.lines(section))
        found = section_paragraph(structure, section) if not items else None
        facts += [_fact("Decision", (_DECISION_LABEL_RE.sub("", text), start, end), "decision")
                  for text, start, end in (items or ([found] if found else []))]
    return facts


def _minutes(structure: Structure, status: str) -> list[ObservationFact]:
    facts = _section_decisions(structure, _DECISION_SECTIONS)
    # `**Decisions**` over a list, or a sentence that leads into it ("Decisions (summary for the register):")
    for block in labelled_lists(structure, _DECISION_SECTIONS, _DECISION_LEAD_IN_RE):
        facts += [_fact("Decision", (_ITEM_KEY_RE.sub("", text), start, end), "decision")
                  for text, start, end in list_items(block)]
    # a Decisions section's table read above as a dated log when it is one: each row with its
    # date, owner and status (a row the log marks rejected is no decision)
    rows = decision_log_rows(structure, _states_rule)
    logged = {row.line_start for row in rows}
    facts = [fact for fact in facts if fact.line_start not in logged] + rows
    decided = {fact.line_start for fact in facts}
    facts = [fact for fact in facts if not _NOT_DECISION_RE.match(fact.text)]
    lines_decided = decided | {n for n, line in structure.visible if _DECISION_LINE_RE.match(line)}
    facts += dated_entry_decisions(structure, lines_decided)
    actions = _actions(structure)
    listed = {fact.line_start for fact in actions}
    lines = {n: line for n, line in structure.visible if n not in structure.heading_lines}  # headings end it
    for number, line in structure.visible:
        labelled_line = _DECISION_LINE_RE.match(line)
        match = labelled_line or _DECIDED_ITEM_RE.match(line)
        said = f"Decision: {plain_text(match['text'])}" if match else ""
        if match and number not in decided and not _NOT_DECISION_RE.match(said) and not _open(match["text"]):
            text, last = _wrapped(match["text"], number, lines)
            # an item told in the meeting's own words ("We decided that we prefer Esteban's
            # approach") names people as often as systems: a detail, its names not read as subjects
            kind = "decision" if labelled_line else "detail"
            facts.append(_fact("Decision", (shorten(plain_text(text)), number, last), kind))
        consequence = _CONSEQUENCE_LINE_RE.match(line) if match is None else None
        if consequence and not _open(consequence["text"]):  # what a log entry's decision commits to
            text, last = _wrapped(consequence["text"], number, lines)
            facts.append(_fact("Consequence", (shorten(plain_text(text)), number, last), "detail"))
        action = _ACTION_LINE_RE.match(line)
        if action and number not in listed:
            item = _with_owner(shorten(plain_text(action["text"])))
            actions.append(_fact("Action item", (item, number, number), "action"))
    decided_lines = {fact.line_start for fact in facts if fact.text.startswith("Decision: ")}
    facts += _items_after_decisions(structure, decided_lines, listed)
    # (a highlighted decision is a point of its own among the discussion's: not an entry's header)
    facts += _highlighted_decisions(structure, decided)
    facts += entry_details(structure, decided_lines, _states_rule)  # "  - Why: ..." under an entry
    # a decision that is a rule ("no dispatch rule may use data from YieldBase") is a constraint
    # the team keeps, as a proposal's goal that forbids is
    ruled = {fact.line_start for fact in facts if fact.text.startswith("Constraint: ")}
    facts += [replace(fact, text="Constraint: " + fact.text.removeprefix("Decision: "), kind="detail")
              for fact in facts if fact.text.startswith("Decision: ") and fact.line_start not in ruled
              and _states_rule(fact.text.removeprefix("Decision: "))]
    conditions = _conditions(structure)
    facts += _stated_rules(structure, conditions) + conditions + _led_in_decisions(structure, facts)
    facts += _agreed_sentences(structure, {n for f in facts for n in range(f.line_start, f.line_end + 1)})
    return (facts + _recap(structure) + rejected_sentences(structure) + _issues(structure) + actions
            + _flagged_risks(structure))


# A span marked as highlighted (HackMD's, Obsidian's and Typora's `==text==`): notes mark what
# matters so, a decision above all ("- Shadow mode: ==Decided: start on 16/11.==").
_HIGHLIGHT_RE = re.compile(r"==(?=\S)(?P<text>[^=]{3,400}?)(?<=\S)==")


def _highlighted_decisions(structure: Structure, decided: set[int]) -> list[ObservationFact]:
    """Each highlighted span of a line that states a decision by its label ("==Decided: ...=="),
    where no decision of that line was read."""
    found: list[ObservationFact] = []
    for number, line in structure.visible:
        if "==" not in line or number in decided:  # a literal test first: most lines have none
            continue
        for span in _HIGHLIGHT_RE.finditer(line):
            match = _DECISION_LINE_RE.match(span["text"])
            if match and not _open(match["text"]):
                said = shorten(plain_text(match["text"]))
                found.append(_fact("Decision", (said, number, number), "decision"))
    return found


# A meeting's own summary, the likelier heading first: Zoom AI Companion's "Quick recap" (over its
# "Summary" of topic sub-sections), Google Meet's Gemini notes' "Summary".
_RECAP_ORDER = ("quick recap", "recap", "meeting summary", "summary", "tl;dr", "tldr")


def _recap(structure: Structure) -> list[ObservationFact]:
    """The first paragraph of the meeting's summary section: what it went through, in a line
    (its names are of people as often as of systems: a detail)."""
    for key in _RECAP_ORDER:
        for section in find_sections(structure, frozenset({key}))[:1]:
            found = section_paragraph(structure, section)
            if found is not None:
                return [_fact("Summary", found, "detail")]
    return []


# A sentence of minutes that says what the meeting agreed ("Agreed it should not: ...", "It was
# agreed that ...", "The group agreed to ..."), as minutes write a decision in their prose.
_AGREED_RE = re.compile(
    r"^(?:(?:it\s+was|we|all|everyone|(?:the\s+)?(?:group|team|meeting|committee|council|board))\s+)?"
    r"agreed\b(?!\s+to\s+disagree)", re.I)


# A sentence that opens with the word for what a meeting decided, leading into the list of it.
_DECISION_LEAD_IN_RE = re.compile(r"^(?:\*\*|__)?(?:decisions?|decided|agreed|outcomes?)\b", re.I)


def _agreed_sentences(structure: Structure, read: set[int]) -> list[ObservationFact]:
    """Each sentence of running prose that opens with what was agreed, not read already."""
    facts: list[ObservationFact] = []
    for _, parts in prose_paragraphs(structure):
        if not any("greed" in line for _, line in parts):  # a literal gate first
            continue
        for text, start, end in sentences(parts):
            if start not in read and _AGREED_RE.match(text) and not text.rstrip().endswith("?"):
                facts.append(_fact("Decision", (shorten(plain_text(text)), start, end), "decision"))
    return facts


def _items_after_decisions(structure: Structure, decided: set[int], listed: set[int]
                           ) -> list[ObservationFact]:
    """The unlabelled items that follow a labelled decision item in its list ("- Decision: codes
    are sent by email only." then "- Customer Care may resend a code only after a passcode
    check."): the entry's further decisions, up to the list's end or an item with a label of its
    own ("- Owner: ..."). Details: told in the meeting's words, their names are not subjects."""
    facts: list[ObservationFact] = []
    for section in structure.sections[1:]:
        after, end = False, -1
        for text, first, last in list_items(structure.lines(section), limit=MAX_ACTIONS):
            if first > end + 2:  # a list of its own
                after = False
            end = last
            if first in decided:
                after = True
            elif after and (is_field_line(text) or plain_label(text) or first in listed
                            or text.rstrip().endswith("?")):
                after = False
            elif after:
                facts.append(_fact("Decision", (text, first, last), "detail"))
    return facts


def _open(text: str) -> bool:
    """A log entry's field still to fill ("_to be decided at the December meeting_", "TBC")."""
    return _OPEN_FIELD_RE.match(text) is not None


_OPEN_FIELD_RE = re.compile(
    r"^[_*\s]*(?:to\s+be\s+(?:decided|confirmed|agreed|defined)|tb[cdx]|pending|n/a)(?![A-Za-z])", re.I
)


_CONDITION_LABELS = frozenset({"conditions", "conditions of approval", "approval conditions",
                               "approved with conditions", "with conditions"})


# A meeting's list of what went wrong since the last one ("Issues", "Problems"): each item that
# tells how it was fixed is a small incident, its fix a resolution and its cause the sentence
# that explains it (a "because", else the sentence before the fix).
_ISSUE_SECTIONS = frozenset({"issues", "problems", "incidents", "issues and incidents", "lowlights",
                             "operational issues", "what went wrong", "problems and incidents"})


def _issues(structure: Structure) -> list[ObservationFact]:
    """The cause and the fix of each issue a meeting lists that tells how it was fixed."""
    facts: list[ObservationFact] = []
    for section in find_sections(structure, _ISSUE_SECTIONS):
        for text, start, end in list_items(structure.lines(section), limit=MAX_ACTIONS):
            said = [sentence for sentence, _, _ in sentences([(start, text)])]
            fixed = next((i for i, sentence in enumerate(said) if i and tells_repair(sentence)), None)
            if fixed is None:
                continue
            because = [sentence for sentence in said[:fixed] if tells_cause(sentence)]
            cause = because[-1] if because else said[fixed - 1]
            facts += [_fact("Cause", (cause, start, end), "detail"),
                      _fact("Resolution", (said[fixed], start, end), "detail")]
    return facts


def _wrapped(text: str, number: int, lines: Mapping[int, str]) -> tuple[str, int]:
    """A `Decision:` line's text with the lines it wraps onto (up to the next blank line,
    field, list item or heading), and its last line."""
    last = number
    while (following := lines.get(last + 1, "")).strip() and not (
            is_field_line(following) or _ITEM_START_RE.match(following)
            or following.lstrip().startswith("|")):
        last += 1
        text = f"{text} {following.strip()}"
        if last - number >= MAX_SPAN_LINES - 1:
            break
    return text, last


_ITEM_START_RE = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s")


# The parts read statement by statement after a genre's own reader, and how a statement's own
# words name another part (an incident's detection or cost, a runbook step's check or hand-over).
_STATEMENT_PARTS: Mapping[str, tuple[frozenset[str], Callable[[str], str | None]]] = {
    POSTMORTEM: (INCIDENT_PARTS, incident_part),
    RUNBOOK: (RUNBOOK_PARTS, step_part),
}
_READERS: Mapping[str, Callable[[Structure, str], list[ObservationFact]]] = {
    PROPOSAL: _proposal,
    POSTMORTEM: _postmortem,
    RUNBOOK: _runbook,
    ARCHITECTURE: _architecture,
    MINUTES: _minutes,
}
