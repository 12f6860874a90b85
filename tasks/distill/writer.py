"""The distill writer as phases (open, then finish with the extraction outcomes), so a flow can
run each as its own task while the batches are extracted between them.

The writer lock and the journaled batch are a `HeldBatch` (tasks/store/batch.py) held from
`DistillWriter.open`, which plans under them, to `finish`, and released by `abort` (or by a
failing phase itself): the plan and the writes see one state of the memory. The phases must run
in one process, one after another (the flow calls them in its own thread).
"""

from __future__ import annotations

import time
from collections.abc import Iterable

from schemas.report import MemoryOperationReport
from tasks.distill.apply import distill_planned, nothing_to_distill
from tasks.distill.plan import DistillPlan, ExtractOutcome, plan_distill
from tasks.store.batch import HeldBatch
from tasks.store.operation import Operation
from tasks.store.settings import MembankSettings


class DistillWriter:
    """One distill run across its phases: `open`, then `finish` (or `abort` on a failure
    outside the writer)."""

    def __init__(self, plan: DistillPlan, batch: HeldBatch, started: float) -> None:
        self.plan = plan
        self.batch = batch
        self.started = started  # when planning began, for the figures

    @property
    def operation(self) -> Operation:
        return self.batch.operation

    @classmethod
    def open(cls, settings: MembankSettings, *, reread_all: bool = False) -> DistillWriter:
        """Take the writer lock (waiting up to the lock timeout) and plan. Nothing is written
        yet, so a recoverable error (the lock held too long, the clock unreadable) may be
        retried; any error releases the lock."""
        batch = HeldBatch.open(settings, "distill")
        with batch.phase() as operation:
            started = time.perf_counter()
            plan = plan_distill(operation.layout, reread_all=reread_all)
        return cls(plan, batch, started)

    def finish(self, outcomes: Iterable[ExtractOutcome]) -> MemoryOperationReport:
        """Merge the outcomes of extracting `plan.to_read` and write each file once (nothing
        when the plan is empty), end the journaled batch and release the lock."""
        with self.batch.phase() as operation:
            if self.plan.empty:
                report = nothing_to_distill(operation.stage, self.plan)
            else:
                report = distill_planned(operation, self.plan, outcomes, self.started)
        self.batch.finish()
        return report

    def abort(self, error: BaseException) -> None:
        """Roll the journaled batch back and release the lock (once; later calls do nothing)."""
        self.batch.abort(error)
