"""The distill writer as phases (open, then finish with the extraction outcomes), so a flow can
run each as its own task while the batches are extracted between them.

The writer lock and the journaled batch (tasks/store/operation.py `writing_operation`) are held from
`DistillWriter.open`, which plans under them, to `finish`, and released by `abort` (or by a
failing phase itself): the plan and the writes see one state of the memory. The phases must run
in one process, one after another (the flow calls them in its own thread).
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from contextlib import ExitStack

from schemas.report import MemoryOperationReport
from tasks.distill.apply import distill_planned, nothing_to_distill
from tasks.distill.plan import DistillPlan, ExtractOutcome, plan_distill
from tasks.store.operation import Operation, writing_operation
from tasks.store.settings import MembankSettings


class DistillWriter:
    """One distill run across its phases: `open`, then `finish` (or `abort` on a failure
    outside the writer)."""

    def __init__(self, operation: Operation, plan: DistillPlan, held: ExitStack,
                 started: float) -> None:
        self.operation = operation
        self.plan = plan
        self.started = started  # when planning began, for the figures
        self._held: ExitStack | None = held

    @classmethod
    def open(cls, settings: MembankSettings, *, reread_all: bool = False) -> DistillWriter:
        """Take the writer lock (waiting up to the lock timeout) and plan. Nothing is written
        yet, so a recoverable error (the lock held too long, the clock unreadable) may be
        retried; any error releases the lock."""
        with ExitStack() as held:
            operation = held.enter_context(writing_operation(settings, "distill"))
            started = time.perf_counter()
            plan = plan_distill(operation.layout, reread_all=reread_all)
            return cls(operation, plan, held.pop_all(), started)

    def finish(self, outcomes: Iterable[ExtractOutcome]) -> MemoryOperationReport:
        """Merge the outcomes of extracting `plan.to_read` and write each file once (nothing
        when the plan is empty), end the journaled batch and release the lock."""
        try:
            if self.plan.empty:
                report = nothing_to_distill(self.operation.report, self.plan)
            else:
                report = distill_planned(self.operation, self.plan, outcomes, self.started)
        except BaseException as exc:
            self.abort(exc)
            raise
        held, self._held = self._held, None
        if held is not None:
            held.close()
        return report

    def abort(self, error: BaseException) -> None:
        """Roll the journaled batch back and release the lock (once; later calls do nothing)."""
        held, self._held = self._held, None
        if held is not None:
            held.__exit__(type(error), error, error.__traceback__)
