"""Record-to-record links (tasks/record_links.py) resolved against the decision records of the
same log and applied to the graph: typed, directed relations; a partial supersession leaves the
older decision current with a note of what changed; a reference that resolves to no record is a
candidate with its evidence, never a stub entity.
"""

from __future__ import annotations

import posixpath
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, Protocol

from schemas.graph import RegistryEntry, entity_key
from tasks.extract import CandidateFact, Extraction, SourceRef, plain_text
from tasks.record_links import (
    PARTIALLY_SUPERSEDES,
    RELATES_TO,
    RecordLink,
    is_record_like,
    record_number,
)

RECORD_LOG_KEY = "recordLog"  # registry extension: the folder (log) of a decision record
RECORD_LINK_CANDIDATE = "record_link"
_NOTE_CHARS = 300


class _Merge(Protocol):
    pairs: set[tuple[str, str]]

    def relate(
        self, source: RegistryEntry, relation_type: str, target: RegistryEntry,
        origin: SourceRef | None = None,
    ) -> None: ...

    def entity(self, entry: RegistryEntry) -> dict[str, Any]: ...

    def observe_in(
        self, entity: dict[str, Any], key: str, text: str, source: SourceRef, start: int, end: int
    ) -> None: ...


def record_log(source: SourceRef) -> str:
    """The log a record belongs to: the folder of its original path."""
    return posixpath.dirname((source.original_path or source.raw_path).replace("\\", "/"))


@dataclass
class RecordIndex:
    """Decision records by (log, file stem) and (log, number); `record_key` names the
    registry attribute that holds a record's stem."""

    by_stem: dict[tuple[str, str], RegistryEntry] = field(default_factory=dict)
    by_number: dict[tuple[str, int], list[RegistryEntry]] = field(default_factory=dict)
    by_title: dict[tuple[str, str], RegistryEntry] = field(default_factory=dict)

    @classmethod
    def build(cls, entries: Iterable[RegistryEntry], record_key: str) -> RecordIndex:
        index = cls()
        for entry in entries:
            stem = getattr(entry, record_key, None)
            if not isinstance(stem, str) or not stem:
                continue
            log = str(getattr(entry, RECORD_LOG_KEY, "") or "")
            index.by_stem.setdefault((log, stem.lower()), entry)
            number = record_number(stem)
            if number is not None:
                index.by_number.setdefault((log, number), []).append(entry)
            for name in (entry.canonicalName, *entry.aliases):
                index.by_title.setdefault((log, entity_key(name)), entry)
        return index

    def resolve(self, link: RecordLink, log: str) -> RegistryEntry | None:
        """The record `link` means in `log`: by file stem, else by number (when one record has
        it), else by title; None when nothing (or more than one record) matches."""
        if link.stem:
            found = self.by_stem.get((log, link.stem.lower()))
            if found is not None:
                return found
        if link.number is not None:
            numbered = self.by_number.get((log, link.number), [])
            return numbered[0] if len(numbered) == 1 else None
        if link.stem is None:
            return self.by_title.get((log, entity_key(plain_text(link.text))))
        return None


PENDING_KEY = "pendingRecordLinks"  # distill-state extension: a source's unresolved record links


@dataclass(frozen=True, slots=True)
class PendingLinks:
    """A source's record links that resolved to no record yet (kept in the distill state, so a
    record distilled later still gets the relation an earlier one stated)."""

    source: SourceRef
    subject: str
    links: tuple[RecordLink, ...]

    def as_json(self) -> list[dict[str, Any]]:
        return [
            {
                "subject": self.subject,
                "log": record_log(self.source),
                "relationType": link.relation_type,
                "incoming": link.incoming,
                "text": link.text,
                "stem": link.stem,
                "number": link.number,
                "line": link.line,
                "excerpt": link.excerpt,
            }
            for link in self.links
        ]

    @classmethod
    def from_json(cls, asset_id: str, source_page: str, items: list[dict[str, Any]]) -> PendingLinks:
        log = str(items[0].get("log") or "")
        source = SourceRef(asset_id, source_page, "", f"{log}/x" if log else "x")
        links = tuple(
            RecordLink(
                str(item["relationType"]), bool(item["incoming"]), str(item["text"]),
                item.get("stem"), item.get("number"), int(item["line"]), str(item["excerpt"]),
            )
            for item in items
        )
        return cls(source, str(items[0]["subject"]), links)


