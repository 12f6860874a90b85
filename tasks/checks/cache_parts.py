"""The reconcile cache read by part: each file's stat and hash, its facts only when asked.

A check right after an ingest (tasks/checks/reconcile/full.py, when the cache is the one the
last repair run saved) needs of the cache every file's stat (to see what changed) and the
facts of a few files: the changed ones, the context files, the catalogs read by delta. Loading
the whole cache (125 MB of JSON at 100,000 pages: 0.7-0.9 s and most of the check's 0.84 GB)
made every page's facts objects. So save_cache also writes a table of rows beside it
(ROWS_FILE): per file its stat, hash and where its entry's bytes lie in the cache file, with
the cache's baselines and the cache file's identity. load_by_part reads that table and gives
entries whose facts are read from the cache file when first asked (LazyEntry): one pread and
one parse each (past BULK_AFTER of them, every entry's facts read in runs of adjacent
entries). The cache file is opened once and its identity compared with the table's, so later
reads see the bytes the table describes (a replace writes another inode). Anything else (no
table, another version or identity, a malformed row) gives None: the caller loads the cache
whole; an entry that does not match its row is taken from the whole file. Bookkeeping only:
reconcile-cache.json stays the one source; the table is derived from its bytes.
"""

from __future__ import annotations

import os
import weakref
from pathlib import Path
from typing import Any, cast

import orjson

from tasks.checks.facts import FileFacts, ScanCache
from tasks.store.atomic import atomic_write_bytes, atomic_write_parts
from tasks.store.errors import MembankError
from tasks.store.filememo import file_identity
from tasks.store.layout import RECONCILE_CACHE_FILE, RECONCILE_ROWS_FILE

ROWS_FILE = RECONCILE_ROWS_FILE
# Past this many entries' facts asked for (a catalog compared with every page of its folder:
# 70,000 at 100,000 pages; a check with no verdict to start from: every page), every entry's
# facts are read in runs of adjacent entries (_BULK_BYTES each): one read each costs about four
# times the share of one parse of the whole.
BULK_AFTER = 5_000
_BULK_BYTES = 4 << 20
_FILES_KEY = b'"files":{'
_STAT_KEYS = ("size", "mtime_ns", "ctime_ns", "ino", "hash")
_STATE_TYPES = {"created_at": dict, "erased_observations": dict, "log_baseline": dict,
                "log_rewritten": bool}


def files_start(data: bytes) -> int:
    """Where the files object of the cache's bytes `data` begins (-1: not found). The keys
    before it are baselines whose strings cannot hold an unescaped `"files":{`."""
    return data.find(_FILES_KEY)


def write_rows(root: Path, start: int, total: int, cache: ScanCache) -> None:
    """The table of the cache just saved, whose bytes (orjson, sorted keys: each entry's bytes
    are its own dump, in path order) were `total` long with the files object at `start`
    (files_start). Made after those bytes are let go: the table's rows are not held beside
    them (a repair run's peak). No table when the layout is not the one described."""
    table = root / ROWS_FILE
    identity = file_identity(root / RECONCILE_CACHE_FILE)
    if start < 0 or identity is None:
        table.unlink(missing_ok=True)
        return
    dumps, sort = orjson.dumps, orjson.OPT_SORT_KEYS
    files = cache["files"]
    position = start + len(_FILES_KEY)
    rows: list[list[Any]] = []
    for rel in sorted(files):
        entry = files[rel]
        position += len(dumps(rel)) + 1
        size = len(dumps(entry, option=sort))
        rows.append([rel, entry["size"], entry["mtime_ns"], entry["ctime_ns"], entry["ino"],
                     entry["hash"], position, size])
        position += size + 1  # "," or the closing "}"
    if not files:
        position += 1  # "}"
    top = cast(dict[str, Any], cache)
    tail = sum(len(dumps(key)) + 2 + len(dumps(top[key], option=sort))
               for key in top if key > "files") + 1  # ",key:value" each, then "}"
    table.unlink(missing_ok=True)  # another cache: no comparison with the old table's bytes
    if position + tail != total:
        return  # not the layout described above: no table (the cache is loaded whole)
    _save_table(table, identity, rows, top)


def _save_table(table: Path, identity: list[int], rows: list[list[Any]], top: dict[str, Any]
                ) -> None:
    state = {key: value for key, value in top.items() if key not in ("files", "version")}
    atomic_write_bytes(table, orjson.dumps(
        {"cache": identity, "rows": rows, "state": state, "version": top["version"]}),
        validate=False)


