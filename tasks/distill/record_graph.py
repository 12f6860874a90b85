"""Record-to-record links (tasks/extract/record_links.py) resolved against the decision records of the
same log and applied to the graph: typed, directed relations; a partial supersession leaves the
older decision current with a note of what changed; a reference that resolves to no record is a
candidate with its evidence, never a stub entity.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable, Iterable
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

from schemas.distill_state import DistilledSource
from schemas.graph import RegistryEntry, entity_key
from tasks.distill.record_keys import key_spelling, relation_for_key
from tasks.extract import DECISION_TYPE, CandidateFact, Extraction, ObservationFact, SourceRef, plain_text
from tasks.extract.former_paths import path_tail
from tasks.extract.link_items import hash_key, title_hash
from tasks.extract.record_links import (
    BY_TITLE,
    BY_WORDS,
    PARTIALLY_SUPERSEDES,
    PARTS_KEY_MENTION_RE,
    RECORD_SERIES,
    RELATES_TO,
    RecordLink,
    document_id,
    is_record_like,
    record_number,
)
from tasks.extract.titled_links import kind_allows, label_phrase, phrase_parts, title_words

RECORD_LINK_CANDIDATE = "record_link"
_ISO_DATE_RE = re.compile(r"\d{4}-\d{2}-\d{2}")
_NOTE_CHARS = 300


class _Merge(Protocol):
    pairs: set[tuple[str, str]]

    def relate(
        self, source: RegistryEntry, relation_type: str, target: RegistryEntry,
        origin: SourceRef | None = None,
    ) -> None: ...

    def entity(self, entry: RegistryEntry) -> dict[str, Any]: ...

    def observe_in(
        self, entity: dict[str, Any], key: str, fact: ObservationFact, source: SourceRef
    ) -> None: ...


def record_log(source: SourceRef) -> str:
    """The log a record belongs to: the folder of its original path."""
    return posixpath.dirname((source.original_path or source.raw_path).replace("\\", "/"))


class _Registry(Protocol):
    def forgotten_entry(self, entry: RegistryEntry) -> bool: ...

    def add_alias(self, entry: RegistryEntry, alias: str) -> None: ...


@dataclass
class RecordIndex:
    """Decision records (registry entries with a recordKey, the record's file stem) by (log,
    file stem), (log, number) and (log, title)."""

    by_stem: dict[tuple[str, str], RegistryEntry] = field(default_factory=dict)
    by_number: dict[tuple[str, int], list[RegistryEntry]] = field(default_factory=dict)
    by_title: dict[tuple[str, str], RegistryEntry] = field(default_factory=dict)
    # A document linked by URL or site path: (its last folder's name, stem) and its stem alone.
    by_tail: dict[tuple[str, str], list[RegistryEntry]] = field(default_factory=dict)
    by_bare_stem: dict[str, list[RegistryEntry]] = field(default_factory=dict)
    # Every folder's documents by title: a wiki links a page by its title from anywhere.
    by_any_title: dict[str, list[RegistryEntry]] = field(default_factory=dict)
    # Every folder's documents by the id their stem or title starts with ("RFD 12", "INC-42"):
    # a reference by id names its series, so it is found in another folder too.
    by_id: dict[tuple[str, int], list[RegistryEntry]] = field(default_factory=dict)
    # Each folder's documents by the ISO date their stem starts with ("2025-06-01-platform-sync"):
    # "the entry of 2025-06-01" names the one page of its folder dated so.
    by_date: dict[tuple[str, str], dict[str, RegistryEntry]] = field(default_factory=dict)
    # A decision log's entries by their keys ("DL-05": the log's entity key -> its entries' ids):
    # a page that cites an entry cites the log holding it, and never replaces the log by it.
    entry_ids: dict[str, set[tuple[str, int]]] = field(default_factory=dict)
    # Each document's folder (its entity key -> log): where the team filed it (record_keys.filed_kind).
    log_of: dict[str, str] = field(default_factory=dict)
    _by_word: dict[str, list[RegistryEntry]] = field(default_factory=dict)  # a title's words, once asked
    _series: set[str] = field(default_factory=set)  # the series of by_id, once asked

    @classmethod
    def build(cls, entries: Iterable[RegistryEntry],
              documents: Iterable[tuple[str, str, RegistryEntry]] = ()) -> RecordIndex:
        """Every entry with a recordKey, then the plain `documents` ((log, file stem, the entity
        it was distilled into), in a fixed order: the first to claim a key keeps it)."""
        index = cls()
        keyed = [(entry.recordLog or "", entry.recordKey, entry) for entry in entries if entry.recordKey]
        for log, stem, entry in [*keyed, *documents]:
            index._add(log, stem, entry)
        return index

    def _add(self, log: str, stem: str, entry: RegistryEntry) -> None:
        self.by_stem.setdefault((log, stem.lower()), entry)
        self.log_of.setdefault(entity_key(entry.canonicalName), log)
        if _ISO_DATE_RE.match(stem):
            self.by_date.setdefault((log, stem[:10]), {}).setdefault(stem.lower(), entry)
        tail = (posixpath.basename(log).lower(), stem.lower())
        self.by_tail.setdefault(tail, []).append(entry)
        self.by_bare_stem.setdefault(stem.lower(), []).append(entry)
        for own_id in sorted(self.ids(entry, stem)):
            self.by_id.setdefault(own_id, []).append(entry)
        number = record_number(stem)
        if number is None and (stem_id := document_id(stem)) is not None:
            number = stem_id[1]  # "pep-0014-adaptive-retry": number 14 in its folder
        if number is not None:
            self.by_number.setdefault((log, number), []).append(entry)
        for name in (entry.canonicalName, *entry.aliases):
            self.by_title.setdefault((log, entity_key(name)), entry)
        titled = self.by_any_title.setdefault(entity_key(entry.canonicalName), [])
        if not any(one is entry for one in titled):
            titled.append(entry)
            self._add_former_paths(entry)

    def _add_former_paths(self, entry: RegistryEntry) -> None:
        """A moved page's former paths (its aliases that are paths: tasks/extract/former_paths.py),
        where a link by URL or by a path of no folder of the memory finds it (_by_url)."""
        for alias in entry.aliases:
            tail = path_tail(alias) if "/" in alias else None
            if tail is not None:
                self.by_tail.setdefault(tail, []).append(entry)
                self.by_bare_stem.setdefault(tail[1], []).append(entry)

    def add_entry_keys(self, entry: RegistryEntry, keys: Iterable[str]) -> None:
        """A decision log's entry keys (Extraction.entry_keys): each names the log, as its own
        ids name a document, unless a document of the memory states it as its own already."""
        held = self.entry_ids.setdefault(entity_key(entry.canonicalName), set())
        for key in keys:
            named = document_id(key)
            if named is None or named in held:
                continue
            held.add(named)
            stating = self.by_id.setdefault(named, [])
            if not stating:
                stating.append(entry)
        self._series = set()

    def names_entry(self, link: RecordLink, target: RegistryEntry) -> bool:
        """Does `link` name `target` (a decision log) by one of its entries' keys, not by its
        own id or file?"""
        if link.stem is not None:
            return False
        named = document_id(link.text)
        return named is not None and named in self.entry_ids.get(entity_key(target.canonicalName), ()) \
            and named not in self.ids(target)

    def cited_ids(self, target: RegistryEntry) -> set[tuple[str, int]]:
        """The ids a citation names `target` by: its own and its entries' keys."""
        return self.ids(target) | self.entry_ids.get(entity_key(target.canonicalName), set())

    def resolve(self, link: RecordLink, log: str) -> RegistryEntry | None:
        """The record `link` means in `log`: by file stem, else by number (when one record has
        it), else by title; None when nothing (or more than one record) matches. A genre
        document's link names its folder (tasks/extract/genre_links.py); a mention in passing
        ("see ADR-0015") means only the one document that states its id."""
        if link.mention:
            stating = self.by_id.get(document_id(link.text) or hash_key(link.text) or ("", 0), [])
            if PARTS_KEY_MENTION_RE.fullmatch(link.text):  # "COE-2024-02": not COE-2024-03
                stating = [entry for entry in stating if _opens_with_key(entry, link.text)]
            return stating[0] if len(stating) == 1 else None
        if link.folder in (BY_TITLE, BY_WORDS):  # a page named by its title, in any folder
            return self._by_title(link)
        if link.folder is not None and link.folder.startswith("*/") and link.stem:
            return self._by_url(link.folder[2:].lower(), link.stem.lower())
        if link.folder is not None:
            log = link.folder
        if link.stem:
            found = self.by_stem.get((log, link.stem.lower()))
            if found is None:  # a path written from elsewhere ("proposals/x.md" from proposals/)
                found = self._by_url(posixpath.basename(log).lower(), link.stem.lower())
            if found is not None:
                return found
        if link.number is not None:
            named = document_id(link.text) if link.stem is None else None
            numbered = self.by_number.get((log, link.number), [])
            if named is not None:  # "RFD 12": the document of that series, in any folder
                same = [entry for entry in numbered if named in self.ids(entry)]
                numbered = same or self.by_id.get(named) or numbered
            return numbered[0] if len(numbered) == 1 else None
        if link.stem is None and _ISO_DATE_RE.fullmatch(link.text):
            # "the entry of 2025-06-01": the one page of the folder whose file stem starts so
            dated = list(self.by_date.get((log, link.text), {}).values())
            return dated[0] if len(dated) == 1 else None
        return self._by_title_in(log, link.text) if link.stem is None else None

    def _by_title_in(self, log: str, text: str) -> RegistryEntry | None:
        """The document of the log titled `text`, else the one document of the memory so titled
        (a title of two words or more: one word names a thing more often than a page)."""
        title = entity_key(plain_text(text))
        found = self.by_title.get((log, title))
        if found is None and " " in title:
            titled = self.by_any_title.get(title, [])
            found = titled[0] if len(titled) == 1 else None
        return found

    def names_series(self, link: RecordLink) -> bool:
        """Does `link` name a series of documents: a common one (ADR, RFC, INC ...) or one a
        document of this memory states its id in ("CEP-0004")?"""
        named = document_id(link.text)
        if named is None:
            return False
        if not self._series:
            self._series = {series for series, _ in self.by_id}
        return named[0] in RECORD_SERIES or named[0] in self._series

    @staticmethod
    def ids(entry: RegistryEntry, stem: str | None = None) -> set[tuple[str, int]]:
        """The ids a document's stem, title and aliases start with; a decision record numbered
        by its file alone ("0015-score-claims.md", "# 7. Score ...") is that number's ADR; a
        tracker's page is known by its number there too ("#2291": link_items.title_hash)."""
        stem = stem or entry.recordKey
        names = (stem, entry.canonicalName, *entry.aliases)
        found = {one for name in names if (one := document_id(name)) is not None}
        if not found and entry.entityType == DECISION_TYPE and stem and not _ISO_DATE_RE.match(stem):
            number = record_number(stem)
            if number is not None:
                found.add(("adr", number))
        titled = (hash_key(own) for name in names[1:] if name and (own := title_hash(name)) is not None)
        return found | {one for one in titled if one is not None}

    def _by_title(self, link: RecordLink) -> RegistryEntry | None:
        """A wiki's `[[Page title]]` or a link to a page outside the memory by its title: the one
        document of that title, else of the title words and kind its text names ("rate limiter
        design doc"); "the stand-in balance proposal": the one document titled with those words
        (_by_title_words)."""
        if link.folder == BY_WORDS:
            return self._by_title_words(link.text)
        titled = self.by_any_title.get(entity_key(plain_text(link.text)), [])
        if titled:
            return titled[0] if len(titled) == 1 else None
        phrase = label_phrase(plain_text(link.text))  # "[rate limiter design doc](https://...)"
        return self._by_title_words(phrase) if phrase else None

    def _by_title_words(self, phrase: str) -> RegistryEntry | None:
        """The one document whose title holds every word of a reference by title words, of a
        kind its noun allows (tasks/extract/titled_links.py); None when none or several do."""
        if not self._by_word:
            for titled in self.by_any_title.values():
                for entry in titled:
                    for word in set(title_words(entry.canonicalName)):
                        self._by_word.setdefault(word, []).append(entry)
        words, kind = phrase_parts(phrase)
        found: list[RegistryEntry] | None = None
        for word in words:
            holding = self._by_word.get(word, [])
            found = holding if found is None else [one for one in found if any(e is one for e in holding)]
        fitting = [entry for entry in found or () if kind_allows(kind, entry.entityType)]
        return fitting[0] if len(fitting) == 1 else None

    def _by_url(self, parent: str, stem: str) -> RegistryEntry | None:
        """A document linked by URL: by its last folder and stem, else by its stem alone
        (when one document of the memory has it)."""
        tail = self.by_tail.get((parent, stem), [])
        if len(tail) == 1:
            return tail[0]
        bare = self.by_bare_stem.get(stem, [])
        return bare[0] if len(bare) == 1 and not tail else None


