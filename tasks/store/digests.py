"""sha256 of a memory file's bytes, remembered by the file's identity, so a digest of an
unchanged file costs one stat: the graph is 423 MB at 100,000 pages, and every health write
(each reconcile, `--check` included) digests it to know whether its view must be redrawn.

.membank/file-digests.json maps a root-relative path to [size, mtime_ns, ctime_ns, inode,
sha256]. Bookkeeping, never the source of truth: an entry whose identity differs from the
file's is recomputed (ctime moves on every write and cannot be set back by hand), and a missing
or damaged cache is rebuilt.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import orjson

from tasks.store.atomic import atomic_write_bytes
from tasks.store.filememo import file_identity
from tasks.store.layout import MemoryLayout
from tasks.store.written import note_digest, written_digest

DIGESTS_NAME = "file-digests.json"


def _cache(layout: MemoryLayout) -> dict[str, list[object]]:
    try:
        data = orjson.loads((layout.state_dir / DIGESTS_NAME).read_bytes())
    except (OSError, orjson.JSONDecodeError):
        return {}
    return data if isinstance(data, dict) else {}


def file_digests(layout: MemoryLayout, paths: list[Path]) -> list[str | None]:
    """Each file's sha256 (hex; None for a file that is absent), recomputed only for files
    whose identity changed since it was remembered."""
    cache = _cache(layout)
    fresh = dict(cache)
    found: list[str | None] = []
    for path in paths:
        rel = layout.relative(path)
        identity = file_identity(path)
        if identity is None:  # absent
            fresh.pop(rel, None)
            found.append(None)
            continue
        entry = cache.get(rel)
        if (isinstance(entry, list) and len(entry) == 5 and entry[:4] == identity
                and isinstance(entry[4], str)):
            note_digest(path, identity, entry[4])  # (a record written before digests were kept)
            found.append(entry[4])
            continue
        # A context file membank just wrote: its writer recorded the sha256 of the bytes
        # (tasks/store/written.py), so no read; else read it, and give the record the digest
        # (a graph written in parts has none), so a copy of the file is trusted by it.
        digest = written_digest(path, identity)
        if digest is None:
            with path.open("rb") as handle:  # in chunks: never the whole graph in memory
                digest = hashlib.file_digest(handle, "sha256").hexdigest()
            if file_identity(path) == identity:
                note_digest(path, identity, digest)
        fresh[rel] = [*identity, digest]
        found.append(digest)
    if fresh != cache and layout.state_dir.is_dir():
        atomic_write_bytes(layout.state_dir / DIGESTS_NAME,
                           orjson.dumps(fresh, option=orjson.OPT_SORT_KEYS), validate=False)
    return found