def save_by_part(root: Path, cache: ScanCache) -> bool | None:
    """Save `cache` (what save_cache would dump, with OPT_SORT_KEYS) when its files are a
    cache read by part and the cache file is still the one they were read from: the bytes of
    every entry taken unchanged from that file are copied from it in the kernel (runs of them
    as one range), the others dumped, and the table's rows made as they are placed. The same
    bytes and table as a whole dump (tests/tasks/checks/test_cache_parts.py). False: the file
    already held these bytes (nothing written); None: not a cache read by part (the caller
    dumps it whole)."""
    files = cache["files"]
    source = next((entry.source for entry in files.values() if type(entry) is LazyEntry), None)
    path = root / RECONCILE_CACHE_FILE
    if source is None or not source.holds(path):
        return None
    dumps, sort = orjson.dumps, orjson.OPT_SORT_KEYS
    top = cast(dict[str, Any], cache)
    skeleton = dumps({**top, "files": {}}, option=sort)
    cut = skeleton.find(b'"files":{}') + len(_FILES_KEY)
    head, tail = skeleton[:cut], skeleton[cut:]
    parts: list[bytes | list[int]] = [head]
    rows: list[list[Any]] = []
    position = len(head)
    for number, rel in enumerate(sorted(files)):
        entry, key = files[rel], dumps(rel)
        position += len(key) + 1 + (number > 0)
        if type(entry) is LazyEntry and entry.source is source:
            offset, size = entry.at
            start, last = offset - len(key) - 1, parts[-1]
            if number > 0 and isinstance(last, list) and sum(last) + 1 == start:
                last[1] = offset + size - last[0]  # the next entry in the old file too
            else:
                parts += [b","] if number > 0 else []
                parts.append([start, offset + size - start])
        else:
            data = dumps(entry, option=sort)
            size = len(data)
            parts.append((b"," if number > 0 else b"") + key + b":" + data)
        rows.append([rel, entry["size"], entry["mtime_ns"], entry["ctime_ns"], entry["ino"],
                     entry["hash"], position, size])
        position += size
    parts.append(tail)
    if source.unchanged(parts):
        return False
    atomic_write_parts(path, [part if isinstance(part, bytes) else (part[0], part[1])
                              for part in parts])
    table = root / ROWS_FILE
    table.unlink(missing_ok=True)
    identity = file_identity(path)
    if identity is not None:
        _save_table(table, identity, rows, top)
    return True


class _CacheFile:
    """The cache file as it was when its table was read, open for reads by offset."""

    def __init__(self, path: Path, fd: int) -> None:
        self.path, self.fd = path, fd
        self.whole: dict[str, Any] | None = None
        self.reads = 0
        self.rows: list[list[Any]] = []  # its table's rows, in the file's order
        self.bulk: dict[int, FileFacts] | None = None  # facts by entry offset (past BULK_AFTER)
        weakref.finalize(self, os.close, fd)

    def holds(self, path: Path) -> bool:
        """Whether `path` is still the file this was opened on (same inode, size, times)."""
        try:
            now, opened = os.stat(path), os.fstat(self.fd)
        except OSError:
            return False
        return (now.st_ino, now.st_dev, now.st_size, now.st_mtime_ns, now.st_ctime_ns) == (
            opened.st_ino, opened.st_dev, opened.st_size, opened.st_mtime_ns, opened.st_ctime_ns)

    def unchanged(self, parts: list[bytes | list[int]]) -> bool:
        """Whether `parts` (save_by_part's: a head, one range, a tail) are this file's bytes."""
        if len(parts) != 3 or not isinstance(parts[1], list):
            return False
        head, (start, count), tail = parts
        size = os.fstat(self.fd).st_size
        return (isinstance(head, bytes) and isinstance(tail, bytes) and start == len(head)
                and start + count + len(tail) == size
                and os.pread(self.fd, len(head), 0) == head
                and os.pread(self.fd, len(tail), start + count) == tail)

    def facts(self, rel: str, entry: LazyEntry) -> FileFacts:
        self.reads += 1
        if self.reads > BULK_AFTER and self.bulk is None:
            self.bulk = self._read_every_entry()
        found = self.bulk.get(entry.row[6]) if self.bulk is not None else None
        if found is not None:
            return found
        if self.whole is not None or self.reads > BULK_AFTER:
            return cast(FileFacts, self._entry_in_whole(rel, entry)["facts"])
        offset, size = entry.at
        try:
            got = orjson.loads(os.pread(self.fd, size, offset))
        except (OSError, orjson.JSONDecodeError):
            got = None
        if not (isinstance(got, dict) and isinstance(got.get("facts"), dict)
                and all(got.get(key) == entry[key] for key in _STAT_KEYS)):
            got = self._entry_in_whole(rel, entry)
        return cast(FileFacts, got["facts"])

    def _read_every_entry(self) -> dict[int, FileFacts]:
        """The facts of every row of the table, by the offset of its entry, parsed a run of
        adjacent entries at a time: never the whole file's bytes, nor a second copy of every
        entry's stat and hash beside the table's (at 100,000 pages those were 125 MB of bytes
        and ~200 MB of objects at the peak of a check over every page). An entry whose bytes
        in its run do not match its row is left out (taken from the whole file when asked)."""
        facts: dict[int, FileFacts] = {}
        run: list[list[Any]] = []
        for row in self.rows:
            if run and row[6] + row[7] - run[0][6] > _BULK_BYTES:
                self._read_run(run, facts)
                run = []
            run.append(row)
        if run:
            self._read_run(run, facts)
        return facts

    def _read_run(self, run: list[list[Any]], facts: dict[int, FileFacts]) -> None:
        first, last = run[0], run[-1]
        start = first[6] - len(orjson.dumps(first[0])) - 1  # the first key's opening quote
        try:
            got = orjson.loads(b"{" + os.pread(self.fd, last[6] + last[7] - start, start) + b"}")
        except (OSError, orjson.JSONDecodeError):
            return
        if not isinstance(got, dict):
            return
        for row in run:
            found = got.get(row[0])
            if (isinstance(found, dict) and isinstance(found.get("facts"), dict)
                    and [found.get(key) for key in _STAT_KEYS] == row[1:6]):
                facts[row[6]] = found["facts"]

    def _entry_in_whole(self, rel: str, entry: LazyEntry) -> dict[str, Any]:
        """The entry as the whole file has it (a table that does not match its bytes, or a
        check that asks for many: parsed once, as without the table)."""
        if self.whole is None:
            size = os.fstat(self.fd).st_size
            self.whole = orjson.loads(os.pread(self.fd, size, 0))
        got = cast(dict[str, Any], self.whole).get("files", {}).get(rel)
        if not (isinstance(got, dict) and isinstance(got.get("facts"), dict)
                and all(got.get(key) == entry[key] for key in _STAT_KEYS)):
            raise MembankError(file=self.path, cause=f"the reconcile cache has no entry of {rel} "
                               "as its table describes it",
                               hint="delete .membank/reconcile-cache-rows.json; the next check "
                               "reads the cache whole")
        return got


