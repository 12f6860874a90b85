"""The rules of a .mem store (spec/mem-jsonl.md §7 and the invariants of §2-§6).

Pure over a parsed MemStore: one StoreFinding per violation, naming file, line and rule.

    §2    each record in exactly one state: active = an index line + a domains/ line;
          retired = an archive/ line and in neither of the other two; ids unique
    §2.1  index lines under ~350 bytes; index title == record title
    §3    one record = one line of JSON (parse findings come from mem_jsonl)
    §5    a record with no index line is invisible
    §6    supersedes points at an archived record; archive/ holds superseded records only
"""

from __future__ import annotations

import fnmatch
import re
from collections import defaultdict

from schemas.stores import (
    MEM_DOMAIN_PATTERN,
    MEM_INDEX_MAX_BYTES,
    MEM_RECORD_TYPES,
    MEM_STATUSES,
    MemRecord,
    StoreFinding,
)
from tasks.memstores.findings import PrivacyCheck, store_finding
from tasks.memstores.mem_jsonl import ID_IN_LINE, MemRecordAt, MemStore
from tasks.store.globs import glob_matches

_DOMAIN_RE = re.compile(MEM_DOMAIN_PATTERN)
_ID_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.:-]*$")
_ISO_RE = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?"
                     r"(?:Z|[+-]\d{2}:?\d{2})$")
MEM_CONFIDENCES = ("high", "medium", "low")


def _record(item: MemRecordAt) -> MemRecord:
    assert item.record is not None
    return item.record


def _file_domain(item: MemRecordAt) -> str:
    return item.file.rsplit("/", 1)[-1].removesuffix(".jsonl")


def _first_by_id(items: list[MemRecordAt], out: list[StoreFinding], what: str) -> dict[str, MemRecordAt]:
    """id -> first occurrence; every later one is a mem_duplicate_id finding."""
    first: dict[str, MemRecordAt] = {}
    for item in items:
        ident = item.index.id if item.index is not None else _record(item).id
        if ident in first:
            kept = first[ident]
            out.append(store_finding("mem_duplicate_id", item.file, item.line,
                                     f"id {ident!r} repeats {what} {kept.file} line {kept.line}"))
        else:
            first[ident] = item
    return first


def _record_rules(item: MemRecordAt, out: list[StoreFinding]) -> None:
    record = _record(item)
    if record.status not in MEM_STATUSES:
        out.append(store_finding("mem_unknown_status", item.file, item.line,
                                 f"record {record.id!r} has status {record.status!r}"))
    elif item.place == "domains" and record.status != "active":
        out.append(store_finding("mem_superseded_in_domains", item.file, item.line,
                                 f"record {record.id!r} is {record.status} but still in domains/"))
    elif item.place == "archive" and record.status == "active":
        out.append(store_finding("mem_active_in_archive", item.file, item.line,
                                 f"record {record.id!r} is active but sits in archive/"))
    if record.type not in MEM_RECORD_TYPES:
        out.append(store_finding("mem_unknown_type", item.file, item.line,
                                 f"record {record.id!r} has type {record.type!r}"))
    domain = _file_domain(item)
    if not _DOMAIN_RE.match(record.domain):
        out.append(store_finding("mem_domain_mismatch", item.file, item.line,
                                 f"record {record.id!r} has domain {record.domain!r}, not a "
                                 "lowercase slug (a-z, 0-9, -)"))
    elif record.domain != domain:
        out.append(store_finding("mem_domain_mismatch", item.file, item.line,
                                 f"record {record.id!r} has domain {record.domain!r} but sits in "
                                 f"{item.file}"))
    out += _field_rules(item, record)


def _field_rules(item: MemRecordAt, record: MemRecord) -> list[StoreFinding]:
    """§3's field shapes the parser lets through: an id without spaces, a provenance with its
    author and an ISO 8601 created_at, a known confidence, hits >= 0."""
    problems = []
    if not _ID_RE.match(record.id):
        problems.append(f"id {record.id!r} has spaces or characters an id does not use")
    if not record.provenance.author:
        problems.append("provenance.author is missing")
    created = record.provenance.created_at
    if not created or not _ISO_RE.match(created):
        problems.append(f"provenance.created_at {created!r} is not an ISO 8601 UTC time")
    if record.confidence is not None and record.confidence not in MEM_CONFIDENCES:
        problems.append(f"confidence {record.confidence!r} is not one of {', '.join(MEM_CONFIDENCES)}")
    if record.hits < 0:
        problems.append(f"hits {record.hits} is negative")
    return [store_finding("mem_invalid_field", item.file, item.line,
                          f"record {record.id!r}: {'; '.join(problems)}")] if problems else []


def _index_rules(item: MemRecordAt, domains: dict[str, MemRecordAt], archived: dict[str, MemRecordAt],
                 out: list[StoreFinding]) -> None:
    entry = item.index
    assert entry is not None
    if item.size_bytes > MEM_INDEX_MAX_BYTES:
        out.append(store_finding("mem_index_too_long", item.file, item.line,
                                 f"index line of {entry.id!r} is {item.size_bytes} bytes "
                                 f"(limit ~{MEM_INDEX_MAX_BYTES})"))
    target = domains.get(entry.id)
    if target is None:
        if entry.id in archived:
            old = archived[entry.id]
            out.append(store_finding("mem_retired_still_listed", item.file, item.line,
                                     f"index lists {entry.id!r}, retired to {old.file} line {old.line}"))
        else:
            out.append(store_finding("mem_index_orphan", item.file, item.line,
                                     f"index entry {entry.id!r} has no matching active record in domains/"))
        return
    record = _record(target)
    if entry.title != record.title:
        out.append(store_finding("mem_title_mismatch", item.file, item.line,
                                 f"index title {entry.title!r} differs from the record's "
                                 f"{record.title!r} ({target.file} line {target.line})"))
    if entry.domain != record.domain and record.domain == _file_domain(target):
        out.append(store_finding("mem_domain_mismatch", item.file, item.line,
                                 f"index domain {entry.domain!r} differs from the record's "
                                 f"{record.domain!r}"))
    stale = [name for name, ours, theirs in (("type", entry.type, record.type),
                                             ("files", entry.files, record.evidence.files))
             if name in entry.model_fields_set and ours != theirs]
    if stale:
        out.append(store_finding("mem_index_stale", item.file, item.line,
                                 f"index line of {entry.id!r}: {' and '.join(stale)} "
                                 f"{'differ' if len(stale) > 1 else 'differs'} from the record's "
                                 f"({target.file} line {target.line})"))


