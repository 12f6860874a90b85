"""A copied or restored memory (`cp -a`, a backup): its context files are trusted by the sha256
membank recorded for them (tasks/store/written.py), and its reconcile says and writes what the
original's does."""

from __future__ import annotations

import shutil
from pathlib import Path

import orjson
from typer.testing import CliRunner

from flows.cli.app import app
from tasks.store.filememo import file_identity
from tasks.store.written import WRITTEN_FILE, as_written
from tests.memory_builder import build_healthy_memory, snapshot

GRAPH = "context/knowledge-graph.index.jsonc"


def test_a_copied_memory_reconciles_as_the_original(tmp_path: Path, fixed_clock_env: str) -> None:
    original = tmp_path / "original"
    build_healthy_memory(original)
    runner = CliRunner()
    result = runner.invoke(app, ["run", "--root", str(original)])
    assert result.exit_code in (0, 1), result.output  # (1: the freshness audit's stale hubs)
    (original / "wiki/concepts/notes.md").write_text("# no frontmatter\n")  # something to report
    copy = tmp_path / "copy"
    shutil.copytree(original, copy, symlinks=True)  # as `cp -a`: bytes and mtimes, new inodes
    recorded = orjson.loads((copy / WRITTEN_FILE).read_bytes())["knowledge-graph.index.jsonc"]
    assert len(recorded) == 5 and recorded[:4] != file_identity(copy / GRAPH)

    reports = [runner.invoke(app, ["reconcile", "--root", str(root), "--json"])
               for root in (original, copy)]
    assert [r.exit_code for r in reports] == [1, 1], [r.output for r in reports]
    said = [orjson.loads(r.stdout.replace(str(root), "ROOT"))
            for r, root in zip(reports, (original, copy), strict=True)]
    for report in said:  # a cost, not a finding: the copy's files are read once more
        report["figures"].pop("mb_read")
    assert said[0] == said[1]
    assert snapshot(original) == snapshot(copy)
    # the copy's graph was trusted by its digest, and its new identity recorded
    assert as_written(copy / GRAPH)
    after = orjson.loads((copy / WRITTEN_FILE).read_bytes())["knowledge-graph.index.jsonc"]
    assert after == [*file_identity(copy / GRAPH), recorded[4]]
