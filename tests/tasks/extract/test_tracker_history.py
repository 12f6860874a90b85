"""The state an issue tracker's history leaves a record in (tracker_history, issue 23 item 2,
stat71): close and reopen events, a journal's state changes; a state quoted in a comment is none."""

from __future__ import annotations

from tasks.extract.tracker_history import history_status
from tests.extraction import extract, stated


def _status(*lines: str) -> str | None:
    fact = history_status(list(enumerate(lines, start=1)))
    return fact.text if fact else None


def test_the_last_close_or_reopen_event_gives_the_state() -> None:
    assert _status("**mo-li** closed this as completed in #88 on Jun 2") == "Status: Closed"
    assert _status("mo-li closed this as not planned on Jun 2", "**sam** reopened this on Jun 5") == "Status: Open"
    assert _status("- Rui Costa closed via merge request !77 · Jun 9, 2025") == "Status: Closed"


def test_a_journals_last_state_change_gives_the_state() -> None:
    assert _status("- **Status** changed from *New* to *In Progress*", "- **% Done** changed from 0 to 40",
                   "- **Status** changed from *In Progress* to *Resolved*") == "Status: Resolved"


def test_states_quoted_in_comments_are_no_events() -> None:
    assert _status("#12 is still Open.", "We closed this gap in the last sprint.",
                   "The status changed from bad to worse.") is None


def test_an_issue_copied_without_its_state_line_takes_its_close_event() -> None:
    text = ("# Export drops the last row #88\n\nsam opened this issue on May 30, 2025 · 2 comments\n\n"
            "**sam** commented on May 30, 2025\n\nThe CSV export of the ledger drops its last row.\n\n"
            "**mo-li** commented on Jun 1, 2025\n\nThe writer is not flushed; #12 (still Open) tracks the "
            "rewrite.\n\n**mo-li** closed this as completed in #90 on Jun 2\n")
    result = extract(text)
    assert stated(result, "status") == ["Status: Closed"]
    assert stated(result, "date") == ['Date: 2025-05-30 (written "opened this issue on May 30, 2025")']
