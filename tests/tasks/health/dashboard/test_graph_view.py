"""The knowledge view's page: read from the memory, self-contained, deterministic, escaped."""

from __future__ import annotations

import re
from pathlib import Path

import orjson

from tasks.health.dashboard.build import DASHBOARD_FILE
from tasks.health.dashboard.graph_model import view_model
from tasks.health.dashboard.graph_page import model_script
from tasks.health.dashboard.graph_view import GRAPH_VIEW_FILE, graph_sources, write_graph_view
from tasks.health.files import write_health
from tasks.store.graph_store import load_graph_data
from tests.memory_builder import ORCHESTRATOR, RAW, SOURCE
from tests.tasks.health.dashboard.graph_fixture import (
    HOSTILE,
    SHARD,
    SHARD_INDEX,
    TOPIC_HUB,
    TOPIC_PAGE,
    build_graph_memory,
)
from tests.tasks.health.test_retention import summary


def page_model(text: str) -> dict[str, object]:
    found = re.search(r'<script type="application/json" id="graph-data">(.*?)</script>', text, re.S)
    assert found is not None
    return dict(orjson.loads(found.group(1)))


def test_page_is_self_contained_deterministic_and_carries_the_model(tmp_path: Path) -> None:
    layout = build_graph_memory(tmp_path / "memory", extra=40)
    target = write_graph_view(layout.root)
    assert target == layout.root / "context/health" / GRAPH_VIEW_FILE
    first = target.read_bytes()
    assert write_graph_view(layout.root).read_bytes() == first  # no clock in the page
    text = first.decode()
    assert "Content-Security-Policy" in text and "default-src 'none'" in text
    assert not re.search(r"""(?:src|href)=["']?(?:https?:)?//""", text), "nothing may be fetched"
    assert text.count("<script") == 3 and "<script src" not in text  # data, d3-force, ours
    assert "d3-force/ v3.0.1" in text and "forceSimulation" in text and "graph_model.py" in text
    graph = load_graph_data(layout.graph_file)
    assert page_model(text) == orjson.loads(orjson.dumps(view_model(graph, graph_sources(layout, graph))))
    assert "44 entities, 41 relations (1 superseded), 124 observations (2 superseded)" in text


def test_no_value_can_close_the_script_element(tmp_path: Path) -> None:
    layout = build_graph_memory(tmp_path / "memory", extra=0)
    text = write_graph_view(layout.root).read_text()
    assert HOSTILE not in text and "alert(1)</script>" not in text and "<!--" not in text
    names = [node[0] for node in page_model(text)["nodes"]]  # type: ignore[union-attr]
    assert HOSTILE in names  # escaped, not lost
    assert "\\u003c/script>" in model_script({"a": "</script>"})


def test_hubs_follow_child_of_up_to_a_hub_page_or_a_topic_hub(tmp_path: Path) -> None:
    layout = build_graph_memory(tmp_path / "memory", extra=3)
    (layout.root / "wiki/concepts/loose.md").write_text("# no front matter\n")
    (layout.root / "wiki/concepts/broken.md").write_text("---\ntitle: [unclosed\n---\n# x\n")
    graph = load_graph_data(layout.graph_file)
    for page in ("wiki/concepts/loose.md", "wiki/concepts/broken.md", "wiki/concepts/gone.md"):
        graph["entities"][0]["observationProvenance"].append(
            {"observation": "x", "sourcePage": page, "rawAssetId": "b" * 64, "lineStart": 1, "lineEnd": 1})
    sources = graph_sources(layout, graph)
    assert sources.page_hubs == {
        SOURCE: ["wiki/sources/index.md"],
        SHARD: ["wiki/sources/index.md"],  # shard -> its index page -> the folder's hub
        TOPIC_PAGE: [TOPIC_HUB],  # a page of type hub
        "wiki/concepts/loose.md": ["wiki/concepts/index.md"],  # no child_of: its folder's hub
        "wiki/concepts/broken.md": ["wiki/concepts/index.md"],
        "wiki/concepts/gone.md": ["wiki/concepts/index.md"],
    }
    assert SHARD_INDEX not in sources.page_hubs
    assert sources.raw_paths and set(sources.raw_paths.values()) == {RAW}
    assert sources.aliases == {"orchestrator": ["main-orchestrator"]} and sources.base == "../../"


