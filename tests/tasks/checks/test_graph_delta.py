"""`reconcile --check` right after an ingest reads the graph by the entities the ingest's
distill wrote (tasks/checks/graph_delta.py, tasks/store/graph_delta.py), and reports exactly
what the full check reports: after ingests, after a hand edit of a page, a corrupt or hand-edited
graph, a deleted page, and erased facts."""

from __future__ import annotations

import json
from pathlib import Path

import orjson
import pytest

from flows.ingest import ingest_flow
from schemas.graph import entity_key
from tasks.checks import graph_delta as check_side
from tasks.checks.reconcile import reconcile_memory
from tasks.checks.reconcile.verdict import VERDICT_FILE
from tasks.checks.scan import load_cache, scan_memory
from tasks.store.graph_delta import DELTA_FILE
from tasks.store.graph_order import relation_key
from tasks.store.graph_segments import GraphSegments, save_graph_changes
from tasks.store.operation import begin_operation, writing_operation
from tasks.store.settings import load_settings

GRAPH = "context/knowledge-graph.index.jsonc"
CLOCK = "2026-03-24T10:00:00Z"

DECISION = """# Decision: adopt the {name} queue

## Status

Accepted.

## Context

The ingest path needed a buffer between producers and consumers; {name} was measured.

## Decision

We adopt the {name} queue for the ingest path, revision {rev}.

## Consequences

- Operators watch the {name} queue depth.
- Owner: platform team
"""


def ingest(root: Path, notes: Path, name: str, rev: int, monkeypatch: pytest.MonkeyPatch) -> None:
    note = notes / f"decision-{name}.md"
    note.write_text(DECISION.format(name=name, rev=rev), encoding="utf-8")
    monkeypatch.setenv("MEMBANK_FIXED_CLOCK", CLOCK)
    ingest_flow(paths=[str(note)], root=str(root))


def reconcile(root: Path, *, check: bool):
    settings = load_settings(root, fixed_clock=CLOCK)
    if check:
        return reconcile_memory(begin_operation(settings, "reconcile"), check=True)[1]
    with writing_operation(settings, "reconcile") as operation:
        return reconcile_memory(operation, check=False)[1]


def found(summary) -> tuple:
    return (summary.status, summary.counts.model_dump(),
            [f.model_dump() for f in summary.findings])


def full_check(root: Path):
    """--check without the verdict file: no delta (the cache and baseline pair unproven), the
    graph read whole; the file put back as it was."""
    kept = (root / VERDICT_FILE).read_bytes()
    (root / VERDICT_FILE).unlink()
    try:
        return reconcile(root, check=True)
    finally:
        (root / VERDICT_FILE).write_bytes(kept)


