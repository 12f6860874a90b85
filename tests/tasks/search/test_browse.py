"""browse: nearest pages with anchors and the hubs that fit; the gate's same-topic matcher."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tasks.proposals.apply import process_proposals
from tasks.search.browse import browse, same_topic
from tasks.search.query import QueryError
from tasks.store.layout import MemoryLayout
from tasks.store.operation import writing_operation
from tasks.store.settings import load_settings
from tests.proposal_fixtures import EXISTING, proposal, proposal_markdown, seed_memory
from tests.tasks.search.search_memory import SYNTHESIS, build_search_memory


@pytest.fixture(scope="module")
def layout(tmp_path_factory: pytest.TempPathFactory) -> MemoryLayout:
    return build_search_memory(tmp_path_factory.mktemp("browse") / "mem")


def test_nearest_pages_carry_every_anchor_best_first_and_hubs_fit(layout: MemoryLayout) -> None:
    result = browse(layout, "exponential backoff between retries")
    first = result.nearest[0]
    assert (first.path, first.best_anchor) == (SYNTHESIS, "retry-budget")
    assert first.anchors == ["retry-budget", "evidence"]
    assert result.hubs[0].path == "wiki/synthesis/index.md"
    assert result.hubs[0].matching_pages == 1
    assert browse(layout, "exponential backoff between retries") == result


def test_the_title_of_a_page_in_other_words_ranks_that_page_first(layout: MemoryLayout) -> None:
    assert browse(layout, "Retry budgets for uploading").nearest[0].path == SYNTHESIS


def test_an_empty_topic_is_one_clear_error(layout: MemoryLayout) -> None:
    with pytest.raises(QueryError, match="topic is empty"):
        browse(layout, " ")


def test_same_topic_needs_most_words_both_ways() -> None:
    assert same_topic("Upload retry budget", "Retry budgets for uploads")
    assert not same_topic("Upload retry budget", "Upload size limits")
    assert not same_topic("Redis", "Use Elasticache for Redis")
    assert same_topic("Upload retry budget", "Budget for retried uploads")  # retried is retry
    assert not same_topic("Upload retry budget", "Download retry budget")
    assert same_topic("How often uploads are retried", "Upload retry budget")  # within it
    assert not same_topic("How often uploads fail", "Upload retry budget")
    assert not same_topic("How often backups are taken", "How often uploads are retried")
    assert not same_topic("Upload retry backoff", "Upload retry budget")


def run(root: Path, files: list[Path], now: str = "2026-03-24T22:40:05Z"):
    with writing_operation(load_settings(root, fixed_clock=now), "propose") as operation:
        return process_proposals(operation, files)


def test_the_gate_extends_a_page_on_the_same_topic_instead_of_forking(tmp_path: Path) -> None:
    root = tmp_path / "mem"
    seed_memory(root)
    inbox = tmp_path / "in"
    inbox.mkdir()
    reworded = inbox / "reworded.md"
    reworded.write_text(proposal_markdown(proposal(
        title="Policy for retries", description="When uploads are retried.",
        placement={"kind": "new_leaf", "hub": "wiki/concepts"},
        body="# Policy for retries\n\n## Jitter\n\nAdd random jitter.\n")))
    report = run(root, [reworded])
    assert report.figures["accepted"] == 1
    written = [a for a in report.artifacts if a.path.startswith("wiki/concepts/2026")]
    assert [a.path for a in written] == [EXISTING]
    assert "## Jitter" in (root / EXISTING).read_text()


def test_the_gate_sees_a_page_written_by_hand_in_its_folder_after_the_index(tmp_path: Path) -> None:
    from tasks.search.index import build_index, stale_pages
    from tasks.store.page_writes import write_page
    from tasks.store.pages import new_page_meta

    root = tmp_path / "mem"
    layout = seed_memory(root)
    build_index(layout, semantic=load_settings(root).search_semantic)  # current: the gate then
    # checks only the folder it writes in
    by_hand = "wiki/concepts/2026-03-21T09-00-00Z__lease-renewal.md"
    write_page(root / by_hand, new_page_meta("2026-03-21T09:00:00Z", type="concept",
               title="Lease renewal", description="How leases are renewed.",
               child_of=["wiki/concepts/index.md"]), "# Lease renewal\n\nEvery 10 s.\n",
               now_iso="2026-03-21T09:00:00Z")
    elsewhere = "wiki/synthesis/2026-03-21T09-00-00Z__lease-notes.md"
    (root / elsewhere).write_text((root / by_hand).read_text())
    assert stale_pages(layout, "wiki/concepts") == [by_hand]
    assert stale_pages(layout) == [by_hand, elsewhere]
    inbox = tmp_path / "in"
    inbox.mkdir()
    reworded = inbox / "lease.md"
    reworded.write_text(proposal_markdown(proposal(
        title="Renewal of the lease", description="When the lease is renewed.",
        placement={"kind": "new_leaf", "hub": "wiki/concepts"},
        body="# Renewal of the lease\n\n## Jitter\n\nRenew with jitter.\n")))
    report = run(root, [reworded])
    assert [a.path for a in report.artifacts if a.path.startswith("wiki/concepts/2026")] == [by_hand]
    assert "## Jitter" in (root / by_hand).read_text()


def test_placement_messages_list_nearest_pages_and_fitting_hubs(tmp_path: Path) -> None:
    root = tmp_path / "mem"
    seed_memory(root)
    inbox = tmp_path / "in"
    inbox.mkdir()
    unplaced = inbox / "unplaced.md"
    unplaced.write_text(proposal_markdown(proposal(title="Retry backoff", placement=None)))
    run(root, [unplaced])
    reason = json.loads(next((root / "proposals/rejected").glob("*.reason.json")).read_text())
    assert reason["code"] == "placement_required"
    assert f"nearest pages: {EXISTING}" in reason["message"]
    assert "hubs that fit: wiki/concepts/index.md" in reason["message"]
