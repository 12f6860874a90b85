"""Conclusions in house styles that set their parts as plain text (concl71): a plain-text paper's
headings ("2. Recommendation", "Backout plan" over its text), statements led by a label that
names their part ("CAB decision: ...", "BLUF: ..."), an experiment's test and learning cards and
its results, an issue thread's closing comment. Fixtures written for these tests."""

from __future__ import annotations

import pytest

from tasks.extract import SourceRef, extract_facts
from tasks.extract.experiment_results import experiment_results
from tasks.extract.field_statements import field_part, field_statements
from tasks.extract.issue_threads import thread_resolution
from tasks.extract.led_statements import led_statements
from tasks.extract.plain_headings import plain_heading
from tasks.extract.structure import scan


def _observations(text: str) -> list[str]:
    return [o.text for o in extract_facts(text, SourceRef("a1", "s.md", "raw/x.md")).observations]


def test_a_plain_heading_is_a_short_line_that_names_a_part_over_its_text() -> None:
    assert plain_heading("3. Reasons for the decision", "", field_part) == "Reasons for the decision"
    assert plain_heading("Backout plan", "Restore last night's snapshot of the database.", field_part) \
        == "Backout plan"
    assert plain_heading("Alternatives", "- Do nothing: rejected.", field_part) == "Alternatives"
    # a numbered step that is a sentence, a numbered line over its text, a greeting, a name
    assert plain_heading("1. Stop the service on both nodes.", "", field_part) is None
    assert plain_heading("2. Restart", "then check the logs", field_part) is None
    assert plain_heading("Kind regards", "Ana", field_part) is None
    assert plain_heading("Priya Raman", "Head of Platform, Example Ltd", field_part) is None


PAPER = """FINANCE AND SYSTEMS PANEL

Paper FSP/26/03
Meeting date: 4 February 2026

REPLACING THE PAYROLL EXPORT

1. Purpose

1.1 This paper asks the Panel to choose how payroll data reaches the ledger.

2. Recommendation

2.1 The Panel is asked to approve a nightly API transfer from the payroll system to the ledger.

3. Reasons for the recommendation

3.1 The current CSV export is copied by hand and was late four times in 2025.

4. Options considered

4.1 Option A - keep the CSV export. Rejected: it depends on one clerk being in the office.
4.2 Option B - a nightly API transfer (recommended).

Backout plan
If the transfer fails twice in a row the clerk sends the CSV export as before.

Decision of the Panel (4 February 2026): Option B approved for go-live in April.
"""


def test_a_plain_text_papers_parts_are_read_under_its_headings() -> None:
    said = _observations(PAPER)
    assert "Decision: The Panel is asked to approve a nightly API transfer from the payroll system to the ledger." \
        in said
    assert "Rationale: The current CSV export is copied by hand and was late four times in 2025." in said
    assert "Rejected: Rejected: it depends on one clerk being in the office." in said
    assert "Decision: Option B - a nightly API transfer (recommended)." in said  # not the rejected options
    assert "Mitigation: If the transfer fails twice in a row the clerk sends the CSV export as before." in said
    assert "Decision: Decision of the Panel (4 February 2026): Option B approved for go-live in April." in said


CHANGE_BOARD = """Change board record

Date: 9 March 2026

Item 1: CHG-210 Upgrade the VPN concentrator

Requested by: Bo Lind
Description: move the VPN concentrator to firmware 9.
Backout plan: reinstall firmware 8 from the saved image on the console.
CAB decision: Deferred. The vendor has not yet confirmed support for our client version.
Status: Pending
"""


BRIEFING_NOTE = ("Briefing note\n\nTo: Board\nFrom: Ana Ruiz\n\n"
                 "BLUF: Move the help desk to the new ticketing system in May; it saves two licences.\n\n"
                 "Ask: The Board is asked to approve the move at its April meeting.\n")


@pytest.mark.parametrize(("text", "expected"), [
    (CHANGE_BOARD, ["Mitigation: Backout plan: reinstall firmware 8 from the saved image on the console.",
                    "Decision: CAB decision: Deferred. The vendor has not yet confirmed support for our client version."]),
    # a briefing note's bottom line and its ask
    (BRIEFING_NOTE, ["Summary: BLUF: Move the help desk to the new ticketing system in May; it saves two licences.",
                     "Ask: Ask: The Board is asked to approve the move at its April meeting."]),
])
def test_a_label_that_names_a_part_leads_its_statement(text: str, expected: list[str]) -> None:
    assert [fact.text for fact in led_statements(scan(text.split("\n"), 1), [])] == expected


