"""End to end: the ingest flow, the CLI command and the main job on a Prefect test server."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from flows.cli import app
from flows.ingest import ingest_flow
from flows.run import run_flow
from tasks.graph_store import load_manifest
from tasks.layout import MemoryLayout
from tests.snapshots import snapshot


def small_folder(tmp_path: Path) -> Path:
    folder = tmp_path / "inbox"
    (folder / "deep").mkdir(parents=True)
    (folder / "queue-design.md").write_text(
        "# Queue design\n\nThe queue hands work to agents in order.\n\n## Retries\n\nThree tries.\n",
        encoding="utf-8")
    (folder / "deep" / "large-notes.md").write_text(
        "# Large notes\n\nLong notes.\n\n" + "".join(
            f"## Part {i}\n\n" + "Sentence about the memory store. " * 200 + "\n\n" for i in range(16)),
        encoding="utf-8")
    (folder / "deep" / "worker.log").write_text("worker started\nworker stopped\n", encoding="utf-8")
    return folder


@pytest.mark.e2e
def test_ingest_flow_on_a_small_folder(prefect_server: None, memory_root: Path, tmp_path: Path,
                                       fixed_clock_env: str) -> None:
    folder = small_folder(tmp_path)
    report = ingest_flow(paths=[str(folder)], root=str(memory_root), distill=False)
    assert report.status == "success", report.problems
    assert report.figures["files_ingested"] == 3 and report.figures["shards_written"] >= 2
    manifest = load_manifest(MemoryLayout(memory_root).raw_manifest_file)
    assert len(manifest.assets) == 3
    assert "ingest (success)" in (memory_root / "log.md").read_text()
    before = snapshot(memory_root)
    again = ingest_flow(paths=[str(folder)], root=str(memory_root), distill=False)
    assert not again.changed and again.figures["dedupe_hits"] == 3
    assert snapshot(memory_root) == before


@pytest.mark.e2e
def test_cli_ingest_and_main_job(prefect_server: None, tmp_path: Path, fixed_clock_env: str) -> None:
    folder = small_folder(tmp_path)
    root = tmp_path / "cli-root"
    result = CliRunner().invoke(app, ["ingest", str(folder), str(tmp_path / "missing.md"),
                                      "--root", str(root), "--json"])
    assert result.exit_code == 1, result.output
    data = json.loads(result.stdout)
    assert data["mode"] == "ingest" and data["status"] == "partial"
    assert [p["code"] for p in data["problems"]] == ["not_found"]
    # ingest runs distill afterwards unless told not to
    assert [stage["mode"] for stage in data["stages"]] == ["ingest", "distill"]
    assert (root / "context/distill-state.jsonc").exists()
    only = CliRunner().invoke(app, ["ingest", str(folder), "--root", str(tmp_path / "r2"),
                                    "--no-distill", "--json"])
    assert only.exit_code == 0 and json.loads(only.stdout)["stages"] == []
    summary = run_flow(paths=[str(folder)], root=str(tmp_path / "run-root"))
    assert [stage.mode for stage in summary.stages][:2] == ["bootstrap", "ingest"]
    assert summary.stages[1].figures["files_ingested"] == 3
