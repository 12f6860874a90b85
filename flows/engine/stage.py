"""How a flow runs: in this process, or as a tracked Prefect flow run.

Flows and their tasks are written once, with `@stage_flow` and `@stage_task`. Calling a flow
decides how it runs:

- orchestrated (a Prefect API URL is configured, `MEMBANK_ORCHESTRATION=prefect`, or the Dask
  task runner is asked for): the flow is a real Prefect flow (`StageFlow.prefect`), its tasks
  real Prefect task runs on the flow's task runner, with artifacts and events;
- in-process (the default for one-shot commands when no orchestrator is configured): the same
  function runs here, its tasks are plain calls and its map steps run on a local pool of the
  configured kind. Prefect is not imported at all: importing it and starting its temporary
  server cost seconds, while most commands' work takes milliseconds.

Inside a Prefect flow run every task and subflow call goes through Prefect; outside one, none
does. `membank serve` and deployments always run the Prefect objects (see flows/deployed.py).

The call shape is Prefect's in both modes: `task(x)` runs once and returns the result,
`task.submit(...)` and `task.map(batch=batches, settings=unmapped(settings))` return futures in
order, and a future passed as an argument is resolved first. A failed upstream run raises its
error wherever its result is needed, in both modes (Prefect itself would leave the dependent run
NotReady and return None).
"""

from __future__ import annotations

import contextvars
import functools
import importlib
import logging
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Executor, Future, ProcessPoolExecutor, ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, Generic, Literal, ParamSpec, TypeVar, cast

from flows.engine.prefect_env import one_shot_run_settings, prefect_api_configured, task_runner_for
from schemas.report import MemoryOperationReport
from tasks.store.errors import MembankError
from tasks.store.settings import MembankSettings, load_settings

if TYPE_CHECKING:
    from prefect import Flow, Task

P = ParamSpec("P")
R = TypeVar("R")
T = TypeVar("T")
Mode = Literal["local", "prefect"]

# The pool that runs a local flow's map steps; set for the duration of the outermost flow call.
_LOCAL_POOL: contextvars.ContextVar[Executor | None] = contextvars.ContextVar(
    "membank_local_pool", default=None)


class _Counter:
    """Task runs this process started under Prefect (a tracked command waits until the server
    has recorded them all before it exits)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.value = 0

    def add(self, count: int) -> None:
        with self._lock:
            self.value += count


PREFECT_TASK_RUNS = _Counter()

# A writer that met a recoverable error (the lock held past its timeout by another writer, the
# clock unreadable) tries once more after a pause: the other writer has usually finished.
WRITER_RETRIES: dict[str, Any] = {"retries": 1, "retry_delay_seconds": 2.0}


class unmapped(Generic[T]):  # named as Prefect's, whose place it takes
    """An argument of `StageTask.map` that every run gets whole, as Prefect's `unmapped` (which
    it becomes under Prefect; this one needs no Prefect import)."""

    def __init__(self, value: T) -> None:
        self.value = value


def in_prefect_run() -> bool:
    """Whether this code runs inside a Prefect flow or task run (never true unless an
    orchestrated call imported Prefect)."""
    if "prefect.context" not in sys.modules:
        return False
    from prefect.context import FlowRunContext, TaskRunContext

    return FlowRunContext.get() is not None or TaskRunContext.get() is not None


def stage_logger() -> logging.Logger | logging.LoggerAdapter[logging.Logger]:
    """The run's logger under Prefect (its lines reach the UI), `membank` otherwise."""
    if in_prefect_run():
        from prefect import get_run_logger

        return get_run_logger()
    return logging.getLogger("membank")


def orchestration_mode(settings: MembankSettings) -> Mode:
    """Where a top-level flow call runs: `prefect` when asked, when an API URL is configured or
    when the task runner is Dask (a Prefect task runner); `local` otherwise."""
    if settings.orchestration == "prefect":
        return "prefect"
    if settings.orchestration == "local":
        if settings.task_runner == "dask":
            raise MembankError(
                "MEMBANK_TASK_RUNNER=dask runs on Prefect's Dask task runner",
                hint="set MEMBANK_ORCHESTRATION=prefect (or auto), or MEMBANK_TASK_RUNNER=threads")
        return "local"
    return "prefect" if settings.task_runner == "dask" or prefect_api_configured() else "local"


