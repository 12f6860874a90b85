"""Crash recovery: every writing command is one batch with a write-ahead undo journal.

The design (one mechanism for ingest, distill, propose, reconcile repairs and bootstrap):

- A writing command runs inside `writing_operation` (tasks/store/operation.py): it takes the writer
  lock, then `recover()` finishes what an interrupted batch left, then opens a batch.
- Every effect on a memory file is announced to the batch's journal, and the announcement is
  durable (fsynced) before the effect happens. tasks/store/atomic.py is the only way files change, so
  it is the only place that announces: before a rename replaces an existing file, the old file
  is hard-linked into the journal (no copy: the rename gives the target a new inode and leaves
  the old one to the link); before renames create new files, their paths are listed; a file to
  remove (a proposal taken out of the inbox) is moved into the journal instead; before a file's
  permission bits change (reconcile makes a raw file read-only again), its old bits are recorded.
  One record (`<seq>.rec`, JSON: {"new": [path], "old": [[path, keep]], "gone": [[path, keep]],
  "modes": [[path, mode]]}) covers
  a group (StagedWrites' commit, distill's pages via `atomic.announce`): two fsyncs per group.
- The batch commits by renaming `.membank/journal/` to a `journal-done-*` folder (one atomic
  rename after every write was fsynced), then deletes it. A failed batch (an exception: a full
  disk, a failed write) rolls back at once; a killed one is rolled back by the next writer
  (or reader) of the root: old files are renamed back, created files removed, removed files
  put back. Rollback only renames and unlinks, so it needs no free space, and each of its
  steps is idempotent, so a crash during a rollback is finished by the next one.
- Then every temp file of tasks/store/atomic.py left anywhere in the root (a crash between mkstemp
  and rename, or an older version's crash) is removed. A long-running writer (the MCP server,
  `sweep_after_others_only`) skips that walk while no other process held the lock since its
  own last hold: only a holder of the lock writes, so only such a one can leave temp files.
  Any writer skips it when the hold before its own ended without an error (its holder record
  is marked released, tasks/store/lock.py): then only `.membank/` is swept.
- The generation: a batch that wrote memory content (anything but `.membank/` and our health
  output) writes `.membank/generation` last, journaled like any file, as "<batch token>.<number
  of content writes>". Committed, it names the new content; rolled back, the old value comes
  back. Derived data (the search index) stores the generation it reflects, so a reader compares
  two short strings to know whether it is current (tasks/search/sync.py).

Why an undo journal and not a redo log or manifest-first replay: the flows read what they wrote
earlier in the same batch (hubs, index.md, pages a proposal extends), so their writes must land
in place as they go; an undo record is a hard link (no copy of a large graph, no second write of
raw bytes); and rolling back returns the root to exactly the state before the command, so the
next run of the same command, being deterministic, writes exactly what a clean run writes.
Nothing the user asked for is half-applied: after any kill point the root is either the old
state (before commit) or the new one (after).

Under `.membank/` only the journal itself is not journaled (the lock files are not written
through tasks/store/atomic.py); reconcile's cache there is, so it never remembers a rolled-back
batch. proposals/inbox/ is where agents write, so its dot-files are never swept.
"""

from __future__ import annotations

import contextvars
import errno
import os
import secrets
import shutil
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson

from tasks.store import atomic
from tasks.store.errors import RootError
from tasks.store.layout import GENERATION_FILE, HEALTH_DIR, INBOX_DIR, STATE_DIR
from tasks.store.lock import follows_clean_release, hold_follows_own

JOURNAL_DIR = "journal"
DONE_PREFIX = "journal-done-"
# Folders the temp-file sweep never enters: git's, and where agents drop proposals (their own
# in-flight dot-files are not ours to remove). .membank/ is swept: its caches are ours.
_SWEEP_SKIP = frozenset({".git", INBOX_DIR})


@dataclass
class Recovery:
    """What `recover` did to a root before a command ran."""

    rolled_back: list[str] = field(default_factory=list)  # root-relative paths put back
    committed_cleanup: bool = False  # a finished batch's journal was only deleted
    temp_files_removed: list[str] = field(default_factory=list)

    @property
    def changed(self) -> bool:
        return bool(self.rolled_back or self.committed_cleanup or self.temp_files_removed)


def journal_dir(root: Path) -> Path:
    return root / STATE_DIR / JOURNAL_DIR


# Root-relative folders whose files are not memory content: bookkeeping and our own output.
_NOT_CONTENT = (f"{STATE_DIR}/", f"{HEALTH_DIR}/")


def read_generation(root: Path) -> str:
    """The committed generation of the memory's content ("" before any batch wrote content)."""
    try:
        return (root / GENERATION_FILE).read_text(encoding="utf-8").strip()
    except (OSError, UnicodeDecodeError):
        return ""


