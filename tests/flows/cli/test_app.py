"""The CLI contract: --root/--json everywhere, exit codes 0/1/2, one-line errors, help."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from flows.cli.app import app
from tests.tasks.store.test_lock import hold_in_subprocess

runner = CliRunner()


def test_every_command_has_help() -> None:
    result = runner.invoke(app, ["--help"])
    assert result.exit_code == 0
    commands = [c.name or c.callback.__name__ for c in app.registered_commands]
    assert "init" in commands and "run" in commands
    for name in commands:
        sub = runner.invoke(app, [name, "--help"])
        assert sub.exit_code == 0, name
        assert "--root" in sub.output and "--json" in sub.output, name


def test_usage_error_exits_2() -> None:
    assert runner.invoke(app, ["init", "--no-such-option"]).exit_code == 2


def test_root_that_is_a_file_is_one_line_exit_2(tmp_path: Path) -> None:
    target = tmp_path / "not-a-folder"
    target.write_text("x")
    result = runner.invoke(app, ["init", "--root", str(target)])
    assert result.exit_code == 2
    assert result.stderr.count("\n") == 1 and "not a folder" in result.stderr
    assert "Traceback" not in result.output + result.stderr


def test_invalid_setting_is_one_line_exit_2(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMBANK_LOCK_TIMEOUT_SECONDS", "soon")
    result = runner.invoke(app, ["init", "--root", str(tmp_path / "m")])
    assert result.exit_code == 2 and "lock_timeout_seconds" in result.stderr


def test_init_json_then_idempotent(memory_root: Path, fixed_clock_env: str) -> None:
    first = runner.invoke(app, ["init", "--root", str(memory_root), "--json"])
    assert first.exit_code == 0, first.output
    report = json.loads(first.stdout)
    assert report["mode"] == "bootstrap" and report["status"] == "success"
    assert report["memory_write_timestamp_utc"] == fixed_clock_env
    second = runner.invoke(app, ["init", "--root", str(memory_root)])
    assert second.exit_code == 0 and "nothing to do" in second.stdout


def test_corrupt_graph_exits_1(memory_root: Path) -> None:
    assert runner.invoke(app, ["init", "--root", str(memory_root)]).exit_code == 0
    graph = memory_root / "context/knowledge-graph.index.jsonc"
    graph.write_text("{ not json")
    result = runner.invoke(app, ["init", "--root", str(memory_root)])
    assert result.exit_code == 1
    assert "knowledge-graph.index.jsonc" in result.stdout
    assert graph.read_text() == "{ not json"


def test_lock_timeout_exits_2_naming_holder(
    memory_root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    memory_root.mkdir(parents=True)
    monkeypatch.setenv("MEMBANK_LOCK_TIMEOUT_SECONDS", "0.5")
    holder = hold_in_subprocess(memory_root, 20)
    try:
        result = runner.invoke(app, ["init", "--root", str(memory_root)])
    finally:
        holder.kill()
        holder.wait()
    assert result.exit_code == 2
    assert f"pid {holder.pid}" in result.stderr and "Traceback" not in result.stderr
