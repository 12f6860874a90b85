"""The ingest writer as three phases (open, apply one batch at a time, finish), so a flow can run
each phase as its own task while later batches are still being prepared.

The writer lock and the journaled batch are a `HeldBatch` (tasks/store/batch.py) held from
`IngestWriter.open` to `finish`, and released by `abort` (or by a failing phase itself): the
phases must run in one process, one after another (the flow calls them in its own thread).
"""

from __future__ import annotations

from collections.abc import Iterable
from concurrent.futures import Executor

from schemas.report import MemoryOperationReport, Problem
from tasks.bootstrap import bootstrap_memory
from tasks.ingest.apply import IngestRun, apply_results, begin_apply, finish_apply
from tasks.ingest.model import PreparedSource, StoredSource
from tasks.store.batch import HeldBatch
from tasks.store.settings import MembankSettings


class IngestWriter:
    """One ingest writer run across its phases; use `open`, then `apply` per batch, then
    `finish` (or `abort` on a failure outside the writer)."""

    def __init__(self, run: IngestRun, batch: HeldBatch) -> None:
        self.run = run
        self.batch = batch

    @classmethod
    def open(cls, settings: MembankSettings, problems: Iterable[Problem] = ()) -> IngestWriter:
        """Take the writer lock (waiting up to the lock timeout), bootstrap a new root and load
        the raw store. Nothing of the ingest is written yet, so a recoverable error (the lock
        held too long, the clock unreadable) may be retried; any error releases the lock."""
        batch = HeldBatch.open(settings, "ingest")
        with batch.phase() as operation:
            # a child report: no-op on a ready root; its own log entry if not
            bootstrapped = bootstrap_memory(operation.child("bootstrap"))
            run = begin_apply(operation, [*bootstrapped.problems, *problems])
        return cls(run, batch)

    def apply(self, results: Iterable[PreparedSource | StoredSource | Problem]) -> None:
        """Stage these results (the next ones in input order); an error aborts the run."""
        with self.batch.phase(discard=self.run.discard):
            apply_results(self.run, results)

    def finish(self, pool: Executor | None = None) -> MemoryOperationReport:
        """Commit the staged files, write the manifest, hub, index, log and search index (its
        pages parsed in `pool`'s processes when given), end the journaled batch and release
        the lock."""
        with self.batch.phase():  # finish_apply closes what is staged itself
            report = finish_apply(self.run, pool)
        self.batch.finish()
        return report

    def abort(self, error: BaseException) -> None:
        """Discard what is staged, roll the journaled batch back and release the lock (once;
        later calls do nothing)."""
        self.batch.abort(error, discard=self.run.discard)


def write_ingest(settings: MembankSettings,
                 results: Iterable[PreparedSource | StoredSource | Problem],
                 problems: Iterable[Problem] = ()) -> MemoryOperationReport:
    """The three phases in one call (under the lock, bootstrapping a new root): for callers
    with every result at hand, such as tests and tools."""
    writer = IngestWriter.open(settings, problems)
    writer.apply(results)
    return writer.finish()
