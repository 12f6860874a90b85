"""Every statement of a form's answers and a page's named fields, each kept with its own lines (pure).

Many teams write what they concluded into fields, not into sections a genre reader knows by name:
a form's questions, each over its answer ("**8. What was the root cause?**" then the answer's
paragraph or list; an e-mailed form's plain "What was the impact?" line), a lead-in that names
its field on its own line ("Root cause:" over a paragraph), a bold run-in label that opens a
paragraph or a list item ("**Outcome:** ...", "**Nature of the processing.** ...", "- **Treatment:**
..."), a field table's rows ("| Root cause | The token expired ... |") or a column of one
("| Risk | Measure | ..." whose Measure cells are the mitigations), and, on a page of no genre, a
section whose heading names the field ("## Hypothesis", "## Decision criteria").

Each statement of a field's value (statement_text.is_statement: a sentence or a list item, with
its own first and last line) that no observation holds yet becomes an observation, labelled by
what the field's words name in the readers' vocabulary (FIELD_PARTS: "When was it discovered,
and by whom?" -> Detection, "Follow-up actions (with owner)" -> Action item) or, for a field
that names a part of no kind (a summary, a story, a design) or none, by what the statement's own
words say (a rejection, a risk, a reason, a rule; an incident's cause or detection), else not
kept. Never kept: the question itself, a field of the document's metadata (status, dates,
owners: read by the metadata readers), a placeholder ("TBD", "N/A") and a guidance line in
italics ("*If your decision departs from ..., explain why*").
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache

from tasks.extract.decision_parts import PLACEHOLDER_RE
from tasks.extract.genre_text import clean_visible, part_fact
from tasks.extract.genres import is_field_line
from tasks.extract.model import LineSpan, ObservationFact
from tasks.extract.part_statements import statements, topic_label, unkept
from tasks.extract.plain_conclusions import READ_BY_HEADING, heading_role
from tasks.extract.plain_headings import over_list, plain_heading
from tasks.extract.review_statements import incident_part
from tasks.extract.statement_labels import marked_label
from tasks.extract.statement_text import is_statement
from tasks.extract.structure import Structure, section_key
from tasks.extract.text import plain_text
from tasks.markdown.tables import table_cells

MAX_FIELD_STATEMENTS = 25  # a document's statements kept here, in document order
MAX_PER_FIELD = 8  # a field's statements kept: a long one is a page to link to
MAX_ANSWER_LINES = 40  # an answer runs to the next field or heading, at most this far

# What a field's words name, the more telling first: each label is one the genre readers write.
FIELD_PARTS: tuple[tuple[str, re.Pattern[str]], ...] = (
    # the reasons for a decision are its rationale, not the decision ("Reasons for the decision")
    ("Rationale", re.compile(r"^(?:the\s+)?(?:reasons?|rationale|justification)\s+(?:for|behind)\b")),
    ("Non-goal", re.compile(r"\bnon-?goals?\b|\bout\s+of\s+scope\b")),
    ("Resolution", re.compile(
        r"\bimmediate\s+(?:actions?|steps|response)\b|\b(?:actions?|steps)\s+(?:were\s+|was\s+)?taken\b"
        r"|\bwhat\s+(?:was|were)\s+done\b|\bresolution\b|\bremediation\b|\brecovery\b"
        r"|\bhow\s+(?:was|were|did)\b.{0,30}\b(?:resolved?|fixed|fix|restored?|recover(?:ed)?)\b"
        r"|\bclos(?:ure|ing)\s+notes?\b|^fix(?:es)?$")),  # a change's closure notes, a thread's "Fix:"
    ("Action item", re.compile(
        r"\bfollow[- ]?ups?\b|\baction\s+items?\b|\bcorrective\b|\bprevent(?:ive|ative|ion)\b"
        r"|\bnext\s+steps\b|\bto-?dos?\b|\bactions?\s+(?:required|planned|to\s+take)\b"
        r"|\bcountermeasures?\b|^actions?$")),  # an A3 report's; a plain "Actions" over its list
    ("Detection", re.compile(r"\b(?:discovered|detected|detection|noticed|spotted|found\s+out)\b")),
    ("Cause", re.compile(r"\b(?:root\s+causes?|causes?|caused|contributing|triggers?|triggered)\b"
                         # a CAST analysis's controllers, each with the unsafe control action it took
                         r"|\bunsafe\s+control\s+actions?\b|\banalysis\s+of\s+(?:each\s+)?controllers?\b"
                         r"|\bwhy\s+did\b.{0,30}\b(?:happen|fail|occur)")),
    ("Impact", re.compile(r"\b(?:impacts?|affected|how\s+many|damage|losses|blast\s+radius)\b"
                          # a CAST analysis's loss event, an A3 report's current condition
                          r"|\bloss\s+events?\b|\bcurrent\s+condition\b")),
    ("Lesson", re.compile(r"\blessons?\b|\blearn(?:ed|t|ings)\b")),
    ("Rejected", re.compile(r"\balternatives?\b|\boptions?\s+considered\b|\brejected\b"
                            r"|\bnot\s+(?:chosen|taken|selected|pursued)\b")),
    ("Decision", re.compile(r"\bdecisions?\b|\bdecided\b|\bagreed\b|\bresolutions?\b|\bverdict\b"
                            r"|\brecommendations?\b|\bapprovals?\b")),
    # a briefing note's request to its reader ("Ask: The Board is asked to endorse ...")
    ("Ask", re.compile(r"^(?:the\s+)?asks?$")),
    ("Outcome", re.compile(r"\boutcomes?\b|\bresults?\b|\bfindings?\b|\bconclusions?\b|\breadout\b")),
    ("Risk", re.compile(r"\brisks?\b|\bconcerns?\b|\bthreats?\b|\bhazards?\b")),
    ("Mitigation", re.compile(r"\bmitigations?\b|\bmeasures?\b|\bworkarounds?\b|\bsafeguards?\b"
                              r"|\bback-?out\b|\broll-?back\s+plan\b"  # a change request's fallback
                              r"|\bcontainment\b")),  # an 8D report's containment actions
    ("Rationale", re.compile(r"\brationale\b|\breasons?\b|\bjustification\b|\bwhy\b")),
    ("Consequence", re.compile(r"\bconsequences?\b|\btrade-?offs?\b|\bwhat\s+changes\b")),
    ("Goal", re.compile(r"\bgoals?\b|\bobjectives?\b|\bpurposes?\b|\baims?\b|\bhypothes[ie]s\b"
                        r"|\bsuccess\s+criteria\b")),
    ("Constraint", re.compile(r"\bconstraints?\b|\bconditions?\b|\brequirements?\b|\brules?\b|\bpolicy\b"
                              r"|\bguardrails?\b|\bretention\b|\blimits?\b")),
    ("Escalation", re.compile(r"\bescalat\w*|\bwho\s+to\s+(?:call|contact|page)\b")),
    # when a runbook or a card is for ("When to use this card", "Symptoms"), then how to check
    ("Alert", re.compile(r"\bwhen\s+to\s+use\b|\buse\s+(?:this\s+\w+\s+)?when\b|\bsymptoms?\b")),
    ("Diagnosis", re.compile(r"\bdiagnos\w*|\btroubleshoot\w*|\bchecks\b")),
    ("Responsibility", re.compile(r"\bresponsib\w*")),
    ("Summary", re.compile(r"\bsummary\b|\bbluf\b|\bbottom\s+line\b"  # a briefing note's BLUF
                           r"|\bwhat\s+happened\b|\bdescri(?:be|ption)\b|\boverview\b"
                           r"|\babstract\b|\bbackground\b|\bcontext\b|\bproblem\b")),
    ("Design", re.compile(r"\bdesign\b|\bapproach\b|\bsolution\b|\btreatment\b|\bhow\s+it\s+works\b"
                          r"|\bproposal\b|\bproposed\b|\bmethod\b|\bplan\b|\bscope\b|\bnature\b")),
)
# The parts a field names that say no kind of statement: a statement's own words say better.
_OPEN_PARTS = frozenset({"Summary", "Design", "Outcome"})
# What a statement's own words tell over any field's part: an option turned down, a worry.
_TOLD_OVER_FIELD = frozenset({"Rejected", "Risk"})
_CHOSEN_OPTION_RE = re.compile(r"\((?:recommended|preferred|chosen|selected)\)", re.I)
# A field of the document's metadata (read by the status, date, people and link readers), or of
# the form's own ("Responder", "I confirm ...").
_META_FIELD_RE = re.compile(
    r"^(?:status|state|current\s+status|date|dates?\s+\w+|time|start\s+time|end\s+time|completion\s+time"
    r"|created|updated|last\s+(?:updated|modified|reviewed)|modified|version|id|ref(?:erence)?|title"
    r"|owners?|authors?|decided\s+by|deciders?|decision\s+makers?|drivers?|responder|reporter|reviewers?|approvers?|approved\s+by|prepared\s+(?:by|for)"
    r"|issued|classification|severity|priority|sev|tags?|labels?|links?|related|see\s+also|contacts?"
    r"|team|affiliation|creator|template|project|location|attendees|participants)"
    r"(?:\s+(?:of|by|for|on|at|to)\b.*)?$"  # "Current status of the incident", not "Project abstract"
    # (a form's own: its signature, "Signed:"; not a title that says something was signed)
    r"|\b(?:i\s+confirm|signature)\b|^signed\b")

# A field on a line of its own: the whole line in bold ("**3. When was it discovered?**",
# "**Root cause**"), or a plain question ("What was the impact?") or lead-in ("Root cause:").
_BOLD_FIELD_RE = re.compile(r"^\s*(\*\*|__)(?P<field>[^*_]{2,160}?)\1\s*:?\s*$")
# A numbered heading of a plain-text paper, in capitals ("3. DECISION", "4. OPTIONS NOT TAKEN").
_SHOUTED_FIELD_RE = re.compile(r"^(?P<field>\d{1,2}\.?\s+[A-Z][A-Z0-9 &/,'()-]{2,60})$")
_BOLD_LINE_RE = re.compile(r"^\s*(\*\*|__)[^*_].*\1\s*:?\s*$")  # any line in bold ends an answer
_PLAIN_FIELD_RE = re.compile(r"^\s*(?P<field>[A-Z0-9][^|*_`\[\]]{1,160}?(?:\?|:))\s*$")
_MAX_FIELD_WORDS = 20
_MIN_VALUE_WORDS = 6  # a header field's value is shorter ("Duration: 19 h 25 min"); a statement's is not
_MAX_LABEL_WORDS = 5  # a plain lead-in names a field ("Root cause:"), not a sentence ("The RFC proposes:")
# A run-in label that opens a paragraph or a list item ("**Outcome:** ...", "- *Scope.* ...").
_RUN_IN_RE = re.compile(
    r"^\s*(?:[-*+]\s+|\d{1,3}[.)]\s+)?(\*\*|__|\*|_)(?P<field>[A-Za-z][^*_]{1,60}?)"
    r"(?:[.:?]\1|\1\s*[.:])\s*(?=\S)")
_NUMBER_RE = re.compile(r"^(?:\d{1,2}(?:\.\d{1,2})*|[a-z]|[ivx]{1,4})[.)]?\s+", re.I)
# A paper's paragraph number ("3.2 The Committee agreed ..."): the paragraph's place, not its words.
_PARAGRAPH_NUMBER_RE = re.compile(r"^\s*\d{1,2}(?:\.\d{1,2})+\.?\s+(?=\S)")
_ITEM_RE = re.compile(r"^\s*(?:[-*+]|\d{1,3}[.)])\s+")
# A paper's lettered sub-paragraph ("  a. the Herbarium stays on ...", "(b) records reach ..."): an item.
_LETTERED_ITEM_RE = re.compile(r"^\s*\(?[a-h][.)]\s+(?=\S)")
_BREAK_RE = re.compile(r"^\s*(?:-{3,}|\*{3,}|_{3,}|={3,})\s*$")  # a thematic break ends an answer
# A line of guidance: wholly in emphasis ("*If your decision departs from ..., explain why*").
_GUIDANCE_RE = re.compile(r"^\s*(?:>\s*)?(\*|_)(?!\1)[^*_]+\1\s*$")
# A FAQ's question ("Q: Why not use ...?"): read by the FAQ readers (runbook_faq, genre_parts).
_FAQ_RE = re.compile(r"^\s*Q(?:uestion)?\s*\d*\s*[:.]", re.I)
# A statement led by a metadata field or by a mark of what is still open ("TBD: who answers ...").
_NO_LEAD_RE = re.compile(_META_FIELD_RE.pattern + r"|^(?:tbd|tba|todo|open(?:\s+questions?)?|questions?|q)$")
_LEAD_RE = re.compile(r"^([A-Za-z][\w /'-]{0,30}):\s")
_LOG_COLUMN_RE = re.compile(r"^(?:date|dated|when|id|#|no\.?|ref|decided\s+on)$")
# A committee's minute, numbered by the committee and the year, over its text ("CDC/26/23 GBIF
# publication incident" then "Ines Okafor presented ..."; "BoT-24-07 Budget"): its title is a field.
_MINUTE_RE = re.compile(r"^(?:[A-Z][A-Za-z]{0,7}[/.-])?\d{2,4}[/.-]\d{1,3}\s+(?P<field>[A-Z][^|]{2,100})$")
_UNDERLINE_RE = re.compile(r"^\s*(?:-{3,}|={3,})\s*$")
_GUIDANCE_OPENERS = frozenset("*_>")
_BREAK_OPENERS = frozenset("-*_=")
_TABLE_RULE_RE = re.compile(r"^\s*\|?\s*:?-{2,}")

Field = tuple[str, list[tuple[int, str]]]  # a field's words and its value's lines


def field_statements(structure: Structure, facts: list[ObservationFact], *, incident: bool = False,
                     headings: bool = False) -> list[ObservationFact]:
    """The statements of the document's field values that `facts` do not hold, each labelled by
    its field's part or its own words (an incident's parts too, when `incident`); each section
    whose heading names a part is a field too: on a page of no genre (`headings`) any such, on a
    genre's page one that names a telling part (no summary, story or design) and of which no
    reader read a line ("## Cause" on a knowledge-base article)."""
    fields, used, heard = _line_fields(structure)
    fields += _table_fields(structure)
    if headings:
        fields += _heading_fields(structure, used)
    else:  # a genre's page: the sections of a telling part that no reader read a line of
        read = {n for fact in facts for n in range(fact.line_start, fact.line_end + 1)}
        fields += [(title, lines) for title, lines in _heading_fields(structure, used)
                   if field_part(title) not in _OPEN_PARTS and not read.intersection(n for n, _ in lines)]
    own = _incident_words if incident else _own_words
    spans: list[LineSpan] = []
    labels: dict[LineSpan, str] = {}
    for words, lines in sorted(fields, key=lambda field: field[1][0][0] if field[1] else 0):
        if _META_FIELD_RE.search(_key(words)) or _FAQ_RE.match(words):
            continue
        part = field_part(words)
        unnumbered = [(n, _LETTERED_ITEM_RE.sub("- ", _PARAGRAPH_NUMBER_RE.sub("", text, count=1), count=1))
                      for n, text in lines]
        kept = 0
        for span in statements(structure, unnumbered, value=True):
            lead = _LEAD_RE.match(span[0])  # "Related: ...", "Owner: ..." told inside a value
            if (span in labels or PLACEHOLDER_RE.search(span[0])
                    or lead and _NO_LEAD_RE.search(lead[1].lower())):
                continue
            label = _label(span[0], part, lead[1] if lead else "", own)
            if label is None and span[1] in heard:
                label = "Outcome"  # a minute's statement of no part: what the committee heard
            # (a scribe's mark, MeetBot's "AGREED:" in its one summary field, is kept past the cap)
            if label and (kept < MAX_PER_FIELD or marked_label(span[0]) is not None):
                labels[span] = label
                spans.append(span)
                kept += 1
    # a statement another reader kept only as a summary or an outcome (a page's opening paragraph)
    # is kept under the part its field names too
    named = [fact for fact in facts if fact.text.split(": ", 1)[0] not in _OPEN_PARTS]
    fresh = set(unkept(spans, facts))
    fresh |= {span for span in unkept(spans, named) if labels[span] not in _OPEN_PARTS}
    return [part_fact(labels[span], span, "detail") for span in spans if span in fresh][:MAX_FIELD_STATEMENTS]


@lru_cache(maxsize=4096)  # pure; a template's fields repeat from page to page
def field_part(words: str) -> str | None:
    """The part a field's words name ("What was the root cause?" -> "Cause"), or None."""
    key = _key(words)
    return next((label for label, named in FIELD_PARTS if named.search(key)), None)


