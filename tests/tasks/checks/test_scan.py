"""The cached scan: facts per file, the fast normalization check, link extraction."""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from schemas.graph import GraphEntity, GraphRelation, KnowledgeGraph
from tasks.checks.scan import kind_of, markdown_links, parse_page_facts, scan_memory
from tasks.store.graph_order import graph_is_normalized
from tasks.store.graph_store import normalize_graph
from tests.memory_builder import build_healthy_memory

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
    assert graph_is_normalized(graph.model_dump(mode="json")) == same
    assert graph_is_normalized(normalize_graph(graph).model_dump(mode="json"))


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


# --- typed facts and the cache --------------------------------------------------------------


def _scanned(tmp_path):
    from tests.memory_builder import build_healthy_memory

    root = tmp_path / "memory"
    build_healthy_memory(root)
    return root


def test_typed_accessors_read_what_parse_facts_wrote(tmp_path) -> None:
    from tasks.checks.scan import latest_distill_times, scan_memory
    from tasks.store.layout import GRAPH_FILE, INDEX_FILE, MANIFEST_FILE

    root = _scanned(tmp_path)
    scan = scan_memory(root)
    graph, manifest, state = scan.graph(), scan.manifest(), scan.distill_state()
    assert graph is not None and manifest is not None and state is not None
    assert graph["entities"] and all(len(row) == 4 for row in graph["entities"])
    assert {a["rawPath"] for a in manifest["assets"]} == set(scan.of_kind("raw"))
    assert scan.page(INDEX_FILE)["entries"] and scan.problem(INDEX_FILE) is None
    absent = scan.page("wiki/concepts/absent.md")
    assert absent == {"problem": None, "meta": {}, "valid": False, "links": []}
    distilled = latest_distill_times(state)
    assert all(distilled[s["sourcePage"]] >= s["distilledAtUtc"] for s in state["sources"])
    assert latest_distill_times(None) == {}

    (root / GRAPH_FILE).write_text("{ not json")
    (root / MANIFEST_FILE).unlink()
    rescan = scan_memory(root)
    problem = rescan.problem(GRAPH_FILE)
    assert rescan.graph() is None and problem is not None and problem["code"] == "invalid_jsonc"
    assert rescan.manifest() is None and rescan.problem(MANIFEST_FILE) is None


def test_facts_read_back_from_the_cache_dump_to_the_same_bytes(tmp_path) -> None:
    """Fresh facts hold tuples, cached ones JSON arrays: the cache bytes cannot tell them apart,
    and a scan that reuses every cached fact writes the same cache."""
    from tasks.checks.scan import cache_bytes, cache_of, scan_memory

    root = _scanned(tmp_path)
    fresh = scan_memory(root)
    assert fresh.changed
    again = scan_memory(root, orjson.loads(cache_bytes(fresh)))
    assert not again.changed and cache_bytes(again) == cache_bytes(fresh)
    assert cache_of(again)["files"] == orjson.loads(cache_bytes(fresh))["files"]


def test_temp_files_in_the_state_and_health_folders_are_listed(tmp_path: Path) -> None:
    """D23: reconcile reports an interrupted index build's or health write's temp file."""
    from tasks.checks.walk import walk

    (tmp_path / ".membank").mkdir()
    (tmp_path / ".membank/.search.sqlite3.ab12cd34.tmp").write_bytes(b"x")
    (tmp_path / ".membank/.search.sqlite3.4242.tmp").write_bytes(b"x")
    (tmp_path / ".membank/search.sqlite3").write_bytes(b"x")
    (tmp_path / "context/health").mkdir(parents=True)
    (tmp_path / "context/health/membank-reconcile.prom.4242.1398").write_text("x")
    (tmp_path / "context/health/.latest.json.zz99yy88.tmp").write_text("x")
    temps: list[str] = []
    walk(tmp_path, temps)
    assert sorted(temps) == [".membank/.search.sqlite3.4242.tmp",
                             ".membank/.search.sqlite3.ab12cd34.tmp",
                             "context/health/.latest.json.zz99yy88.tmp",
                             "context/health/membank-reconcile.prom.4242.1398"]


def test_files_of_a_kind_are_sorted_once_per_files_dict(tmp_path: Path) -> None:
    root = tmp_path / "memory"
    build_healthy_memory(root)
    scan = scan_memory(root)
    kinds = ("page", "jsonc", "raw", "other")
    expected = {kind: sorted(rel for rel in scan.files if kind_of(rel) == kind) for kind in kinds}
    assert expected["page"] and expected["jsonc"] and expected["raw"]
    for kind in kinds:
        assert scan.of_kind(kind) == expected[kind]
    scan.of_kind("page").clear()  # the caller's own list: the next one is whole
    assert scan.of_kind("page") == expected["page"]
    # another files dict (a rescan's, a release's): read anew
    first = expected["page"][0]
    scan.files = {rel: entry for rel, entry in scan.files.items() if rel != first}
    assert scan.of_kind("page") == expected["page"][1:]
    scan.files = {}
    assert [scan.of_kind(kind) for kind in kinds] == [[], [], [], []]


def test_removed_files_are_the_cached_ones_walked_no_more(tmp_path: Path) -> None:
    """scan.removed: the cache's files the walk does not see; page_recheck.vanished_since
    takes them from the scan made from that cache (by part), and finds the same from another
    copy of the cache's files. A cache loaded whole is not referred to by its scan."""
    from tasks.checks.cache_parts import load_by_part
    from tasks.checks.reconcile.page_recheck import PageBasis, vanished_since
    from tasks.checks.scan import CACHE_VERSION, load_cache, save_cache

    root = tmp_path / "memory"
    build_healthy_memory(root)
    save_cache(scan_memory(root))
    assert scan_memory(root, load_cache(root)).removed_from is None
    cache = load_by_part(root, CACHE_VERSION)
    assert cache is not None
    again = scan_memory(root, cache)
    assert again.removed == set() and again.removed_from is not None
    assert again.removed_from() is cache["files"]
    pages = sorted(rel for rel in cache["files"] if rel.startswith("wiki/") and rel.endswith(".md")
                   and not rel.endswith("index.md"))
    (root / pages[0]).unlink()
    (root / pages[1]).write_bytes(b"\xff\xfe not utf-8")  # read, of no type now
    cache = load_by_part(root, CACHE_VERSION)
    assert cache is not None
    gone = scan_memory(root, cache)
    assert gone.removed == {pages[0]}
    basis = PageBasis(noted=[], dirs=[], unreadable=[], catalogs=[])  # nothing noted
    own = vanished_since(basis, cache["files"], gone)
    assert own == vanished_since(basis, dict(cache["files"]), gone)
    assert own == {pages[0], pages[1]}
