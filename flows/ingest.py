"""ingest: sources into the immutable raw store, source pages and shard pages.

The map step (read, check, hash, plan shards, count tokens) runs one task run per batch on the
task runner the settings name; the single writer then applies every result under the lock.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor

from flows.orchestration import WRITER_RETRIES, stage_flow, stage_task
from flows.runners import call_in_worker, workers_for
from schemas.report import MemoryOperationReport, Problem
from tasks.bootstrap import bootstrap_memory
from tasks.ingest import (
    PreparedSource,
    SourceInput,
    StoredSource,
    apply_ingest,
    collect_inputs,
    find_stored_sources,
    in_input_order,
    plan_batches,
    prepare_batch,
    stored_asset_ids,
)
from tasks.layout import MemoryLayout
from tasks.operation import Operation, begin_operation, combine_stages, writing_operation
from tasks.settings import MembankSettings, load_settings
from tasks.tokens import forget_tokenizers

BATCHES_PER_WORKER = 4
BATCH_BYTES = 2_000_000
MAX_BATCHES = 64


@stage_task(name="prepare-sources-batch")
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

    def __init__(self, futures: Sequence[Future[list[PreparedSource | Problem]]]) -> None:
        self._futures = list(futures)

    def __iter__(self) -> Iterator[PreparedSource | Problem]:
        for future in self._futures:
            yield from future.result()


# Retried only on a recoverable error, which comes from taking the lock or reading the clock,
# before the first result is drawn from `results`.
@stage_task(name="apply-ingest", **WRITER_RETRIES)
def apply_ingest_task(
    settings: MembankSettings,
    results: Iterable[PreparedSource | StoredSource | Problem],
    problems: list[Problem],
) -> MemoryOperationReport:
    with writing_operation(settings, "ingest") as operation:
        bootstrap = Operation(settings, operation.layout, operation.now_iso, operation.prefix,
                              operation.report.model_copy(update={"mode": "bootstrap"}, deep=True))
        bootstrapped = bootstrap_memory(bootstrap)  # no-op on a ready root; one log entry if not
        return apply_ingest(operation, results, [*bootstrapped.problems, *problems])


def ingest_stage(settings: MembankSettings, paths: Sequence[str]) -> MemoryOperationReport:
    """Collect, skip what is stored already, map the rest's batches on the flow's task runner,
    apply once. Call inside a flow."""
    started = time.perf_counter()
    inputs, problems = collect_inputs(paths)
    stored = find_stored_sources(
        inputs, stored_asset_ids(MemoryLayout(settings.resolved_root())), settings)
    new = [item for position, item in enumerate(inputs) if position not in stored]
    total = sum(item.size for item in new)
    # Enough batches for the writer to start early and keep pace; few enough that the ~10 ms
    # a task run costs stays small next to the work in it.
    count = min(MAX_BATCHES, max(settings.task_workers * BATCHES_PER_WORKER, total // BATCH_BYTES))
    batches = plan_batches(new, count)
    with workers_for(settings, total, initializer=forget_tokenizers) as pool:
        futures = prepare_batch_task.map("batch", batches, settings=settings, workers=pool)
        report = apply_ingest_task(
            settings, in_input_order(len(inputs), stored, InOrder(futures)), problems)
    seconds = time.perf_counter() - started
    report.figures["seconds"] = round(seconds, 3)
    megabytes = report.figures.get("bytes_ingested", 0)
    if isinstance(megabytes, int) and seconds > 0:
        report.figures["mb_per_s"] = round(megabytes / 1e6 / seconds, 2)
    from tasks.health import record_ingest_run  # Prometheus and file-lock code: only now

    record_ingest_run(settings.resolved_root(), report, settings.health_history_days)
    return report


@stage_flow(name="ingest")
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
