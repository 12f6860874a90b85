"""reconcile_memory: check (and repair) the memory, then report.

A memory whose files are those of the last repair run's verdict (tasks/checks/reconcile/verdict.py)
costs one walk and the verdict: nothing else is read, and the scan, the parsers and the gates
(tasks/checks/reconcile/full.py) are not even imported. Otherwise full.py scans, checks and repairs.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from schemas.health import Finding, HealthCounts, HealthSummary
from schemas.report import MemoryOperationReport
from tasks.checks.reconcile.verdict import (
    SEARCH_INDEX_NAME,
    Verdict,
    index_identity,
    index_still_ok,
    load_verdict,
    save_verdict,
)
from tasks.checks.walk import SKIP_PATHS, Walked, walk_root
from tasks.health.findings import finding, problems_from
from tasks.health.summary import build_summary
from tasks.store.errors import MembankError
from tasks.store.filememo import file_identity
from tasks.store.layout import RECONCILE_CACHE_FILE, STATE_DIR
from tasks.store.operation import Operation
from tasks.store.report import StageFigures
from tasks.store.settings import MembankSettings

if TYPE_CHECKING:
    from tasks.checks.reconcile.full import NextRunCheck, _Passes
    from tasks.checks.scan_pool import Aside
    from tasks.search.index import PagesSince
    from tasks.search.pages import PageStat

SEARCH_INDEX = f"{STATE_DIR}/{SEARCH_INDEX_NAME}"


@dataclass
class _Outcome:
    """What the check found: by the gates, or as the verdict recorded it."""

    findings: list[Finding]
    counts: HealthCounts
    plan_empty: bool


def _finish_report(operation: Operation, findings: list[Finding]) -> None:
    stage = operation.stage
    stage.note_problems(problems_from(findings))
    health = stage.report.memory_health
    health.index_synced = not any(
        f.code in {"index_missing_entry", "index_stale_entry", "missing_index"} for f in findings)
    health.consistency_warnings = [p.one_line() for p in stage.problems[:20]]


STALE_EXAMPLES = 5


def search_index_findings(operation: Operation, passed: list[int] | None = None,
                          walked: Walked | None = None, done: _Passes | None = None
                          ) -> list[Finding]:
    """The search index, checked against the pages (reconcile --check): unreadable, or behind
    the memory (pages whose files differ from what it holds). A missing one is not a problem,
    nor one without the page vectors semantic ranking wants: the next search builds it.
    `passed`: the index file's identity when its deep check passed ahead (full.index_passed);
    `walked`: the root's walk as the pages are now (the walk skips our own output, walked here);
    `done`: the check's passes, whose scan tells which pages kept the cache's stats."""
    from tasks.search.index import check_index
    from tasks.search.pages import pages_of_walk

    pages = pages_of_walk(operation.root, walked.stats, SKIP_PATHS) if walked else None
    since = (_pages_since(pages, done, walked) if pages is not None and done is not None
             else None)
    try:
        state, stale = check_index(operation.layout, passed=passed, pages=since or pages)
    except (MembankError, OSError) as exc:
        return [search_index_failure(f"search index could not be checked: {exc}")]
    if state == "corrupt":
        return [finding("search_index_corrupt", "warning", SEARCH_INDEX,
                        "the search index cannot be read (damaged, or not a database file)",
                        "the next search or `membank reconcile` rebuilds it")]
    if state != "stale":
        return []
    examples = ", ".join(stale[:STALE_EXAMPLES]) + (", ..." if len(stale) > STALE_EXAMPLES else "")
    return [finding("search_index_stale", "warning", SEARCH_INDEX,
                    f"the search index is behind the memory: {len(stale)} file(s) differ from "
                    f"what it holds ({examples})",
                    "the next search or `membank reconcile` re-indexes them")]


def _pages_since(pages: list[tuple[str, PageStat]], done: _Passes, walked: Walked | None
                 ) -> PagesSince | None:
    """The pages (of `walked`) against the reconcile cache read by part that the check's scan
    of that walk was made from (index.stale_pages' PagesSince); None when the scan is not one
    such (a repair pass wrote, another walk, or the cache was loaded whole)."""
    from tasks.search.index import PagesSince

    scan = done.scan
    ref = scan.removed_from
    cached = ref() if ref is not None and scan is done.first_scan else None
    if cached is None or walked is None or scan.walked is not walked:
        return None
    files, restat = scan.files, scan.restat
    others = [(rel, st) for rel, st in pages if rel in restat or rel not in files]
    return PagesSince(pages, cached.identity, others, len(pages) - len(others),
                      sorted(scan.removed))


def search_index_failure(message: str) -> Finding:
    return finding("search_index_failed", "error", SEARCH_INDEX, message,
                   "fix the cause, then run `membank search --rebuild`")


def _verdict_key(walked: Walked, now_iso: str) -> str:
    """A verdict holds for these files on this day: the stale marks and the freshness window
    move with the clock, not with the files."""
    return f"{walked.fingerprint()}@{now_iso[:10]}"


def _index_findings(operation: Operation, verdict: Verdict | None,
                    passed: list[int] | None, walked: Walked, done: _Passes | None
                    ) -> list[Finding]:
    """reconcile --check's look at the search index; none when it was checked ok over these
    pages and neither it nor the generation changed since. `walked`: this run's walk (a check
    writes no page); `done`: the full check's passes, whose scan is still held."""
    if index_still_ok(operation.layout, verdict):
        return []
    if done is None:
        return search_index_findings(operation, passed, walked)
    from tasks.checks.scan_pool import collector_paused  # loaded with full.py

    with collector_paused():  # the scan's millions of objects: no collection walks them
        return search_index_findings(operation, passed, walked, done)