def check_mem_store(store: MemStore, privacy_check: PrivacyCheck | None = None) -> list[StoreFinding]:
    """Every rule, in one pass per list; parse findings included; `privacy_check` (the seam for
    `membank audit privacy`'s detector) over each file's text when given."""
    out: list[StoreFinding] = list(store.findings)
    if privacy_check is not None:
        for rel, data in sorted(store.files.items()):
            out += privacy_check(rel, data.decode("utf-8", "replace"))
    domains = _first_by_id(store.domains, out, "domains/ record")
    archived = _first_by_id(store.archive, out, "archive/ record")
    indexed = _first_by_id(store.index, out, "index line")
    for item in store.domains:
        _record_rules(item, out)
    for item in store.archive:
        _record_rules(item, out)
    for ident, item in domains.items():
        old = archived.get(ident)
        if old is not None:
            out.append(store_finding("mem_retired_still_listed", item.file, item.line,
                                     f"{ident!r} is also retired to {old.file} line {old.line}"))
        record = _record(item)
        if record.status == "active" and ident not in indexed:
            out.append(store_finding("mem_record_not_indexed", item.file, item.line,
                                     f"active record {ident!r} has no line in index.jsonl"))
    for item in store.index:
        _index_rules(item, domains, archived, out)
    for item in [*store.domains, *store.archive]:
        record = _record(item)
        if record.supersedes and record.supersedes not in archived:
            out.append(store_finding("mem_supersedes_not_archived", item.file, item.line,
                                     f"{record.id!r} supersedes {record.supersedes!r}, "
                                     "which is not in archive/"))
    out += check_merge_driver(store)
    out += check_append_only(store, archived)
    return out


def _attribute_pattern_matches(pattern: str, path: str) -> bool:
    """gitattributes pattern rules: no slash matches the name at any depth; otherwise the
    path from the .gitattributes folder (`**` across folders)."""
    pattern = pattern.removeprefix("/")
    if "/" not in pattern:
        return fnmatch.fnmatchcase(path.rsplit("/", 1)[-1], pattern)
    return glob_matches(pattern, path)


# .gitattributes marks a comment line with "#" (gitattributes(5)); not markdown.
GITATTRIBUTES_COMMENT = "#"


def merge_driver(attributes: list[tuple[str, str]], rel: str) -> str | None:
    """The `merge` attribute .gitattributes gives the store file `rel` (the last match wins,
    inner files after outer ones); None when unset."""
    value: str | None = None
    for seen_as, text in attributes:
        for line in text.splitlines():
            parts = line.split()
            if not parts or parts[0].startswith(GITATTRIBUTES_COMMENT):
                continue
            if not _attribute_pattern_matches(parts[0], f"{seen_as}{rel}"):
                continue
            for attribute in parts[1:]:
                if attribute.startswith("merge="):
                    value = attribute.removeprefix("merge=")
                elif attribute in ("-merge", "!merge", "merge"):
                    value = None if attribute != "merge" else "text"
    return value


def check_merge_driver(store: MemStore) -> list[StoreFinding]:
    """§5: appends of two agents merge through the merge=union driver the repo declares in
    .gitattributes for index.jsonl and domains/*.jsonl."""
    files = sorted(rel for rel in store.files if rel == "index.jsonl" or rel.startswith("domains/"))
    missing = [rel for rel in files if merge_driver(store.attributes, rel) != "union"]
    if not missing:
        return []
    return [store_finding("mem_merge_union_missing", ".gitattributes", None,
                          f"no merge=union for {', '.join(missing)}: two agents' appends "
                          "conflict in plain git")]


def check_append_only(store: MemStore, archived: dict[str, MemRecordAt]) -> list[StoreFinding]:
    """§3/§5: lines are appended, never edited in place. In a git work tree, a line the last
    commit had that is gone now is a rewrite, unless it was a supersession's move (its record
    is in archive/ now)."""
    out: list[StoreFinding] = []
    for rel, lines in sorted((store.removed or {}).items()):
        for raw in lines:
            ident = ID_IN_LINE.search(raw)
            name = ident.group(1).decode("utf-8", "replace") if ident else None
            moved = name in archived and not rel.startswith("archive/")
            if not moved:
                out.append(store_finding(
                    "mem_line_rewritten", rel, None,
                    f"record {name!r}: a line of the last commit was edited or removed in place"
                    if name else "a line of the last commit was edited or removed in place"))
    return out


def mem_counts(store: MemStore) -> dict[str, int]:
    """Figures for reports: records per place and domains."""
    by_domain: dict[str, int] = defaultdict(int)
    for item in store.domains:
        by_domain[_file_domain(item)] += 1
    return {"index_lines": len(store.index), "active_records": len(store.domains),
            "archived_records": len(store.archive), "domains": len(by_domain)}
