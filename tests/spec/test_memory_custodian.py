"""spec/memory-custodian.md, row by row (issue 25): each test is named after the seed audit's
row (../shared/reviews/seed-audit-2026-12-01.md) and does what the row tried."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from schemas.search import RetrievalReport
from tasks.search.retrieve import retrieve
from tasks.store.operation import reading_operation
from tasks.store.settings import load_settings
from tests.tasks.stores.pipeline import ingest_and_distill
from tests.tasks.stores.store_fixtures import FIXTURES


@pytest.fixture(scope="module")
def root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    base = tmp_path_factory.mktemp("custodian")
    repo = base / "repoA"
    shutil.copytree(FIXTURES / "custodian", repo)
    ingest_and_distill(base / "mem", [repo])
    return base / "mem"


def _retrieve(root: Path, task: str, *, include_archive: bool = False) -> RetrievalReport:
    settings = load_settings(root, fixed_clock="2026-03-24T22:40:05Z", search_semantic=False)
    with reading_operation(settings, "retrieve") as operation:
        return retrieve(operation, task, include_archive=include_archive)


def test_MC8_a_rejected_approach_is_a_failure_prevention_not_a_forgotten_topic(root: Path) -> None:
    report = _retrieve(root, "store user sessions in Redis")
    preventions = " ".join(p.text for p in report.packet.failure_preventions)
    assert "Do not use Redis session storage" in preventions, report.packet_markdown
    assert "cannot depend on a server process" in preventions


def test_MC6_archive_entries_are_never_primed_unless_asked(root: Path) -> None:
    archived = "[MC-DEC-20250601-a1000007] Release with make release"  # archive/decisions-2025.md
    report = _retrieve(root, "how do we cut a release")
    assert "Release from tags only" in report.packet_markdown  # the current decision
    assert archived not in report.packet_markdown
    assert archived in _retrieve(root, "how do we cut a release", include_archive=True).packet_markdown
