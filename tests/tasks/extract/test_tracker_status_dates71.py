"""Status and dates as trackers, wikis and controlled documents write them (issue 23 item 2,
stat71): GitLab's state line, Redmine's filing byline before a Start date, a draft waiting for
approval, a title's leading mark, a wiki-markup icon before a status."""

from __future__ import annotations

import pytest

from tasks.extract.genres import issue_state
from tasks.extract.status_text import status_observation, title_status
from tests.extraction import extract, stated

BODY = "\n\n## Description\n\nThe payroll export writes amounts with a comma as the decimal mark.\n"


def test_gitlabs_state_line_states_the_issues_state() -> None:
    assert issue_state("Closed · Issue created Jun 4, 2025 by Rui Costa · Payroll / exports #57") == "Closed"
    assert issue_state("Open · Incident created 2 hours ago by Rui Costa") == "Open"
    assert issue_state("Open issue created by the payroll team") is None  # a sentence, no state line


def test_redmines_filing_byline_dates_the_issue_before_its_start_date() -> None:
    text = ("# Bug #412: Payroll export uses a decimal comma\n\nAdded by Rui Costa on 14.05.2025 10:02. "
            "Updated on 02.06.2025 16:40.\n\n| | | | |\n|---|---|---|---|\n"
            "| Status: | Resolved | Start date: | 20.05.2025 |\n| Priority: | High | Due date: | |\n" + BODY)
    result = extract(text)
    assert stated(result, "status") == ["Status: Resolved"]
    # the day it was filed, not the day work began ("Start date: 20.05.2025", read before)
    assert stated(result, "date")[0] == 'Created: 2025-05-14 (written "Added by Rui Costa on 14.05.2025 10:02")'


@pytest.mark.parametrize(
    ("written", "expected"),
    [
        ("Draft, for approval at the next board", 'Status: Draft (written "Draft, for approval at the next board")'),
        ("Draft, pending sign-off by Finance", 'Status: Draft (written "Draft, pending sign-off by Finance")'),
        ("Approved, for approval at the next board", "Status: Approved, for approval at the next board"),
    ],
)
def test_what_a_draft_waits_for_is_not_its_status(written: str, expected: str) -> None:
    assert status_observation(written, 1, 1).text == expected


def test_a_titles_leading_or_closing_mark_is_its_status() -> None:
    assert title_status("DRAFT: Payroll export in CSV") == "DRAFT"
    assert title_status("Runbook: payroll export (RETIRED)") == "RETIRED"
    assert title_status("Runbook: payroll export") is None  # a genre word before the colon, no status


def test_a_wiki_markup_icon_before_a_status_is_no_part_of_it() -> None:
    text = "# Payroll export design\n\n| | |\n|---|---|\n| Status | (/) DONE |\n| Owner | Rui Costa |\n" + BODY
    assert stated(extract(text), "status") == ["Status: DONE"]


def test_a_control_tables_fields_side_by_side_are_read_without_colons() -> None:
    text = ("# Payroll export procedure\n\n| Status | Approved | Version | 2.1 |\n|---|---|---|---|\n"
            "| Effective date | 03.04.2025 | Owner | Payroll team |\n" + BODY)
    result = extract(text)
    assert stated(result, "status") == ["Status: Approved"]
    assert stated(result, "date")[0].startswith("Date: 2025-04-03")


def test_a_log_tables_head_pairs_no_fields() -> None:
    text = ("# Payroll export notes\n\n| Date | Status | Owner | Notes |\n|---|---|---|---|\n"
            "| 2025-04-03 | Done | Rui Costa | First run |\n" + BODY)
    assert stated(extract(text), "status") == []  # its rows are a log's, not the page's fields


def test_bold_fields_in_a_row_are_read_apart() -> None:
    text = ("# [PAY-12] Payroll export uses a decimal comma\n\n**Status:** In Progress **Resolution:** Unresolved\n"
            "**Created:** 14/May/25 10:02 AM **Updated:** 02/Jun/25 4:40 PM\n" + BODY)
    result = extract(text)
    assert stated(result, "status") == ["Status: In Progress"]
    assert stated(result, "date")[0].endswith(': 2025-05-14 (written "14/May/25 10:02 AM")')
