"""The search index file as its deep check passed it, followed through membank's own updates.

SQLite's quick_check reads every page of the database (about 0.6 s of cpu at 100,000 pages,
590 MB). Reconcile makes it whenever the index file is not the one the last verdict recorded,
so a check right after an ingest paid it although the only writes since the last deep check
were membank's own committed transactions. `.membank/search.sqlite3.checked.json` records the index
file's identity (tasks.store.filememo.file_identity: size, mtime, ctime, inode) when:

- a deep check passed over it (reconcile's repair: index.ensure_index, under the writer lock),
  or build_index made it (a new file, committed and renamed in place: what a repair run's
  verdict trusts after a rebuild too);
- update_index committed a transaction that began, under SQLite's write lock, on the file
  the record names (the record then moves to the file's new identity). A transaction that
  began on another file (written by anyone else since, or replaced) removes the record.

A deep check of the file the record names is taken as passed (checked_identity). Anything else
(no record, an unreadable one, a file replaced, copied, edited or touched: its ctime or inode
moves; a crash between a commit and the record: the old identity) makes the deep check.
The record may also name the reconcile cache the index's pages were in step with (`cache`: that
cache file's identity; in_step_cache): a repair run that brought the index current over the
files whose stats its saved cache holds adds it (record_in_step), update_index carries it when it
moves the record, and anything else that writes the record drops it. A check by the change then
compares with the index only the pages whose stat is not that cache's (index.stale_pages
given a PagesSince): a page that kept the cache's stat (its ctime too) kept its index entry, or membank's
own update wrote the same signature in it.
Bookkeeping only: never the source of truth, and a missing record only costs the deep check.
The identity after a commit is taken once the connection is closed: update_index runs under
membank's writer lock, so no other membank writer can come in between (a hand's SQLite
session in that moment would be taken for membank's own write).
"""

from __future__ import annotations

from pathlib import Path

import orjson

from tasks.store.atomic import atomic_write_bytes
from tasks.store.errors import MembankError
from tasks.store.filememo import file_identity
from tasks.store.layout import STATE_DIR, MemoryLayout

# named after the index (search.sqlite3), so what goes with the index file goes with it: a
# comparison of the memory's files that leaves the index out (its generation is random) leaves
# out this record of its identity too
CHECKED_FILE = f"{STATE_DIR}/search.sqlite3.checked.json"


def _record(layout: MemoryLayout) -> Path:
    return layout.root / CHECKED_FILE


def _identity(value: object) -> list[int] | None:
    if not (isinstance(value, list) and len(value) == 4
            and all(type(item) is int for item in value)):
        return None
    return value


def _read(layout: MemoryLayout) -> dict[str, object]:
    try:
        data = orjson.loads(_record(layout).read_bytes())
    except (OSError, orjson.JSONDecodeError):
        return {}
    return data if isinstance(data, dict) else {}


def recorded_identity(layout: MemoryLayout) -> list[int] | None:
    """The identity the record names; None when there is no readable record."""
    return _identity(_read(layout).get("file"))


def recorded_cache(layout: MemoryLayout) -> list[int] | None:
    """The reconcile cache's identity the record names with the index file (None: none)."""
    data = _read(layout)
    return _identity(data.get("cache")) if _identity(data.get("file")) is not None else None


def in_step_cache(layout: MemoryLayout, index: Path) -> list[int] | None:
    """The identity of the reconcile cache whose pages' stats the index file, as it is now, is
    in step with (record_in_step, carried through membank's own updates); else None."""
    data = _read(layout)
    now = file_identity(index)
    if now is None or _identity(data.get("file")) != now:
        return None
    return _identity(data.get("cache"))


def record_in_step(layout: MemoryLayout, index: Path, cache: list[int] | None) -> None:
    """Name `cache` (the reconcile cache's identity) as the one the index's pages are in step
    with, when the record names the index file as it is now (else nothing is added)."""
    now = file_identity(index)
    if now is not None and cache is not None and recorded_identity(layout) == now:
        record_checked(layout, now, cache=cache)


def checked_identity(layout: MemoryLayout, index: Path) -> list[int] | None:
    """The index file's identity when it is the one the record names (its deep check passed,
    or membank's own updates led to it from one that passed), else None."""
    now = file_identity(index)
    return now if now is not None and recorded_identity(layout) == now else None


def record_checked(layout: MemoryLayout, identity: list[int] | None,
                   cache: list[int] | None = None) -> None:
    """Record `identity` as the index file's (None: remove the record), with `cache`, the
    reconcile cache its pages are in step with, when known."""
    if identity is None:
        forget_checked(layout)
        return
    record: dict[str, list[int]] = {"file": identity}
    if cache is not None:
        record["cache"] = cache
    try:
        atomic_write_bytes(_record(layout), orjson.dumps(record), validate=False)
    except (MembankError, OSError):
        forget_checked(layout)  # no record: the next check makes the deep check


def forget_checked(layout: MemoryLayout) -> None:
    try:
        _record(layout).unlink(missing_ok=True)
    except OSError:
        pass
