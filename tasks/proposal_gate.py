"""The proposal write gate: checks in a fixed order, and the page write an accepted proposal makes.

Nothing here writes. `gate_proposal` reads the memory only through a `MemoryView` (a read-only
snapshot plus what earlier proposals of the same batch wrote) and returns a `Verdict`: rejected
with the first failing code of REJECTION_CODES and the field at fault, a duplicate of what was
already adopted, or accepted with the `PagePlan` a single writer applies.

Sections are the `## ` headings of a page body (outside fenced code). A heading's anchor is its
explicit `{#anchor}` suffix or the slug of its text. Rewriting a section keeps what it said
before under the page's last section, `## Superseded`, quoted and linked: superseded, not erased.
"""

from __future__ import annotations

import hashlib
import posixpath
import re
from dataclasses import dataclass, replace
from pathlib import PurePosixPath
from typing import Any, Literal, Protocol

import orjson
from pydantic import ValidationError
from slugify import slugify

from schemas.page import TYPED_LINK_KEYS, MemoryBlock, PageFrontmatter
from schemas.proposal import Adoption, Placement, Proposal
from tasks.errors import AmbiguousNameError, MembankError
from tasks.jsonc import loads_jsonc
from tasks.markdown.fences import code_flags, has_open_fence
from tasks.names import is_ambiguous, slug_from_title
from tasks.pages import new_page_meta, plan_page_text, split_page

SUPERSEDED_ANCHOR = "superseded"
SUPERSEDED_HEADING = "## Superseded"
HAND_WRITTEN_SOURCE = "written before proposal intake; sections[] lists the proposed sections"
SUPERSEDED_INTRO = "What rewritten sections said before, kept so nothing is erased."
PROPOSAL_SUFFIXES = (".md", ".markdown", ".json", ".jsonc")
ASSET_URI_PREFIX = "prismer://asset/"

# Linear in the line length: no lazy text before a blank run, and a blank run is tried only
# from its first blank.
_HEADING_RE = re.compile(r"^##[ \t]++(?P<text>.*[^ \t])[ \t]*+$")
_EXPLICIT_ANCHOR_RE = re.compile(r"(?<![ \t])[ \t]*+\{#(?P<anchor>[A-Za-z0-9_-]+)\}$")
_TAG_RE = re.compile(r"<a\b(?P<attrs>[^<>]*)>", re.IGNORECASE)
_ATTR_RE = re.compile(r"(?<![\w-])(?P<name>[A-Za-z][\w-]*+)\s*+=\s*(?:\"(?P<dq>[^\"]*)\"|'(?P<sq>[^']*)')")
_SCHEME_RE = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")


# --------------------------------------------------------------------------- parsing


@dataclass(frozen=True)
class ProposalInput:
    """One proposal as read: its data, or why it could not be read, and its content digest."""

    name: str
    data: dict[str, Any] | None
    digest: str
    error: str | None = None


def canonical_digest(data: Any) -> str:
    """sha256 of the canonical JSON form: the markdown and JSON spellings hash alike."""
    raw = orjson.dumps(data, option=orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS, default=str)
    return "sha256:" + hashlib.sha256(raw).hexdigest()


def parse_proposal(raw: bytes, *, name: str) -> ProposalInput:
    """Parse a proposal file's bytes (markdown with frontmatter, or JSON); never raises."""
    byte_digest = "sha256:" + hashlib.sha256(raw).hexdigest()
    suffix = PurePosixPath(name).suffix.lower()
    if suffix not in PROPOSAL_SUFFIXES:
        return ProposalInput(
            name, None, byte_digest, f"not a proposal file: expected {', '.join(PROPOSAL_SUFFIXES)}"
        )
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        return ProposalInput(name, None, byte_digest, f"invalid UTF-8 at byte offset {exc.start}")
    try:
        if suffix in {".json", ".jsonc"}:
            data = loads_jsonc(text, file=name)
        else:
            if not text.startswith("---"):
                return ProposalInput(
                    name,
                    None,
                    byte_digest,
                    "no frontmatter: a proposal starts with a '---' YAML block",
                )
            page = split_page(text, file=name)
            if "body" in page.meta:
                return ProposalInput(
                    name,
                    None,
                    byte_digest,
                    "`body` is not a frontmatter key: the body follows the '---'",
                )
            data = {**page.meta, "body": page.body}
    except MembankError as exc:
        return ProposalInput(name, None, byte_digest, exc.cause)
    except (ValueError, RecursionError) as exc:  # json5 / yaml oddities beyond our wrappers
        return ProposalInput(name, None, byte_digest, f"cannot parse: {exc}")
    if not isinstance(data, dict):
        return ProposalInput(
            name,
            None,
            byte_digest,
            f"a proposal is a mapping of fields, not a {type(data).__name__}",
        )
    try:
        digest = canonical_digest(data)
    except (TypeError, orjson.JSONEncodeError):
        digest = byte_digest
    return ProposalInput(name, data, digest)


