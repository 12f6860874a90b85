"""Keeping the derived index current with the memory: it is never silently wrong.

The index records the memory generation it reflects (tasks/store/journal.py: a new value with
each committed batch that wrote content, the old one back after a rollback). So:

- A writer's batch brings the index up to its own writes at the end of each stage
  (`sync_batch`): the content paths its journal recorded since the generation the index holds
  (its base, or an earlier point of the same batch), and the index takes the batch's
  generation. Rolled back, the memory's generation returns to the old value while the index
  holds the batch's: a reader sees they differ.
- A reader (`ready_index`) compares two short strings, the index's generation and the
  memory's (no walk of the pages). When they differ (a rolled-back batch, a failed index
  update, a batch that wrote pages without updating the index, a crash), it takes the writer
  lock, recovers an interrupted batch, re-indexes the pages whose files differ from the index
  and records the generation. While a writer holds the lock, it answers from the index as it
  is, with a warning.
- Every write of the index (a build, an update, a rebuild) runs under the writer lock, so a
  `search --rebuild` beside a writer cannot lose the writer's updates.
- A database that turns out unreadable in the middle of a read (`read_index`) is rebuilt
  and the read tried once more.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterable, Sequence
from contextlib import closing
from typing import TYPE_CHECKING, TypeVar

from tasks.search.index import (
    GENERATION_KEY,
    IndexUpdate,
    SearchIndexError,
    build_index,
    connect_index,
    index_status,
    stale_pages,
    update_index,
)
from tasks.search.pages import is_indexable
from tasks.store.errors import LockTimeoutError, MembankError, RootBoundaryError
from tasks.store.journal import open_journal, pending_batch, read_generation, recover
from tasks.store.layout import MemoryLayout
from tasks.store.lock import holds_read_lock, memory_root_lock

if TYPE_CHECKING:
    from concurrent.futures import Executor

T = TypeVar("T")

# How long a read waits for a writer before it answers from an index that is behind (0: it
# never waits), and before it gives up on building a missing or unreadable one.
BEHIND_WAIT_SECONDS = 0.0
REBUILD_WAIT_SECONDS = 60.0
BEHIND_WARNING = ("the search index may be behind the memory: a writer is at work (its "
                  "changes are found once it finishes)")


def sync_batch(layout: MemoryLayout, pages: Iterable[str] = (), *,
               build: bool = False, semantic: bool = False, pool: Executor | None = None
               ) -> IndexUpdate:
    """In a writer's batch: re-index what the batch wrote since the index last synced (and
    `pages`), and record the batch's generation. An index that was behind before the batch
    (its generation is not the batch's base) has every page checked against its files.
    A missing index is left to the next search, or built now when `build` (with page vectors
    when `semantic`), so that search finds it warm. `pool`: processes the writer forked while
    it could (its map step's), to parse the pages in (tasks/search/index.py, _read_all)."""
    journal = open_journal(layout.root)
    if journal is None:
        raise SearchIndexError("sync_batch runs inside a writer's batch",
                               hint="a bug: call it from a writing operation")
    state, meta = index_status(layout)
    if state == "missing":
        if build:
            return build_index(layout, semantic=semantic, generation=journal.generation(),
                               pool=pool)
        return IndexUpdate("absent")  # the next search builds it
    if state == "corrupt":
        return build_index(layout)
    written = journal.written_since(meta.get(GENERATION_KEY))
    if written is None:  # behind from before this batch
        written = [*journal.content_writes, *stale_pages(layout)]
    wanted = sorted({rel for rel in (*written, *pages) if is_indexable(rel)})
    return update_index(layout, wanted, generation=journal.generation(), pool=pool)


def ready_index(layout: MemoryLayout, *, semantic: bool = False) -> list[str]:
    """Make the index usable and current for a read; returns warnings for the answer."""
    if open_journal(layout.root) is not None:  # this process's writer keeps it current
        if index_status(layout, semantic=semantic)[0] != "ok":
            build_index(layout, semantic=semantic)
        return []
    state, meta = index_status(layout, semantic=semantic)
    if state == "ok" and meta.get(GENERATION_KEY) == read_generation(layout.root):
        return []
    if holds_read_lock(layout.root):  # writers are shut out already, and waiting for the
        _catch_up(layout, semantic=semantic)  # writer lock here would wait for ourselves
        return []
    wait = BEHIND_WAIT_SECONDS if state == "ok" else REBUILD_WAIT_SECONDS
    try:
        with memory_root_lock(layout.root, timeout=wait, purpose="search index"):
            _catch_up(layout, semantic=semantic)
    except LockTimeoutError:
        if state != "ok":
            raise
        return [BEHIND_WARNING]
    except (MembankError, sqlite3.Error, OSError) as exc:
        # an index that reads still answers (e.g. a read-only root, a full disk), and says so
        if state != "ok" or isinstance(exc, RootBoundaryError):
            raise
        return [f"the search index may be behind the memory and could not be brought up to "
                f"date ({exc})"]
    return []


def _catch_up(layout: MemoryLayout, *, semantic: bool) -> None:
    """Under the writer lock: recover an interrupted batch, then build a missing or unreadable
    index, or re-index the pages that differ from their files."""
    if pending_batch(layout.root):
        recover(layout.root)
    generation = read_generation(layout.root)
    state, meta = index_status(layout, semantic=semantic)
    if state != "ok":
        build_index(layout, semantic=semantic, generation=generation)
    elif meta.get(GENERATION_KEY) != generation:
        update_index(layout, stale_pages(layout), generation=generation)


def rebuild_index(layout: MemoryLayout, *, semantic: bool = False,
                  wait: float = REBUILD_WAIT_SECONDS) -> IndexUpdate:
    """A full build under the writer lock (`search --rebuild`, an unreadable index), waiting
    up to `wait` seconds for it: never beside a writer's batch, whose index updates it would
    otherwise lose."""
    if open_journal(layout.root) is not None:
        return build_index(layout, semantic=semantic)
    if holds_read_lock(layout.root):  # (writers are shut out; see ready_index)
        return build_index(layout, semantic=semantic, generation=read_generation(layout.root))
    with memory_root_lock(layout.root, timeout=wait, purpose="search index"):
        recover(layout.root)  # as every writer: a killed batch, and the temp files of a killed
        # rebuild (.search.sqlite3.<8 chars>.tmp), which nothing else sweeps when rebuilds
        # are all that run
        return build_index(layout, semantic=semantic, generation=read_generation(layout.root))


def _corrupt(exc: sqlite3.DatabaseError) -> bool:
    """An error of the database file itself (not a busy or locked one)."""
    name = getattr(exc, "sqlite_errorname", "") or ""
    return name.startswith(("SQLITE_CORRUPT", "SQLITE_NOTADB")) or (
        not name and not isinstance(exc, sqlite3.OperationalError))


def catch_up_folders(layout: MemoryLayout, folders: Sequence[str]) -> list[str]:
    """Pages of `folders` the index does not hold as they are (records written by hand, such
    as a session or plan an agent saved without membank): re-indexed now, under the writer
    lock, so a read sees them before any reconcile. A scan of those folders only; the index
    keeps the generation it reflects. Warnings for the answer."""
    if not folders or index_status(layout)[0] != "ok":
        return []
    stale = sorted({page for folder in folders for page in stale_pages(layout, folder)})
    if not stale:
        return []
    if open_journal(layout.root) is not None or holds_read_lock(layout.root):
        update_index(layout, stale, graph=False)
        return []
    try:
        with memory_root_lock(layout.root, timeout=BEHIND_WAIT_SECONDS, purpose="search index"):
            update_index(layout, stale, graph=False)
    except LockTimeoutError:
        return [BEHIND_WARNING]
    except (MembankError, sqlite3.Error, OSError) as exc:
        return [f"records written by hand may be missing from the answer ({exc})"]
    return []


def read_index(layout: MemoryLayout, read: Callable[[sqlite3.Connection], T], *,
               semantic: bool = False, folders: Sequence[str] = ()) -> tuple[T, list[str]]:
    """`read(conn)` on a usable, current index, and the warnings for its answer (`folders`:
    where records are written by hand too, checked for pages the index lacks). A database
    found unreadable during the read is rebuilt and the read runs once more."""
    warnings = ready_index(layout, semantic=semantic)
    warnings += catch_up_folders(layout, folders)
    try:
        with closing(connect_index(layout)) as conn:
            return read(conn), warnings
    except sqlite3.DatabaseError as exc:
        if not _corrupt(exc):
            raise _unreadable(layout, exc) from exc
    rebuild_index(layout, semantic=semantic)
    try:
        with closing(connect_index(layout)) as conn:
            return read(conn), warnings
    except sqlite3.DatabaseError as exc:
        raise _unreadable(layout, exc) from exc


def _unreadable(layout: MemoryLayout, exc: sqlite3.DatabaseError) -> SearchIndexError:
    return SearchIndexError(f"the search index cannot be read: {exc}",
                            file=layout.relative(layout.state_dir),
                            hint="run `membank search --rebuild`")
