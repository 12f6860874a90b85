"""The graph's scan facts on plain dicts (tasks/checks/graph_facts.py) are those of the model path."""

from __future__ import annotations

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from schemas.graph import KnowledgeGraph
from tasks.checks.entity_rows import graph_digests
from tasks.checks.graph_facts import (
    _ATTRIBUTE_RE,
    GraphFactsBuilder,
    _attribute,
    content_facts,
    graph_facts_and_digests,
    graph_json,
    observation_digest,
    observation_digests,
)
from tasks.checks.scan import _stream_graph, content_hash, parse_jsonc_facts
from tasks.store.filememo import file_identity
from tasks.store.graph_order import graph_is_normalized
from tasks.store.graph_store import normalize_graph, save_graph
from tasks.store.written import as_written, record_validated

GRAPH = "context/knowledge-graph.index.jsonc"
NAMES = st.sampled_from(["alpha", "Alpha", "- beta", "gamma ", "delta"])
TEXTS = st.sampled_from(["owner: team a", "owner: team b #x", "x", " spaced ", "b b", "old fact"])
PROVENANCE = st.fixed_dictionaries({
    "observation": TEXTS, "sourcePage": st.sampled_from(["wiki/sources/a.md", "wiki/sources/b.md"]),
    "rawAssetId": st.sampled_from(["r1", "r2"]), "lineStart": st.integers(1, 3),
    "lineEnd": st.integers(1, 3)})
SUPERSEDED = st.fixed_dictionaries(
    {"observation": TEXTS, "supersededAtUtc": st.just("2026-01-10T08:00:00Z"),
     "reason": st.just("replaced")},
    optional={"supersededBy": st.sampled_from(["new", "", None])})
ENTITY = st.fixed_dictionaries(
    {"entityName": NAMES, "entityType": st.sampled_from(["service", "person"])},
    optional={"observations": st.lists(TEXTS, max_size=4),
              "observationProvenance": st.lists(PROVENANCE, max_size=3),
              "supersededObservations": st.lists(SUPERSEDED, max_size=2)})
RELATION = st.fixed_dictionaries(
    {"sourceEntityName": NAMES, "targetEntityName": NAMES,
     "relationType": st.sampled_from(["uses", "depends_on", "weird_verb"])},
    optional={"relationProvenance": st.lists(st.just({"sourcePage": "p", "rawAssetId": "q"}),
                                             max_size=1)})


def facts_bytes(data: bytes) -> bytes:
    facts, transient = parse_jsonc_facts(GRAPH, data)
    # the digests as the baseline file writes them (tasks/checks/digest_table.py)
    return orjson.dumps([facts, transient], option=orjson.OPT_SORT_KEYS,
                        default=lambda table: table.mapping())


@settings(max_examples=120, deadline=None)
@given(st.lists(ENTITY, max_size=5), st.lists(RELATION, max_size=4))
def test_dict_path_facts_equal_the_model_path(entities, relations) -> None:
    graph = {"graphGeneratedAtUtc": "2026-01-10T08:00:00Z", "entities": entities,
             "relations": relations}
    fast = orjson.dumps(graph, option=orjson.OPT_INDENT_2)
    # A comment sends the same graph down the JSONC path, which validates pydantic models.
    slow = fast.replace(b'"entities"', b'// hand-written\n  "entities"', 1)
    assert facts_bytes(fast) == facts_bytes(slow)
    assert orjson.loads(facts_bytes(fast))[0]["problem"] is None


def test_null_relation_provenance_is_read_by_the_model_path() -> None:
    graph = {"graphGeneratedAtUtc": "2026-01-10T08:00:00Z",
             "entities": [{"entityName": "alpha", "entityType": "service"}],
             "relations": [{"sourceEntityName": "alpha", "targetEntityName": "alpha",
                            "relationType": "uses", "relationProvenance": None}]}
    facts, _ = parse_jsonc_facts(GRAPH, orjson.dumps(graph))
    assert facts["problem"] is None
    assert facts["entities_without_evidence"] == ["alpha"]


