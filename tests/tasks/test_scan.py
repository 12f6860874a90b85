"""The cached scan: facts per file, the fast normalization check, link extraction."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from schemas.graph import GraphEntity, GraphRelation, KnowledgeGraph
from tasks.graph_store import normalize_graph
from tasks.scan import graph_is_normalized, markdown_links, parse_page_facts

NAMES = st.sampled_from(["alpha", "Alpha", "beta", "gamma ", "delta"])
TEXTS = st.sampled_from(["a", "b", " b", "c", "status: x", "status: y"])


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(NAMES, st.lists(TEXTS, max_size=4)), max_size=5),
       st.lists(st.tuples(NAMES, NAMES), max_size=4))
def test_fast_normalized_check_agrees_with_normalize_graph(entities, relations) -> None:
    graph = KnowledgeGraph(
        graphGeneratedAtUtc="2026-03-24T22:40:05Z",
        entities=[GraphEntity(entityName=n, entityType="service", observations=o)
                  for n, o in entities],
        relations=[GraphRelation(sourceEntityName=s, targetEntityName=t, relationType="uses")
                   for s, t in relations])
    same = normalize_graph(graph).model_dump() == graph.model_dump()
    assert graph_is_normalized(graph) == same
    assert graph_is_normalized(normalize_graph(graph))


def test_markdown_links_resolve_relative_and_skip_fences_and_urls() -> None:
    body = ("See [a](../entities/x.md#part) and [b](<y z.md>) and [web](https://e.org/x.md)\n"
            "```\n[in code](nope.md)\n```\n[anchor](#top) ![img](img/p%20q.png)\n")
    assert markdown_links("wiki/concepts/p.md", body) == [
        "wiki/concepts/img/p q.png", "wiki/entities/x.md"]


@pytest.mark.parametrize(("data", "code"), [
    (b"\xff\xfe", "invalid_utf8"),
    (b"---\na: [\n---\nbody\n", "broken_frontmatter"),
    (b"# just text\n", "missing_frontmatter"),
    (b"---\ntype: note\n---\nbody\n", "invalid_frontmatter"),
])
def test_page_problems_never_raise(data: bytes, code: str) -> None:
    assert parse_page_facts("wiki/concepts/p.md", data)["problem"]["code"] == code
