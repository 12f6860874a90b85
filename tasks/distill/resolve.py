"""Names -> registry entries (the spec's canonicalKey / aliasKey), and forgotten topics.

Pure: the registry and the tombstones come in loaded; new entries are registered in memory and
written by the single writer (tasks/distill/apply.py).
"""

from __future__ import annotations

import hashlib
import posixpath
import re
from collections.abc import Iterable, Sequence

from schemas.distill_inbox import TombstoneList
from schemas.graph import EntityRegistry, RegistryEntry, entity_key
from tasks.distill.record_graph import record_log
from tasks.distill.registry_rows import LoadedRegistry, RegistryEntries, entry_fields
from tasks.extract import (
    DEFAULT_LINKED_TYPE,
    SUBJECT_DOCUMENT_TYPE,
    EntityFact,
    Extraction,
    MentionMatcher,
    NameRef,
    is_meaningful_name,
)
from tasks.extract.decision_people import TEAM_TYPE

# The last word of a team's name that already says it is a group ("Payments squad", "Change
# Advisory Board"): no "team" after it.
_GROUP_WORDS = frozenset(
    """team teams squad guild tribe chapter crew group department committee board desk council""".split())


class Forgotten:
    """Tombstoned topics: entity names/aliases equal to a topic, observations containing one."""

    def __init__(self, tombstones: TombstoneList) -> None:
        topics = sorted({t.topic.strip().lower() for t in tombstones.tombstones if t.topic.strip()})
        self.topics = frozenset(topics)
        self.guards = topic_guards(tombstones)
        self._pattern = (
            re.compile("|".join(rf"(?<!\w){re.escape(t)}(?!\w)" for t in topics), re.I)
            if topics
            else None
        )

    def is_forgotten_name(self, *names: str) -> bool:
        """Is one of `names` a forgotten topic (or a hard forget's guarded topic)?"""
        if self.guards and any(_guard_of(n) in self.guards for n in names):
            return True
        return bool(self.topics) and any(n.strip().lower() in self.topics for n in names)

    def mentions_forgotten(self, text: str) -> bool:
        """Does `text` contain a forgotten topic, on word boundaries?"""
        if self.guards and _guarded_words(text, self.guards):
            return True
        return bool(self._pattern and self._pattern.search(text))


def topic_guards(tombstones: TombstoneList) -> frozenset[str]:
    """Guards of a hard forget (tasks/privacy/forget.py writes them as the tombstone's
    topicSha256): the sha256 of the casefolded topic's words, never the topic."""
    guards = (t.topicSha256 for t in tombstones.tombstones)
    return frozenset(str(guard) for guard in guards if guard)


def _guard_of(text: str) -> str:
    return hashlib.sha256(" ".join(text.casefold().split()).encode("utf-8")).hexdigest()


def _guarded_words(text: str, guards: frozenset[str], longest: int = 6) -> bool:
    """Does any run of up to `longest` words of `text` hash to a guard? (Topics of a hard
    forget are kept only as hashes, so they are found by hashing what could be them.)"""
    words = re.findall(r"[\w'-]+", text.casefold())
    for size in range(1, longest + 1):
        for start in range(len(words) - size + 1):
            if _guard_of(" ".join(words[start:start + size])) in guards:
                return True
    return False


# tasks/extract/mentions.py's word tokens (a name's words, a text's words: lowercased first).
_WORD_RE = re.compile(r"\w+")


