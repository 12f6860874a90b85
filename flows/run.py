"""run: the main job. Every stage that exists, in order, then one summary."""

from __future__ import annotations

from prefect import flow

from flows.bootstrap import bootstrap_memory_task
from flows.distill import distill_flow
from flows.freshness import freshness_task
from flows.ingest import ingest_stage
from flows.proposals import propose_batch_task
from flows.reconcile import attach_health, publish_health_task, reconcile_task
from schemas.report import MemoryOperationReport
from tasks.health import HEALTH_DIR, one_line
from tasks.layout import MemoryLayout
from tasks.operation import begin_operation, combine_stages
from tasks.proposals import inbox_files
from tasks.settings import load_settings


@flow(name="membank-run")
def run_flow(paths: list[str] | None = None, root: str | None = None) -> MemoryOperationReport:
    """bootstrap -> ingest (when paths are given) -> distill -> proposals (when the inbox
    holds any) -> reconcile -> freshness audit, ending with the health summary."""
    settings = load_settings(root)
    summary = begin_operation(settings, "run").report
    summary.stages.append(bootstrap_memory_task(settings))
    if paths:
        summary.stages.append(ingest_stage(settings, paths))
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
    return combine_stages(summary)
