"""The streamed knowledge view (two passes over a graph membank wrote) writes the bytes of the
whole-graph view, and declines graphs it cannot stream so the caller reads them whole."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from schemas.graph import entity_key
from tasks.health.dashboard import graph_view_stream
from tasks.health.dashboard.graph_view import GRAPH_VIEW_FILE, render_graph_view, write_graph_view
from tasks.health.dashboard.graph_view_stream import NotStreamable, streamed_page
from tasks.store.graph_store import normalize_graph_data, save_graph_data
from tasks.store.layout import MemoryLayout
from tasks.store.written import as_written
from tests.memory_builder import EARLIER, SOURCE, asset_id
from tests.tasks.health.dashboard.graph_fixture import SHARD, TOPIC_PAGE, build_graph_memory

NAMES = ("orchestrator", "Planner", "planner", "cache <b>", "zeta", "Alpha", "</script>", "ünïcode")
TEXTS = ("owner: team a", "owner: team b", "uses <redis>", "status: active", "Caches plans", "x y")
PAGES = (SOURCE, TOPIC_PAGE, SHARD, "wiki/sources/missing.md")


@pytest.fixture(scope="module")
def memory(tmp_path_factory: pytest.TempPathFactory) -> MemoryLayout:
    return build_graph_memory(tmp_path_factory.mktemp("stream") / "memory", extra=2)


def _streamed(layout: MemoryLayout, digest: str = "d" * 64) -> bytes:
    return b"".join(streamed_page(layout, digest))


@st.composite
def graphs(draw: st.DrawFn) -> dict[str, Any]:
    entities = []
    for name in draw(st.lists(st.sampled_from(NAMES), max_size=6)):
        texts = draw(st.lists(st.sampled_from(TEXTS), max_size=3))
        where = draw(st.lists(st.tuples(st.sampled_from(texts or TEXTS), st.sampled_from(PAGES),
                                        st.integers(1, 9), st.booleans()), max_size=4))
        retired = draw(st.lists(st.tuples(st.sampled_from(TEXTS), st.booleans(), st.sampled_from(PAGES)),
                                max_size=3))
        entity: dict[str, Any] = {
            "entityName": name, "entityType": draw(st.sampled_from(("component", "person", ""))) or "team",
            "observations": texts,
            "observationProvenance": [
                {"observation": text, "sourcePage": page, "rawAssetId": asset_id() if known else "b" * 64,
                 "lineStart": line, "lineEnd": line + 1} for text, page, line, known in where]}
        if retired:
            entity["supersededObservations"] = [
                {"observation": text, "supersededAtUtc": EARLIER, "supersededBy": "owner: team b" if linked else None,
                 "reason": "replaced", **({"sourcePage": page, "rawAssetId": asset_id(), "lineStart": 2,
                                           "lineEnd": 3} if linked else {})}
                for text, linked, page in retired]
        entities.append(entity)
    pool = (*NAMES, "unlisted one", "Unlisted One")
    relations = [{"sourceEntityName": s, "targetEntityName": t, "relationType": kind}
                 for s, t, kind in draw(st.lists(st.tuples(st.sampled_from(pool), st.sampled_from(pool),
                                                           st.sampled_from(("uses", "depends_on"))), max_size=5))]
    superseded = [{"sourceEntityName": s, "targetEntityName": t, "relationType": "serves",
                   "supersededAtUtc": EARLIER, "reason": "gone"}
                  for s, t in draw(st.lists(st.tuples(st.sampled_from(pool), st.sampled_from(pool)), max_size=2))]
    graph = {"graphGeneratedAtUtc": EARLIER, "entities": entities, "relations": relations}
    if superseded:
        graph["supersededRelations"] = superseded
    return graph


def test_the_fixture_memory_streams_to_the_whole_page(memory: MemoryLayout) -> None:
    assert as_written(memory.graph_file)
    whole = render_graph_view(memory, "d" * 64).encode()
    assert _streamed(memory) == whole
    assert b"entities, " in whole and b"\\u003c/script>" in whole


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(graph=graphs())
def test_a_streamed_page_is_byte_for_byte_the_whole_page(memory: MemoryLayout, graph: dict[str, Any]) -> None:
    save_graph_data(memory.graph_file, normalize_graph_data(graph), now_iso=EARLIER)
    assert as_written(memory.graph_file)  # so the stream is what is tested
    assert _streamed(memory) == render_graph_view(memory, "d" * 64).encode()


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(graph=graphs())
def test_an_unnormalized_graph_streams_or_is_declined(memory: MemoryLayout, graph: dict[str, Any]) -> None:
    save_graph_data(memory.graph_file, graph, now_iso=EARLIER)  # as given: repeated or unsorted keys
    keys = [entity_key(e["entityName"].strip()) for e in graph["entities"]]
    try:
        streamed = _streamed(memory)
    except NotStreamable:
        assert keys != sorted(set(keys))
    else:
        assert keys == sorted(set(keys)) and streamed == render_graph_view(memory, "d" * 64).encode()
    target = write_graph_view(memory.root, force=True)
    assert target.read_bytes() == render_graph_view(memory, _digest(target)).encode()


def test_the_page_is_written_in_pieces(memory: MemoryLayout, monkeypatch: pytest.MonkeyPatch) -> None:
    build = build_graph_memory(memory.root.parent / "pieces", extra=60)
    whole = render_graph_view(build, "").encode()
    monkeypatch.setattr(graph_view_stream, "FLUSH_BYTES", 512)
    pieces = list(streamed_page(build, ""))
    assert len(pieces) > 5 and b"".join(pieces) == whole


def test_a_graph_not_as_membank_wrote_it_is_not_streamed(memory: MemoryLayout) -> None:
    save_graph_data(memory.graph_file, {"graphGeneratedAtUtc": EARLIER, "entities": [], "relations": []},
                    now_iso=EARLIER)
    text = memory.graph_file.read_text()
    memory.graph_file.write_text(text + "\n")  # a hand write: other bytes
    with pytest.raises(NotStreamable):
        _streamed(memory)


def test_unsorted_entities_are_declined_and_the_view_reads_the_graph_whole(memory: MemoryLayout) -> None:
    entity = {"entityName": "b", "entityType": "t", "observations": ["one fact"]}
    save_graph_data(memory.graph_file, {"graphGeneratedAtUtc": EARLIER, "entities": [entity],
                                        "relations": []}, now_iso=EARLIER)
    data = memory.graph_file.read_bytes()
    swapped = data.replace(b'"entityName": "b"', b'"entityName": "a"', 1)
    block = swapped[swapped.index(b"    {\n"):swapped.index(b"\n    }") + 6]
    unsorted = swapped.replace(block, block + b",\n" + block.replace(b'"a"', b'"0"'), 1)
    memory.graph_file.write_bytes(unsorted)
    from tasks.store.written import record_written

    record_written(memory.graph_file)  # trusted, but not in membank's order
    with pytest.raises(NotStreamable):
        _streamed(memory)
    target = write_graph_view(memory.root, force=True)  # falls back to the whole read
    assert target.name == GRAPH_VIEW_FILE
    assert target.read_bytes() == render_graph_view(memory, _digest(target)).encode()


def _digest(target: Path) -> str:
    head = target.read_bytes()[:2048].decode()
    return head.split('name="membank-graph-inputs" content="')[1][:64]


def test_a_graph_that_changes_between_the_passes_is_declined(memory: MemoryLayout,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    entities = [{"entityName": name, "entityType": "t", "observations": ["a fact"]} for name in ("a", "b")]
    save_graph_data(memory.graph_file, {"graphGeneratedAtUtc": EARLIER, "entities": entities,
                                        "relations": []}, now_iso=EARLIER)
    first_pass = graph_view_stream._first_pass

    def then_change(layout: MemoryLayout, sources: Any) -> Any:
        found = first_pass(layout, sources)
        data = layout.graph_file.read_bytes().replace(b'"entityName": "b"', b'"entityName": "c"')
        layout.graph_file.write_bytes(data)
        os.utime(layout.graph_file)
        return found

    monkeypatch.setattr(graph_view_stream, "_first_pass", then_change)
    with pytest.raises(NotStreamable):
        _streamed(memory)
