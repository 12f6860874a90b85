"""What a source is about: its subject (front matter `entity`, a decision record's name, or
the document's title) and the entities its front matter lists."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from tasks.extract.model import (
    DECISION_TYPE,
    DEFAULT_LINKED_TYPE,
    SUBJECT_DOCUMENT_TYPE,
    EntityFact,
    Extraction,
    NameRef,
    RelationFact,
)
from tasks.extract.record_fields import document_name, record_name, source_stem
from tasks.extract.text import as_names, clean_name, is_meaningful_name, plain_text

_DOC_TYPES = frozenset(
    {"note", "doc", "docs", "document", "page", "adr", "article", "readme", "post"}
)


@dataclass(frozen=True, slots=True)
class _SubjectName:
    name: str
    entity_type: str
    explicit_type: bool
    record_key: str | None = None  # a decision record's file stem, when it is another name


def add_subject(result: Extraction, meta: Mapping[str, Any], title_line: int) -> NameRef | None:
    """The subject on `result` (its name rejected when not meaningful); its NameRef or None."""
    subject = _subject_name(result, meta)
    aliases = as_names(meta.get("aliases"))
    tags = tuple(sorted({t.lstrip("#") for t in as_names(meta.get("tags"))}))
    if subject.record_key is not None:
        aliases.append(subject.record_key)
        result.record_key = subject.record_key
    if not is_meaningful_name(subject.name):
        result.rejected_names.append(subject.name)
        # An explicit name the naming standard rejects (`entity: info`): its facts stay, on the
        # document's title, and the rejected name is reported (spec/memory-bank.md MB12).
        title = clean_name(result.title)
        if subject.name == title or not is_meaningful_name(title):
            return None
        subject = _SubjectName(title, SUBJECT_DOCUMENT_TYPE, False)
    entity_type = subject.entity_type.strip().lower().replace(" ", "_")
    ref = NameRef((subject.name,), entity_type, title_line)
    result.subject = EntityFact(
        ref, tuple(a for a in aliases if is_meaningful_name(a)), tags, subject.explicit_type
    )
    return ref


def _subject_name(result: Extraction, meta: Mapping[str, Any]) -> _SubjectName:
    """Front matter `entity` / `entity_name` first, then a decision record's name (its file
    stem kept as the record key), then the document's title."""
    explicit = meta.get("entity") or meta.get("entity_name")
    subject_type = _subject_type(meta)
    if isinstance(explicit, str) and explicit.strip():
        return _SubjectName(
            plain_text(explicit), str(subject_type or DEFAULT_LINKED_TYPE), bool(subject_type)
        )
    if result.is_decision_record:
        name = clean_name(record_name(result.title))
        stem = source_stem(result.source)
        if stem and stem.lower() != name.lower() and is_meaningful_name(stem):
            return _SubjectName(name, DECISION_TYPE, True, stem)
        return _SubjectName(name, DECISION_TYPE, True)
    name = clean_name(document_name(result.title))  # "[RFC]: Use Kafka [Draft]" is "Use Kafka"
    return _SubjectName(name, str(subject_type or SUBJECT_DOCUMENT_TYPE), bool(subject_type))


def _subject_type(meta: Mapping[str, Any]) -> object:
    """`entity_type` / `kind`, else a `type` that names no kind of document."""
    subject_type = meta.get("entity_type") or meta.get("kind")
    written = meta.get("type")
    if not subject_type and isinstance(written, str) and written.lower() not in _DOC_TYPES:
        return written
    return subject_type


def add_front_matter_entities(result: Extraction, meta: Mapping[str, Any], subject: NameRef) -> None:
    """Front matter `entities` (names, `{name, type}` items or a `name: type` mapping): each an
    entity the subject mentions (its type explicit when one is given)."""
    for item_name, item_type in _listed_entities(meta.get("entities")):
        clean = clean_name(plain_text(item_name))
        if not is_meaningful_name(clean):
            result.rejected_names.append(clean)
            continue
        explicit_item = item_type != DEFAULT_LINKED_TYPE
        target = NameRef((clean,), item_type.strip().lower().replace(" ", "_"), 1)
        result.entities.append(EntityFact(target, explicit_type=explicit_item))
        result.relations.append(RelationFact(subject, "mentions", target))


def _listed_entities(listed: object) -> list[tuple[str, str]]:
    """(name, type) of each entity a front matter `entities` value lists."""
    if isinstance(listed, Mapping):
        return [(str(k), str(v or DEFAULT_LINKED_TYPE)) for k, v in listed.items()]
    items: list[tuple[str, str]] = []
    if isinstance(listed, list):
        for item in listed:
            if isinstance(item, Mapping) and item.get("name"):
                items.append((str(item["name"]), str(item.get("type") or DEFAULT_LINKED_TYPE)))
            elif isinstance(item, str):
                items.append((item, DEFAULT_LINKED_TYPE))
    return items
