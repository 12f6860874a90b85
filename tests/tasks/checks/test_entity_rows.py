"""What an entity page shows of the graph, compared row by row (reconcile's entity_page_drift)."""

from __future__ import annotations

from schemas.graph import KnowledgeGraph
from tasks.checks.entity_rows import differences, graph_digests, graph_rows, page_digest, page_rows
from tasks.distill.entity_pages import EntityPageContext, render_entity_body

GRAPH = KnowledgeGraph.model_validate({
    "graphGeneratedAtUtc": "2026-03-24T22:40:05Z",
    "entities": [
        {"entityName": "Memory Writer", "entityType": "component",
         "observations": ["[fact] Writes one batch (at a time)", "[fact] Holds the lock"],
         "observationProvenance": [{"observation": "[fact] Holds the lock",
                                    "sourcePage": "wiki/sources/x__notes.md", "rawAssetId": "a" * 64,
                                    "lineStart": 3, "lineEnd": 4}]},
        {"entityName": "Lock [File]", "entityType": "file", "observations": ["[fact] Lives in .membank"]},
    ],
    "relations": [{"sourceEntityName": "Memory Writer", "targetEntityName": "Lock [File]",
                   "relationType": "depends_on"}],
})
CONTEXT = EntityPageContext({"lock [file]": "wiki/entities/x__lock-file.md"},
                            {"wiki/sources/x__notes.md": "Notes [draft]"}, {})


def _body(name: str) -> str:
    data = GRAPH.model_dump(mode="json", exclude_none=True)
    entity = next(e for e in data["entities"] if e["entityName"] == name)
    outgoing = [r for r in data["relations"] if r["sourceEntityName"] == name]
    incoming = [r for r in data["relations"] if r["targetEntityName"] == name]
    return render_entity_body(f"wiki/entities/x__{name}.md", entity, outgoing, incoming, CONTEXT)


def test_a_rendered_page_shows_exactly_the_graphs_rows() -> None:
    digests = graph_digests(GRAPH)
    assert page_digest(_body("Memory Writer")) == digests["memory writer"]
    assert page_digest(_body("Lock [File]")) == digests["lock [file]"]
    assert page_rows(_body("Memory Writer")) == graph_rows(GRAPH)["memory writer"]
    assert graph_rows(GRAPH)["lock [file]"][1] == ["in|depends_on|memory writer"]


def test_a_name_with_backslashes_shows_the_graphs_rows() -> None:
    # A document titled with a literal "\\n" or a Windows path: its page's link text is escaped
    # as written and read back as the same name, so a fresh page is no drift.
    for name in ("Note\\n\\nThe team", "C:\\new\\table [v2]", "regex \\d+\\\\"):
        graph = KnowledgeGraph.model_validate({
            "graphGeneratedAtUtc": "2026-03-24T22:40:05Z",
            "entities": [{"entityName": "Redis", "entityType": "technology", "observations": []},
                         {"entityName": name, "entityType": "document", "observations": []}],
            "relations": [{"sourceEntityName": name, "targetEntityName": "Redis",
                           "relationType": "about"}]})
        context = EntityPageContext({name.lower(): "wiki/entities/x__note.md"}, {}, {})
        data = graph.model_dump(mode="json", exclude_none=True)
        body = render_entity_body("wiki/entities/x__redis.md", data["entities"][0], [],
                                  data["relations"], context)
        assert page_digest(body) == graph_digests(graph)["redis"], name


def test_an_edited_row_or_a_hand_paragraph_is_a_difference() -> None:
    body = _body("Memory Writer")
    edited = body.replace("- [fact] Holds the lock", "- [fact] Holds no lock")
    shown = page_rows(edited)
    assert shown is not None
    extra, missing = differences(shown[0], graph_rows(GRAPH)["memory writer"][0])
    assert extra == ["[fact] Holds no lock"] and missing == ["[fact] Holds the lock"]
    noted = body.replace("## Relations\n", "## Relations\n\nWe also think it is slow.\n")
    assert page_digest(noted) != graph_digests(GRAPH)["memory writer"]


def test_a_page_without_an_observations_section_is_not_compared() -> None:
    assert page_rows("# Planner\n\nA hand-written entity page.\n") is None
