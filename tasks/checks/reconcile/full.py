"""The full check of a reconcile: scan (cached), every gate, the repair passes.

Imported by run.py only when the last verdict does not hold (tasks/checks/reconcile/verdict.py):
a reconcile over an unchanged memory imports none of the parsers and gates this module needs.
Checks are a pure function of a Scan (tasks/checks/scan.py): `check_memory(scan, repair=...)`
runs every gate of tasks/checks/reconcile/gates.py and returns the findings, the counts and a
RepairPlan. `apply_repairs` (tasks/checks/reconcile/repairs.py) is the one writer.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

import orjson

from schemas.health import Finding, HealthCounts
from tasks.checks.cache_parts import load_by_part
from tasks.checks.facts import FileEntry, ScanCache
from tasks.checks.reconcile.catalog_recheck import CatalogBasis, links_put
from tasks.checks.reconcile.context import PAGE_LIMIT_CHARS, build_context
from tasks.checks.reconcile.entity_recheck import entities_since, types_since
from tasks.checks.reconcile.gates import GATES, check_log
from tasks.checks.reconcile.page_recheck import (
    PageBasis,
    basis_of,
    pages_to_check,
    vanished_since,
)
from tasks.checks.reconcile.repairs import RepairPlan, apply_repairs
from tasks.checks.reconcile.stale import apply_stale_marks
from tasks.checks.reconcile.verdict import bookkeeping_holds, recorded_pages
from tasks.checks.scan import (
    CACHE_VERSION,
    Scan,
    cache_of,
    load_cache,
    save_cache,
    scan_memory,
)
from tasks.checks.scan_pool import Aside, collector_paused, run_aside, trim_heap
from tasks.checks.walk import Walked
from tasks.health.findings import finding
from tasks.store.errors import MembankError
from tasks.store.layout import GRAPH_FILE, LOG_FILE
from tasks.store.logbook import log_operation
from tasks.store.operation import Operation

MAX_REPAIR_PASSES = 3


@dataclass
class CheckResult:
    findings: list[Finding]
    counts: HealthCounts
    plan: RepairPlan
    pages: PageBasis | None = None  # what a later check's page gates start from


@dataclass(frozen=True)
class Recheck:
    """A check from the cache the verdict's check was made on: the per-page gates run on the
    pages page_recheck.pages_to_check names. `cached`: that cache's files."""

    basis: PageBasis
    cached: dict[str, FileEntry]


def check_memory(scan: Scan, *, repair: bool, page_limit_chars: int = PAGE_LIMIT_CHARS,
                 recheck: Recheck | None = None) -> CheckResult:
    """Every quality gate over one scan. Updates scan.state baselines (created_at, log, facts)."""
    context = build_context(scan, None if recheck is None else types_since(
        recheck.basis.by_type, recheck.cached, scan))
    context.page_limit_chars = page_limit_chars
    if recheck is not None:
        vanished = vanished_since(recheck.basis, recheck.cached, scan)
        if recheck.basis.entities and not vanished:
            context.entity_recheck = entities_since(scan, recheck.cached, context.graph,
                                                    context.graph_keys, context.page_types)
        context.pages_to_check = pages_to_check(recheck.basis, recheck.cached, scan,
                                                context.pages, vanished)
        basis = recheck.basis
        context.catalog_basis = CatalogBasis(
            frozenset(basis.catalogs), recheck.cached, frozenset([*basis.dirs, *basis.unreadable]),
            vanished=bool(vanished))
        context.links_to_check = links_put(scan, basis.noted, vanished)
    findings: list[Finding] = []
    plan = RepairPlan()
    for gate in GATES:
        gate_findings, repairs = gate(scan, context)
        findings += gate_findings
        plan.repairs += repairs
    return CheckResult(findings=findings, counts=context.health_counts(),
                       plan=plan if repair else RepairPlan(), pages=basis_of(scan, context))


def _rescan(scan: Scan, written: list[str] | None = None, *, digests: bool = True) -> Scan:
    """The memory scanned again after this run wrote: walked again, or when the run wrote only
    `written` (and the scan knows its walk), only those files are stat-ed again. `digests`:
    whether the graph's observation digests and stale summary are collected again."""
    walked = scan.walked.restat(scan.root, written) if scan.walked and written else None
    fresh = scan_memory(scan.root, cache_of(scan), walked, digests=digests)
    fresh.observation_baseline = scan.observation_baseline
    scan.transient.clear()  # the replaced scan's graph extras (a million digests at 100k)
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
    # a run by the change (_delta_scan): its first check's Recheck, and the files whose facts
    # changed since its scan (the run's own writes): the next run's check starts from them
    recheck: Recheck | None = None
    since_first: set[str] = field(default_factory=set)
    # the search index's deep check, made beside the first check (index.deep_check_ahead)
    index_passed: Aside[list[int] | None] | None = None

    def __post_init__(self) -> None:
        self.first_scan = self.first_scan or self.scan

    def release_scans(self) -> None:
        """Drop what the scans hold but their walk (the verdict's fingerprint) and return the
        freed heap: what a repair run does next, the search index build, forks workers that
        would start with these pages (an all-stale first run at 100k: about 860 MB)."""
        for scan in {id(scan): scan for scan in (self.scan, self.first_scan) if scan}.values():
            scan.files, scan.modes, scan.transient, scan.observation_baseline = {}, {}, {}, None
        trim_heap()


