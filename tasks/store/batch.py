"""A locked, journaled batch held across a writer's phases (open, work, finish or abort).

`writing_operation` (tasks/store/operation.py) holds the writer lock and one journaled batch for
the length of a `with` block. A writer whose phases run as separate flow tasks (ingest: open,
apply per batch, finish; distill: open and plan, finish) needs the same across calls: `HeldBatch`
enters that context once, keeps it, and leaves it exactly once, committing on `finish` and
rolling back on `abort`. The phases must run in one process, one after another (the lock is
the thread's own).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager

from schemas.report import OperationMode
from tasks.store.operation import Operation, writing_operation
from tasks.store.settings import MembankSettings


class HeldBatch:
    """The writer lock and one journaled batch, held from `open` to `finish` or `abort`."""

    def __init__(self, operation: Operation, held: ExitStack) -> None:
        self.operation = operation
        self._held: ExitStack | None = held

    @classmethod
    def open(cls, settings: MembankSettings, mode: OperationMode) -> HeldBatch:
        """Take the writer lock (waiting up to the lock timeout), roll back what a crashed
        writer left and open the journaled batch; an error here releases everything."""
        with ExitStack() as held:
            operation = held.enter_context(writing_operation(settings, mode))
            return cls(operation, held.pop_all())

    @property
    def held(self) -> bool:
        return self._held is not None

    @contextmanager
    def phase(self, discard: Callable[[], None] | None = None) -> Iterator[Operation]:
        """Run one phase of the writer's own work: any error calls `discard` (what the phase
        staged outside the journal), rolls the batch back and releases the lock, then goes on."""
        try:
            yield self.operation
        except BaseException as exc:
            self.abort(exc, discard)
            raise

    def finish(self) -> None:
        """Commit the batch (end the journal) and release the lock; later calls do nothing."""
        held, self._held = self._held, None
        if held is not None:
            held.close()

    def abort(self, error: BaseException, discard: Callable[[], None] | None = None) -> None:
        """Call `discard`, roll the batch back and release the lock (once; later calls do
        nothing, `discard` included)."""
        held, self._held = self._held, None
        if held is None:
            return
        try:
            if discard is not None:
                discard()
        finally:
            held.__exit__(type(error), error, error.__traceback__)
