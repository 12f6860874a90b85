"""Writing stages keep the index current in the same run; reconcile rebuilds what is missing."""

from __future__ import annotations

from pathlib import Path

from tasks.bootstrap import bootstrap_memory
from tasks.checks.reconcile import reconcile_memory
from tasks.distill.apply import distill_memory
from tasks.ingest import apply_ingest, collect_inputs, prepare_batch
from tasks.search.index import build_index, index_file, index_state
from tasks.search.query import SearchOptions, search
from tasks.store.operation import begin_operation, writing_operation
from tasks.store.settings import load_settings

NOW = "2026-03-24T22:40:05Z"
ADR = ("# 7. Use zeppelin queues\n\nDate: 2020-01-01\n\n## Status\n\nAccepted\n\n"
       "## Context\n\nJobs pile up.\n\n## Decision\n\nWe use zeppelin queues for background jobs.\n")


def ingest_and_distill(root: Path, folder: Path) -> None:
    settings = load_settings(root, fixed_clock=NOW)
    with writing_operation(settings, "ingest") as operation:
        inputs, problems = collect_inputs([folder])
        apply_ingest(operation, prepare_batch(inputs, settings), problems)
    with writing_operation(settings, "distill") as operation:
        distill_memory(operation)


def test_ingest_and_distill_update_an_existing_index(tmp_path: Path) -> None:
    root = tmp_path / "mem"
    with writing_operation(load_settings(root, fixed_clock=NOW), "bootstrap") as operation:
        bootstrap_memory(operation)
    layout = operation.layout
    build_index(layout)
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "0007-use-zeppelin-queues.md").write_text(ADR)
    ingest_and_distill(root, folder)
    mtime = index_file(layout).stat().st_mtime_ns
    hits = search(layout, "zeppelin queues", SearchOptions(include_superseded=True)).hits
    kinds = {(h.kind, h.page_type) for h in hits}
    assert ("page", "source") in kinds and ("page", "entity") in kinds
    assert ("observation", "entity") in kinds
    assert index_file(layout).stat().st_mtime_ns == mtime  # updated in place, not rebuilt
    decision = search(layout, "zeppelin", SearchOptions(types=("decision",))).hits
    assert decision and all(h.entity_type == "decision" for h in decision)


def test_reconcile_repairs_a_missing_index_and_check_writes_none(tmp_path: Path) -> None:
    root = tmp_path / "mem"
    settings = load_settings(root, fixed_clock=NOW)
    with writing_operation(settings, "bootstrap") as operation:
        bootstrap_memory(operation)
    report, _summary = reconcile_memory(begin_operation(settings, "reconcile"), check=True)
    assert "search_index" not in report.figures
    assert index_state(operation.layout) == "missing"
    with writing_operation(settings, "reconcile") as operation:
        report, _summary = reconcile_memory(operation, check=False)
    assert report.figures["search_index"].startswith("missing: rebuilt")
    assert index_state(operation.layout) == "ok"
    with writing_operation(settings, "reconcile") as operation:
        report, _summary = reconcile_memory(operation, check=False)
    assert report.figures["search_index"] == "ok"
