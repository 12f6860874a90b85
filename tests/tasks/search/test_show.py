"""show: a page (or one section of it) or an entity resolved through registry aliases."""

from __future__ import annotations

import pytest

from tasks.search.show import show
from tasks.store.errors import InputError
from tasks.store.layout import MemoryLayout
from tests.memory_builder import PLANNER
from tests.tasks.search.search_memory import SYNTHESIS, build_search_memory


@pytest.fixture(scope="module")
def layout(tmp_path_factory: pytest.TempPathFactory) -> MemoryLayout:
    return build_search_memory(tmp_path_factory.mktemp("show") / "mem")


def test_a_page_with_frontmatter_body_and_anchors(layout: MemoryLayout) -> None:
    shown = show(layout, SYNTHESIS)
    assert shown.kind == "page" and shown.path == SYNTHESIS
    assert shown.frontmatter["type"] == "synthesis" and shown.anchors == ["evidence", "retry-budget"]
    assert shown.body.startswith("# Upload retry budget")


def test_one_section_by_anchor(layout: MemoryLayout) -> None:
    shown = show(layout, f"{SYNTHESIS}#retry-budget")
    assert shown.body.startswith("## Budget {#retry-budget}") and "Exponential" in shown.body
    with pytest.raises(InputError, match="no section #nope"):
        show(layout, f"{SYNTHESIS}#nope")


def test_an_entity_by_alias_with_provenance_relations_and_superseded_facts(layout: MemoryLayout) -> None:
    shown = show(layout, "Main-Orchestrator")
    assert shown.kind == "entity" and shown.name == "orchestrator"
    assert {o["observation"] for o in shown.observations} == {
        "Coordinates thinker, planner and executor", "status: active"}
    assert all(o["sourcePage"] and o["lineStart"] == 3 for o in shown.observations)
    assert [(r["relationType"], r["targetEntityName"]) for r in shown.relations_out] == [
        ("delegates_to", "planner")]
    assert shown.superseded[0]["supersededBy"] == "Coordinates thinker, planner and executor"
    planner = show(layout, "planner")
    assert [r["sourceEntityName"] for r in planner.relations_in] == ["orchestrator"]


def test_unknown_names_and_paths_outside_the_root_are_one_clear_error(layout: MemoryLayout) -> None:
    with pytest.raises(InputError, match="no page or entity named 'retry budgt'") as caught:
        show(layout, "retry budgt")
    assert "nearest: Upload retry budget" in caught.value.one_line()
    with pytest.raises(InputError, match="no page or entity"):
        show(layout, "../../../etc/passwd.md")
    assert show(layout, str(layout.root / PLANNER)).path == PLANNER


def test_a_warm_process_sees_the_graph_and_registry_as_they_change(tmp_path_factory: pytest.TempPathFactory) -> None:
    import json

    from tasks.store.atomic import atomic_write_text

    layout = build_search_memory(tmp_path_factory.mktemp("warm") / "mem")
    assert show(layout, "orchestrator").kind == "entity"  # parsed and kept
    graph = json.loads(layout.graph_file.read_text())
    orchestrator = next(e for e in graph["entities"] if e["entityName"] == "orchestrator")
    orchestrator["observations"].append("Restarts a stuck planner")
    atomic_write_text(layout.graph_file, json.dumps(graph, indent=2))
    assert "Restarts a stuck planner" in {o["observation"] for o in show(layout, "orchestrator").observations}
    registry = json.loads(layout.registry_file.read_text())
    entry = next(e for e in registry["entries"] if e["canonicalName"] == "orchestrator")
    entry["aliases"] = [*entry.get("aliases", []), "Conductor"]
    layout.registry_file.write_text(json.dumps(registry, indent=2) + "\n" * 3)  # in place
    assert show(layout, "Conductor").name == "orchestrator"
