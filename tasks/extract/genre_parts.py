"""Parts of proposals, architecture pages and decision logs that house styles write in their own
shapes (issue 23 item 3), each read as observations with their lines:

- a proposal's goals, drawbacks, rationale and rejected alternatives (KEP / PEP / Rust RFC
  sections), and the answers of a PR/FAQ one-pager ("**What are we building?**", "### Q: Why
  not ...?") read as its design, rationale, constraints and non-goals;
- an architecture page's or service README's responsibilities, service level objectives,
  known gaps, and what the service does not do ("X does **not** handle ...");
- a decision log kept as one table (`| Date | Decision | Owner | Status |`): each dated row a
  decision with its date, owner and status; and a sentence that says an option was rejected.

Template boilerplate is never read (tasks/extract/genre_text.py).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from tasks.extract.decision_choice import choice_paragraph
from tasks.extract.genre_meta import iso_date
from tasks.extract.genre_prose import labelled_lists, run_in_paragraphs, sentences
from tasks.extract.genre_text import (
    MAX_SPAN_LINES,
    clean_lines,
    clean_visible,
    find_sections,
    list_items,
    section_paragraph,
    window_paragraph,
)
from tasks.extract.genres import dated_entry_title
from tasks.extract.model import LineSpan, ObservationFact
from tasks.extract.structure import Structure, section_key, with_subsections
from tasks.extract.text import joined_lines, plain_text, shorten
from tasks.markdown.blocks import Section
from tasks.markdown.tables import table_cells
from tasks.record_dates import day_first_hint

# The sections that list the alternatives a proposal or a decision record rejected.
REJECTED_SECTIONS = frozenset({"alternatives", "alternatives considered", "considered alternatives",
                               "rejected alternatives", "rejected ideas", "rejected options",
                               "alternative approaches", "alternative designs", "alternatives rejected",
                               "options considered", "other options considered",
                               # the Rust RFC template's, whose rejected designs follow its rationale
                               "rationale and alternatives",
                               # HashiCorp's RFC template's: ideas dropped as the RFC evolved, each with why
                               "abandoned ideas", "abandoned alternatives", "abandoned approaches"})
# A risk section: the KEP template's "Risks and Mitigations", arc42's "Risks and Technical Debt".
_RISK_SECTIONS = frozenset({"risks", "risks and mitigations", "risks & mitigations", "risks and mitigation",
                            "risks and technical debt", "risks & technical debt", "technical risks"})
# Each part's label, the headings it is read from, and how many items it keeps.
_PROPOSAL_SECTIONS: tuple[tuple[str, frozenset[str]], ...] = (
    ("Goal", frozenset({"goals", "objectives", "design goals"})),
    # the principles the design keeps, each a rule (an Amazon narrative's or PR/FAQ's "Tenets")
    ("Constraint", frozenset({"tenets", "our tenets", "design tenets", "design principles",
                              "guiding principles"})),
    ("Rationale", frozenset({"rationale", "why this approach", "why this design", "justification",
                             # Fedora's Change proposal ("Benefit to Fedora": what the change gives)
                             "benefit", "benefits"})),
    # why the change is wanted (a Rust RFC's, a KEP's, a DEP's "Motivation"): read beside a rationale
    ("Rationale", frozenset({"motivation", "motivations"})),
    ("Drawback", frozenset({"drawbacks", "disadvantages", "downsides", "cons", "trade-offs",
                            "tradeoffs", "costs and drawbacks"})),
    ("Rejected", REJECTED_SECTIONS),
    # what changes for those who use it (PEP's "Backwards Compatibility", a KEP's or KIP's
    # "Compatibility, Deprecation, and Migration Plan")
    ("Consequence", frozenset({"backwards compatibility", "backward compatibility", "compatibility",
                               "compatibility, deprecation, and migration plan",
                               "compatibility, deprecation and migration plan", "consequences",
                               "impact on existing users", "breaking changes",
                               # Fedora's Change proposal's
                               "upgrade/compatibility impact"})),
)
PROPOSAL_SECTIONS = _PROPOSAL_SECTIONS  # (a part's every statement: part_statements)
_ARCHITECTURE_SECTIONS: tuple[tuple[str, frozenset[str]], ...] = (
    ("Responsibility", frozenset({"responsibilities", "what it does", "what this service does",
                                  "what the service does",
                                  # arc42's building block view: its blocks and their responsibilities
                                  "building block view", "whitebox overall system",
                                  # the RUP SAD's: its elements and what each is responsible for
                                  "logical view"})),
    # arc42's "Solution Strategy": the fundamental decisions the architecture is built on
    ("Design", frozenset({"solution strategy"})),
    # an Azure Architecture Center reference architecture's "Workflow" (or "Dataflow": the steps
    # data takes through the system) and its "Components" (each service and what it is used for)
    ("Design", frozenset({"workflow", "dataflow", "data flow"})),
    ("Design", frozenset({"components"})),
    # the RUP Software Architecture Document's process and deployment views: how a request runs
    # through the elements, and where they run
    ("Design", frozenset({"process view"})),
    ("Design", frozenset({"deployment view"})),
    ("SLO", frozenset({"slos", "slo", "service level objectives", "service-level objectives",
                       "slos and slis", "slis and slos", "service levels", "slis/slos", "slos/slis"})),
    ("Gap", frozenset({"known gaps", "gaps", "known limitations", "known issues", "limitations",
                       "technical debt", "tech debt", "known problems", "open gaps"})),
    # every item of a section that names itself the constraints is one, whatever its verb
    # ("Nothing reads from Aidbox's database directly; use the FHIR API.")
    ("Constraint", frozenset({"constraints", "architecture constraints", "architectural constraints",
                              "technical constraints", "design constraints", "invariants",
                              "guarantees", "guaranteed properties", "rules", "error budget policy"})),
)
_MAX_ITEMS = 12
_FAQ_SECTIONS = frozenset({"faq", "faqs", "frequently asked questions", "internal faq", "external faq",
                           "customer faq", "q&a", "questions and answers", "stakeholder faq"})
# A FAQ's question: a bold line alone (`**What are we building?**`) or a heading ending in "?".
_BOLD_QUESTION_RE = re.compile(r"^\s*(?:\*\*|__)(?P<question>[^*_]{3,200}\?)\s*(?:\*\*|__)\s*$")
_ANSWER_MARK_RE = re.compile(r"^\s*(?:\*\*|__)?A(?:nswer)?\s*[:.](?:\*\*|__)?\s*")
# What an answer is, by what its question asks (the first that matches).
_QUESTION_PARTS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("Non-goal", re.compile(r"\b(?:out\s+of\s+scope|not\s+in\s+scope|non-?goals?"
                            r"|not\s+(?:be\s+)?(?:building|doing|covered|included|changing)|what\s+(?:is|are)\s+not\b|won'?t\s+(?:we\s+)?(?:build|do))",
                            re.I)),
    ("Constraint", re.compile(r"\b(?:must|constraints?|requirements?|stay\s+true|invariants?|guarantees?"
                              r"|non-negotiable)\b", re.I)),
    ("Rationale", re.compile(r"^(?:q\s*[:.]\s*)?why\b", re.I)),
    ("Design", re.compile(r"\b(?:what\s+(?:exactly\s+)?(?:are|is|will)\s+(?:we|it|the\s+\w+)\s+(?:\w+\s+)?"
                          r"(?:building|launching|build|launch|proposing|propose|shipping|ship|changing)"
                          r"|how\s+(?:does|will)\s+it\s+work)\b", re.I)),
)
# "RosterHub does **not** handle vehicle allocation": what a service leaves to others.
_DOES_NOT_RE = re.compile(
    r"\b(?:does|do|will)\s+(?:\*\*|__|\*|_)?not(?:\*\*|__|\*|_)?\s+(?:handle|own|manage|do|provide|send"
    r"|store|cover|support|include|perform|issue|run)\b", re.I)
# Who a scope sentence is about: the page's service ("RosterHub does not ...", its name read as "it").
_SCOPE_SUBJECT_RE = re.compile(r"^(?:it|this\s+service|the\s+service|this\s+component)\s+(?:does|do|will)\b")
_SINGLE_RE = re.compile(r"\b(?:runs?|deployed|run)\s+as\s+(?:a\s+single|one|exactly\s+one)\s+"
                        r"(?:replica|instance|process|pod|node|worker|leader)\b", re.I)
_REJECTED_RE = re.compile(
    r"\b(?:considered\s+and\s+rejected|(?:is|are|was|were)\s+rejected|rejected\s+because|we\s+rejected)\b"
    # a minute's or an option's own label ("- Rejected: starting the alpha in parallel ...",
    # "- Request a higher quota only. Rejected: AWS granted a 50% raise"), as "Decision:" is
    r"|(?:^|(?<=[.;]\s)|(?<=[-*+]\s)|(?<=\())(?:\*\*|__)?rejected(?:\*\*|__)?\s*:"
    # what a meeting turned down ("The board did not agree to raise the cap to 100,000 seeds")
    r"|\b(?:did\s+not|didn't|did\s+n't)\s+agree\s+to\b"
    # the option a choice was made over ("We chose MQ over the nightly SFTP drop because ...")
    r"|\b(?:we|they|the\s+team)\s+(?:chose|preferred)\s+[^.;:]{1,80}?\s+over\s+(?!time\b)\w", re.I)
# A word one of a pattern's matches must hold, in lower case (no letter of them has a case-blind
# twin outside ASCII, as "ı" has for "i" and "ſ" for "s").
_STEMS: dict[re.Pattern[str], tuple[str, ...]] = {
    _REJECTED_RE: ("rejected", " agree to", "cho", "preferred ")}
_DATE_COLUMNS = frozenset({"date", "when", "decided", "decision date", "date decided", "day"})
_DECISION_COLUMNS = frozenset({"decision", "decisions", "what was decided", "decision (one line)"})
_OWNER_COLUMNS = frozenset({"owner", "owners", "decider", "deciders", "decided by", "decision owner",
                            "who", "dri", "approver", "made by"})
_STATUS_COLUMNS = frozenset({"status", "state"})
# A log whose Decision column names the question and another the answer (`| Decision | Options |
# Chosen |`): the answer is what was decided.
_CHOSEN_COLUMNS = frozenset({"chosen", "choice", "chosen option", "selected", "selected option", "picked"})
# Why each row was decided (a decision log template's Rationale column).
_RATIONALE_COLUMNS = frozenset({"why", "rationale", "reason", "reasons", "reasoning", "justification",
                                "because"})
_REVERSAL_COLUMNS = frozenset({"reversed by", "superseded by", "replaced by", "overturned by"})
# A row the log records as turned down (`| Rejected |`, "Declined", "Not accepted"): what it
# proposed is an option rejected, not a decision, and its notes say why when no column does.
_REJECTED_STATUS_RE = re.compile(r"^(?:rejected|declined|not\s+accepted|turned\s+down)\b", re.I)
_NOTE_COLUMNS = frozenset({"notes", "note", "comments", "comment", "remarks"})
_SEPARATOR_RE = re.compile(r"^\s*\|?\s*:?-{3,}")


def proposal_parts(structure: Structure) -> list[ObservationFact]:
    """Goals, rationale, drawbacks and rejected alternatives from their sections, and the
    answers of a PR/FAQ."""
    facts = [fact for label, keys in _PROPOSAL_SECTIONS for fact in section_items(structure, label, keys)]
    if not any(fact.text.startswith("Goal: ") for fact in facts):
        # a Google design doc's "Goals and non-goals" written as two labelled lists ("Goals:")
        facts += [_fact("Goal", item) for block in labelled_lists(structure, _GOAL_LABELS)[:1]
                  for item in list_items(block, limit=_MAX_ITEMS)]
    # the reasons a proposal gives as a labelled list ("Why:" over its items) inside its design
    facts += [_fact("Rationale", item) for block in labelled_lists(structure, _WHY_LABELS)[:1]
              for item in list_items(block, limit=_MAX_ITEMS)]
    return facts + risk_items(structure) + faq_answers(structure)


_GOAL_LABELS = frozenset({"goals", "design goals"})
_WHY_LABELS = frozenset({"why", "rationale", "reasons", "why this", "why now"})


def architecture_parts(structure: Structure, stated: set[int]) -> list[ObservationFact]:
    """Responsibilities, SLOs and known gaps from their sections, each sentence that says what
    the service does not do, and one that says a container runs as a single instance (a
    constraint the must / only words do not find; `stated`: the lines of those they did)."""
    facts = [fact for label, keys in _ARCHITECTURE_SECTIONS
             for fact in section_items(structure, label, keys)
             if not (label == "Constraint" and fact.line_start in stated)] + risk_items(structure)
    if not any(fact.text.startswith("Responsibility: ") for fact in facts):
        facts += [_fact("Responsibility", row) for row in _responsibility_rows(structure)
                  or _block_paragraphs(structure)]
    facts += [_fact("Responsibility", span) for span in _purpose_paragraphs(structure)]
    facts += [_fact("Constraint", span) for span in _sentences_like(structure, _SINGLE_RE)
              if span[1] not in stated]
    facts += [_fact("Constraint", span) for span in pillar_rules(structure) if span[1] not in stated]
    name = _page_name(structure)
    return facts + [_fact("Non-goal", span) for span in _sentences_like(structure, _DOES_NOT_RE)
                    if name and _SCOPE_SUBJECT_RE.match(span[0].lower().replace(name, "it", 1))]


# The part of each blackbox that says what it is for (arc42's "Purpose/Responsibility", written
# as a run-in label: `*Purpose.* The only writer of ...`).
_PURPOSE_LABELS = frozenset({"purpose", "responsibility", "responsibilities", "purpose/responsibility",
                             "purpose / responsibility", "purpose and responsibility"})


def _purpose_paragraphs(structure: Structure) -> list[LineSpan]:
    """Each blackbox's `*Purpose.*` paragraph, led by the block's name when a heading gives it
    ("Permit core: The only writer of permit records ...")."""
    found = run_in_paragraphs(structure, _PURPOSE_LABELS)
    if not found:
        return []
    named: list[LineSpan] = []
    for text, start, end in found:
        section = next((s for s in reversed(structure.sections[1:]) if s.line <= start), None)
        name = _block_name(structure.title(section)) if section is not None else ""
        named.append((shorten(f"{name}: {text}") if name else text, start, end))
    return named


def _block_name(title: str) -> str:
    """A blackbox's name from its heading ("5.2.2 Permit core (blackbox)" -> "Permit core")."""
    name = title.strip()
    if name.endswith(")") and "(" in name:
        name = name[: name.rindex("(")].rstrip()
    return name.lstrip("0123456789. ").strip()