def _opens_with_key(entry: RegistryEntry, key: str) -> bool:
    """Does a name of `entry` (its title, an alias, its file stem) open with the whole `key`?"""
    key = key.lower()
    for name in (entry.canonicalName, *entry.aliases, entry.recordKey or ""):
        name = name.lower()
        if name.startswith(key) and not name[len(key):len(key) + 1].isalnum():
            return True
    return False


@dataclass(frozen=True, slots=True)
class PendingLinks:
    """A source's record links that resolved to no record yet (kept in the distill state, so a
    record distilled later still gets the relation an earlier one stated: DistilledSource's
    pendingRecordLinks)."""

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
                **({"folder": link.folder} if link.folder is not None else {}),
                **({"mention": True} if link.mention else {}),
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
                item.get("folder"), bool(item.get("mention")),
            )
            for item in items
        )
        return cls(source, str(items[0]["subject"]), links)


def apply_record_links(
    merge: _Merge,
    resolved: Iterable[tuple[Extraction, RegistryEntry]],
    pending: Iterable[tuple[PendingLinks, RegistryEntry]],
    index: RecordIndex,
    registry: _Registry,
) -> dict[str, PendingLinks]:
    """Typed links first (so a `relates_to` never doubles a stronger relation; a citation by
    key is typed: tasks/distill/record_keys.py), then the rest; the registry learns the key as a
    citation spells it. Returns, by raw asset, the links that still resolve to no record."""
    items: list[_Linking] = [
        _Linking(extraction.source, extraction, subject, tuple(extraction.record_links))
        for extraction, subject in resolved
        if extraction.record_links
    ]
    items += [_Linking(p.source, None, subject, p.links) for p, subject in pending]
    linker = _Linker(merge, index, registry.forgotten_entry, registry.add_alias)
    for typed in (True, False):
        for item in items:
            linker.link(item, typed=typed)
    subjects = {item.source.asset_id: item for item in items}
    return {
        asset: PendingLinks(subjects[asset].source, subjects[asset].subject.canonicalName,
                            tuple(links))
        for asset, links in sorted(linker.left.items())
    }


