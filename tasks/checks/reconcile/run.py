"""reconcile_memory: check (and repair) in up to MAX_REPAIR_PASSES passes, then report.

Checks are a pure function of a Scan (tasks/checks/scan.py): `check_memory(scan, repair=...)` runs
every gate of tasks/checks/reconcile/gates.py and returns the findings, the counts and a RepairPlan.
`apply_repairs` (tasks/checks/reconcile/repairs.py) is the one writer.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

import orjson

from schemas.health import Finding, HealthCounts, HealthSummary
from schemas.report import MemoryOperationReport
from tasks.checks.reconcile.context import PAGE_LIMIT_CHARS, build_context
from tasks.checks.reconcile.gates import GATES, check_log
from tasks.checks.reconcile.repairs import RepairPlan, apply_repairs
from tasks.checks.reconcile.stale import apply_stale_marks
from tasks.checks.reconcile.verdict import (
    Verdict,
    index_identity,
    index_still_ok,
    load_verdict,
    save_verdict,
)
from tasks.checks.scan import Scan, Walked, cache_of, load_cache, save_cache, scan_memory, walk_root
from tasks.health.findings import finding, problems_from
from tasks.health.summary import build_summary
from tasks.memstores.check import audit_configured
from tasks.search.index import INDEX_NAME, check_index
from tasks.search.refresh import reconcile_search_index
from tasks.store.errors import MembankError
from tasks.store.layout import STATE_DIR
from tasks.store.logbook import log_operation
from tasks.store.operation import Operation
from tasks.store.report import StageFigures

MAX_REPAIR_PASSES = 3
SEARCH_INDEX = f"{STATE_DIR}/{INDEX_NAME}"


@dataclass
class CheckResult:
    findings: list[Finding]
    counts: HealthCounts
    plan: RepairPlan


def check_memory(scan: Scan, *, repair: bool, page_limit_chars: int = PAGE_LIMIT_CHARS
                 ) -> CheckResult:
    """Every quality gate over one scan. Updates scan.state baselines (created_at, log, facts)."""
    context = build_context(scan)
    context.page_limit_chars = page_limit_chars
    findings: list[Finding] = []
    plan = RepairPlan()
    for gate in GATES:
        gate_findings, repairs = gate(scan, context)
        findings += gate_findings
        plan.repairs += repairs
    return CheckResult(findings=findings, counts=context.health_counts(),
                       plan=plan if repair else RepairPlan())


def _rescan(scan: Scan) -> Scan:
    fresh = scan_memory(scan.root, cache_of(scan))
    fresh.observation_baseline = scan.observation_baseline
    return fresh


def _relative(root: Path, where: object) -> str | None:
    if where is None:
        return None
    try:
        return Path(str(where)).resolve().relative_to(root.resolve()).as_posix()
    except ValueError:
        return str(where)


@dataclass
class _Passes:
    """What the check-and-repair passes saw and did."""

    scan: Scan
    result: CheckResult
    repaired: list[Finding]
    files_read: int
    bytes_read: int
    first_scan: Scan | None = None  # the scan the first check ran on
    settled: bool = False  # the check left every baseline of the cache as it found it

    def __post_init__(self) -> None:
        self.first_scan = self.first_scan or self.scan


def _check_and_repair(operation: Operation, scan: Scan, *, check: bool) -> _Passes:
    limit = operation.settings.page_limit_chars
    done = _Passes(scan, check_memory(scan, repair=not check, page_limit_chars=limit), [],
                   len(scan.changed), scan.bytes_read)
    passes = 0
    failed: list[Finding] = []
    while (not check and not done.result.plan.empty() and passes < MAX_REPAIR_PASSES
           and not failed):
        passes += 1
        try:
            apply_repairs(operation, done.scan, done.result.plan, done.repaired)
        except (MembankError, OSError) as exc:
            cause = exc.cause if isinstance(exc, MembankError) else str(exc)
            where = getattr(exc, "file", None) or getattr(exc, "filename", None)
            failed.append(finding("repair_failed", "error", _relative(operation.root, where),
                                  f"a repair could not be applied: {cause}",
                                  "fix the file by hand; this run stopped repairing"))
        done.scan = _rescan(done.scan)
        done.files_read += len(done.scan.changed)
        done.bytes_read += done.scan.bytes_read
        done.result = check_memory(done.scan, repair=True, page_limit_chars=limit)
    done.result.findings.extend(failed)
    return done


def _finish_report(operation: Operation, findings: list[Finding]) -> None:
    stage = operation.stage
    stage.note_problems(problems_from(findings))
    health = stage.report.memory_health
    health.index_synced = not any(
        f.code in {"index_missing_entry", "index_stale_entry", "missing_index"} for f in findings)
    health.consistency_warnings = [p.one_line() for p in stage.problems[:20]]


STALE_EXAMPLES = 5


def search_index_findings(operation: Operation) -> list[Finding]:
    """The search index, checked against the pages (reconcile --check): unreadable, or behind
    the memory (pages whose files differ from what it holds). A missing one is not a problem,
    nor one without the page vectors semantic ranking wants: the next search builds it."""
    try:
        state, stale = check_index(operation.layout)
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


def search_index_failure(message: str) -> Finding:
    return finding("search_index_failed", "error", SEARCH_INDEX, message,
                   "fix the cause, then run `membank search --rebuild`")


def _verdict_key(walked: Walked, now_iso: str) -> str:
    """A verdict holds for these files on this day: the stale marks and the freshness window
    move with the clock, not with the files."""
    return f"{walked.fingerprint()}@{now_iso[:10]}"


def _from_verdict(verdict: Verdict) -> tuple[_Passes | None, CheckResult]:
    """The recorded result of a check over these very files (no scan, no gate run)."""
    return None, CheckResult(findings=list(verdict.findings), counts=verdict.counts,
                             plan=RepairPlan())


def _full_check(operation: Operation, walked: Walked, *, check: bool
                ) -> tuple[_Passes, CheckResult]:
    scan = scan_memory(operation.root, load_cache(operation.root), walked)
    state_before = orjson.dumps(scan.state, option=orjson.OPT_SORT_KEYS)
    done = _check_and_repair(operation, scan, check=check)
    if not check:  # stale facts are marked in the graph, never deleted
        marks = apply_stale_marks(operation, done.scan)
        if marks:
            done.repaired += marks
            done.scan = _rescan(done.scan)
    # A check that moved a baseline (a new page's created_at, the log, erased facts) would not
    # find the same on its next run: such a run is no verdict.
    done.settled = orjson.dumps(done.scan.state, option=orjson.OPT_SORT_KEYS) == state_before
    return done, done.result


def _index_findings(operation: Operation, verdict: Verdict | None) -> list[Finding]:
    """reconcile --check's look at the search index; none when it was checked ok over these
    pages and neither it nor the generation changed since."""
    return [] if index_still_ok(operation.layout, verdict) else search_index_findings(operation)


class ReconcileFigures(StageFigures):
    """What a reconcile run read and repaired; `search_index` is the index's state after a
    repair run (ok, rebuilt, refreshed, failed)."""

    search_index: str | None = None
    pages: int | None = None
    files_read: int | None = None
    mb_read: float | None = None
    repairs: int | None = None


def _repair_index(operation: Operation, verdict: Verdict | None) -> str:
    """Bring the search index current; its state after (see ReconcileFigures)."""
    stage = operation.stage
    state = "ok" if index_still_ok(operation.layout, verdict) else reconcile_search_index(operation)
    stage.note_figures(ReconcileFigures(search_index=state))
    if state == "failed":
        failed = search_index_failure(stage.report.memory_health.consistency_warnings[-1])
        stage.note_problems(problems_from([failed]))
    return state


def _finish_repair_run(operation: Operation, done: _Passes | None, result: CheckResult,
                       verdict: Verdict | None) -> list[Finding]:
    """Log, save the cache, bring the search index current, record the verdict when this run
    wrote nothing in the memory (its findings are then those of the files as they are).
    Returns the index's failure, if it failed."""
    wrote = False
    if done is not None:
        wrote = not done.settled or bool(done.repaired) or done.scan is not done.first_scan
        if log_operation(operation.layout, operation.stage):
            wrote = True
            done.scan = _rescan(done.scan)
            check_log(done.scan)  # moves the log baseline past this run's own entry
        save_cache(done.scan)
    if _repair_index(operation, verdict) == "failed":
        return [search_index_failure(operation.report.memory_health.consistency_warnings[-1])]
    if done is not None and not wrote and done.scan.walked is not None:
        verdict = Verdict(fingerprint=_verdict_key(done.scan.walked, operation.now_iso),
                          findings=result.findings,
                          counts=result.counts, plan_empty=result.plan.empty())
    if verdict is not None:
        verdict.index = index_identity(operation.layout)
        save_verdict(operation.root, verdict)
    return []