def test_broken_field_is_a_problem_naming_it() -> None:
    graph = {"graphGeneratedAtUtc": "2026-01-10T08:00:00Z",
             "entities": [{"entityName": "alpha", "entityType": ""}], "relations": []}
    facts, _ = parse_jsonc_facts(GRAPH, orjson.dumps(graph))
    assert facts["problem"] is not None and "entityType" in facts["problem"]["message"]


@settings(max_examples=120, deadline=None)
@given(st.lists(ENTITY, max_size=5), st.lists(RELATION, max_size=4))
def test_entity_by_entity_facts_equal_the_whole_graph_functions(entities, relations) -> None:
    """GraphFactsBuilder (one entity at a time, relations last) gives what the whole-graph
    functions give: content facts, normalized, entity rows, observation digests."""
    graph = {"graphGeneratedAtUtc": "2026-01-10T08:00:00Z", "entities": entities,
             "relations": relations}
    data = dict(graph_json(orjson.dumps(graph)))
    facts, digests = graph_facts_and_digests(data)
    assert {k: facts[k] for k in ("entities_without_evidence", "names_with_markup",
                                  "unknown_relation_types")} == content_facts(data)
    assert facts["normalized"] == graph_is_normalized(data)
    assert orjson.dumps(facts["entity_rows"]) == orjson.dumps(graph_digests(data))
    assert orjson.dumps(digests) == orjson.dumps(observation_digests(data))


def test_streamed_scan_of_a_written_graph_equals_the_whole_read(tmp_path) -> None:
    """The scan reads a graph membank wrote entity by entity: same facts, transient and hash."""
    (tmp_path / "context").mkdir()
    (tmp_path / ".membank").mkdir()
    graph_file = tmp_path / GRAPH
    graph = KnowledgeGraph.model_validate({
        "graphGeneratedAtUtc": "2026-01-10T08:00:00Z",
        "entities": [{"entityName": n, "entityType": "service", "observations": ["owner: a", "x y"]}
                     for n in ("beta", "alpha")],
        "relations": [{"sourceEntityName": "alpha", "targetEntityName": "gone",
                       "relationType": "uses"}]})
    save_graph(graph_file, graph, now_iso="2026-01-10T08:00:00Z")
    streamed = _stream_graph(graph_file)
    assert streamed is not None
    data = graph_file.read_bytes()
    facts, transient = parse_jsonc_facts(GRAPH, data, trusted=True)
    assert orjson.dumps(streamed[0]) == orjson.dumps(facts)
    assert streamed[1]["obs_digests"].blob == transient["obs_digests"].blob
    assert streamed[1]["stale"] == {"groups": {}, "marked": 0}  # no provenance: nothing to age
    assert streamed[2:] == (content_hash(data), len(data))

    # a hand edit in the same layout (other bytes: the same bytes copied are trusted by their
    # sha256, tasks/store/written.py) is validated entity by entity, then trusted as written
    edited = data.replace(b'"x y"', b'"x y z"')
    graph_file.write_bytes(edited)
    assert not as_written(graph_file)
    streamed = _stream_graph(graph_file)
    assert streamed is not None
    facts, transient = parse_jsonc_facts(GRAPH, edited)
    assert orjson.dumps(streamed[0]) == orjson.dumps(facts)
    assert streamed[1]["obs_digests"].blob == transient["obs_digests"].blob
    assert streamed[2:] == (content_hash(edited), len(edited))
    assert not as_written(graph_file)  # not normalized ("beta" first): reconcile rewrites it
    save_graph(graph_file, normalize_graph(graph), now_iso="2026-01-10T08:00:00Z")
    graph_file.write_bytes(graph_file.read_bytes().replace(b'"x y"', b'"x y z"'))
    assert not as_written(graph_file)
    assert _stream_graph(graph_file) is not None
    assert as_written(graph_file)  # valid and normalized: the readers after the scan stream it


