"""Context files as membank wrote them (tasks/store/written.py): trusted while untouched,
validated again after any other write, and read the same either way."""

from __future__ import annotations

import os
from pathlib import Path

import orjson
import pytest

from schemas.graph import KNOWLEDGE_GRAPH_DATA
from tasks.bootstrap import bootstrap_memory
from tasks.checks.scan import scan_memory
from tasks.store.errors import ContractError
from tasks.store.graph_store import load_graph_data, save_graph
from tasks.store.operation import writing_operation
from tasks.store.settings import load_settings
from tasks.store.written import WRITTEN_FILE, as_written
from tests.memory_builder import NOW, build_healthy_memory, graph_model

GRAPH = "context/knowledge-graph.index.jsonc"


@pytest.fixture
def root(tmp_path: Path) -> Path:
    memory = tmp_path / "memory"
    build_healthy_memory(memory)
    save_graph(memory / GRAPH, graph_model(), now_iso="2026-05-01T00:00:00Z")
    assert as_written(memory / GRAPH)
    return memory


def hand_edit(path: Path, old: bytes, new: bytes) -> None:
    """Change bytes in place keeping the size and the mtime (only ctime tells)."""
    st = path.stat()
    data = path.read_bytes()
    assert old in data and len(old) == len(new)
    path.write_bytes(data.replace(old, new, 1))
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))


def test_trusted_read_equals_the_validated_read(root: Path) -> None:
    data = (root / GRAPH).read_bytes()
    assert load_graph_data(root / GRAPH) == dict(KNOWLEDGE_GRAPH_DATA.validate_json(data))


def test_hand_edit_is_not_trusted(root: Path) -> None:
    hand_edit(root / GRAPH, b'"entityType": "', b'"entityType":""')
    assert not as_written(root / GRAPH)
    with pytest.raises(ContractError):
        load_graph_data(root / GRAPH)


def test_hand_edit_is_found_by_the_scan(root: Path) -> None:
    scan_memory(root)  # nothing cached: the graph is read either way
    hand_edit(root / GRAPH, b'"entityType": "', b'"entityType":""')
    facts = scan_memory(root).files[GRAPH]["facts"]
    assert facts.get("problem") is not None


def test_hand_edit_is_reported_by_bootstrap(root: Path) -> None:
    hand_edit(root / GRAPH, b'"entityType": "', b'"entityType":""')
    settings = load_settings(root, fixed_clock=NOW)
    with writing_operation(settings, "bootstrap") as operation:
        report = bootstrap_memory(operation)
    assert [p.code for p in report.problems if p.file == GRAPH] == ["invalid_context_file"]


@pytest.mark.parametrize("damage", [b"", b"{broken", b"[1, 2]", b'{"knowledge-graph.index.jsonc": 5}'])
def test_corrupt_record_trusts_nothing(root: Path, damage: bytes) -> None:
    (root / WRITTEN_FILE).write_bytes(damage)
    assert not as_written(root / GRAPH)
    data = (root / GRAPH).read_bytes()
    assert load_graph_data(root / GRAPH) == dict(KNOWLEDGE_GRAPH_DATA.validate_json(data))
    graph = graph_model()
    graph.entities[0].observations.append("One more fact from a later distill")
    save_graph(root / GRAPH, graph, now_iso="2026-05-02T00:00:00Z")  # the next write records it
    assert as_written(root / GRAPH)


def test_scan_facts_are_the_same_trusted_or_not(root: Path) -> None:
    trusted = scan_memory(root).files[GRAPH]
    (root / WRITTEN_FILE).unlink()
    validated = scan_memory(root).files[GRAPH]
    assert orjson.dumps(trusted, option=orjson.OPT_SORT_KEYS) == orjson.dumps(
        validated, option=orjson.OPT_SORT_KEYS)
