"""The entity registry (context/entity-registry.jsonc) as distill's merge reads and writes it:
the rows of a file membank wrote, made models only for the entries the merge reads.

A one-note ingest at 100,000 pages (50,000 entries) validated every entry into a model
(~0.09-0.13 s), took two snapshots of all of them to learn what the merge changed (~0.02 s
each), normalized all of them (~0.03-0.07 s) and, for a new name, dumped all of them again, to
read a few and change one or two. A file membank wrote (tasks/store/written.py) was validated
on the way in; its rows are held as read (RegistryEntries), an entry the merge asks for is made
its model from its row, and the file is written from the rows and the models made (orjson's
two-space layout: the bytes pydantic's encoder writes for the same data,
tests/tasks/store/test_graph_store.py) only when a model differs from its row or an entry came
or went. Rows are taken only from a file as normalize_registry leaves it (keys strictly
increasing, every entry's aliases normal: what membank's writers save), so an entry kept as its
row is what normalizing it would write. Any other file (a person's edit, a copy of unknown
bytes, another order) is validated and written from its models, normalized, as before. The
entries' rows, by key, are handed over to the search index's update that follows the distill
(tasks/store/graph_store.py, hand_over), which would otherwise read and key the file again.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, MutableMapping
from pathlib import Path
from typing import Any, cast

from schemas.graph import EntityRegistry, RegistryEntry, entity_key
from tasks.store.filememo import file_identity
from tasks.store.graph_store import (
    REGISTRY_STAMP,
    RegistryRowsByKey,
    empty_registry,
    hand_over,
    load_registry,
    normal_aliases,
    normalize_registry,
    normalized_aliases,
    save_registry,
    save_registry_data,
)
from tasks.store.held_models import HeldModels, Row
from tasks.store.written import written_data

# What the search index takes of an entry (its aliases and its page): a change of either is one
# of the search changes a write records (tasks/store/graph_segments.py, record_changes).
SearchView = tuple[tuple[str, ...], str | None]


def entry_fields(held: Row | RegistryEntry) -> tuple[str, list[str], str | None, str]:
    """(canonical name, aliases, record key, entity type) of an entry held as a row or a model."""
    if isinstance(held, dict):
        return held["canonicalName"], held.get("aliases") or [], held.get("recordKey"), held["entityType"]
    return held.canonicalName, held.aliases, held.recordKey, held.entityType


def _search_view(held: Row | RegistryEntry) -> SearchView:
    if isinstance(held, dict):
        return tuple(held.get("aliases") or ()), held.get("entityPage")
    return tuple(held.aliases), held.entityPage


class RegistryEntries(HeldModels[RegistryEntry], MutableMapping[str, RegistryEntry]):
    """Entries by entity key, in registry order (new ones last), each the file's row until read
    and its model after (which the merge may change in place). The rows the models were made
    from, and the keys of the file's entries taken out, are kept to tell what changed."""

    def __init__(self, held: dict[str, Row | RegistryEntry] | None = None) -> None:
        super().__init__(held)
        self.read_rows: dict[str, Row] = {}  # key -> the row its model was made from
        self.modelled: set[str] = set()  # keys held as models (made from a row, or set)
        self.removed: set[str] = set()  # keys that held a row or a model made from one

    @staticmethod
    def made(row: Row) -> RegistryEntry:
        return RegistryEntry.model_validate(row)

    def __getitem__(self, key: str) -> RegistryEntry:
        held = self._held[key]
        if isinstance(held, dict):
            self.read_rows[key] = held
            self.modelled.add(key)
        return super().__getitem__(key)

    def __setitem__(self, key: str, entry: RegistryEntry) -> None:
        held = self._held.get(key)
        if isinstance(held, dict):
            self.read_rows.setdefault(key, held)
        self._held[key] = entry
        self.modelled.add(key)

    def __delitem__(self, key: str) -> None:
        held = self._held.pop(key)
        self.modelled.discard(key)
        if isinstance(held, dict) or key in self.read_rows:
            self.removed.add(key)

    def held_rows(self) -> dict[str, Row | RegistryEntry]:
        """Every entry as held, by key, in order (a copy)."""
        return dict(self._held)

    def peek(self, key: str) -> Row | RegistryEntry:
        """The entry as held (its row or its model), not made a model: for reading its fields."""
        return self._held[key]

    def names(self) -> Iterator[tuple[str, str, list[str]]]:
        """(key, canonical name, aliases) of every entry, in order, without models."""
        for key, held in self._held.items():
            if isinstance(held, dict):
                yield key, held["canonicalName"], held.get("aliases") or []
            else:
                yield key, held.canonicalName, held.aliases

    def having(self, name: str) -> Iterator[tuple[str, RegistryEntry]]:
        """(key, entry) of the entries whose field `name` is set, in order; the others are not
        made models."""
        for key, held in self._held.items():  # (a row made its model replaces a value only)
            if (held.get(name) if isinstance(held, dict) else getattr(held, name)) is not None:
                yield key, self[key]

    def pages(self) -> Iterator[tuple[str, str, list[str]]]:
        """(key, entity page, aliases) of the entries with a page, in order, without models."""
        for key, held in self._held.items():  # (written out: 50,000 entries, twice a run)
            if isinstance(held, dict):
                if (page := held.get("entityPage")) is not None:
                    yield key, page, held.get("aliases") or []
            elif held.entityPage is not None:
                yield key, held.entityPage, held.aliases


