"""The walk of a memory root: every file's stat, the folders, symlinks and crash leftovers.

Apart from tasks/checks/scan.py (which parses what the walk finds) so that a reconcile whose
verdict still holds (tasks/checks/reconcile/verdict.py) imports no parser: the walk and its
fingerprint are all it needs. Each folder is read once with os.scandir on an open descriptor,
so a file's stat is an fstatat relative to its folder (no path lookup from the root per file:
at 100,000 pages the stats are most of the walk's cost).

Skipped: .membank/, proposals/ (not memory pages), context/health/ (our own output), hidden
files (atomic-write temp files: listed apart, as a crash's leftovers), MemoryCustodian trees
under docs/ (a store with its own rules: tasks/memstores).
"""

from __future__ import annotations

import gc
import hashlib
import os
import stat
from dataclasses import dataclass, field
from operator import itemgetter
from pathlib import Path
from typing import NamedTuple

import orjson

from tasks.store.atomic import is_temp_name
from tasks.store.layout import HEALTH_DIR, PROPOSALS_DIR, STATE_DIR

SKIP_TOP = frozenset({STATE_DIR, PROPOSALS_DIR, ".git"})
SKIP_PATHS = frozenset({HEALTH_DIR})
# Skipped folders whose own files are still looked at for temp files (our bookkeeping and
# output are written atomically too: the search index build, the health files).
_TEMP_ONLY = frozenset({STATE_DIR, HEALTH_DIR})
_BY_FD = os.scandir in os.supports_fd and os.stat in os.supports_dir_fd
_DIR_FLAGS = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_CLOEXEC", 0)

# the fingerprint's JSON: the stats dict's keys sorted, FileStat (a tuple subclass) as a list
_FINGERPRINT_OPTIONS = orjson.OPT_SORT_KEYS | orjson.OPT_PASSTHROUGH_SUBCLASS
_CTIME = itemgetter(2)  # FileStat.st_ctime_ns
# (path, size, mtime_ns, ctime_ns, inode, mode) of one file, as the fingerprint hashes it
FileRow = tuple[str, int, int, int, int, int]


class FileStat(NamedTuple):
    """What is kept of a file's stat (os.stat_result's names): a third of its memory, and a
    walk of 100,000 pages keeps 200,000 of them (a reconcile holds two or three walks)."""

    st_size: int
    st_mtime_ns: int
    st_ctime_ns: int
    st_ino: int
    st_mode: int

    @classmethod
    def of(cls, st: os.stat_result) -> FileStat:
        return cls(st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino, st.st_mode)


@dataclass
class _Found:
    stats: dict[str, FileStat] = field(default_factory=dict)
    dirs: set[str] = field(default_factory=set)
    links: list[str] = field(default_factory=list)


def _is_custodian(path: str) -> bool:
    from tasks.memstores.discover import is_custodian_dir  # only for folders under docs/

    return is_custodian_dir(Path(path))


def _listing(folder: str) -> tuple[int | None, list[os.DirEntry[str]]] | None:
    """An open descriptor of the folder (where the platform allows stats relative to it) and
    its entries; None when it cannot be read."""
    try:
        if not _BY_FD:
            return None, list(os.scandir(folder))
        fd = os.open(folder, _DIR_FLAGS)
    except OSError:
        return None
    try:
        return fd, list(os.scandir(fd))
    except OSError:
        os.close(fd)
        return None


def _walk_folder(found: _Found, prefix: str, folder: str, temps: list[str] | None,
                 stack: list[tuple[str, str]]) -> None:
    """One folder: each file's stat made while the folder's descriptor is open (a file removed
    in between is left out, as if walked a moment later); subfolders go on the stack."""
    listing = _listing(folder)
    if listing is None:
        return
    fd, entries = listing
    stats, new = found.stats, tuple.__new__  # new: FileStat without its Python-level __new__
    try:
        for entry in entries:
            name = entry.name
            # is_file() fills the entry's lstat where the folder gives no file types
            if name[0] != "." and entry.is_file(follow_symlinks=False):
                try:
                    st = entry.stat(follow_symlinks=False)
                except FileNotFoundError:
                    continue
                stats[prefix + name] = new(FileStat, (st.st_size, st.st_mtime_ns,
                                                      st.st_ctime_ns, st.st_ino, st.st_mode))
            else:
                _other_entry(found, entry, (prefix, folder), temps, stack)
    finally:
        if fd is not None:
            os.close(fd)


def _other_entry(found: _Found, entry: os.DirEntry[str], where: tuple[str, str],
                 temps: list[str] | None, stack: list[tuple[str, str]]) -> None:
    """A folder, a symlink, a hidden name (temp files: a crash's leftovers) or another kind;
    `where`: the folder's prefix (its path from the root) and its path."""
    prefix, folder = where
    name = entry.name
    rel = f"{prefix}{name}"
    if temps is not None and rel in _TEMP_ONLY and entry.is_dir(follow_symlinks=False):
        temps += _temp_files_in(f"{folder}/{name}", f"{rel}/")
    if name.startswith("."):
        if temps is not None and is_temp_name(name):
            temps.append(rel)
        return
    if entry.is_symlink():
        found.links.append(rel)
    elif entry.is_dir(follow_symlinks=False):
        if (not prefix and name in SKIP_TOP) or rel in SKIP_PATHS:
            return
        if rel.startswith("docs/") and _is_custodian(f"{folder}/{name}"):
            return  # a MemoryCustodian tree: audited by its own rules (tasks/memstores)
        found.dirs.add(rel)
        stack.append((f"{rel}/", f"{folder}/{name}"))