# A heading that says its section lists rules, in the words of any house style ("What must never
# happen?", "Hard rules", "Guardrails", "Non-negotiables", "Conditions of approval").
_RULES_HEADING_RE = re.compile(
    r"\b(?:must|never|non-negotiables?|guardrails?|hard\s+rules|ground\s+rules|red\s+lines"
    # "Cross-cutting rules", "Platform rules"; not a monitoring system's rules ("Alert rules")
    r"|(?<!alert\s)(?<!alerting\s)(?<!recording\s)(?<!routing\s)rules"
    r"|invariants?|constraints|conditions(?:\s+of\s+approval)?|do(?:'s|s)?\s+and\s+don'?ts"
    # the principles an architecture states it keeps (TOGAF's "Architecture principles applied")
    r"|principles)\b", re.I)


def rule_items(structure: Structure) -> list[ObservationFact]:
    """Each list item of a section whose heading says it lists rules (the title excluded), and
    of its subsections ("## Rules every container keeps" over "### Data integrity")."""
    facts: list[ObservationFact] = []
    read: set[int] = set()
    for index, section in enumerate(structure.sections[1:]):
        if index == 0 and section.level == 1:
            continue
        if _RULES_HEADING_RE.search(structure.title(section)):
            items = list_items(with_subsections(structure, section), limit=_MAX_ITEMS)
            facts += [_fact("Constraint", item) for item in items if item[1] not in read]
            read.update(item[1] for item in items)
    for block in labelled_lists(structure, _RULE_LABELS):  # "Rules:" alone on its line over a list
        facts += [_fact("Constraint", item) for item in list_items(block, limit=_MAX_ITEMS)]
    return facts


