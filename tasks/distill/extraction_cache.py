"""What the extractor made of each raw source, kept so `distill --all` reads it instead of
extracting again (issue 30: trust and cache what membank itself computed).

`extract_facts` is a pure function of a source's text and its SourceRef, so its result can be
kept as long as neither changes, nor the code that computes it. An entry is reused only when its
key matches: the sha256 of

- the extractor's fingerprint (`extractor_fingerprint`): the bytes of every Python file of
  `tasks/` and `schemas/` (any change to membank's code, the extractor's or what it imports),
  the codec's format, Python's version and Unicode database, and the versions of the parsing
  libraries it calls (markdown-it-py, mdit-py-plugins, PyYAML, python-slugify);
- the source's SourceRef (asset id, source page, raw path, original path);
- the sha256 of the raw file's bytes, read now (never the manifest's word for it).

So a changed extractor or a changed source is extracted again, never answered from an old
entry. Each row also holds a check (blake2b of key and body): a row whose body or key was
damaged, or a body that does not decode, is a miss and is replaced; a file that SQLite cannot
open as a database is removed and started again. The cache is never the source of truth:
removing `.membank/extractions.sqlite3` only costs one full extraction.

Kept out: memory store files (`.mem/`, custodian; their records carry typed fields JSON cannot
give back exactly), sources that could not be read, extractions the codec refuses. One row per
raw asset: a row is replaced when its key changes, so the file holds at most one entry per
asset the manifest ever listed.
"""

from __future__ import annotations

import hashlib
import sqlite3
import sys
import unicodedata
from collections.abc import Sequence
from contextlib import suppress
from dataclasses import dataclass
from functools import cache
from importlib import metadata
from pathlib import Path

from tasks.distill.extraction_codec import (
    FORMAT,
    BadBody,
    NotEncodable,
    decode_extractions,
    encode_extractions,
)
from tasks.distill.plan import DistillSource, ExtractOutcome, read_file_bytes
from tasks.store.layout import STATE_DIR

CACHE_FILE = f"{STATE_DIR}/extractions.sqlite3"
_PROJECT = Path(__file__).resolve().parent.parent.parent  # holds tasks/ and schemas/
_CODE_DIRS = ("tasks", "schemas")
_LIBRARIES = ("markdown-it-py", "mdit-py-plugins", "PyYAML", "python-slugify")
_BATCH = 500  # asset ids per SELECT (SQLite allows 32,766 parameters)
_SCHEMA = ("CREATE TABLE IF NOT EXISTS extraction "
           "(asset_id TEXT PRIMARY KEY, key BLOB NOT NULL, body BLOB NOT NULL, "
           "check_digest BLOB NOT NULL)")


@cache
def extractor_fingerprint() -> bytes:
    """What the extraction of a text depends on besides the text and its SourceRef (module doc).
    About 10 ms: computed once per process, and only by a distill that has sources to read."""
    digest = hashlib.sha256(f"membank-extraction-cache {FORMAT}\n".encode())
    digest.update(f"{sys.version}\n{unicodedata.unidata_version}\n".encode())
    for name in _LIBRARIES:
        try:
            version = metadata.version(name)
        except metadata.PackageNotFoundError:
            version = "-"
        digest.update(f"{name} {version}\n".encode())
    for folder in _CODE_DIRS:
        for path in sorted((_PROJECT / folder).rglob("*.py")):
            data = path.read_bytes()
            digest.update(f"{path.relative_to(_PROJECT).as_posix()} {len(data)}\n".encode())
            digest.update(data)
    return digest.digest()


def source_key(item: DistillSource, raw: bytes) -> bytes:
    """The key an entry for `item` with raw bytes `raw` is kept under (module doc)."""
    ref = item.ref
    digest = hashlib.sha256(extractor_fingerprint())
    for part in (ref.asset_id, ref.source_page, ref.raw_path, ref.original_path):
        digest.update(part.encode())
        digest.update(b"\0")
    digest.update(hashlib.sha256(raw).digest())
    return digest.digest()


def _check(key: bytes, body: bytes) -> bytes:
    return hashlib.blake2b(key + body, digest_size=16).digest()


@dataclass(slots=True)
class Lookup:
    """For each item of the plan, in order: its cached outcomes (None: extract it), and the key
    a fresh extraction is to be stored under (None: not to be cached)."""

    cached: list[list[ExtractOutcome] | None]
    keys: list[bytes | None]

    def missing(self, items: Sequence[DistillSource]) -> list[DistillSource]:
        return [item for item, hit in zip(items, self.cached, strict=True) if hit is None]


