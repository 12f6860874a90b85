"""How writing flows keep the search index current: one call at the end of each stage.

The index is derived data: a failure to update it never fails the write that was made; it is
reported as a consistency warning, and the index keeps the generation it had, so the next
search sees it is behind and brings it up to date (tasks/search/sync.py), as does reconcile.
"""

from __future__ import annotations

import sqlite3
from typing import TYPE_CHECKING

from schemas.report import MemoryOperationReport
from tasks.search.index import IndexUpdate, ensure_index
from tasks.search.sync import sync_batch
from tasks.store.errors import MembankError
from tasks.store.operation import Operation

if TYPE_CHECKING:
    from concurrent.futures import Executor

WRITE_ACTIONS = frozenset({"created", "updated", "superseded", "applied"})


def written_pages(report: MemoryOperationReport) -> list[str]:
    """Root-relative markdown files a stage wrote, from its report's artifacts."""
    return sorted({a.path for a in report.artifacts
                   if a.action in WRITE_ACTIONS and a.path.endswith(".md")})


def refresh_search_index(operation: Operation, pages: list[str] | None = None, *,
                         build: bool = False, pool: Executor | None = None
                         ) -> IndexUpdate | None:
    """Re-index what this operation's batch wrote (its journal's content paths, its report's
    pages or `pages`) and the graph observations if the graph changed; the index then records
    the batch's generation. `build`: a missing index is built now (ingest: the first search
    after it is warm; `pool`: processes to parse the pages in, see sync_batch). Returns None
    when the update failed (warned)."""
    try:
        return sync_batch(operation.layout,
                          written_pages(operation.report) if pages is None else pages,
                          build=build, semantic=operation.settings.search_semantic, pool=pool)
    except (MembankError, sqlite3.Error, OSError) as exc:
        operation.stage.note_warnings(
            [f"search index not updated ({exc}); the next search brings it up to date"])
        return None


def reconcile_search_index(operation: Operation, passed: list[int] | None = None) -> str:
    """Reconcile's repair: rebuild a missing or corrupt index, re-index stale pages (`passed`:
    the index file's identity when its deep check passed ahead, index.deep_check_ahead).
    Returns what it found and did, for the report's figures."""
    try:
        state, update = ensure_index(operation.layout,
                                     semantic=operation.settings.search_semantic, passed=passed)
    except (MembankError, sqlite3.Error, OSError) as exc:
        operation.stage.note_warnings([f"search index could not be rebuilt: {exc}"])
        return "failed"
    if state == "ok":
        return "ok"
    if state == "stale":
        return f"stale: re-indexed {update.pages_indexed}, dropped {update.pages_removed}"
    return f"{state}: rebuilt ({update.pages_indexed} pages)"
