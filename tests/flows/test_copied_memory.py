"""A copied or restored memory (`cp -a`, a backup): its context files are trusted by the sha256
membank recorded for them (tasks/store/written.py), and its commands say and write what the
original's do; with a record missing, damaged or of the format before digests, nothing is
trusted and they still say and write the same."""

from __future__ import annotations

import shutil
from pathlib import Path

import orjson
import pytest
from typer.testing import CliRunner

from flows.cli.app import app
from tasks.store.filememo import file_identity
from tasks.store.written import WRITTEN_FILE, as_written
from tests.memory_builder import build_healthy_memory, snapshot

GRAPH = "context/knowledge-graph.index.jsonc"
VIEW = "context/health/graph.html"  # the knowledge view: redrawn only when the graph changed


def _memory_and_copy(tmp_path: Path) -> tuple[Path, Path]:
    original = tmp_path / "original"
    build_healthy_memory(original)
    result = CliRunner().invoke(app, ["run", "--root", str(original)])
    assert result.exit_code in (0, 1), result.output  # (1: the freshness audit's stale hubs)
    (original / "wiki/concepts/notes.md").write_text("# no frontmatter\n")  # something to report
    copy = tmp_path / "copy"
    shutil.copytree(original, copy, symlinks=True)  # as `cp -a`: bytes and mtimes, new inodes
    assert (copy / VIEW).is_file()
    return original, copy


def _said(root: Path, *args: str) -> tuple[int, str]:
    result = CliRunner().invoke(app, [*args, "--root", str(root)])
    return result.exit_code, result.stdout.replace(str(root), "ROOT")


def _reconciled_alike(original: Path, copy: Path) -> None:
    """Reconcile both: the same exit, report (but the bytes read) and files; the copy's view
    not redrawn."""
    view = (copy / VIEW).stat().st_ino
    said = [_said(root, "reconcile", "--json") for root in (original, copy)]
    assert [code for code, _ in said] == [1, 1], said
    reports = [orjson.loads(text) for _, text in said]
    for report in reports:  # a cost, not a finding: the copy's files are read once more
        report["figures"].pop("mb_read")
    assert reports[0] == reports[1]
    assert snapshot(original) == snapshot(copy)
    assert (copy / VIEW).stat().st_ino == view


def test_a_copied_memory_reconciles_and_ingests_as_the_original(
        tmp_path: Path, fixed_clock_env: str) -> None:
    original, copy = _memory_and_copy(tmp_path)
    recorded = orjson.loads((copy / WRITTEN_FILE).read_bytes())["knowledge-graph.index.jsonc"]
    assert len(recorded) == 5 and recorded[:4] != file_identity(copy / GRAPH)

    _reconciled_alike(original, copy)
    # the copy's graph was trusted by its digest, and its new identity recorded
    assert as_written(copy / GRAPH)
    after = orjson.loads((copy / WRITTEN_FILE).read_bytes())["knowledge-graph.index.jsonc"]
    assert after == [*file_identity(copy / GRAPH), recorded[4]]

    found = [_said(root, "search", "planner") for root in (original, copy)]
    assert found[0] == found[1] and found[0][0] == 0 and "planner" in found[0][1], found

    note = tmp_path / "decision.md"
    note.write_text("# Decision: keep the planner\n\nThe orchestrator hands plans to the planner, "
                    "which runs on Postgres.\n")
    ingested = [_said(root, "ingest", str(note)) for root in (original, copy)]
    assert [code for code, _ in ingested] == [0, 0], ingested
    # what the run did (the lines after it are timings)
    assert ingested[0][1].splitlines()[0] == ingested[1][1].splitlines()[0]
    assert snapshot(original) == snapshot(copy)


@pytest.mark.parametrize("record", [
    None,  # missing
    b"{not json",  # damaged
    "identities",  # as before digests were kept: [size, mtime, ctime, inode] alone
])
def test_a_copy_whose_record_trusts_nothing_says_and_writes_the_same(
        tmp_path: Path, fixed_clock_env: str, record: bytes | str | None) -> None:
    original, copy = _memory_and_copy(tmp_path)
    if record is None:
        (copy / WRITTEN_FILE).unlink()
    elif record == "identities":
        entries = orjson.loads((copy / WRITTEN_FILE).read_bytes())
        (copy / WRITTEN_FILE).write_bytes(orjson.dumps({name: entry[:4] for name, entry in entries.items()}))
    else:
        assert isinstance(record, bytes)
        (copy / WRITTEN_FILE).write_bytes(record)
    assert not as_written(copy / GRAPH)
    _reconciled_alike(original, copy)