class ReconcileFigures(StageFigures):
    """What a reconcile run read and repaired; `search_index` is the index's state after a
    repair run (ok, rebuilt, refreshed, failed)."""

    search_index: str | None = None
    pages: int | None = None
    files_read: int | None = None
    mb_read: float | None = None
    repairs: int | None = None


def _repair_index(operation: Operation, verdict: Verdict | None,
                  passed: list[int] | None = None) -> str:
    """Bring the search index current; its state after (see ReconcileFigures)."""
    stage = operation.stage
    if index_still_ok(operation.layout, verdict):
        state = "ok"
    else:
        from tasks.search.refresh import reconcile_search_index

        state = reconcile_search_index(operation, passed)
    stage.note_figures(ReconcileFigures(search_index=state))
    if state == "failed":
        failed = search_index_failure(stage.report.memory_health.consistency_warnings[-1])
        stage.note_problems(problems_from([failed]))
    return state


def _finish_repair_run(operation: Operation, done: _Passes | None, verdict: Verdict | None,
                       passed: list[int] | None) -> list[Finding]:
    """Log, save the cache, bring the search index current, record the verdict: what a check
    finds over the files as this run leaves them (full.finish_passes), its own writes
    included (checked beside the index, in a child, on a large memory). Returns the index's
    failure, if it failed."""
    pending = None
    if done is not None:
        from tasks.checks.reconcile.full import finish_passes

        pending = finish_passes(operation, done)
        done.release_scans()
    try:
        index_state = _repair_index(operation, verdict, passed)
    finally:
        final = _next_run_check(pending)
    if done is not None and index_state != "failed":
        _record_in_step(operation)
    if index_state == "failed":
        return [search_index_failure(operation.report.memory_health.consistency_warnings[-1])]
    if done is not None and final is not None and done.scan.walked is not None:
        verdict = Verdict(fingerprint=_verdict_key(done.scan.walked, operation.now_iso),
                          probe=done.scan.walked.probe(),
                          findings=final.findings,
                          counts=final.counts, plan_empty=final.plan_empty,
                          pages=final.pages.to_json() if final.pages is not None else None)
    if verdict is not None:
        verdict.index = index_identity(operation.layout)
        save_verdict(operation.root, verdict)
    return []


