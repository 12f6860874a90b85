"""Health retention by time: one line per run, one dated summary per day per check, pruning."""

from __future__ import annotations

from pathlib import Path

import orjson

from schemas.health import HealthCounts
from schemas.report import MemoryOperationReport
from tasks.health.files import write_health
from tasks.health.findings import finding
from tasks.health.history import record_ingest_run
from tasks.health.summary import build_summary
from tasks.store.names import utc_prefix


def summary(when: str, kind: str = "reconcile", errors: int = 0):
    findings = [finding("dead_link", "error", f"p{i}.md", "gone") for i in range(errors)]
    return build_summary(kind=kind, mode="check", project="default", root=Path("/m"), now_iso=when,
                         findings=findings, counts=HealthCounts(pages_total=1), repaired=[],
                         durations={"total": 0.1}, limit=5)


def dated(root: Path) -> list[str]:
    return sorted(p.name for p in (root / "context/health").glob("*__*-health.json"))


def history(root: Path) -> list[dict]:
    return [orjson.loads(line) for line in (root / "context/health/history.jsonl").read_bytes().splitlines()]


def test_one_dated_summary_per_day_per_check_and_one_history_line_per_run(tmp_path: Path) -> None:
    for when in ("2026-03-24T08:00:00Z", "2026-03-24T09:00:00Z", "2026-03-24T22:40:05Z"):
        write_health(tmp_path, summary(when))
    write_health(tmp_path, summary("2026-03-24T10:00:00Z", "freshness"))
    write_health(tmp_path, summary("2026-03-25T01:00:00Z", errors=2))
    assert dated(tmp_path) == ["2026-03-24T10-00-00Z__freshness-health.json",
                               "2026-03-24T22-40-05Z__reconcile-health.json",
                               "2026-03-25T01-00-00Z__reconcile-health.json"]
    lines = history(tmp_path)
    assert [line["generated_at"] for line in lines] == [
        "2026-03-24T08:00:00Z", "2026-03-24T09:00:00Z", "2026-03-24T22:40:05Z",
        "2026-03-24T10:00:00Z", "2026-03-25T01:00:00Z"]
    assert lines[-1]["exit_code"] == 1 and lines[-1]["counts"]["findings_by_code"] == {"dead_link": 2}
    assert [f["path"] for f in lines[-1]["findings"]] == ["p0.md", "p1.md"]
    latest = orjson.loads((tmp_path / "context/health/latest-reconcile.json").read_bytes())
    assert latest["generated_at"] == "2026-03-25T01:00:00Z"


def test_rerun_of_the_same_second_keeps_one_file(tmp_path: Path) -> None:
    write_health(tmp_path, summary("2026-03-24T08:00:00Z"))
    write_health(tmp_path, summary("2026-03-24T08:00:00Z"))
    assert dated(tmp_path) == ["2026-03-24T08-00-00Z__reconcile-health.json"]
    assert len(history(tmp_path)) == 2


def test_days_older_than_the_window_are_pruned(tmp_path: Path) -> None:
    for day in range(1, 11):
        write_health(tmp_path, summary(f"2026-03-{day:02d}T12:00:00Z"), keep_days=3)
    assert dated(tmp_path) == [f"2026-03-{day:02d}T12-00-00Z__reconcile-health.json" for day in (7, 8, 9, 10)]
    assert [line["generated_at"][:10] for line in history(tmp_path)] == [
        "2026-03-07", "2026-03-08", "2026-03-09", "2026-03-10"]
    assert (tmp_path / "context/health/latest.json").exists()


def ingest_report(when: str, files: int) -> MemoryOperationReport:
    report = MemoryOperationReport(mode="ingest", memory_write_timestamp_utc=when,
                                   utc_datetime_prefix=utc_prefix(when))
    report.figures.update({"files_ingested": files, "bytes_ingested": 3_000_000, "seconds": 1.5,
                           "mb_per_s": 2.0})
    return report


def test_ingest_adds_a_throughput_line_but_a_replay_adds_none(tmp_path: Path) -> None:
    assert record_ingest_run(tmp_path, ingest_report("2026-03-24T08:00:00Z", 3), 90)
    assert not record_ingest_run(tmp_path, ingest_report("2026-03-24T09:00:00Z", 0), 90)
    (line,) = history(tmp_path)
    assert line["kind"] == "ingest" and line["ingest"]["mb_per_s"] == 2.0
    assert line["durations_seconds"] == {"total": 1.5} and line["exit_code"] == 0
