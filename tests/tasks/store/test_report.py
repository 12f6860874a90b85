"""StageReport: notes through one object, the status rule applied once by finish()."""

from __future__ import annotations

from schemas.report import MemoryOperationReport, Problem
from tasks.store.report import CountFigures, RecoveryFigures, StageFigures, StageReport

PROBLEM = Problem(file="a.md", code="bad", message="bad page")


def _stage(mode: str = "ingest") -> StageReport:
    return StageReport(MemoryOperationReport.model_validate({
        "mode": mode, "memory_write_timestamp_utc": "2026-03-24T22:40:05Z",
        "utc_datetime_prefix": "2026-03-24T22-40-05Z"}))


class _Figures(StageFigures):
    files: int = 0
    health: str | None = None


class _Counts(CountFigures):
    seen: int = 0
    reverted: int | None = None


def test_the_status_rule_success_partial_failed() -> None:
    stage = _stage()
    assert stage.finish().status == "success"
    stage.note_problem(PROBLEM)
    assert stage.finish().status == "partial"
    stage.note_failure()
    assert stage.finish().status == "failed"


def test_a_child_counts_in_its_parent_and_keeps_its_own_mode() -> None:
    parent = _stage()
    child = parent.child("bootstrap")
    assert child.mode == "bootstrap" and child.report.utc_datetime_prefix == "2026-03-24T22-40-05Z"
    child.note_problem(PROBLEM)
    assert parent.finish().status == "partial" and not parent.problems
    child.note_failure()
    assert parent.finish().status == "failed"
    assert parent.report.stages == []  # a composed child is not a listed stage


def test_adopted_and_resumed_reports_keep_their_status() -> None:
    failed = _stage("distill").report.model_copy(update={"status": "failed"})
    summary = _stage("run")
    summary.adopt(failed)
    assert summary.report.stages == [failed] and summary.finish().status == "failed"
    resumed = StageReport.resume(failed.model_copy(update={"status": "partial"}))
    assert resumed.finish().status == "partial"


def test_figures_are_typed_and_dumped_in_order_without_nones() -> None:
    stage = _stage()
    stage.note_figures(RecoveryFigures(recovered_rolled_back_files=2))
    stage.note_figures(_Figures(files=3, health="ok"))
    assert stage.finish().figures == {"recovered_rolled_back_files": 2, "files": 3, "health": "ok"}
    assert _Figures.read(stage.report) == _Figures(files=3, health="ok")


def test_counts_add_field_by_field() -> None:
    assert _Counts(seen=2).plus(_Counts(seen=3, reverted=1)) == _Counts(seen=5, reverted=1)
