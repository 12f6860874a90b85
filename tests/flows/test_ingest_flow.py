"""End to end: the ingest flow, the CLI command and the main job (in-process)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from flows.cli.app import app
from flows.ingest import ingest_flow
from flows.run import run_flow
from tasks.store.graph_store import load_manifest
from tasks.store.layout import MemoryLayout
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


def test_ingest_flow_on_a_small_folder(memory_root: Path, tmp_path: Path,
                                       fixed_clock_env: str) -> None:
    folder = small_folder(tmp_path)
    report = ingest_flow(paths=[str(folder)], root=str(memory_root), distill=False)
    assert report.status == "success", report.problems
    assert report.figures["files_ingested"] == 3 and report.figures["shards_written"] >= 2
    manifest = load_manifest(MemoryLayout(memory_root).raw_manifest_file)
    assert len(manifest.assets) == 3
    assert "ingest (success)" in (memory_root / "log.md").read_text()
    (line,) = [json.loads(x) for x in (memory_root / "context/health/history.jsonl").read_text().splitlines()]
    assert line["kind"] == "ingest" and line["ingest"]["files"] == 3  # throughput for the dashboard
    before = snapshot(memory_root)
    again = ingest_flow(paths=[str(folder)], root=str(memory_root), distill=False)
    assert not again.changed and again.figures["dedupe_hits"] == 3
    assert snapshot(memory_root) == before


def test_cli_ingest_and_main_job(tmp_path: Path, fixed_clock_env: str) -> None:
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


def test_a_stored_source_is_a_dedupe_hit_without_being_prepared(
    memory_root: Path, tmp_path: Path, fixed_clock_env: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A re-ingest recognises stored bytes by their hash and prepares only the new files,
    with the report and files that preparing everything gives (order, warnings)."""
    from flows.ingest import prepare_batch_task
    from tasks.ingest import apply_ingest, collect_inputs, prepare_batch
    from tasks.store.operation import writing_operation
    from tasks.store.settings import load_settings

    folder = small_folder(tmp_path)
    (folder / "bad-front-matter.md").write_text("---\ntitle: [unclosed\n---\n# Still here\n\nText.\n")
    ingest_flow(paths=[str(folder)], root=str(memory_root), distill=False)
    (folder / "deep" / "new-notes.md").write_text("# New notes\n\nA sentence that is new.\n")
    reference = tmp_path / "reference"
    shutil.copytree(memory_root, reference)
    with writing_operation(load_settings(reference), "ingest") as operation:
        inputs, _ = collect_inputs([str(folder)])
        expected = apply_ingest(operation, prepare_batch(inputs, operation.settings))

    prepared: list[str] = []
    real = prepare_batch_task.fn

    def recording(batch, settings):  # type: ignore[no-untyped-def]
        prepared.extend(Path(item.path).name for item in batch)
        return real(batch, settings)

    monkeypatch.setattr(prepare_batch_task, "fn", recording)
    report = ingest_flow(paths=[str(folder)], root=str(memory_root), distill=False)
    assert prepared == ["new-notes.md"]
    assert report.figures["dedupe_hits"] == 4 and report.figures["files_ingested"] == 1
    assert report.artifacts == expected.artifacts
    assert report.problems == expected.problems and len(report.problems) == 1
    # the flow also logs its throughput in the health history; the memory itself is the same
    ops = (".membank", "context/health")
    assert snapshot(memory_root, skip=ops) == snapshot(reference, skip=ops)


def test_ingesting_a_plain_note_imports_no_memory_store_parser(tmp_path: Path) -> None:
    """The store schemas, parsers and the custodian's checker are start-up cost (~50 ms) that
    only a memory store's files need: a plain note's ingest never imports them."""
    import os
    import subprocess
    import sys

    note = tmp_path / "notes" / "ledger.md"
    note.parent.mkdir()
    note.write_text("# Ledger\n\nWe chose Postgres for the ledger.\n", encoding="utf-8")
    probe = ("import sys\nfrom flows.cli.app import app\n"
             "try:\n    app(sys.argv[1:])\nexcept SystemExit as exc:\n    assert exc.code in (0, None), exc.code\n"
             "print(sorted(m for m in sys.modules if m.startswith(('schemas.stores', "
             "'tasks.memstores.custodian', 'tasks.memstores.check_custodian', "
             "'tasks.memstores.store_extractions', 'tasks.memstores.mem_jsonl'))))\n")
    repo = Path(__file__).resolve().parents[2]
    result = subprocess.run([sys.executable, "-c", probe, "ingest", str(note), "--root",
                             str(tmp_path / "memory")], capture_output=True, text=True, cwd=repo,
                            timeout=300, check=False,
                            env={**os.environ, "PREFECT_HOME": str(tmp_path / "ph"),
                                 "MEMBANK_FIXED_CLOCK": "2026-01-01T00:00:00Z"})
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().splitlines()[-1] == "[]"


