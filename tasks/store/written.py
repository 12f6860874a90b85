"""Which context files are exactly as membank last wrote them, so readers may skip validating.

Every context file membank writes (tasks.store.graph_store) holds data validated on the way
in. Right after such a write the file's identity (size, mtime, ctime, inode) is recorded in
.membank/written-context.json; a reader that finds the same identity may parse the file with
orjson alone instead of validating all of it (the graph is 423-718 MB at 100,000 pages). Any
other write (a hand edit, a restore from git, a copy, a rolled-back batch) gives the file
another ctime or inode; ctime cannot be set back by hand.

A copy or a restore (`cp -a`, a backup, a checkout of the memory) gives every file a new inode
and ctime with the same bytes, and validating the whole graph again cost 138 s cpu and 4.48 GB
at 100,000 pages (benchmarks/bench_growth_results.md, full34). So the record also keeps the
sha256 of the bytes membank wrote, when the writer had them in hand (or tasks.store.digests
computed it while the file still had the recorded identity): a file whose identity changed but
whose size and sha256 are the recorded ones is what membank wrote, and its new identity is
recorded (one chunked read, ~0.5 s cpu for 718 MB, instead of a validation). An edit, even one
that keeps the size and mtime (`touch -r`), changes the bytes, so it is validated.

The record is bookkeeping, never the source of truth: missing, unreadable or of another shape,
it trusts nothing.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
import threading
from contextlib import suppress
from pathlib import Path
from typing import Any

import orjson

from tasks.store.atomic import atomic_write_bytes, check_write_target
from tasks.store.errors import RootBoundaryError
from tasks.store.filememo import file_identity
from tasks.store.layout import CONTEXT_DIR, STATE_DIR

WRITTEN_FILE = f"{STATE_DIR}/written-context.json"
# file name -> {"sha256": the bytes' digest, "identities": the identities those same bytes had
# before copies or restores gave them the one recorded now, latest first} (see earlier_identities)
_MOVED = "~moved"
_MOVED_KEPT = 8  # a copy of a copy of ...: the spans recorded for the first write still hold
_IDENTITY_LEN = 4  # size, mtime ns, ctime ns, inode; a fifth item is the sha256 (hex)

# sha256 of a file this process hashed, by path and identity: a command that asks twice about
# a copied file whose new identity could not be recorded (a read-only memory) hashes it once.
_HASHED: dict[str, tuple[list[int], str]] = {}
_HASHED_GUARD = threading.Lock()


def _record_of(path: Path) -> Path | None:
    """The record beside a context file's memory root (None for a file outside context/)."""
    folder = path.parent
    return folder.parent / WRITTEN_FILE if folder.name == CONTEXT_DIR else None


def _read(record: Path) -> dict[str, Any]:
    try:
        data = orjson.loads(record.read_bytes())
    except (OSError, orjson.JSONDecodeError):
        return {}
    return data if isinstance(data, dict) else {}


# One writer of a record at a time in this process: readers in threads (reconcile's checks)
# re-record a copied file's identity, and two announcing the same record to the open batch's
# journal at once collide there (FileExistsError on the journal's record).
_RECORD_GUARD = threading.RLock()


def _fresh_guards() -> None:
    """In a forked child (reconcile's scan workers, the index build's): a guard another
    thread of the parent held at the fork would stay held there for ever."""
    global _RECORD_GUARD, _HASHED_GUARD
    _RECORD_GUARD = threading.RLock()
    _HASHED_GUARD = threading.Lock()


os.register_at_fork(after_in_child=_fresh_guards)


def _save(record: Path, entries: dict[str, Any]) -> None:
    atomic_write_bytes(record, orjson.dumps(entries, option=orjson.OPT_SORT_KEYS), validate=False)