# --------------------------------------------------------------------------- sections


@dataclass(frozen=True)
class Section:
    anchor: str
    heading: str  # the whole heading line, e.g. "## Retry budget"
    content: str  # the text under it, without surrounding blank lines


@dataclass(frozen=True)
class SplitBody:
    preamble: str
    sections: tuple[Section, ...]

    def anchors(self) -> list[str]:
        return [s.anchor for s in self.sections]

    def find(self, anchor: str) -> Section | None:
        return next((s for s in self.sections if s.anchor == anchor), None)


def anchor_of(heading_text: str) -> str:
    """A heading's anchor: its explicit {#anchor} suffix, else the slug of its text."""
    explicit = _EXPLICIT_ANCHOR_RE.search(heading_text)
    if explicit:
        return explicit.group("anchor").lower()
    return slugify(heading_text.rstrip("#").strip())


def normalize_anchor(value: str) -> str:
    return value.strip().lstrip("#").strip().lower()


def split_sections(body: str) -> SplitBody:
    """Split a body on level-2 headings, never inside a fenced code block."""
    preamble: list[str] = []
    sections: list[tuple[str, str, list[str]]] = []
    used: set[str] = set()
    lines = body.split("\n")
    for line, in_code in code_flags(lines):
        heading = None if in_code else _HEADING_RE.match(line)
        if heading:
            base = anchor_of(heading.group("text")) or f"section-{len(sections) + 1}"
            anchor, n = base, 0
            while anchor in used:  # a repeated heading: GitHub's spelling, notes-1, notes-2
                n += 1
                anchor = f"{base}-{n}"
            used.add(anchor)
            sections.append((anchor, line.rstrip(), []))
        elif sections:
            sections[-1][2].append(line)
        else:
            preamble.append(line)
    return SplitBody(
        "\n".join(preamble).strip("\n"),
        tuple(Section(a, h, "\n".join(lines).strip("\n")) for a, h, lines in sections),
    )


def join_sections(split: SplitBody) -> str:
    parts = [split.preamble] if split.preamble else []
    for section in split.sections:
        parts.append(
            f"{section.heading}\n\n{section.content}" if section.content else section.heading
        )
    return "\n\n".join(parts) + "\n"


def _strip_title_line(preamble: str) -> tuple[str, str]:
    """(the H1 line or '', the rest) of a preamble."""
    lines = preamble.split("\n")
    if lines and lines[0].startswith("# "):
        return lines[0], "\n".join(lines[1:]).strip("\n")
    return "", preamble.strip("\n")


def _quote(text: str) -> str:
    return "\n".join(f"> {line}" if line.strip() else ">" for line in text.split("\n"))


@dataclass(frozen=True)
class SectionUpdate:
    anchor: str  # "" means the page's introduction (the text before the first section)
    heading: str
    content: str
    source: str


def superseded_entry(update: SectionUpdate, old: str, label: str, now_iso: str) -> str:
    where = (
        f"[the current section](#{update.anchor})" if update.anchor else "the current introduction"
    )
    return (
        f"### {label}, superseded {now_iso}\n\n"
        f"Replaced by {where}; the new text came from: {' '.join(update.source.split())}.\n\n"
        f"{_quote(old)}"
    )


def merge_sections(
    body: str, updates: list[SectionUpdate], *, now_iso: str
) -> tuple[str, list[str], int]:
    """Apply section updates to a page body.

    Returns (new body, anchors whose text changed, number of superseded records added).
    A section whose text is already the proposed text is left alone, so a replay is a no-op.
    """
    split = split_sections(body)
    preamble = split.preamble
    sections = [s for s in split.sections if s.anchor != SUPERSEDED_ANCHOR]
    superseded = split.find(SUPERSEDED_ANCHOR)
    records: list[str] = []
    touched: list[str] = []
    for update in updates:
        new_text = update.content.strip("\n")
        if not update.anchor:
            title_line, intro = _strip_title_line(preamble)
            if not new_text or new_text == intro:
                continue
            if intro:
                records.append(superseded_entry(update, intro, "Introduction", now_iso))
            preamble = "\n\n".join(part for part in (title_line, new_text) if part)
            touched.append("")
            continue
        index = next((i for i, s in enumerate(sections) if s.anchor == update.anchor), None)
        if index is None:
            sections.append(Section(update.anchor, update.heading, new_text))
            touched.append(update.anchor)
            continue
        old = sections[index]
        if old.content == new_text:
            continue
        if old.content:
            label = old.heading.lstrip("#").strip()
            records.append(superseded_entry(update, old.content, label, now_iso))
        sections[index] = Section(old.anchor, old.heading, new_text)
        touched.append(update.anchor)
    if not touched and not records:
        return body, [], 0
    if records:
        previous = superseded.content if superseded else SUPERSEDED_INTRO
        superseded = Section(
            SUPERSEDED_ANCHOR, SUPERSEDED_HEADING, "\n\n".join([previous, *records])
        )
    if superseded is not None:
        sections.append(superseded)
    return join_sections(SplitBody(preamble, tuple(sections))), touched, len(records)


