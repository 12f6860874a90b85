"""`reconcile --check` right after an ingest counts the page types and runs the entity-page gates
(one page per entity, each showing its entity's rows) from what changed since the verdict's
check (tasks/checks/reconcile/entity_recheck.py), and reports exactly what the full check
reports (`--check` without the verdict file: every page's facts): after a revision and a new
decision, and after ingests with a hand edit (a page written by hand, a moved page, a deleted
page, broken front matter, an entity page edited by hand, renamed, doubled or nameless)."""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest

from schemas.graph import entity_key
from tasks.checks.facts import FileEntry
from tasks.checks.reconcile import full
from tasks.checks.reconcile.entity_recheck import (
    EntityRecheck,
    PageTypes,
    entities_since,
    types_since,
)
from tasks.checks.reconcile.verdict import VERDICT_FILE
from tasks.checks.scan import Scan
from tasks.store import catalog
from tests.memory_builder import PREFIX, page_meta, write
from tests.tasks.checks.test_graph_delta import GRAPH, found, full_check, ingest, reconcile

ENTITIES = "wiki/entities/index.md"
CONCEPTS = "wiki/concepts/index.md"
KAFKA = "wiki/entities/2026-03-24T10-00-00Z__kafka.md"
TEAM = "wiki/entities/2026-03-24T10-00-00Z__platform-team.md"
RABBIT = "wiki/entities/2026-03-24T10-00-00Z__decision-adopt-the-rabbit-queue.md"
TOPIC_HUB = f"wiki/concepts/{PREFIX}__queues-topic.md"
CHILD = f"wiki/concepts/{PREFIX}__queue-depth.md"
BY_HAND = f"wiki/entities/{PREFIX}__queue-owners.md"


@pytest.fixture(autouse=True)
def one_process_per_command(monkeypatch: pytest.MonkeyPatch) -> None:
    """As the CLI runs: no view of index.md kept between commands."""
    monkeypatch.setattr(catalog, "_keep_view", lambda layout, view: None)


@pytest.fixture
def rechecks(monkeypatch: pytest.MonkeyPatch) -> list[EntityRecheck | None]:
    """What each check from the verdict's cache knew of the entity pages (None: all read)."""
    taken: list[EntityRecheck | None] = []
    real = full.entities_since

    def counting(*args: object) -> EntityRecheck | None:
        got = real(*args)  # type: ignore[arg-type]
        taken.append(got)
        return got

    monkeypatch.setattr(full, "entities_since", counting)
    return taken


@pytest.fixture
def memory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    """Two decisions (four entity pages), a topic hub with a child; reconciled until a verdict
    is kept whose check found the entity pages in step."""
    root, notes = tmp_path / "memory", tmp_path / "notes"
    notes.mkdir()
    for name in ("kafka", "rabbit"):
        ingest(root, notes, name, 0, monkeypatch)
    write(root, TOPIC_HUB, page_meta("hub", "Queues topic", CONCEPTS), "# Queues topic\n")
    write(root, CHILD, page_meta("concept", "Queue depth", TOPIC_HUB), "# Queue depth\n")
    for _ in range(3):
        reconcile(root, check=False)
    basis = orjson.loads((root / VERDICT_FILE).read_bytes())["pages"]
    assert basis["entities"] is True and basis["by_type"]["entity"] == 4
    assert (root / KAFKA).is_file() and (root / TEAM).is_file()
    return root, notes


def _codes(summary) -> set[str]:
    return {f.code for f in summary.findings}


def _same_as_full(root: Path) -> object:
    by_delta = reconcile(root, check=True)
    assert found(by_delta) == found(full_check(root))
    return by_delta


def test_after_a_revision_and_a_new_decision_only_the_changed_entity_pages_are_read(
        memory: tuple[Path, Path], rechecks: list[EntityRecheck | None],
        monkeypatch: pytest.MonkeyPatch) -> None:
    root, notes = memory
    ingest(root, notes, "kafka", 1, monkeypatch)  # a revision: the decision's page rewritten
    ingest(root, notes, "nats", 0, monkeypatch)  # a new decision: new entities and pages
    by_delta = _same_as_full(root)
    assert len(rechecks) == 1 and rechecks[0] is not None
    pages = rechecks[0].pages
    assert any("nats" in rel for rel in pages) and RABBIT not in pages  # unchanged: not read
    assert entity_key("Decision: adopt the nats queue") in rechecks[0].keys
    assert by_delta.counts.pages_by_type["entity"] == 5  # the new decision's
    assert not {"entity_page_missing", "entity_page_drift"} & _codes(by_delta)


