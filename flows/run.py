"""run: the main job. Every stage that exists, in order, then one summary."""

from __future__ import annotations

from flows.bootstrap import bootstrap_memory_task
from flows.distill import distill_flow
from flows.engine.stage import stage_flow
from flows.ingest import ingest_stage
from flows.nightly import closing_health_checks
from flows.proposals import propose_batch_task
from schemas.report import MemoryOperationReport
from tasks.proposals.inbox import inbox_files
from tasks.store.layout import MemoryLayout
from tasks.store.operation import begin_operation, roll_up_stages
from tasks.store.settings import load_settings


@stage_flow(name="membank-run")
def run_flow(paths: list[str] | None = None, root: str | None = None) -> MemoryOperationReport:
    """bootstrap -> ingest (when paths are given) -> distill -> proposals (when the inbox
    holds any) -> reconcile -> freshness audit, ending with the health summary."""
    settings = load_settings(root)
    summary = begin_operation(settings, "run").stage
    summary.adopt(bootstrap_memory_task(settings))
    if paths:
        summary.adopt(ingest_stage(settings, paths))
    summary.adopt(distill_flow(root=root))
    if inbox_files(MemoryLayout(settings.resolved_root())):
        summary.adopt(propose_batch_task(settings))
    # The scheduled checks close the run, after every stage that writes.
    closing_health_checks(settings, summary)
    return roll_up_stages(summary)