# --------------------------------------------------------------------------- links


def asset_pointers(body: str) -> list[str]:
    """Asset ids of the body's <a rel="derived-from" href="prismer://asset/<id>"> pointers."""
    ids = []
    for rel, href in typed_anchor_links(body):
        if "derived-from" in rel.split() and href.startswith(ASSET_URI_PREFIX):
            ids.append(href[len(ASSET_URI_PREFIX) :].split("#")[0].split("/")[0])
    return ids


def typed_anchor_links(body: str) -> list[tuple[str, str]]:
    """(rel, href) of every <a rel=... href=...> in a body."""
    links = []
    for tag in _TAG_RE.finditer(body):
        attrs = {
            m.group("name").lower(): (m.group("dq") if m.group("dq") is not None else m.group("sq"))
            for m in _ATTR_RE.finditer(tag.group("attrs"))
        }
        if attrs.get("rel") and attrs.get("href") is not None:
            links.append((attrs["rel"].lower(), attrs["href"]))
    return links


def _as_link_list(value: object) -> list[object]:
    if value is None:
        return []
    if isinstance(value, (str, int, float)):
        return [value]
    return list(value) if isinstance(value, (list, tuple)) else [value]


def normalize_page_path(value: str) -> str:
    """One spelling of a root-relative path: `./a/../b/` is `b`; an escape keeps its `..`."""
    path = value.strip().replace("\\", "/")
    if not path:
        return ""
    normalized = posixpath.normpath(path)
    return "" if normalized == "." else normalized


def hub_page_path(value: str) -> str:
    """`wiki/synthesis` and `wiki/synthesis/` mean `wiki/synthesis/index.md`."""
    path = normalize_page_path(value)
    return path if path.endswith(".md") else f"{path}/index.md"


# --------------------------------------------------------------------------- the gate


class MemoryView(Protocol):
    """What the gate may read of the memory. Paths are root-relative posix strings."""

    def exists(self, path: str) -> bool: ...

    def text(self, path: str) -> str | None: ...

    def is_hub(self, path: str) -> bool: ...

    def hubs(self) -> list[str]: ...

    def page_with_slug(self, folder: str, slug: str) -> str | None: ...

    def raw_paths_of_asset(self, asset_id: str) -> set[str]: ...

    def adoption(self, digest: str, deliverable_key: str | None) -> Adoption | None: ...

    def page_of_asset(self, asset_id: str) -> str | None: ...


@dataclass(frozen=True)
class PagePlan:
    """The page write an accepted proposal makes (text None: the page already says this)."""

    path: str
    meta: dict[str, Any]
    body: str
    text: str | None
    size: int
    created: bool
    merged: bool  # a new leaf that extended an existing page on the same topic
    hub: str | None  # the hub a created page is registered under
    anchors: tuple[str, ...] = ()
    superseded: int = 0


Outcome = Literal["accepted", "rejected", "duplicate"]


@dataclass(frozen=True)
class Verdict:
    name: str
    outcome: Outcome
    digest: str
    code: str | None = None
    field: str | None = None
    message: str = ""
    hint: str | None = None
    proposal: Proposal | None = None
    plan: PagePlan | None = None
    adoption: Adoption | None = None


class _Reject(Exception):
    def __init__(self, code: str, field: str | None, message: str, hint: str | None = None):
        super().__init__(message)
        self.code, self.field, self.message, self.hint = code, field, message, hint


_HINTS = {
    "evolution_metadata_required": "add memory: {memoryRole: knowledge|procedure|action_result, "
    "source: <where this came from>} at the top level (not under extra), and the same two keys "
    "on every memory.sections[] entry; fix that field and resubmit",
    "placement_required": "name where it goes: placement {kind: new_leaf, hub: <one of the hubs>} "
    "or {kind: extend_section|append_section, page: <existing page>, section: <anchor>}",
    "deliverable_pointer_missing": "a page from a deliverable carries deliverableSource {assetId, "
    'contentHash, sizeBytes} and exactly one <a rel="derived-from" '
    'href="prismer://asset/<assetId>"> pointer (or a derived_from link to its raw file)',
    "sharding_required": "split it: propose the parts as sections or ingest the source so it is "
    "sharded into an index page plus shard pages",
    "dead_link": "copy link targets verbatim from existing root-relative paths",
    "invalid_frontmatter": "fix the named field; the contract is schemas/proposal.py",
    "ambiguous_name": "choose an intention-revealing name (dependencyRelation, not item)",
    "duplicate": "nothing to do: it is already in the memory",
}