def test_an_entity_page_edited_by_hand_drifts(
        memory: tuple[Path, Path], rechecks: list[EntityRecheck | None],
        monkeypatch: pytest.MonkeyPatch) -> None:
    root, notes = memory
    ingest(root, notes, "rabbit", 1, monkeypatch)
    page = root / KAFKA
    page.write_text(page.read_text(encoding="utf-8").replace(
        "## Relations\n", "- A fact added by hand.\n\n## Relations\n"), encoding="utf-8")
    by_delta = _same_as_full(root)
    assert rechecks[0] is not None and KAFKA in rechecks[0].pages
    assert "entity_page_drift" in _codes(by_delta)


def test_a_graph_entity_whose_rows_changed_without_its_page_is_read_in_full(
        memory: tuple[Path, Path], rechecks: list[EntityRecheck | None],
        monkeypatch: pytest.MonkeyPatch) -> None:
    root, notes = memory
    ingest(root, notes, "nats", 0, monkeypatch)
    graph = orjson.loads((root / GRAPH).read_bytes())
    for entity in graph["entities"]:
        if entity["entityName"].lower() == "kafka":
            entity["observations"] = entity["observations"][:-1]
    (root / GRAPH).write_bytes(orjson.dumps(graph, option=orjson.OPT_INDENT_2))
    by_delta = _same_as_full(root)
    assert rechecks == [None]  # kafka's page did not change: it may drift now
    assert "entity_page_drift" in _codes(by_delta)


def test_hand_written_entity_pages_naming_no_entity_or_nothing(
        memory: tuple[Path, Path], rechecks: list[EntityRecheck | None],
        monkeypatch: pytest.MonkeyPatch) -> None:
    root, notes = memory
    ingest(root, notes, "kafka", 1, monkeypatch)
    write(root, BY_HAND, page_meta("entity", "Queue owners", ENTITIES,
                                   entity_name="Queue owners"), "# Queue owners\n")
    nameless = f"wiki/entities/{PREFIX}__nameless.md"
    write(root, nameless, page_meta("entity", " ", ENTITIES), "# Nameless\n")
    by_delta = _same_as_full(root)
    assert rechecks[0] is not None and {BY_HAND, nameless} <= set(rechecks[0].pages)
    assert {"entity_page_not_in_graph", "entity_page_without_name"} <= _codes(by_delta)


def test_a_second_page_of_an_entity_or_a_renamed_page_is_read_in_full(
        memory: tuple[Path, Path], rechecks: list[EntityRecheck | None],
        monkeypatch: pytest.MonkeyPatch) -> None:
    root, notes = memory
    ingest(root, notes, "nats", 0, monkeypatch)
    write(root, BY_HAND, page_meta("entity", "Kafka", ENTITIES, entity_name="Kafka"),
          "# Kafka\n")
    by_delta = _same_as_full(root)
    assert rechecks == [None] and "duplicate_entity_page" in _codes(by_delta)
    (root / BY_HAND).unlink()
    page = root / RABBIT  # renamed (its entity's rows unchanged): that entity has no page now
    page.write_text(page.read_text(encoding="utf-8").replace(
        "entity_name: 'Decision: adopt the rabbit queue'", "entity_name: Rabbit decision"),
        encoding="utf-8")
    assert "Rabbit decision" in page.read_text(encoding="utf-8")
    by_delta = _same_as_full(root)
    assert rechecks[-1] is None
    assert {"entity_page_missing", "entity_page_not_in_graph"} <= _codes(by_delta)