def test_entity_pages_come_from_the_registry(tmp_path: Path) -> None:
    layout = build_graph_memory(tmp_path / "memory", extra=0)
    registry = layout.registry_file.read_text().replace(
        '"canonicalName": "orchestrator",', f'"canonicalName": "orchestrator", "entityPage": "{ORCHESTRATOR}",')
    layout.registry_file.write_text(registry)
    model = page_model(write_graph_view(layout.root).read_text())
    pages, nodes = model["pages"], model["nodes"]
    assert isinstance(pages, list) and isinstance(nodes, list)
    orchestrator = next(node for node in nodes if node[0] == "orchestrator")
    assert pages[orchestrator[4]] == ORCHESTRATOR


def test_without_a_readable_graph_the_page_says_why(tmp_path: Path) -> None:
    layout = build_graph_memory(tmp_path / "memory", extra=0)
    layout.graph_file.write_text('{"graphGeneratedAtUtc": "2026-01-10T08:00:00Z", "entities": [{"entityName": ')
    text = write_graph_view(layout.root).read_text()
    assert 'id="problem"' in text and "knowledge-graph.index.jsonc" in text and "graph-data" not in text
    layout.graph_file.unlink()
    text = write_graph_view(layout.root).read_text()
    assert "no knowledge graph yet" in text and "membank distill" in text


def test_every_health_write_redraws_it_and_the_dashboard_links_it(tmp_path: Path) -> None:
    layout = build_graph_memory(tmp_path / "memory", extra=5)
    paths = write_health(layout.root, summary("2026-03-24T23:00:00Z"))
    assert paths["graph_view"] == f"context/health/{GRAPH_VIEW_FILE}"
    assert "part-00004" in (layout.root / paths["graph_view"]).read_text()
    dashboard = (layout.root / "context/health" / DASHBOARD_FILE).read_text()
    assert f'<a href="{GRAPH_VIEW_FILE}">' in dashboard


def test_a_page_drawn_from_the_same_inputs_is_not_drawn_again(tmp_path: Path) -> None:
    layout = build_graph_memory(tmp_path / "memory", extra=3)
    target = write_graph_view(layout.root)
    drawn = target.read_text()
    target.write_text(drawn.replace("part-00002", "MARKED"))  # same inputs: left as it is
    assert "MARKED" in write_graph_view(layout.root).read_text()
    assert write_graph_view(layout.root, force=True).read_text() == drawn  # membank dashboard
    for changed in (layout.registry_file, layout.raw_manifest_file, layout.graph_file):
        target.write_text(drawn.replace("part-00002", "MARKED"))
        changed.write_text(changed.read_text().replace('"2026-01-10T08:00:00Z"', '"2026-01-11T08:00:00Z"', 1))
        assert "MARKED" not in write_graph_view(layout.root).read_text(), changed


def test_front_matter_reads_the_two_hub_keys_and_falls_back_to_the_whole_block(tmp_path: Path) -> None:
    from tasks.health.dashboard.graph_view import front_matter

    page = tmp_path / "page.md"
    page.write_text("---\ntitle: 'a: b'\nmemory:\n  type: not-this-one\ntype: hub\nchild_of:\n- wiki/a.md\n"
                    "-   wiki/b\ndescription: x\n---\n# body\ntype: body\n")
    assert front_matter(page) == {"type": "hub", "child_of": ["wiki/a.md", "wiki/b"]}
    page.write_text("---\nparent: &up wiki/synthesis/index.md\nchild_of: *up\n---\n")  # alias: needs all
    assert front_matter(page) == {"parent": "wiki/synthesis/index.md", "child_of": "wiki/synthesis/index.md"}
    page.write_text("no front matter\n")
    assert front_matter(page) == {} == front_matter(tmp_path / "missing.md")


def test_a_health_write_without_drawing_leaves_the_page_as_it_is(tmp_path: Path) -> None:
    """reconcile --check writes its summary but never redraws the knowledge view (after a
    change that costs a read of the whole graph); the page it has stays linked."""
    from tasks.health.files import GRAPH_VIEW_NAME

    assert GRAPH_VIEW_NAME == GRAPH_VIEW_FILE
    layout = build_graph_memory(tmp_path / "memory", extra=3)
    paths = write_health(layout.root, summary("2026-03-24T23:00:00Z"), draw_graph_view=False)
    assert "graph_view" not in paths and not (layout.root / "context/health" / GRAPH_VIEW_FILE).exists()
    drawn = write_graph_view(layout.root).read_text()
    layout.graph_file.write_text(layout.graph_file.read_text().replace("part-00002", "part-00009"))
    paths = write_health(layout.root, summary("2026-03-24T23:05:00Z"), draw_graph_view=False)
    assert (layout.root / paths["graph_view"]).read_text() == drawn
    paths = write_health(layout.root, summary("2026-03-24T23:10:00Z"))
    assert (layout.root / paths["graph_view"]).read_text() != drawn