def _save_unjournaled(record: Path, entries: dict[str, Any]) -> None:
    """Replace the record by rename, outside the open batch's journal: readers call this, in
    reconcile's forked workers too, whose copy of the journal would number its records as
    the parent's (FileExistsError in the parent). Safe in any state: a lost or rolled-back
    entry only makes a file validated again, and so does a record a crash left empty (no
    fsync, for that reason: a reader pays none). Never through a symlink (RootBoundaryError,
    as every write of atomic.py); the temp file's name is atomic.py's, so an interrupted one
    is swept as theirs are."""
    check_write_target(record)
    fd, temp = tempfile.mkstemp(prefix=f".{record.name}.", suffix=".tmp", dir=record.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(orjson.dumps(entries, option=orjson.OPT_SORT_KEYS))
        os.replace(temp, record)
    except BaseException:
        with suppress(OSError):
            os.unlink(temp)
        raise


def _digest(entry: object) -> str | None:
    """The sha256 an entry records (None: an entry without one, or of another shape)."""
    if (isinstance(entry, list) and len(entry) == _IDENTITY_LEN + 1
            and isinstance(entry[_IDENTITY_LEN], str)):
        return str(entry[_IDENTITY_LEN])
    return None


def sha256_of(content: bytes) -> str:
    return hashlib.sha256(content).hexdigest()


def record_written(path: Path, content: bytes | None = None) -> None:
    """Remember `path` as holding what membank wrote (call right after the write, or after
    finding the file already held those bytes). `content`: the bytes written, when the writer
    has them, so a copy of the file is trusted by its sha256 (computed only when the record
    has none for this very file)."""
    record = _record_of(path)
    if record is None or not record.parent.is_dir():
        return
    with _RECORD_GUARD:
        entries = _read(record)
        identity = file_identity(path)
        if identity is None:
            entries.pop(path.name, None)
        else:
            kept = entries.get(path.name)
            digest = _digest(kept) if isinstance(kept, list) and kept[:_IDENTITY_LEN] == identity else None
            if digest is None and content is not None and len(content) == identity[0]:
                digest = sha256_of(content)
            entries[path.name] = identity if digest is None else [*identity, digest]
        _forget_moved(entries, path.name)  # rewritten: its earlier identities held other bytes
        _save(record, entries)


def record_validated(path: Path, identity: list[int], digest: str) -> None:
    """Remember `path` as valid data in membank's layout: a reader validated every part of it
    (tasks.checks.scan, entity by entity) while it had `identity` and these bytes (`digest`,
    their sha256). Not recorded when the file changed since: its new bytes were not read."""
    record = _record_of(path)
    if record is None or not record.parent.is_dir():
        return
    with _RECORD_GUARD:
        if file_identity(path) != identity:
            return
        entries = _read(record)
        entries[path.name] = [*identity, digest]
        _forget_moved(entries, path.name)  # other bytes than the spans kept for earlier ones
        with suppress(OSError, RootBoundaryError):
            _save_unjournaled(record, entries)


def _forget_moved(entries: dict[str, Any], name: str) -> None:
    moved = entries.get(_MOVED)
    if not isinstance(moved, dict) or name not in moved:
        return
    kept = {other: earlier for other, earlier in moved.items() if other != name}
    if kept:
        entries[_MOVED] = kept
    else:
        del entries[_MOVED]


def written_digest(path: Path, identity: list[int]) -> str | None:
    """The sha256 recorded for `path` while it has `identity` (None: not recorded)."""
    record = _record_of(path)
    if record is None:
        return None
    entry = _read(record).get(path.name)
    return _digest(entry) if isinstance(entry, list) and entry[:_IDENTITY_LEN] == identity else None


def note_digest(path: Path, identity: list[int], digest: str) -> None:
    """Add `digest`, the sha256 of `path` computed while it had `identity`, to its record when
    the record says membank wrote the file with that identity and knows no digest yet (files
    written in parts, e.g. tasks.store.graph_segments: the health write's digest of the graph
    is kept, so a later copy of it is trusted)."""
    record = _record_of(path)
    if record is None or not record.parent.is_dir():
        return
    with _RECORD_GUARD:
        entries = _read(record)
        entry = entries.get(path.name)
        if not isinstance(entry, list) or entry[:_IDENTITY_LEN] != identity or _digest(entry) is not None:
            return
        entries[path.name] = [*identity, digest]
        with suppress(OSError, RootBoundaryError):
            _save_unjournaled(record, entries)


def _hash_file(path: Path, identity: list[int]) -> str | None:
    """sha256 of `path` read in chunks (never the whole file in memory); None when the file
    changed while it was read."""
    key = str(path)
    with _HASHED_GUARD:
        kept = _HASHED.get(key)
    if kept is not None and kept[0] == identity:
        return kept[1]
    try:
        with path.open("rb") as handle:
            digest = hashlib.file_digest(handle, "sha256").hexdigest()
    except OSError:
        return None
    if file_identity(path) != identity:
        return None
    with _HASHED_GUARD:
        _HASHED[key] = (identity, digest)
    return digest


def as_written(path: Path) -> bool:
    """Whether `path` is byte for byte the file membank last wrote there: by its identity, or
    (a copy, a restore) by its size and sha256, whose new identity is then recorded."""
    record = _record_of(path)
    if record is None:
        return False
    identity = file_identity(path)
    if identity is None:
        return False
    entries = _read(record)
    entry = entries.get(path.name)
    if not isinstance(entry, list):
        return False
    if entry[:_IDENTITY_LEN] == identity:
        return True
    digest = _digest(entry)
    if digest is None or entry[0] != identity[0] or _hash_file(path, identity) != digest:
        return False
    with _RECORD_GUARD:  # the next command trusts it by a stat again (read-only: hashes again)
        entries = _read(record)
        if entries.get(path.name) == entry and file_identity(path) == identity:
            entries[path.name] = [*identity, digest]
            moved = entries.get(_MOVED)
            moved = dict(moved) if isinstance(moved, dict) else {}
            earlier = [entry[:_IDENTITY_LEN], *_earlier(moved.get(path.name), digest)]
            moved[path.name] = {"sha256": digest, "identities": earlier[:_MOVED_KEPT]}
            entries[_MOVED] = moved
            with suppress(OSError, RootBoundaryError):
                _save_unjournaled(record, entries)
    return True


def written_data(path: Path) -> Any:
    """The file parsed by orjson alone (its JSON shape, unchecked) when membank wrote it as it
    is (`as_written`); None when it is not, or cannot be read or parsed."""
    if not as_written(path):
        return None
    try:
        return orjson.loads(path.read_bytes())
    except (OSError, orjson.JSONDecodeError):
        return None


def _earlier(moved: object, digest: str | None) -> list[list[Any]]:
    """The earlier identities a `~moved` entry gives for bytes of `digest` (none when the
    entry is of another shape or names other bytes: written by another version of membank,
    or the file was rewritten since)."""
    if digest is None or not isinstance(moved, dict) or moved.get("sha256") != digest:
        return []
    identities = moved.get("identities")
    if not isinstance(identities, list):
        return []
    return [found for found in identities if isinstance(found, list) and len(found) == _IDENTITY_LEN]


def earlier_identities(path: Path) -> list[list[Any]]:
    """The identities `path`'s present bytes had before copies or restores gave them the
    one recorded now, latest first (empty: not moved). Bookkeeping keyed by the graph's
    identity (tasks.store.graph_segments) holds for the copy while as_written(path) holds:
    the bytes are the same. Only while the record's digest for the file is the one the
    identities were kept with: a rewrite (any version of membank) forgets them."""
    record = _record_of(path)
    if record is None:
        return []
    entries = _read(record)
    moved = entries.get(_MOVED)
    return _earlier(moved.get(path.name) if isinstance(moved, dict) else None,
                    _digest(entries.get(path.name)))
