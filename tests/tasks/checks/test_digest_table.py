"""The observation digests as the scan hands them on (tasks/checks/digest_table.py), and the
erased-facts gate's baseline written from their bytes."""

from __future__ import annotations

import pickle
from pathlib import Path

import orjson
from hypothesis import given, settings
from hypothesis import strategies as st

from tasks.checks.digest_table import DigestTable, blob_digests
from tasks.checks.reconcile import gates
from tasks.checks.reconcile.context import build_context
from tasks.checks.scan import save_cache, scan_memory
from tasks.store.layout import GRAPH_FILE, OBSERVATION_BASELINE_FILE
from tests.memory_builder import build_healthy_memory

DIGESTS = st.dictionaries(st.text(min_size=1, max_size=16), st.text(max_size=40), max_size=20)


@settings(max_examples=100, deadline=None)
@given(DIGESTS)
def test_a_table_reads_as_its_dict_and_writes_the_baseline_bytes(digests: dict[str, str]) -> None:
    table = DigestTable.of(digests)
    assert table.blob == orjson.dumps(digests, option=orjson.OPT_SORT_KEYS)
    assert dict(table) == digests and len(table) == len(digests) and table == digests
    assert all(digest in table and table[digest] == text for digest, text in digests.items())
    assert "not a digest " not in table
    copied = pickle.loads(pickle.dumps(table))
    assert copied.blob == table.blob and copied == digests


def test_the_bytes_alone_cross_a_pipe() -> None:
    table = DigestTable.of({"a1": "x: one", "b2": "y: two"})
    assert table.mapping() == {"a1": "x: one", "b2": "y: two"}
    reduced = table.__reduce__()
    assert reduced == (DigestTable, (table.blob,))  # the decoded dict is not pickled


def _erased_gate(root: Path) -> tuple[list[str], object]:
    scan = scan_memory(root)
    findings, _ = gates.check_erased_facts(scan, build_context(scan))
    return [f.message for f in findings], scan


def test_the_baseline_written_from_the_bytes_equals_the_dict_path(tmp_path: Path,
                                                                  monkeypatch) -> None:
    root = tmp_path / "memory"
    build_healthy_memory(root)
    findings, scan = _erased_gate(root)
    current = scan.transient[GRAPH_FILE]["obs_digests"]
    # no baseline yet: the table itself becomes the baseline, never decoded
    assert findings == [] and scan.observation_baseline is current
    assert current._mapping is None
    save_cache(scan)
    saved = (root / OBSERVATION_BASELINE_FILE).read_bytes()
    assert saved == orjson.dumps(current.mapping(), option=orjson.OPT_SORT_KEYS)
    assert orjson.loads(saved)  # the healthy memory's graph has observations

    # the same digests saved: the same path, the same bytes
    findings, scan = _erased_gate(root)
    assert findings == [] and isinstance(scan.observation_baseline, DigestTable)
    assert scan.observation_baseline.blob == saved

    # a baseline holding a digest the graph lost: the general path names it as erased
    lost = {**orjson.loads(saved), "0000000000000000": "Ghost: gone for good"}
    (root / OBSERVATION_BASELINE_FILE).write_bytes(orjson.dumps(lost))
    findings, scan = _erased_gate(root)
    assert findings == ["observation was removed instead of superseded: Ghost: gone for good"]
    assert scan.observation_baseline == lost  # what the graph holds, and what it lost
    assert scan.state["erased_observations"] == {"0000000000000000": "Ghost: gone for good"}


@settings(max_examples=200, deadline=None)
@given(st.dictionaries(st.text("0123456789abcdef", min_size=1, max_size=16),
                       st.text(alphabet='ab",:{}\\\n ', max_size=12), max_size=12))
def test_the_digests_read_from_the_bytes_are_every_key(digests: dict[str, str]) -> None:
    """Texts with quotes, backslashes, `","` and `":"` hide no key and make none up."""
    assert list(blob_digests(DigestTable.of(digests).blob)) == sorted(digests)


def test_a_baseline_the_graph_holds_becomes_the_graphs_bytes(tmp_path: Path) -> None:
    """A saved baseline whose every digest the graph still holds (after an ingest added facts;
    a text changed; a fact erased before is back): the baseline becomes the graph's digests,
    written from their bytes, neither decoded; the same as the dict path's update."""
    root = tmp_path / "memory"
    build_healthy_memory(root)
    findings, scan = _erased_gate(root)
    save_cache(scan)
    graph = orjson.loads((root / OBSERVATION_BASELINE_FILE).read_bytes())
    first, second, *_ = sorted(graph)
    older = {d: t for d, t in graph.items() if d != first}  # the graph gained `first` since
    older[second] = "an older text of the same digest"
    (root / OBSERVATION_BASELINE_FILE).write_bytes(orjson.dumps(older,
                                                                option=orjson.OPT_SORT_KEYS))
    scan = scan_memory(root)
    scan.state["erased_observations"] = {first: graph[first]}  # erased then, back now
    findings, _ = gates.check_erased_facts(scan, build_context(scan))
    current = scan.transient[GRAPH_FILE]["obs_digests"]
    assert findings == [] and scan.state["erased_observations"] == {}
    assert scan.observation_baseline is current and current._mapping is None
    save_cache(scan)
    assert (root / OBSERVATION_BASELINE_FILE).read_bytes() == orjson.dumps(
        {**older, **graph}, option=orjson.OPT_SORT_KEYS)


def test_an_empty_or_broken_baseline_reads_as_none(tmp_path: Path) -> None:
    root = tmp_path / "memory"
    build_healthy_memory(root)
    for saved in (b"{}", b"{ }\n", b"not json"):
        (root / OBSERVATION_BASELINE_FILE).parent.mkdir(parents=True, exist_ok=True)
        (root / OBSERVATION_BASELINE_FILE).write_bytes(saved)
        findings, scan = _erased_gate(root)
        assert findings == [] and isinstance(scan.observation_baseline, DigestTable)