def _check_and_repair(operation: Operation, scan: Scan, *, check: bool) -> _Passes:
    limit = operation.settings.page_limit_chars
    done = _Passes(scan, check_memory(scan, repair=not check, page_limit_chars=limit),
                   [], len(scan.changed), scan.bytes_read)
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


def full_check(operation: Operation, walked: Walked, *, check: bool
                ) -> tuple[_Passes, CheckResult]:
    with collector_paused():  # the scan's facts: millions of objects kept (scan_pool)
        return _full_check(operation, walked, check=check)


def _full_check(operation: Operation, walked: Walked, *, check: bool
                ) -> tuple[_Passes, CheckResult]:
    # from the cache and baseline the last repair run saved (verdict.bookkeeping_holds), a
    # check, and a repair run whose check plans no repair, go by the change (_delta_scan)
    root = operation.root
    cache = load_by_part(root, CACHE_VERSION)
    delta = _delta_scan(operation, walked, cache, check=check) if bookkeeping_holds(root) else None
    index_passed = None
    if delta is not None:
        scan, recheck = delta
        state_before = orjson.dumps(scan.state, option=orjson.OPT_SORT_KEYS)
        index_passed = _index_check_ahead(operation, len(scan.files))
        first = check_memory(scan, repair=not check, recheck=recheck,
                             page_limit_chars=operation.settings.page_limit_chars)
        if check or first.plan.empty():
            done = _Passes(scan, first, [], len(scan.changed), scan.bytes_read, recheck=recheck)
        else:  # repairs to make: the full path plans and applies them, from the cache anew
            del scan, first
            delta = cache = None
    if delta is None:
        # the cache read by part here too: the facts of every page are read in runs, and the
        # entries no file changed are copied from the cache file when it is saved (a run
        # under a verdict of other code at 100,000 pages parsed and dumped 125 MB whole)
        scan = scan_memory(root, cache or load_by_part(root, CACHE_VERSION) or load_cache(root),
                           walked)
        state_before = orjson.dumps(scan.state, option=orjson.OPT_SORT_KEYS)
        index_passed = index_passed or _index_check_ahead(operation, len(scan.files))
        done = _check_and_repair(operation, scan, check=check)
    done.index_passed = index_passed
    if not check:  # stale facts are marked in the graph, never deleted
        marks = apply_stale_marks(operation, done.scan)
        if marks:
            done.repaired += marks
            # the marks wrote the graph alone, and changed no observation: the digests the
            # erased-facts gate compared are this graph's too, so the rescan collects none
            done.scan = _rescan(done.scan, [GRAPH_FILE], digests=False)
            done.since_first |= done.scan.changed
    # A check that moved a baseline (a new page's created_at, the log, erased facts) would not
    # find the same on its next run: such a run is no verdict.
    done.settled = orjson.dumps(done.scan.state, option=orjson.OPT_SORT_KEYS) == state_before
    return done, done.result


def _delta_scan(operation: Operation, walked: Walked, cache: ScanCache | None, *, check: bool
                ) -> tuple[Scan, Recheck | None] | None:
    """The scan by the change since the last repair run's cache (`cache`, read by part: its
    stat of each file and the facts of those asked for; None: no table), the graph by the entities
    distill wrote (graph_delta.py); and the Recheck of the per-page gates (page_recheck.py).
    Without the verdict's PageBasis (a verdict of other code) the per-page gates check every
    page, their facts read from the cache in runs. A repair run's needs the cache's table
    (else None: the full path), hashes every relation the graph has (the observation baseline
    takes the digests) and its graph entry the file's sha256 (the cache is saved)."""
    root = operation.root
    basis = PageBasis.from_json(recorded_pages(root))
    if not check and cache is None:
        return None
    cache = cache or load_cache(root)
    scan = scan_memory(root, cache, walked, graph_delta=True if check else "every")
    graph = scan.files.get(GRAPH_FILE)
    if not check and graph is not None and not graph["hash"]:  # read by delta: not hashed
        from tasks.store.digests import file_digests

        digest = file_digests(operation.layout, [operation.layout.graph_file])[0]
        if digest is None:
            return None
        graph["hash"] = digest
    return scan, Recheck(basis, cache.get("files", {})) if basis is not None else None