def _key(words: str) -> str:
    """A field's words as a heading's key, its number left out ("8. Root cause?" -> "root cause")."""
    return section_key(_NUMBER_RE.sub("", plain_text(words).strip()))


def _label(text: str, part: str | None, lead: str, own: Callable[[str], str | None]) -> str | None:
    """A statement's label: the part its own lead-in names ("Consequence we accept: ..."), an
    option it turns down or a worry it tells (whatever its field), its field's part, and for a
    field of an open part or none, what its own words say."""
    led = field_part(lead) if lead and len(lead.split()) <= _MAX_LABEL_WORDS else None
    if led is not None:
        return led
    said = own(text)
    if said in _TOLD_OVER_FIELD or part is None or part in _OPEN_PARTS:
        return said or part
    if part == "Rejected" and _CHOSEN_OPTION_RE.search(text):
        return "Decision"  # the option an options list marks as chosen ("Option B - ... (recommended)")
    return part


def _own_words(text: str) -> str | None:
    return topic_label(text, "") or None


def _incident_words(text: str) -> str | None:
    return incident_part(text) or _own_words(text)


def _line_fields(structure: Structure) -> tuple[list[Field], set[int], set[int]]:
    """The fields told on lines: a field line over its answer, a run-in label over its paragraph
    or item; the lines they hold, and the lines of a committee's minutes."""
    headings = structure.heading_lines
    lines = [(n, "" if n in headings or line.lstrip()[:1] in _GUIDANCE_OPENERS and _GUIDANCE_RE.match(line)
              else line) for n, line in clean_visible(structure)]
    blank = [not line.strip() for _, line in lines] + [True]
    fields: list[Field] = []
    used: set[int] = set()
    heard: set[int] = set()
    index = 0

    def underlined(at: int) -> bool:  # a plain-text heading's underline ("1. ROOT CAUSE" over "-----")
        return at + 1 < len(lines) and _UNDERLINE_RE.match(lines[at + 1][1]) is not None

    def field_at(at: int) -> str | None:  # the field a line of its own names
        opens = at == 0 or blank[at - 1]
        if opens and not blank[at] and (minuted := _MINUTE_RE.match(lines[at][1])) is not None:
            return minuted["field"]  # a minute's number and title, its text on the next lines
        alone = opens and (blank[at + 1] or underlined(at)) and not blank[at]
        if alone:
            return _field_line(lines[at][1]) or plain_heading(lines[at][1], "", field_part)
        return None if not opens or blank[at] else _field_over_text(lines[at][1], lines[at + 1][1])

    while index < len(lines):
        number, line = lines[index]
        words = field_at(index)
        if words is not None:
            answer: list[tuple[int, str]] = []
            index += 2 if underlined(index) else 1
            listed = False  # an answer given as a list ends with it ("**Decisions**" over its items)
            while index < len(lines) and len(answer) < MAX_ANSWER_LINES:
                later, text = lines[index]
                if later in headings or not blank[index] and (_breaks(text) or field_at(index) is not None):
                    break
                if not blank[index] and not any(line.strip() for _, line in answer):
                    listed = _ITEM_RE.match(text) is not None
                elif listed and blank[index - 1] and not blank[index] and not text[:1].isspace() \
                        and not _ITEM_RE.match(text):
                    break
                if not _short_field(text):
                    answer.append((later, text))
                index += 1
            fields.append((words, answer))
            if _MINUTE_RE.match(line):
                heard.update(n for n, _ in answer)
            used.add(number)
            used.update(n for n, _ in answer)
            continue
        match = _RUN_IN_RE.match(line) if ("*" in line or "_" in line) and not blank[index] else None
        if match is not None and line[match.end():].strip():
            value = _run_in_value(lines, blank, headings, index)
            fields.append((match["field"], value))
            used.update(n for n, _ in value)
            index += len(value)
            continue
        index += 1
    return fields, used, heard


