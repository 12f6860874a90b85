"""The parts of a decision record a reader keeps beside its decision (issue 23 item 3), each an
observation with its lines, capped per kind:

- each further choice the Decision section states (one paragraph each, not one blob);
- the consequences (Nygard "Consequences", MADR "Positive/Negative Consequences", "Good, because"
  items, Tyree "Implications");
- the forces and decision drivers: those stated as rules (must / must not / at least) are
  constraints, the others the decision's rationale; a "Constraints" section's items are rules;
- the rationale ("Chosen option: X, because Y", a "Rationale" or "Argument" section, a
  Y-statement's "to achieve ...");
- the options rejected and why: the "Bad, because" items of each option MADR's "Pros and Cons of
  the Options" weighs that was not chosen (else the considered options not chosen), the items
  of an "Alternatives considered" section, sentences that say an option was rejected, a
  Y-statement's "neglected ...".

Template text is never read: HTML comments and instructions (tasks/extract/genre_text.py) and
MADR's placeholders ("[option 1]", "{title of option 1}").
"""

from __future__ import annotations

import re

from tasks.extract.decision_choice import CHOICE_RE, PREAMBLE_RE
from tasks.extract.genre_parts import (
    REJECTED_SECTIONS,
    items_apart,
    rejected_sentences,
    section_items,
    section_paragraphs,
    table_rows,
)
from tasks.extract.genre_prose import sentences
from tasks.extract.genre_text import (
    MAX_SPAN_LINES,
    clean_lines,
    clean_visible,
    find_sections,
    list_items,
    part_fact,
    section_paragraph,
)
from tasks.extract.model import LineSpan, ObservationFact
from tasks.extract.structure import Structure, find_section, section_key
from tasks.extract.text import joined_lines, plain_text, shorten
from tasks.markdown.blocks import Section

MAX_PER_KIND = 12
_MAX_CHOICES = 8  # further paragraphs of a Decision section
_CONSEQUENCE_SECTIONS = frozenset({"consequences", "positive consequences", "negative consequences",
                                   "neutral consequences", "implications", "consequences of the decision",
                                   "decision consequences", "resulting context"})
_DRIVER_SECTIONS = frozenset({"decision drivers", "drivers", "forces", "decision criteria", "criteria"})
_CONTEXT_SECTIONS = frozenset({"context", "context and problem statement", "problem statement", "background"})
# a rule in the words that bind ("cannot" and "has to" tell what is hard there, not a rule)
_STRONG_RULE_RE = re.compile(r"\b(?:must|shall|never|at\s+most|no\s+more\s+than|may\s+only)\b", re.I)
_RULE_SECTIONS = frozenset({"constraints", "requirements", "technical constraints", "business constraints"})
_RATIONALE_SECTIONS = frozenset({"rationale", "argument", "arguments", "justification", "reasoning",
                                 "decision rationale", "why",
                                 # a DACI page's evidence for its outcome
                                 "relevant data", "supporting data", "evidence"})
# A heading that asks why (a Jira decision's "*Why not real time*", "Why this option", "Why we
# chose Kafka"): the reasons for the decision.
_WHY_HEADING_RE = re.compile(r"^why\s+(?:not\b|this\b|we\b|choose\b|chose\b)")
_OPTION_LISTS = frozenset({"considered options", "options considered", "considered alternatives",
                           "options"})
_OPTION_SECTIONS = _OPTION_LISTS | {"pros and cons of the options", "pros and cons"}
# A lead-in line that introduces the forces as a list inside another section ("Forces:").
_DRIVER_LEAD_RE = re.compile(r"^(?:the\s+)?(?:forces|decision\s+drivers|drivers|constraints|requirements)"
                             r"(?:\s+(?:at\s+play|are|were|include))?\s*:$", re.I)