def _field_name(loc: tuple[int | str, ...]) -> str:
    text = ""
    for part in loc:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    return text or "(top level)"


def _errors_under(errors: list[Any], key: str) -> list[Any]:
    return [e for e in errors if e["loc"] and e["loc"][0] == key]


def _first_error(errors: list[Any], code: str) -> _Reject:
    error = errors[0]
    where = _field_name(tuple(error["loc"]))
    return _Reject(code, where, f"field '{where}': {error['msg']}")


def _check_memory(data: dict[str, Any], errors: list[Any]) -> MemoryBlock:
    if "memory" not in data or data["memory"] is None:
        extra = data.get("extra")
        if isinstance(extra, dict) and "memory" in extra:
            raise _Reject(
                "evolution_metadata_required",
                "memory",
                "field 'memory' is nested under 'extra', where it reads as no block at "
                "all; write memory as a top-level key",
            )
        raise _Reject(
            "evolution_metadata_required",
            "memory",
            "field 'memory' is missing: a proposal declares memory: {memoryRole, source}",
        )
    memory_errors = _errors_under(errors, "memory")
    if memory_errors:
        raise _first_error(memory_errors, "evolution_metadata_required")
    memory = MemoryBlock.model_validate(data["memory"])
    seen: set[str] = set()
    for i, section in enumerate(memory.sections):
        anchor = normalize_anchor(section.anchor)
        if anchor in seen:
            raise _Reject(
                "evolution_metadata_required",
                f"memory.sections[{i}].anchor",
                f"field 'memory.sections[{i}].anchor': {anchor!r} is declared twice",
            )
        seen.add(anchor)
    return memory


def _hub_list(view: MemoryView, data: dict[str, Any] | None = None) -> str:
    hubs = view.hubs()
    listed = ", ".join(hubs) if hubs else "none (run `membank init`)"
    return listed + _nearby(view, data)


def _nearby(view: MemoryView, data: dict[str, Any] | None) -> str:
    """'; nearest pages: ...; hubs that fit: ...' for the proposal's topic, when the view has
    the search index's matcher (optional: a view without it gives plain messages)."""
    suggest = getattr(view, "topic_suggestions", None)
    if suggest is None or not isinstance(data, dict):
        return ""
    topic = " ".join(str(data.get(k) or "") for k in ("title", "description")).strip()
    found = suggest(topic) if topic else ""
    return f"; {found}" if found else ""


def _check_placement(data: dict[str, Any], errors: list[Any], view: MemoryView) -> Placement:
    raw = data.get("placement")
    if raw is None:
        raise _Reject(
            "placement_required",
            "placement",
            f"field 'placement' is missing: a proposal names where it goes; existing "
            f"hubs: {_hub_list(view, data)}",
        )
    placement_errors = _errors_under(errors, "placement")
    if placement_errors:
        kind = raw.get("kind") if isinstance(raw, dict) else None
        leaf = kind is None or kind in ("new_leaf", "new-leaf")
        reject = _first_error(placement_errors, "placement_required")
        if leaf:
            reject.message += f"; existing hubs: {_hub_list(view, data)}"
        raise reject
    placement = Placement.model_validate(raw)
    if placement.kind == "new_leaf":
        hub = hub_page_path(placement.hub or "")
        if not view.is_hub(hub):
            raise _Reject(
                "placement_required",
                "placement.hub",
                f"field 'placement.hub': {placement.hub!r} is not an existing hub page; "
                f"existing hubs: {_hub_list(view, data)}",
            )
        return placement
    page = normalize_page_path(placement.page or "")
    anchor = normalize_anchor(placement.section or "")
    if not page.startswith("wiki/") or not page.endswith(".md"):
        raise _Reject(
            "placement_required",
            "placement.page",
            f"field 'placement.page': {placement.page!r} is not a wiki page "
            "(proposals extend pages under wiki/)",
        )
    if PurePosixPath(page).name == "index.md":
        raise _Reject(
            "placement_required",
            "placement.page",
            f"field 'placement.page': {page!r} is a folder hub, regenerated from its children; "
            "extend a leaf page, or add a new_leaf under this hub",
        )
    text = view.text(page)
    if text is None:
        raise _Reject(
            "placement_required",
            "placement.page",
            f"field 'placement.page': page {page!r} does not exist; to add a page use "
            f"kind new_leaf with one of the hubs: {_hub_list(view, data)}",
        )
    try:
        existing = split_page(text, file=page)
    except MembankError as exc:
        raise _Reject(
            "placement_required",
            "placement.page",
            f"field 'placement.page': page {page!r} cannot be extended: {exc.cause}",
        ) from exc
    if not anchor or anchor == SUPERSEDED_ANCHOR:
        raise _Reject(
            "placement_required",
            "placement.section",
            f"field 'placement.section': {placement.section!r} cannot be written "
            f"('{SUPERSEDED_ANCHOR}' keeps the record of rewritten sections)",
        )
    anchors = [a for a in split_sections(existing.body).anchors() if a != SUPERSEDED_ANCHOR]
    if placement.kind == "extend_section" and anchor not in anchors:
        raise _Reject(
            "placement_required",
            "placement.section",
            f"field 'placement.section': page {page!r} has no section {anchor!r}; its "
            f"sections: {', '.join(anchors) or 'none'} (use append_section to add one)",
        )
    return placement.model_copy(update={"page": page, "section": anchor})


