"""The read-side commands from the command line: JSON answers, one-line errors, no Prefect."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from flows.cli.app import app
from tests.conftest import REPO_ROOT
from tests.tasks.search.search_memory import SYNTHESIS, build_search_memory

runner = CliRunner()


@pytest.fixture(scope="module")
def root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("cli") / "mem"
    build_search_memory(root)
    return root


def test_search_json(root: Path) -> None:
    result = runner.invoke(app, ["search", "third retry", "--root", str(root), "--json",
                                 "--limit", "3"])
    assert result.exit_code == 0, result.output
    hits = json.loads(result.stdout)["hits"]
    assert hits[0]["path"] == SYNTHESIS and hits[0]["anchor"] == "evidence"


def test_search_rebuild_and_bad_queries(root: Path) -> None:
    rebuilt = runner.invoke(app, ["search", "--rebuild", "--root", str(root)])
    assert rebuilt.exit_code == 0 and "search index rebuilt" in rebuilt.output
    empty = runner.invoke(app, ["search", "", "--root", str(root)])
    assert empty.exit_code == 2
    assert empty.output.strip().splitlines() == [
        "membank: error: the query is empty (hint: search for one or more words)"]
    odd = runner.invoke(app, ["search", 'NEAR("x" * OR', "--root", str(root)])
    assert odd.exit_code == 0 and "Traceback" not in odd.output


def test_show_entity_text(root: Path) -> None:
    result = runner.invoke(app, ["show", "main-orchestrator", "--root", str(root)])
    assert result.exit_code == 0
    assert result.stdout.startswith("# orchestrator (service)")


def test_read_commands_never_import_prefect(root: Path) -> None:
    code = ("import sys\nfrom typer.testing import CliRunner\nfrom flows.cli.app import app\n"
            f"r = CliRunner().invoke(app, ['search', 'retry', '--root', {str(root)!r}])\n"
            "assert r.exit_code == 0, r.output\n"
            f"r = CliRunner().invoke(app, ['show', 'planner', '--root', {str(root)!r}])\n"
            "assert r.exit_code == 0, r.output\n"
            "assert not [m for m in sys.modules if m.split('.')[0] == 'prefect'], 'prefect imported'\n")
    done = subprocess.run([sys.executable, "-c", code], cwd=REPO_ROOT, capture_output=True,
                          text=True, check=False)
    assert done.returncode == 0, done.stderr


def test_browse_json(root: Path) -> None:
    result = runner.invoke(app, ["browse", "exponential backoff", "--root", str(root), "--json"])
    assert result.exit_code == 0, result.output
    answer = json.loads(result.stdout)
    assert answer["nearest"][0]["path"] == SYNTHESIS
    assert answer["hubs"][0]["path"] == "wiki/synthesis/index.md"


def test_retrieve_json_and_md(root: Path) -> None:
    result = runner.invoke(app, ["retrieve", "retry budget", "--root", str(root), "--json",
                                 "--project", "uploads", "--budget-tokens", "500"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert (report["mode"], report["project"]) == ("retrieve", "uploads")
    assert report["packet"]["tokens_used"] <= 500
    md = runner.invoke(app, ["retrieve", "retry budget", "--root", str(root), "--md"])
    assert md.stdout.startswith("## Memory Operation\n- mode: retrieve")
    assert "## Retrieval Packet" in md.stdout


def test_search_rebuild_refuses_a_symlinked_state_folder(tmp_path: Path) -> None:
    root = tmp_path / "mem"
    build_search_memory(root)
    outside = tmp_path / "outside"
    outside.mkdir()
    (root / ".membank").mkdir(exist_ok=True)
    (root / ".membank").rename(outside / "state")
    (root / ".membank").symlink_to(outside / "state")
    before = sorted(p.name for p in (outside / "state").iterdir())
    result = runner.invoke(app, ["search", "--rebuild", "--root", str(root)])
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and "refusing to write through a symlink" in lines[0], lines
    assert sorted(p.name for p in (outside / "state").iterdir()) == before
