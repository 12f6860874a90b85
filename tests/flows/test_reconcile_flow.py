"""End to end: reconcile, freshness audit and run flows (in-process; the artifacts test as a
tracked Prefect run on the session's test server)."""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest
from typer.testing import CliRunner

from flows.cli.app import app
from flows.freshness import freshness_flow
from flows.nightly import nightly_flow
from flows.reconcile import reconcile_flow
from flows.run import run_flow
from schemas.health import HealthSummary
from tests.memory_builder import CONCEPT, build_healthy_memory, snapshot


def read_artifacts(keys: list[str]) -> dict[str, list]:
    from prefect.client.orchestration import get_client
    from prefect.client.schemas.filters import ArtifactFilter, ArtifactFilterKey

    with get_client(sync_client=True) as client:
        found = client.read_artifacts(
            artifact_filter=ArtifactFilter(key=ArtifactFilterKey(any_=keys)))
    by_key: dict[str, list] = {}
    for artifact in found:
        by_key.setdefault(artifact.key, []).append(artifact)
    return by_key


@pytest.mark.e2e
def test_reconcile_flow_repairs_writes_summary_and_artifacts(
    orchestrated: None, tmp_path: Path, fixed_clock_env: str
) -> None:
    root = tmp_path / "memory"
    build_healthy_memory(root)
    index = root / "index.md"
    index.write_text(index.read_text().replace(f"({CONCEPT})", "(wiki/concepts/gone.md)"))
    (root / "wiki/concepts/notes.md").write_text("---\ntype: [broken\n---\n")

    checked = reconcile_flow(root=str(root), check=True)
    assert checked.exit_code() == 1
    latest = HealthSummary.model_validate_json((root / "context/health/latest.json").read_bytes())
    assert latest.status == "failing" and latest.mode == "check"
    assert {"index_stale_entry", "index_missing_entry", "broken_frontmatter", "misnamed_file"} <= {
        f.code for f in latest.findings}

    report = reconcile_flow(root=str(root))
    assert report.changed and "index.md" in {a.path for a in report.artifacts}
    assert "health failing" in str(report.figures["health_summary"])
    latest = HealthSummary.model_validate_json((root / "context/health/latest.json").read_bytes())
    assert {f.code for f in latest.findings if f.severity != "info"} == {
        "broken_frontmatter", "misnamed_file"}
    assert latest.repaired
    history = (root / "context/health/history.jsonl").read_bytes().splitlines()
    assert [orjson.loads(h)["mode"] for h in history] == ["check", "repair"]
    prom = (root / "context/health/membank-reconcile.prom").read_text()
    assert 'membank_health_status{flow="reconcile"} 2.0' in prom

    before = snapshot(root)
    again = reconcile_flow(root=str(root))
    assert not again.changed
    assert snapshot(root) == before

    artifacts = read_artifacts(["membank-reconcile-health", "membank-reconcile-findings"])
    assert artifacts.get("membank-reconcile-health"), artifacts
    # other tests publish under the same key on the shared server: take this test's, the latest
    latest_artifact = max(artifacts["membank-reconcile-health"], key=lambda a: a.created)
    assert "failing" in latest_artifact.data and "broken_frontmatter" in latest_artifact.data
    dashboard = (root / "context/health/dashboard.html").resolve()
    assert dashboard.as_uri() in latest_artifact.data and "membank health: failing" in dashboard.read_text()
    assert artifacts.get("membank-reconcile-findings")

    audit = freshness_flow(root=str(root))
    assert audit.mode == "audit"
    fresh = HealthSummary.model_validate_json(
        (root / "context/health/latest-freshness.json").read_bytes())
    assert fresh.freshness is not None and fresh.freshness.hubs_by_recent
    assert read_artifacts(["membank-freshness-health"]).get("membank-freshness-health")


def test_run_ends_with_health_summary_and_cli_exit_codes(
    tmp_path: Path, fixed_clock_env: str
) -> None:
    root = tmp_path / "fresh"
    runner = CliRunner()
    result = runner.invoke(app, ["health", "--root", str(root)])
    assert result.exit_code == 2  # no summary yet: could not run
    result = runner.invoke(app, ["run", "--root", str(root)])
    assert result.exit_code == 0, result.output
    last = result.output.strip().splitlines()[-1]
    assert last.startswith("health healthy"), result.output
    summary = run_flow(root=str(root))
    assert [s.mode for s in summary.stages][-2:] == ["reconcile", "audit"]
    nightly = nightly_flow(root=str(root))
    assert [s.mode for s in nightly.stages] == ["reconcile", "audit", "audit"]
    assert nightly.exit_code() == 0 and not nightly.changed
    result = runner.invoke(app, ["reconcile", "--root", str(root), "--check"])
    assert result.exit_code == 0, result.output
    result = runner.invoke(app, ["audit", "freshness", "--root", str(root), "--json"])
    assert result.exit_code == 0, result.output
    assert orjson.loads(result.stdout)["mode"] == "audit"
    for fmt, needle in (("json", '"schema_version"'), ("md", "# membank"), ("prom", "membank_")):
        result = runner.invoke(app, ["health", "--root", str(root), "--format", fmt])
        assert result.exit_code == 0 and needle in result.output, result.output
    (root / "wiki/concepts/notes.md").write_text("# no frontmatter\n")
    result = runner.invoke(app, ["reconcile", "--root", str(root)])
    assert result.exit_code == 1
    result = runner.invoke(app, ["health", "--root", str(root), "--kind", "reconcile"])
    assert result.exit_code == 1 and "failing" in result.output
