"""Where memory stores are under a path (read-only): .mem/ JSONL stores and MemoryCustodian
memory directories (a folder holding manifest.md, by default docs/memory/)."""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from schemas.raw_manifest import RawAsset
from tasks.memstores.store_names import MANIFEST, MEM_DIR, is_mem_store

CUSTODIAN_MARKER = "MemoryCustodian"
CUSTODIAN_CORE_FILES = ("decisions.md", "constraints.md", "do-not-use.md", "inbox.md",
                        "subjects.md", "brief.md")
_SKIP_DIRS = frozenset({"node_modules", "__pycache__", "venv"})
# A stored file's store role (StoreRoles.role): `<kind>:<path in its store>`.
MEM_PREFIX = "mem:"
CUSTODIAN_PREFIX = "custodian:"


def is_custodian_dir(path: Path) -> bool:
    """A MemoryCustodian memory directory: a manifest.md that names the protocol, or one under
    docs/ (the protocol's home) beside the protocol's own files (decisions.md, subjects.md, ...);
    any other manifest.md is just a document."""
    manifest = path / MANIFEST
    if not manifest.is_file():
        return False
    if "docs" in path.parts and any((path / name).is_file() for name in CUSTODIAN_CORE_FILES):
        return True
    try:
        head = manifest.read_bytes()[:8192].decode("utf-8", "replace")
    except OSError:
        return False
    return CUSTODIAN_MARKER in head


def _walk_dirs(root: Path) -> list[Path]:
    found = []
    for current, dirnames, _ in os.walk(root, followlinks=False):
        dirnames[:] = sorted(d for d in dirnames
                             if d not in _SKIP_DIRS and (d == MEM_DIR or not d.startswith(".")))
        found.append(Path(current))
    return found


def find_mem_stores(path: Path) -> list[Path]:
    """`path` itself when it is a .mem store, else every `.mem/` store under it, sorted."""
    if path.is_dir() and (path.name == MEM_DIR or is_mem_store(path)):
        return [path]
    if not path.is_dir():
        return []
    return [d for d in _walk_dirs(path) if d.name == MEM_DIR and is_mem_store(d)]


def find_custodian_dirs(path: Path) -> list[Path]:
    """`path` when it is a memory directory, else every one under it (not nested), sorted."""
    if not path.is_dir():
        return []
    if is_custodian_dir(path):
        return [path]
    found: list[Path] = []
    for folder in _walk_dirs(path):
        if any(folder.is_relative_to(f) for f in found):
            continue
        if is_custodian_dir(folder):
            found.append(folder)
    return found


def is_manifestless_dir(path: Path) -> bool:
    """Memory files of the protocol (decisions.md, subjects.md, ...) under docs/ with no
    manifest.md beside them: an incomplete or corrupted setup (Hard Gate), never skipped."""
    return ("docs" in path.parts and not (path / MANIFEST).is_file()
            and any((path / name).is_file() for name in CUSTODIAN_CORE_FILES))


def find_manifestless_dirs(path: Path) -> list[Path]:
    """Every memory directory without its manifest at or under `path` (not nested), sorted."""
    if not path.is_dir():
        return []
    found: list[Path] = []
    for folder in _walk_dirs(path):
        if not any(folder.is_relative_to(f) for f in found) and is_manifestless_dir(folder):
            found.append(folder)
    return found


def custodian_dir_for_check(path: Path) -> Path | None:
    """The memory directory `membank check custodian PATH` audits: PATH, PATH/docs/memory, the
    one under PATH, or PATH itself when it holds memory files without a manifest (so the
    missing manifest is reported, not hidden)."""
    found = find_custodian_dirs(path)
    if found:
        return found[0]
    for candidate in (path / "docs" / "memory", path / "memory", path):
        if candidate.is_dir() and any((candidate / name).is_file() for name in CUSTODIAN_CORE_FILES):
            return candidate
    return None


class StoreRoles:
    """The store role of a file (`mem:domains/auth.jsonl`, `custodian:decisions.md`) or None,
    from its nearest enclosing store folder; folder verdicts are cached."""

    def __init__(self) -> None:
        self._kind: dict[Path, str | None] = {}

    def _folder_kind(self, folder: Path) -> str | None:
        if folder not in self._kind:
            kind = None
            if folder.name == MEM_DIR and is_mem_store(folder):
                kind = MEM_PREFIX[:-1]
            elif is_custodian_dir(folder):
                kind = CUSTODIAN_PREFIX[:-1]
            self._kind[folder] = kind
        return self._kind[folder]

    def role(self, path: str | Path) -> str | None:
        file = Path(path)
        if file.suffix.lower() not in (".md", ".jsonl"):
            return None
        for folder in file.parents:
            kind = self._folder_kind(folder)
            if kind is not None:
                if (kind == MEM_PREFIX[:-1]) != (file.suffix.lower() == ".jsonl"):
                    return None
                return f"{kind}:{file.relative_to(folder).as_posix()}"
        return None


@dataclass
class IngestedStore:
    """One ingested memory store: its files' current raw assets by store-relative path."""

    name: str
    files: dict[str, RawAsset] = field(default_factory=dict)


def ingested_stores(assets: Iterable[RawAsset], prefix: str) -> list[IngestedStore]:
    """The stores of one kind (`prefix`: MEM_PREFIX or CUSTODIAN_PREFIX) in the raw manifest,
    by name (the store folder as ingested), each file at its latest version."""
    stores: dict[str, IngestedStore] = {}
    for asset in assets:
        role = asset.storeRole or ""
        if not role.startswith(prefix):
            continue
        rel = role.removeprefix(prefix)
        name = asset.originalPath.replace("\\", "/").removesuffix(rel).rstrip("/") or "."
        stores.setdefault(name, IngestedStore(name)).files[rel] = asset  # later wins
    return [stores[k] for k in sorted(stores)]
