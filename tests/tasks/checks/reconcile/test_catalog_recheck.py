"""`reconcile --check` right after an ingest knows index.md's and the hubs' drift from what
changed since the verdict's check (tasks/checks/reconcile/catalog_recheck.py), and reports
exactly what the full check reports (`--check` without the verdict file, which compares every
page with every row): after ingests, and after ingests with a hand edit that breaks the
catalogs (a page written by hand and listed nowhere, a page moved from its topic hub to the
folder's, a listed page deleted, a row deleted from index.md, a broken front matter)."""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest

from tasks.checks.reconcile import full, gates
from tasks.checks.reconcile.catalog_recheck import links_put
from tasks.checks.reconcile.verdict import VERDICT_FILE
from tasks.checks.scan import Scan, load_cache
from tasks.store import catalog
from tests.memory_builder import PREFIX, page_meta, write
from tests.tasks.checks.test_graph_delta import found, full_check, ingest, reconcile

CONCEPTS = "wiki/concepts/index.md"
TOPIC_HUB = f"wiki/concepts/{PREFIX}__queues-topic.md"
CHILD = f"wiki/concepts/{PREFIX}__queue-depth.md"
PLAIN = f"wiki/concepts/{PREFIX}__queue-costs.md"
BY_HAND = f"wiki/concepts/{PREFIX}__queue-owners.md"


@pytest.fixture(autouse=True)
def one_process_per_command(monkeypatch: pytest.MonkeyPatch) -> None:
    """As the CLI runs: no view of index.md kept between commands (a warm process's view
    writes the page whole and records no step, test_catalog_delta.py)."""
    monkeypatch.setattr(catalog, "_keep_view", lambda layout, view: None)


@pytest.fixture
def known(monkeypatch: pytest.MonkeyPatch) -> dict[str, list[bool]]:
    """Per catalog, whether each check knew its drift from the change (True) or compared it
    in full (False)."""
    taken: dict[str, list[bool]] = {}
    real = gates.drift_since

    def counting(scan, basis, catalog):
        got = real(scan, basis, catalog)
        taken.setdefault(catalog, []).append(got is not None)
        return got

    monkeypatch.setattr(gates, "drift_since", counting)
    return taken


@pytest.fixture
def memory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    """Two decisions, a topic hub with a child, a concept; reconciled until a verdict is kept
    whose check found every catalog in step."""
    root, notes = tmp_path / "memory", tmp_path / "notes"
    notes.mkdir()
    for name in ("kafka", "rabbit"):
        ingest(root, notes, name, 0, monkeypatch)
    write(root, TOPIC_HUB, page_meta("hub", "Queues topic", CONCEPTS), "# Queues topic\n")
    write(root, CHILD, page_meta("concept", "Queue depth", TOPIC_HUB), "# Queue depth\n")
    write(root, PLAIN, page_meta("concept", "Queue costs", CONCEPTS), "# Queue costs\n")
    for _ in range(3):
        reconcile(root, check=False)
    basis = orjson.loads((root / VERDICT_FILE).read_bytes())["pages"]
    assert {"index.md", CONCEPTS, "wiki/entities/index.md"} <= set(basis["catalogs"])
    return root, notes


def _codes(summary, path: str) -> set[str]:
    return {f.code for f in summary.findings if f.path == path}


def test_after_ingests_the_catalogs_drift_is_known_from_the_change(
        memory: tuple[Path, Path], known: dict[str, list[bool]],
        monkeypatch: pytest.MonkeyPatch) -> None:
    root, notes = memory
    limited: list[dict[str, list[str]]] = []
    real = full.links_put
    monkeypatch.setattr(full, "links_put", lambda *args: limited.append(real(*args)) or limited[-1])
    ingest(root, notes, "kafka", 1, monkeypatch)  # a new revision: pages rewritten
    ingest(root, notes, "nats", 0, monkeypatch)  # a new decision: pages appear
    by_delta = reconcile(root, check=True)
    assert known["index.md"] == [True] and known["wiki/sources/index.md"] == [True]
    assert len(limited) == 1 and "index.md" in limited[0]  # its links: those of its new rows
    assert 0 < len(limited[0]["index.md"]) < len(load_cache(root)["files"]["index.md"]["facts"]
                                                     ["links"])
    assert found(by_delta) == found(full_check(root))
    assert known["index.md"] == [True]  # the full check compared in full (no verdict)