def pending_batch(root: Path) -> bool:
    """True when a batch was interrupted (its journal or a finished one's leftovers remain)."""
    state = root / STATE_DIR
    if journal_dir(root).is_dir():
        return True
    try:
        return any(name.startswith(DONE_PREFIX) for name in os.listdir(state))
    except OSError:
        return False


def _fsync_dir(folder: Path) -> None:
    fd = os.open(folder, os.O_RDONLY)
    try:
        atomic.fs.fsync(fd)
    finally:
        os.close(fd)


class WriteJournal:
    """The undo journal of one batch on one root (thread-safe: distill writes pages in threads)."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self._prefix = os.path.abspath(root) + os.sep
        # The journal's own folder is not journaled; the rest of .membank/ is (reconcile's
        # cache must not remember a rolled-back batch: its log.md baseline would then flag
        # the restored log.md as rewritten).
        self._private = os.path.join(os.path.abspath(root), STATE_DIR, JOURNAL_DIR)
        self.folder = journal_dir(root)
        self._seq = 0
        self._seen: set[str] = set()
        self._lock = threading.Lock()
        self._opened = False
        # The batch's generation: its token, and every memory-content path written, in order
        # (a path once per write), so derived data can tell what changed since it last synced.
        self.token = secrets.token_hex(8)
        self.base_generation = read_generation(root)
        self.content_writes: list[str] = []

    def generation(self) -> str:
        """The generation the memory has once this batch commits as it stands now."""
        with self._lock:
            return (f"{self.token}.{len(self.content_writes)}" if self.content_writes
                    else self.base_generation)

    def written_since(self, generation: str | None) -> list[str] | None:
        """Content paths written after derived data synced at `generation` (this batch's base
        or one of its own), or None when `generation` is neither (or unknown: None)."""
        if generation is None:
            return None
        with self._lock:
            if generation == self.base_generation:
                return list(self.content_writes)
            token, _dot, count = generation.partition(".")
            if token == self.token and count.isdigit():
                return self.content_writes[int(count):]
            return None

    def _note(self, relatives: list[str]) -> None:
        """Count the memory-content writes among `relatives` (call with the lock held)."""
        self.content_writes.extend(rel for rel in relatives if not rel.startswith(_NOT_CONTENT))

    def seal(self) -> None:
        """Write the generation file (journaled) when the batch wrote content: the last write
        before the commit."""
        if self.content_writes:
            atomic.atomic_write_text(self.root / GENERATION_FILE, self.generation() + "\n",
                                     validate=False)

    def covers(self, path: Path) -> bool:
        absolute = os.path.abspath(path)
        return absolute.startswith(self._prefix) and not absolute.startswith(self._private)

    def _relative(self, path: Path) -> str:
        return os.path.abspath(path)[len(self._prefix):].replace(os.sep, "/")

    def _open(self) -> None:
        if not self._opened:
            self.folder.mkdir(parents=True, exist_ok=True)
            _fsync_dir(self.folder.parent)
            self._opened = True

    def _next_stem(self) -> str:
        """A new record's name (call with the lock held)."""
        self._seq += 1
        return f"{self._seq:08d}"

    def _record(self, stem: str, record: dict[str, list[Any]]) -> None:
        """Write record <stem>.rec and fsync it (outside the lock: page writes overlap)."""
        fd = os.open(self.folder / f"{stem}.rec", os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        try:
            atomic.write_all(fd, orjson.dumps(record))
            atomic.fs.fsync(fd)
        finally:
            os.close(fd)

    def will_replace(self, targets: list[Path], *, new: bool) -> None:
        """One record for the whole group (two fsyncs however many files): the paths to
        create, and the paths to replace with the name of each one's hard-linked old version."""
        with self._lock:
            named = [(target, self._relative(target)) for target in targets]
            self._note([rel for _target, rel in named])
            fresh = [(target, rel) for target, rel in named if rel not in self._seen]
            if not fresh:
                return
            self._open()
            self._seen.update(rel for _target, rel in fresh)
            stem = self._next_stem()
        created = [rel for target, rel in fresh if new or not target.exists()]
        is_new = set(created)
        kept = [(target, rel, f"{stem}-{number}.keep")
                for number, (target, rel) in enumerate(t for t in fresh if t[1] not in is_new)]
        self._record(stem, {"new": created, "old": [[rel, keep] for _t, rel, keep in kept]})
        for target, _rel, keep in kept:
            _keep(target, self.folder / keep)
        _fsync_dir(self.folder)  # the record's and the links' names are durable before the effect

    def remove(self, path: Path) -> None:
        with self._lock:
            rel = self._relative(path)
            self._note([rel])
            self._open()
            self._seen.add(rel)
            stem = self._next_stem()
        self._record(stem, {"gone": [[rel, f"{stem}.keep"]]})
        atomic.fs.replace(path, self.folder / f"{stem}.keep")
        _fsync_dir(self.folder)

    def will_chmod(self, path: Path, old_mode: int) -> None:
        """Record a file's permission bits before they change (a rollback sets them back)."""
        with self._lock:
            rel = self._relative(path)
            self._open()
            stem = self._next_stem()
        self._record(stem, {"modes": [[rel, old_mode]]})
        _fsync_dir(self.folder)

    def commit(self) -> None:
        """The commit point: one rename of the journal folder; then its removal."""
        if not self._opened:
            return
        done = self.folder.with_name(f"{DONE_PREFIX}{os.getpid()}-{id(self):x}")
        atomic.fs.replace(self.folder, done)
        _fsync_dir(done.parent)
        shutil.rmtree(done, ignore_errors=True)


def _keep(target: Path, keep: Path) -> None:
    """Keep the current version of `target` at `keep`: a hard link, or a copy (fsynced) where
    the file system has no hard links."""
    try:
        atomic.fs.link(target, keep)
        return
    except OSError as exc:
        if exc.errno not in (errno.EPERM, errno.ENOTSUP, errno.EXDEV, errno.EMLINK, errno.EACCES):
            raise
    shutil.copy2(target, keep)
    fd = os.open(keep, os.O_RDONLY)
    try:
        atomic.fs.fsync(fd)
    finally:
        os.close(fd)


def _records(folder: Path) -> list[tuple[str, dict[str, Any]]]:
    found: list[tuple[str, dict[str, Any]]] = []
    try:
        names = os.listdir(folder)
    except FileNotFoundError:
        return found  # the batch never wrote anything
    for name in sorted(names, reverse=True):
        if not name.endswith(".rec"):
            continue
        try:
            record = orjson.loads((folder / name).read_bytes())
        except (OSError, orjson.JSONDecodeError):
            continue  # torn: written by a kill before its effect could happen
        if isinstance(record, dict):
            found.append((name[: -len(".rec")], record))
    return found


def _put_back(keep: Path, target: Path) -> None:
    """Rename a kept version back; its folder is made again when the batch removed it (forget
    removes a shard folder it emptied)."""
    try:
        atomic.fs.replace(keep, target)
    except FileNotFoundError:
        if not os.path.lexists(keep):
            raise
        target.parent.mkdir(parents=True, exist_ok=True)
        atomic.fs.replace(keep, target)


def rollback(root: Path, folder: Path | None = None) -> list[str]:
    """Undo a batch from its journal, newest record first; return the paths restored.

    A record's "new" paths are removed; its "old" and "gone" paths get back the version kept
    under their .keep name, when that exists (a missing one: the effect never happened)."""
    folder = folder or journal_dir(root)
    restored: list[str] = []
    for stem, record in _records(folder):
        for rel in record.get("new") or []:
            with suppress(FileNotFoundError):
                atomic.fs.unlink(root / str(rel))
                restored.append(str(rel))
        for rel, keep in [*(record.get("old") or []), *(record.get("gone") or [])]:
            if os.path.lexists(folder / str(keep)):
                _put_back(folder / str(keep), root / str(rel))
                restored.append(str(rel))
        for rel, mode in record.get("modes") or []:
            with suppress(FileNotFoundError):
                atomic.fs.chmod(root / str(rel), int(mode))
                restored.append(str(rel))
        with suppress(FileNotFoundError):
            atomic.fs.unlink(folder / f"{stem}.rec")
    shutil.rmtree(folder, ignore_errors=True)
    return sorted(set(restored))


def temp_files(root: Path, under: str = "") -> list[str]:
    """Root-relative paths of tasks/store/atomic.py temp files anywhere in the root, or in its
    folder `under` (sorted)."""
    found: list[str] = []
    stack = [(f"{under}/" if under else "", str(root / under))]
    while stack:
        prefix, folder = stack.pop()
        try:
            entries = list(os.scandir(folder))
        except OSError:
            continue
        for entry in entries:
            rel = f"{prefix}{entry.name}"
            if entry.is_dir(follow_symlinks=False):
                if rel not in _SWEEP_SKIP:
                    stack.append((f"{rel}/", entry.path))
            elif atomic.is_temp_name(entry.name):
                found.append(rel)
    return sorted(found)


# A long-running writer's roots (sweep_after_others_only), and when it last swept each.
SWEEP_EVERY_SECONDS = 300.0
_sweep_after_others: set[Path] = set()
_swept: dict[Path, float] = {}


def sweep_after_others_only(root: Path) -> None:
    """For a long-running process (the MCP server), whose every write would otherwise walk
    the whole root: recover() then sweeps for orphan temp files only when another process
    held the writer lock since this one's last hold, that hold ended in an error, or
    SWEEP_EVERY_SECONDS passed. Every write takes the writer lock (tasks/store/lock.py), so
    only a process that held it since can have been killed with a temp file on disk."""
    _sweep_after_others.add(Path(os.path.abspath(root)))


# The roots swept within the current one_sweep_per_call scope (None: outside any).
_SWEPT_IN_CALL: contextvars.ContextVar[set[Path] | None] = contextvars.ContextVar(
    "membank_swept_in_call", default=None)


@contextmanager
def one_sweep_per_call() -> Iterator[None]:
    """Within: a root is swept once (its first recover()), while no other process held its
    writer lock since and this process's holds ended without an error: a one-shot command
    whose stages each take the lock (ingest, then distill) walks the root once, not per stage
    (120,000 files at 100,000 pages)."""
    token = _SWEPT_IN_CALL.set(set())
    try:
        yield
    finally:
        _SWEPT_IN_CALL.reset(token)


def _sweep_due(root: Path) -> bool:
    key = Path(os.path.abspath(root))
    swept_in_call = _SWEPT_IN_CALL.get()
    if swept_in_call is not None and key in swept_in_call and hold_follows_own(root):
        return False
    if key not in _sweep_after_others or not hold_follows_own(root):
        return True
    return time.monotonic() - _swept.get(key, float("-inf")) >= SWEEP_EVERY_SECONDS


def recover(root: Path) -> Recovery:
    """Finish or roll back an interrupted batch, then remove orphan temp files. Call under the
    writer lock, before anything else reads or writes the root."""
    recovery = Recovery()
    state = root / STATE_DIR
    if state.is_dir():
        for name in sorted(os.listdir(state)):
            if name.startswith(DONE_PREFIX):  # committed; only its removal was interrupted
                shutil.rmtree(state / name, ignore_errors=True)
                recovery.committed_cleanup = True
        if journal_dir(root).is_dir():
            recovery.rolled_back = rollback(root)
    if root.is_dir() and _sweep_due(root):
        # After a hold that ended without an error no writer can have left a temp file (every
        # write holds the writer lock): only the state folder, where a search index is also
        # built under the shared lock, is swept; else the whole root (120,000 files at 100k
        # pages).
        for rel in temp_files(root, STATE_DIR if follows_clean_release(root) else ""):
            with suppress(FileNotFoundError):
                atomic.fs.unlink(root / rel)
                recovery.temp_files_removed.append(rel)
        _swept[Path(os.path.abspath(root))] = time.monotonic()
        swept_in_call = _SWEPT_IN_CALL.get()
        if swept_in_call is not None:
            swept_in_call.add(Path(os.path.abspath(root)))
    return recovery


_active: dict[Path, tuple[WriteJournal, int]] = {}
_guard = threading.Lock()


def batch_open(root: Path) -> bool:
    """True when this process has a batch open on `root` (a nested operation joins it)."""
    return open_journal(root) is not None


def open_journal(root: Path) -> WriteJournal | None:
    """The journal of the batch this process has open on `root`, if any."""
    with _guard:
        active = _active.get(Path(os.path.abspath(root)))
    return active[0] if active is not None else None


@contextmanager
def journal_batch(root: Path) -> Iterator[WriteJournal]:
    """One batch: every write under `root` is journaled; commit on success, roll back on error.

    Re-entrant within a process (a nested writing operation joins the open batch)."""
    key = Path(os.path.abspath(root))
    with _guard:
        if key in _active:
            journal, depth = _active[key]
            _active[key] = (journal, depth + 1)
            nested = True
        else:
            journal, nested = WriteJournal(key), False
            if journal_dir(key).exists():
                raise RootError("an interrupted batch was not recovered", file=journal_dir(key),
                                hint="a bug: recover() must run under the lock first")
            _active[key] = (journal, 1)
            atomic.register_recorder(journal)
    try:
        yield journal
        if not nested:
            journal.seal()
    except BaseException:
        if not nested:
            _close(key, journal)
            rollback(key)
        raise
    else:
        if not nested:
            _close(key, journal)
            journal.commit()
    finally:
        if nested:
            with _guard:
                journal, depth = _active[key]
                _active[key] = (journal, depth - 1)


def _close(key: Path, journal: WriteJournal) -> None:
    with _guard:
        _active.pop(key, None)
        atomic.unregister_recorder(journal)
