"""The root's boundary: no write leaves the resolved memory root, whatever symlinks it holds.

One test per folder kind (raw, wiki/*, context, proposals, .membank): the folder is replaced by
a symlink to a folder outside the root, a writer runs, and it is refused with a RootBoundaryError
naming the symlink while the outside folder stays untouched.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from schemas.report import MemoryOperationReport
from tasks.checks.reconcile import reconcile_memory
from tasks.health.files import write_health
from tasks.ingest import collect_inputs, prepare_batch, write_ingest
from tasks.proposals.apply import process_proposals
from tasks.store.atomic import StagedWrites, atomic_write_bytes, check_real_folder
from tasks.store.errors import RootBoundaryError
from tasks.store.layout import INBOX_DIR
from tasks.store.operation import writing_operation
from tasks.store.settings import load_settings
from tests.proposal_fixtures import proposal, proposal_markdown, seed_memory

NOW = "2026-03-24T22:40:05Z"


def files_under(folder: Path) -> list[str]:
    return sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*"))


def swap_for_symlink(root: Path, rel: str, outside: Path) -> Path:
    """Move `rel` out of the root to `outside` and leave a symlink to it in its place."""
    target = root / rel
    shutil.move(str(target), str(outside))
    os.symlink(outside, target)
    return target


def ingest(root: Path, sources: Path) -> None:
    settings = load_settings(root, fixed_clock=NOW)
    inputs, problems = collect_inputs([sources])
    write_ingest(settings, prepare_batch(inputs, settings), problems)


def a_source(tmp_path: Path) -> Path:
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "release-notes.md").write_text("# Release notes\n\nShipped the uploader.\n")
    return folder


@pytest.mark.parametrize("rel", ["raw", "wiki/sources", "wiki/sources/shards", "context"])
def test_ingest_refuses_a_symlinked_store_folder(tmp_path: Path, rel: str) -> None:
    root = tmp_path / ".memories"
    seed_memory(root)
    outside = tmp_path / "outside"
    link = swap_for_symlink(root, rel, outside)
    before = files_under(outside)
    big = a_source(tmp_path)
    # A source over the page limit, so the shard folder is written too.
    (big / "big-log.md").write_text("".join(f"## Part {i}\n\n{'word ' * 400}\n\n" for i in range(60)))
    with pytest.raises(RootBoundaryError) as caught:
        ingest(root, big)
    assert str(link) in caught.value.one_line()
    assert "symlink" in caught.value.one_line()
    assert files_under(outside) == before


def test_a_symlinked_page_file_is_not_replaced(tmp_path: Path) -> None:
    root = tmp_path / ".memories"
    seed_memory(root)
    outside = tmp_path / "outside-index.md"
    hub = root / "wiki/sources/index.md"
    outside.write_bytes(hub.read_bytes())
    hub.unlink()
    os.symlink(outside, hub)
    before = outside.read_bytes()
    with pytest.raises(RootBoundaryError) as caught:
        ingest(root, a_source(tmp_path))
    assert str(hub) in caught.value.one_line()
    assert outside.read_bytes() == before and hub.is_symlink()


def fill_inbox(root: Path) -> Path:
    inbox = root / INBOX_DIR
    inbox.mkdir(parents=True)
    (inbox / "01-leaf.md").write_text(proposal_markdown(proposal()))
    (inbox / "02-bad.md").write_text(proposal_markdown(proposal(memory=None)))
    return inbox


def propose(root: Path) -> MemoryOperationReport:
    with writing_operation(load_settings(root, fixed_clock=NOW), "propose") as operation:
        return process_proposals(operation)


@pytest.mark.parametrize("rel", ["proposals/applied", "proposals/rejected", "proposals/inbox",
                                 "wiki", "context"])
def test_proposals_refuse_a_symlinked_folder(tmp_path: Path, rel: str) -> None:
    root = tmp_path / ".memories"
    seed_memory(root)
    inbox = fill_inbox(root)
    (root / rel).mkdir(parents=True, exist_ok=True)
    outside = tmp_path / "outside"
    swap_for_symlink(root, rel, outside)
    before = files_under(outside)
    with pytest.raises(RootBoundaryError) as caught:
        propose(root)
    assert rel in caught.value.one_line()
    assert files_under(outside) == before
    assert sorted(p.name for p in inbox.iterdir()) == ["01-leaf.md", "02-bad.md"]


def test_a_proposal_placed_under_a_symlinked_hub_folder_is_rejected(tmp_path: Path) -> None:
    root = tmp_path / ".memories"
    seed_memory(root)
    fill_inbox(root)
    outside = tmp_path / "outside"
    swap_for_symlink(root, "wiki/synthesis", outside)
    before = files_under(outside)
    report = propose(root)
    assert files_under(outside) == before
    leaf = next(p for p in report.problems if "01-leaf" in p.file)
    assert leaf.code == "placement_required"


def test_a_symlinked_state_folder_is_refused_before_the_lock(tmp_path: Path) -> None:
    root = tmp_path / ".memories"
    seed_memory(root)
    outside = tmp_path / "outside"
    link = swap_for_symlink(root, ".membank", outside)
    before = {p: p.read_bytes() for p in outside.rglob("*") if p.is_file()}
    with pytest.raises(RootBoundaryError) as caught:
        with writing_operation(load_settings(root, fixed_clock=NOW), "reconcile"):
            pass
    assert str(link) in caught.value.one_line()
    assert {p: p.read_bytes() for p in outside.rglob("*") if p.is_file()} == before


def test_reconcile_refuses_a_symlinked_context_folder(tmp_path: Path) -> None:
    root = tmp_path / ".memories"
    seed_memory(root)
    outside = tmp_path / "outside"
    swap_for_symlink(root, "context", outside)
    before = files_under(outside)
    with writing_operation(load_settings(root, fixed_clock=NOW), "reconcile") as operation:
        report, summary = reconcile_memory(operation, check=False)
    assert "symlink_in_memory" in {p.code for p in report.problems}
    with pytest.raises(RootBoundaryError, match="context"):
        write_health(root, summary)  # its summary goes to context/health/
    assert files_under(outside) == before


def test_store_layer_checks(tmp_path: Path) -> None:
    real = tmp_path / "real"
    real.mkdir()
    linked = tmp_path / "linked"
    os.symlink(real, linked)
    check_real_folder(real / "not-yet" / "deeper")  # missing parts cannot be symlinks
    with pytest.raises(RootBoundaryError, match="linked"):
        atomic_write_bytes(linked / "sub" / "page.md", b"x", validate=False)
    assert list(real.iterdir()) == []  # not even the sub-folder was made
    with StagedWrites() as staged, pytest.raises(RootBoundaryError):
        staged.stage(linked / "a.txt", b"a", validate=False)
    assert list(real.iterdir()) == []


@pytest.mark.parametrize("rel", [".membank/writer.lock", ".membank/writer.holder.json"])
def test_a_symlinked_lock_file_is_refused(tmp_path: Path, rel: str) -> None:
    root = tmp_path / ".memories"
    seed_memory(root)
    outside = tmp_path / "precious.txt"
    outside.write_text("keep me")
    (root / rel).unlink(missing_ok=True)
    os.symlink(outside, root / rel)
    with pytest.raises(RootBoundaryError, match="symlink"):
        with writing_operation(load_settings(root, fixed_clock=NOW), "reconcile"):
            pass
    assert outside.read_text() == "keep me"


def test_a_symlink_in_the_inbox_is_never_read(tmp_path: Path) -> None:
    root = tmp_path / ".memories"
    seed_memory(root)
    outside = tmp_path / "elsewhere.md"
    outside.write_text(proposal_markdown(proposal(title="Smuggled in", body="# Smuggled\n\nx\n")))
    inbox = root / INBOX_DIR
    inbox.mkdir(parents=True)
    os.symlink(outside, inbox / "01-link.md")
    os.symlink(inbox / "02-loop.md", inbox / "02-loop.md")
    report = propose(root)
    assert [(p.code, "symlink" in p.message) for p in report.problems] == [
        ("unreadable_proposal", True)]
    assert report.figures["accepted"] == 0
    assert "Smuggled" not in "".join(p.read_text() for p in (root / "wiki").rglob("*.md"))


def test_symlink_loops_in_the_root_are_root_errors(tmp_path: Path) -> None:
    from tasks.store.errors import RootError
    from tasks.store.names import resolve_inside

    os.symlink(tmp_path / "loop", tmp_path / "loop")
    with pytest.raises(RootError, match="symlink loop"):
        resolve_inside(tmp_path, "loop")
    with pytest.raises(RootError, match="symlink loop"):
        load_settings(tmp_path / "loop").resolved_root()
