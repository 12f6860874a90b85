"""MemoryCustodian trees (spec/memory-custodian.md): parse manifest.md, subjects.md and the
entry files into schemas.stores models. Structure comes from markdown-it-py block tokens.

An entry is an H2 unit headed by its Entry ID:

    ## MC-DEC-20260728-a1b2c3d4 — Support Python 3.10+
    Status: active            fields: `Key: value` lines
    Evidence:                 a bare `Key:` labels the list or paragraph after it
    - repo:pyproject.toml
    Decision:
    Support Python 3.10+.

`parse_units` / `parse_entries` / `parse_subjects` / `parse_manifest` /
`parse_reconciliations` are pure (text in); `read_custodian` reads a tree once and never writes.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path

from markdown_it import MarkdownIt
from markdown_it.token import Token

from schemas.stores import (
    MC_AGENT_FILES,
    MC_ENTRY_ID_RE,
    MC_ENTRY_KINDS,
    MC_REC_ID_RE,
    MC_RESOLUTIONS,
    MC_SUBJECT_ID_RE,
    McBudget,
    McEntry,
    McManifest,
    McModule,
    McReconciliation,
    McRoute,
    McSubject,
    StoreFinding,
)
from tasks.markdown.code_spans import code_spans
from tasks.markdown.parser import block_parser
from tasks.memstores.findings import store_finding
from tasks.memstores.store_names import MANIFEST

SUBJECTS = "subjects.md"
RECONCILIATIONS = "reconciliations.md"
INBOX = "inbox.md"
ARCHIVE_DIR = "archive"
ENTRY_FOLDERS = ("areas", "rules", "profiles", ARCHIVE_DIR)
NOT_ENTRY_FILES = frozenset({MANIFEST, SUBJECTS, RECONCILIATIONS})

# The value runs to its last non-blank (greedy, then one step back): a lazy value before
# "\s*$" would retry every split of a long blank run, quadratic in the line length.
_FIELD_RE = re.compile(r"^(?P<key>[A-Z][A-Za-z]*(?:-[A-Za-z]+)*):(?:\s++(?P<value>\S(?:.*\S)?))?\s*$")
_UNIT_HEADING_RE = re.compile(r"^(?P<id>MC-\S+?)\s+[—–-]+\s+(?P<title>\S.*)$")
_LOOKS_LIKE_ID_RE = re.compile(r"^MC-[A-Za-z]+-")
_BUDGET_RE = re.compile(r"^(?P<pattern>[\w./*-]+):\s*(?P<tokens>\d+)\s+tokens\b", re.I)
_LIST_SPLIT_RE = re.compile(r"[,\s]+")
# Fields whose value is on the same line; a bare known label still opens a list/section.
KNOWN_FIELDS = frozenset({
    "Status", "Scope", "Subject", "Facet", "Supersedes", "Superseded-By", "Candidate-Type",
    "Kind", "Canonical-Ref", "Topic", "Date", "Updated", "Reviewed", "Entry-Type",
    "Promoted-To", "Promoted-From", "Exception-To",
})
# Subjects and reconciliation records have fields of their own (read only in their files).
SUBJECT_FIELDS = KNOWN_FIELDS | {"Merged-Into"}
RECONCILIATION_FIELDS = KNOWN_FIELDS | {"Resolution"}


def _markdown() -> MarkdownIt:
    # Block structure is all we need; raw HTML is text here, GFM tables are not parsed.
    return block_parser(html=False, tables=False)


@dataclass
class Unit:
    """An H2 unit: its heading, fields, labelled lists and labelled prose."""

    heading: str
    line: int
    line_end: int
    fields: dict[str, str] = field(default_factory=dict)
    field_lines: dict[str, int] = field(default_factory=dict)
    lists: dict[str, list[str]] = field(default_factory=dict)
    sections: dict[str, list[str]] = field(default_factory=dict)


@dataclass
class _Walk:
    known: frozenset[str] = KNOWN_FIELDS
    units: list[Unit] = field(default_factory=list)
    label: str = "body"
    in_list: int = 0


def _prose_line(walk: _Walk, unit: Unit, text: str, number: int) -> None:
    match = _FIELD_RE.match(text)
    if match and (match.group("key") in walk.known or match.group("value") is None):
        key, value = match.group("key"), match.group("value")
        if value is None:
            walk.label = key
            unit.field_lines.setdefault(key, number)
        else:
            unit.fields.setdefault(key, value)
            unit.field_lines.setdefault(key, number)
        return
    unit.sections.setdefault(walk.label, []).append(text)


def parse_units(text: str, known: frozenset[str] = KNOWN_FIELDS) -> list[Unit]:
    """Every H2 unit of a markdown file (units are closed by the next H1 or H2); `known` are
    the fields read with a value on their line."""
    tokens = _markdown().parse(text)
    walk = _Walk(known)
    unit: Unit | None = None
    for index, token in enumerate(tokens):
        if token.type == "heading_open" and token.tag in ("h1", "h2"):
            unit = None
            if token.tag == "h2" and token.map:
                title = tokens[index + 1].content.strip()
                unit = Unit(title, token.map[0] + 1, token.map[1])
                walk.units.append(unit)
                walk.label = "body"
            continue
        if unit is None:
            continue
        if token.map:
            unit.line_end = max(unit.line_end, token.map[1])
        _walk_token(walk, unit, tokens, index, token)
    return walk.units


def _walk_token(walk: _Walk, unit: Unit, tokens: list[Token], index: int, token: Token) -> None:
    if token.type in ("bullet_list_open", "ordered_list_open"):
        walk.in_list += 1
    elif token.type in ("bullet_list_close", "ordered_list_close"):
        walk.in_list -= 1
    elif token.type == "inline" and token.map and tokens[index - 1].type == "paragraph_open":
        lines = token.content.split("\n")
        start = 0
        if walk.in_list:  # a field line right after an item is glued to it (lazy continuation)
            start = 1
            while start < len(lines) and not _FIELD_RE.match(lines[start].strip()):
                start += 1
            item = " ".join(s.strip() for s in lines[:start])
            unit.lists.setdefault(walk.label, []).append(item)
        for offset in range(start, len(lines)):
            _prose_line(walk, unit, lines[offset].strip(), token.map[0] + 1 + offset)
    elif token.type in ("fence", "code_block"):
        unit.sections.setdefault(walk.label, []).append(token.content.rstrip("\n"))
    elif token.type == "heading_open" and token.map:  # h3+ inside a unit: prose of its label
        unit.sections.setdefault(walk.label, []).append(tokens[index + 1].content.strip())


def _id_date(text: str) -> date | None:
    try:
        return date(int(text[:4]), int(text[4:6]), int(text[6:8]))
    except ValueError:
        return None


def _ids(value: str | None) -> list[str]:
    return [part for part in _LIST_SPLIT_RE.split(value or "") if part]


def entry_from_unit(rel: str, unit: Unit) -> McEntry | StoreFinding | None:
    """An entry, an invalid-ID finding for an MC- heading that is not an Entry ID, or None
    for other headings (legacy freeform units, section titles)."""
    match = _UNIT_HEADING_RE.match(unit.heading)
    if match is None:
        if _LOOKS_LIKE_ID_RE.match(unit.heading):
            return store_finding("mc_invalid_entry_id", rel, unit.line,
                                 f"heading {unit.heading!r} has no valid Entry ID and title")
        return None
    entry_id = match.group("id")
    parsed = MC_ENTRY_ID_RE.match(entry_id)
    if parsed is None or parsed.group("kind") not in MC_ENTRY_KINDS:
        if MC_SUBJECT_ID_RE.match(entry_id):
            return None  # a Subject, read by parse_subjects
        return store_finding("mc_invalid_entry_id", rel, unit.line,
                             f"{entry_id!r} is not an Entry ID (MC-TYPE-YYYYMMDD-8hex)")
    fields = unit.fields
    return McEntry(
        entry_id=entry_id, kind=parsed.group("kind"), title=match.group("title").strip(),
        file=rel, line=unit.line, line_end=unit.line_end, id_date=_id_date(parsed.group("date")),
        status=fields.get("Status"), scope=fields.get("Scope"), subject=fields.get("Subject"),
        facet=fields.get("Facet"), evidence=unit.lists.get("Evidence", []),
        supersedes=_ids(fields.get("Supersedes")), superseded_by=fields.get("Superseded-By"),
        topic=fields.get("Topic"), fields=dict(fields), field_lines=dict(unit.field_lines),
        sections={key: "\n".join(value).strip() for key, value in unit.sections.items()},
    )


def parse_entries(rel: str, text: str) -> tuple[list[McEntry], list[StoreFinding]]:
    entries: list[McEntry] = []
    findings: list[StoreFinding] = []
    for unit in parse_units(text):
        item = entry_from_unit(rel, unit)
        if isinstance(item, McEntry):
            entries.append(item)
        elif item is not None:
            findings.append(item)
    return entries, findings


def parse_subjects(rel: str, text: str) -> list[McSubject]:
    subjects = []
    for unit in parse_units(text, SUBJECT_FIELDS):
        match = _UNIT_HEADING_RE.match(unit.heading)
        if match is None or not MC_SUBJECT_ID_RE.match(match.group("id")):
            continue
        subjects.append(McSubject(
            subject_id=match.group("id"), name=match.group("title").strip(), file=rel,
            line=unit.line, status=unit.fields.get("Status"), kind=unit.fields.get("Kind"),
            canonical_ref=unit.fields.get("Canonical-Ref"), aliases=unit.lists.get("Aliases", []),
            evidence=unit.lists.get("Evidence", []), merged_into=unit.fields.get("Merged-Into"),
        ))
    return subjects


def _record_problems(unit: Unit, entries: list[str]) -> list[str]:
    """What is malformed in a reconciliation record itself (not checked against entries)."""
    problems = []
    status, resolution = unit.fields.get("Status"), unit.fields.get("Resolution")
    if status != "active":
        problems.append(f"Status must be active (it is {status or 'missing'})")
    if resolution not in MC_RESOLUTIONS:
        problems.append(f"Resolution must be one of {', '.join(MC_RESOLUTIONS)} "
                        f"(it is {resolution or 'missing'})")
    if len(entries) < 2:
        problems.append("Entries must list at least two Entry IDs")
    bad = [e for e in entries if not MC_ENTRY_ID_RE.match(e)]
    if bad:
        problems.append(f"Entries holds {', '.join(repr(b) for b in bad)}, not an Entry ID")
    if len(set(entries)) != len(entries):
        problems.append("Entries names an entry twice")
    if not unit.lists.get("Evidence"):
        problems.append("Evidence must list at least one item")
    return problems


def parse_reconciliations(rel: str, text: str) -> list[McReconciliation]:
    """Every H2 unit of reconciliations.md as a record; a heading that is not
    `MC-REC-YYYYMMDD-8hex — Title` is a record with that problem (the file holds records only)."""
    records = []
    for unit in parse_units(text, RECONCILIATION_FIELDS):
        match = _UNIT_HEADING_RE.match(unit.heading)
        entries = [item.strip().strip("`") for item in unit.lists.get("Entries", [])]
        record = McReconciliation(
            record_id=match.group("id") if match else unit.heading,
            title=match.group("title").strip() if match else "", file=rel, line=unit.line,
            status=unit.fields.get("Status"), resolution=unit.fields.get("Resolution"),
            entries=entries, evidence=unit.lists.get("Evidence", []),
            problems=_record_problems(unit, entries))
        if match is None or not MC_REC_ID_RE.match(match.group("id")):
            record.problems = ["the heading is not `MC-REC-YYYYMMDD-8hex — Title`"]
        records.append(record)
    return records


_LOAD_LABELS = {"load:": True, "load if present:": False}


def _list_items(tokens: list[Token]) -> list[tuple[int, int, str]]:
    """(depth, line, text) of every list item paragraph line, in order, with block structure
    from the tokens; `Load:` labels glued to an item by lazy continuation come out as lines."""
    out: list[tuple[int, int, str]] = []
    depth = 0
    for index, token in enumerate(tokens):
        if token.type in ("bullet_list_open", "ordered_list_open"):
            depth += 1
        elif token.type in ("bullet_list_close", "ordered_list_close"):
            depth -= 1
        elif token.type == "inline" and token.map and tokens[index - 1].type == "paragraph_open":
            for offset, line in enumerate(token.content.split("\n")):
                out.append((depth, token.map[0] + 1 + offset, line.strip()))
    return out


def _sections(text: str) -> dict[str, list[Token]]:
    """H2 title -> the tokens under it."""
    tokens = _markdown().parse(text)
    sections: dict[str, list[Token]] = {}
    current: list[Token] | None = None
    for index, token in enumerate(tokens):
        if token.type == "heading_open" and token.tag in ("h1", "h2"):
            current = None
            if token.tag == "h2":
                current = sections.setdefault(tokens[index + 1].content.strip().lower(), [])
            continue
        if current is not None:
            current.append(token)
    return sections


def _target(text: str) -> str | None:
    spans = code_spans(text)
    value = (spans[0].content if spans else text).strip()
    if not value or " " in value or not (value.endswith(".md") or value.endswith("/")):
        return None
    return value


def parse_manifest(text: str) -> McManifest:
    """Protocol metadata, routing targets and per-file budgets of manifest.md."""
    manifest = McManifest()
    sections = _sections(text)
    for depth, _, line in _list_items(sections.get("memorycustodian protocol", [])):
        key, sep, value = line.partition(":")
        if sep and depth == 1:
            manifest.protocol[key.strip()] = value.strip()
    for depth, number, line in _list_items(sections.get("always load", [])):
        target = _target(line)
        if target and depth == 1:
            manifest.routes.append(McRoute(target=target, line=number, section="Always load",
                                           required=True))
    _task_routes(manifest, sections.get("load by task", []))
    for depth, number, line in _list_items(sections.get("optional module index", [])):
        target = _target(line) if line.startswith("`") else None
        if target and depth == 1:
            manifest.routes.append(McRoute(target=target, line=number,
                                           section="Optional module index", required=True))
            manifest.modules.append(McModule(target=target, kind=target.split("/", 1)[0],
                                             line=number))
        elif depth == 2 and manifest.modules:  # `- activation: path-or-explicit` under it
            _module_field(manifest.modules[-1], line)
    for _, number, line in _list_items(sections.get("context budget", [])):
        match = _BUDGET_RE.match(line)
        if match and int(match.group("tokens")) > 0:
            manifest.budgets.append(McBudget(pattern=match.group("pattern"),
                                             tokens=int(match.group("tokens")), line=number))
    return manifest


def _module_field(module: McModule, line: str) -> None:
    key, sep, value = line.partition(":")
    key, value = key.strip().lower(), value.strip()
    if not sep:
        return
    if key == "activation":
        activation, _, tasks = value.partition(":")  # `task:artifact`: activation and its tasks
        module.activation = activation.strip()
        module.tasks.extend(t.strip() for t in tasks.split(",") if t.strip())
    elif key == "tasks":
        module.tasks.extend(t.strip() for t in value.split(",") if t.strip())
    elif key == "paths":
        spans = code_spans(value)
        globs = [s.content for s in spans] if spans else value.split(",")
        module.paths.extend(g.strip() for g in globs if g.strip())


def _task_routes(manifest: McManifest, tokens: list[Token]) -> None:
    """`Load:` (required) and `Load if present:` (optional) lists under each task heading;
    labels may sit in paragraphs or be glued to the previous list item."""
    required = True
    task: str | None = None
    for index, token in enumerate(tokens):
        if token.type == "heading_open":
            required = True
            task = tokens[index + 1].content.strip()
        if token.type != "inline" or not token.map or tokens[index - 1].type != "paragraph_open":
            continue
        in_item = index >= 2 and tokens[index - 2].type == "list_item_open"
        for offset, line in enumerate(token.content.split("\n")):
            label = _LOAD_LABELS.get(line.strip().lower())
            if label is not None:
                required = label
                continue
            target = _target(line) if in_item or offset else None
            if target:
                manifest.routes.append(McRoute(target=target, line=token.map[0] + 1 + offset,
                                               section="Load by task", required=required,
                                               task=task))


@dataclass
class CustodianTree:
    """A parsed docs/memory/ tree; `files` maps tree-relative path -> text."""

    root: Path
    manifest: McManifest | None = None
    files: dict[str, str] = field(default_factory=dict)
    entries: list[McEntry] = field(default_factory=list)
    subjects: list[McSubject] = field(default_factory=list)
    reconciliations: list[McReconciliation] = field(default_factory=list)
    findings: list[StoreFinding] = field(default_factory=list)
    # Platform entry files (AGENTS.md, ...) of the project root, tree-relative (`../../AGENTS.md`).
    agent_files: dict[str, str] = field(default_factory=dict)


def memory_files(root: Path) -> list[str]:
    """Tree-relative paths of every markdown file of the tree, sorted; hidden names skipped."""
    found = []
    for path in sorted(root.rglob("*.md")):
        rel = path.relative_to(root).as_posix()
        if any(part.startswith(".") for part in rel.split("/")) or not path.is_file():
            continue
        found.append(rel)
    return found


def parse_tree(root: Path, files: dict[str, str]) -> CustodianTree:
    """Pure: a tree from its files' texts (tree-relative path -> text)."""
    tree = CustodianTree(root=root, files=dict(files))
    if MANIFEST in files:
        tree.manifest = parse_manifest(files[MANIFEST])
    else:
        tree.findings.append(store_finding(
            "mc_manifest_missing", MANIFEST, None,
            "the memory directory has no manifest.md: an incomplete or corrupted setup; routes "
            "are not inferred"))
    for rel, text in files.items():
        if rel == SUBJECTS:
            tree.subjects.extend(parse_subjects(rel, text))
        elif rel == RECONCILIATIONS:
            tree.reconciliations.extend(parse_reconciliations(rel, text))
        elif rel not in NOT_ENTRY_FILES:
            entries, findings = parse_entries(rel, text)
            tree.entries.extend(entries)
            tree.findings.extend(findings)
    return tree