_RULE_LABELS = frozenset({"rules", "constraints", "invariants", "guarantees", "hard rules"})


def _page_name(structure: Structure) -> str:
    """The page's title when it opens with one (`# RosterHub`), in lower case."""
    first = structure.sections[1] if len(structure.sections) > 1 else None
    return structure.title(first).lower() if first is not None and first.level == 1 else ""


def decision_log_rows(
    structure: Structure, states_rule: Callable[[str], bool] = lambda _: False
) -> list[ObservationFact]:
    """Each row of a table with a Decision and a Date column whose date is a date (a template's
    `YYYY-MM-DD` row is not), as the decision with its date, owner and status (and the option
    chosen, when a column says it: "Schema registry: Apicurio Registry"), and why, when a
    column says that or a note below the table that names the row's key does (a sentence of
    it that `states_rule` is a Constraint of its own)."""
    facts: list[ObservationFact] = []
    keys: set[str] = set()  # each dated row's first cell ("SDL-03", "13"), the key its notes name
    order = day_first_hint(line for _, line in structure.visible)  # "08/09/26" among "14/03/25" rows
    for header, rows, decision, date in _dated_decision_tables(structure):
        columns = [plain_text(cell).lower() for cell in header]
        owner, status = _column(columns, _OWNER_COLUMNS), _column(columns, _STATUS_COLUMNS)
        chosen, why = _column(columns, _CHOSEN_COLUMNS), _column(columns, _RATIONALE_COLUMNS)
        if _column(columns, _REVERSAL_COLUMNS) is not None:
            why = None  # a table of reversed decisions: its Why says why each was reversed
        noted = _column(columns, _NOTE_COLUMNS)
        for number, cells in rows:
            day = iso_date(plain_text(cells[date]), order) if date < len(cells) else None
            text = plain_text(cells[decision]) if decision < len(cells) else ""
            if day is None or not text:
                continue
            if decision != 0 and date != 0:
                keys.add(plain_text(cells[0]).lstrip("#").strip().lower())
            answer = plain_text(cells[chosen]) if chosen is not None and chosen < len(cells) else ""
            text = f"{text.rstrip(':')}: {answer}" if answer else text
            notes = [day, *(f"{name}: {plain_text(cells[index])}" for name, index in
                            (("owner", owner), ("status", status))
                            if index is not None and index < len(cells) and plain_text(cells[index]))]
            rejected = (status is not None and status < len(cells)
                        and _REJECTED_STATUS_RE.match(plain_text(cells[status])) is not None)
            facts.append(_fact("Rejected" if rejected else "Decision",
                               (shorten(f"{text} ({'; '.join(notes)})"), number, number),
                               "detail" if rejected else "decision"))
            because = why if why is not None or not rejected else noted
            reason = plain_text(cells[because]) if because is not None and because < len(cells) else ""
            if reason:
                facts.append(_fact("Rejected" if rejected else "Rationale", (shorten(reason), number, number),
                                   "detail"))
    for text, start, end in _row_notes(structure, keys - {""}):
        said = sentences([(start, text)])
        rules = [sentence for sentence in said if states_rule(sentence[0])]
        facts += [_fact("Constraint", (sentence[0], start, end), "detail") for sentence in rules]
        told = " ".join(sentence[0] for sentence in said if sentence not in rules)
        if told:
            facts.append(_fact("Rationale", (shorten(told), start, end), "detail"))
    return facts


