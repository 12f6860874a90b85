"""Distill's output does not depend on how sources were batched across runs.

The shared corpus's four folders are ingested and distilled in one run, and in four runs (one
folder each, same order, same fixed clock): every file must be the same (outside .membank/,
log.md and context/health/). Two effects made them differ: a code term seen once per run was
dropped each time (now kept as a pending candidate), and a source distilled before an entity
was registered never got its `mentions` relation (now earlier sources naming a new entity are
read again for their mentions).
"""

from __future__ import annotations

from pathlib import Path

import orjson

from tasks.distill.apply import distill_memory
from tasks.ingest import collect_inputs, prepare_batch, write_ingest
from tasks.store.operation import writing_operation
from tasks.store.settings import load_settings
from tests.conftest import CORPUS, FIXED_NOW
from tests.crash_harness import tree

FOLDERS = ("backstage-adrs", "docs-httpx", "thomvaill-log4brains-adrs", "alphagov-govuk-aws-adrs")


def _ingest_and_distill(root: Path, folders: list[Path]) -> None:
    settings = load_settings(root, fixed_clock=FIXED_NOW)
    inputs, problems = collect_inputs(folders)
    write_ingest(settings, prepare_batch(inputs, settings), problems)
    with writing_operation(settings, "distill") as operation:
        distill_memory(operation)


def _corpus_folders() -> list[Path]:
    assert CORPUS.is_dir(), f"the shared corpus is missing: expected it at {CORPUS}"
    folders = [CORPUS / name for name in FOLDERS]
    missing = [str(f) for f in folders if not f.is_dir()]
    assert not missing, f"corpus folders missing: {missing}"
    return folders


def test_one_run_and_one_run_per_folder_distill_the_same(tmp_path: Path) -> None:
    folders = _corpus_folders()
    together, apart = tmp_path / "together", tmp_path / "apart"
    _ingest_and_distill(together, folders)
    for folder in folders:
        _ingest_and_distill(apart, [folder])
    one, many = tree(together), tree(apart)
    assert sorted(one) == sorted(many)
    differ = sorted(k for k in one if one[k] != many[k])
    assert differ == []
    # The example: a term seen in several folders counts every occurrence, however
    # the folders were batched (its count was 11 against 10).
    inbox = orjson.loads((apart / "context/distill-candidates.jsonc").read_bytes())
    counts = {c["term"]: c["occurrences"] for c in inbox["candidates"]}
    assert counts["@log4brains/cli"] == 2 and counts["ADR"] >= 10
