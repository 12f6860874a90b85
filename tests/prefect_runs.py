"""The task runs of a flow's last run, read from the test session's Prefect server.

Prefect records task runs from events the client sends in the background, so a flow can
return before its last task runs reach the server: read until every expected one is there.
"""

from __future__ import annotations

import time
from typing import Any


def last_flow_run_task_runs(flow_name: str, expected: dict[str, int], timeout: float = 60.0) -> list[Any]:
    """The task runs of `flow_name`'s latest run, once each name prefix in `expected` has at
    least that many runs in a final state; raises AssertionError naming what is missing."""
    from prefect.client.orchestration import get_client
    from prefect.client.schemas.filters import FlowFilter, FlowFilterName, FlowRunFilter, FlowRunFilterId
    from prefect.client.schemas.sorting import FlowRunSort

    deadline = time.monotonic() + timeout
    with get_client(sync_client=True) as client:
        while True:
            (run,) = client.read_flow_runs(flow_filter=FlowFilter(name=FlowFilterName(any_=[flow_name])),
                                           sort=FlowRunSort.START_TIME_DESC, limit=1)
            task_runs = client.read_task_runs(flow_run_filter=FlowRunFilter(id=FlowRunFilterId(any_=[run.id])))
            missing = {prefix: count for prefix, count in expected.items()
                       if sum(1 for t in task_runs if t.name.startswith(prefix)
                              and t.state is not None and t.state.is_final()) < count}
            if not missing:
                return list(task_runs)
            if time.monotonic() > deadline:
                raise AssertionError(f"after {timeout:.0f} s the server still lacks task runs {missing} "
                                     f"of flow run {run.id}; it has {sorted(t.name for t in task_runs)}")
            time.sleep(0.2)