class LazyEntry(dict):  # type: ignore[type-arg]
    """A cache entry (FileEntry) whose facts are read from the cache file when first asked.
    Made with dict's own constructor (its stat and hash keys), then its two slots set: no
    Python-level __init__ for each of 120,000 entries at 100,000 pages. `row`: its table row
    (path, size, mtime_ns, ctime_ns, inode, hash, offset, length); `stat`: the first four
    stat fields as the walk's FileStat begins (scan._unchanged_first compares them whole)."""

    __slots__ = ("row", "source", "stat")
    row: list[Any]
    source: _CacheFile
    stat: tuple[int, int, int, int]

    def __missing__(self, key: str) -> Any:
        if key != "facts":
            raise KeyError(key)
        facts = self["facts"] = self.source.facts(self.row[0], self)
        return facts

    @property
    def at(self) -> tuple[int, int]:
        """Where the entry's bytes lie in the cache file: (offset, length)."""
        return self.row[6], self.row[7]


class PartFiles(dict):  # type: ignore[type-arg]
    """The files of a cache read by part: path -> LazyEntry, in path order; `identity`: the
    cache file's (size, mtime_ns, ctime_ns, inode) its table described."""

    identity: list[int]


def load_by_part(root: Path, version: int) -> ScanCache | None:
    """The cache with its files' facts read when asked, when the table describes the cache
    file there now in this version; else None (the caller loads the cache whole)."""
    path = root / RECONCILE_CACHE_FILE
    try:
        table = orjson.loads((root / ROWS_FILE).read_bytes())
        fd = os.open(path, os.O_RDONLY)
    except (OSError, orjson.JSONDecodeError):
        return None
    source = _CacheFile(path, fd)  # closes fd when dropped
    st = os.fstat(fd)
    if not isinstance(table, dict) or table.get("version") != version or table.get("cache") != [
            st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino]:
        return None
    state, rows = table.get("state"), table.get("rows")
    if not isinstance(state, dict) or not isinstance(rows, list) or any(
            key in state and not isinstance(state[key], kind) for key, kind in _STATE_TYPES.items()):
        return None
    files = PartFiles()
    files.identity = table["cache"]
    for row in rows:  # one pass, no call per row but the entry's own (LazyEntry's doc)
        if type(row) is not list or len(row) != 8:
            return None
        rel, size, mtime, ctime, ino, digest, offset, length = row
        if not (type(rel) is str and type(size) is int and type(mtime) is int
                and type(ctime) is int and type(ino) is int and type(digest) is str
                and type(offset) is int and type(length) is int):
            return None  # a malformed row: no table (checked in the pass that uses it)
        entry = files[rel] = LazyEntry(size=size, mtime_ns=mtime, ctime_ns=ctime, ino=ino,
                                       hash=digest)
        entry.source, entry.row, entry.stat = source, row, (size, mtime, ctime, ino)
    source.rows = rows
    return cast(ScanCache, {**state, "version": version, "files": files})