def test_a_deleted_or_moved_page_and_broken_front_matter(
        memory: tuple[Path, Path], rechecks: list[EntityRecheck | None],
        monkeypatch: pytest.MonkeyPatch) -> None:
    root, notes = memory
    ingest(root, notes, "nats", 0, monkeypatch)
    (root / TEAM).unlink()  # vanished: every page in full
    by_delta = _same_as_full(root)
    assert rechecks == [] and "entity_page_missing" in _codes(by_delta)
    reconcile(root, check=False)  # repaired: the page rendered again
    reconcile(root, check=False)
    ingest(root, notes, "kafka", 1, monkeypatch)
    write(root, CHILD, page_meta("concept", "Queue depth", CONCEPTS), "# Queue depth, moved\n")
    broken = root / KAFKA  # its type kept, a field invalid
    broken.write_text("".join("updated_at: yesterday\n" if line.startswith("updated_at:")
                              else line for line in broken.read_text().splitlines(True)))
    by_delta = _same_as_full(root)
    assert rechecks[-1] is not None and KAFKA in rechecks[-1].pages
    assert "invalid_frontmatter" in _codes(by_delta)


def test_a_page_whose_type_changed_is_counted_as_its_new_type(
        memory: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch) -> None:
    root, notes = memory
    ingest(root, notes, "kafka", 1, monkeypatch)
    write(root, CHILD, page_meta("synthesis", "Queue depth", TOPIC_HUB), "# Queue depth\n")
    by_delta = _same_as_full(root)
    assert by_delta.counts.pages_by_type.get("synthesis") == 1


# --- the rules on small scans ----------------------------------------------------------------


def _entry(facts: object) -> FileEntry:
    return {"size": 1, "mtime_ns": 1, "ctime_ns": 1, "ino": 1, "hash": "h",
            "facts": facts}  # type: ignore[typeddict-item]


def _page(page_type: str | None, name: str | None = None) -> FileEntry:
    meta = {"type": page_type} if page_type else {}
    if name:
        meta["entity_name"] = name
    return _entry({"problem": None, "meta": meta, "valid": True, "links": []})


def _graph(rows: dict[str, str]) -> FileEntry:
    return _entry({"problem": None, "normalized": True, "entity_rows": rows})


def test_types_since_counts_what_changed_appeared_or_went(tmp_path: Path) -> None:
    cached = {"a.md": _page("entity"), "b.md": _page("concept"), "c.md": _page(None),
              "raw/x.md": _entry({})}
    scan = Scan(root=tmp_path, files={"a.md": _page("hub"), "c.md": _page(None),
                                      "d.md": _page("concept"), "raw/x.md": _entry({})},
                modes={}, dirs=set(), changed={"a.md", "d.md"})
    by_type = {"concept": 1, "entity": 1, "untyped": 1}
    assert types_since(by_type, cached, scan) == {"concept": 1, "hub": 1, "untyped": 1}


def test_entities_since_names_only_the_changed_pages_and_new_entities(tmp_path: Path) -> None:
    old_rows = {"kafka": "r1", "nats": "r2"}
    cached = {"e/k.md": _page("entity", "Kafka"), "e/n.md": _page("entity", "NATS"),
              GRAPH: _graph(old_rows)}
    files = dict(cached)
    files["e/k.md"] = _page("entity", "Kafka")
    files["e/z.md"] = _page("entity", "Zeta")
    new_rows = {**old_rows, "kafka": "r1b", "zeta": "r3"}
    files[GRAPH] = _graph(new_rows)
    scan = Scan(root=tmp_path, files=files, modes={}, dirs=set(),
                changed={"e/k.md", "e/z.md", GRAPH})
    keys = {k: (k, "tool") for k in new_rows}

    def since(rows: dict[str, str]) -> EntityRecheck | None:
        facts = {"problem": None, "normalized": True, "entity_rows": rows}
        return entities_since(scan, cached, facts, {k: (k, "tool") for k in rows},  # type: ignore[arg-type]
                              PageTypes(scan.files))

    got = entities_since(scan, cached, files[GRAPH]["facts"], keys,  # type: ignore[arg-type]
                         PageTypes(scan.files))
    assert got == EntityRecheck(["e/k.md", "e/z.md"], frozenset({"kafka", "zeta"}))
    assert since({"kafka": "r1", "nats": "r2b", "zeta": "r3"}) is None  # nats's page unchanged
    assert since({"kafka": "r1", "zeta": "r3"}) is None  # an entity went
    files["e/k.md"] = _page("entity", "Kafka Streams")  # renamed
    assert since(new_rows) is None
    files["e/k.md"] = _page("entity", "Kafka")
    files["e/z.md"] = _page("entity", "NATS")  # a second page of an entity
    assert since(new_rows) is None
