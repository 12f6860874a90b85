"""Deterministic, offline fact extraction from one source text (no language model, no I/O).

What a source states explicitly becomes a fact; weaker guesses become candidates:

- frontmatter: `entity`/`entity_name` (the subject), `entity_type`/`type`, `aliases`, `tags`,
  `entities` (names, `{name, type}` items, or a `name: type` mapping);
- wiki links `[[Name]]` (a `mentions` relation from the subject) and relation lines
  `- depends_on [[Other Entity]]` whose verb is in the relation vocabulary, snake_case, or under
  a Relations heading (passive forms like `superseded_by` are turned around);
- observation lines `- [decision] Use WAL mode for SQLite #database` (`[Memory Writer]` keeps
  its case: only known categories are lower-cased);
- decision records (Nygard, MADR 2-4, log4brains, Y-statements; setext or ATX headings, found
  with markdown-it block tokens): the record is an entity of type decision, its status, date
  and decision are observations; the record links it states (tasks/record_links.py) are
  resolved against the log's records in distill; technologies its decision names as subject
  (tasks/decision_subjects.py) are entities it uses / replaces / rejects; the people and teams
  that decided, wrote or own it (tasks/decision_people.py) are entities it is decided_by /
  authored_by / owned_by;
- candidates (not facts): capitalized phrases that recur and terms in code spans.

Mentions of already-registered names are found later by `find_mentions`, once every name
registered in the same run is known, so the result does not depend on how sources are batched.
Line numbers are 1-based lines of the text given (the raw file).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import PurePosixPath
from typing import Any

import yaml
from markdown_it import MarkdownIt

from schemas.common import NON_MEANINGFUL_NAMES
from schemas.relation_vocabulary import RELATION_VERBS
from tasks.decision_people import (
    AUTHORED_BY,
    DECIDED_BY,
    OWNED_BY,
    owners_in_text,
    people_in_front_matter,
    people_in_lines,
    unique,
)
from tasks.decision_subjects import REJECTS, REPLACES, USES, decision_subjects
from tasks.record_dates import day_first_hint, find_date
from tasks.record_links import (
    RecordLink,
    links_in_line,
    record_number,
    status_title_link,
)
from tasks.safe_yaml import as_written, load_yaml_with_layout

SUBJECT_DOCUMENT_TYPE = "document"
DECISION_TYPE = "decision"
DEFAULT_LINKED_TYPE = "concept"
MAX_OBSERVATION_CHARS = 480
MAX_DECISION_CHARS = 4000  # a decision is kept whole up to this; longer ones are cut with a mark
CUT_MARK = " […]"
MAX_NAME_CHARS = 120

# Passive relation types and their active-voice form (the relation is turned around).
PASSIVE_RELATIONS = {
    "superseded_by": "supersedes",
    "replaced_by": "replaces",
    "used_by": "uses",
    "owned_by": "owns",
    "implemented_by": "implements",
    "depended_on_by": "depends_on",
    "required_by": "requires",
    "consumed_by": "consumes",
    "called_by": "calls",
    "extended_by": "extends",
    "contained_by": "contains",
    "included_by": "includes",
}

_OBSERVATION_RE = re.compile(
    r"^\s*[-*+]\s+\[(?P<category>[A-Za-z][\w -]{0,40})\]\s+(?P<text>\S.*)$"
)
_RELATION_LINE_RE = re.compile(
    r"^\s*[-*+]\s+(?P<type>[A-Za-z][A-Za-z0-9_ -]{0,40}?)\s+"
    r"\[\[(?P<target>[^\]|#]+)(?:[|#][^\]]*)?\]\]\s*(?P<rest>.*)$"
)
# [[Name]] but not a markdown link whose text is bracketed ("[[1]](url)", a footnote style).
# No "[" inside a link's name or target: a scan stops at the next opener (linear time).
_WIKILINK_RE = re.compile(r"\[\[([^\[\]|#]+)(?:[|#][^\[\]]*)?\]\](?!\()")
_MD_LINK_RE = re.compile(
    r"!?\[((?:[^\[\]]++|\[[^\[\]]*+\])*+)\]\(([^)\s\[]*+)(?:\s+\"[^\"]*\")?\)")
_MD_IMAGE_RE = re.compile(r"!\[[^\]]*\]\([^)]*\)")
_CODE_SPAN_RE = re.compile(r"`([^`\n]+)`")
_EMPHASIS_RE = re.compile(r"(\*\*|__)(.+?)\1")
_HTML_COMMENT_RE = re.compile(r"<!--.*?(?:-->|$)")
_HTML_TAG_RE = re.compile(r"</?[A-Za-z][^<>]*>")
# Possessive blank runs: "status:" and a million blanks is not split a million^2 ways.
_STATUS_LINE_RE = re.compile(
    r"^\s*(?:[-*+]\s+)?\**(?:status)\**\s*+:\s*+\**\s*+(?P<value>\S.*)$", re.I
)
_DATE_LINE_RE = re.compile(
    r"^\s*+(?:[-*+]\s++)?\**+(?:date|decided(?: on)?|accepted(?: on)?)\**+\s*+:\s*+\**+\s*+(?P<value>\S.*)$",
    re.I,
)
_ADMONITION_RE = re.compile(r"^\s*:::\s*\w+\s+(?P<title>.+)$")
_NUMBERED_TITLE_RE = re.compile(r"^(?:ADR[\s-]*)?\d+[.:)]?\s+(?=\S)", re.I)
_BRACKET_MARK_RE = re.compile(
    r"\s*\[(?:superseded|deprecated|rejected|proposed|accepted)\]\s*", re.I
)
_PARTIAL_RE = re.compile(r"\b(?:partly|partially|in\s+part|part\s+of)\b", re.I)
_WHOLE_RECORD_RE = re.compile(
    r"\b(?:this|the)\s+(?:adr|decision|record|document)\b[^.]{0,400}?\b(?:has\s+been|is|was)"
    r"\s+superseded",
    re.I,
)
_WORD_RE = re.compile(r"\w+")
_TAG_RE = re.compile(r"(?<![\w#])#([A-Za-z][\w-]*)")
_CAP_PHRASE_RE = re.compile(
    r"\b(?:[A-Z][A-Za-z0-9]*[a-z0-9][A-Za-z0-9]*|[A-Z]{2,}[0-9]*)"
    r"(?:[ -](?:[A-Z][A-Za-z0-9]*[a-z0-9][A-Za-z0-9]*|[A-Z]{2,}[0-9]*|of|for)){0,4}"
    r"(?<![ -]of)(?<![ -]for)\b"
)
_CODE_TERM_RE = re.compile(r"^[A-Za-z_@][\w.\-/@:]{2,59}$")
_ITEM_RE = re.compile(r"^(?:[-*+]|\d+[.)]|[a-z]\))\s+(.*)$")
_ADR_TITLE_RE = re.compile(r"^ADR[-\s]?\d+\b", re.I)
_DECISION_HEADINGS = (
    "decision",
    "decision outcome",
    "decisions",
    "the decision",
    "our decision",
    "decision made",
    "decision and rationale",
    "proposal",
    "the proposal",
    "proposed solution",
    "proposed decision",
    "proposed change",
    "proposed changes",
    "what's proposed",
    "what is proposed",
    "what we decided",
    "what we will do",
    "outcome",
    "resolution",
    "solution",
    "chosen option",
    "decided",
)
_CONTEXT_HEADINGS = (
    "context",
    "background",
    "context and problem statement",
    "problem statement",
    "problem",
    "summary",
    "motivation",
)
_NOT_DECISION_HEADINGS = frozenset(
    {
        *_CONTEXT_HEADINGS,
        "status",
        "discussion",
        "risks",
        "definitions",
        "considered options",
        "options",
        "options considered",
        "decision drivers",
        "links",
        "references",
        "consequences",
        "pros and cons of the options",
        "date",
        "deciders",
        "relations",
    }
)
# Section words that are never a record's title (a record whose first heading is "# Context").
_SECTION_WORDS = frozenset({*_DECISION_HEADINGS, *_NOT_DECISION_HEADINGS, "title"})
_RELATION_SECTIONS = frozenset({"relations", "relationships", "related"})
_Y_STATEMENT_RE = re.compile(
    r"\bin the context of\b.{0,600}?\bfacing\b.{0,600}?\bwe decided\b", re.I | re.S
)
_INDEX_STEMS = frozenset({"index", "readme", "_index", "toc", "summary"})
_DECISION_LOG_RE = re.compile(r"\b(?:ADRs?|decision records?|decision log)\b", re.I)
_RECORD_STEM_RE = re.compile(r"^(?:adr[-_]?)?\d{3,5}[-_]", re.I)
_LIST_MARKER_RE = re.compile(r"^(?:[-*+>#=]+|\d+[.)])\s*(?=\S)")
_OBSERVATION_CATEGORIES = frozenset(
    """decision fact technique requirement idea risk issue problem question constraint preference
    lesson insight note todo task status observation context rationale consequence goal
    assumption finding tip warning bug feature convention rule pattern learning action
    """.split()
)
_KNOWN_VERBS = RELATION_VERBS | PASSIVE_RELATIONS.keys()
_HEX_RE = re.compile(r"^[0-9a-f]{12,}$")
_RELATION_TYPE_RE = re.compile(r"^[a-z][a-z0-9_]*$")

# Words that start sentences or are too common to be an entity on their own.
_STOPWORDS = frozenset(
    """a an and are as at be but by can do for from has have he her his how i if in into is it its
    may more most must no not of on or our out she should so some such that the their them then
    there these they this those to up us was we were what when where which while who why will with
    would you your all any also after before each every here however now one only other over same
    see since still than through under until use used using via yes if else note example examples
    currently finally additionally instead otherwise because although""".split()
)
_DOC_TYPES = frozenset(
    {"note", "doc", "docs", "document", "page", "adr", "article", "readme", "post"}
)


@dataclass(frozen=True, slots=True)
class SourceRef:
    """Where a text came from: its raw asset and the source page that summarizes it."""

    asset_id: str
    source_page: str
    raw_path: str
    original_path: str = ""


@dataclass(frozen=True, slots=True)
class NameRef:
    """A name as the source wrote it, with fallbacks: the first that resolves wins; if none
    does, `names[0]` is registered with the others as aliases."""

    names: tuple[str, ...]
    entity_type: str
    line: int

    @property
    def display(self) -> str:
        return self.names[0]


@dataclass(frozen=True, slots=True)
class EntityFact:
    ref: NameRef
    aliases: tuple[str, ...] = ()
    tags: tuple[str, ...] = ()
    explicit_type: bool = False


@dataclass(frozen=True, slots=True)
class ObservationFact:
    text: str
    line_start: int
    line_end: int
    kind: str = "line"  # line | status | date | decision | subject (a decision's technology)
    typed: dict[str, Any] | None = None  # a store record's typed fields (kept in its provenance)


@dataclass(frozen=True, slots=True)
class RelationFact:
    source: NameRef
    relation_type: str
    target: NameRef


@dataclass(frozen=True, slots=True)
class CandidateFact:
    term: str
    kind: str  # capitalized_phrase | code_term | passive_relation
    line: int
    excerpt: str
    count: int = 1


@dataclass(frozen=True, slots=True)
class SupersededFact:
    """A fact its source itself marks retired (a store's superseded entry or archive/): kept
    as a superseded observation, linked to `by` (the replacing record's id) when known."""

    text: str
    line_start: int
    line_end: int
    reason: str
    record_id: str | None = None
    by: str | None = None
    typed: dict[str, Any] | None = None


@dataclass(slots=True)
class Extraction:
    source: SourceRef
    subject: EntityFact | None = None
    entities: list[EntityFact] = field(default_factory=list)
    observations: list[ObservationFact] = field(default_factory=list)
    relations: list[RelationFact] = field(default_factory=list)
    candidates: list[CandidateFact] = field(default_factory=list)
    prose: list[tuple[int, str]] = field(default_factory=list)
    record_superseded: bool = False
    rejected_names: list[str] = field(default_factory=list)
    is_decision_record: bool = False
    title: str = ""
    record_key: str | None = None  # a decision record's file stem: unique even when titles repeat
    # Memory stores (tasks/stores/extract.py): retired facts, forgotten topics, and which record
    # replaced which (old id -> new id); `order` < 0 is resolved first (subject registries).
    superseded_facts: list[SupersededFact] = field(default_factory=list)
    tombstones: list[dict[str, str]] = field(default_factory=list)
    replaced_by: dict[str, str] = field(default_factory=dict)
    order: int = 0
    record_role: str = ""  # "template" or "index": a decision log's page that records no decision
    record_links: list[RecordLink] = field(default_factory=list)
    # Observations about other entities than the subject (a technology a decision uses).
    entity_observations: list[tuple[NameRef, ObservationFact]] = field(default_factory=list)


# --------------------------------------------------------------------------- text helpers


def is_meaningful_name(name: str) -> bool:
    """Not empty, not one of the spec's non-meaningful names, has a letter, not too long."""
    key = name.strip().lower()
    return (
        bool(key)
        and key not in NON_MEANINGFUL_NAMES
        and len(key) <= MAX_NAME_CHARS
        and any(char.isalpha() for char in key)
    )


def _heading_title(rest: str) -> str:
    """An ATX heading's text without its closing sequence (blanks, #s, blanks)."""
    return rest.rstrip().rstrip("#").rstrip()


def plain_text(text: str) -> str:
    """Inline markdown to plain words: links keep their text, emphasis and tags are dropped."""
    text = _MD_IMAGE_RE.sub("", text)
    text = _MD_LINK_RE.sub(lambda m: m.group(1), text)
    text = _WIKILINK_RE.sub(lambda m: m.group(1).strip(), text)
    text = _EMPHASIS_RE.sub(lambda m: m.group(2), text)
    text = _HTML_COMMENT_RE.sub("", _HTML_TAG_RE.sub("", text))
    return " ".join(text.split())


def _shorten(text: str, limit: int = MAX_OBSERVATION_CHARS) -> str:
    """`text`, or its start cut at a sentence (else a word) boundary with a visible mark."""
    if len(text) <= limit:
        return text
    cut = text[: limit - len(CUT_MARK)]
    sentence_end = max(cut.rfind(". "), cut.rfind("; "), cut.rfind("! "), cut.rfind("? "))
    if sentence_end > limit // 2:
        return cut[: sentence_end + 1].rstrip(";") + CUT_MARK
    return cut[: cut.rfind(" ")].rstrip(",;:") + CUT_MARK


def _split_frontmatter(text: str) -> tuple[dict[str, Any], list[str], int]:
    """(frontmatter mapping, body lines, number of the first body line)."""
    lines = text.replace("\r\n", "\n").split("\n")  # line numbers as editors count them
    if not lines or lines[0].strip() != "---":
        return {}, lines, 1
    for index in range(1, len(lines)):
        if lines[index].strip() in {"---", "..."}:
            try:
                meta = _front_matter("\n".join(lines[1:index]))
            except yaml.YAMLError:
                meta = _loose_frontmatter(lines[1:index])
            if not isinstance(meta, dict):
                meta = {}
            return meta, lines[index + 1 :], index + 2
    return {}, lines, 1


class _FrontMatter(dict[str, Any]):
    """A front-matter mapping that knows the source line of each key (provenance cites it)."""

    line_of: dict[str, int]


def _front_matter(yaml_text: str) -> Any:
    """Aliases rejected (no alias bomb); text keys kept as written (`title: 1.10`)."""
    data, layout = load_yaml_with_layout(yaml_text)
    if not isinstance(data, dict):
        return data or {}
    meta = _FrontMatter({k: as_written(v, layout, k) if k in ("title", "description") else v
                         for k, v in data.items()})
    meta.line_of = {key: line + 2 for key, line in layout.lines.items()}  # after the '---' line
    return meta


def _meta_line(meta: Mapping[str, Any], key: str) -> int:
    """The source line a front-matter key was written on (1 when unknown)."""
    return getattr(meta, "line_of", {}).get(key, 1)


def _loose_frontmatter(lines: list[str]) -> dict[str, Any]:
    """`key: value` lines of frontmatter that is not valid YAML (e.g. an unquoted colon)."""
    meta: dict[str, Any] = {}
    for line in lines:
        match = re.match(r"^([A-Za-z_][\w-]*):\s+(.+)$", line)
        if match:
            meta.setdefault(match.group(1), match.group(2).strip().strip("'\""))
    return meta


def _as_names(value: object) -> list[str]:
    if isinstance(value, str):
        return [part.strip() for part in value.split(",") if part.strip()]
    if isinstance(value, list | tuple):
        return [
            str(item).strip() for item in value if isinstance(item, str | int) and str(item).strip()
        ]
    return []


def _snake(words: str) -> str:
    return re.sub(r"[^a-z0-9]+", "_", words.strip().lower()).strip("_")


# --------------------------------------------------------------------------- structure


@dataclass(slots=True)
class _Section:
    title: str
    level: int
    line: int
    lines: list[tuple[int, str]] = field(default_factory=list)


# Block structure only: headings (ATX and setext), fences, paragraphs, html blocks. List and
# indented-code rules are off: they cost half the parse and a list item's text is read line by
# line below anyway (a fenced block is code; an indented one was never treated as code here).
_BLOCK_PARSER = MarkdownIt("commonmark", {"html": True}).disable(["inline", "list", "code"])


@dataclass(slots=True)
class _Structure:
    """A body's block structure from markdown-it tokens (setext and ATX headings alike)."""

    visible: list[tuple[int, str]]  # lines outside code blocks and headings, with numbers
    sections: list[_Section]
    code: dict[int, str]  # code block lines by number (fence lines included)
    paragraphs: list[tuple[int, int]]  # (first line, last line) of each paragraph


def _scan(body: list[str], first_line: int) -> _Structure:
    """Non-code lines with their numbers, the heading sections, code lines and paragraphs."""
    tokens = _BLOCK_PARSER.parse("\n".join(body))
    code: dict[int, str] = {}
    headings: dict[int, tuple[int, str, int]] = {}  # first line -> (level, title, end line)
    paragraphs: list[tuple[int, int]] = []
    for index, token in enumerate(tokens):
        if token.map is None:
            continue
        start, end = token.map
        if token.type in {"fence", "code_block"}:
            for offset in range(start, min(end, len(body))):
                code[first_line + offset] = body[offset]
        elif token.type == "heading_open" and token.level == 0:
            title = plain_text(tokens[index + 1].content)
            headings[start] = (int(token.tag[1]), title, end)
        elif token.type == "paragraph_open":
            paragraphs.append((first_line + start, first_line + end - 1))
    visible: list[tuple[int, str]] = []
    sections: list[_Section] = [_Section("", 0, first_line)]
    heading_end = -1
    for offset, line in enumerate(body):
        number = first_line + offset
        if number in code:
            continue
        visible.append((number, line))  # heading text is prose too (mentions)
        heading = headings.get(offset)
        if heading is not None:
            level, title, heading_end = heading
            sections.append(_Section(title, level, number))
        elif offset >= heading_end:
            sections[-1].lines.append((number, line))
    return _Structure(visible, sections, code, paragraphs)


def _section_key(title: str) -> str:
    """"## 3. Decision Outcome:" and "## ✅ Decision" -> "decision outcome", "decision"."""
    key = re.sub(r"^[\W\d_]+", "", title.strip().lower())
    key = re.sub(r"\s*\((?:optional|required)\)\s*$", "", key).rstrip(":.? ")
    return " ".join(key.replace("’", "'").split())


def _find_section(sections: list[_Section], *starts: str) -> _Section | None:
    """The first section whose heading is one of `starts` (exactly: "Decision Drivers" is not
    the decision)."""
    for section in sections[1:]:
        if _section_key(section.title) in starts:
            return section
    return None


def _with_subsections(sections: list[_Section], section: _Section) -> list[tuple[int, str]]:
    """A section's lines and those of its subsections ("## Decision" then "#### Stack domains")."""
    lines = list(section.lines)
    for later in sections[sections.index(section) + 1 :]:
        if later.level <= section.level:
            break
        lines.extend(later.lines)
    return lines


def _decision_text(structure: _Structure, decision: _Section) -> tuple[str, int, int] | None:
    """The decision's first paragraph (and the list it introduces). When the section goes on
    (more paragraphs, a table, code), the text ends with a visible mark and its range covers
    the whole section: nothing is cut silently."""
    lines = _with_subsections(structure.sections, decision)
    found = _first_paragraph(lines, structure.code, limit=MAX_DECISION_CHARS)
    if found is None:
        return None
    text, start, end = found
    after = [n for n, line in lines if n > end and line.strip() and not line.strip().startswith("<!--")]
    if lines:
        last_line = lines[-1][0]
        after += [n for n, line in structure.code.items() if end < n <= last_line and line.strip()]
    if after:
        if not text.endswith(CUT_MARK):
            text += CUT_MARK
        end = max(after)
    return text, start, end


def _first_paragraph(
    lines: list[tuple[int, str]], code: Mapping[int, str] | None = None, *, limit: int = 0
) -> tuple[str, int, int] | None:
    """The first prose paragraph (plus the list it introduces), as one line, with its range."""
    chosen: list[tuple[int, str]] = []
    in_list_tail = False
    for number, line in lines:
        stripped = line.strip()
        if not chosen:
            if not stripped or stripped.startswith((":::", "![", "<!--", "|")) or stripped == "---":
                continue
            chosen.append((number, stripped))
            in_list_tail = bool(_ITEM_RE.match(stripped))
            continue
        if not stripped:
            joined = " ".join(text for _, text in chosen)
            if in_list_tail or not re.search(r"(:|\bbecause|,)$", joined):
                if in_list_tail or not joined.endswith(":"):
                    break
            in_list_tail = True
            continue
        is_item = bool(_ITEM_RE.match(stripped))
        if in_list_tail and not is_item and not line.startswith((" ", "\t")):
            break
        chosen.append((number, stripped))
    if not chosen:
        return None
    parts: list[str] = []
    items_seen = 0
    for _, text in chosen:
        item = _ITEM_RE.match(text)
        if item and parts:
            joiner = "; " if items_seen else " "
            parts.append(joiner + item.group(1))
            items_seen += 1
        elif item:
            parts.append(item.group(1))
            items_seen += 1
        else:
            parts.append((" " if parts else "") + text)
    sentence = plain_text("".join(parts))
    end_line = chosen[-1][0]
    if code and sentence and sentence[-1] not in ".!?:;)" and not items_seen:
        # "The catalog file should be named" + a code block: the block completes the sentence.
        for number in range(end_line + 1, end_line + 5):
            snippet = code.get(number, "").strip()
            if snippet and not snippet.startswith(("```", "~~~")):
                sentence = f"{sentence} `{snippet}`"
                end_line = number
                break
    if sentence.endswith(":") and not items_seen and ". " in sentence:
        sentence = sentence[: sentence.rfind(". ") + 1]  # drop a dangling "Example:" lead-in
    if not sentence:
        return None
    return _shorten(sentence, limit or MAX_OBSERVATION_CHARS), chosen[0][0], end_line


# --------------------------------------------------------------------------- extraction


def _title(meta: Mapping[str, Any], sections: list[_Section], source: SourceRef) -> tuple[str, int]:
    title = meta.get("title")
    if isinstance(title, str) and title.strip():
        return plain_text(title), _meta_line(meta, "title")
    for section in sections[1:]:
        if section.level == 1 and section.title:
            if _section_key(section.title) in _SECTION_WORDS:
                break  # "# Context" is the first section of an untitled record, not its title
            return section.title, section.line
    stem = PurePosixPath(source.original_path or source.raw_path).stem
    stem = re.sub(r"^\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}Z__", "", stem)
    return stem.replace("-", " ").replace("_", " ").strip() or stem, 1


def _is_template(title: str, source: SourceRef) -> bool:
    stem = PurePosixPath(source.original_path or source.raw_path).stem.lower()
    placeholder = re.search(
        r"\[(?!superseded|deprecated|rejected|proposed|accepted)[^\]]*\]", title, re.I
    )
    return bool(placeholder) or stem == "template" or stem.endswith(("-template", "_template"))


def _record_name(title: str) -> str:
    name = _BRACKET_MARK_RE.sub(" ", title).strip()
    if not re.match(r"^ADR[-\s]?\d+\s*:", name, re.I):
        name = _NUMBERED_TITLE_RE.sub("", name)
    return " ".join(name.split())


def _status(
    meta: Mapping[str, Any], sections: list[_Section], visible: list[tuple[int, str]], title: str
) -> tuple[str, int, int] | None:
    """The stated status: a Status section, a `Status:` line (near the top or at the end), the
    front matter, a superseded admonition, or a `[superseded]` title mark."""
    section = _find_section(sections, "status")
    if section is not None:
        found = _first_paragraph(section.lines)
        if found and _clean_status(found[0]):
            return _clean_status(found[0]), found[1], found[2]
    for number, line in [*visible[:40], *visible[-12:]]:
        match = _STATUS_LINE_RE.match(line)
        if match and _clean_status(plain_text(match.group("value"))):
            return _clean_status(plain_text(match.group("value"))), number, number
    value = meta.get("status")
    if isinstance(value, str) and _clean_status(plain_text(value)):
        line = _meta_line(meta, "status")
        return _clean_status(plain_text(value)), line, line
    for number, line in visible[:15]:
        admonition = _ADMONITION_RE.match(line)
        if admonition and re.match(r"(?i)superseded|deprecated", admonition.group("title").strip()):
            return plain_text(admonition.group("title")), number, number
    if re.search(r"\[superseded\]", title, re.I):
        return "Superseded", 1, 1
    return None


def _clean_status(value: str) -> str:
    """A status without leading emoji or punctuation ("✅ Accepted" -> "Accepted")."""
    return re.sub(r"^[^\w\[(]+", "", value).strip()


def _record_date(
    meta: Mapping[str, Any],
    sections: list[_Section],
    visible: list[tuple[int, str]],
    status: tuple[str, int, int] | None,
) -> tuple[str, int] | None:
    """The date a record states: a `Date:` line, a Date section, the front matter, a date in
    the status or in the lines before the first section (prose). Never guessed."""
    texts = [line for _, line in visible]
    day_first = day_first_hint(texts)
    for number, line in [*visible[:40], *visible[-12:]]:
        match = _DATE_LINE_RE.match(line)
        if match:
            found = find_date(plain_text(match.group("value")), day_first, compact=True)
            if found:
                return found, number
    section = _find_section(sections, "date", "dates")
    if section is not None:
        for number, line in section.lines:
            found = find_date(plain_text(line), day_first, compact=True)
            if found:
                return found, number
    value = meta.get("date")
    if hasattr(value, "isoformat"):
        return value.isoformat()[:10], _meta_line(meta, "date")
    if isinstance(value, str | int):
        found = find_date(str(value), day_first, compact=True)
        if found:
            return found, _meta_line(meta, "date")
    if status is not None:
        for number, line in visible:
            if status[1] <= number <= status[2]:
                found = find_date(plain_text(line), day_first)
                if found:
                    return found, number
    preamble = sections[0].lines + (
        sections[1].lines if len(sections) > 1 and sections[1].level == 1 else []
    )
    for number, line in preamble[:15]:
        found = find_date(plain_text(line), day_first)
        if found:
            return found, number
    return None


def _classify_record(
    result: Extraction,
    meta: Mapping[str, Any],
    structure: _Structure,
    status: tuple[str, int, int] | None,
    source: SourceRef,
) -> tuple[_Section | None, tuple[str, int, int] | None]:
    """Is this a decision record (or a template / index page of a log)? Sets the flags on
    `result`; returns the decision section and a Y-statement (text, first, last line)."""
    sections, title = structure.sections, result.title
    decision = _find_section(sections, *_DECISION_HEADINGS)
    context = _find_section(sections, *_CONTEXT_HEADINGS)
    y_statement = _y_statement(structure)
    stem = PurePosixPath(source.original_path or source.raw_path).stem
    declared = (
        bool(_ADR_TITLE_RE.match(title))
        or bool(_RECORD_STEM_RE.match(stem))
        or "decision record" in str(meta.get("description", "")).lower()
    )
    result.is_decision_record = (
        (decision is not None and (context is not None or status is not None))
        or (declared and (decision is not None or context is not None or status is not None))
        or y_statement is not None
    )
    if result.is_decision_record and _is_template(title, source):
        result.record_role = "template"  # it describes the format, it records no decision
    elif not result.is_decision_record and _is_log_index(stem, title, structure):
        result.record_role = "index"
    if result.is_decision_record and decision is None and y_statement is None:
        decision = next(
            (
                section
                for section in sections[1:]
                if section.level == 2 and _section_key(section.title) not in _NOT_DECISION_HEADINGS
            ),
            None,
        )
    return decision, y_statement


def _y_statement(structure: _Structure) -> tuple[str, int, int] | None:
    """A Y-statement paragraph ("In the context of ..., facing ..., we decided ...")."""
    lines = dict(structure.visible)
    for start, end in structure.paragraphs:
        text = " ".join(lines.get(n, "").strip() for n in range(start, end + 1))
        if _Y_STATEMENT_RE.search(text):
            return plain_text(text), start, end
    return None


def _is_log_index(stem: str, title: str, structure: _Structure) -> bool:
    """The index or README page of a decision log (lists or explains the records)."""
    if stem.lower() not in _INDEX_STEMS and not _DECISION_LOG_RE.search(title):
        return False
    return any(_DECISION_LOG_RE.search(line) for _, line in structure.visible[:30])


def _clean_name(name: str) -> str:
    """A name without a leading list marker or heading punctuation ("- User Access Scopes")."""
    previous = None
    while previous != name:
        previous, name = name, _LIST_MARKER_RE.sub("", name.strip())
    return name


def extract_facts(text: str, source: SourceRef) -> Extraction:
    """Everything `text` states explicitly, plus candidates. Pure and deterministic."""
    meta, body, first_line = _split_frontmatter(text)
    structure = _scan(body, first_line)
    visible, sections = structure.visible, structure.sections
    result = Extraction(source=source)
    title, title_line = _title(meta, sections, source)
    result.title = title
    status = _status(meta, sections, visible, title)
    decision, y_statement = _classify_record(result, meta, structure, status, source)
    if result.record_role:
        return result  # a template or a log's index page: it records no decision

    # The subject: what this source is about.
    explicit = meta.get("entity") or meta.get("entity_name")
    subject_type = meta.get("entity_type") or meta.get("kind")
    if (
        not subject_type
        and isinstance(meta.get("type"), str)
        and meta["type"].lower() not in _DOC_TYPES
    ):
        subject_type = meta["type"]
    aliases = _as_names(meta.get("aliases"))
    tags = tuple(sorted({t.lstrip("#") for t in _as_names(meta.get("tags"))}))
    if isinstance(explicit, str) and explicit.strip():
        name = plain_text(explicit)
        entity_type = str(subject_type or DEFAULT_LINKED_TYPE)
        explicit_type = bool(subject_type)
    elif result.is_decision_record:
        name = _clean_name(_record_name(title))
        entity_type = DECISION_TYPE
        explicit_type = True
        stem = PurePosixPath(source.original_path or source.raw_path).stem
        if stem and stem.lower() != name.lower() and is_meaningful_name(stem):
            aliases.append(stem)
            result.record_key = stem
    else:
        name = _clean_name(title)
        entity_type = str(subject_type or SUBJECT_DOCUMENT_TYPE)
        explicit_type = bool(subject_type)
    if is_meaningful_name(name):
        ref = NameRef((name,), entity_type.strip().lower().replace(" ", "_"), title_line)
        result.subject = EntityFact(
            ref, tuple(a for a in aliases if is_meaningful_name(a)), tags, explicit_type
        )
    else:
        result.rejected_names.append(name)
        return result
    subject = result.subject.ref

    # Frontmatter `entities`.
    listed = meta.get("entities")
    items: list[tuple[str, str]] = []
    if isinstance(listed, Mapping):
        items = [(str(k), str(v or DEFAULT_LINKED_TYPE)) for k, v in listed.items()]
    elif isinstance(listed, list):
        for item in listed:
            if isinstance(item, Mapping) and item.get("name"):
                items.append((str(item["name"]), str(item.get("type") or DEFAULT_LINKED_TYPE)))
            elif isinstance(item, str):
                items.append((item, DEFAULT_LINKED_TYPE))
    for item_name, item_type in items:
        clean = _clean_name(plain_text(item_name))
        if not is_meaningful_name(clean):
            result.rejected_names.append(clean)
            continue
        explicit_item = item_type != DEFAULT_LINKED_TYPE
        target = NameRef((clean,), item_type.strip().lower().replace(" ", "_"), 1)
        result.entities.append(EntityFact(target, explicit_type=explicit_item))
        result.relations.append(RelationFact(subject, "mentions", target))

    # Decision records.
    if result.is_decision_record:
        _extract_record(result, status, decision, y_statement, structure, meta)

    # Lines: observations, relation lines, wiki links, prose for mentions, candidates.
    phrase_hits: dict[str, list[tuple[int, str]]] = {}
    code_hits: dict[str, list[tuple[int, str]]] = {}
    declared_relations = {
        number
        for section in sections
        if _section_key(section.title) in _RELATION_SECTIONS
        for number, _ in section.lines
    }
    for number, line in visible:
        observation = _OBSERVATION_RE.match(line)
        if observation:
            category = _category(observation.group("category"))
            obs_text = plain_text(observation.group("text"))
            if obs_text:
                result.observations.append(
                    ObservationFact(f"[{category}] {obs_text}", number, number)
                )
            for target in _WIKILINK_RE.findall(observation.group("text")):
                _link(result, subject, "mentions", target, number)
            continue
        relation = _RELATION_LINE_RE.match(line)
        if relation and not _is_relation_verb(relation.group("type"), number in declared_relations):
            relation = None  # "- The [[Memory Writer]] now ...": a first word is not a verb
        if relation:
            relation_type = _snake(relation.group("type"))
            target_name = relation.group("target")
            if relation_type in PASSIVE_RELATIONS:
                target = _named(target_name, DEFAULT_LINKED_TYPE, number)
                if target:
                    result.entities.append(EntityFact(target))
                    result.relations.append(
                        RelationFact(target, PASSIVE_RELATIONS[relation_type], subject)
                    )
            elif relation_type.endswith("_by") or not _RELATION_TYPE_RE.match(relation_type):
                result.candidates.append(
                    CandidateFact(
                        f"{relation_type} {target_name.strip()}",
                        "passive_relation",
                        number,
                        line.strip(),
                    )
                )
            else:
                _link(result, subject, relation_type, target_name, number)
            for extra in _WIKILINK_RE.findall(relation.group("rest")):
                _link(result, subject, "mentions", extra, number)
            continue
        for target in _WIKILINK_RE.findall(_CODE_SPAN_RE.sub(" ", line)):
            _link(result, subject, "mentions", target, number)
        stripped = line.strip()
        if not stripped:
            continue
        prose = plain_text(_CODE_SPAN_RE.sub(" ", stripped))
        if prose:
            result.prose.append((number, prose))
        for term in _CODE_SPAN_RE.findall(stripped):
            term = term.strip()
            if _CODE_TERM_RE.match(term) and not term.isdigit() and not _HEX_RE.match(term):
                code_hits.setdefault(term, []).append((number, stripped))
        if stripped.startswith(("#", "|", "<", "http")):
            continue
        for match in _CAP_PHRASE_RE.finditer(prose):
            if (
                prose[match.end() : match.end() + 1] in {".", "/", "@"}
                and prose[match.end() + 1 : match.end() + 2].isalnum()
            ):
                continue  # part of a dotted name or path (GOV.UK, Node.js), not a phrase
            phrase = _trim_phrase(match.group(0), prose, match.start())
            if phrase:
                phrase_hits.setdefault(phrase, []).append((number, stripped))
    for phrase, hits in phrase_hits.items():
        single = " " not in phrase and "-" not in phrase
        if len(hits) >= (3 if single else 2) and phrase.lower() != subject.display.lower():
            result.candidates.append(
                CandidateFact(
                    phrase, "capitalized_phrase", hits[0][0], _excerpt(hits[0][1]), len(hits)
                )
            )
    for term, hits in code_hits.items():
        result.candidates.append(
            CandidateFact(term, "code_term", hits[0][0], _excerpt(hits[0][1]), len(hits))
        )
    result.candidates.sort(key=lambda c: (c.kind, c.term.lower(), c.line))
    return result


def _excerpt(line: str) -> str:
    return _shorten(plain_text(line), 160)


def _trim_phrase(phrase: str, prose: str, start: int) -> str | None:
    words = phrase.replace("-", " - ").split()
    while words and words[0].lower() in _STOPWORDS:
        words.pop(0)
    while words and words[-1].lower() in _STOPWORDS:
        words.pop()
    text = " ".join(words).replace(" - ", "-")
    if not text or len(text) < 3 or text.lower() in _STOPWORDS:
        return None
    if " " not in text and "-" not in text:
        before = prose[:start].rstrip()
        at_sentence_start = not before or before[-1] in ".!?:;" or before.endswith(("- ", "*"))
        if at_sentence_start and not text.isupper():
            return None
    return text


def _is_relation_verb(written: str, in_relations_section: bool) -> bool:
    """A verb of the vocabulary (or its passive), a snake_case identifier (`stores_data_in`),
    or any verb in a Relations section; never the first word of a prose list item."""
    verb = _snake(written)
    return in_relations_section or verb in _KNOWN_VERBS or ("_" in written and verb == written)


def _category(written: str) -> str:
    """An observation's category: a known one in lower case, a bracketed name as written."""
    category = " ".join(written.split())
    return category.lower() if category.lower() in _OBSERVATION_CATEGORIES else category


def _named(name: str, entity_type: str, line: int) -> NameRef | None:
    clean = _clean_name(plain_text(name))
    if not is_meaningful_name(clean):
        return None
    return NameRef((clean,), entity_type, line)


def _link(
    result: Extraction, subject: NameRef, relation_type: str, target_name: str, line: int
) -> None:
    target = _named(target_name, DEFAULT_LINKED_TYPE, line)
    if target is None:
        result.rejected_names.append(target_name.strip())
        return
    if target.display.lower() == subject.display.lower():
        return
    result.entities.append(EntityFact(target))
    result.relations.append(RelationFact(subject, relation_type, target))


def _extract_record(
    result: Extraction,
    status: tuple[str, int, int] | None,
    decision: _Section | None,
    y_statement: tuple[str, int, int] | None,
    structure: _Structure,
    meta: Mapping[str, Any],
) -> None:
    """A decision record's status, date, decision and the record links it states."""
    status_text = status[0] if status else ""
    whole_superseded = status_text.lower().startswith("superseded") and not _PARTIAL_RE.search(
        status_text
    )
    result.record_superseded = whole_superseded
    if status:
        result.observations.append(
            ObservationFact(f"Status: {_shorten(status_text, 200)}", status[1], status[2], "status")
        )
    date = _record_date(meta, structure.sections, structure.visible, status)
    if date:
        result.observations.append(ObservationFact(f"Date: {date[0]}", date[1], date[1], "date"))
    found = y_statement
    if found is None and decision is not None:
        found = _decision_text(structure, decision)
    if found:
        text, start, end = found
        text = _shorten(text, MAX_DECISION_CHARS)
        result.observations.append(ObservationFact(f"Decision: {text}", start, end, "decision"))
    result.record_links = _record_links(result, status, whole_superseded, structure.visible)
    _decision_subjects(result, found)
    _decision_people(result, found, structure, meta)


_SUBJECT_NOTES = {USES: "Used", REPLACES: "Replaced", REJECTS: "Rejected"}
_PEOPLE_NOTES = {DECIDED_BY: "Decider", AUTHORED_BY: "Author", OWNED_BY: "Owner"}


def _decision_subjects(result: Extraction, decision: tuple[str, int, int] | None) -> None:
    """Technologies, services and systems the decision and its title name as its subject:
    entities related to the decision (uses / replaces / rejects), each with an observation and
    its lines (the decision's, else the title's)."""
    assert result.subject is not None
    subject = result.subject.ref
    found = [(item, decision[1], decision[2]) for item in decision_subjects(decision[0])] if (
        decision
    ) else []
    named = [item.name.lower() for item, _, _ in found]
    # The title adds what the decision does not name ("Use RDS instead of provisioned EC2"),
    # never another spelling of a name it does ("Mongo" beside "MongoDB", "Lunr" beside "Lunr.js").
    found += [
        (item, subject.line, subject.line)
        for item in decision_subjects(result.title)
        if not any(item.name.lower() in name or name in item.name.lower() for name in named)
    ]
    for item, start, end in found:
        target = _named(item.name, item.entity_type, start)
        if target is None or target.display.lower() == subject.display.lower():
            continue
        result.entities.append(EntityFact(target, explicit_type=True))
        result.relations.append(RelationFact(subject, item.relation_type, target))
        note = f'{_SUBJECT_NOTES[item.relation_type]} by the decision "{subject.display}"'
        result.entity_observations.append((target, ObservationFact(note, start, end, "subject")))


def _decision_people(
    result: Extraction,
    decision: tuple[str, int, int] | None,
    structure: _Structure,
    meta: Mapping[str, Any],
) -> None:
    """People and teams the record names as its deciders, authors or owners: entities the
    decision is decided_by / authored_by / owned_by, each with an observation and its line."""
    assert result.subject is not None
    subject = result.subject.ref
    visible = structure.visible
    found = unique(
        [
            *people_in_front_matter(meta, getattr(meta, "line_of", {})),
            *people_in_lines([*visible[:40], *visible[-12:]]),
            *(owners_in_text(*decision) if decision else []),
        ]
    )
    for person in found:
        target = _named(person.name, person.entity_type, person.line_start)
        if target is None or target.display.lower() == subject.display.lower():
            continue
        result.entities.append(EntityFact(target, explicit_type=True))
        result.relations.append(RelationFact(subject, person.relation_type, target))
        note = f'{_PEOPLE_NOTES[person.relation_type]} of the decision "{subject.display}"'
        result.entity_observations.append(
            (target, ObservationFact(note, person.line_start, person.line_end, "subject"))
        )


def _record_links(
    result: Extraction,
    status: tuple[str, int, int] | None,
    whole_superseded: bool,
    visible: list[tuple[int, str]],
) -> list[RecordLink]:
    """Every record reference of the record, first statement of each (type, target) kept."""
    own_stem = result.record_key or PurePosixPath(
        result.source.original_path or result.source.raw_path
    ).stem
    own_number = record_number(own_stem)
    links: list[RecordLink] = []
    seen: set[tuple[str, bool, str]] = set()
    for number, line in visible:
        in_status = bool(status and status[1] <= number <= status[2])
        # "These IP ranges have been superseded by ..." in the body of a record that is not
        # superseded as a whole: a partial supersession.
        partial_default = not whole_superseded and not in_status and not _WHOLE_RECORD_RE.search(
            line
        ) and not _STATUS_LINE_RE.match(line)
        found = links_in_line(
            line, number, own_stem=own_stem, own_number=own_number, partial_default=partial_default
        )
        if not found and in_status and status:
            title_link = status_title_link(
                plain_text(line), number, partial_default=bool(_PARTIAL_RE.search(status[0]))
            )
            found = [title_link] if title_link else []
        for link in found:
            key = (link.relation_type, link.incoming, (link.stem or link.text).lower())
            if key not in seen:
                seen.add(key)
                links.append(link)
    return links


# --------------------------------------------------------------------------- mentions


class MentionMatcher:
    """Registered names (and aliases) matched on word boundaries, case-insensitively.

    Names are split into word tokens; a text matches when the same token sequence occurs.
    Lookup is a dict probe per token position and name length: no regex over all names.
    """

    def __init__(self, names: Mapping[str, str], *, max_words: int = 12) -> None:
        # names: surface form -> canonical name
        self._by_tokens: dict[tuple[str, ...], str] = {}
        for surface, canonical in sorted(names.items()):
            tokens = tuple(_WORD_RE.findall(surface.lower()))
            if not tokens or len(tokens) > max_words:
                continue
            if len(tokens) == 1 and (
                len(tokens[0]) < 3 or tokens[0] in _STOPWORDS or tokens[0].isdigit()
            ):
                continue
            self._by_tokens.setdefault(tokens, canonical)
        # First word -> lengths of the names starting with it, longest first: most words start
        # no name, so most positions cost one set probe and no tuple.
        by_first: dict[str, set[int]] = {}
        for tokens in self._by_tokens:
            by_first.setdefault(tokens[0], set()).add(len(tokens))
        self._sizes_by_first = {word: sorted(sizes, reverse=True) for word, sizes in by_first.items()}

    def __bool__(self) -> bool:
        return bool(self._by_tokens)

    def find(self, text: str) -> list[str]:
        """Canonical names mentioned in `text`, longest match first at each position."""
        tokens = _WORD_RE.findall(text.lower())
        sizes_by_first, by_tokens, count = self._sizes_by_first, self._by_tokens, len(tokens)
        found: list[str] = []
        free = 0  # positions before this are inside a match already found
        for position in [i for i, token in enumerate(tokens) if token in sizes_by_first]:
            if position < free:
                continue
            for size in sizes_by_first[tokens[position]]:
                if position + size <= count:
                    canonical = by_tokens.get(tuple(tokens[position : position + size]))
                    if canonical is not None:
                        found.append(canonical)
                        free = position + size
                        break
        return found


def find_mentions(prose: Iterable[tuple[int, str]], matcher: MentionMatcher) -> dict[str, int]:
    """Canonical name -> first line it is mentioned on."""
    first: dict[str, int] = {}
    if not matcher:
        return first
    for number, text in prose:
        for canonical in matcher.find(text):
            first.setdefault(canonical, number)
    return first
