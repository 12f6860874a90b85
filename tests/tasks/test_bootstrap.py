from pathlib import Path

import pytest

from tasks.bootstrap import bootstrap_memory
from tasks.store.operation import begin_operation
from tasks.store.settings import load_settings


def run_bootstrap(root: Path):
    operation = begin_operation(load_settings(root), "bootstrap")
    return bootstrap_memory(operation)


def test_corrupt_graph_is_reported_not_overwritten(memory_root: Path, fixed_clock_env: str) -> None:
    run_bootstrap(memory_root)
    graph = memory_root / "context/knowledge-graph.index.jsonc"
    graph.write_text('{"graphGeneratedAtUtc": "2026-03-24T22:40:05Z", "entities": [')
    report = run_bootstrap(memory_root)
    assert report.status == "partial" and report.exit_code() == 1
    assert report.problems[0].file == "context/knowledge-graph.index.jsonc"
    assert "malformed JSONC" in report.problems[0].message
    assert graph.read_text().endswith('"entities": [')


def test_missing_registry_key_is_reported(memory_root: Path, fixed_clock_env: str) -> None:
    run_bootstrap(memory_root)
    (memory_root / "context/entity-registry.jsonc").write_text('{"entries": []}')
    report = run_bootstrap(memory_root)
    assert "registryGeneratedAtUtc" in report.problems[0].message


def test_recreates_only_what_is_missing(memory_root: Path, fixed_clock_env: str) -> None:
    run_bootstrap(memory_root)
    (memory_root / "sessions").rmdir()
    report = run_bootstrap(memory_root)
    assert [a.path for a in report.artifacts] == ["sessions/", "log.md"]
    assert "sessions/" in (memory_root / "log.md").read_text()


def test_root_that_is_a_file_is_refused(tmp_path: Path) -> None:
    from tasks.store.errors import RootError

    target = tmp_path / "file"
    target.write_text("x")
    with pytest.raises(RootError, match="not a folder"):
        begin_operation(load_settings(target), "bootstrap")
