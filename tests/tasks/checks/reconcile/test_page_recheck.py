"""`reconcile --check` right after an ingest runs the per-page gates only on the pages whose
findings may have changed since the verdict (tasks/checks/reconcile/page_recheck.py), and
reports exactly what the full check reports: a dead link whose target vanished, a parent that
is no longer a hub, a target beyond the scan, a record index.md stopped listing."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson
import pytest

from tasks.checks.reconcile import full
from tasks.checks.reconcile.page_recheck import PageBasis, pages_to_check
from tasks.checks.reconcile.verdict import VERDICT_FILE
from tests.memory_builder import PREFIX, page_meta, write
from tests.tasks.checks.test_graph_delta import found, full_check, ingest, reconcile

CONCEPTS = "wiki/concepts/index.md"
TOPIC_HUB = f"wiki/concepts/{PREFIX}__queues-topic.md"
CHILD = f"wiki/concepts/{PREFIX}__queue-depth.md"
LINKING = f"wiki/concepts/{PREFIX}__queue-links.md"
SESSION = f"sessions/{PREFIX}__queue-review.md"


@pytest.fixture
def checked(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """How many pages each check ran the per-page gates on (-1: every page)."""
    counts: list[int] = []

    def counting(*args: Any) -> list[str]:
        got = pages_to_check(*args)
        counts.append(len(got))
        return got

    monkeypatch.setattr(full, "pages_to_check", counting)
    return counts


@pytest.fixture
def memory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    """Three decisions, a topic hub with a child, a page linking to an entity page and to a
    picture, a session record listed by index.md only; reconciled until a verdict is kept."""
    root, notes = tmp_path / "memory", tmp_path / "notes"
    notes.mkdir()
    for name in ("kafka", "rabbit", "nats"):
        ingest(root, notes, name, 0, monkeypatch)
    entity = sorted((root / "wiki" / "entities").glob("*__*.md"))[0].name
    write(root, TOPIC_HUB, page_meta("hub", "Queues topic", CONCEPTS), "# Queues topic\n")
    write(root, CHILD, page_meta("concept", "Queue depth", TOPIC_HUB), "# Queue depth\n")
    (root / "wiki" / "concepts" / "depth.png").write_bytes(b"\x89PNG picture")
    write(root, LINKING, page_meta("concept", "Queue links", CONCEPTS),
          f"# Queue links\n\nSee [the entity](../entities/{entity}) and "
          "![depth](depth.png).\n")
    write(root, SESSION, {**page_meta("session", "Queue review", None)}, "# Queue review\n")
    reconcile(root, check=False)
    reconcile(root, check=False)
    reconcile(root, check=False)
    assert (root / VERDICT_FILE).exists()
    return root, notes


def test_a_check_after_an_ingest_runs_the_page_gates_on_few_pages(
        memory: tuple[Path, Path], checked: list[int], monkeypatch: pytest.MonkeyPatch) -> None:
    root, notes = memory
    basis = orjson.loads((root / VERDICT_FILE).read_bytes())["pages"]
    assert LINKING in basis["noted"]  # its picture was looked up on disk
    ingest(root, notes, "kafka", 1, monkeypatch)
    by_delta = reconcile(root, check=True)
    pages = by_delta.counts.pages_total
    assert len(checked) == 1 and 0 < checked[0] < pages // 2
    assert found(by_delta) == found(full_check(root))
    assert len(checked) == 1  # the full check ran every page


def test_a_link_target_removed_after_an_ingest_is_a_dead_link(
        memory: tuple[Path, Path], checked: list[int], monkeypatch: pytest.MonkeyPatch) -> None:
    root, notes = memory
    ingest(root, notes, "nats", 1, monkeypatch)
    target = next(line for line in (root / LINKING).read_text().splitlines() if "entity" in line)
    entity = target.split("../entities/", 1)[1].split(")", 1)[0]
    (root / "wiki" / "entities" / entity).unlink()
    by_delta = reconcile(root, check=True)
    assert ("dead_link", LINKING) in {(f.code, f.path) for f in by_delta.findings}
    assert found(by_delta) == found(full_check(root))


def test_a_parent_no_longer_a_hub_leaves_its_child_an_orphan(
        memory: tuple[Path, Path], checked: list[int], monkeypatch: pytest.MonkeyPatch) -> None:
    root, notes = memory
    ingest(root, notes, "rabbit", 1, monkeypatch)
    hub = root / TOPIC_HUB
    hub.write_text(hub.read_text().replace("type: hub", "type: concept"))
    by_delta = reconcile(root, check=True)
    assert ("orphan_page", CHILD) in {(f.code, f.path) for f in by_delta.findings}
    assert found(by_delta) == found(full_check(root))


def test_a_target_beyond_the_scan_is_looked_up_again(
        memory: tuple[Path, Path], checked: list[int], monkeypatch: pytest.MonkeyPatch) -> None:
    root, notes = memory
    ingest(root, notes, "kafka", 1, monkeypatch)
    (root / "wiki" / "concepts" / "depth.png").unlink()  # not a scanned file: no page changed
    by_delta = reconcile(root, check=True)
    assert ("dead_link", LINKING) in {(f.code, f.path) for f in by_delta.findings}
    assert found(by_delta) == found(full_check(root))


def test_a_record_index_md_stops_listing_is_an_orphan(
        memory: tuple[Path, Path], checked: list[int], monkeypatch: pytest.MonkeyPatch) -> None:
    root, notes = memory
    ingest(root, notes, "kafka", 1, monkeypatch)
    index = root / "index.md"
    lines = index.read_text().splitlines(keepends=True)
    assert any(SESSION in line for line in lines)
    index.write_text("".join(line for line in lines if SESSION not in line))
    by_delta = reconcile(root, check=True)
    assert ("orphan_page", SESSION) in {(f.code, f.path) for f in by_delta.findings}
    assert found(by_delta) == found(full_check(root))


def test_a_damaged_basis_checks_every_page(
        memory: tuple[Path, Path], checked: list[int], monkeypatch: pytest.MonkeyPatch) -> None:
    root, notes = memory
    ingest(root, notes, "kafka", 1, monkeypatch)
    verdict = orjson.loads((root / VERDICT_FILE).read_bytes())
    verdict["pages"]["noted"] = [1]
    (root / VERDICT_FILE).write_bytes(orjson.dumps(verdict))
    by_delta = reconcile(root, check=True)
    assert checked == []
    assert found(by_delta) == found(full_check(root))


def test_basis_json_round_trip() -> None:
    basis = PageBasis(noted=["a.md"], dirs=["wiki"], unreadable=[], catalogs=["index.md"])
    assert PageBasis.from_json(basis.to_json()) == basis
    assert PageBasis.from_json({"noted": ["a.md"], "dirs": "wiki", "unreadable": [],
                                "catalogs": []}) is None
    assert PageBasis.from_json({"noted": ["a.md"], "dirs": ["wiki"], "unreadable": []}) is None
    assert PageBasis.from_json(None) is None


def test_a_verdict_a_repair_run_by_the_change_recorded_keeps_the_checks_by_the_change(
        memory: tuple[Path, Path], checked: list[int], monkeypatch: pytest.MonkeyPatch) -> None:
    """A repair run right after an ingest goes by the change (full._delta_scan) and records a
    PageBasis made by the change: the check after the next ingest still runs the per-page gates
    on few pages, and finds what the full check finds."""
    root, notes = memory
    ingest(root, notes, "kafka", 1, monkeypatch)
    reconcile(root, check=False)
    assert len(checked) == 2  # its check and the next run's, both by the change
    basis = orjson.loads((root / VERDICT_FILE).read_bytes())["pages"]
    assert LINKING in basis["noted"] and basis["catalogs"]
    ingest(root, notes, "nats", 1, monkeypatch)
    checked.clear()
    by_delta = reconcile(root, check=True)
    assert len(checked) == 1 and 0 < checked[0] < by_delta.counts.pages_total // 2
    assert found(by_delta) == found(full_check(root))