def _field_over_text(line: str, following: str) -> str | None:
    """The field a line names directly over its text: a plain-text paper's heading ("Backout
    plan" then the fallback), a lead-in over its list ("What changes for you:" then the items)."""
    led_in = over_list(following) and line.rstrip().endswith(":")
    return (_field_line(line) if led_in else None) or plain_heading(line, following, field_part)


def _run_in_value(lines: list[tuple[int, str]], blank: list[bool], headings: set[int], index: int
                  ) -> list[tuple[int, str]]:
    """A run-in label's value: its line and those that go on with it (not a blank line, a
    heading, another item or another run-in label)."""
    value = [lines[index]]
    for later, text in lines[index + 1:]:
        if blank[index + len(value)] or later in headings or _ITEM_RE.match(text) or _RUN_IN_RE.match(text):
            break
        value.append((later, text))
    return value


def _short_field(line: str) -> bool:
    """Is a line a header field whose value is no statement ("Event start: 18-Aug-2026 01:30 UTC")?"""
    stripped = line.strip()
    return is_field_line(stripped) and len(stripped.split(":", 1)[-1].split()) < _MIN_VALUE_WORDS


def _breaks(line: str) -> bool:
    """Does a line end an answer: a thematic break, a line in bold (another field's)?"""
    return line.lstrip()[:1] in _BREAK_OPENERS and bool(_BREAK_RE.match(line) or _BOLD_LINE_RE.match(line))