@pytest.mark.parametrize(("old", "new"), [
    (b'"entityType": "service"', b'"entityType": ""'),  # breaks the schema
    (b'"entityType": "service"', b'"entityType": 7'),
    (b'"graphGeneratedAtUtc": "2026-01-10T08:00:00Z"', b'"graphGeneratedAtUtc": "soon"'),
    (b'"relationType": "uses"', b'"relationType": "Uses it"'),
    (b'"entities": [\n', b'"entities": [ // hand-written note\n'),  # JSONC: another layout
])
def test_a_hand_edit_that_breaks_the_schema_or_layout_is_read_whole(tmp_path, old: bytes,
                                                                    new: bytes) -> None:
    """The streamed validation refuses what the whole read refuses (that path names the
    field), and never records such a file as validated."""
    (tmp_path / "context").mkdir()
    (tmp_path / ".membank").mkdir()
    graph_file = tmp_path / GRAPH
    graph = KnowledgeGraph.model_validate({
        "graphGeneratedAtUtc": "2026-01-10T08:00:00Z",
        "entities": [{"entityName": "alpha", "entityType": "service", "observations": ["x y"]}],
        "relations": [{"sourceEntityName": "alpha", "targetEntityName": "alpha",
                       "relationType": "uses"}]})
    save_graph(graph_file, graph, now_iso="2026-01-10T08:00:00Z")
    data = graph_file.read_bytes()
    assert data.count(old) == 1
    graph_file.write_bytes(data.replace(old, new))
    assert _stream_graph(graph_file) is None
    assert not as_written(graph_file)
    facts, _ = parse_jsonc_facts(GRAPH, graph_file.read_bytes())
    assert facts["problem"] is not None or new.startswith(b'"entities"')


def test_a_graph_changed_while_it_was_validated_is_not_recorded(tmp_path) -> None:
    (tmp_path / "context").mkdir()
    (tmp_path / ".membank").mkdir()
    graph_file = tmp_path / GRAPH
    graph_file.write_bytes(b"{}")
    identity = file_identity(graph_file)
    assert identity is not None
    graph_file.write_bytes(b"{ }")
    record_validated(graph_file, identity, content_hash(b"{}"))
    assert not as_written(graph_file)


_OBSERVATION_PARTS = st.sampled_from(
    ["owner", "Owner", "on call", "a b c", "a b c d", ":", ": ", " :", "[fact]", "[a: b]", "[",
     "]", " ", "  ", "\t", "\u00a0", "\u2003", "x", "9", "-", "_", "#tag", "value", "é", "\n"])


@settings(max_examples=1500, deadline=None)
@given(st.lists(_OBSERVATION_PARTS, max_size=9).map("".join))
def test_the_attribute_prefilter_matches_what_the_regex_matches(text: str) -> None:
    """_attribute declines only observations _ATTRIBUTE_RE would not match, and otherwise is
    its match (keys of one to four words, tags, blanks of every kind before the colon)."""
    stripped = text.strip()
    got, want = _attribute(stripped), _ATTRIBUTE_RE.match(stripped)
    assert (got and got.groups()) == (want and want.groups()), stripped


def test_builder_digests_are_observation_digest_of_each_text() -> None:
    """The builder hashes an entity's "<key>|" once and each text on a copy of that state:
    the digests observation_digest gives one by one (a name and texts beyond ASCII, padded
    texts, superseded ones, an entity with none)."""
    builder = GraphFactsBuilder()
    builder.add({"entityName": " Zürich-Dienst ", "entityType": "service",
                 "observations": ["  läuft auf Kubernetes ", "owner: plattform"],
                 "supersededObservations": [{"observation": "alt: ja ", "supersededBy": "x"}]})
    builder.add({"entityName": "empty", "entityType": "service"})
    texts = ["läuft auf Kubernetes", "owner: plattform", "alt: ja"]
    assert builder.digests == {observation_digest(" Zürich-Dienst ", t): f" Zürich-Dienst : {t}"
                               for t in texts}