def test_an_ingest_without_distill_imports_neither_the_distill_nor_the_extractor(
        tmp_path: Path) -> None:
    """`ingest --no-distill` stores and indexes the note without the distill's modules (the
    extractor's ~1,300 patterns among them: ~0.2-0.7 s of CPU at start-up); with distill, the
    same command imports them and distills the note."""
    import os
    import subprocess
    import sys

    note = tmp_path / "notes" / "ledger.md"
    note.parent.mkdir()
    note.write_text("# Ledger\n\nWe chose Postgres for the ledger.\n", encoding="utf-8")
    probe = ("import sys\nfrom flows.cli.app import app\n"
             "try:\n    app(sys.argv[1:])\nexcept SystemExit as exc:\n    assert exc.code in (0, None), exc.code\n"
             "print(sorted({m.split('.')[0] + '.' + m.split('.')[1] for m in sys.modules "
             "if m.startswith(('flows.distill', 'tasks.extract', 'tasks.distill'))}))\n")
    repo = Path(__file__).resolve().parents[2]

    def imported(*options: str) -> str:
        result = subprocess.run([sys.executable, "-c", probe, "ingest", str(note), "--root",
                                 str(tmp_path / "memory"), *options], capture_output=True,
                                text=True, cwd=repo, timeout=300, check=False,
                                env={**os.environ, "PREFECT_HOME": str(tmp_path / "ph"),
                                     "MEMBANK_FIXED_CLOCK": "2026-01-01T00:00:00Z"})
        assert result.returncode == 0, result.stderr
        return result.stdout.strip().splitlines()[-1]

    assert imported("--no-distill") == "[]"
    assert (tmp_path / "memory" / "raw").is_dir()
    assert imported() == "['flows.distill', 'tasks.distill', 'tasks.extract']"


def test_an_ingest_that_adds_names_updates_the_alias_table_by_entity(
        memory_root: Path, tmp_path: Path, fixed_clock_env: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The index update after a distill that added entities rewrites the alias rows of the
    changed entities alone (not the whole table), and the table then holds what a rebuild
    from scratch holds."""
    import sqlite3

    from tasks.search import index as search_index
    from tasks.search.sync import rebuild_index

    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "ledger.md").write_text(
        "# Decision: ledger store\n\n**Status:** accepted\n\n## Decision\n\n"
        "We chose Postgres for the ledger service.\n", encoding="utf-8")
    assert ingest_flow(paths=[str(notes / "ledger.md")], root=str(memory_root)).status == "success"
    layout = MemoryLayout(memory_root)
    rebuild_index(layout)
    calls: list[list[str] | None] = []
    sync = search_index._sync_aliases
    monkeypatch.setattr(search_index, "_sync_aliases",
                        lambda conn, registry, keys=None: (calls.append(keys), sync(conn, registry, keys))[1])
    (notes / "queue.md").write_text(
        "# Decision: work queue\n\n**Status:** accepted\n\n## Decision\n\n"
        "We adopt Redis Streams for the work queue of the billing service.\n", encoding="utf-8")
    assert ingest_flow(paths=[str(notes / "queue.md")], root=str(memory_root)).status == "success"
    assert calls and all(keys is not None for keys in calls)  # by entity, not whole

    def aliases(root: Path) -> list[tuple[str, str]]:
        with sqlite3.connect(search_index.index_file(MemoryLayout(root))) as conn:
            return conn.execute("SELECT form, entity FROM aliases ORDER BY form, entity").fetchall()

    updated = aliases(memory_root)
    fresh = tmp_path / "fresh"
    shutil.copytree(memory_root, fresh)
    search_index.index_file(MemoryLayout(fresh)).unlink()
    rebuild_index(MemoryLayout(fresh))
    assert updated == aliases(fresh)
    assert any(entity == "decision: work queue" for _form, entity in updated)