def _check_deliverable(data: dict[str, Any], errors: list[Any], view: MemoryView) -> None:
    pointers = asset_pointers(_text_field(data, "body"))
    raw = data.get("deliverableSource")
    if raw is None:
        if pointers:
            raise _Reject(
                "deliverable_pointer_missing",
                "deliverableSource",
                f"field 'deliverableSource' is missing but the body points at asset "
                f"{pointers[0]!r}: declare {{assetId, contentHash, sizeBytes}}",
            )
        return
    deliverable_errors = _errors_under(errors, "deliverableSource")
    if deliverable_errors:
        raise _first_error(deliverable_errors, "deliverable_pointer_missing")
    asset_id = str(raw["assetId"])
    if len(pointers) > 1:
        raise _Reject(
            "deliverable_pointer_missing",
            "body",
            f"field 'body' carries {len(pointers)} derived-from asset pointers; exactly "
            "one is allowed",
        )
    if pointers and pointers[0] != asset_id:
        raise _Reject(
            "deliverable_pointer_missing",
            "body",
            f"field 'body' points at asset {pointers[0]!r} but deliverableSource.assetId "
            f"is {asset_id!r}",
        )
    if not pointers:
        linked = {normalize_page_path(str(x)) for x in _as_link_list(data.get("derived_from"))}
        if not linked & view.raw_paths_of_asset(asset_id):
            raise _Reject(
                "deliverable_pointer_missing",
                "body",
                f'field \'body\' has no <a rel="derived-from" href="{ASSET_URI_PREFIX}'
                f'{asset_id}"> pointer and derived_from names no raw file of that asset',
            )


def _text_field(data: dict[str, Any], key: str, default: str = "") -> str:
    value = data.get(key)
    return value if isinstance(value, str) else default


def link_path(key: str, value: str) -> str:
    """A typed link's one spelling; a child_of naming a hub folder means its index.md."""
    path = normalize_page_path(value)
    if key == "child_of" and path.startswith("wiki/") and not path.endswith(".md"):
        return hub_page_path(path)
    return path


def _links_of(data: dict[str, Any]) -> dict[str, list[str]]:
    return {
        key: [link_path(key, v) for v in _as_link_list(data.get(key)) if isinstance(v, str)]
        for key in TYPED_LINK_KEYS
    }


def _check_links(data: dict[str, Any], plan: PagePlan, view: MemoryView) -> None:
    for key in TYPED_LINK_KEYS:
        for i, value in enumerate(_as_link_list(data.get(key))):
            if not isinstance(value, str):
                continue  # not a path at all: invalid_frontmatter says so
            where = f"{key}[{i}]"
            path = link_path(key, value)
            if _SCHEME_RE.match(path) or path.startswith("/") or ".." in PurePosixPath(path).parts:
                raise _Reject(
                    "dead_link",
                    where,
                    f"field '{where}': {value!r} is not a root-relative path inside the "
                    'memory (asset pointers go in the body as <a rel="derived-from">)',
                )
            if not view.exists(path):
                raise _Reject(
                    "dead_link", where, f"field '{where}': {value!r} does not exist in the memory"
                )
    folder = PurePosixPath(plan.path).parent
    body = _text_field(data, "body")
    for rel, href in typed_anchor_links(body):
        target = href.split("#")[0]
        if not target or _SCHEME_RE.match(target):
            continue
        resolved: list[str] = []
        for part in (folder / target).parts:
            if part == "..":
                if not resolved:
                    raise _Reject(
                        "dead_link",
                        "body",
                        f'field \'body\': <a rel="{rel}" href="{href}"> leaves the memory',
                    )
                resolved.pop()
            elif part != ".":
                resolved.append(part)
        if not view.exists("/".join(resolved)):
            raise _Reject(
                "dead_link",
                "body",
                f'field \'body\': <a rel="{rel}" href="{href}"> points at a page that '
                "does not exist",
            )


