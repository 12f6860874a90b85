"""Publishing a health summary to Prefect: the artifacts (linking the dashboard) and the
event an unhealthy summary raises for automations (flows/health.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from flows.health import health_event, publish_prefect_artifacts
from schemas.health import Finding, HealthCounts, HealthSummary
from tasks.dashboard.build import DASHBOARD_FILE
from tests.tasks.test_health_retention import summary

END = "2026-03-24T22:40:05Z"


def test_prefect_health_artifact_links_the_dashboard(monkeypatch: pytest.MonkeyPatch,
                                                     tmp_path: Path) -> None:
    import prefect.artifacts
    import prefect.context

    published: dict[str, str] = {}
    monkeypatch.setattr(prefect.context.FlowRunContext, "get", classmethod(lambda cls: object()))
    monkeypatch.setattr(prefect.artifacts, "create_markdown_artifact", lambda **kw: published.update(kw))
    monkeypatch.setattr(prefect.artifacts, "create_table_artifact", lambda **kw: None)
    page = tmp_path / "context/health" / DASHBOARD_FILE
    assert publish_prefect_artifacts(summary(END), page)
    assert f"Dashboard: [{page}]({page.resolve().as_uri()})" in published["markdown"]


def test_unhealthy_summary_raises_an_event_with_counts() -> None:
    healthy = HealthSummary(kind="reconcile", root="/m", generated_at=END,
                            status="healthy", status_rule="no findings", mode="repair")
    assert health_event(healthy) is None
    failing = healthy.model_copy(update={
        "status": "failing", "counts": HealthCounts(dead_links=2),
        "findings": [Finding(code="dead_link", severity="error", path="wiki/x.md",
                             message="link to a missing page", hint="fix the link")]})
    event = health_event(failing)
    assert event is not None
    name, resource, payload = event
    assert name == "membank.health.failing"
    assert resource["prefect.resource.id"].startswith("membank.memory-root.")
    counts = payload["counts"]
    assert isinstance(counts, dict) and counts["dead_links"] == 2
