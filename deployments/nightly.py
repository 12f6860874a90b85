"""The scheduled side: nightly reconcile, then the freshness audit, served by one process.

    python -m deployments.nightly [ROOT]   # serve both on their cron schedules (UTC)

Each run writes its health summary under <root>/context/health/ and Prefect artifacts.
"""

from __future__ import annotations

import sys

from tasks.prefect_env import apply_prefect_defaults

apply_prefect_defaults()

from prefect import serve  # noqa: E402
from prefect.deployments.runner import RunnerDeployment  # noqa: E402

from flows.freshness import freshness_flow  # noqa: E402
from flows.reconcile import reconcile_flow  # noqa: E402

RECONCILE_CRON = "0 2 * * *"  # nightly, 02:00 UTC
FRESHNESS_CRON = "30 2 * * *"  # after reconcile


def nightly_deployments(root: str | None = None) -> list[RunnerDeployment]:
    parameters = {"root": root} if root else {}
    return [
        reconcile_flow.to_deployment(name="nightly-reconcile", cron=RECONCILE_CRON,
                                     parameters=parameters, tags=["membank", "scheduled"]),
        freshness_flow.to_deployment(name="freshness-audit", cron=FRESHNESS_CRON,
                                     parameters=parameters, tags=["membank", "scheduled"]),
    ]


def main(argv: list[str] | None = None) -> None:
    args = sys.argv[1:] if argv is None else argv
    serve(*nightly_deployments(args[0] if args else None))


if __name__ == "__main__":
    main()