class StageTask(Generic[P, R]):
    """A plain function that becomes a Prefect task run when called inside a Prefect flow run.

    `retries`: a call that raises a recoverable membank error (tasks.store.errors: the clock could
    not be read, another writer held the root past the lock timeout) is retried that many
    times, `retry_delay_seconds` apart, under Prefect (retry_condition_fn) and in-process
    alike; any other error fails at once. A report the task returns is logged in one INFO
    line with its figures (the run's log under Prefect, the `membank` logger otherwise)."""

    def __init__(self, fn: Callable[P, R], name: str, retries: int = 0,
                 retry_delay_seconds: float = 0, opaque_inputs: bool = False) -> None:
        self.fn = fn
        self.name = name
        self.retries = retries
        self.retry_delay_seconds = retry_delay_seconds
        self.opaque_inputs = opaque_inputs
        functools.update_wrapper(self, fn)

    @functools.cached_property
    def prefect(self) -> Task[P, R]:
        from prefect import task
        from prefect.cache_policies import NO_CACHE

        @functools.wraps(self.fn)  # the function's signature: inputs and edges by parameter name
        def run(*args: Any, **kwargs: Any) -> R:
            return self._run(*args, **kwargs)

        # No cache: a task's real input is the memory root on disk, not its parameters.
        return task(name=self.name, cache_policy=NO_CACHE, retries=self.retries,
                    retry_delay_seconds=self.retry_delay_seconds,
                    retry_condition_fn=_retry_if_recoverable)(run)

    def _run(self, *args: P.args, **kwargs: P.kwargs) -> R:
        result = self.fn(*args, **kwargs)
        log_stage_result(self.name, result)
        return result

    def _run_here(self, *args: P.args, **kwargs: P.kwargs) -> R:
        attempt = 0
        while True:
            try:
                return self._run(*args, **kwargs)
            except MembankError as exc:
                if not exc.recoverable or attempt >= self.retries:
                    raise
                attempt += 1
                stage_logger().warning("%s: %s; retry %d of %d in %g s", self.name, exc.one_line(),
                                       attempt, self.retries, self.retry_delay_seconds)
                time.sleep(self.retry_delay_seconds)

    def __call__(self, *args: P.args, **kwargs: P.kwargs) -> R:
        """One run here and now. An argument may be the future of another task run (of `map`
        or `submit`): its result is passed, once it is ready, and Prefect draws the edge."""
        if in_prefect_run():
            PREFECT_TASK_RUNS.add(1)
            return self._prefect_call(args, kwargs, ())
        resolved = [_result_of(value) for value in args]
        return cast(Callable[..., R], self._run_here)(
            *resolved, **{key: _result_of(value) for key, value in kwargs.items()})

    def waiting_for(self, futures: Sequence[Any]) -> Callable[P, R]:
        """This task, run once every one of `futures` is done. Under Prefect each is an edge
        into the run (`wait_for`: the futures are waited on, their values never walked); a
        failed one raises its error and this run does not start."""
        def call(*args: P.args, **kwargs: P.kwargs) -> R:
            if in_prefect_run():
                PREFECT_TASK_RUNS.add(1)
                return self._prefect_call(args, kwargs, futures)
            for future in futures:
                _result_of(future)
            return self(*args, **kwargs)

        return call

    def _prefect_call(self, args: tuple[Any, ...], kwargs: dict[str, Any], wait_for: Sequence[Any]) -> R:
        """One Prefect task run: its result, or the error of a failed upstream run (an argument's
        or one of `wait_for`): Prefect leaves the run NotReady and returns None. With
        `opaque_inputs` Prefect resolves each top-level future and records its edge but does
        not walk into the values (thousands of prepared sources, a writer's state): that walk
        costs time in proportion to their size and finds nothing."""
        from prefect.futures import PrefectFuture
        from prefect.utilities.annotations import opaque

        task = cast(Callable[..., Any], self.prefect)
        upstream = [v for v in (*args, *kwargs.values(), *wait_for) if isinstance(v, PrefectFuture)]
        if self.opaque_inputs:
            args = tuple(opaque(value) for value in args)
            kwargs = {key: opaque(value) for key, value in kwargs.items()}
        extra = {"wait_for": list(wait_for)} if wait_for else {}
        result = task(*args, **extra, **kwargs)
        if result is None:  # perhaps NotReady: then an upstream run failed, which raises here
            for future in upstream:
                future.result()
        return cast(R, result)

    def submit(self, **kwargs: Any) -> Future[R] | Any:
        """Start one run on the flow's task runner; the result has `.result()`."""
        if in_prefect_run():
            PREFECT_TASK_RUNS.add(1)
            return self.prefect.submit(**kwargs)
        pool = _LOCAL_POOL.get()
        if pool is None:
            done: Future[R] = Future()
            done.set_result(cast(Callable[..., R], self._run_here)(**kwargs))
            return done
        if isinstance(pool, ProcessPoolExecutor):
            # Submitted by name: a spawned worker imports the module and finds this task there.
            return pool.submit(_call_stage_task, self.fn.__module__, self.fn.__name__, kwargs)
        return pool.submit(contextvars.copy_context().run,
                           functools.partial(self._run_here, **kwargs))

    def map(self, **arguments: Any) -> list[Any]:
        """One run per position of the mapped arguments (sequences of one length); an argument
        wrapped in `unmapped` goes whole to every run: `task.map(batch=batches,
        settings=unmapped(settings))`, as in Prefect. Futures, in order."""
        mapped = {key: list(value) for key, value in arguments.items() if not isinstance(value, unmapped)}
        shared = {key: value.value for key, value in arguments.items() if isinstance(value, unmapped)}
        counts = {len(values) for values in mapped.values()}
        if len(counts) != 1:
            raise ValueError(f"{self.name}.map: the mapped arguments differ in length or there are none")
        count = counts.pop()
        if in_prefect_run():
            from prefect import unmapped as prefect_unmapped

            PREFECT_TASK_RUNS.add(count)
            prefect_arguments: dict[str, Any] = {**mapped}
            prefect_arguments.update((key, prefect_unmapped(value)) for key, value in shared.items())
            return list(self.prefect.map(**prefect_arguments))
        return [self.submit(**{key: values[i] for key, values in mapped.items()}, **shared)
                for i in range(count)]