def project_root(root: Path) -> Path | None:
    """The project a memory directory belongs to: the folder holding the `docs/` it sits in
    (docs/memory/, or another memory directory under docs/); None outside a docs/ folder."""
    for parent in root.resolve().parents:
        if parent.name == "docs":
            return parent.parent
    return None


def read_agent_files(root: Path) -> dict[str, str]:
    """AGENTS.md, CLAUDE.md and GEMINI.md at the project root, keyed tree-relative."""
    project = project_root(root)
    found: dict[str, str] = {}
    if project is None:
        return found
    up = "../" * len(root.resolve().relative_to(project).parts)
    for name in MC_AGENT_FILES:
        path = project / name
        if path.is_file():
            found[f"{up}{name}"] = path.read_bytes().decode("utf-8", errors="replace")
    return found


def read_custodian(root: Path) -> CustodianTree:
    """Read every markdown file of a docs/memory/ tree once (never writes)."""
    files: dict[str, str] = {}
    unreadable: list[StoreFinding] = []
    for rel in memory_files(root):
        try:
            files[rel] = (root / rel).read_bytes().decode("utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            reason = exc.strerror if isinstance(exc, OSError) else f"invalid UTF-8 at byte {exc.start}"
            unreadable.append(store_finding("mc_invalid_entry_id", rel, None,
                                            f"cannot read the file: {reason}"))
    tree = parse_tree(root, files)
    tree.findings.extend(unreadable)
    tree.agent_files = read_agent_files(root)
    return tree
