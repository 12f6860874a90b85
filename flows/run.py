"""run: the main job. Every stage that exists, in order, then one summary."""

from __future__ import annotations

from prefect import flow

from flows.bootstrap import bootstrap_memory_task
from flows.ingest import ingest_stage
from schemas.report import MemoryOperationReport
from tasks.operation import begin_operation
from tasks.settings import load_settings


@flow(name="membank-run")
def run_flow(paths: list[str] | None = None, root: str | None = None) -> MemoryOperationReport:
    """bootstrap -> ingest (when paths are given) -> (distill -> reconcile -> freshness audit)."""
    settings = load_settings(root)
    summary = begin_operation(settings, "run").report
    summary.stages.append(bootstrap_memory_task(settings))
    if paths:
        summary.stages.append(ingest_stage(settings, paths))
    return finish_run(summary)


def finish_run(summary: MemoryOperationReport) -> MemoryOperationReport:
    for stage in summary.stages:
        summary.graph_delta = summary.graph_delta.plus(stage.graph_delta)
        summary.problems.extend(stage.problems)
    if any(stage.status == "failed" for stage in summary.stages):
        summary.status = "failed"
    elif summary.problems or any(stage.status == "partial" for stage in summary.stages):
        summary.status = "partial"
    summary.memory_health.index_synced = all(s.memory_health.index_synced for s in summary.stages)
    return summary