@dataclass
class NextRunCheck:
    """What the check of the files as a run leaves them found: the run's verdict."""

    findings: list[Finding]
    counts: HealthCounts
    plan_empty: bool
    pages: PageBasis | None = None


def _index_check_ahead(operation: Operation, files: int) -> Aside[list[int] | None]:
    """The search index's deep check (SQLite's quick_check: ~0.8 s at 100,000 pages), started
    in a child beside the first check pass on a large memory: the run checks the index after
    its own writes, and nothing it does before writes the index file (index.check_index then
    skips the deep check when the file is still the one that passed). None made when the file
    is the one whose deep check passed by the index's own record (an ingest's update since:
    tasks/search/index_checked.py): its identity is the answer."""
    from tasks.search.index import deep_check_ahead, index_file
    from tasks.search.index_checked import checked_identity

    layout = operation.layout
    checked = checked_identity(layout, index_file(layout))
    if checked is not None:
        return Aside(value=checked)
    return run_aside(partial(deep_check_ahead, layout), files)


def index_passed(done: _Passes | None) -> list[int] | None:
    """The index file's identity when its deep check passed ahead; None when it did not run,
    failed or its child was lost (then the index check makes it itself)."""
    from tasks.checks.scan_pool import AsideLost

    if done is None or done.index_passed is None:
        return None
    try:
        return done.index_passed.result()
    except (AsideLost, OSError):
        return None


def finish_passes(operation: Operation, done: _Passes) -> Aside[NextRunCheck | None]:
    """Log the run, save the cache; the check of the files as the run leaves them, the run's
    verdict (None when there is none: a baseline still moves).

    A run that wrote nothing found what it found over the files as they are. A run that wrote
    (repairs, stale marks, its log entry) checks once more what the next run would check:
    every file's facts as the saved cache holds them, nothing changed since (_next_run_scan).
    So the next reconcile over these files reuses it instead of a full check. That check
    reads what this process holds and writes nothing, so at 100,000 pages it runs in a forked
    child (scan_pool.run_aside) while this process saves the cache and checks the search
    index: the second core, idle after the scan, takes it."""
    with collector_paused():  # as full_check: the cache's dump, the check of every file again
        return _finish_passes(operation, done)


def _finish_passes(operation: Operation, done: _Passes) -> Aside[NextRunCheck | None]:
    wrote = not done.settled or bool(done.repaired) or done.scan is not done.first_scan
    if log_operation(operation.layout, operation.stage):
        wrote = True
        done.scan = _rescan(done.scan, [LOG_FILE])  # the log entry is all it wrote
        done.since_first |= done.scan.changed
        check_log(done.scan)  # moves the log baseline past this run's own entry
    if not wrote:
        save_cache(done.scan)
        result = done.result
        return Aside(value=NextRunCheck(result.findings, result.counts, result.plan.empty(),
                                        result.pages))
    # the next run's scan as the saved cache gives it back (save_cache changes none of it)
    following = _next_run_scan(done.scan)
    recheck = None
    if done.recheck is not None and done.first_scan is not None and done.result.pages:
        # by delta: from the first check, over what the run wrote since (page_recheck.py)
        following.changed = set(done.since_first)
        recheck = Recheck(done.result.pages, done.first_scan.files)
    pending = run_aside(partial(_check_next_run, following, done.scan.state,
                                operation.settings.page_limit_chars, recheck),
                        len(following.files) if recheck is None else len(following.changed))
    save_cache(done.scan)
    return pending


def _check_next_run(following: Scan, state: object, page_limit_chars: int,
                    recheck: Recheck | None = None) -> NextRunCheck | None:
    """check_memory of the next run's scan; None when it moves a baseline of `state` (the
    state this run saved): then the next run would not find the same, and there is no verdict.
    `recheck`: the run's first check by delta and the files its scan held."""
    with collector_paused():
        result = check_memory(following, repair=True, page_limit_chars=page_limit_chars,
                              recheck=recheck)
    if following.state != state:
        return None
    return NextRunCheck(result.findings, result.counts, result.plan.empty(), result.pages)


def _next_run_scan(scan: Scan) -> Scan:
    """The scan the next run makes of these files from the cache `scan` saved: every file's
    facts from the cache (nothing read, nothing changed), its own copy of the baselines."""
    state = orjson.loads(orjson.dumps(scan.state))  # as the cache file gives it back
    return Scan(root=scan.root, files=scan.files, modes=scan.modes, dirs=scan.dirs,
                symlinks=scan.symlinks, temp_files=scan.temp_files,
                unreadable=dict(scan.unreadable), state=state, walked=scan.walked)