def reconcile_memory(operation: Operation, *, check: bool) -> tuple[MemoryOperationReport,
                                                                     HealthSummary]:
    """Check (and unless `check`, repair) the memory; return the report and health summary.
    A memory whose files are those of the last repair run's verdict is not scanned again."""
    started = time.perf_counter()
    root, settings = operation.root, operation.settings
    durations: dict[str, float] = {}
    walked = walk_root(root)
    verdict = load_verdict(root, _verdict_key(walked, operation.now_iso))
    durations["scan"] = time.perf_counter() - started
    t0 = time.perf_counter()
    if verdict is not None and (check or verdict.plan_empty):
        done, result = _from_verdict(verdict)
    else:
        verdict = None
        done, result = _full_check(operation, walked, check=check)
    durations["check_and_repair"] = time.perf_counter() - t0
    t0 = time.perf_counter()  # memory stores (.mem, MemoryCustodian): read-only, their own rules
    stores = audit_configured(settings, root, operation.now_iso)
    durations["stores"] = time.perf_counter() - t0
    findings = [*result.findings, *stores]
    if check:  # the derived index: reported here, rebuilt or re-indexed by a repair run
        findings.extend(_index_findings(operation, verdict))
    _finish_report(operation, findings)
    if not check:
        findings += _finish_repair_run(operation, done, result, verdict)
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