def _check_frontmatter(errors: list[Any], data: dict[str, Any]) -> None:
    rest = [
        e
        for e in errors
        if not e["loc"] or e["loc"][0] not in {"memory", "placement", "deliverableSource"}
    ]
    if rest:
        raise _first_error(rest, "invalid_frontmatter")
    if has_open_fence(data["body"]):
        raise _Reject(
            "invalid_frontmatter",
            "body",
            "field 'body': a fenced code block is never closed; close it so the page's sections "
            "stay readable",
        )
    split = split_sections(data["body"])
    if Placement.model_validate(data["placement"]).kind == "new_leaf":
        anchors = split.anchors()
        if SUPERSEDED_ANCHOR in anchors:
            raise _Reject(
                "invalid_frontmatter",
                "body",
                f"field 'body': section anchor '{SUPERSEDED_ANCHOR}' is reserved for the "
                "record of rewritten sections",
            )
    elif len(split.sections) > 1 or (split.sections and split.preamble.strip()):
        raise _Reject(
            "invalid_frontmatter",
            "body",
            "field 'body': a section proposal is the text of one section; it may start "
            "with that section's '## ' heading but holds no other level-2 heading "
            "(use '###', or propose a new_leaf)",
        )


def _check_names(proposal: Proposal) -> None:
    try:
        slug_from_title(proposal.title)
    except AmbiguousNameError as exc:
        raise _Reject("ambiguous_name", "title", f"field 'title': {exc.cause}") from exc
    section = proposal.placement.section
    if proposal.placement.kind == "append_section" and section and is_ambiguous(section):
        raise _Reject(
            "ambiguous_name",
            "placement.section",
            f"field 'placement.section': anchor {section!r} is ambiguous",
        )


def _check_duplicate(proposal: Proposal, digest: str, view: MemoryView) -> Adoption | None:
    key = proposal.deliverableSource.key if proposal.deliverableSource else None
    return view.adoption(digest, key)


def _check_section_anchors(memory: MemoryBlock, data: dict[str, Any], placement: Placement) -> None:
    """Per-section entries must name sections the proposal actually writes."""
    if not memory.sections:
        return
    if placement.kind == "new_leaf":
        body = _text_field(data, "body")
        written = set(split_sections(body).anchors())
    else:
        written = {normalize_anchor(placement.section or "")}
    for i, section in enumerate(memory.sections):
        if normalize_anchor(section.anchor) not in written:
            raise _Reject(
                "evolution_metadata_required",
                f"memory.sections[{i}].anchor",
                f"field 'memory.sections[{i}].anchor': the proposal writes no section "
                f"{section.anchor!r}; its sections: {', '.join(sorted(written)) or 'none'}",
            )


@dataclass(frozen=True)
class _Content:
    """What a plan needs, from a validated proposal or leniently from raw data."""

    title: str
    description: str
    type: str
    body: str
    links: dict[str, list[str]]
    pkf_version: str | None


def _lenient_content(data: dict[str, Any]) -> _Content:
    return _Content(
        _text_field(data, "title", "untitled proposal"),
        _text_field(data, "description"),
        _text_field(data, "type", "note"),
        _text_field(data, "body"),
        _links_of(data),
        data.get("pkfVersion") if isinstance(data.get("pkfVersion"), str) else None,
    )


def _proposal_content(proposal: Proposal) -> _Content:
    links = {key: [link_path(key, v) for v in getattr(proposal, key)] for key in TYPED_LINK_KEYS}
    return _Content(
        proposal.title,
        proposal.description,
        proposal.type,
        proposal.body,
        links,
        proposal.pkfVersion,
    )


def _section_source(memory: MemoryBlock, anchor: str) -> tuple[str, str]:
    for entry in memory.sections:
        if normalize_anchor(entry.anchor) == anchor:
            return entry.memoryRole.value, entry.source
    return memory.memoryRole.value, memory.source


def _memory_dict(memory: MemoryBlock) -> dict[str, Any]:
    """The block as a new page carries it, with section anchors in their one spelling."""
    block = memory.model_dump(mode="json", exclude_none=True)
    for entry in block.get("sections", []):
        entry["anchor"] = normalize_anchor(entry["anchor"])
    return block


def _merge_memory(existing: object, memory: MemoryBlock, anchors: list[str]) -> dict[str, Any]:
    """The page's memory block after a proposal rewrote `anchors` of it."""
    block = dict(existing) if isinstance(existing, dict) else {}
    if not block.get("memoryRole") or not block.get("source"):
        # A page written by hand gets a block that says so; its proposed sections are listed.
        block["memoryRole"] = memory.memoryRole.value
        block["source"] = HAND_WRITTEN_SOURCE
    sections = [dict(s) for s in block.get("sections") or [] if isinstance(s, dict)]
    for anchor in anchors:
        if not anchor:
            continue
        role, source = _section_source(memory, anchor)
        entry = {"anchor": anchor, "memoryRole": role, "source": source}
        index = next((i for i, s in enumerate(sections) if s.get("anchor") == anchor), None)
        if index is not None:
            sections[index] = entry
        elif (role, source) != (block["memoryRole"], block["source"]):
            sections.append(entry)
    block["sections"] = sections
    if not sections:
        block.pop("sections")
    return block


