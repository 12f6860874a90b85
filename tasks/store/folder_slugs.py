"""The slugs of a folder's `<prefix>__<slug>.<ext>` file names, asked one at a time.

A writer that names a new file asks whether a slug is taken (ingest: raw/ and wiki/sources/,
20,000 names each at 100,000 pages) or which page already has it (distill: wiki/entities/,
50,000 names). Matching and sorting every name to build a map of all slugs cost a one-note
ingest ~0.04 s and a new entity page ~0.03 s, for the one or two slugs it asks about. Here the
folder is listed once, unsorted, and a slug asked is found among the names that hold
`__<slug>`, kept for the slugs that begin with it (a note's tenth version asks for `note`, then
`note-2` ... `note-10`: one scan); a caller that asks about many others (an ingest of many
files, a repair) gets the map, built once. Both ways give the same answer: the first name, by
name, whose slug it is.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

# Scans of the names before the map of every slug is built (a scan costs ~1/20 of the map at
# 20,000-50,000 names).
SCANS_BEFORE_MAP = 16


class FolderSlugs:
    """`slug_of(name)`: a file name's slug (None for a name that has none); it must be found in
    the name as `__<slug>.`. Slugs `add`ed by the caller (files staged, not yet on disk) count
    as taken."""

    def __init__(self, folder: Path, slug_of: Callable[[str], str | None]) -> None:
        self._folder, self._slug_of = folder, slug_of
        self._names: list[str] | None = None
        self._map: dict[str, str] | None = None
        self._added: set[str] = set()
        # slug scanned for -> the names holding `__<slug>` (those of every slug it begins)
        self._near: dict[str, list[str]] = {}

    def _listed(self) -> list[str]:
        if self._names is None:
            self._names = os.listdir(self._folder) if self._folder.is_dir() else []
        return self._names

    def slug_map(self) -> dict[str, str]:
        """Slug -> the first file name (by name) of that slug, of every name on disk."""
        if self._map is None:
            found: dict[str, str] = {}
            for name in sorted(self._listed()):  # (names: sorting Paths costs seconds)
                slug = self._slug_of(name)
                if slug is not None:
                    found.setdefault(slug, name)
            self._map = found
        return self._map

    def first(self, slug: str) -> str | None:
        """The first file name on disk (by name) whose slug is `slug`."""
        near = self._near_names(slug) if self._map is None else None
        if near is None:
            return self.slug_map().get(slug)
        marker = f"__{slug}."
        named = [name for name in near if marker in name and self._slug_of(name) == slug]
        return min(named) if named else None

    def _near_names(self, slug: str) -> list[str] | None:
        """The names that may have `slug` (they hold `__<slug>`); None once scans cost more
        than the map."""
        for scanned, names in self._near.items():
            if slug.startswith(scanned):  # `__<slug>` holds `__<scanned>`
                return names
        if len(self._near) >= SCANS_BEFORE_MAP:
            return None
        marker = f"__{slug}"
        names = self._near[slug] = [name for name in self._listed() if marker in name]
        return names

    def add(self, slug: str) -> None:
        self._added.add(slug)

    def __contains__(self, slug: object) -> bool:
        return isinstance(slug, str) and (slug in self._added or self.first(slug) is not None)
