"""Where map steps run: threads (default), processes, or a Dask cluster through prefect-dask.

Map steps submit one task run per BATCH to the configured runner and return results in input
order; a single writer then applies them, so the result does not depend on the runner.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypeVar

from prefect import Task
from prefect.task_runners import ProcessPoolTaskRunner, TaskRunner, ThreadPoolTaskRunner

from tasks.errors import MembankError
from tasks.settings import MembankSettings

R = TypeVar("R")


def task_runner_for(settings: MembankSettings) -> TaskRunner[Any]:
    if settings.task_runner == "threads":
        return ThreadPoolTaskRunner(max_workers=settings.task_workers)
    if settings.task_runner == "processes":
        return ProcessPoolTaskRunner(max_workers=settings.task_workers)
    try:
        from prefect_dask import DaskTaskRunner
    except ImportError as exc:
        raise MembankError(
            "task_runner=dask needs prefect-dask, which is not installed",
            hint="pip install 'membank[dask]' or set MEMBANK_TASK_RUNNER=threads",
        ) from exc
    if settings.dask_address:
        return DaskTaskRunner(address=settings.dask_address)
    return DaskTaskRunner(
        cluster_kwargs={"n_workers": settings.task_workers, "threads_per_worker": 1,
                        "processes": True, "dashboard_address": None}
    )


def map_batches(
    task: Task[Any, R], batches: Sequence[Any], settings: MembankSettings, *, parameter: str = "batch",
    **shared: Any,
) -> list[R]:
    """Run `task` once per batch on the configured runner; results in input order."""
    if not batches:
        return []
    if len(batches) == 1 and settings.task_runner == "threads":
        # One batch: no pool to start, same task run.
        return [task(**{parameter: batches[0]}, **shared)]
    with task_runner_for(settings) as runner:
        futures = [runner.submit(task, parameters={parameter: batch, **shared}) for batch in batches]
        return [future.result() for future in futures]


def split_batches(items: Sequence[R], *, workers: int, max_batch: int = 256) -> list[list[R]]:
    """Cut items into contiguous batches: at least one per worker, none bigger than max_batch."""
    if not items:
        return []
    count = max(workers, -(-len(items) // max_batch))
    size = -(-len(items) // count)
    return [list(items[i : i + size]) for i in range(0, len(items), size)]
