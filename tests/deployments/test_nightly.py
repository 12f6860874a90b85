"""The nightly deployments carry their cron schedules and the root parameter."""

from __future__ import annotations

from deployments.nightly import FRESHNESS_CRON, RECONCILE_CRON, nightly_deployments


def test_nightly_deployments_have_schedules() -> None:
    reconcile, freshness = nightly_deployments("/srv/memory")
    assert reconcile.name == "nightly-reconcile" and freshness.name == "freshness-audit"
    assert reconcile.parameters == {"root": "/srv/memory"}
    crons = [d.schedules[0].schedule.cron for d in (reconcile, freshness)]
    assert crons == [RECONCILE_CRON, FRESHNESS_CRON]