def test_a_page_written_by_hand_after_an_ingest_is_missing_from_index_and_hub(
        memory: tuple[Path, Path], known: dict[str, list[bool]],
        monkeypatch: pytest.MonkeyPatch) -> None:
    root, notes = memory
    ingest(root, notes, "rabbit", 1, monkeypatch)
    write(root, BY_HAND, page_meta("concept", "Queue owners", CONCEPTS), "# Queue owners\n")
    by_delta = reconcile(root, check=True)
    assert known["index.md"] == [True] and known[CONCEPTS] == [True]
    assert "index_missing_entry" in _codes(by_delta, "index.md")
    assert "hub_missing_child" in _codes(by_delta, CONCEPTS)
    assert found(by_delta) == found(full_check(root))


def test_a_page_moved_from_its_topic_hub_to_the_folder_hub_is_missing_from_it(
        memory: tuple[Path, Path], known: dict[str, list[bool]],
        monkeypatch: pytest.MonkeyPatch) -> None:
    root, notes = memory
    ingest(root, notes, "kafka", 1, monkeypatch)
    write(root, CHILD, page_meta("concept", "Queue depth", CONCEPTS), "# Queue depth, moved\n")
    by_delta = reconcile(root, check=True)
    assert known[CONCEPTS] == [False]  # its row is not known without the hub's rows
    assert "hub_missing_child" in _codes(by_delta, CONCEPTS)
    assert found(by_delta) == found(full_check(root))


def test_a_listed_page_deleted_after_an_ingest_is_a_stale_row(
        memory: tuple[Path, Path], known: dict[str, list[bool]],
        monkeypatch: pytest.MonkeyPatch) -> None:
    root, notes = memory
    ingest(root, notes, "nats", 0, monkeypatch)
    (root / PLAIN).unlink()
    by_delta = reconcile(root, check=True)
    assert known["index.md"] == [False]  # something vanished: every catalog in full
    assert "index_stale_entry" in _codes(by_delta, "index.md")
    assert "hub_stale_child" in _codes(by_delta, CONCEPTS)
    assert found(by_delta) == found(full_check(root))


def test_a_row_deleted_from_index_md_by_hand_and_a_broken_page(
        memory: tuple[Path, Path], known: dict[str, list[bool]],
        monkeypatch: pytest.MonkeyPatch) -> None:
    root, notes = memory
    ingest(root, notes, "nats", 0, monkeypatch)
    index = root / "index.md"
    index.write_text("".join(line for line in index.read_text().splitlines(keepends=True)
                             if PLAIN not in line))
    broken = root / PLAIN  # its type kept, its front matter invalid
    broken.write_text("".join("updated_at: yesterday\n" if line.startswith("updated_at:")
                              else line for line in broken.read_text().splitlines(True)))
    by_delta = reconcile(root, check=True)
    assert known["index.md"] == [False]  # edited by hand: parsed whole, compared in full
    assert known[CONCEPTS] == [True]
    assert "index_missing_entry" in _codes(by_delta, "index.md")
    assert "invalid_frontmatter" in _codes(by_delta, PLAIN)
    assert found(by_delta) == found(full_check(root))


def test_only_unnoted_catalogs_with_nothing_vanished_have_their_links_limited(
        tmp_path: Path) -> None:
    scan = Scan(root=tmp_path, files={}, modes={}, dirs=set())
    scan.catalog_links_put = {"index.md": {"b.md", "a.md"}, CONCEPTS: {"wiki/concepts/c.md"}}
    assert links_put(scan, [], set()) == {"index.md": ["a.md", "b.md"],
                                           CONCEPTS: ["wiki/concepts/c.md"]}
    assert links_put(scan, [CONCEPTS], set()) == {"index.md": ["a.md", "b.md"]}  # noted then
    assert links_put(scan, [], {"wiki/concepts/gone.md"}) == {}  # a target may have vanished