def _walk(root: Path, temps: list[str] | None) -> _Found:
    found = _Found()
    stack = [("", str(root))]
    while stack:
        prefix, folder = stack.pop()
        _walk_folder(found, prefix, folder, temps, stack)
    return found


def walk(root: Path, temps: list[str] | None = None
         ) -> tuple[dict[str, FileStat], set[str], list[str]]:
    """stat() every file under root, skipping bookkeeping, proposals and our own output.

    Symlinks are never followed; they are returned apart so reconcile can report them.
    Temp files of tasks/store/atomic.py found on the way are added to `temps` (crash leftovers)."""
    found = _walk(root, temps)
    return found.stats, found.dirs, sorted(found.links)


def _temp_files_in(folder: str, prefix: str) -> list[str]:
    """Temp files directly in a folder the walk does not enter."""
    try:
        return [f"{prefix}{e.name}" for e in os.scandir(folder)
                if is_temp_name(e.name) and e.is_file(follow_symlinks=False)]
    except OSError:
        return []


@dataclass(frozen=True)
class Walked:
    """One walk of a memory root (walk()): every file's stat, the folders, the symlinks and the
    temp files a crash left."""

    stats: dict[str, FileStat]
    dirs: set[str]
    links: list[str]
    temps: list[str]

    def fingerprint(self) -> str:
        """A digest of everything the walk saw: each file's path, size, mtime, ctime, inode and
        mode, the folders, symlinks and temp files. Equal digests mean no file was written,
        replaced, renamed, added, removed or chmod-ed in between (ctime moves on every write
        and cannot be set back by hand, unlike mtime)."""
        try:  # orjson sorts the paths and writes each FileStat as the tuple it is
            data = orjson.dumps((self.stats, sorted(self.dirs), self.links, sorted(self.temps)),
                                default=tuple, option=_FINGERPRINT_OPTIONS)
        except orjson.JSONEncodeError:  # a name that is not valid UTF-8 (surrogate escapes)
            rows: list[FileRow] = sorted((rel, *st) for rel, st in self.stats.items())
            everything = (rows, sorted(self.dirs), self.links, sorted(self.temps))
            data = repr(everything).encode("utf-8", "surrogateescape")
        return hashlib.blake2b(data, digest_size=16).hexdigest()

    def probe(self) -> list[int]:
        """A few figures of the walk that the fingerprint covers: the files, folders and
        symlinks counted and the newest ctime (any write moves a ctime to now, and ctime
        cannot be set back by hand). Walks with different probes have different fingerprints;
        equal probes say nothing (then the fingerprint decides). A reconcile right after a
        write learns its verdict does not hold from this, without the fingerprint's dump and
        hash of every stat (about 0.15 s at 100,000 pages)."""
        newest = max(map(_CTIME, self.stats.values()), default=0)
        return [len(self.stats), len(self.dirs), len(self.links), len(self.temps), newest]

    def restat(self, root: Path, rels: list[str]) -> Walked | None:
        """This walk with `rels` (files of folders it saw) stat-ed again: what a new walk
        sees after a writer that wrote only those files. None when one is not a plain file of
        a folder the walk saw (then walk again). Safe for a verdict: a file written by anyone
        else since gives the next walk another fingerprint."""
        stats = dict(self.stats)
        for rel in rels:
            folder = rel.rpartition("/")[0]
            if folder and folder not in self.dirs or rel in self.links:
                return None
            try:
                found = os.lstat(root / rel)
            except FileNotFoundError:
                stats.pop(rel, None)
                continue
            except OSError:
                return None
            if not stat.S_ISREG(found.st_mode):
                return None
            stats[rel] = FileStat.of(found)
        return Walked(stats, self.dirs, self.links, self.temps)


def resume_collector() -> None:
    """The cyclic garbage collector on again after a pause in which a walk or a scan made
    100,000s of objects and kept them: they are moved to the oldest generation first
    (gc.freeze then gc.unfreeze: two list splices, no object visited). Left in the youngest,
    the first young collection after the pause would go over every one of them (0.12 s after
    a check's scan at 100,000 pages, 0.02 s after its walk), and a middle one again; kept
    objects that make next to no cycles are what the oldest generation is for. What cycles
    the pause did make are freed by the next full collection, and any object by its last
    reference as always."""
    gc.freeze()
    gc.unfreeze()
    gc.enable()


def walk_root(root: Path) -> Walked:
    """walk() with the temp files, the garbage collector paused: the walk makes no cycles, and
    its 100,000s of new objects would otherwise start collections that go over every object
    the process holds (0.1-0.3 s at 100,000 pages, after the imports of a command)."""
    temps: list[str] = []
    collecting = gc.isenabled()
    gc.disable()
    try:
        found = _walk(root, temps)
    finally:
        if collecting:
            resume_collector()
    return Walked(found.stats, found.dirs, sorted(found.links), temps)