class Resolver:
    """Names -> registry entries by the spec's canonicalKey / aliasKey; registers new ones."""

    def __init__(self, registry: EntityRegistry | LoadedRegistry, forgotten: Forgotten) -> None:
        loaded = registry if isinstance(registry, LoadedRegistry) else LoadedRegistry.of_model(registry)
        # (the loaded registry's own: rows of a file membank wrote stay rows until read)
        self.entries: RegistryEntries = loaded.entries
        self.lookup: dict[str, str] = {}
        self.forgotten = forgotten
        self.added: list[str] = []  # keys registered in this run, in order
        # keys of the registry's entries that a run registered again (a record's qualified
        # name, see resolve_subject): their canonical name is not new to the memory
        self.renewed: set[str] = set()
        for key in self.entries:
            self.lookup[key] = key
        for key, _name, aliases in self.entries.names():
            for alias in aliases:
                self.lookup.setdefault(entity_key(alias), key)
        # A document's entries by its file stem: the stem is also a name another entity may
        # have (scheduler.md, and the Scheduler it is about).
        self.by_record: dict[str, list[RegistryEntry]] = {}
        for entry in loaded.recorded():
            self.by_record.setdefault(entity_key(str(entry.recordKey)), []).append(entry)

    def find(self, name: str) -> RegistryEntry | None:
        key = self.lookup.get(entity_key(name))
        return self.entries[key] if key is not None else None

    def forgotten_entry(self, entry: RegistryEntry) -> bool:
        return self.forgotten.is_forgotten_name(entry.canonicalName, *entry.aliases)

    def add_alias(self, entry: RegistryEntry, alias: str) -> None:
        key = entity_key(alias)
        if not is_meaningful_name(alias) or key in self.lookup:
            return
        entry.aliases.append(alias.strip())
        self.lookup[key] = entity_key(entry.canonicalName)

    def register(self, name: str, entity_type: str, aliases: Iterable[str] = ()) -> RegistryEntry:
        entry = RegistryEntry(
            canonicalName=name.strip(), aliases=[], entityType=entity_type or DEFAULT_LINKED_TYPE
        )
        key = entity_key(entry.canonicalName)
        if key in self.entries and key not in self.added:
            self.renewed.add(key)
        self.entries[key] = entry
        self.lookup[key] = key
        self.added.append(key)
        for alias in aliases:
            self.add_alias(entry, alias)
        if entry.entityType == TEAM_TYPE and entry.canonicalName.split()[-1].lower() not in _GROUP_WORDS:
            # "Farm Data Platform" in a header's Team row is "the Farm Data Platform team" of prose
            self.add_alias(entry, f"{entry.canonicalName} team")
        return entry

    def unregister(self, entry: RegistryEntry) -> None:
        """Take back an entry this run registered (and did not register again over an older
        one): its names find nothing again."""
        key = entity_key(entry.canonicalName)
        if key not in self.added or key in self.renewed or self.entries.get(key) is not entry:
            return
        del self.entries[key]
        self.added = [added for added in self.added if added != key]
        for name in [key, *(entity_key(alias) for alias in entry.aliases)]:
            if self.lookup.get(name) == key:
                del self.lookup[name]

    def resolve(
        self, ref: NameRef, *, aliases: Sequence[str] = (), explicit_type: bool = False
    ) -> RegistryEntry | None:
        """The entry a name refers to (registering it when new); None when it was forgotten."""
        if self.forgotten.is_forgotten_name(*ref.names, *aliases):
            return None
        for name in ref.names:
            entry = self.find(name)
            if entry is None:
                continue
            if self.forgotten_entry(entry):
                return None
            for alias in aliases:
                self.add_alias(entry, alias)
            if (explicit_type and entry.entityType == DEFAULT_LINKED_TYPE
                    and ref.entity_type != entry.entityType):
                entry.entityType = ref.entity_type
            return entry
        return self.register(ref.display, ref.entity_type, [*aliases, *ref.names[1:]])

    def resolve_subject(self, extraction: Extraction) -> RegistryEntry | None:
        subject = extraction.subject
        if subject is None:
            return None
        if extraction.record_key is None:
            return self.resolve(
                subject.ref, aliases=subject.aliases, explicit_type=subject.explicit_type
            )
        # A decision record is identified by its file; two records may share a title.
        if self.forgotten.is_forgotten_name(subject.ref.display, *subject.aliases):
            return None
        return self._resolve_record(subject, extraction.record_key, record_log(extraction.source))

    def _record_entries(self, record: str, log: str) -> tuple[RegistryEntry | None, RegistryEntry | None]:
        """The entry a record's file stem finds, and, when that is a namesake's in another
        folder (another document: None), this folder's own entry, kept under a qualified name
        by an earlier run and found by its record and folder."""
        by_record = self.find(record)
        recorded = [e for e in self.by_record.get(entity_key(record), []) if not _elsewhere(e, record, log)]
        if by_record is not None and by_record.recordKey != record and recorded:
            by_record = recorded[0]  # the document, not an entity named like its file
        if by_record is not None and _elsewhere(by_record, record, log):
            return None, (recorded[0] if recorded else None)
        return by_record, None

    def _resolve_record(self, subject: EntityFact, record: str, log: str) -> RegistryEntry | None:
        by_record, own = self._record_entries(record, log)
        if by_record is not None:
            if self.forgotten_entry(by_record):
                return None
            self.add_alias(by_record, subject.ref.display)
            self._mark(by_record, record)
            return by_record
        by_title = self.find(subject.ref.display)
        if by_title is not None and self.forgotten_entry(by_title):
            return None
        elsewhere = by_title is not None and _elsewhere(by_title, record, log)
        if by_title is not None and by_title.recordKey in (None, record) and not elsewhere:
            for alias in subject.aliases:
                self.add_alias(by_title, alias)
            if by_title.entityType == DEFAULT_LINKED_TYPE:
                by_title.entityType = subject.ref.entity_type
            self._mark(by_title, record)
            return by_title
        name = subject.ref.display if by_title is None else f"{subject.ref.display} ({record})"
        # A decision record is a decision; a genre document keeps its genre's type (proposal,
        # incident, runbook, meeting, document: tasks/extract/genre_facts.py).
        if elsewhere:
            name = f"{subject.ref.display} ({posixpath.basename(log) or record})"
        if own is not None and entity_key(own.canonicalName) == entity_key(name):
            for alias in subject.aliases:  # a new version: the entry keeps what it had
                self.add_alias(own, alias)
            return own
        entry = self.register(name, subject.ref.entity_type, subject.aliases)
        self._mark(entry, record)
        entry.recordLog = entry.recordLog or log  # its folder, so a namesake elsewhere is told apart
        return entry

    def _mark(self, entry: RegistryEntry, record: str) -> None:
        """Note a document's file stem on its entry (first seen wins), and index it."""
        if entry.recordKey is None:
            entry.recordKey = record
            self.by_record.setdefault(entity_key(record), []).append(entry)

    def mention_names(self, keys: Iterable[str], *, keep_canonical: bool = True) -> dict[str, str]:
        """Surface form -> canonical name of the entries `keys` that mentions may name: not
        plain documents, not forgotten; a record's file stem is not a name (nor, unless
        `keep_canonical`, a canonical name equal to it)."""
        names: dict[str, str] = {}
        for key in keys:
            # (read as held: a matcher over many entries makes no model of them)
            canonical, aliases, record, entity_type = entry_fields(self.entries.peek(key))
            if entity_type == SUBJECT_DOCUMENT_TYPE or self.forgotten.is_forgotten_name(canonical, *aliases):
                continue
            if keep_canonical or canonical != record:
                names.setdefault(canonical, canonical)
            for alias in aliases:
                if alias != record:
                    names.setdefault(alias, canonical)
        return names

    def new_mention_names(self) -> dict[str, str]:
        """mention_names (without canonical names equal to a file stem) of the names this run
        brought to the memory: every name of an entry registered in it, but only the aliases of
        an entry it registered again (its canonical name was matched against the sources
        when it was first registered, and every source since). A new version of a record kept
        under a qualified name registers it again on every ingest; its name is not new."""
        names = self.mention_names([k for k in self.added if k not in self.renewed],
                                   keep_canonical=False)
        for key in dict.fromkeys(k for k in self.added if k in self.renewed):  # (in run order)
            canonical = self.entries[key].canonicalName
            for surface, name in self.mention_names([key], keep_canonical=False).items():
                if surface != canonical:
                    names.setdefault(surface, name)
        return names

    def mention_matcher(self, texts: Iterable[str] | None = None) -> MentionMatcher:
        """The matcher of every name mentions may name; given the `texts` it will search, over
        the entries only that have a name whose first word occurs in them: it finds the same
        mentions in those texts (a name matches where its first word does; an entry kept keeps
        every name, in registry order), without tokenizing all the registered names."""
        if texts is None:
            return MentionMatcher(self.mention_names(self.entries))
        words = {word for text in texts for word in _WORD_RE.findall(text.lower())}
        return MentionMatcher(self.mention_names(self._starting_with(words)))

    def _starting_with(self, words: set[str]) -> list[str]:
        """Keys (in registry order) of the entries with a name whose first word is in `words`."""
        if not words:
            return []
        first = _WORD_RE.search
        keys: list[str] = []
        for key, canonical, aliases in self.entries.names():
            match = first(canonical.lower())
            if match is not None and match.group() in words:
                keys.append(key)
                continue
            for alias in aliases:
                match = first(alias.lower())
                if match is not None and match.group() in words:
                    keys.append(key)
                    break
        return keys

    def registry(self, now_iso: str, stamp: str | None) -> EntityRegistry:
        return EntityRegistry(
            registryGeneratedAtUtc=stamp or now_iso, entries=list(self.entries.values())
        )


def _elsewhere(entry: RegistryEntry, record: str, log: str) -> bool:
    """`entry` is the document with the file name `record` in another folder."""
    return entry.recordKey == record and entry.recordLog is not None and entry.recordLog != log