def test_an_experiments_cards_say_their_parts() -> None:
    card = ("# Test card\n\nWe believe that a shorter sign-up form will raise completed sign-ups.\n\n"
            "We observed that completed sign-ups rose from 41% to 47% over three weeks.\n\n"
            "From that we learned that the address fields caused most drop-outs.\n\n"
            "Therefore, we will ship the short form to every visitor.\n")
    said = [fact.text.split(": ", 1)[0] for fact in led_statements(scan(card.split("\n"), 1), [])]
    assert said == ["Goal", "Outcome", "Lesson", "Decision"]


def test_an_experiment_write_ups_results_are_kept_as_outcomes() -> None:
    write_up = ("# EXP-3: Shorter sign-up form\n\nStatus: Concluded\n\n## Hypothesis\n\n"
                "A shorter form raises completed sign-ups.\n\n## Result\n\n"
                "Completed sign-ups rose from 41% to 47% in the test group.\n\n"
                "## Decision\n\nShip the short form to every visitor.\n")
    said = [fact.text for fact in experiment_results(scan(write_up.split("\n"), 1), [])]
    assert said == ["Outcome: Completed sign-ups rose from 41% to 47% in the test group."]


THREAD = """Bug #88: Invoices printed twice

Status: Closed

History

#1 Updated by Ana Ruiz 3 months ago

Status changed from New to In Progress

The print job is queued once by the scheduler and once by the retry handler.

#2 Updated by Ana Ruiz 2 months ago

Status changed from In Progress to Closed
% Done changed from 0 to 100

The retry handler now checks the job ID before it queues a print job.
"""


def test_an_issue_threads_closing_comment_is_its_resolution() -> None:
    said = [fact.text for fact in thread_resolution(scan(THREAD.split("\n"), 1), [])]
    assert said == ["Resolution: The retry handler now checks the job ID before it queues a print job."]
    # one entry is no thread
    assert thread_resolution(scan(THREAD.split("#2 Updated")[0].split("\n"), 1), []) == []


def test_an_option_turned_down_in_prose_is_rejected() -> None:
    mail = ("Subject: Printing prices\n\nDear all,\n\nFrom 1 July every branch charges 15p a page for printing.\n\n"
            "We looked at making printing free. We did not choose it because print income pays for the printers.\n")
    assert "Rejected: We did not choose it because print income pays for the printers." in _observations(mail)


LETTERED = """RESOURCES PANEL

Paper RP/26/02

2. Recommendation

2.1 The Panel is asked to APPROVE that:

  a. the help desk moves to the new ticketing system in May;
  b. the old system stays read-only until the end of the year.

3. Options considered

| Option | Cost | Comment |
|---|---|---|
| A. Move in May | £4k | Recommended |
| B. Stay on the old system | £9k a year | Rejected: the vendor ends support in December |
"""


def test_a_papers_lettered_items_and_an_options_tables_led_cells_are_read() -> None:
    said = _observations(LETTERED)
    assert "Decision: the help desk moves to the new ticketing system in May;" in said
    assert "Decision: the old system stays read-only until the end of the year." in said
    assert "Rejected: Rejected: the vendor ends support in December" in said


def test_meetbots_own_lines_are_no_statements() -> None:
    summary = ("#ops: weekly\n\nMeeting started by ana at 14:00:08 UTC. The full logs are available at\n"
               "https://meetbot.example.org/ops/2026/ops.2026-05-06-14.00.log.html .\n\nMeeting summary\n"
               "---------------\n* Backups  (ana, 14:03:11)\n"
               "  * AGREED: keep nightly backups for 35 days, not 90  (ana, 14:09:02)\n\n"
               "Meeting ended at 14:35:51 UTC.\n\nGenerated by `MeetBot`_ 0.1.4\n")
    said = _observations(summary)
    assert not [text for text in said if "Meeting started" in text or "Meeting ended" in text or "MeetBot" in text]
    assert any(text.startswith("Decision: ") and "keep nightly backups for 35 days" in text for text in said)


def test_a_scribes_marked_decision_is_kept_past_a_fields_cap() -> None:
    said = "\n".join(f"* the queue for region {n} drained in under an hour  (bo, 14:{n:02d}:00)" for n in range(10))
    summary = (f"Meeting summary\n---------------\n{said}\n"
               "* AGREED: move the nightly job to 02:00 for every region  (ana, 14:31:40)\n")
    decisions = [fact.text for fact in field_statements(scan(summary.split("\n"), 1), [], headings=True)
                 if fact.text.startswith("Decision: ")]
    assert decisions == ["Decision: AGREED: move the nightly job to 02:00 for every region (ana, 14:31:40)"]
