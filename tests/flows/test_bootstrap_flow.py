"""End to end: the bootstrap flow for real on the session's Prefect test server."""

from __future__ import annotations

from pathlib import Path

from flows.bootstrap import bootstrap_flow
from tasks.store.graph_store import load_graph, load_registry
from tasks.store.layout import CORE_FOLDERS, MemoryLayout
from tests.snapshots import snapshot


def test_bootstrap_flow_creates_tree_and_is_idempotent(
    memory_root: Path, fixed_clock_env: str
) -> None:
    report = bootstrap_flow(root=str(memory_root))
    assert report.status == "success"
    assert report.mode == "bootstrap"
    for folder in CORE_FOLDERS:
        assert (memory_root / folder).is_dir(), folder
    layout = MemoryLayout(memory_root)
    assert load_graph(layout.graph_file).entities == []
    assert load_registry(layout.registry_file).entries == []
    assert "wiki/sources/index.md" in layout.index_file.read_text()
    assert "bootstrap (success)" in layout.log_file.read_text()

    before = snapshot(memory_root)
    again = bootstrap_flow(root=str(memory_root))
    assert again.status == "success"
    assert not again.changed
    assert snapshot(memory_root) == before