# A sentence that leads in to what the solution must do ("We need one service that:", "The new
# store must:"): each item of its list is a requirement, whatever its verb.
_NEED_LEAD_RE = re.compile(r"^(?:we|the\s+\w+(?:\s+\w+)?|it|any\s+\w+)\s+(?:needs?|must|has\s+to|have\s+to)\b"
                           r"[^.:]{0,80}:$", re.I)
# A rule: what must, must not or at least / at most hold.
_RULE_RE = re.compile(r"\b(?:must|shall|never|at\s+least|at\s+most|no\s+more\s+than|(?:is|are)\s+required"
                      # one that alone may ("The connector is the only component that calls NPX")
                      r"|(?:is|are)\s+the\s+only"
                      r"|ha(?:s|ve)\s+to|cannot|can(?:'|’)t)\b"
                      # a driver that forbids a kind of thing ("no single machine whose failure ...")
                      r"|^no\s", re.I)
# A template's placeholder left in: "[option 1]", "[e.g., ...]", "{title of option 1}".
_PLACEHOLDER_RE = re.compile(r"\{[^{}]{1,80}\}|\[(?:option|justification|e\.\s?g\.|short\s+title|describe"
                             r"|driver|consequence|title|problem|context|argument)\b[^\]]{0,80}\](?!\()",
                             re.I)
PLACEHOLDER_RE = _PLACEHOLDER_RE  # (a record's every statement: record_statements)
_CHOSEN_RE = re.compile(r"\bchosen\s+(?:option|alternative)\s*:\s*(?:[\"“](?P<quoted>[^\"”]{3,200})[\"”]"
                        r"|(?P<option>[^,]{3,200}?)\s*(?:,|$))", re.I)
# A paragraph that shows or explains rather than decides ("e.g. ...", "Here is an example:", "Where: ...").
_EXAMPLE_RE = re.compile(r"^(?:e\.?\s?g\.?[\s,]|for\s+(?:example|instance)\b|here\s+is\b|here's\b"
                         r"|this\s+is\s+an?\s+example"
                         r"|an?\s+example\b|example\s*:|where\s*:|that\s+is\s*[:,]|i\.e\.)", re.I)
_BECAUSE_RE = re.compile(r"\bbecause\b", re.I)
_BAD_RE = re.compile(r"^bad\s*,\s*because\s+", re.I)
# A Y-statement's parts: "... and neglected Y, to achieve Z, accepting that W".
# (the options neglected run to the goal's clause: "neglected X, and Y, to achieve Z")
_NEGLECTED_RE = re.compile(r"\b(?:and\s+)?neglected\s+(?P<part>[^;]{3,400}?)"
                           r"(?:,\s*(?:(?:in\s+order\s+)?to\s+achieve|accepting)\b|,?$)", re.I)
_OPTIONS_SPLIT_RE = re.compile(r",\s*(?:and|or)\s+")
_ACHIEVE_RE = re.compile(r"\b(?:in\s+order\s+)?to\s+achieve\s+(?P<part>[^;]{3,300}?)(?:,\s*accepting\b|$)",
                         re.I)
_ACCEPTING_RE = re.compile(r"\baccepting\s+(?:that\s+)?(?P<part>[^;]{3,300})", re.I)
_WORD_RE = re.compile(r"[a-z0-9][a-z0-9.+#-]*")
_SMALL_WORDS = frozenset({"a", "an", "the", "and", "or", "of", "on", "in", "with", "for", "to", "by",
                          "use", "using", "option", "via", "as", "per", "our", "we", "it", "its"})