def _dated_decision_tables(
    structure: Structure,
) -> list[tuple[list[str], list[tuple[int, list[str]]], int, int]]:
    """Each table with a Decision and a Date column: its header, its rows, and those columns."""
    found = []
    for header, rows in markdown_tables(structure.visible):
        columns = [plain_text(cell).lower() for cell in header]
        decision, date = _column(columns, _DECISION_COLUMNS), _column(columns, _DATE_COLUMNS)
        if decision is not None and date is not None:
            found.append((header, rows, decision, date))
    return found


def log_last_day(structure: Structure) -> ObservationFact | None:
    """A decision log kept as a table: its newest row's day is when it was last updated
    (`Last updated: 2026-09-08 (written "08/09/26")`), read in the order the page's dates show."""
    if not structure.holding("|"):
        return None  # no table (most pages): nothing to read
    order = day_first_hint(line for _, line in structure.visible)
    newest: tuple[str, int, str] | None = None
    for _, rows, decision, date in _dated_decision_tables(structure):
        for number, cells in rows:
            written = plain_text(cells[date]) if date < len(cells) else ""
            day = iso_date(written, order) if written and decision < len(cells) else None
            if day is not None and len(day) == len("2026-09-08") and (newest is None or day > newest[0]):
                newest = (day, number, written)
    if newest is None:
        return None
    day, number, written = newest
    text = f"Last updated: {day}" if written == day else f'Last updated: {day} (written "{written}")'
    return ObservationFact(text, number, number, "date")


# A paragraph led by a bold key of its own: "**SDL-03.** Analysts asked ...", "**#13 Idempotency
# keys.** The key is ...". (The label is bounded and holds no star: no run of it is read twice.)
_KEYED_NOTE_RE = re.compile(r"^\s*\*\*#?(?P<key>[\w-]{1,20})(?P<rest>[^*]{0,80})\*\*[ \t]+(?P<text>\S.*)$")


def _row_notes(structure: Structure, keys: set[str]) -> list[LineSpan]:
    """Each note under a decision log kept as a table that names a row by its key ("**SDL-03.**
    Analysts asked for direct Spark access. Decision: no, because ..."): why, or how, that row
    was decided, without its label."""
    if not keys:
        return []
    lines = structure.by_number
    found: list[LineSpan] = []
    for start, end in structure.paragraphs:
        first = lines.get(start, "")
        if not first.lstrip().startswith("**"):  # a literal test skips every other paragraph
            continue
        match = _KEYED_NOTE_RE.match(first)
        if match is None or match["key"].lower() not in keys:
            continue
        last = min(end, start + MAX_SPAN_LINES - 1)
        rest = (lines.get(n, "").strip() for n in range(start + 1, last + 1))
        text = plain_text(joined_lines([match["text"], *rest]))
        if text:
            found.append((text, start, last))
    return found


def dated_entry_decisions(structure: Structure, read: set[int]) -> list[ObservationFact]:
    """Each entry of a log kept as dated headings ("### 2025-01-20 - Terraform state in one
    storage account per environment") whose lines hold no decision read already (`read`): its
    title (what such a log's titles state: the decision) with the paragraph under it that states
    the choice, past one that only tells the search ("We looked at ...")."""
    facts: list[ObservationFact] = []
    sections = structure.sections[1:]
    if sum(section.level == 1 for section in sections) == 1 and sections[0].level == 1:
        sections = sections[1:]  # the page's own title ("# 2026-03-10 Fab 4 weekly ops review"): no entry
    for section in sections:
        title = dated_entry_title(structure.title(section))
        lines = structure.lines(section)
        first = section_paragraph(structure, section) if title else None
        if title is None or first is None or any(number in read for number, _ in lines):
            continue
        found = choice_paragraph(clean_lines(lines), structure.code_content, first) or first
        text = plain_text(f"{title.rstrip('.:')}: {found[0]}")
        facts.append(_fact("Decision", (shorten(text), structure.number(section), found[2]), "decision"))
    return facts


def scope_exclusions(structure: Structure) -> list[LineSpan]:
    """The sentences of a Scope section that say what the page does not cover ("It does not
    cover claim payouts, which ...")."""
    facts: list[LineSpan] = []
    for section in find_sections(structure, _SCOPE_SECTIONS):
        lines = dict(clean_lines(structure.lines(section)))
        for start, end in structure.paragraphs:
            if start in lines and end - start < MAX_SPAN_LINES:
                parts = [(n, lines.get(n, "").strip()) for n in range(start, end + 1)]
                facts += [span for span in sentences(parts) if _EXCLUDES_RE.search(span[0])]
    return facts[:_MAX_ITEMS]


_SCOPE_SECTIONS = frozenset({"scope", "applicability", "scope and applicability", "purpose and scope"})
_EXCLUDES_RE = re.compile(
    r"\b(?:does|do|will)\s+not\s+(?:cover|apply|include|address)\b|\bout\s+of\s+(?:its\s+|this\s+)?scope\b"
    r"|\bis\s+not\s+covered\b|\bexcludes?\b", re.I)


# A sentence that leaves something out of the proposal ("Holds on e-books are out of scope: ...",
# "Marlow Fen Solar is not covered"): what it does not do, wherever the document says it.
OUT_OF_SCOPE_RE = re.compile(
    r"^[^.;:]{3,120}?\b(?:is|are|stays?|remains?)\s+(?:(?:explicitly|deliberately)\s+)?"
    r"(?:out\s+of\s+(?:the\s+|this\s+|its\s+)?scope|outside\s+(?:the\s+|this\s+|its\s+)?scope"
    r"|not\s+in\s+scope|not\s+covered)\b", re.I)
_STEMS[OUT_OF_SCOPE_RE] = ("cope", "overed")  # (no "s" or "k": "ſ" and "K" match them case-blind)


def out_of_scope_sentences(structure: Structure) -> list[LineSpan]:
    """Each sentence of a paragraph that says something is out of scope or not covered."""
    return _sentences_like(structure, OUT_OF_SCOPE_RE)


def rejected_sentences(structure: Structure) -> list[ObservationFact]:
    """Each sentence that says an option was considered and rejected ("Navitia was considered
    and rejected because ...")."""
    lines = dict(structure.visible)
    facts: list[ObservationFact] = []
    for text, start, end in _sentences_like(structure, _REJECTED_RE):
        reason = _REJECTED_LABEL_RE.sub("", text)
        if reason != text:  # "- Request a higher quota only. Rejected: ...": the option, then why
            line = lines.get(start, "")
            at = max(line.lower().find("rejected"), 0)
            option = plain_text(_ITEM_START_RE.sub("", line[:at])).rstrip(" .;:*_")
            reason = f"{option}: {reason}" if option else reason
        facts.append(_fact("Rejected", (reason, start, end)))
    return facts + _rejected_rows(structure) + _option_columns_not_chosen(structure)


