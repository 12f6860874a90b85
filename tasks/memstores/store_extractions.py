"""Distill for memory stores: one raw file of a .mem store or a MemoryCustodian tree -> the
Extractions the distill writer merges (no language model; the store's own structure).

    .mem domains/<d>.jsonl    entity "<d> domain"; each active record an observation
    .mem archive/<d>.jsonl    the same entity; each record a superseded observation, linked to
                              the record whose `supersedes` names it
    .mem index.jsonl          nothing new (the index repeats the records): recorded as read
    subjects.md               one entity per Subject (the Subject ID and aliases as aliases)
    entry files               each active entry an observation of its Subject's entity;
                              superseded entries and archive/ superseded observations;
                              do-not-use entries "do not use X: because Y" observations
                              (rejected approaches are knowledge); tombstone entries
                              membank tombstones;
                              inbox.md candidates the distill candidates inbox
    other files (brief.md, rules/, profiles/, manifest.md)   None: read as plain markdown

Typed fields (ids, types, facets, scopes, evidence) ride along in each observation's
provenance under `storeRecord`, so they are not flattened into prose.
"""

from __future__ import annotations

from typing import Any

from schemas.stores import MEM_UNIVERSAL_DOMAIN, McEntry, MemRecord
from tasks.extract import (
    CandidateFact,
    EntityFact,
    Extraction,
    NameRef,
    ObservationFact,
    SourceRef,
    SupersededFact,
)
from tasks.memstores.custodian import ARCHIVE_DIR, INBOX, SUBJECTS, parse_entries, parse_subjects
from tasks.memstores.mem_jsonl import parse_lines, paused_gc
from tasks.memstores.store_names import MANIFEST

MEM_ROLE = "mem"
CUSTODIAN_ROLE = "custodian"
MAX_TEXT = 480
DOMAIN_TYPE = "domain"
SUBJECT_TYPE = "subject"
MEMORY_FILE_TYPE = "memory_file"
CANDIDATE_KIND = "store_candidate"


def _shorten(text: str, limit: int = MAX_TEXT) -> str:
    text = text.strip()
    if "\n" in text or "  " in text or "\t" in text or "\r" in text:  # normalize only if needed
        text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


# --------------------------------------------------------------------------- .mem


def domain_entity_name(domain: str) -> str:
    return "universal domain" if domain == MEM_UNIVERSAL_DOMAIN else f"{domain} domain"


def mem_text(record: MemRecord) -> str:
    text = f"[{record.id}] {record.type}: {record.title.rstrip('.')}."
    if record.body:
        text += f" {record.body}"
    if record.resolution:
        text += f" Resolution: {record.resolution}"
    return _shorten(text)


def mem_typed(record: MemRecord) -> dict[str, Any]:
    typed: dict[str, Any] = {"store": MEM_ROLE, "recordId": record.id, "domain": record.domain,
                             "type": record.type, "status": record.status}
    if record.supersedes:
        typed["supersedes"] = record.supersedes
    if record.confidence:
        typed["confidence"] = record.confidence
    evidence = {k: v for k, v in vars(record.evidence).items() if v}  # 50,000 records: no dump
    if record.evidence.model_extra:
        evidence.update(record.evidence.model_extra)
    if evidence:
        typed["evidence"] = evidence
    created = record.provenance.created_at
    if created:
        typed["createdAt"] = created
    return typed


def extract_mem_file(text: str, source: SourceRef, rel: str) -> list[Extraction]:
    """One Extraction per domain named in the file (normally one: the file's own)."""
    place = rel.split("/", 1)[0] if "/" in rel else "index"
    with paused_gc():
        records, _ = parse_lines(rel, text.encode("utf-8"), place)  # bad lines: `membank check mem`
    if place == "index" or not records:
        return [Extraction(source=source, title=rel)]
    by_domain: dict[str, Extraction] = {}
    for item in records:
        record = item.record
        if record is None:
            continue
        extraction = by_domain.get(record.domain)
        if extraction is None:
            name = domain_entity_name(record.domain)
            extraction = by_domain[record.domain] = Extraction(
                source=source, title=rel,
                subject=EntityFact(NameRef((name,), DOMAIN_TYPE, item.line), explicit_type=True))
        if record.supersedes:
            extraction.replaced_by[record.supersedes] = record.id
        body = mem_text(record)
        typed = mem_typed(record)
        if place == "domains" and record.status == "active":
            extraction.observations.append(
                ObservationFact(body, item.line, item.line_end, "store", typed))
        else:
            extraction.superseded_facts.append(SupersededFact(
                body, item.line, item.line_end,
                reason=f"retired in the .mem store ({rel}, status {record.status})",
                record_id=record.id, typed=typed))
    return [by_domain[d] for d in sorted(by_domain)]


# --------------------------------------------------------------------------- MemoryCustodian


def custodian_text(entry: McEntry) -> str:
    text = f"[{entry.entry_id}] {entry.title.rstrip('.')}: {entry.statement}"
    reason = entry.sections.get("Reason")
    if reason and entry.statement != reason:
        text += f" Reason: {reason}"
    return _shorten(text)


def rejected_text(entry: McEntry) -> str:
    """A do-not-use entry as the fact it states: do not use X, because Y."""
    what = entry.sections.get("Rejected") or entry.statement
    text = f"[{entry.entry_id}] Do not use {entry.title.rstrip('.')}: {what}"
    reason = entry.sections.get("Reason")
    if reason and reason != what:
        text += f" Because: {reason}"
    return _shorten(text)


