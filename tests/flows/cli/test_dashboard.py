"""`membank dashboard`: redraws the page from the history, at the settings' clock, without Prefect."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from typer.testing import CliRunner

from flows.cli.app import app
from tests.conftest import REPO_ROOT
from tests.health_history import write_history


def test_dashboard_command_draws_the_page(tmp_path: Path, fixed_clock_env: str) -> None:
    write_history(tmp_path, days=2, end=fixed_clock_env)
    result = CliRunner().invoke(app, ["dashboard", "--root", str(tmp_path)])
    assert result.exit_code == 0, result.output
    page, graph = tmp_path / "context/health/dashboard.html", tmp_path / "context/health/graph.html"
    assert f"dashboard: {page}" in result.output and f"graph: {graph}" in result.output
    assert f"drawn {fixed_clock_env}" in page.read_text()
    assert "no knowledge graph yet" in graph.read_text()  # a history, but no graph in this root
    as_json = CliRunner().invoke(app, ["dashboard", "--root", str(tmp_path), "--json"])
    assert json.loads(as_json.stdout) == {"dashboard": str(page), "graph": str(graph)}


def test_dashboard_command_draws_the_knowledge_view(tmp_path: Path, fixed_clock_env: str) -> None:
    from tests.tasks.health.dashboard.graph_fixture import build_graph_memory

    build_graph_memory(tmp_path, extra=12)
    write_history(tmp_path, days=1, end=fixed_clock_env)
    assert CliRunner().invoke(app, ["dashboard", "--root", str(tmp_path)]).exit_code == 0
    graph = (tmp_path / "context/health/graph.html").read_text()
    assert "part-00011" in graph and "16 entities" in graph


def test_dashboard_without_history_could_not_run(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["dashboard", "--root", str(tmp_path)])
    assert result.exit_code == 2
    assert "no health history yet" in result.output and "membank reconcile" in result.output


def test_dashboard_command_never_imports_prefect(tmp_path: Path) -> None:
    write_history(tmp_path, days=1, end="2026-03-24T22:40:05Z")
    code = ("import sys\nfrom typer.testing import CliRunner\nfrom flows.cli.app import app\n"
            f"r = CliRunner().invoke(app, ['dashboard', '--root', {str(tmp_path)!r}])\n"
            "assert r.exit_code == 0, r.output\n"
            "print(sorted(m for m in sys.modules if m.split('.')[0] == 'prefect'))")
    out = subprocess.run([sys.executable, "-c", code], cwd=REPO_ROOT, capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "[]"


def test_open_hands_the_page_to_a_browser_or_says_there_is_none(tmp_path: Path, monkeypatch) -> None:
    import flows.cli.dashboard

    write_history(tmp_path, days=1, end="2026-03-24T22:40:05Z")
    opened: list[Path] = []
    monkeypatch.setattr(flows.cli.dashboard, "_open_in_browser", lambda page: opened.append(page) or True)
    assert CliRunner().invoke(app, ["dashboard", "--root", str(tmp_path), "--open"]).exit_code == 0
    assert opened == [(tmp_path / "context/health/dashboard.html").resolve()]
    monkeypatch.setattr(flows.cli.dashboard, "_open_in_browser", lambda page: False)
    result = CliRunner().invoke(app, ["dashboard", "--root", str(tmp_path), "--open"])
    assert result.exit_code == 2 and "no web browser" in result.output
