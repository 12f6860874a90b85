"""Which context files are exactly as membank last wrote them, so readers may skip validating.

Every context file membank writes (tasks.store.graph_store) holds data validated on the way
in. Right after such a write the file's identity (size, mtime, ctime, inode) is recorded in
.membank/written-context.json; a reader that finds the same identity may parse the file with
orjson alone instead of validating all of it (the graph is 423 MB at 100,000 pages). Any other
write (a hand edit, a restore from git, a copy, a rolled-back batch) gives the file another
ctime or inode, so it is validated again; ctime cannot be set back by hand.

The record is bookkeeping, never the source of truth: missing, unreadable or of another shape,
it trusts nothing.
"""

from __future__ import annotations

from pathlib import Path

import orjson

from tasks.store.atomic import atomic_write_bytes
from tasks.store.filememo import file_identity
from tasks.store.layout import CONTEXT_DIR, STATE_DIR

WRITTEN_FILE = f"{STATE_DIR}/written-context.json"


def _record_of(path: Path) -> Path | None:
    """The record beside a context file's memory root (None for a file outside context/)."""
    folder = path.parent
    return folder.parent / WRITTEN_FILE if folder.name == CONTEXT_DIR else None


def _read(record: Path) -> dict[str, list[int]]:
    try:
        data = orjson.loads(record.read_bytes())
    except (OSError, orjson.JSONDecodeError):
        return {}
    return data if isinstance(data, dict) else {}


def record_written(path: Path) -> None:
    """Remember `path` as holding what membank wrote (call right after the write, or after
    finding the file already held those bytes)."""
    record = _record_of(path)
    if record is None or not record.parent.is_dir():
        return
    identities = _read(record)
    identity = file_identity(path)
    if identity is None:
        identities.pop(path.name, None)
    else:
        identities[path.name] = identity
    atomic_write_bytes(record, orjson.dumps(identities, option=orjson.OPT_SORT_KEYS),
                       validate=False)


def as_written(path: Path) -> bool:
    """Whether `path` is byte for byte the file membank last wrote there (by its identity)."""
    record = _record_of(path)
    if record is None:
        return False
    identity = file_identity(path)
    return identity is not None and _read(record).get(path.name) == identity