def _merge_links(meta: dict[str, Any], links: dict[str, list[str]]) -> None:
    for key, values in links.items():
        current = [str(v) for v in _as_link_list(meta.get(key))]
        for value in values:
            if value not in current:
                current.append(value)
        if current:
            meta[key] = current


def _extend_plan(
    path: str,
    text: str,
    updates: list[SectionUpdate],
    memory: MemoryBlock,
    content: _Content,
    *,
    now_iso: str,
    merged: bool,
) -> PagePlan:
    page = split_page(text, file=path)
    if has_open_fence(page.body):
        raise _Reject(
            "placement_required",
            "placement.page",
            f"page {path!r} has a code fence that is never closed, so its sections cannot be "
            "told apart; close the fence in the page, or propose a new leaf",
        )
    body, touched, superseded = merge_sections(page.body, updates, now_iso=now_iso)
    meta = dict(page.meta)
    if touched:
        meta["memory"] = _merge_memory(meta.get("memory"), memory, touched)
        _merge_links(meta, {k: v for k, v in content.links.items() if k != "child_of"})
    new_text = plan_page_text(text, meta, body, now_iso=now_iso, file=path)
    return PagePlan(
        path,
        meta,
        body,
        new_text,
        len(new_text or text),
        created=False,
        merged=merged,
        hub=None,
        anchors=tuple(touched),
        superseded=superseded,
    )


def _leaf_updates(content: _Content, memory: MemoryBlock) -> list[SectionUpdate]:
    split = split_sections(content.body)
    _title, intro = _strip_title_line(split.preamble)
    updates = [SectionUpdate("", "", intro, memory.source)]
    for section in split.sections:
        updates.append(
            SectionUpdate(
                section.anchor,
                section.heading,
                section.content,
                _section_source(memory, section.anchor)[1],
            )
        )
    return updates


def _slug(title: str) -> str:
    try:
        return slug_from_title(title)
    except AmbiguousNameError:
        return "untitled-proposal"


def plan_page(
    view: MemoryView,
    placement: Placement,
    memory: MemoryBlock,
    content: _Content,
    *,
    now_iso: str,
    prefix: str,
    asset_id: str | None = None,
) -> PagePlan:
    """The page write of a proposal whose placement was checked.

    A new leaf extends, rather than forks: the page adopted from an earlier revision of the same
    deliverable, else the page with the same slug under the hub.
    """
    if placement.kind != "new_leaf":
        path = normalize_page_path(placement.page or "")
        anchor = normalize_anchor(placement.section or "")
        text = view.text(path) or ""
        lines = content.body.strip("\n").split("\n")
        first = _HEADING_RE.match(lines[0])
        own_heading = None
        if first and anchor_of(first.group("text")) == anchor:
            own_heading = _EXPLICIT_ANCHOR_RE.sub("", first.group("text")).strip()
            lines = lines[1:]
        section_text = "\n".join(lines).strip("\n")
        heading_text = (placement.heading or own_heading or content.title).strip() or anchor
        heading = f"## {heading_text}"
        if anchor_of(heading_text) != anchor:
            heading += f" {{#{anchor}}}"
        update = SectionUpdate(anchor, heading, section_text, _section_source(memory, anchor)[1])
        return _extend_plan(path, text, [update], memory, content, now_iso=now_iso, merged=False)

    hub = hub_page_path(placement.hub or "")
    folder = PurePosixPath(hub).parent.as_posix()
    slug = _slug(content.title)
    prior = view.page_of_asset(asset_id) if asset_id else None
    existing = prior if prior and view.exists(prior) else view.page_with_slug(folder, slug)
    topic_page = getattr(view, "topic_page", None)
    if existing is None and topic_page is not None:  # same topic, other wording: extend it
        existing = topic_page(folder, content.title, content.description)
    if existing is not None:
        text = view.text(existing) or ""
        plan = _extend_plan(
            existing,
            text,
            _leaf_updates(content, memory),
            memory,
            content,
            now_iso=now_iso,
            merged=True,
        )
        # The page stays listed by its own hub (a rerun after a crash heals a missing entry).
        parents = [str(p) for p in _as_link_list(plan.meta.get("child_of"))]
        return replace(plan, hub=next((p for p in parents if view.is_hub(p)), None))
    path = f"{folder}/{prefix}__{slug}.md"
    child_of = [hub, *(link for link in content.links["child_of"] if link != hub)]
    meta = new_page_meta(
        now_iso,
        prefix=prefix,
        type=content.type,
        title=content.title,
        description=content.description,
        child_of=child_of,
        derived_from=content.links["derived_from"],
        supersedes=content.links["supersedes"],
        superseded_by=content.links["superseded_by"],
        memory=_memory_dict(memory),
    )
    if content.pkf_version:
        meta["pkfVersion"] = content.pkf_version
    body = content.body.strip("\n")
    if not body.startswith("# "):
        body = f"# {content.title}\n\n{body}"
    body += "\n"
    text = plan_page_text(None, meta, body, now_iso=now_iso, file=path) or ""
    return PagePlan(
        path,
        meta,
        body,
        text,
        len(text),
        created=True,
        merged=False,
        hub=hub,
        anchors=tuple(split_sections(body).anchors()),
    )


