"""Real documents from the shared corpus as proposals: each is applied, or sharding_required when
it is over the page limit; the written pages re-validate; a replay changes no byte."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from schemas.page import PageFrontmatter
from tasks.proposals.apply import process_proposals
from tasks.store.layout import INBOX_DIR
from tasks.store.operation import writing_operation
from tasks.store.pages import read_page
from tasks.store.settings import load_settings
from tests.conftest import CORPUS
from tests.proposal_fixtures import proposal, seed_memory, snapshot


def _documents() -> list[Path]:
    return sorted(p for p in CORPUS.rglob("*.md") if p.is_file())


def _drop(inbox: Path, documents: list[Path]) -> None:
    inbox.mkdir(parents=True, exist_ok=True)
    for i, document in enumerate(documents):
        title = f"{document.parent.name} {document.stem}"
        data = proposal(
            title=title,
            description=f"Notes distilled from {document.parent.name}/{document.name}.",
            body=document.read_text(encoding="utf-8"),
            memory={"memoryRole": "knowledge", "source": f"corpus file {document.name}"},
        )
        (inbox / f"{i:04d}.json").write_text(json.dumps(data), encoding="utf-8")


def test_corpus_documents_as_proposals(tmp_path: Path) -> None:
    documents = _documents()
    if not documents:
        pytest.skip("no markdown in the corpus")
    root = seed_memory(tmp_path / ".memories").root
    _drop(root / INBOX_DIR, documents)
    settings = load_settings(root, fixed_clock="2026-03-24T22:40:05Z")
    with writing_operation(settings, "propose") as operation:
        report = process_proposals(operation)

    codes = {p.code for p in report.problems}
    # The corpus's docs hold example credentials (an etag-like hex string) and maintainers'
    # addresses: the privacy check rejects or warns about those.
    assert codes <= {"sharding_required", "secret_detected", "pii_detected"}, [
        p.one_line() for p in report.problems][:3]
    oversized = sum(1 for d in documents if len(d.read_text(encoding="utf-8")) > 64_000)
    assert report.figures["rejected"] >= oversized
    assert report.figures["accepted"] + report.figures["rejected"] == len(documents)
    written = [a.path for a in report.artifacts if a.action == "created"]
    assert written
    for path in written:
        page = read_page(root / path)
        PageFrontmatter.model_validate(page.meta)
        assert len((root / path).read_text(encoding="utf-8")) <= settings.page_limit_chars

    before = snapshot(root)
    _drop(root / INBOX_DIR, documents)
    with writing_operation(load_settings(root, fixed_clock="2026-03-25T08:00:00Z"),
                           "propose") as operation:
        again = process_proposals(operation)
    assert not again.changed and snapshot(root) == before