# A verdict cell that turns an option down, and the reason after it ("Rejected — no replay").
_VERDICT_RE = re.compile(r"^(?:rejected|declined|not\s+chosen|discarded|ruled\s+out)\b\W*", re.I)


_CITED_RE = re.compile(r"\s*\((?:see\s+)?[A-Z]{2,6}[- ]?\d{1,5}\)")


def _rejected_rows(structure: Structure) -> list[ObservationFact]:
    """Each row of an options table whose verdict cell (not its first) turns it down
    (`| MQTT broker (EMQX) | Rejected — no replay without add-ons |`): the option and why; a
    decision log's rows are read by decision_log_rows."""
    facts: list[ObservationFact] = []
    if "|" not in structure.text:
        return facts
    for header, rows in markdown_tables(structure.visible):
        if _column([plain_text(cell).lower() for cell in header], _DECISION_COLUMNS) is not None:
            continue
        for number, cells in rows:
            texts = [plain_text(cell) for cell in cells]
            verdict = next((text for text in texts[1:] if _VERDICT_RE.match(text)), None)
            option = _CITED_RE.sub("", texts[0])  # "Keep polling (ADR-006)": the record it cites is no option
            if verdict is not None and option:
                why = _VERDICT_RE.sub("", verdict)
                text = f"{option}: {why}" if why else option
                facts.append(_fact("Rejected", (shorten(text), number, number)))
    return facts


_ITEM_START_RE = re.compile(r"^\s*(?:[-*+]|\d{1,3}[.)])\s+")
# The option a page says was chosen, by its number or letter ("Option 1 chosen on 28 Mar 2023",
# "We chose option B", "Outcome: option 2 was selected").
_CHOSEN_NUMBER_RE = re.compile(
    r"\boption\s+(?P<after>\d{1,2}|[A-F])\b(?:\s+(?:was|is|has\s+been))?"
    r"\s+(?:chosen|selected|picked|adopted|accepted)\b"
    r"|\b(?:chose|chosen|selected|picked|go\s+with|went\s+with)\s*:?\s+option\s+(?P<before>\d{1,2}|[A-F])\b",
    re.I)
_OPTION_HEADER_RE = re.compile(r"^option\s+(?P<key>\d{1,2}|[A-F])\b\W*(?P<name>.*)$", re.I)
# The row of an options table (Atlassian's DACI template: one column per option) that says why
# an option is worse.
_CONS_ROWS = frozenset({"cons", "con", "disadvantages", "downsides", "drawbacks", "against"})


def _option_columns_not_chosen(structure: Structure) -> list[ObservationFact]:
    """The options of a table with one column per option (`| | Option 1: ... | Option 2: ... |`)
    that the page says were not chosen ("Option 1 chosen"): each option and its Cons cell."""
    if "|" not in structure.text or "ption" not in structure.text:
        return []
    chosen = next((match["after"] or match["before"] for _, line in structure.visible
                   if (match := _CHOSEN_NUMBER_RE.search(plain_text(line)))), None)
    if chosen is None:
        return []
    facts: list[ObservationFact] = []
    for header, rows in markdown_tables(structure.visible):
        options = {i: match for i, cell in enumerate(header)
                   if (match := _OPTION_HEADER_RE.match(plain_text(cell)))}
        if len(options) < 2:
            continue
        for number, cells in rows:
            if not cells or plain_text(cells[0]).lower().rstrip(":") not in _CONS_ROWS:
                continue
            # one fact for the row (a record keeps one rejection a line): each option and why
            lost = [f"{plain_text(header[index]).rstrip('.')}: {plain_text(cells[index]).rstrip('.')}"
                    for index, option in options.items()
                    if option["key"].lower() != chosen.lower() and index < len(cells)
                    and plain_text(cells[index])]
            if lost:
                facts.append(_fact("Rejected", (shorten(". ".join(lost) + "."), number, number)))
    return facts


# The header of an options table's first column (`| Option | Notes |`, `| Approach | Verdict |`).
_OPTION_COLUMNS = frozenset({"option", "options", "alternative", "alternatives", "approach", "approaches",
                             "candidate", "candidates", "choice", "choices", "solution", "solutions"})
_NAME_WORD_RE = re.compile(r"[a-z0-9][a-z0-9.+#/-]*[a-z0-9+#]|[a-z]")
_NAME_STOP_WORDS = frozenset({"the", "a", "an", "to", "of", "and", "or", "for", "in", "on", "with", "our",
                              "we", "use", "using", "new", "own", "build", "keep", "it", "as", "by", "at"})


def options_not_chosen(structure: Structure, chosen_lines: set[int]) -> list[ObservationFact]:
    """The rows of an options table (its first column an Option, an Alternative, an Approach)
    but the one the chosen design names (`chosen_lines`: the design's lines): each an option
    rejected, with what its row says of it. When no row, or more than one, is named as much as
    the most named, the choice is not told and no row is read."""
    if "|" not in structure.text or not chosen_lines:
        return []
    design = " ".join(plain_text(structure.by_number.get(n, "")) for n in sorted(chosen_lines)).lower()
    said = set(_NAME_WORD_RE.findall(design))
    facts: list[ObservationFact] = []
    for header, rows in markdown_tables(structure.visible):
        if not header or plain_text(header[0]).lower().rstrip(":") not in _OPTION_COLUMNS or len(rows) < 2:
            continue
        if any(n in chosen_lines for n, _ in rows):
            continue  # the design's own table
        named = [_named_share(plain_text(cells[0]) if cells else "", said) for _, cells in rows]
        best = max(named)
        if best < 0.5 or named.count(best) != 1:
            continue
        for (number, cells), share in zip(rows, named, strict=True):
            texts = [plain_text(cell) for cell in cells]
            if share == best or not texts or not texts[0]:
                continue
            notes = "; ".join(text for text in texts[1:] if text)
            facts.append(_fact("Rejected", (shorten(f"{texts[0]}: {notes}" if notes else texts[0]),
                                            number, number)))
    return facts


def _named_share(option: str, said: set[str]) -> float:
    """How much of an option's name the design's text holds (its words but the small ones)."""
    words = [word for word in _NAME_WORD_RE.findall(re.sub(r"\([^)]*\)", " ", option.lower()))
             if word not in _NAME_STOP_WORDS]
    return sum(word in said for word in words) / len(words) if words else 0.0


_REJECTED_LABEL_RE = re.compile(r"^(?:\*\*|__)?rejected(?:\*\*|__)?\s*:(?:\*\*|__)?\s*", re.I)