@pytest.fixture
def reads(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """Whether each check read the graph by delta."""
    taken: list[bool] = []
    real = check_side.read_graph_delta

    def counting(graph_file, cached, erased=None):
        got = real(graph_file, cached, erased)
        taken.append(got is not None)
        return got

    monkeypatch.setattr(check_side, "read_graph_delta", counting)
    return taken


def three_decisions(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    """A memory (and its notes folder) of three ingested decisions, not reconciled yet."""
    root, notes = tmp_path / "memory", tmp_path / "notes"
    notes.mkdir()
    for name in ("kafka", "rabbit", "nats"):
        ingest(root, notes, name, 0, monkeypatch)
    return root, notes


@pytest.fixture
def settled(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    """A memory of three decisions, reconciled until it records a verdict."""
    root, notes = three_decisions(tmp_path, monkeypatch)
    reconcile(root, check=False)
    reconcile(root, check=False)
    assert (root / VERDICT_FILE).exists()
    return root, notes


def test_check_after_ingests_reads_the_graph_by_delta_and_finds_what_the_full_check_finds(
        settled: tuple[Path, Path], reads: list[bool], monkeypatch: pytest.MonkeyPatch) -> None:
    root, notes = settled
    ingest(root, notes, "kafka", 1, monkeypatch)  # a new revision of a known entity
    ingest(root, notes, "pulsar", 0, monkeypatch)  # a new entity and relations
    steps = orjson.loads((root / DELTA_FILE).read_bytes())["steps"]
    assert len(steps) >= 2 and steps[-2]["to"] == steps[-1]["from"]
    assert None in steps[1]["old"].values()  # the new entity
    assert steps[1]["ends"]  # its relations
    reads.clear()  # the repair runs before it read the graph by delta too
    by_delta = reconcile(root, check=True)
    assert reads == [True]
    assert found(by_delta) == found(full_check(root))
    assert reads == [True]  # the full check did not try the delta


def test_delta_facts_equal_the_whole_file_s(settled: tuple[Path, Path],
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    root, notes = settled
    ingest(root, notes, "rabbit", 2, monkeypatch)
    ingest(root, notes, "zeromq", 0, monkeypatch)
    cache = load_cache(root)
    delta = scan_memory(root, cache, graph_delta=True)
    whole = scan_memory(root, load_cache(root))
    assert "erased_delta" in delta.transient[GRAPH]
    assert orjson.dumps(delta.files[GRAPH]["facts"]) == orjson.dumps(whole.files[GRAPH]["facts"])


def test_a_page_edited_by_hand_after_an_ingest_is_found(
        settled: tuple[Path, Path], reads: list[bool], monkeypatch: pytest.MonkeyPatch) -> None:
    root, notes = settled
    ingest(root, notes, "nats", 1, monkeypatch)
    page = next((root / "wiki" / "entities").glob("*__*.md"))
    page.write_text(page.read_text() + "\nSee [the plan](missing-plan.md).\n")
    reads.clear()  # the repair runs before it read the graph by delta too
    by_delta = reconcile(root, check=True)
    assert reads == [True]
    assert "dead_link" in {f.code for f in by_delta.findings}
    assert found(by_delta) == found(full_check(root))


def test_a_deleted_page_after_an_ingest_is_found(
        settled: tuple[Path, Path], reads: list[bool], monkeypatch: pytest.MonkeyPatch) -> None:
    root, notes = settled
    ingest(root, notes, "nats", 1, monkeypatch)
    next((root / "wiki" / "entities").glob("*__*.md")).unlink()
    reads.clear()  # the repair runs before it read the graph by delta too
    by_delta = reconcile(root, check=True)
    assert reads == [True]
    assert {"entity_page_missing", "index_stale_entry"} & {f.code for f in by_delta.findings}
    assert found(by_delta) == found(full_check(root))


def test_a_graph_edited_by_hand_after_an_ingest_is_read_whole(
        settled: tuple[Path, Path], reads: list[bool], monkeypatch: pytest.MonkeyPatch) -> None:
    """An observation erased by hand: the file is no longer as membank wrote it."""
    root, notes = settled
    ingest(root, notes, "kafka", 1, monkeypatch)
    graph = json.loads((root / GRAPH).read_text())
    entity = next(e for e in graph["entities"] if len(e["observations"]) > 1)
    entity["observations"].pop()
    (root / GRAPH).write_text(json.dumps(graph, indent=2))
    by_delta = reconcile(root, check=True)
    assert reads == [False]
    assert "fact_erased" in {f.code for f in by_delta.findings}
    assert found(by_delta) == found(full_check(root))


def test_a_corrupt_graph_after_an_ingest_is_found(
        settled: tuple[Path, Path], reads: list[bool], monkeypatch: pytest.MonkeyPatch) -> None:
    root, notes = settled
    ingest(root, notes, "kafka", 1, monkeypatch)
    data = (root / GRAPH).read_bytes()
    (root / GRAPH).write_bytes(data[: len(data) // 2])
    by_delta = reconcile(root, check=True)
    assert reads == [False]
    assert any(f.path == GRAPH and f.severity == "error" for f in by_delta.findings)
    assert found(by_delta) == found(full_check(root))


@pytest.fixture
def deep_checks(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """One entry per deep check (SQLite's quick_check) of the search index."""
    from tasks.search import index as search_index

    made: list[bool] = []
    real = search_index._deep_ok

    def counted(conn: object) -> bool:
        made.append(True)
        return real(conn)

    monkeypatch.setattr(search_index, "_deep_ok", counted)
    return made


def test_the_search_index_the_ingest_updated_is_not_deep_checked_again(
        settled: tuple[Path, Path], deep_checks: list[bool],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The index file the ingests' updates left from one whose deep check passed (its record,
    tasks/search/index_checked.py): the check finds what it finds with the deep check made."""
    from tasks.search.index_checked import CHECKED_FILE

    root, notes = settled
    index = root / ".membank/search.sqlite3"
    before = index.stat()
    ingest(root, notes, "kafka", 1, monkeypatch)
    ingest(root, notes, "pulsar", 0, monkeypatch)
    assert index.stat().st_mtime_ns != before.st_mtime_ns  # the ingests updated it
    by_delta = reconcile(root, check=True)
    assert deep_checks == []
    (root / CHECKED_FILE).unlink()
    assert found(by_delta) == found(full_check(root))
    assert deep_checks == [True]


def test_a_search_index_damaged_by_hand_after_an_ingest_is_found(
        settled: tuple[Path, Path], deep_checks: list[bool],
        monkeypatch: pytest.MonkeyPatch) -> None:
    root, notes = settled
    ingest(root, notes, "kafka", 1, monkeypatch)
    index = root / ".membank/search.sqlite3"
    size = index.stat().st_size
    with index.open("r+b") as damaged:  # the header and the size kept, pages broken
        damaged.seek(size // 2)
        damaged.write(b"\xff" * 4096)
    by_delta = reconcile(root, check=True)
    assert deep_checks  # (made ahead, then again when that one failed)
    assert "search_index_corrupt" in {f.code for f in by_delta.findings}
    assert found(by_delta) == found(full_check(root))


def test_erased_facts_follow_the_delta(settled: tuple[Path, Path], reads: list[bool],
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """An observation erased by hand and reconciled (the cache and baseline record it erased),
    then ingests: the check by delta still reports it, as the full check does."""
    root, notes = settled
    hand_made = "Note: a fact no source states"
    graph = json.loads((root / GRAPH).read_text())
    graph["entities"][-1]["observations"].append(hand_made)
    (root / GRAPH).write_text(json.dumps(graph, indent=2))
    reconcile(root, check=False)  # the baseline holds it
    graph["entities"][-1]["observations"].remove(hand_made)
    (root / GRAPH).write_text(json.dumps(graph, indent=2))
    assert "fact_erased" in {f.code for f in reconcile(root, check=False).findings}
    ingest(root, notes, "pulsar", 0, monkeypatch)  # the graph, not as membank wrote it, whole
    reconcile(root, check=False)
    reconcile(root, check=False)
    ingest(root, notes, "kafka", 3, monkeypatch)
    reads.clear()  # the repair runs before it read the graph by delta too
    by_delta = reconcile(root, check=True)
    assert reads == [True]
    assert "fact_erased" in {f.code for f in by_delta.findings}
    assert found(by_delta) == found(full_check(root))


def test_a_check_made_between_ingests_starts_the_delta_at_its_own_cache(
        settled: tuple[Path, Path], reads: list[bool], monkeypatch: pytest.MonkeyPatch) -> None:
    """A repair run between two ingests: the next check composes the steps after it alone."""
    root, notes = settled
    ingest(root, notes, "kafka", 1, monkeypatch)
    reconcile(root, check=False)
    reconcile(root, check=False)
    ingest(root, notes, "rabbit", 1, monkeypatch)
    ingest(root, notes, "kafka", 2, monkeypatch)
    reads.clear()  # the repair runs before it read the graph by delta too
    by_delta = reconcile(root, check=True)
    assert reads == [True]
    assert found(by_delta) == found(full_check(root))


def test_a_relation_dropped_and_an_entity_emptied_by_a_write_by_entity(
        settled: tuple[Path, Path], reads: list[bool]) -> None:
    """membank's writer itself drops a relation from both lists (an erased fact) and empties an
    entity (no evidence): the check by delta reports both, as the full check does."""
    root, _notes = settled
    segments = GraphSegments.load(root / GRAPH)
    assert segments is not None
    frame = segments.frame()
    dropped = frame["relations"].pop(0)
    key = entity_key(dropped["sourceEntityName"])
    entity = segments.entity(key)
    entity["observations"], entity["observationProvenance"] = [], []
    rest = {k: v for k, v in frame.items() if k not in ("graphGeneratedAtUtc", "entities")}
    assert save_graph_changes(segments, {key: entity}, rest, now_iso=CLOCK)
    delta = scan_memory(root, load_cache(root), graph_delta=True)
    whole = scan_memory(root, load_cache(root))
    assert orjson.dumps(delta.files[GRAPH]["facts"]) == orjson.dumps(whole.files[GRAPH]["facts"])
    by_delta = reconcile(root, check=True)
    assert reads == [True, True]  # the scan above, then the check
    codes = {f.code for f in by_delta.findings}
    assert "fact_erased" in codes
    assert found(by_delta) == found(full_check(root))


def test_an_unchanged_entity_without_evidence_is_still_found(
        settled: tuple[Path, Path], reads: list[bool], monkeypatch: pytest.MonkeyPatch) -> None:
    """An entity with no observation and no source, written before the last repair run and not
    touched by the ingest after it: its cached counts mark it to be read again."""
    root, notes = settled
    segments = GraphSegments.load(root / GRAPH)
    assert segments is not None
    frame = segments.frame()
    rest = {k: v for k, v in frame.items() if k not in ("graphGeneratedAtUtc", "entities")}
    loose = {"entityName": "Loose end", "entityType": "concept", "observations": []}
    assert save_graph_changes(segments, {entity_key("Loose end"): loose}, rest, now_iso=CLOCK)
    reconcile(root, check=False)
    reconcile(root, check=False)
    ingest(root, notes, "kafka", 1, monkeypatch)
    reads.clear()  # the repair runs before it read the graph by delta too
    by_delta = reconcile(root, check=True)
    assert reads == [True]
    assert "entity_without_evidence" in {f.code for f in by_delta.findings}
    assert found(by_delta) == found(full_check(root))


def _write_by_entity(root: Path, key: str, change, relations=None) -> None:  # type: ignore[no-untyped-def]
    """membank's writer by entity: entity `key` changed by `change`, the relations replaced
    by `relations` (sorted as the writer keeps them) when given."""
    segments = GraphSegments.load(root / GRAPH)
    assert segments is not None
    frame = segments.frame()
    entity = segments.entity(key)
    change(entity)
    rest = {k: v for k, v in frame.items() if k not in ("graphGeneratedAtUtc", "entities")}
    if relations is not None:
        rest["relations"] = sorted(relations, key=relation_key)
    assert save_graph_changes(segments, {key: entity}, rest, now_iso=CLOCK)


def test_a_relation_erased_by_hand_then_written_back_by_entity_is_no_longer_erased(
        settled: tuple[Path, Path], reads: list[bool], monkeypatch: pytest.MonkeyPatch) -> None:
    """An erased fact the changed entities do not hold: the check by delta hashes every
    relation to see whether the graph holds it again (graph_delta._asked_sources)."""
    root, notes = settled
    graph = json.loads((root / GRAPH).read_text())
    dropped = graph["relations"].pop(0)
    (root / GRAPH).write_text(json.dumps(graph, indent=2))
    assert "fact_erased" in {f.code for f in reconcile(root, check=False).findings}
    ingest(root, notes, "pulsar", 0, monkeypatch)  # the graph written whole by membank again
    reconcile(root, check=False)
    reconcile(root, check=False)
    relations = [*GraphSegments.load(root / GRAPH).frame()["relations"], dropped]  # type: ignore[union-attr]
    _write_by_entity(root, entity_key(dropped["sourceEntityName"]), lambda e: None, relations)
    reads.clear()  # the repair runs before it read the graph by delta too
    by_delta = reconcile(root, check=True)
    assert reads == [True]
    assert "fact_erased" not in {f.code for f in by_delta.findings}
    assert found(by_delta) == found(full_check(root))


def test_an_observation_dropped_whose_digest_a_relation_of_its_entity_has_is_not_erased(
        settled: tuple[Path, Path], reads: list[bool]) -> None:
    """An entity's observation that spells one of its relations as the digests take it: when
    a write drops the observation the relation still holds the digest, so nothing is erased;
    the check by delta hashes that entity's relations to know (graph_delta._asked_sources)."""
    root, _notes = settled
    relation = GraphSegments.load(root / GRAPH).frame()["relations"][0]  # type: ignore[union-attr]
    key = entity_key(relation["sourceEntityName"])
    spelled = f"relation {relation['relationType']} {entity_key(relation['targetEntityName'])}"

    def add(entity):  # type: ignore[no-untyped-def]
        entity["observations"] = sorted([*entity["observations"], spelled])

    _write_by_entity(root, key, add)
    reconcile(root, check=False)
    reconcile(root, check=False)
    _write_by_entity(root, key, lambda e: e["observations"].remove(spelled))
    reads.clear()  # the repair runs before it read the graph by delta too
    by_delta = reconcile(root, check=True)
    assert reads == [True]
    assert "fact_erased" not in {f.code for f in by_delta.findings}
    assert found(by_delta) == found(full_check(root))


def test_asked_sources_hash_every_relation_when_an_erased_fact_is_not_answered() -> None:
    asked = {"kafka"}
    assert check_side._asked_sources(asked, {"d1"}, None) is None
    assert check_side._asked_sources(asked, {"d1"}, ["d1", "d2"]) is None
    assert check_side._asked_sources(asked, {"d1", "d2"}, ["d1", "d2"]) == {"kafka"}
    assert check_side._asked_sources(set(), set(), []) == set()


@pytest.fixture
def in_step(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """Per index check by the change: whether it answered from the pages that left the
    cache's stats (True) or left it to the whole comparison (False)."""
    from tasks.search import index as search_index

    answered: list[bool] = []
    real = search_index._stale_since

    def counted(layout, since):  # type: ignore[no-untyped-def]
        got = real(layout, since)
        answered.append(got is not None)
        return got

    monkeypatch.setattr(search_index, "_stale_since", counted)
    return answered


def stale_index(summary) -> list[str]:  # type: ignore[no-untyped-def]
    return [f.message for f in summary.findings if f.code == "search_index_stale"]


def test_the_check_after_ingests_looks_up_in_the_index_only_the_pages_they_changed(
        settled: tuple[Path, Path], in_step: list[bool], monkeypatch: pytest.MonkeyPatch) -> None:
    """The repair run left the index in step with its cache; the ingests' own updates carry
    that: the index is current, found so from the changed pages alone, as the whole
    comparison finds it."""
    from tasks.search import index as search_index

    root, notes = settled
    ingest(root, notes, "kafka", 1, monkeypatch)
    ingest(root, notes, "pulsar", 0, monkeypatch)
    looked: list[int] = []
    real = search_index._entries_of
    monkeypatch.setattr(search_index, "_entries_of",
                        lambda conn, paths: looked.append(len(paths)) or real(conn, paths))
    by_delta = reconcile(root, check=True)
    assert in_step == [True]
    pages = sum(1 for _ in root.rglob("*.md"))
    assert 0 < sum(looked) < pages // 2  # the changed pages, not every page
    assert stale_index(by_delta) == []
    assert found(by_delta) == found(full_check(root))
    assert in_step == [True]  # the full check (its cache loaded whole) compared every page


@pytest.mark.parametrize("change", ["edited", "deleted", "added", "added_then_deleted"])
def test_pages_changed_by_hand_after_an_ingest_are_found_behind_in_the_index(
        settled: tuple[Path, Path], in_step: list[bool], monkeypatch: pytest.MonkeyPatch,
        change: str) -> None:
    """A page edited, deleted or added by hand after the ingest, and a page the ingest wrote
    then deleted by hand (not in the cache: found by the count of the index's entries, then
    listed by the whole comparison): the check finds the index behind, as the full check."""
    root, notes = settled
    ingest(root, notes, "nats", 1, monkeypatch)
    entity = next((root / "wiki" / "entities").glob("*__*.md"))
    if change == "edited":
        entity.write_text(entity.read_text() + "\nA line added by hand.\n")
    elif change == "deleted":
        entity.unlink()
    elif change == "added":
        (root / "wiki" / "concepts" / "hand-written-note.md").write_text(
            "---\ntype: concept\ntitle: Hand\n---\n\n# Hand\n\nWritten by hand.\n")
    else:  # a page the ingest wrote new, after the repair run's cache
        cached = load_cache(root)["files"]
        new = [p for p in root.rglob("*.md")
               if p.relative_to(root).as_posix() not in cached and ".membank" not in p.parts
               and "health" not in p.parts]
        assert new
        new[0].unlink()
    by_delta = reconcile(root, check=True)
    assert in_step == [change != "added_then_deleted"]  # (the count sends it to the whole)
    assert len(stale_index(by_delta)) == 1
    assert found(by_delta) == found(full_check(root))


def test_an_index_written_by_another_hand_is_compared_whole(
        settled: tuple[Path, Path], in_step: list[bool], monkeypatch: pytest.MonkeyPatch) -> None:
    """An index row changed by a hand after the ingest (the index file's identity moves, the
    record no longer names it) and a record that names another cache: the whole comparison,
    which finds the row."""
    import sqlite3

    from tasks.search.index_checked import CHECKED_FILE

    root, notes = settled
    ingest(root, notes, "kafka", 1, monkeypatch)
    record = orjson.loads((root / CHECKED_FILE).read_bytes())
    assert "cache" in record  # carried by the ingest's update
    (root / CHECKED_FILE).write_bytes(orjson.dumps({**record, "cache": [1, 2, 3, 4]}))
    assert stale_index(reconcile(root, check=True)) == []
    assert in_step == [False]
    (root / CHECKED_FILE).write_bytes(orjson.dumps(record))
    with sqlite3.connect(root / ".membank/search.sqlite3") as conn:
        conn.execute("UPDATE docs SET size = size + 1 WHERE id = (SELECT min(id) FROM docs)")
    conn.close()
    by_delta = reconcile(root, check=True)
    assert in_step == [False, False]
    assert len(stale_index(by_delta)) == 1
    assert found(by_delta) == found(full_check(root))