def decision_parts(structure: Structure, decision: Section | None, chosen: LineSpan | None,
                   y_statement: LineSpan | None) -> list[ObservationFact]:
    """The record's further choices, consequences, constraints, rationale and rejected options
    (`decision`: its Decision section; `chosen`: the paragraph already kept as its decision)."""
    facts = [
        *_summary(structure, decision, chosen),
        *_further_choices(structure, decision, chosen),
        *_labelled_decisions(structure, decision, chosen),
        *_capped("Consequence", _consequences(structure)),
        *_capped("Constraint", _rules(structure, decision)),
        *_capped("Rationale", _rationale(structure, decision)),
        *_capped("Rejected", _rejected(structure, decision)),
    ]
    if y_statement is not None:
        facts += _y_statement_parts(y_statement)
    # a "because" paragraph of the Decision section kept whole as a choice (or a rejection) is
    # not kept again as the rationale
    said = {(fact.line_start, fact.text.split(": ", 1)[1]) for fact in facts
            if not fact.text.startswith("Rationale: ")}
    kept = {(fact.text, fact.line_start): fact for fact in facts  # (a rule of a further choice is told once)
            if not _PLACEHOLDER_RE.search(fact.text) and _is_statement(fact)
            and not (fact.text.startswith("Rationale: ") and (fact.line_start, fact.text[11:]) in said)}
    return list(kept.values())


_SUMMARY_HEADINGS = ("summary", "tl;dr", "abstract")


def _summary(structure: Structure, decision: Section | None,
             chosen: LineSpan | None) -> list[ObservationFact]:
    """The record's own summary: the first paragraph of its Summary section (the Alexandrian
    pattern's "Prologue (Summary)"), unless it is the section the decision was read from."""
    section = find_section(structure, *_SUMMARY_HEADINGS)
    if section is None or section is decision:
        return []
    found = section_paragraph(structure, section)
    if found is None or (chosen is not None and chosen[1] == found[1]):
        return []
    return [part_fact("Summary", found, "conclusion")]


# A paragraph that opens with the label of what was decided (`Decision: we go with ...`,
# `**Decision:** ...`), as the reply a GitHub Discussion marks as its answer writes it.
_DECISION_LABEL_RE = re.compile(r"^\s*(?:\*\*|__)?decision(?:\*\*|__)?\s*:(?:\*\*|__)?\s*(?P<text>\S.*)$",
                                re.I)


def _labelled_decisions(structure: Structure, decision: Section | None,
                        chosen: LineSpan | None) -> list[ObservationFact]:
    """Each paragraph outside the Decision section led by a "Decision:" label: a decision the
    thread or record states where its template has no section for it."""
    own = {n for n, _ in structure.lines(decision)} if decision is not None else set()
    lines = structure.by_number
    found: list[ObservationFact] = []
    for start, end in structure.paragraphs:
        first = lines.get(start, "")
        if "ecision" not in first or start in own or (chosen is not None and chosen[1] == start):
            continue  # a literal test first: most paragraphs have no label
        match = _DECISION_LABEL_RE.match(first)
        if match is None:
            continue
        last = min(end, start + MAX_SPAN_LINES - 1)
        rest = (lines.get(n, "").strip() for n in range(start + 1, last + 1))
        text = plain_text(joined_lines([match["text"], *rest]))
        if len(text.split()) > 2:
            found.append(part_fact("Decision", (shorten(text), start, last), "decision"))
    return found[:MAX_PER_KIND]


def _is_statement(fact: ObservationFact) -> bool:
    """Not a bare address, nor a choice or consequence of a word or two (an option's name,
    "Monolith", and a goal, "exactly-once charges", are)."""
    label, text = fact.text.split(": ", 1)
    if label in {"Rejected", "Rationale"}:
        return not _is_address(text)
    return not (_is_address(text) or len(text.split()) <= 2 or _CONTINUATION_RE.match(text)
                or not any(ch.isalnum() for ch in text))  # a section break's ornament ("❖ ❖ ❖", "* * *")


def _is_address(text: str) -> bool:
    """A bare web address (no regex: its parts would overlap on hostile punctuation)."""
    bare = text.strip(" <>()[].,;:!?*_`")
    return bare.startswith(("http://", "https://")) and len(bare.split()) == 1


def _capped(label: str, spans: list[LineSpan]) -> list[ObservationFact]:
    kept: list[ObservationFact] = []
    seen: set[int] = set()
    for span in spans:
        if span[1] not in seen and len(kept) < MAX_PER_KIND:
            seen.add(span[1])
            kept.append(part_fact(label, span, "detail"))
    return kept