class ExtractionCache:
    """The cache file of one memory root, open for one distill run (under its writer lock)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._conn: sqlite3.Connection | None = None
        self.hits = 0
        self.stored = 0

    def _open(self) -> sqlite3.Connection | None:
        if self._conn is None:
            self._conn = _connect(self.path)
        return self._conn

    def lookup(self, items: Sequence[DistillSource]) -> Lookup:
        """Read each item's raw bytes, and its entry when one is kept under its key now."""
        conn = self._open()
        cached: list[list[ExtractOutcome] | None] = []
        keys: list[bytes | None] = []
        for start in range(0, len(items), _BATCH):
            batch = items[start : start + _BATCH]
            rows = {} if conn is None else _rows(conn, [item.ref.asset_id for item in batch])
            for item in batch:
                key = None if item.store_role else _key_of(item)
                row = rows.get(item.ref.asset_id)
                found = None if key is None or row is None else _entry(row, key)
                if found is not None:
                    self.hits += 1
                cached.append(found)
                keys.append(key if found is None else None)
        return Lookup(cached, keys)

    def store(self, entries: Sequence[tuple[str, bytes, bytes]]) -> None:
        """Keep (asset id, key, encoded body) rows, replacing the assets' earlier rows. A cache
        that cannot be written is skipped: it only saves time."""
        conn = self._open()
        if conn is None or not entries:
            return
        try:
            with conn:
                conn.executemany(
                    "INSERT OR REPLACE INTO extraction VALUES (?, ?, ?, ?)",
                    [(asset_id, key, body, _check(key, body)) for asset_id, key, body in entries])
            self.stored += len(entries)
        except sqlite3.Error:
            pass

    def close(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None


def encoded_entry(item: DistillSource, key: bytes | None,
                  outcomes: Sequence[ExtractOutcome]) -> tuple[str, bytes, bytes] | None:
    """The row to keep for a fresh extraction of `item` (None: not cacheable, module doc)."""
    if key is None or not outcomes or any(o.extraction is None for o in outcomes):
        return None
    try:
        body = encode_extractions([o.extraction for o in outcomes if o.extraction is not None])
    except NotEncodable:
        return None
    return item.ref.asset_id, key, body


def _key_of(item: DistillSource) -> bytes | None:
    try:
        return source_key(item, read_file_bytes(str(item.raw_file)))
    except OSError:
        return None  # reported by the extraction, which reads it again


Row = tuple[object, object, object]


def _rows(conn: sqlite3.Connection, asset_ids: list[str]) -> dict[str, Row]:
    """The kept rows (key, body, check) of these assets, by asset id (none when unreadable)."""
    marks = ",".join("?" * len(asset_ids))
    try:
        return {row[0]: row[1:] for row in conn.execute(
            "SELECT asset_id, key, body, check_digest FROM extraction "
            f"WHERE asset_id IN ({marks})", asset_ids)}
    except sqlite3.Error:
        return {}


def _entry(row: Row, key: bytes) -> list[ExtractOutcome] | None:
    """The row's extractions when it was kept under `key` and is whole, else None."""
    stored_key, body, check = row
    if (type(stored_key) is not bytes or type(body) is not bytes or stored_key != key
            or check != _check(stored_key, body)):
        return None
    try:
        return [ExtractOutcome(extraction) for extraction in decode_extractions(body)]
    except BadBody:
        return None


def _connect(path: Path) -> sqlite3.Connection | None:
    """The cache database, created when missing; one SQLite cannot read is removed and made
    again. None when it cannot be had at all (a read-only memory): every source is extracted."""
    for attempt in range(2):
        conn = None
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            # (the lookup runs in the flow's thread, the store in the writer task's, which
            # under Prefect may be another: one after the other, never at once)
            conn = sqlite3.connect(path, check_same_thread=False)
            conn.execute(_SCHEMA)
            conn.execute("SELECT asset_id, key, body, check_digest FROM extraction LIMIT 1")
            return conn
        except sqlite3.DatabaseError:
            if conn is not None:
                conn.close()
            if attempt:
                return None
            with suppress(OSError):
                path.unlink()
            for suffix in ("-journal", "-wal", "-shm"):
                with suppress(OSError):
                    Path(f"{path}{suffix}").unlink()
        except OSError:
            if conn is not None:
                conn.close()
            return None
    return None
