"""The text output of a writing command: a failed search index update is said, once."""

from __future__ import annotations

from io import StringIO

from rich.console import Console

from flows.render import render_report
from schemas.report import MemoryOperationReport, Problem


def test_a_consistency_warning_is_printed_and_a_problem_line_is_not_repeated() -> None:
    report = MemoryOperationReport(mode="ingest", project="p",
                                   memory_write_timestamp_utc="2026-03-24T22:40:05Z",
                                   utc_datetime_prefix="2026-03-24T22-40-05Z")
    problem = Problem(code="invalid_frontmatter", message="bad", file="a.md")
    report.problems.append(problem)
    index_warning = ("search index not updated (database or disk is full); the next search "
                     "brings it up to date")
    report.memory_health.consistency_warnings += [index_warning, problem.one_line()]
    out = StringIO()
    render_report(Console(file=out, width=300, color_system=None), report)
    lines = out.getvalue().splitlines()
    assert [line.strip() for line in lines if "warning" in line] == [f"warning {index_warning}"]
    assert sum(problem.one_line() in line for line in lines) == 1
