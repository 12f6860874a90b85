"""The Prefect flow objects that deployments run (`membank serve`, deployments/prefect.yaml).

Importing this module imports Prefect: it is the entry point of orchestrated runs only. Each
flow's task runner comes from the settings of the process that loads it (a served or worker
process), so MEMBANK_TASK_RUNNER and MEMBANK_TASK_WORKERS apply to deployment runs too.
"""

from __future__ import annotations

from flows.bootstrap import bootstrap_flow as _bootstrap
from flows.distill import distill_flow as _distill
from flows.engine.prefect_env import task_runner_for
from flows.freshness import freshness_flow as _freshness
from flows.ingest import ingest_flow as _ingest
from flows.nightly import nightly_flow as _nightly
from flows.proposals import proposals_flow as _proposals
from flows.run import run_flow as _run
from tasks.store.settings import load_settings

_runner = task_runner_for(load_settings())

bootstrap_flow = _bootstrap.prefect.with_options(task_runner=_runner)
ingest_flow = _ingest.prefect.with_options(task_runner=_runner)
distill_flow = _distill.prefect.with_options(task_runner=_runner)
proposals_flow = _proposals.prefect.with_options(task_runner=_runner)
nightly_flow = _nightly.prefect.with_options(task_runner=_runner)
freshness_flow = _freshness.prefect.with_options(task_runner=_runner)
run_flow = _run.prefect.with_options(task_runner=_runner)