def _record_in_step(operation: Operation) -> None:
    """The index, just brought current over the files whose stats the cache this run saved
    holds, is in step with that cache (tasks/search/index_checked.py)."""
    from tasks.search.index import index_file
    from tasks.search.index_checked import record_in_step

    layout = operation.layout
    record_in_step(layout, index_file(layout), file_identity(operation.root / RECONCILE_CACHE_FILE))


def _next_run_check(pending: Aside[NextRunCheck | None] | None) -> NextRunCheck | None:
    """The next run's check, waited for; none (no verdict: the next run checks in full) when
    the child that ran it died without an answer."""
    if pending is None:
        return None
    from tasks.checks.scan_pool import AsideLost  # loaded with full.py, which made `pending`

    try:
        return pending.result()
    except AsideLost:
        return None


def _check(operation: Operation, walked: Walked, verdict: Verdict | None, *, check: bool
           ) -> tuple[_Passes | None, _Outcome, Verdict | None]:
    """The verdict's result when it holds for this run, else the full check's (the verdict is
    then dropped: None)."""
    if verdict is not None and (check or verdict.plan_empty):
        return None, _Outcome(list(verdict.findings), verdict.counts, verdict.plan_empty), verdict
    from tasks.checks.reconcile.full import full_check

    done, result = full_check(operation, walked, check=check)
    return done, _Outcome(result.findings, result.counts, result.plan.empty()), None


def _audit_stores(settings: MembankSettings, root: Path, now_iso: str) -> list[Finding]:
    """The memory stores (.mem, MemoryCustodian): read-only, their own rules. None configured
    and none in the root: nothing to audit (and their audit is not imported)."""
    if not settings.store_paths and not (root / ".mem").exists() and not (root / "docs").is_dir():
        return []
    from tasks.memstores.check import audit_configured

    return audit_configured(settings, root, now_iso)


def reconcile_memory(operation: Operation, *, check: bool) -> tuple[MemoryOperationReport,
                                                                     HealthSummary]:
    """Check (and unless `check`, repair) the memory; return the report and health summary.
    A memory whose files are those of the last repair run's verdict is not scanned again."""
    started = time.perf_counter()
    root, settings = operation.root, operation.settings
    durations: dict[str, float] = {}
    walked = walk_root(root)
    verdict = load_verdict(root, walked, partial(_verdict_key, now_iso=operation.now_iso))
    durations["scan"] = time.perf_counter() - started
    t0 = time.perf_counter()
    done, result, verdict = _check(operation, walked, verdict, check=check)
    passed = None
    if done is not None:  # the index's deep check, made beside the first check pass
        from tasks.checks.reconcile.full import index_passed

        passed = index_passed(done)
    durations["check_and_repair"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    stores = _audit_stores(settings, root, operation.now_iso)
    durations["stores"] = time.perf_counter() - t0
    findings = [*result.findings, *stores]
    if check:  # the derived index: reported here, rebuilt or re-indexed by a repair run
        findings.extend(_index_findings(operation, verdict, passed, walked, done))
    _finish_report(operation, findings)
    if not check:
        findings += _finish_repair_run(operation, done, verdict, passed)
    operation.stage.note_figures(ReconcileFigures(
        pages=result.counts.pages_total, files_read=done.files_read if done else 0,
        mb_read=round(done.bytes_read / 1e6, 3) if done else 0.0,
        repairs=len(done.repaired) if done else 0))
    report = operation.stage.finish()
    durations["total"] = time.perf_counter() - started
    return report, build_summary(
        kind="reconcile", mode="check" if check else "repair", project=settings.project,
        root=root, now_iso=operation.now_iso, findings=findings, counts=result.counts,
        repaired=done.repaired if done else [], durations=durations,
        limit=settings.health_max_findings_per_code)