def _paragraphs(structure: Structure, lines: list[tuple[int, str]],
                limit: int = MAX_PER_KIND) -> list[LineSpan]:
    """The list items of `lines`, else their paragraphs."""
    return list_items(lines, limit=limit) or section_paragraphs(structure, lines, limit)


def _further_choices(structure: Structure, decision: Section | None, chosen: LineSpan | None
                     ) -> list[ObservationFact]:
    """Each paragraph of the Decision section (its own lines, not its Consequences subsection)
    after the one kept as the decision: each choice it states, on its own lines."""
    if decision is None or chosen is None:
        return []
    spans = section_paragraphs(structure, structure.lines(decision), _MAX_CHOICES + 1)
    spans = items_apart(structure, spans, _MAX_CHOICES + 1)  # a numbered list of choices: each its own
    further = [span for span in spans if span[1] != chosen[1] and _states_choice(span[0])][:_MAX_CHOICES]
    return [part_fact(_choice_label(span[0]), span, "detail") for span in further] + _choice_rules(
        structure, further)


def _choice_rules(structure: Structure, further: list[LineSpan]) -> list[ObservationFact]:
    """Each sentence of the further choices that states a rule the decision keeps ("Tokens live
    at most 30 minutes", "the service must fail closed"): a Constraint too, on its own lines."""
    rules: list[ObservationFact] = []
    for text, start, end in further:
        if not _RULE_RE.search(text):  # a literal test of the paragraph before it is split
            continue
        lines = [(n, line) for n, line in structure.visible if start <= n <= end]
        told = _sentences(structure, lines)
        if not told:  # an item of a list of choices (no paragraph of its own): its sentences
            told = [(sentence, start, end) for sentence, _, _ in sentences([(start, text)])]
        rules += [part_fact("Constraint", span, "detail") for span in told
                  if _RULE_RE.search(span[0]) and len(span[0].split()) >= 5]
    return rules[:MAX_PER_KIND]


def _states_choice(text: str) -> bool:
    """Not a lead-in to code or an example ("Here is an example:"), a pointer ("See below for
    details"), a fragment ("and in a more real life scenario ...") or how the search went ("We
    discussed three options: ...")."""
    return not (text.rstrip().endswith(":") or _EXAMPLE_RE.match(text) or _POINTER_RE.search(text)
                or (PREAMBLE_RE.search(text) and not CHOICE_RE.search(text)))


def _choice_label(text: str) -> str:
    """A Decision paragraph's part: why an option lost, the reasons, or a choice."""
    if _AGAINST_RE.search(text):
        return "Rejected"
    return "Rationale" if _BENEFITS_RE.search(text) else "Decision"


# A sentence that points elsewhere rather than states ("See below", "... can be found in the docs").
_POINTER_RE = re.compile(r"^(?:see\b|for\s+(?:more|further)\s+(?:details|information)\b)"
                         r"|\bcan\s+be\s+found\s+(?:in|at|here|on)\b", re.I)
# "This gives us the following advantages: ...": the decision's reasons.
_BENEFITS_RE = re.compile(r"\b(?:following|these|the)\s+(?:advantages|benefits)\b", re.I)
# A paragraph that continues the one before it ("and ...", "But ..."): no statement of its own.
_CONTINUATION_RE = re.compile(r"^(?:and|or|but|so|also)\b", re.I)


# A paragraph of the Decision section that tells why an option lost ("we decided against this
# due to cost", "Option 2 was discounted as ...").
_AGAINST_RE = re.compile(r"\b(?:decided\s+against|(?:was|were)\s+(?:discounted|rejected|ruled\s+out))\b",
                         re.I)