def faq_answers(structure: Structure) -> list[ObservationFact]:
    """The answer under each FAQ question its words place (design, rationale, constraints,
    non-goals): the answer's list items for constraints, else its first paragraph."""
    facts: list[ObservationFact] = []
    for question, lines in _questions(structure):
        label = next((label for label, pattern in _QUESTION_PARTS if pattern.search(question)), None)
        if label is None:
            continue
        lines = [(n, _ANSWER_MARK_RE.sub("", line)) for n, line in clean_lines(lines)]
        items = list_items(lines, limit=_MAX_ITEMS) if label == "Constraint" else []
        found = window_paragraph(lines, structure.code_content) if not items else None
        facts += [_fact(label, span) for span in (items or ([found] if found else []))]
    return facts


def faq_answer_lines(structure: Structure) -> set[int]:
    """The lines of every answer of the page's FAQ (where a rule an author states in lower case,
    "a phone may hold at most 2,000 scans", answers what a reader asked)."""
    return {number for _, lines in _questions(structure) for number, _ in lines}


def _questions(structure: Structure) -> list[tuple[str, list[tuple[int, str]]]]:
    """Each question of the FAQ section with the lines of its answer: a subsection headed by a
    question, or a bold question alone on its line and the lines up to the next one or the next
    heading (a question heading elsewhere is a design discussion's, not a FAQ's)."""
    faq = find_sections(structure, _FAQ_SECTIONS)
    if not faq:
        return []
    sections = structure.sections
    under: list[Section] = []  # the FAQ's subsections (as with_subsections reads their lines)
    for section in faq:
        for subsection in sections[sections.index(section) + 1 :]:
            if subsection.level <= section.level:
                break
            under.append(subsection)
    inside = {n for section in faq for n, _ in with_subsections(structure, section)}
    found = [(structure.title(section), structure.lines(section)) for section in under
             if structure.title(section).rstrip().endswith("?")]
    lines = structure.visible
    for index, (number, line) in enumerate(lines):
        match = _BOLD_QUESTION_RE.match(line)
        if match is None or number in structure.heading_lines or number not in inside:
            continue
        answer: list[tuple[int, str]] = []
        for following, text in lines[index + 1 : index + MAX_SPAN_LINES]:
            if following in structure.heading_lines or _BOLD_QUESTION_RE.match(text):
                break
            answer.append((following, text))
        found.append((match["question"], answer))
    return found


def section_items(structure: Structure, label: str, keys: frozenset[str]) -> list[ObservationFact]:
    """The list items of the first section of `keys` (its own lines, not its subsections'),
    else its first paragraph (not for known gaps: a paragraph there points to where they are
    tracked)."""
    for section in find_sections(structure, keys):
        found = _section_items(structure, section, label)
        if found:  # else the next such section (arc42's empty "Building Block View" over its whitebox)
            return found
    return []


def _section_items(structure: Structure, section: Section, label: str) -> list[ObservationFact]:
    own = structure.lines(section)
    rows = _slo_rows(own) if label == "SLO" else []
    rows = rows or table_rows(own)
    if rows:
        return [_fact(label, row) for row in rows[:_MAX_ITEMS]]
    items = list_items(own, limit=_MAX_ITEMS)
    if not items and label == "Rejected":  # one paragraph per option ("**Use Opsgenie.** It ..."),
        items = section_paragraphs(structure, own, _MAX_ITEMS) or _titled_options(structure, section)
        items = items if len(items) > 1 else []  # or one sub-heading per option
    if not items and label == "Rationale":  # a reason a paragraph ("Generating it from our own
        items = section_paragraphs(structure, own, _MAX_ITEMS)  # metadata keeps one source of truth.")
    if not items and label != "Gap":
        found = window_paragraph(clean_lines(own), structure.code_content)
        items = [found] if found else []
    # a question left in the section is the template's prompt to its author ("Why is this
    # design the best in the space of possible designs?"), not what the author answered
    return [_fact(label, item) for item in items if not item[0].rstrip().endswith("?")]


# A risk item's own labels ("- Risk: the feed floods the endpoint. Mitigation: accept at most ...").
_RISK_LABEL_RE = re.compile(r"^(?:\*\*|__)?risk(?:\*\*|__)?\s*:(?:\*\*|__)?\s*", re.I)
_MITIGATION_LABEL_RE = re.compile(r"\s(?:\*\*|__)?mitigations?(?:\*\*|__)?\s*:(?:\*\*|__)?\s*", re.I)
_MITIGATION_COLUMNS = frozenset({"mitigation", "mitigations", "countermeasure", "countermeasures",
                                 "measure", "measures", "response", "action"})


def risk_sections(structure: Structure) -> list[Section]:
    """The sections of risks: a template's ("Risks and Mitigations"), else any heading that
    names them, whatever it adds ("Open risks", "Known risks", "Q5. What are the risks?",
    "Risks / open questions"); not the title."""
    named = find_sections(structure, _RISK_SECTIONS)
    headed = structure.sections[1:]
    if headed and headed[0].level == 1:
        headed = headed[1:]  # the title ("# Risks of the move to Kafka" is the page's name)
    return named + [section for section in headed if section not in named
                    and _RISK_WORD_RE.search(section_key(structure.title(section)))]


# The word a heading of risks holds ("risk-free" and "risky" name none).
_RISK_WORD_RE = re.compile(r"(?<![\w-])risks?(?![\w-])")


def risk_items(structure: Structure) -> list[ObservationFact]:
    """Each risk of a risk section (the KEP template's "Risks and Mitigations", arc42's "Risks
    and Technical Debt", any heading that names risks), and what mitigates it where the item
    or the table says so."""
    for section in risk_sections(structure):
        own = structure.lines(section)
        facts: list[ObservationFact] = []
        for header, rows in markdown_tables(own)[:1]:
            column = _column([plain_text(cell).lower() for cell in header], _MITIGATION_COLUMNS)
            for number, cells in rows[:_MAX_ITEMS]:
                if risk := plain_text(cells[0]):
                    facts.append(_fact("Risk", (shorten(risk), number, number)))
                if column and column < len(cells) and (fix := plain_text(cells[column])):
                    facts.append(_fact("Mitigation", (shorten(fix), number, number)))
        if not facts:
            # a list of risks, else a paragraph each ("If the relay stops, ...", then "A barcode
            # correction made in the lab ... would still leave wrong lineage")
            items = list_items(own, limit=_MAX_ITEMS)
            told = items or section_paragraphs(structure, own, _MAX_ITEMS)
            answered = not items and "mitigat" in section_key(structure.title(section))
            for text, start, end in told:
                said, *mitigated = _MITIGATION_LABEL_RE.split(_RISK_LABEL_RE.sub("", text), maxsplit=1)
                facts.append(_fact("Risk", (said, start, end)))
                if mitigated and mitigated[0]:
                    facts.append(_fact("Mitigation", (mitigated[0], start, end)))
                elif answered and (reply := _risk_reply(own, start, end)) is not None:
                    facts.append(_fact("Mitigation", reply))
        if facts:
            return facts
    return []


