"""The ingest writer as three phases (open, apply one batch at a time, finish), so a flow can run
each phase as its own task while later batches are still being prepared.

The writer lock and the journaled batch (tasks/store/operation.py `writing_operation`) are held from
`IngestWriter.open` to `finish`, and released by `abort` (or by a failing phase itself): the
phases must run in one process, one after another (the flow calls them in its own thread).
"""

from __future__ import annotations

from collections.abc import Iterable
from contextlib import ExitStack

from schemas.report import MemoryOperationReport, Problem
from tasks.bootstrap import bootstrap_memory
from tasks.ingest.apply import IngestRun, apply_results, begin_apply, finish_apply
from tasks.ingest.model import PreparedSource, StoredSource
from tasks.store.operation import Operation, writing_operation
from tasks.store.settings import MembankSettings


class IngestWriter:
    """One ingest writer run across its phases; use `open`, then `apply` per batch, then
    `finish` (or `abort` on a failure outside the writer)."""

    def __init__(self, run: IngestRun, held: ExitStack) -> None:
        self.run = run
        self._held: ExitStack | None = held

    @classmethod
    def open(cls, settings: MembankSettings, problems: Iterable[Problem] = ()) -> IngestWriter:
        """Take the writer lock (waiting up to the lock timeout), bootstrap a new root and load
        the raw store. Nothing of the ingest is written yet, so a recoverable error (the lock
        held too long, the clock unreadable) may be retried; any error releases the lock."""
        with ExitStack() as held:
            operation = held.enter_context(writing_operation(settings, "ingest"))
            bootstrap = Operation(settings, operation.layout, operation.now_iso, operation.prefix,
                                  operation.report.model_copy(update={"mode": "bootstrap"}, deep=True))
            bootstrapped = bootstrap_memory(bootstrap)  # no-op on a ready root; one log entry if not
            run = begin_apply(operation, [*bootstrapped.problems, *problems])
            return cls(run, held.pop_all())

    def apply(self, results: Iterable[PreparedSource | StoredSource | Problem]) -> None:
        """Stage these results (the next ones in input order); an error aborts the run."""
        try:
            apply_results(self.run, results)
        except BaseException as exc:
            self.abort(exc)
            raise

    def finish(self) -> MemoryOperationReport:
        """Commit the staged files, write the manifest, hub, index, log and search index, end the
        journaled batch and release the lock."""
        try:
            report = finish_apply(self.run)
        except BaseException as exc:
            self.abort(exc, staged_closed=True)
            raise
        held, self._held = self._held, None
        if held is not None:
            held.close()
        return report

    def abort(self, error: BaseException, *, staged_closed: bool = False) -> None:
        """Discard what is staged, roll the journaled batch back and release the lock (once;
        later calls do nothing)."""
        held, self._held = self._held, None
        if held is None:
            return
        try:
            if not staged_closed:
                self.run.discard()
        finally:
            held.__exit__(type(error), error, error.__traceback__)


def write_ingest(settings: MembankSettings,
                 results: Iterable[PreparedSource | StoredSource | Problem],
                 problems: Iterable[Problem] = ()) -> MemoryOperationReport:
    """The three phases in one call (under the lock, bootstrapping a new root): for callers
    with every result at hand, such as tests and tools."""
    writer = IngestWriter.open(settings, problems)
    writer.apply(results)
    return writer.finish()