def _consequences(structure: Structure) -> list[LineSpan]:
    spans: list[LineSpan] = []
    for section in find_sections(structure, _CONSEQUENCE_SECTIONS):
        lines = structure.lines(section)
        # a table of consequences states one a row ("| Validation | The nightly replay becomes
        # part of the validated system | CSV team |"), beside the section's prose
        spans += sorted([*table_rows(lines), *_paragraphs(structure, lines)], key=lambda span: span[1])
    starts = {span[1] for span in spans}
    return spans + [span for span in _labelled_consequences(structure) if span[1] not in starts]


# A paragraph that names itself a consequence, outside a Consequences section ("Accepted
# consequence: central branches stay busy, ...", "Trade-off: ...").
_CONSEQUENCE_LABEL_RE = re.compile(
    r"^(?:(?:accepted|known|main|key|expected)\s+)?(?:consequences?|trade-?offs?)\s*:\s*\S", re.I)


def _labelled_consequences(structure: Structure) -> list[LineSpan]:
    lines = dict(clean_lines(structure.visible))
    spans: list[LineSpan] = []
    for start, end in structure.paragraphs:
        first = plain_text(lines.get(start, ""))
        if start in structure.heading_lines or end - start >= 12 or not _CONSEQUENCE_LABEL_RE.match(first):
            continue
        text = plain_text(" ".join(lines.get(n, "").strip() for n in range(start, end + 1)))
        spans.append((shorten(text), start, end))
    return spans


def _rules(structure: Structure, decision: Section | None) -> list[LineSpan]:
    """A Constraints section's items, and the forces and drivers stated as rules."""
    spans = [span for section in find_sections(structure, _RULE_SECTIONS)
             for span in _paragraphs(structure, structure.lines(section))]
    return (spans + [span for span in _drivers(structure) if _RULE_RE.search(span[0])] + _needs(structure)
            + _told_rules(structure, decision))


def _told_rules(structure: Structure, decision: Section | None) -> list[LineSpan]:
    """Each sentence of the Context, the Decision or the Consequences that states a rule in the
    strong words ("Operators must complete a port-in within one working day", "Biostatistics
    must sign an extension list before the old one runs out", "Nothing may write to the ledger
    but the billing service"): the forces, and what the decision binds (a rule stated inside the
    decision's own paragraph as well as after it)."""
    spans: list[LineSpan] = []
    sections = find_sections(structure, _CONTEXT_SECTIONS | _CONSEQUENCE_SECTIONS)
    for section in sections + ([decision] if decision is not None and decision not in sections else []):
        lines = structure.lines(section)
        if any(_STRONG_RULE_RE.search(line) for _, line in lines):  # (a literal gate before the split)
            # (the sentence that states the choice is the decision: "we decided for X, to achieve
            # Y, accepting that Z must ..." is no rule of it)
            spans += [span for span in _sentences(structure, lines)
                      if _STRONG_RULE_RE.search(span[0]) and len(span[0].split()) >= 5
                      and not (section is decision and CHOICE_RE.search(span[0]))]
    return spans


def _needs(structure: Structure) -> list[LineSpan]:
    """The items of each list a need leads in to ("We need one service that:")."""
    lines = clean_visible(structure)
    spans: list[LineSpan] = []
    for index, (_, line) in enumerate(lines):
        if line.rstrip().endswith(":") and _NEED_LEAD_RE.match(plain_text(line.strip())):
            spans += list_items(_list_after(lines[index + 1:]), limit=MAX_PER_KIND)
    return spans


def _drivers(structure: Structure) -> list[LineSpan]:
    """The items of a Decision Drivers (Forces) section, and of a list a "Forces:" line leads."""
    spans = [span for section in find_sections(structure, _DRIVER_SECTIONS)
             for span in list_items(structure.lines(section), limit=MAX_PER_KIND)]
    if not any(":" in line and _DRIVER_LEAD_RE.match(plain_text(line.strip()))
               for _, line in structure.visible):
        return spans
    lines = clean_visible(structure)
    for index, (_, line) in enumerate(lines):
        if line.rstrip().endswith(":") and _DRIVER_LEAD_RE.match(plain_text(line.strip())):
            spans += list_items(_list_after(lines[index + 1:]), limit=MAX_PER_KIND)
    return spans


