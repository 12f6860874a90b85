"""The last reconcile's verdict, kept so a reconcile over an unchanged memory costs one walk.

Every gate is a pure function of the scan (each file's facts, modes, folders, symlinks, temp
files) and of the baselines in the reconcile cache. So when a walk of the root sees exactly
what the last repair run saw (tasks.checks.walk.Walked.fingerprint: path, size, mtime, ctime, inode
and mode of every file) and the cache files are the ones that run left, the findings and counts
are the ones it found: a no-change `reconcile` or `reconcile --check` reuses them without
loading the cache or running a gate. The search index's check (a quick_check of the database
and a comparison of every page with what it holds) is reused likewise while the index file and
the memory's generation are the ones that run checked.

.membank/reconcile-verdict.json is bookkeeping, never the source of truth: missing, corrupt,
of another version or not matching, it is ignored and the full check runs. A repair run records
one: a run that wrote nothing records what it found; a run that wrote (repairs, stale marks, its
log entry) records the gates' findings over the files as it left them, checked as the next run
would check them (tasks/checks/reconcile/full.py finish_passes), or none while a baseline
still moves.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

import orjson

from schemas.health import Finding, HealthCounts
from tasks.store.atomic import atomic_write_bytes
from tasks.store.filememo import file_identity
from tasks.store.journal import open_journal, read_generation
from tasks.store.layout import (
    OBSERVATION_BASELINE_FILE,
    RECONCILE_CACHE_FILE,
    STATE_DIR,
    MemoryLayout,
)

if TYPE_CHECKING:
    from collections.abc import Callable

    from tasks.checks.walk import Walked

VERDICT_FILE = f"{STATE_DIR}/reconcile-verdict.json"
SEARCH_INDEX_NAME = "search.sqlite3"  # tasks.search.index.INDEX_NAME


_CHECKS = Path(__file__).resolve().parent.parent  # tasks/checks


def verdict_code() -> list[Path]:
    """The code a verdict stands on: every module of tasks/checks (the gates, what they share,
    the full check, the scan and walk, the cache's format, the graph's facts, the repairs and
    the stale marks). Hashed as files, so a verdict that holds imports none of them; all of
    them, so a gate moved into a new module never leaves an old verdict standing (a list kept
    by hand had missed drift.py, repairs.py, stale.py, entity_rows.py and graph_delta.py)."""
    return sorted(_CHECKS.rglob("*.py"))


@cache
def verdict_version() -> str:
    """The cache format and the code that makes a verdict: a verdict recorded by other gates
    (another membank version, a local change) is never reused."""
    digest = hashlib.sha256(b"3")
    for path in verdict_code():
        digest.update(path.relative_to(_CHECKS).as_posix().encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:16]


def _bookkeeping(root: Path) -> list[list[int] | None]:
    return [file_identity(root / RECONCILE_CACHE_FILE),
            file_identity(root / OBSERVATION_BASELINE_FILE)]


def bookkeeping_holds(root: Path) -> bool:
    """Whether the reconcile cache and the observation baseline are the pair the last repair
    run saved (the run that recorded the verdict file, whatever its walk)."""
    try:
        return bool(orjson.loads((root / VERDICT_FILE).read_bytes())["bookkeeping"]
                    == _bookkeeping(root))
    except (OSError, orjson.JSONDecodeError, KeyError, TypeError):
        return False


def recorded_pages(root: Path) -> Any:
    """What the verdict's check left for the per-page gates of a later check
    (page_recheck.PageBasis as JSON), when this code recorded it over the reconcile cache and
    observation baseline there now; else None."""
    try:
        data = orjson.loads((root / VERDICT_FILE).read_bytes())
        if data["version"] != verdict_version() or data["bookkeeping"] != _bookkeeping(root):
            return None
        return data.get("pages")
    except (OSError, orjson.JSONDecodeError, KeyError, TypeError):
        return None


@dataclass
class Verdict:
    """What a full check found over the files whose walk has `fingerprint`."""

    fingerprint: str
    findings: list[Finding]
    counts: HealthCounts
    plan_empty: bool  # nothing a repair run would change
    index: dict[str, Any] | None = None  # {"file": identity, "generation": str}: checked ok
    pages: Any = None  # what the per-page gates of a later check start from (page_recheck)
    probe: list[int] | None = None  # the walk's Walked.probe(), when known


def load_verdict(root: Path, walked: Walked, key: Callable[[Walked], str]) -> Verdict | None:
    """The recorded verdict when it was made over these very files (`walked`, whose verdict
    key is `key(walked)`), else None. A recorded probe that is not this walk's says so
    without the key (Walked.probe)."""
    try:
        data = orjson.loads((root / VERDICT_FILE).read_bytes())
        probe = data.get("probe")
        if probe is not None and probe != walked.probe():
            return None
        fingerprint = key(walked)
        if (data["version"] != verdict_version() or data["fingerprint"] != fingerprint
                or data["bookkeeping"] != _bookkeeping(root)):
            return None
        return Verdict(fingerprint=fingerprint, probe=probe,
                       findings=[Finding.model_validate(f) for f in data["findings"]],
                       counts=HealthCounts.model_validate(data["counts"]),
                       plan_empty=data["plan_empty"] is True, index=data.get("index"),
                       pages=data.get("pages"))
    except (OSError, orjson.JSONDecodeError, KeyError, TypeError, ValueError, AttributeError):
        return None


def save_verdict(root: Path, verdict: Verdict) -> bool:
    """Record `verdict`, after the cache files were written (their identity is part of it)."""
    data = {"version": verdict_version(), "fingerprint": verdict.fingerprint,
            "bookkeeping": _bookkeeping(root),
            "findings": [f.model_dump(mode="json") for f in verdict.findings],
            "counts": verdict.counts.model_dump(mode="json"), "plan_empty": verdict.plan_empty,
            "index": verdict.index, "pages": verdict.pages, "probe": verdict.probe}
    return atomic_write_bytes(root / VERDICT_FILE, orjson.dumps(data, option=orjson.OPT_SORT_KEYS),
                              validate=False)


def index_identity(layout: MemoryLayout) -> dict[str, Any]:
    """The search index file's identity and the memory generation: while both stay, an index
    found current over unchanged pages is still current. The same values as
    tasks.search.index's index_file and memory_generation, computed here so a reconcile whose
    verdict holds does not import the search index (tests/tasks/checks/reconcile/test_verdict.py
    holds the equality)."""
    journal = open_journal(layout.root)
    generation = journal.generation() if journal is not None else read_generation(layout.root)
    return {"file": file_identity(layout.state_dir / SEARCH_INDEX_NAME), "generation": generation}


def index_still_ok(layout: MemoryLayout, verdict: Verdict | None) -> bool:
    """Whether the index was checked ok over these pages and neither it nor the generation
    changed since."""
    return (verdict is not None and verdict.index is not None
            and verdict.index["file"] is not None and verdict.index == index_identity(layout))
