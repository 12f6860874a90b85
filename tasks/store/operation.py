"""One memory operation: its settings, layout, canonical time (read once), lock, and report (a
StageReport, tasks/store/report.py: the stage notes on it, `finish()` sets the status)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from schemas.report import MemoryOperationReport, OperationMode
from tasks.store.clock import clock_from_settings, iso_utc
from tasks.store.errors import RootError
from tasks.store.journal import Recovery, batch_open, journal_batch, pending_batch, recover
from tasks.store.layout import MemoryLayout
from tasks.store.lock import memory_root_lock, memory_root_read_lock
from tasks.store.names import utc_prefix
from tasks.store.report import RecoveryFigures, StageReport
from tasks.store.settings import MembankSettings


@dataclass
class Operation:
    settings: MembankSettings
    layout: MemoryLayout
    now_iso: str
    prefix: str
    stage: StageReport = field(repr=False)

    @property
    def root(self) -> Path:
        return self.layout.root

    @property
    def report(self) -> MemoryOperationReport:
        """The report as noted so far (its status is set by `stage.finish()`)."""
        return self.stage.report

    def child(self, mode: OperationMode) -> Operation:
        """An operation composed into this one (bootstrap inside ingest): the same root, lock
        and clock, a child report of its own."""
        return Operation(self.settings, self.layout, self.now_iso, self.prefix,
                         self.stage.child(mode))


def check_root(root: Path) -> None:
    if root.exists() and not root.is_dir():
        raise RootError("memory root exists and is not a folder", file=root,
                        hint="pass --root with a folder path")
    if root.exists():
        try:
            next(root.iterdir(), None)
        except OSError as exc:
            raise RootError(f"memory root cannot be read: {exc.strerror}", file=root) from exc


def begin_operation(settings: MembankSettings, mode: OperationMode) -> Operation:
    """Read the canonical clock once (a failure aborts before any write) and open a report."""
    root = settings.resolved_root()
    check_root(root)
    now = clock_from_settings(settings).now()
    now_iso = iso_utc(now)
    prefix = utc_prefix(now)
    report = MemoryOperationReport(
        mode=mode,
        project=settings.project,
        memory_write_timestamp_utc=now_iso,
        utc_datetime_prefix=prefix,
    )
    return Operation(settings, MemoryLayout(root), now_iso, prefix, StageReport(report))


@contextmanager
def writing_operation(settings: MembankSettings, mode: OperationMode) -> Iterator[Operation]:
    """An operation that holds the memory-root writer lock for its whole duration.

    Under the lock, an interrupted batch is rolled back and orphan temp files are removed
    first; the operation is then one journaled batch (tasks/store/journal.py): committed when it
    returns, rolled back when it raises."""
    operation = begin_operation(settings, mode)
    operation.root.mkdir(parents=True, exist_ok=True)
    with memory_root_lock(
        operation.root,
        timeout=settings.lock_timeout_seconds,
        purpose=mode,
        clock=clock_from_settings(settings),
    ):
        if not batch_open(operation.root):  # a nested operation joins the open batch
            note_recovery(operation, recover(operation.root))
        with journal_batch(operation.root):
            yield operation


@contextmanager
def reading_operation(settings: MembankSettings, mode: OperationMode) -> Iterator[Operation]:
    """An operation that reads a consistent root: the lock in shared mode (it waits for a
    writer's batch to end); a batch a killed writer left is recovered first, under the writer
    lock, so nothing is computed from a half-written batch."""
    operation = begin_operation(settings, mode)
    root, timeout = operation.root, settings.lock_timeout_seconds
    if not root.is_dir():
        yield operation
        return
    while True:
        with memory_root_read_lock(root, timeout=timeout):
            # (a reader inside this thread's own writing operation reads its open batch)
            if batch_open(root) or not pending_batch(root):
                yield operation
                return
        with memory_root_lock(root, timeout=timeout, purpose="recover",
                              clock=clock_from_settings(settings)):
            note_recovery(operation, recover(root))


def note_recovery(operation: Operation, recovery: Recovery) -> None:
    """Say in the report what an earlier crash left and what was done about it."""
    operation.stage.note_figures(RecoveryFigures(
        recovered_rolled_back_files=len(recovery.rolled_back) or None,
        recovered_temp_files_removed=len(recovery.temp_files_removed) or None))


def roll_up_stages(summary: StageReport) -> MemoryOperationReport:
    """Roll the stage reports a composed run adopted up into its summary: what every stage
    wrote (each path and action once, in stage order), its graph delta and its problems; the
    status by the one rule (tasks/store/report.py) over the summary and its stages."""
    report, stages = summary.report, summary.report.stages
    seen = {(a.path, a.action) for a in report.artifacts}
    for stage in stages:
        report.graph_delta = report.graph_delta.plus(stage.graph_delta)
        summary.note_problems(stage.problems)
        for artifact in stage.artifacts:
            if (artifact.path, artifact.action) not in seen:
                seen.add((artifact.path, artifact.action))
                summary.note_artifacts([artifact])
    report.memory_health.index_synced = all(s.memory_health.index_synced for s in stages)
    return summary.finish()