def _list_after(lines: list[tuple[int, str]]) -> list[tuple[int, str]]:
    """The lines of the list that starts after a lead-in (up to the first paragraph after it)."""
    kept: list[tuple[int, str]] = []
    for number, line in lines:
        stripped = line.strip()
        item = stripped[:1] in "-*+" or stripped[:1].isdigit()
        if kept and stripped and not line.startswith((" ", "\t")) and not item and not kept[-1][1].strip():
            break
        kept.append((number, line))
    return kept


def _rationale(structure: Structure, decision: Section | None) -> list[LineSpan]:
    """The sentences of the Decision section that give its reason ("Chosen option: X, because
    Y"), a Rationale section, and the forces that are not rules."""
    spans: list[LineSpan] = []
    if decision is not None:
        spans += _because(structure, structure.lines(decision))
    asked = [section for section in structure.sections[1:]
             if section.level > 1 and _WHY_HEADING_RE.match(section_key(structure.title(section)))]
    for section in dict.fromkeys([*find_sections(structure, _RATIONALE_SECTIONS), *asked]):
        spans += _paragraphs(structure, structure.lines(section))
    return spans + [span for span in _drivers(structure)
                    if not _RULE_RE.search(span[0]) and len(span[0].split()) >= 5] + _forces(structure)


def _forces(structure: Structure) -> list[LineSpan]:
    """The first paragraphs of the Context (the problem the decision answers, as a proposal's
    Motivation states it): why the decision was needed."""
    return [span for section in find_sections(structure, _CONTEXT_SECTIONS)[:1]
            for span in section_paragraphs(structure, structure.lines(section), _CONTEXT_PARAGRAPHS)
            # (a line that leads in to a list, "The options we looked at:", is no reason, nor its list)
            if len(span[0].split()) >= 5 and not structure.by_number.get(span[1], "").rstrip().endswith(":")]


_CONTEXT_PARAGRAPHS = 3


def _because(structure: Structure, lines: list[tuple[int, str]]) -> list[LineSpan]:
    """The sentences of `lines` that say why ("..., because it is the only option ..."); the
    whole paragraph (with its list) when one leads in to the reasons ("was decided because:")."""
    found: list[LineSpan] = []
    said = [span for span in _sentences(structure, lines) if _BECAUSE_RE.search(span[0])]
    for paragraph in section_paragraphs(structure, lines, MAX_PER_KIND) if said else []:
        inside = [span for span in said if paragraph[1] <= span[1] <= paragraph[2]]
        if any(_LEADS_IN_RE.search(span[0]) for span in inside):
            found.append(paragraph)
        else:
            found += inside
    return found


_LEADS_IN_RE = re.compile(r"(?:\bbecause|:)\W*$", re.I)


def _sentences(structure: Structure, lines: list[tuple[int, str]]) -> list[LineSpan]:
    own = dict(clean_lines(lines))
    found: list[LineSpan] = []
    for start, end in structure.paragraphs:
        if start in own and start not in structure.heading_lines:
            parts = [(n, own.get(n, "").strip()) for n in range(start, end + 1)]
            found += [(shorten(plain_text(text)), first, last) for text, first, last in sentences(parts)]
    return found


def _rejected(structure: Structure, decision: Section | None) -> list[LineSpan]:
    """The options weighed and not chosen, with why; an Alternatives section's items; a
    sentence that says an option was rejected."""
    chosen = _chosen_option(structure, decision)
    spans = _options_not_chosen(structure, chosen) if chosen else []
    # (options a record lists with its chosen one, as MADR 1's "Considered Alternatives" did, are
    # read above, by what was chosen)
    alternatives = [(fact.text.split(": ", 1)[1], fact.line_start, fact.line_end)
                    for fact in section_items(structure, "Rejected", REJECTED_SECTIONS - _OPTION_LISTS)]
    spans += [span for span in alternatives if not (chosen and _same_option(span[0], chosen))]
    return spans + [(fact.text.split(": ", 1)[1], fact.line_start, fact.line_end)
                    for fact in rejected_sentences(structure)]


