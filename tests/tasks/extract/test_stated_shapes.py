"""Status and dates in the shapes stat49 left and stat50 wrote (issue 23 items 2 and 6): a
tracker's state on a line of its own, a project page's start date, and the shapes of the stat50
set (tracker exports, PR descriptions, database properties, catalog files, written dates)."""

from __future__ import annotations

from tests.extraction import extract, stated


def test_a_bare_state_line_above_the_opened_line_is_the_issues_status() -> None:
    # GitHub's issue page copied as text: "**Closed**" alone, then "tlind opened this issue on ..."
    text = ("# Pump readings missing every night #231\n\n**Closed**\n\n"
            "tlind opened this issue on Mar 3, 2026 · 4 comments\n\n---\n\n"
            "**tlind** commented on Mar 3, 2026\n\nEvery night the table has a hole.\n")
    result = extract(text, "issues/231-pump-readings.md")
    assert "Status: Closed" in stated(result, "status")
    # a bold word alone with no tracker's line after it states nothing
    plain = extract("# Door rota\n\n**Closed**\n\nThe office is shut on Fridays.\n", "notes/rota.md")
    assert stated(plain, "status") == []


def test_a_project_pages_start_date_is_the_projects_not_the_pages() -> None:
    text = ("# Data Platform : Telemetry migration\n\nCreated by Lena Brandt, last modified on Feb 27, 2026\n\n"
            "| Page properties | |\n|---|---|\n| Project status | IN PROGRESS |\n| Project lead | Lena Brandt |\n"
            "| Start date | 02 Feb 2026 |\n| Target date | Q3 2026 |\n\n## Why\n\nThe old table is slow.\n")
    dates = stated(extract(text, "wiki/telemetry-migration-plan.md"), "date")
    assert 'Start date: 2026-02-02 (written "02 Feb 2026")' in dates
    assert not any(d.startswith(("Created:", "Date:")) for d in dates)
    # an RFC's "Start Date" is still the day it was written
    rfc = extract("# Retry uploads\n\n- Start Date: 2026-01-05\n- RFC PR: #12\n\n## Summary\n\nRetry.\n\n"
                  "## Motivation\n\nUploads fail.\n", "rfcs/0012-retry-uploads.md")
    assert any(d.startswith("Created: 2026-01-05") for d in stated(rfc, "date"))