@dataclass(frozen=True)
class _Linking:
    """A source's record links: `extraction` is None for links pending from an earlier run."""

    source: SourceRef
    extraction: Extraction | None
    subject: RegistryEntry
    links: tuple[RecordLink, ...]


@dataclass
class _Linker:
    merge: _Merge
    index: RecordIndex
    forgotten: Callable[[RegistryEntry], bool]
    add_alias: Callable[[RegistryEntry, str], None] | None = None
    left: dict[str, list[RecordLink]] = field(default_factory=dict)  # raw asset -> unresolved

    def link(self, item: _Linking, *, typed: bool) -> None:
        """Apply the item's typed links (or its untyped ones) that resolve to a record; a plain
        link that cites its record by key is a typed one."""
        log = record_log(item.source)
        for link in item.links:
            target = self.index.resolve(link, log)
            stated = link.relation_type != RELATES_TO
            if target is not None and stated and self.index.names_entry(link, target):
                # "This replaces DL-04": an entry of the log is replaced, not the log that holds it
                link = replace(link, relation_type=RELATES_TO, incoming=False)
            relation_type = link.relation_type
            if target is not None:
                relation_type = relation_for_key(link, item.subject, target, self.index.cited_ids(target),
                                                 self.index.log_of.get(entity_key(target.canonicalName), ""))
            if (relation_type != RELATES_TO) is not typed:
                continue
            if target is None:
                # A page of this memory may be distilled in a later run: its link waits for it
                # (so the relation does not depend on the order pages came in); one that names
                # a record is also a candidate until then.
                if link.mention and not self.index.names_series(link):
                    continue  # "HTTP 503": no document's id, now or later
                waiting = self.left.get(item.source.asset_id, [])
                if (link.stem or is_record_like(link)) and link not in waiting:
                    # (once: a source read again for its mentions also has its links from the state)
                    self.left.setdefault(item.source.asset_id, []).append(link)
                if is_record_like(link) and item.extraction is not None:
                    _candidate(item.extraction, link)
                continue
            self._apply(item, link, target, relation_type)

    def _apply(self, item: _Linking, link: RecordLink, target: RegistryEntry, relation_type: str) -> None:
        merge, subject, origin = self.merge, item.subject, item.source
        if target is subject or self.forgotten(target):
            return
        if relation_type != link.relation_type and self.add_alias is not None:
            # a citation by key (record_keys) teaches the key as written
            spelled = key_spelling(link, target, self.index.ids(target))
            if spelled:
                self.add_alias(target, spelled)
        source, other = (target, subject) if link.incoming else (subject, target)
        pair = (entity_key(source.canonicalName), entity_key(other.canonicalName))
        if relation_type == RELATES_TO and (pair in merge.pairs or pair[::-1] in merge.pairs):
            return
        merge.relate(source, relation_type, other, origin)
        if relation_type == PARTIALLY_SUPERSEDES:
            note = f"Partly superseded by {source.canonicalName}: {link.excerpt}"
            if len(note) > _NOTE_CHARS:
                note = note[: _NOTE_CHARS - 4].rsplit(" ", 1)[0] + " […]"
            merge.observe_in(merge.entity(other), entity_key(other.canonicalName),
                             ObservationFact(note, link.line, link.line), origin)


def _candidate(extraction: Extraction, link: RecordLink) -> None:
    extraction.candidates.append(
        CandidateFact(
            link.stem or link.text, RECORD_LINK_CANDIDATE, link.line,
            f"{link.relation_type}: {link.excerpt}"[:_NOTE_CHARS],
        )
    )


def pending_record_links(state: Iterable[DistilledSource],
                         read_now: AbstractSet[str]) -> list[PendingLinks]:
    """Unresolved links kept in the distill state, of sources this run does not re-read."""
    found: list[PendingLinks] = []
    for entry in state:
        items = entry.pendingRecordLinks
        if items and entry.assetId not in read_now:
            found.append(PendingLinks.from_json(entry.assetId, entry.sourcePage, items))
    return found


def mark_record_logs(resolved: Iterable[tuple[Extraction, RegistryEntry]]) -> bool:
    """Note each record's log on its registry entry (first seen wins). True when one changed."""
    changed = False
    for extraction, entry in resolved:
        if extraction.record_key and entry.recordLog is None:
            entry.recordLog = record_log(extraction.source)
            changed = True
    return changed