def apply_record_links(
    merge: _Merge,
    resolved: Iterable[tuple[Extraction, RegistryEntry]],
    pending: Iterable[tuple[PendingLinks, RegistryEntry]],
    index: RecordIndex,
    forgotten: Callable[[RegistryEntry], bool],
) -> dict[str, PendingLinks]:
    """Typed links first (so a `relates_to` never doubles a stronger relation), then the rest.
    Returns, by raw asset, the links that still resolve to no record."""
    items: list[tuple[SourceRef, Extraction | None, RegistryEntry, tuple[RecordLink, ...]]] = [
        (extraction.source, extraction, subject, tuple(extraction.record_links))
        for extraction, subject in resolved
        if extraction.record_links
    ]
    items += [(p.source, None, subject, p.links) for p, subject in pending]
    left: dict[str, list[RecordLink]] = {}
    for typed in (True, False):
        for source, extraction, subject, links in items:
            log = record_log(source)
            for link in links:
                if (link.relation_type != RELATES_TO) is not typed:
                    continue
                target = index.resolve(link, log)
                if target is None:
                    if is_record_like(link):
                        left.setdefault(source.asset_id, []).append(link)
                        if extraction is not None:
                            _candidate(extraction, link)
                    continue
                _apply(merge, source, subject, link, target, forgotten)
    subjects = {source.asset_id: (source, subject) for source, _, subject, _ in items}
    return {
        asset: PendingLinks(subjects[asset][0], subjects[asset][1].canonicalName, tuple(links))
        for asset, links in sorted(left.items())
    }


def _candidate(extraction: Extraction, link: RecordLink) -> None:
    extraction.candidates.append(
        CandidateFact(
            link.stem or link.text, RECORD_LINK_CANDIDATE, link.line,
            f"{link.relation_type}: {link.excerpt}"[:_NOTE_CHARS],
        )
    )


def _apply(
    merge: _Merge,
    origin: SourceRef,
    subject: RegistryEntry,
    link: RecordLink,
    target: RegistryEntry,
    forgotten: Callable[[RegistryEntry], bool],
) -> None:
    if target is subject or forgotten(target):
        return
    source, other = (target, subject) if link.incoming else (subject, target)
    pair = (entity_key(source.canonicalName), entity_key(other.canonicalName))
    if link.relation_type == RELATES_TO and (pair in merge.pairs or pair[::-1] in merge.pairs):
        return
    merge.relate(source, link.relation_type, other, origin)
    if link.relation_type == PARTIALLY_SUPERSEDES:
        note = f"Partly superseded by {source.canonicalName}: {link.excerpt}"
        if len(note) > _NOTE_CHARS:
            note = note[: _NOTE_CHARS - 4].rsplit(" ", 1)[0] + " […]"
        merge.observe_in(
            merge.entity(other), entity_key(other.canonicalName), note, origin,
            link.line, link.line,
        )


def pending_record_links(state: Iterable[Any], read_now: set[str]) -> list[PendingLinks]:
    """Unresolved links kept in the distill state, of sources this run does not re-read."""
    found: list[PendingLinks] = []
    for entry in state:
        items = (getattr(entry, "__pydantic_extra__", None) or {}).get(PENDING_KEY)
        if items and entry.assetId not in read_now:
            found.append(PendingLinks.from_json(entry.assetId, entry.sourcePage, items))
    return found


def mark_record_logs(resolved: Iterable[tuple[Extraction, RegistryEntry]]) -> bool:
    """Note each record's log on its registry entry (first seen wins). True when one changed."""
    changed = False
    for extraction, entry in resolved:
        if extraction.record_key and getattr(entry, RECORD_LOG_KEY, None) is None:
            setattr(entry, RECORD_LOG_KEY, record_log(extraction.source))
            changed = True
    return changed
