"""Publishing a health summary to Prefect: the artifacts (linking the dashboard) and the
event an unhealthy summary raises for automations (flows/health.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from flows.health import health_event, publish_prefect_artifacts
from schemas.health import Finding, HealthCounts, HealthSummary
from tasks.health.dashboard.build import DASHBOARD_FILE
from tests.tasks.health.test_retention import summary

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


# Health files are memory-root writes like any other. Before, they were written with no lock:
# a nightly job publishing its summary beside an ingest that was opening its batch lost its
# temp file to the ingest's orphan sweep, and the nightly run failed.

def test_health_files_wait_for_the_writer_lock(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from tasks.health.files import record_health
    from tasks.store.errors import LockTimeoutError
    from tasks.store.settings import load_settings
    from tests.tasks.store.test_lock import hold_in_subprocess

    monkeypatch.setenv("MEMBANK_LOCK_TIMEOUT_SECONDS", "0.3")
    settings = load_settings(str(tmp_path))
    holder = hold_in_subprocess(tmp_path, 10)
    try:
        with pytest.raises(LockTimeoutError, match=f"pid {holder.pid}"):
            record_health(settings, summary(END))
        assert not (tmp_path / "context/health").exists()
    finally:
        holder.kill()
        holder.wait()
    paths = record_health(settings, summary(END))
    assert (tmp_path / paths["latest"]).is_file() and (tmp_path / paths["dashboard"]).is_file()


def test_privacy_audit_reads_under_the_shared_lock(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """Like freshness and reconcile --check: it waits for a writer's batch to end."""
    from flows.privacy import privacy_task
    from tasks.store.errors import LockTimeoutError
    from tasks.store.settings import load_settings
    from tests.tasks.store.test_lock import hold_in_subprocess

    monkeypatch.setenv("MEMBANK_LOCK_TIMEOUT_SECONDS", "0.3")
    settings = load_settings(str(tmp_path))
    holder = hold_in_subprocess(tmp_path, 10)
    try:
        with pytest.raises(LockTimeoutError, match="waited 0.3 s to read it"):
            privacy_task.fn(settings)
    finally:
        holder.kill()
        holder.wait()
    report, health = privacy_task.fn(settings)
    assert health.kind == "privacy" and report.figures["files_scanned"] == 0