def _field_line(line: str) -> str | None:
    """The field a line of its own names (its words), or None: a bold line, a question, a lead-in."""
    stripped = line.strip()
    if not stripped or _ITEM_RE.match(stripped) and not _NUMBER_RE.match(stripped):
        return None
    bold = _BOLD_FIELD_RE.match(stripped) or _SHOUTED_FIELD_RE.match(stripped)
    words = bold["field"] if bold else None
    if words is None:
        plain = _PLAIN_FIELD_RE.match(_ITEM_RE.sub("", stripped, count=1))
        words = plain["field"] if plain else None
    if words is None:
        return None
    if len(words.split()) > (_MAX_FIELD_WORDS if bold or words.endswith("?") else _MAX_LABEL_WORDS):
        return None
    return words.strip().rstrip(":").strip()


def _table_fields(structure: Structure) -> list[Field]:
    """A table's fields: each row of a two-column table whose first cell names a part, over its
    value ("| Root cause | ... |"); else each column whose header names a part, over its cells
    ("| Risk | Measure |"); none of a log's table (a date or an ID column: its rows are the log
    readers', genres.decision_rows)."""
    fields: list[Field] = []
    header: list[str] | None = None
    for number, line in structure.visible:
        if not line.lstrip().startswith("|"):
            header = None
            continue
        if _TABLE_RULE_RE.match(line):
            continue
        cells = table_cells(line)
        rows = header is None or len(header) == 2 and not field_part(header[1])  # a field per row
        if header is None:
            header = [] if any(_LOG_COLUMN_RE.match(section_key(cell)) for cell in cells) else cells
        if not header:
            continue
        # a header that names two parts names columns ("| Hazard | Constraint |"), not a field
        named = header is cells and len(cells) == 2 and field_part(cells[1])
        if rows and len(cells) == 2 and field_part(cells[0]) and not named:
            fields.append((cells[0], [(number, cells[1])]))
        elif not rows and header is not cells:
            fields += [(name, [(number, cell)]) for name, cell in zip(header[1:], cells[1:], strict=False)
                       if field_part(name) and is_statement(cell)]  # (the first column names the rows)
    return fields


def _heading_fields(structure: Structure, used: set[int]) -> list[Field]:
    """Each section (below the title) whose heading names a part, over its own lines that no
    field on a line holds."""
    fields: list[Field] = []
    for index, section in enumerate(structure.sections):
        if index == 0 or index == 1 and section.level == 1:
            continue
        title = structure.title(section)
        if field_part(title) is None or heading_role(section_key(title)) in READ_BY_HEADING:
            continue  # (a section plain_conclusions keeps by its heading's kind, with its caps)
        lines = [(n, text) for n, text in structure.lines(section) if n not in used]
        fields.append((title, lines))
    return fields
