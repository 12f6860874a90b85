"""ingest: sources into the immutable raw store, source pages and shard pages.

The map step (read, check, hash, plan shards, count tokens) runs one task run per batch on the
task runner the settings name; the single writer applies the results under the lock, one
task run per batch as each is ready, between an open and a finish task run.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

from flows.engine.runners import call_in_worker, current_workers, workers_for
from flows.engine.stage import WRITER_RETRIES, stage_flow, stage_task, unmapped
from schemas.report import MemoryOperationReport, Problem
from tasks.health.history import record_ingest_run
from tasks.ingest import (
    IngestWriter,
    PreparedSource,
    SourceInput,
    WriterStep,
    collect_inputs,
    find_stored_sources,
    plan_batches,
    plan_writer_steps,
    prepare_batch,
    stored_asset_ids,
)
from tasks.ingest.model import IngestFigures, IngestTiming
from tasks.memstores.discover import CUSTODIAN_PREFIX
from tasks.store.journal import one_sweep_per_call
from tasks.store.operation import begin_operation, roll_up_stages
from tasks.store.report import StageReport
from tasks.store.settings import MembankSettings, load_settings
from tasks.store.tokens import forget_tokenizers

BATCHES_PER_WORKER = 4
BATCH_BYTES = 2_000_000
MAX_BATCHES = 64


@stage_task(name="prepare-sources-batch")
def prepare_batch_task(batch: list[SourceInput], settings: MembankSettings
                       ) -> list[PreparedSource | Problem]:
    """Prepare one batch here, or in one of the map step's forked workers (one tokenizer
    thread each; see flows.engine.runners.workers_for)."""
    workers = current_workers()
    return call_in_worker(workers, prepare_batch, batch, settings, 1 if workers else None)


# The writer's phases are tasks that take the futures they depend on, so the task graph shows
# each batch's edge into the writer. The flow calls them one after another in its own thread
# (they share the lock and the staged files), while the batches are prepared on the task
# runner: the writer applies batch N as soon as it is ready, while batch N+1 is prepared.
# Cost, measured against the single writer task (farm-bench, 2 cores, load 5-7): in-process
# none (1000 notes, 20 MB: CPU and wall within 1-3 %); under Prefect the extra task runs (one
# per batch: 8 here) cost ~8 % more CPU and no wall time, kept for the visible graph.


# Retried on a recoverable error (the lock held by another writer past the timeout, the clock
# unreadable): nothing of the ingest is written before this phase returns.
@stage_task(name="open-ingest", opaque_inputs=True, **WRITER_RETRIES)
def open_ingest_task(settings: MembankSettings, problems: list[Problem]) -> IngestWriter:
    """Take the writer lock, bootstrap a new root, load the raw store."""
    return IngestWriter.open(settings, problems)


@stage_task(name="apply-ingest-batch", opaque_inputs=True)
def apply_ingest_batch_task(writer: IngestWriter, prepared: list[PreparedSource | Problem],
                            step: WriterStep) -> IngestWriter:
    """Stage one prepared batch (`prepared`: the batch's future) with the stored sources
    among its inputs; `writer`: the previous writer step's result."""
    writer.apply(step.results(prepared))
    return writer


@stage_task(name="finish-ingest", opaque_inputs=True)
def finish_ingest_task(writer: IngestWriter) -> MemoryOperationReport:
    """Commit the staged files; write the manifest, hub, index and log; release the lock. The
    search index's pages are parsed in the map step's forked workers when it has them (idle
    by now; this process has threads, so the index build may not fork its own)."""
    return writer.finish(current_workers())


def write_batches(settings: MembankSettings, steps: Sequence[WriterStep], batches: Sequence[Any],
                  problems: list[Problem]) -> MemoryOperationReport:
    """The writer's phases over the batches, one step each. `batches`: the futures of the
    prepare-sources-batch runs (or their results at hand); a task called with a future gets
    its result (see StageTask.__call__), which the ParamSpec types cannot say, hence Any; a
    batch whose run failed raises its error there."""
    writer = open_ingest_task(settings, problems)
    try:
        for step, batch in zip(steps, batches, strict=True):
            # (the same writer: its previous step is this step's input)
            writer = apply_ingest_batch_task(writer, batch, step)
        return finish_ingest_task(writer)
    except BaseException as exc:
        writer.abort(exc)  # a batch that failed to prepare, an interrupt: nothing half-written
        raise


def ingest_stage(settings: MembankSettings, paths: Sequence[str]) -> MemoryOperationReport:
    """Collect, skip what is stored already, map the rest's batches on the flow's task runner,
    apply them in turn as they are ready. Call inside a flow."""
    started = time.perf_counter()
    inputs, problems = collect_inputs(paths)
    inputs, refused, budget_warnings = custodian_budget_gate(inputs, settings)
    problems += refused
    from tasks.ingest.budget_gate import manifestless_warnings

    budget_warnings += manifestless_warnings(inputs)
    stored = find_stored_sources(inputs, stored_asset_ids(settings), settings)
    new = [item for position, item in enumerate(inputs) if position not in stored]
    total = sum(item.size for item in new)
    # Enough batches for the writer to start early and keep pace; few enough that the ~10 ms
    # a task run costs stays small next to the work in it.
    count = min(MAX_BATCHES, max(settings.task_workers * BATCHES_PER_WORKER, total // BATCH_BYTES))
    batches = plan_batches(new, count)
    steps = plan_writer_steps(len(inputs), stored, [len(batch) for batch in batches])
    with workers_for(settings, total, initializer=forget_tokenizers):
        futures = prepare_batch_task.map(batch=batches, settings=unmapped(settings))
        report = write_batches(settings, steps, futures or [[]], problems)
    stage = StageReport.resume(report)  # the writer's report: the flow adds its own notes
    stage.note_warnings(budget_warnings)
    seconds = time.perf_counter() - started
    stored_bytes = IngestFigures.read(report).bytes_ingested
    stage.note_figures(IngestTiming(seconds=round(seconds, 3),
                                    mb_per_s=round(stored_bytes / 1e6 / seconds, 2) if seconds > 0 else None))
    report = stage.finish()

    record_ingest_run(settings.resolved_root(), report, settings.health_history_days)
    return report


def custodian_budget_gate(inputs: list[SourceInput], settings: MembankSettings
                          ) -> tuple[list[SourceInput], list[Problem], list[str]]:
    """MemoryCustodian files over budget are refused unless --allow-long (tasks/ingest/budget_gate.py)."""
    if not any((i.store_role or "").startswith(CUSTODIAN_PREFIX) for i in inputs):
        return inputs, [], []
    from tasks.ingest.budget_gate import budget_gate
    from tasks.store.tokens import count_tokens

    encoding = settings.tokenizer_encoding
    return budget_gate(inputs, lambda texts: count_tokens(texts, encoding, threads=1),
                       allow_long=settings.custodian_allow_long)


@stage_flow(name="ingest")
def ingest_flow(
    paths: list[str], root: str | None = None, distill: bool = True, allow_secrets: bool = False,
    allow_long: bool = False,
) -> MemoryOperationReport:
    """Ingest files, folders (recursively, sorted) and globs into the memory root, then distill
    what is new unless `distill` is False. Sources with a secret are refused unless
    `allow_secrets` (then stored, and recorded in the report and the raw manifest);
    MemoryCustodian files over their token budget unless `allow_long`."""
    settings = load_settings(root, privacy_allow_secrets=allow_secrets or None,
                             custodian_allow_long=allow_long or None)
    with one_sweep_per_call():  # the stages' writer batches walk the root for temp files once
        ingested = ingest_stage(settings, paths)
        if not distill:
            return ingested
        # (here: the distill's modules, the extractor's among them, cost ~0.2-0.7 s of CPU to
        # import, which an ingest without distill need not pay)
        from flows.distill import distill_flow

        summary = begin_operation(settings, "ingest").stage
        summary.adopt(ingested)
        summary.adopt(distill_flow(root=root))
    return roll_up_stages(summary)