def _result_of(value: Any) -> Any:
    return value.result() if isinstance(value, Future) else value


def _retry_if_recoverable(task: Any, task_run: Any, state: Any) -> bool:
    """Prefect's retry condition: only membank errors marked recoverable are retried."""
    try:
        state.result()
    except MembankError as exc:
        return exc.recoverable
    except Exception:
        return False
    return False


def log_stage_result(name: str, result: object) -> None:
    """One INFO line for a stage that returns a report (alone or with its health summary)."""
    report = result[0] if isinstance(result, tuple) and result else result
    if isinstance(report, MemoryOperationReport):
        figures = ", ".join(f"{k}={v}" for k, v in report.figures.items() if k != "health_summary")
        stage_logger().info("%s: %s %s; %d artifact(s), %d problem(s)%s", name, report.mode,
                            report.status, len(report.artifacts), len(report.problems),
                            f"; {figures}" if figures else "")


def _call_stage_task(module: str, name: str, kwargs: dict[str, Any]) -> Any:
    return getattr(importlib.import_module(module), name)._run_here(**kwargs)


class StageFlow(Generic[P, R]):
    """A flow function that runs in-process or as a Prefect flow run (see the module doc)."""

    def __init__(self, fn: Callable[P, R], name: str, description: str | None = None) -> None:
        self.fn = fn
        self.name = name
        self.description = description
        functools.update_wrapper(self, fn)

    @functools.cached_property
    def prefect(self) -> Flow[P, R]:
        from prefect import flow

        return flow(name=self.name, description=self.description, log_prints=False)(self.fn)

    def __call__(self, *args: P.args, **kwargs: P.kwargs) -> R:
        if in_prefect_run():  # a subflow of a tracked run is tracked too
            return self._prefect_with_runner(kwargs)(*args, **kwargs)
        root = kwargs.get("root")
        settings = load_settings(root if isinstance(root, str | Path) else None)
        if orchestration_mode(settings) == "prefect":
            return self.run_in_prefect(settings, *args, **kwargs)
        if _LOCAL_POOL.get() is not None:  # a subflow of a local run shares its pool
            return self.fn(*args, **kwargs)
        with local_pool(settings) as pool:
            token = _LOCAL_POOL.set(pool)
            try:
                return self.fn(*args, **kwargs)
            finally:
                _LOCAL_POOL.reset(token)

    def _prefect_with_runner(self, kwargs: dict[str, Any]) -> Flow[P, R]:
        settings = load_settings(kwargs.get("root"))
        return self.prefect.with_options(task_runner=task_runner_for(settings))

    def run_in_prefect(self, settings: MembankSettings, *args: P.args, **kwargs: P.kwargs) -> R:
        """A tracked Prefect flow run (on the configured server, or a temporary local one)."""
        started = PREFECT_TASK_RUNS.value
        with one_shot_run_settings(lambda: PREFECT_TASK_RUNS.value - started):
            return self._prefect_with_runner(kwargs)(*args, **kwargs)


def stage_task(name: str, *, retries: int = 0, retry_delay_seconds: float = 0,
               opaque_inputs: bool = False) -> Callable[[Callable[P, R]], StageTask[P, R]]:
    """`opaque_inputs`: under Prefect, futures passed as arguments are resolved but no
    argument is walked for nested futures (see StageTask._prefect_call)."""
    def decorate(fn: Callable[P, R]) -> StageTask[P, R]:
        return StageTask(fn, name, retries, retry_delay_seconds, opaque_inputs)

    return decorate


def stage_flow(name: str, description: str | None = None
               ) -> Callable[[Callable[P, R]], StageFlow[P, R]]:
    def decorate(fn: Callable[P, R]) -> StageFlow[P, R]:
        return StageFlow(fn, name, description)

    return decorate


@contextmanager
def local_pool(settings: MembankSettings) -> Iterator[Executor]:
    """The in-process counterpart of the flow's task runner: threads or spawned processes."""
    if settings.task_runner == "processes":
        import multiprocessing

        pool: Executor = ProcessPoolExecutor(settings.task_workers,
                                             mp_context=multiprocessing.get_context("spawn"))
    else:
        pool = ThreadPoolExecutor(settings.task_workers, thread_name_prefix="membank-map")
    with pool:
        yield pool
