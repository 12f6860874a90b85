"""The status of a revision history's latest row (revision_status), and a page that states its
status nowhere else (issue 23 item 2, stat71)."""

from __future__ import annotations

from tasks.extract.revision_status import revision_status
from tests.extraction import extract, stated

OLDEST_FIRST = [
    (10, "| Version | Date | Author | Status | Change |"),
    (11, "|---|---|---|---|---|"),
    (12, "| 0.1 | 02.05.2025 | Ines Ko | Draft | First draft |"),
    (13, "| 1.0 | 19.05.2025 | Ines Ko | Final | Reviewed by the board |"),
]


def test_the_latest_row_gives_the_status() -> None:
    fact = revision_status(OLDEST_FIRST, day_first=True)
    assert fact is not None and (fact.text, fact.line_start) == ("Status: Final", 13)


def test_a_table_written_newest_first_gives_its_first_row() -> None:
    rows = [*OLDEST_FIRST[:2], (12, "| 1.1 | 2025-06-30 | Approved | Owner changed |"),
            (13, "| 1.0 | 2025-05-19 | Draft | First issue |")]
    rows[0] = (10, "| Version | Date | Status | Change |")
    fact = revision_status(rows, day_first=None)
    assert fact is not None and fact.text == "Status: Approved"


def test_a_status_cell_that_is_no_status_word_and_a_table_without_one_give_none() -> None:
    prose = [*OLDEST_FIRST[:3], (13, "| 1.0 | 19.05.2025 | Ines Ko | see the board's minutes | - |")]
    assert revision_status(prose, day_first=True) is None
    assert revision_status([(1, "| Version | Date | Change |"), (2, "|---|---|---|"),
                            (3, "| 1.0 | 2025-05-19 | First |")], day_first=None) is None


def test_a_review_whose_only_status_is_its_history_row_states_it() -> None:
    text = ("# Review: ledger export stalled\n\n## Summary\n\nOn 4 May 2025 the ledger export stalled for "
            "two hours because its disk filled.\n\n## Root cause\n\nThe export kept every temporary file.\n\n"
            "## Document history\n\n| Version | Date | Author | Status |\n|---|---|---|---|\n"
            "| 0.1 | 05.05.2025 | Ines Ko | Draft |\n| 1.0 | 12.05.2025 | Ines Ko | Final |\n")
    assert stated(extract(text), "status") == ["Status: Final"]