def _chosen_option(structure: Structure, decision: Section | None) -> str | None:
    """The option the Decision section says was chosen ("Chosen option: "X", because ...")."""
    if decision is None:
        return None
    for _, line in clean_lines(structure.lines(decision)):
        if "chosen" in line.lower() and (match := _CHOSEN_RE.search(plain_text(line))):
            return (match["quoted"] or match["option"]).strip("\"'“”*_ ")
    return None


def _options_not_chosen(structure: Structure, chosen: str) -> list[LineSpan]:
    """Each option of "Pros and Cons of the Options" (a sub-heading each) that is not the chosen
    one: its "Bad, because" items (why it lost), else its first paragraph, led by its name; with
    no such section, the Considered Options items that are not the chosen one."""
    spans: list[LineSpan] = []
    sections = structure.sections
    for parent in find_sections(structure, _OPTION_SECTIONS):
        for sub in sections[sections.index(parent) + 1:]:
            if sub.level <= parent.level:
                break
            option = structure.title(sub)
            if sub.level != parent.level + 1 or _same_option(option, chosen):
                continue
            items = list_items(structure.lines(sub), limit=MAX_PER_KIND)
            bad = [(f"{option}, {_BAD_RE.sub('because ', text)}", start, end)
                   for text, start, end in items if _BAD_RE.match(text)]
            first = section_paragraph(structure, sub) if not bad and not items else None
            named = [(shorten(f"{option}: {first[0]}"), structure.number(sub), first[2])] if first else []
            spans += bad or named
        if spans:
            return spans
    for parent in find_sections(structure, _OPTION_SECTIONS):
        spans += [span for span in list_items(structure.lines(parent), limit=MAX_PER_KIND)
                  if not _same_option(span[0], chosen)]
    return spans


def _same_option(option: str, chosen: str) -> bool:
    """Whether an option's name is the chosen one's: most of its words are the chosen one's
    ("Apache Kafka on Strimzi with Apicurio Registry" for "Apache Kafka on OpenShift with the
    Strimzi operator, Avro schemas in Apicurio Registry")."""
    ordered = [word for word in _WORD_RE.findall(re.sub(r"^option\s+\d+\s*:\s*", "", option.lower()))
               if word not in _SMALL_WORDS]
    words = set(ordered)
    chosen_words = set(_WORD_RE.findall(chosen.lower()))
    named = chosen_words - _SMALL_WORDS  # the chosen one's words all in it ("ADR number (ie. ...)")
    # the option's first word names it ("SHA-512 with rolling audits" is not "SHA-256 ..., with
    # rolling sampled audits", though two of its three words are the chosen one's)
    alike = len(words & chosen_words) * 3 >= len(words) * 2 and bool(ordered) and ordered[0] in chosen_words
    return bool(words) and (alike or bool(named) and named <= words)


def _y_statement_parts(y_statement: LineSpan) -> list[ObservationFact]:
    """A Y-statement's option neglected, its goal and the consequence it accepts."""
    text, start, end = y_statement
    facts: list[ObservationFact] = []
    for label, pattern in (("Rejected", _NEGLECTED_RE), ("Rationale", _ACHIEVE_RE),
                           ("Consequence", _ACCEPTING_RE)):
        if (match := pattern.search(text)) is not None:
            # each option neglected is a rejection of its own ("X, and Y")
            parts = _OPTIONS_SPLIT_RE.split(match["part"]) if label == "Rejected" else [match["part"]]
            facts += [part_fact(label, (shorten(part.strip(" ,.")), start, end), "detail") for part in parts]
    return facts