def record_risks(structure: Structure, said: list[ObservationFact]) -> list[ObservationFact]:
    """A decision record's risks and their mitigations (its "Risks" section, a one-pager's "What
    are the risks?"), none of their lines read before."""
    if not any(_RISK_WORD_RE.search(section_key(structure.title(s))) for s in structure.sections[1:]):
        return []  # (a literal test of the headings before the sections are read)
    held = {n for fact in said for n in range(fact.line_start, fact.line_end + 1)}
    return [fact for fact in risk_items(structure)
            if not held & set(range(fact.line_start, fact.line_end + 1))]


# A sentence that goes on telling the risk rather than answering it ("... may cause the API server
# to degrade"): a mitigation is stated as done or to be done, not as a possibility.
_STILL_RISK_RE = re.compile(r"\b(?:could|may|might|would|risks?)\b", re.I)


def _risk_reply(own: list[tuple[int, str]], start: int, end: int) -> LineSpan | None:
    """What a paragraph of a "Risks and Mitigations" section (the KEP template's "What are the
    risks of this proposal, and how do we mitigate?") says is done about its risk: the sentences
    after the first, when they state a measure ("We cap the browser share at 60,000 seeds")."""
    lines = dict(clean_lines(own))
    told = sentences([(n, lines.get(n, "").strip()) for n in range(start, end + 1)])
    replies = [(text, first, last) for text, first, last in told[1:] if not _STILL_RISK_RE.search(text)]
    if not replies:
        return None
    return shorten(" ".join(text for text, _, _ in replies)), replies[0][1], replies[-1][2]


def section_paragraphs(structure: Structure, lines: list[tuple[int, str]], limit: int) -> list[LineSpan]:
    """The first `limit` paragraphs of `lines` (each with the list it introduces)."""
    found: list[LineSpan] = []
    rest = clean_lines(lines)
    while len(found) < limit and (span := window_paragraph(rest, structure.code_content)) is not None:
        found.append(span)
        rest = [(number, line) for number, line in rest if number > span[2]]
    return found


def items_apart(structure: Structure, spans: list[LineSpan], limit: int) -> list[LineSpan]:
    """`spans` with each that is a numbered or bulleted list (no paragraph leading in) given
    item by item ("1. PortGate writes each request to an outbox ... 5. OrderFlow no longer waits
    for NPX"): each item states a choice of its own, which one span cut short would lose."""
    found: list[LineSpan] = []
    for span in spans:
        if _ITEM_START_RE.match(structure.by_number.get(span[1], "")):
            items = list_items([(n, line) for n, line in structure.visible if span[1] <= n <= span[2]],
                               limit=limit)
            if len(items) > 1:
                found += items
                continue
        found.append(span)
    return found


_ITEM_START_RE = re.compile(r"^\s*(?:[-*+]|\d{1,3}[.)])\s")


def subsection_paragraphs(structure: Structure, section: Section, limit: int) -> list[LineSpan]:
    """The paragraphs of each direct sub-section, its first ones first (a Google design doc's
    "The actual design" told as "### Origin and CDN", "### Players", ..., each sub-section in a
    paragraph or more: "Origin shield: all playlist requests go through ..." after its opening
    rule, "The player's target latency is 6 seconds" after its list of players)."""
    sections = structure.sections
    told: list[list[LineSpan]] = []
    for sub in sections[sections.index(section) + 1:]:
        if sub.level <= section.level:
            break
        if sub.level == section.level + 1:
            told.append(section_paragraphs(structure, structure.lines(sub), _SUBSECTION_PARAGRAPHS))
    # each sub-section's opening paragraph before any second one, so a long design keeps them all
    ranked = sorted((index, order, span) for order, spans in enumerate(told)
                    for index, span in enumerate(spans))
    kept = {span[1] for _, _, span in ranked[:limit]}
    return [span for spans in told for span in spans if span[1] in kept]


_SUBSECTION_PARAGRAPHS = 3


def _titled_options(structure: Structure, section: Section) -> list[LineSpan]:
    """Each sub-section of an Alternatives section: its title (the option) and first paragraph."""
    sections = structure.sections
    options: list[LineSpan] = []
    for sub in sections[sections.index(section) + 1:]:
        if sub.level <= section.level or len(options) >= _MAX_ITEMS:
            break
        found = section_paragraph(structure, sub) if sub.level == section.level + 1 else None
        if found is not None:
            options.append((shorten(f"{structure.title(sub)}: {found[0]}"), structure.number(sub), found[2]))
    return options


def table_rows(lines: list[tuple[int, str]]) -> list[LineSpan]:
    """Each row of the first table in `lines` as its first two cells ("Weekly roster published
    by Friday 16:00: 100% of weeks")."""
    for _, rows in markdown_tables(lines)[:1]:
        return [(shorten(": ".join(text for cell in cells[:2] if (text := plain_text(cell)))), number, number)
                for number, cells in rows if plain_text(cells[0])]
    return []


# arc42's table of a whitebox's blocks (`| Name | Responsibility |`), under whatever heading
# ("Level 1: overview") the page gives it.
_RESPONSIBILITY_COLUMNS = frozenset({"responsibility", "responsibilities"})


def _responsibility_rows(structure: Structure) -> list[LineSpan]:
    """Each row of the first table with a Responsibility column: its block and what it does
    ("isobar-convert: Converts each model run from GRIB2 to Zarr")."""
    for section in structure.sections:
        for header, rows in markdown_tables(structure.lines(section)):
            column = _column([plain_text(cell).lower() for cell in header], _RESPONSIBILITY_COLUMNS)
            if column is None or column == 0:
                continue
            said = [(number, plain_text(cells[0]), plain_text(cells[column]))
                    for number, cells in rows[:_MAX_ITEMS] if column < len(cells)]
            return [(shorten(f"{name}: {duty}"), number, number)
                    for number, name, duty in said if name and duty]
    return []


# A section that names each of its blocks in a sub-section of its own ("## Building blocks" over
# "### PassPlanner", "## Components" over "### Ingest service"; arc42's Level 1 over its blackboxes).
_BLOCKS_SECTIONS = frozenset({"building blocks", "building block view", "components", "containers",
                              "system components", "main components", "key components", "services",
                              "level 1", "whitebox overall system", "modules"})


