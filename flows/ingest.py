"""ingest: sources into the immutable raw store, source pages and shard pages.

The map step (read, check, hash, plan shards, count tokens) runs one task run per batch on the
task runner the settings name; the single writer then applies every result under the lock.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor

from prefect import flow, task
from prefect.cache_policies import NO_CACHE
from prefect.futures import PrefectFuture

from flows.runners import call_in_worker, task_runner_for, workers_for
from schemas.report import MemoryOperationReport, Problem
from tasks.bootstrap import bootstrap_memory
from tasks.ingest import (
    PreparedSource,
    SourceInput,
    apply_ingest,
    collect_inputs,
    forget_tokenizers,
    plan_batches,
    prepare_batch,
)
from tasks.operation import Operation, begin_operation, combine_stages, writing_operation
from tasks.settings import MembankSettings, load_settings

BATCHES_PER_WORKER = 4
BATCH_BYTES = 2_000_000
MAX_BATCHES = 64


@task(name="prepare-sources-batch", cache_policy=NO_CACHE)
def prepare_batch_task(
    batch: list[SourceInput], settings: MembankSettings, workers: ProcessPoolExecutor | None = None
) -> list[PreparedSource | Problem]:
    """Prepare one batch here, or in one of the forked `workers` (one tokenizer thread each)."""
    return call_in_worker(workers, prepare_batch, batch, settings, 1 if workers else None)


class InOrder:
    """Results of batch futures, in input order, fetched as the writer reaches them.

    A plain iterable (not a list of futures) so the writer task starts at once and applies
    batch 1 while later batches are still being prepared.
    """

    def __init__(self, futures: Sequence[PrefectFuture[list[PreparedSource | Problem]]]) -> None:
        self._futures = list(futures)

    def __iter__(self) -> Iterator[PreparedSource | Problem]:
        for future in self._futures:
            yield from future.result()


@task(name="apply-ingest", cache_policy=NO_CACHE)
def apply_ingest_task(
    settings: MembankSettings,
    results: Iterable[PreparedSource | Problem],
    problems: list[Problem],
) -> MemoryOperationReport:
    with writing_operation(settings, "ingest") as operation:
        bootstrap = Operation(settings, operation.layout, operation.now_iso, operation.prefix,
                              operation.report.model_copy(update={"mode": "bootstrap"}, deep=True))
        bootstrapped = bootstrap_memory(bootstrap)  # no-op on a ready root; one log entry if not
        return apply_ingest(operation, results, [*bootstrapped.problems, *problems])


def ingest_stage(settings: MembankSettings, paths: Sequence[str]) -> MemoryOperationReport:
    """Collect, map the batches on the task runner, apply once. Call inside a flow."""
    started = time.perf_counter()
    inputs, problems = collect_inputs(paths)
    total = sum(item.size for item in inputs)
    # Enough batches for the writer to start early and keep pace; few enough that the ~10 ms
    # a task run costs stays small next to the work in it.
    count = min(MAX_BATCHES, max(settings.task_workers * BATCHES_PER_WORKER, total // BATCH_BYTES))
    batches = plan_batches(inputs, count)
    with workers_for(settings, total, initializer=forget_tokenizers) as pool, \
            task_runner_for(settings) as runner:
        futures = [runner.submit(prepare_batch_task, {"batch": b, "settings": settings, "workers": pool})
                   for b in batches]
        report = apply_ingest_task(settings, InOrder(futures), problems)
    seconds = time.perf_counter() - started
    report.figures["seconds"] = round(seconds, 3)
    megabytes = report.figures.get("bytes_ingested", 0)
    if isinstance(megabytes, int) and seconds > 0:
        report.figures["mb_per_s"] = round(megabytes / 1e6 / seconds, 2)
    return report


@flow(name="ingest", log_prints=False)
def ingest_flow(
    paths: list[str], root: str | None = None, distill: bool = True, allow_secrets: bool = False
) -> MemoryOperationReport:
    """Ingest files, folders (recursively, sorted) and globs into the memory root, then distill
    what is new unless `distill` is False. Sources with a secret are refused unless
    `allow_secrets` (then stored, and recorded in the report and the raw manifest)."""
    settings = load_settings(root, privacy_allow_secrets=allow_secrets or None)
    ingested = ingest_stage(settings, paths)
    if not distill:
        return ingested
    from flows.distill import distill_flow

    summary = begin_operation(settings, "ingest").report
    summary.stages += [ingested, distill_flow(root=root)]
    return combine_stages(summary)