def custodian_typed(entry: McEntry) -> dict[str, Any]:
    typed: dict[str, Any] = {"store": "memory-custodian", "entryId": entry.entry_id,
                             "entryKind": entry.kind, "status": entry.status}
    for key, value in (("scope", entry.scope), ("subjectId", entry.subject),
                       ("facet", entry.facet), ("supersededBy", entry.superseded_by)):
        if value:
            typed[key] = value
    if entry.evidence:
        typed["evidence"] = list(entry.evidence)
    if entry.supersedes:
        typed["supersedes"] = list(entry.supersedes)
    return typed


def _subject_extractions(text: str, source: SourceRef, rel: str) -> list[Extraction]:
    out = []
    for subject in parse_subjects(rel, text):
        if subject.status not in (None, "active"):
            continue
        fact = EntityFact(NameRef((subject.name,), subject.kind or SUBJECT_TYPE, subject.line),
                          aliases=(subject.subject_id, *subject.aliases), explicit_type=True)
        extraction = Extraction(source=source, subject=fact, title=rel, order=-1)
        line = f"[{subject.subject_id}] Subject {subject.name}"
        if subject.canonical_ref:
            line += f" ({subject.canonical_ref})"
        typed = {"store": "memory-custodian", "subjectId": subject.subject_id,
                 "kind": subject.kind, "canonicalRef": subject.canonical_ref}
        extraction.observations.append(ObservationFact(
            line + ".", subject.line, subject.line, "store",
            {k: v for k, v in typed.items() if v is not None}))
        out.append(extraction)
    return out


def _entity_for(entry: McEntry, rel: str) -> EntityFact:
    if entry.subject:
        return EntityFact(NameRef((entry.subject,), SUBJECT_TYPE, entry.line))
    stem = rel.rsplit("/", 1)[-1].removesuffix(".md")
    return EntityFact(NameRef((f"project {stem}",), MEMORY_FILE_TYPE, entry.line), explicit_type=True)


def _route_entry(entry: McEntry, rel: str, extraction: Extraction, holder: Extraction) -> None:
    """Put one entry where it belongs: observation, superseded fact, tombstone or candidate."""
    text, typed = custodian_text(entry), custodian_typed(entry)
    archived = rel.startswith(f"{ARCHIVE_DIR}/")
    for old in entry.supersedes:
        extraction.replaced_by[old] = entry.entry_id
    if rel == INBOX or entry.kind == "INBOX":
        if entry.status == "candidate":
            holder.candidates.append(CandidateFact(entry.title, CANDIDATE_KIND, entry.line,
                                                   _shorten(entry.statement, 200)))
        return
    if entry.kind == "DNU" and entry.status == "active" and not archived:
        # A rejected approach is knowledge, not forgetting (memory-custodian.md: do-not-use
        # holds "rejected options, failure paths"): retrieve shows it as a failure prevention.
        extraction.observations.append(
            ObservationFact(rejected_text(entry), entry.line, entry.line_end, "store", typed))
        return
    if entry.kind == "TOMB" and entry.status == "active" and not archived:
        reason = entry.sections.get("Reason") or entry.sections.get("Tombstone") or entry.title
        holder.tombstones.append({"topic": (entry.topic or entry.title).strip(),
                                  "reason": _shorten(f"{entry.entry_id}: {reason}", 240),
                                  "sourceEntryId": entry.entry_id})
        return
    if entry.status == "active" and not archived:
        extraction.observations.append(
            ObservationFact(text, entry.line, entry.line_end, "store", typed))
    elif entry.status in ("active", "superseded", "rejected"):
        where = "archived in archive/" if archived else f"Status: {entry.status}"
        extraction.superseded_facts.append(SupersededFact(
            text, entry.line, entry.line_end, reason=f"MemoryCustodian {where} ({rel})",
            record_id=entry.entry_id, by=entry.superseded_by, typed=typed))


def extract_custodian_file(text: str, source: SourceRef, rel: str) -> list[Extraction] | None:
    """Extractions of one tree file; None for files without entries (read as markdown)."""
    if rel == SUBJECTS:
        return _subject_extractions(text, source, rel) or [Extraction(source=source, title=rel)]
    if rel == MANIFEST:
        return [Extraction(source=source, title=rel)]  # routing metadata, not knowledge
    entries, _ = parse_entries(rel, text)  # malformed entries: `membank check custodian`
    if not entries:
        return None
    holder = Extraction(source=source, title=rel)  # tombstones and candidates of the file
    by_entity: dict[str, Extraction] = {}
    for entry in entries:
        fact = _entity_for(entry, rel)
        extraction = by_entity.get(fact.ref.display)
        if extraction is None:
            extraction = by_entity[fact.ref.display] = Extraction(source=source, subject=fact,
                                                                  title=rel)
        _route_entry(entry, rel, extraction, holder)
    facts = [by_entity[k] for k in sorted(by_entity)
             if by_entity[k].observations or by_entity[k].superseded_facts]
    return [holder, *facts]


def extract_store_file(text: str, source: SourceRef, role: str) -> list[Extraction] | None:
    """Dispatch by the raw file's store role (`mem:<rel>` or `custodian:<rel>`, set at ingest)."""
    kind, _, rel = role.partition(":")
    if kind == MEM_ROLE:
        return extract_mem_file(text, source, rel)
    if kind == CUSTODIAN_ROLE:
        return extract_custodian_file(text, source, rel)
    return None