def _block_paragraphs(structure: Structure) -> list[LineSpan]:
    """Each block's first paragraph, when its sub-section opens with one: what the block does
    ("PassPlanner: Plans and books contacts between satellites and ground stations.")."""
    found: list[LineSpan] = []
    sections = structure.sections
    for section in find_sections(structure, _BLOCKS_SECTIONS):
        for block in sections[sections.index(section) + 1:]:
            if block.level <= section.level:
                break
            lines = clean_lines(structure.lines(block))
            opening = next((line.strip() for _, line in lines if line.strip()), "")
            # (a block's paragraph may open with its name in bold: "**Gustline** is the edge gateway")
            named = opening.lstrip("*_")[:1].isalpha()
            paragraph = window_paragraph(lines, structure.code_content) if named else None
            if block.level == section.level + 1 and paragraph is not None:
                name = structure.title(block)
                found.append((shorten(f"{name}: {paragraph[0]}"), paragraph[1], paragraph[2]))
        if found:
            return found[:_MAX_ITEMS]
    return []


_TARGET_COLUMNS = frozenset({"slo", "target", "objective", "slo target"})


def _slo_rows(lines: list[tuple[int, str]]) -> list[LineSpan]:
    """Each row of an SLO table with a target column (`| Category | SLI | SLO |`): its first
    two cells and its target ("Availability: share of requests ...: 99.9% over 28 days")."""
    for header, rows in markdown_tables(lines)[:1]:
        target = _column([plain_text(cell).lower() for cell in header], _TARGET_COLUMNS)
        if target is None or target < 2:
            return []
        said = [(number, [*cells[:2], cells[target]]) for number, cells in rows
                if plain_text(cells[0]) and target < len(cells)]
        return [(shorten(": ".join(text for cell in cells if (text := plain_text(cell)))), number, number)
                for number, cells in said]
    return []


# A header row that is a figure itself (PagerDuty's `| Time in SEV-1 | 0 mins |` over `|---|---|`).
_FIGURE_RE = re.compile(r"\d")
_MAX_FIGURES = 8


def figure_rows(lines: list[tuple[int, str]]) -> LineSpan | None:
    """The figures of a two-column table of measures with no header of column names (PagerDuty's
    Impact table: `| Time in SEV-2 | 40 mins |`, `| Support Requests Raised | 48 |`) as one
    statement; None when `lines` hold no such table (a `| Service | Effect |` table names what
    was affected, each row a thing of its own)."""
    for header, rows in markdown_tables(lines)[:1]:
        # a table with no header written with an empty one (`| | |`, markdown asks for one):
        # its rows are the measures, each kept (`| Customer-facing | Two deliveries slipped |`)
        blank = len(header) == 2 and not any(cell.strip() for cell in header)
        figured = header[1] if not blank else " ".join(cells[1] for _, cells in rows if len(cells) == 2)
        if len(header) != 2 or not _FIGURE_RE.search(figured) or any(len(cells) != 2 for _, cells in rows):
            return None
        first = rows[0][0] - 2 if rows else 0
        said = [*([] if blank else [(first, header)]),
                *((number, cells) for number, cells in rows if blank or _FIGURE_RE.search(cells[1]))]
        texts = [f"{plain_text(cells[0])}: {plain_text(cells[1])}" for _, cells in said[:_MAX_FIGURES]
                 if plain_text(cells[0])]
        if texts:
            return shorten("; ".join(texts)), said[0][0], said[min(len(said), _MAX_FIGURES) - 1][0]
    return None


def markdown_tables(lines: list[tuple[int, str]]) -> list[tuple[list[str], list[tuple[int, list[str]]]]]:
    """Each table of `lines`: its header cells and its rows' cells with their line numbers."""
    tables: list[tuple[list[str], list[tuple[int, list[str]]]]] = []
    run: list[tuple[int, str]] = []
    for number, line in [*clean_lines(lines), (-1, "")]:
        if line.lstrip().startswith("|"):
            run.append((number, line))
            continue
        if len(run) >= 3 and _SEPARATOR_RE.match(run[1][1]):
            tables.append((table_cells(run[0][1]), [(n, table_cells(row)) for n, row in run[2:]]))
        run = []
    return tables


def _column(columns: list[str], names: frozenset[str]) -> int | None:
    return next((index for index, name in enumerate(columns) if name in names), None)


def _sentences_like(structure: Structure, pattern: re.Pattern[str]) -> list[LineSpan]:
    """Each sentence of a paragraph (not a table's, not a heading) that `pattern` finds."""
    stems = _STEMS.get(pattern)
    page = structure.text.lower() if stems else ""
    if stems is not None and not any(stem in page for stem in stems):
        return []  # one substring test of the page, not a case-blind search of each line
    if not any(pattern.search(line) for _, line in structure.visible):
        return []  # most documents have none: the paragraphs need not be read
    lines = dict(clean_visible(structure))
    found: list[LineSpan] = []
    for start, end in structure.paragraphs:
        if end - start >= MAX_SPAN_LINES or start in structure.heading_lines:
            continue
        parts = [(n, lines.get(n, "").strip()) for n in range(start, end + 1)]
        if parts[0][1].startswith("|"):
            continue
        found += [(shorten(text), first, last) for text, first, last in sentences(parts)
                  if pattern.search(text) and len(text) >= 20]
    return found[:_MAX_ITEMS]


def _fact(label: str, span: LineSpan, kind: str = "detail") -> ObservationFact:
    """An observation of `label`; a "detail" by default: its lines are not key lines for the
    document's subjects (genre_subjects._key_lines), so that these parts add what a reader
    keeps without making every name in a goal or a drawback a subject."""
    text, start, end = span
    return ObservationFact(f"{label}: {text}", start, min(end, start + MAX_SPAN_LINES - 1), kind)


# The Well-Architected pillars an Azure or AWS reference architecture's "Considerations" are
# written under: what each says the system keeps to (its items, its "should" sentences).
_PILLAR_SECTIONS = frozenset({"reliability", "security", "cost optimization", "cost optimisation",
                              "operational excellence", "performance efficiency", "sustainability"})
_SHOULD_RE = re.compile(r"\b(?:should|must|never|always)\b")


def pillar_rules(structure: Structure) -> list[LineSpan]:
    """Each item of a Well-Architected pillar's section, and each of its prose sentences that
    says what should or must be done (a statement of what is, "Slotwise is licensed per
    student", is no rule)."""
    found: list[LineSpan] = []
    for section in find_sections(structure, _PILLAR_SECTIONS):
        own = clean_lines(structure.lines(section))
        items = list_items(own, limit=_MAX_ITEMS)
        listed = {n for _, start, end in items for n in range(start, end + 1)}
        prose = [(n, line.strip()) for n, line in own if n not in listed and line.strip()]
        found += items + [(shorten(sentence), first, last) for sentence, first, last in sentences(prose)
                          if _SHOULD_RE.search(sentence)]
    return found[: 2 * _MAX_ITEMS]
