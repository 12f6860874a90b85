"""Proposal intake as a batch: apply, file, dedupe, replay; the store stays consistent."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from schemas.page import PageFrontmatter
from schemas.report import MemoryOperationReport
from tasks.markdown.sections import split_sections
from tasks.proposals.apply import process_proposals
from tasks.proposals.ledger import load_ledger
from tasks.store.catalog import read_index_entries, update_hub, update_index
from tasks.store.errors import RootError
from tasks.store.layout import APPLIED_DIR, INBOX_DIR, LEDGER_FILE, REJECTED_DIR, MemoryLayout
from tasks.store.operation import writing_operation
from tasks.store.pages import read_page
from tasks.store.settings import load_settings
from tests.proposal_fixtures import (
    ASSET,
    EXISTING,
    TOPIC_HUB,
    proposal,
    proposal_markdown,
    seed_memory,
    snapshot,
)

FIRST = "2026-03-24T22:40:05Z"
LATER = "2026-03-25T08:00:00Z"
POINTER = f'<a rel="derived-from" href="prismer://asset/{ASSET}">the deck</a>'
DELIVERABLE = {"assetId": ASSET, "contentHash": "sha256:" + "c" * 64, "sizeBytes": 2048}


def run(root: Path, files: list[Path] | None = None, clock: str = FIRST) -> MemoryOperationReport:
    with writing_operation(load_settings(root, fixed_clock=clock), "propose") as operation:
        return process_proposals(operation, files)


def write_batch(inbox: Path) -> None:
    inbox.mkdir(parents=True, exist_ok=True)
    (inbox / "01-leaf.md").write_text(
        proposal_markdown(
            proposal(
                deliverableSource=DELIVERABLE,
                body=f"# Upload retry findings\n\nFrom {POINTER}.\n\n## Evidence\n\n40 failures.\n",
            )
        )
    )
    (inbox / "02-extend.md").write_text(
        proposal_markdown(
            proposal(
                title="Retry budget",
                body="Retry five times; three was too few.\n",
                placement={"kind": "extend_section", "page": EXISTING, "section": "budget"},
            )
        )
    )
    (inbox / "03-append.json").write_text(
        json.dumps(
            proposal(
                title="Jitter",
                body="Add 10% random jitter.\n",
                memory={"memoryRole": "procedure", "source": "proposal leg of the executor"},
                placement={"kind": "append_section", "page": EXISTING, "section": "jitter"},
            )
        )
    )
    (inbox / "04-topic.md").write_text(
        proposal_markdown(
            proposal(
                title="Circuit breakers",
                description="When to stop calling a failing service.",
                placement={"kind": "new_leaf", "hub": TOPIC_HUB},
                body="Open after five failures.\n",
            )
        )
    )
    (inbox / "05-no-memory.md").write_text(proposal_markdown(proposal(memory=None, title="Other")))
    (inbox / "06-broken.md").write_text("---\ntitle: [unclosed\n---\n")


@pytest.fixture
def root(tmp_path: Path) -> Path:
    return seed_memory(tmp_path / ".memories").root


def test_batch_applies_files_and_keeps_every_proposal(root: Path) -> None:
    inbox = root / INBOX_DIR
    write_batch(inbox)
    report = run(root)

    assert report.figures == {"proposals": 6, "accepted": 4, "rejected": 2, "duplicates": 0}
    assert report.status == "partial" and report.exit_code() == 1
    assert sorted(p.code for p in report.problems) == [
        "evolution_metadata_required",
        "invalid_frontmatter",
    ]
    assert list(inbox.iterdir()) == []
    assert sorted(p.name for p in (root / APPLIED_DIR).iterdir()) == [
        "01-leaf.md",
        "02-extend.md",
        "03-append.json",
        "04-topic.md",
    ]
    reason = json.loads((root / REJECTED_DIR / "05-no-memory.md.reason.json").read_text())
    assert reason["code"] == "evolution_metadata_required" and reason["field"] == "memory"
    assert (root / REJECTED_DIR / "05-no-memory.md").exists()
    assert (
        json.loads((root / REJECTED_DIR / "06-broken.md.reason.json").read_text())["code"]
        == "invalid_frontmatter"
    )

    # the extended page: created_at kept, updated_at refreshed, old text superseded not erased
    page = read_page(root / EXISTING)
    meta = PageFrontmatter.model_validate(page.meta)
    assert meta.created_at == "2026-03-20T10:00:00Z" and meta.updated_at == FIRST
    sections = split_sections(page.body)
    assert sections.anchors() == ["budget", "backoff", "jitter", "superseded"]
    assert "> Retry three times." in sections.find("superseded").text
    assert meta.memory is not None
    by_anchor = {s.anchor: s for s in meta.memory.sections}
    assert by_anchor["jitter"].source == "proposal leg of the executor"
    assert by_anchor["budget"].source == "dream leg of the planner, session 12"

    # new leaves hang under their hubs and are in index.md
    leaf = "wiki/synthesis/2026-03-24T22-40-05Z__upload-retry-findings.md"
    topic_leaf = "wiki/concepts/2026-03-24T22-40-05Z__circuit-breakers.md"
    assert (
        "2026-03-24T22-40-05Z__upload-retry-findings.md"
        in (root / "wiki/synthesis/index.md").read_text()
    )
    assert read_page(root / leaf).meta["child_of"] == ["wiki/synthesis/index.md"]
    assert read_page(root / topic_leaf).meta["child_of"] == [TOPIC_HUB]
    hub = read_page(root / TOPIC_HUB)
    assert (
        "2026-03-24T22-40-05Z__circuit-breakers.md"
        in split_sections(hub.body).find("children").text
    )
    assert "## Overview" in hub.body
    entries = read_index_entries(MemoryLayout(root))
    assert leaf in entries and topic_leaf in entries
    assert "propose (partial)" in (root / "log.md").read_text()

    ledger = load_ledger(MemoryLayout(root), FIRST)
    assert [a.page for a in ledger.adoptions if a.assetId == ASSET] == [leaf]
    assert len(ledger.adoptions) == 4


def test_replaying_the_batch_changes_no_byte(root: Path) -> None:
    inbox = root / INBOX_DIR
    write_batch(inbox)
    run(root)
    before = snapshot(root)

    write_batch(inbox)
    again = run(root, clock=LATER)
    assert snapshot(root) == before
    assert not again.changed
    assert again.figures == {"proposals": 6, "accepted": 0, "rejected": 2, "duplicates": 4}
    assert list(inbox.iterdir()) == []

    write_batch(inbox)  # a third time, through FILE arguments from the inbox
    run(root, sorted(inbox.iterdir()), clock=LATER)
    assert snapshot(root) == before


def test_same_deliverable_with_new_text_is_a_dedupe_hit(root: Path, tmp_path: Path) -> None:
    first = tmp_path / "first.md"
    first.write_text(
        proposal_markdown(proposal(deliverableSource=DELIVERABLE, body=f"From {POINTER}.\n"))
    )
    run(root, [first])
    before = snapshot(root)
    second = tmp_path / "second.md"
    second.write_text(
        proposal_markdown(
            proposal(
                title="Reworded", deliverableSource=DELIVERABLE, body=f"Reworded, from {POINTER}.\n"
            )
        )
    )
    report = run(root, [second], clock=LATER)
    assert [a.action for a in report.artifacts] == ["dedupe_hit"]
    assert "already adopted" in report.artifacts[0].why
    assert report.exit_code() == 0
    assert snapshot(root) == before
    assert first.exists() and second.exists()  # files outside the inbox are never moved


def test_a_new_revision_of_a_deliverable_extends_its_page(root: Path, tmp_path: Path) -> None:
    first = tmp_path / "v1.md"
    first.write_text(
        proposal_markdown(
            proposal(
                title="Deck findings",
                deliverableSource=DELIVERABLE,
                body=f"From {POINTER}.\n\n## Numbers\n\n40 failures.\n",
            )
        )
    )
    run(root, [first])
    revised = {**DELIVERABLE, "contentHash": "sha256:" + "d" * 64, "sizeBytes": 2100}
    second = tmp_path / "v2.md"
    second.write_text(
        proposal_markdown(
            proposal(
                title="Deck findings, revised",
                deliverableSource=revised,
                body=f"From {POINTER}.\n\n## Numbers\n\n41 failures.\n",
            )
        )
    )
    report = run(root, [second], clock=LATER)
    pages = sorted(p.name for p in (root / "wiki/synthesis").glob("*__deck-findings*.md"))
    assert pages == ["2026-03-24T22-40-05Z__deck-findings.md"]
    assert report.graph_delta.superseded_records_count == 1
    body = (root / "wiki/synthesis" / pages[0]).read_text()
    assert "41 failures." in body and "> 40 failures." in body


def test_new_leaf_on_an_existing_topic_extends_it(root: Path, tmp_path: Path) -> None:
    first = tmp_path / "a.md"
    first.write_text(proposal_markdown(proposal(body="## Evidence\n\n40 failures.\n")))
    run(root, [first])
    second = tmp_path / "b.md"
    second.write_text(
        proposal_markdown(proposal(body="## Evidence\n\n41 failures.\n\n## Cause\n\nDNS.\n"))
    )
    report = run(root, [second], clock=LATER)
    leaves = sorted((root / "wiki/synthesis").glob("*__upload-retry-findings.md"))
    assert [p.name for p in leaves] == ["2026-03-24T22-40-05Z__upload-retry-findings.md"]
    page = read_page(leaves[0])
    assert page.meta["created_at"] == FIRST and page.meta["updated_at"] == LATER
    sections = split_sections(page.body)
    assert sections.anchors() == ["evidence", "cause", "superseded"]
    assert "> 40 failures." in sections.find("superseded").text
    assert report.graph_delta.superseded_records_count == 1


def test_a_rejected_batch_replayed_changes_nothing(root: Path) -> None:
    inbox = root / INBOX_DIR
    inbox.mkdir(parents=True)
    (inbox / "x.md").write_text(proposal_markdown(proposal(title="Data")))
    first = run(root)
    assert [p.code for p in first.problems] == ["ambiguous_name"]
    before = snapshot(root)
    (inbox / "x.md").write_text(proposal_markdown(proposal(title="Data")))
    again = run(root, clock=LATER)
    assert not again.changed and snapshot(root) == before
    # a different proposal under the same name is kept beside the first, not over it
    (inbox / "x.md").write_text(proposal_markdown(proposal(title="Info")))
    run(root, clock=LATER)
    assert len(list((root / REJECTED_DIR).glob("x*.md"))) == 2


def test_unreadable_inputs_are_problems_not_crashes(root: Path, tmp_path: Path) -> None:
    report = run(root, [tmp_path / "missing.md"])
    assert [p.code for p in report.problems] == ["unreadable_proposal"]
    other = tmp_path / "notes.txt"
    other.write_text("hello")
    report = run(root, [other])
    assert [p.code for p in report.problems] == ["invalid_frontmatter"]


def test_empty_inbox_is_nothing_to_do(root: Path) -> None:
    before = snapshot(root)
    report = run(root)
    assert report.figures["proposals"] == 0 and not report.changed and snapshot(root) == before


def test_uninitialized_root_is_refused(tmp_path: Path) -> None:
    with pytest.raises(RootError, match="membank init"):
        run(tmp_path / "empty")


def test_ledger_is_plain_json(root: Path, tmp_path: Path) -> None:
    source = tmp_path / "p.md"
    source.write_text(proposal_markdown(proposal()))
    run(root, [source])
    data = json.loads((root / LEDGER_FILE).read_text())
    assert data["ledgerGeneratedAtUtc"] == FIRST and data["adoptions"][0]["placement"] == "new_leaf"
    shutil.rmtree(root / APPLIED_DIR)  # the ledger alone makes the replay a dedupe hit
    assert [a.action for a in run(root, [source], clock=LATER).artifacts] == ["dedupe_hit"]


def test_a_rerun_after_a_crash_heals_the_hub_and_index(root: Path, tmp_path: Path) -> None:
    """A crash after the page write but before hub, index and ledger: the rerun completes it."""
    source = tmp_path / "p.md"
    source.write_text(proposal_markdown(proposal()))
    run(root, [source])
    leaf = "wiki/synthesis/2026-03-24T22-40-05Z__upload-retry-findings.md"
    page_before = (root / leaf).read_bytes()
    layout = MemoryLayout(root)
    update_hub(layout, "wiki/synthesis/index.md", replace_all=True, now_iso=FIRST)
    update_index(
        layout,
        [e for p, e in read_index_entries(layout).items() if p != leaf],
        replace_all=True,
        now_iso=FIRST,
    )
    (root / LEDGER_FILE).unlink()

    report = run(root, [source], clock=LATER)
    assert (root / leaf).read_bytes() == page_before
    assert "upload-retry-findings" in (root / "wiki/synthesis/index.md").read_text()
    assert leaf in read_index_entries(layout)
    assert report.figures["accepted"] == 1 and (root / LEDGER_FILE).exists()
