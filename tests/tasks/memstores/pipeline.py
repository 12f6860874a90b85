"""Test helper: ingest paths and distill them in-process with the real stage code (no Prefect)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from schemas.report import MemoryOperationReport
from tasks.bootstrap import bootstrap_memory
from tasks.distill.apply import distill_memory
from tasks.ingest import apply_ingest, collect_inputs, prepare_batch
from tasks.store.operation import writing_operation
from tasks.store.settings import load_settings

NOW = "2026-03-24T22:40:05Z"


def ingest_and_distill(root: Path, paths: Sequence[str | Path], now: str = NOW
                       ) -> tuple[MemoryOperationReport, MemoryOperationReport]:
    settings = load_settings(root, fixed_clock=now)
    with writing_operation(settings, "bootstrap") as operation:
        bootstrap_memory(operation)
    inputs, problems = collect_inputs([str(p) for p in paths])
    with writing_operation(settings, "ingest") as operation:
        ingested = apply_ingest(operation, prepare_batch(inputs, settings), problems)
    with writing_operation(settings, "distill") as operation:
        distilled = distill_memory(operation)
    return ingested, distilled
