"""run: the main job. Every stage that exists, in order, then one summary."""

from __future__ import annotations

from prefect import flow

from flows.bootstrap import bootstrap_memory_task
from flows.distill import distill_flow
from flows.freshness import freshness_task
from flows.proposals import propose_batch_task
from flows.reconcile import attach_health, publish_health_task, reconcile_task
from schemas.report import MemoryOperationReport
from tasks.health import HEALTH_DIR, one_line
from tasks.layout import MemoryLayout
from tasks.operation import begin_operation
from tasks.proposals import inbox_files
from tasks.settings import load_settings


@flow(name="membank-run")
def run_flow(paths: list[str] | None = None, root: str | None = None) -> MemoryOperationReport:
    """bootstrap -> distill -> proposals (when the inbox holds any)."""
    settings = load_settings(root)
    summary = begin_operation(settings, "run").report
    summary.stages.append(bootstrap_memory_task(settings))
    summary.stages.append(distill_flow(root=root))
    if inbox_files(MemoryLayout(settings.resolved_root())):
        summary.stages.append(propose_batch_task(settings))
    # The scheduled checks close the run, after every stage that writes.
    reconcile_report, reconcile_health = reconcile_task(settings)
    summary.stages.append(
        attach_health(reconcile_report, reconcile_health,
                      publish_health_task(settings, reconcile_health)))
    freshness_report, freshness_health = freshness_task(settings)
    summary.stages.append(
        attach_health(freshness_report, freshness_health,
                      publish_health_task(settings, freshness_health)))
    summary.figures["health_summary"] = (
        f"{one_line(reconcile_health)}; freshness {freshness_health.status} "
        f"-> {HEALTH_DIR}/latest-reconcile.json, latest-freshness.json")
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