def gate_proposal(
    item: ProposalInput, view: MemoryView, *, now_iso: str, prefix: str, page_limit_chars: int
) -> Verdict:
    """Check one proposal in the fixed order; the first failure is the verdict."""
    try:
        if item.data is None:
            raise _Reject(
                "invalid_frontmatter", "frontmatter", f"cannot read the proposal: {item.error}"
            )
        data = item.data
        try:
            Proposal.model_validate(data)
            errors: list[Any] = []
        except ValidationError as exc:
            errors = exc.errors(include_url=False)
        memory = _check_memory(data, errors)
        placement = _check_placement(data, errors, view)
        _check_section_anchors(memory, data, placement)
        _check_deliverable(data, errors, view)
        # A proposal that validated is planned once; otherwise a lenient plan sizes it and
        # resolves its links, and the verdict is a rejection at invalid_frontmatter at the latest.
        valid = None if errors else Proposal.model_validate(data)
        content = _proposal_content(valid) if valid else _lenient_content(data)
        deliverable = data.get("deliverableSource")
        asset_id = deliverable.get("assetId") if isinstance(deliverable, dict) else None
        rough = plan_page(
            view,
            placement,
            memory,
            content,
            now_iso=now_iso,
            prefix=prefix,
            asset_id=asset_id if isinstance(asset_id, str) else None,
        )
        if rough.size > page_limit_chars:
            # No clock-made name in the message: a replayed rejection is byte-identical.
            what = f"a new leaf under {rough.hub}" if rough.created else f"page {rough.path}"
            raise _Reject(
                "sharding_required",
                "body",
                f"field 'body': {what} would be {rough.size:,} characters, "
                f"over the {page_limit_chars:,} limit of one page",
            )
        _check_links(data, rough, view)
        _check_frontmatter(errors, data)
        proposal = (valid or Proposal.model_validate(data)).model_copy(
            update={"placement": placement}
        )
        _check_names(proposal)
        adoption = _check_duplicate(proposal, item.digest, view)
        if adoption is not None:
            what = (
                f"deliverable {proposal.deliverableSource.assetId}"
                if proposal.deliverableSource and adoption.deliverable_key
                else "this proposal"
            )
            return Verdict(
                item.name,
                "duplicate",
                item.digest,
                code="duplicate",
                field="deliverableSource" if proposal.deliverableSource else None,
                message=f"{what} was already adopted into {adoption.page} at "
                f"{adoption.adoptedAtUtc} (dedupe hit, not a new revision){_nearby(view, data)}",
                hint=_HINTS["duplicate"],
                proposal=proposal,
                adoption=adoption,
            )
        plan = rough
        if plan.text is not None:
            # Belt and braces: what we would write must itself pass the page contract.
            PageFrontmatter.model_validate(plan.meta)
        return Verdict(item.name, "accepted", item.digest, proposal=proposal, plan=plan)
    except _Reject as reject:
        return Verdict(
            item.name,
            "rejected",
            item.digest,
            code=reject.code,
            field=reject.field,
            message=reject.message,
            hint=reject.hint or _HINTS[reject.code],
        )
    except ValidationError as exc:  # the merged page would break the page contract
        return Verdict(
            item.name,
            "rejected",
            item.digest,
            code="invalid_frontmatter",
            field="frontmatter",
            message=f"the resulting page is invalid: {exc.errors(include_url=False)[0]['msg']}",
            hint=_HINTS["invalid_frontmatter"],
        )


__all__ = [
    "PagePlan",
    "ProposalInput",
    "Section",
    "SplitBody",
    "Verdict",
    "anchor_of",
    "asset_pointers",
    "canonical_digest",
    "gate_proposal",
    "hub_page_path",
    "merge_sections",
    "parse_proposal",
    "plan_page",
    "split_sections",
]
