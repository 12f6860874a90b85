"""A big inbox is gated in chunks, each under its own hold of the writer lock, with the same
result as one batch; the view's slug listing is kept up to date instead of re-listed."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from tasks.proposals import apply as proposals_module
from tasks.proposals.apply import process_in_chunks
from tasks.store.layout import INBOX_DIR
from tasks.store.settings import load_settings
from tests.proposal_fixtures import EXISTING, proposal, proposal_markdown, seed_memory, snapshot

NOW = "2026-03-24T22:40:05Z"


def fill(root: Path) -> None:
    inbox = root / INBOX_DIR
    inbox.mkdir(parents=True)
    for i in range(5):
        data = proposal(title=f"Finding {i}", body=f"# Finding {i}\n\nRetries {i}.\n")
        (inbox / f"{i:02d}-leaf.md").write_text(proposal_markdown(data))
    (inbox / "05-again.md").write_text(proposal_markdown(proposal(title="Finding 0",
                                                                  body="# Finding 0\n\nRetries 0.\n")))
    (inbox / "06-bad.md").write_text(proposal_markdown(proposal(memory=None)))
    extend = proposal(placement={"kind": "extend_section", "page": EXISTING, "section": "budget"},
                      body="Retry four times.\n")
    (inbox / "07-extend.md").write_text(proposal_markdown(extend))


def run(root: Path, per_lock: int) -> Any:
    seed_memory(root)
    fill(root)
    return process_in_chunks(load_settings(root, fixed_clock=NOW), per_lock=per_lock)


def test_chunks_give_the_result_of_one_batch(tmp_path: Path) -> None:
    whole = run(tmp_path / "whole" / ".memories", per_lock=500)
    chunked = run(tmp_path / "chunked" / ".memories", per_lock=3)
    skip = (".membank", "proposals/inbox", "context/health", "log.md")
    assert snapshot(tmp_path / "chunked" / ".memories", skip=skip) == snapshot(
        tmp_path / "whole" / ".memories", skip=skip)
    assert chunked.figures == whole.figures
    assert whole.figures["proposals"] == 8 and whole.figures["rejected"] == 1
    assert [p.code for p in chunked.problems] == [p.code for p in whole.problems]
    assert not list((tmp_path / "chunked" / ".memories" / INBOX_DIR).iterdir())


def test_the_lock_is_taken_once_per_chunk(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    holds: list[str] = []
    real = proposals_module.writing_operation

    @contextmanager
    def counting(settings: Any, mode: Any) -> Iterator[Any]:
        holds.append(mode)
        with real(settings, mode) as operation:
            yield operation

    monkeypatch.setattr(proposals_module, "writing_operation", counting)
    run(tmp_path / ".memories", per_lock=3)
    assert holds == ["propose"] * 3  # 8 proposals, 3 per hold