def registered_pages(entries: Mapping[str, RegistryEntry]) -> Iterator[tuple[str, str, list[str]]]:
    """RegistryEntries.pages of any mapping of entries (a plain dict: reconcile's repairs)."""
    if isinstance(entries, RegistryEntries):
        return entries.pages()
    return ((key, entry.entityPage, entry.aliases) for key, entry in entries.items()
            if entry.entityPage is not None)


class LoadedRegistry:
    """The registry a merge starts from: its stamp and entries (RegistryEntries, which the
    Resolver takes as its own), and how the file was read: `rows` (the file's identity then)
    or the validated model's entries (`listed`, duplicates and all, as they were in the file)."""

    def __init__(self, stamp: str, entries: RegistryEntries, *, written: list[int] | None = None,
                 listed: list[RegistryEntry] | None = None, clean: bool = True) -> None:
        self.stamp = stamp
        self.entries = entries
        self.written = written  # rows: the file's identity when read; None: from models
        self.listed = listed
        self.clean = clean  # rows: the file holds no top-level key but the stamp and entries
        # models: each entry's search view before the merge changes them in place
        self.views_before = ({} if listed is None else
                             {entity_key(entry.canonicalName): _search_view(entry) for entry in listed})

    @classmethod
    def of_model(cls, registry: EntityRegistry) -> LoadedRegistry:
        """A validated registry's entries, keyed as the Resolver keys them (an entry of a key
        seen before takes its place)."""
        entries = RegistryEntries()
        for entry in registry.entries:
            entries[entity_key(entry.canonicalName)] = entry
        return cls(registry.registryGeneratedAtUtc, entries, listed=list(registry.entries))

    @classmethod
    def read(cls, path: Path, now_iso: str) -> LoadedRegistry:
        """The file's registry: rows when membank wrote it as it is and it is normalized, else
        the validated model's entries; an empty registry when there is no file."""
        if not path.exists():
            return cls.of_model(empty_registry(now_iso))
        identity = file_identity(path)
        held = _normal_rows(written_data(path))
        if held is None or identity is None:
            return cls.of_model(load_registry(path))
        data, rows = held
        return cls(data[REGISTRY_STAMP], RegistryEntries(rows), written=identity,
                   clean=data.keys() <= {REGISTRY_STAMP, "entries"})

    def recorded(self) -> Iterator[RegistryEntry]:
        """The entries with a recordKey, in the file's order (duplicates too, when read from
        the model)."""
        if self.listed is not None:
            yield from (entry for entry in self.listed if entry.recordKey)
        else:
            yield from (entry for _key, entry in self.entries.having("recordKey"))

    def save(self, path: Path, *, now_iso: str) -> tuple[bool | None, set[str]]:
        """Write the registry the merge left, as normalize_registry leaves it (the stamp
        refreshed only on a real change); None when the file holds those bytes already (rows
        that did not change, nothing written), else whether the write changed the file. And the
        keys of the entries whose aliases or page changed, or that are gone (search changes)."""
        if self.written is None:
            return self._save_models(path, now_iso)
        entries = self.entries
        search: set[str] = set(entries.removed - entries.keys())
        changed = bool(search)
        # (only the entries held as models can differ from the file: the rest are its rows)
        dumped: dict[str, Row] = {}
        for key in entries.modelled:
            entry = entries[key]
            row = dumped[key] = entry.model_dump(mode="json", exclude_none=True)
            if not normal_aliases(entry.aliases, key):
                row["aliases"] = normalized_aliases(entry.aliases, key)
            before = entries.read_rows.get(key)
            if row != before:
                changed = True
                if before is None or _search_view(before) != _search_view(row):
                    search.add(key)
        by_key = RegistryRowsByKey()  # (every entry's row by key, for the search index's update)
        if not changed and self.clean and file_identity(path) == self.written:
            wrote = None
            by_key.update(cast(dict[str, Row], entries.held_rows()))  # (rows but the modelled,
            by_key.update(dumped)  # which the same rows replace)
        else:
            for key in sorted(entries):
                by_key[key] = dumped[key] if key in dumped else cast(Row, entries.peek(key))
            wrote = save_registry_data(path, {REGISTRY_STAMP: self.stamp, "entries": list(by_key.values())},
                                       now_iso=now_iso)
        hand_over(path, by_key)
        return wrote, search

    def _save_models(self, path: Path, now_iso: str) -> tuple[bool, set[str]]:
        registry = normalize_registry(EntityRegistry(
            registryGeneratedAtUtc=self.stamp, entries=list(self.entries.values())))
        after = {entity_key(entry.canonicalName): _search_view(entry) for entry in registry.entries}
        before = self.views_before
        search = {key for key, view in after.items() if before.get(key) != view} | (before.keys() - after)
        return save_registry(path, registry, now_iso=now_iso), search


def _normal_rows(data: Any) -> tuple[dict[str, Any], dict[str, Row | RegistryEntry]] | None:
    """The file's data and its entries' rows by key, when it is in the shape and order
    normalize_registry leaves (None: read it through the model)."""
    if not isinstance(data, dict) or not isinstance(data.get(REGISTRY_STAMP), str):
        return None
    listed = data.get("entries")
    if not isinstance(listed, list):
        return None
    rows: dict[str, Row | RegistryEntry] = {}
    previous = ""
    for row in listed:
        if not isinstance(row, dict) or not isinstance(name := row.get("canonicalName"), str):
            return None
        key = entity_key(name)
        aliases = row.get("aliases") or []
        if (rows and key <= previous) or not isinstance(aliases, list) or not normal_aliases(aliases, key):
            return None
        rows[key] = row
        previous = key
    return data, rows
