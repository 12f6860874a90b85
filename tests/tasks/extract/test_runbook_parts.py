"""An alert runbook as the public alert-runbook templates write it (concl44): its trigger under
"When this alert fires", what users lose under "What it means for users", a Triage or
Diagnosis section of numbered checks with sub-cases, and an escalation told as a table."""

from __future__ import annotations

from tasks.extract import SourceRef, extract_facts
from tasks.extract.genre_text import list_items

RUNBOOK = """# QueueBacklogHigh

## When this alert fires

`QueueBacklogHigh` fires when the billing queue holds more than 50,000 messages for
10 minutes. It resolves by itself once the queue drains.

## What it means for users

- Invoices are sent late.
- The billing dashboard shows yesterday's totals.

## Triage

Start from the consumers.

1. Open the queue dashboard. Which queue is growing?
2. If the consumers are up but slow, the database is the bottleneck:
   check the slow query log.
   - Lock waits above 5 s: a migration holds a table lock.
   - No slow queries at all: the consumers are throttled by the rate limiter.
3. If no consumer is connected, the deploy failed: check the release log.

## Mitigation

1. Restart the consumers.
2. Scale the consumer deployment to 6 replicas.

## Escalation

| After | Who | How |
|---|---|---|
| 15 minutes without a cause | Billing on-call secondary | PagerDuty |
| Invoices late by a day | Head of Billing | phone |
"""


def _said() -> list[tuple[str, int]]:
    result = extract_facts(RUNBOOK, SourceRef("x", "wiki/sources/x.md", "raw/x.md", "runbooks/queue-backlog.md"))
    return [(fact.text, fact.line_start) for fact in result.observations]


def test_when_this_alert_fires_is_the_alert() -> None:
    assert any(text.startswith("Alert: `QueueBacklogHigh` fires when the billing queue holds more than 50,000")
               and line == 5 for text, line in _said())


def test_what_it_means_for_users_is_the_impact_not_the_meaning() -> None:
    said = [text for text, _ in _said()]
    assert any(text.startswith("Impact: Invoices are sent late.") for text in said)
    assert not any(text.startswith("Meaning: ") for text in said)


def test_each_triage_check_and_sub_case_is_a_diagnosis() -> None:
    diagnosis = [(text, line) for text, line in _said() if text.startswith("Diagnosis: ")]
    assert ("Diagnosis: If the consumers are up but slow, the database is the bottleneck: check the slow "
            "query log.", 18) in diagnosis
    assert ("Diagnosis: Lock waits above 5 s: a migration holds a table lock.", 20) in diagnosis
    assert ("Diagnosis: If no consumer is connected, the deploy failed: check the release log.", 22) in diagnosis


def test_an_escalation_table_gives_each_row() -> None:
    said = _said()
    assert ("Escalation: 15 minutes without a cause: Billing on-call secondary", 33) in said
    assert ("Escalation: Invoices late by a day: Head of Billing", 34) in said


def test_a_nested_item_keeps_its_wrapped_lines_to_itself() -> None:
    lines = list(enumerate(["1. Check the pool.", "   - Pool full: raise the limit", "     to 50 connections.",
                            "2. Check the disk."], start=1))
    assert list_items(lines) == [("Check the pool.", 1, 1), ("Check the disk.", 4, 4)]
    assert list_items(lines, nested=True)[1] == ("Pool full: raise the limit to 50 connections.", 2, 3)


def test_the_paragraph_that_closes_a_list_of_steps_is_a_step_too() -> None:
    text = ("# DiskFull\n\n## Mitigation\n\n- Clear the cache.\n- Rotate the logs.\n\n"
            "After any fix, confirm the disk is under 80 % before resolving.\n\n## Escalation\n\nPage storage.\n")
    said = [fact.text for fact in extract_facts(text, SourceRef("x", "y", "raw/x.md", "runbooks/disk.md")).observations]
    assert "Mitigation: After any fix, confirm the disk is under 80 % before resolving." in said
    assert "Mitigation: Rotate the logs." in said


def test_a_list_cut_by_the_window_has_no_closing_paragraph() -> None:
    steps = "".join(f"- Step {n} of the fix.\n" for n in range(1, 40))
    text = f"# DiskFull\n\n## Mitigation\n\n{steps}\nThe end.\n"
    said = [fact.text for fact in extract_facts(text, SourceRef("x", "y", "raw/x.md", "runbooks/disk.md")).observations]
    assert "Mitigation: The end." not in said


def test_a_bullet_left_bare_by_a_template_comment_is_no_line_of_the_item_before() -> None:
    lines = list(enumerate(["* the team already runs the cluster", "* <!-- numbers of drivers can vary -->",
                            "", "Next paragraph."], 1))
    assert list_items(lines) == [("the team already runs the cluster", 1, 1)]


# A runbook whose fix is told case by case (written for this test): a sub-section per failure,
# the second with two paragraphs, and a Meaning that goes on in a second paragraph.
_CASES = """# Runbook: QueueDepthHigh

## What it means

Orders are accepted but not shipped. Customers see no change yet.

The spool disk holds about a day of orders.

## Resolution

### Worker crashed

Restart the worker with `systemctl restart order-worker`.

### Database locked

Kill the long transaction first, then restart the worker.

Then open a ticket with the database team.
"""


def test_a_fix_told_case_by_case_keeps_each_case() -> None:
    result = extract_facts(_CASES, SourceRef("x", "wiki/sources/x.md", "raw/x.md", "runbooks/queue.md"))
    said = {(o.text, o.line_start) for o in result.observations}
    assert ("Meaning: Orders are accepted but not shipped. Customers see no change yet.", 5) in said
    assert ("Meaning: The spool disk holds about a day of orders.", 7) in said
    # a runbook's Resolution is its Mitigation: each case's paragraphs, not the first one alone
    mitigation = [(text, line) for text, line in said if text.startswith("Mitigation: ")]
    assert sorted(line for _, line in mitigation) == [13, 17, 19]
    assert ("Mitigation: Then open a ticket with the database team.", 19) in said


# An e-mail write-up (written for this test) whose parts are plain lines: what was done, as a
# list, then the actions agreed under a title with a note in brackets.
_EMAIL = """From: Ana Ruiz <ana@example.org>
Date: Tue, 3 Mar 2026 17:00:00 +0000
Subject: What happened with the nightly export

Hi all,

What happened

The nightly export to the warehouse wrote an empty file on Monday night.

What we did

1. Re-ran the export by hand at 08:10.
2. Asked the finance team to reload their dashboard.

What we will change (owners agreed at this morning's stand-up)

1. Ana will add a row-count check before the upload.
2. I will page on an empty export file.

Ana
"""


def test_an_email_write_up_tells_what_was_done_and_what_will_change() -> None:
    result = extract_facts(_EMAIL, SourceRef("x", "wiki/sources/x.md", "raw/x.md", "postmortems/export.md"))
    said = {(o.text.split(" (owner", 1)[0], o.line_start, o.kind) for o in result.observations}
    # what was done: a detail each (who was asked is no subject), never an action item
    assert ("Resolution: Re-ran the export by hand at 08:10.", 13, "detail") in said
    assert ("Resolution: Asked the finance team to reload their dashboard.", 14, "detail") in said
    assert ("Action item: Ana will add a row-count check before the upload.", 18, "action") in said
    assert ("Action item: I will page on an empty export file.", 19, "action") in said
    assert not any(text.startswith("Resolution: ") and "will" in text for text, _, _ in said)


# A runbook that lists its alerts among its symptoms, says when one fires in its overview, and
# keeps its checks as numbered sub-sections and a table (written for this test).
LISTED = """# Origin errors high

**Alerts:** `OriginErrorRateHigh`, `OriginDown`, `OriginStale`

## Overview

The OriginStale alert fires when a feed is more than 30 hours old.

## Symptoms

- `OriginErrorRateHigh`: more than 2% of origin responses are 5xx for 5 minutes.
- `OriginDown` fires: no origin answered for 3 minutes.
- Apps show an error on start.

## Possible checks

### 1. One channel or all?

Look at the channel label on the dashboard.

### 2. Origin or CDN?

Compare the two CDN panels. If only one CDN shows errors, it is that CDN.

| Failed task | Usual meaning |
|---|---|
| `publish` | CDN API error, most often an expired token |

## Resolution

1. Restart the packager.

## Escalation

- Platform on-call after 15 minutes.
"""


def _listed() -> list[tuple[str, int]]:
    result = extract_facts(LISTED, SourceRef("x", "wiki/sources/x.md", "raw/x.md", "runbooks/origin.md"))
    return [(fact.text, fact.line_start) for fact in result.observations]


def test_each_alert_its_symptoms_list_with_its_condition_is_an_alert() -> None:
    said = _listed()
    assert ("Alert: OriginErrorRateHigh: more than 2% of origin responses are 5xx for 5 minutes.", 11) in said
    assert ("Alert: OriginDown: no origin answered for 3 minutes.", 12) in said
    assert not any(text.startswith("Alert: Apps show") for text, _ in said)  # a symptom, no alert


def test_the_sentence_that_says_when_the_alert_fires_is_an_alert_beside_the_symptoms() -> None:
    assert ("Alert: The OriginStale alert fires when a feed is more than 30 hours old.", 7) in _listed()


def test_each_check_sub_section_and_table_row_is_a_diagnosis() -> None:
    said = _listed()
    assert ("Diagnosis: Look at the channel label on the dashboard.", 19) in said
    assert ("Diagnosis: Compare the two CDN panels. If only one CDN shows errors, it is that CDN.", 23) in said
    assert ("Diagnosis: `publish`: CDN API error, most often an expired token", 27) in said


# concl49: the alerts a Symptoms list names after the word "Alert", and an Impact told over two
# paragraphs (what is late, then what is not lost).
BACKLOG = """# Intake backlog

## Symptoms

- Alert `IntakeNotifyBacklog`: the queue `intake-notify` has more than 2,000 active messages.
- Alert `IntakeUrgentBacklog`: any urgent message older than 5 minutes. **This one pages at once.**
- Data managers report that forms do not show in the review screens.

## Impact

Forms reach the data store late, and urgent reports reach the safety team late.

Nothing is lost while the queue grows: messages are kept for 14 days.

## Mitigation

1. Restart the workers.
"""


def test_a_symptoms_list_names_its_alerts_after_the_word_alert() -> None:
    result = extract_facts(BACKLOG, SourceRef("x", "wiki/sources/x.md", "raw/x.md", "intake-backlog.md"))
    said = {o.text: (o.line_start, o.line_end) for o in result.observations}
    assert said["Alert: IntakeNotifyBacklog: the queue `intake-notify` has more than 2,000 active "
                "messages."] == (5, 5)
    assert any(text.startswith("Alert: IntakeUrgentBacklog: any urgent message") and "pages at once" in text
               for text in said)
    assert not any(text.startswith("Alert: Data managers") for text in said)


def test_an_impact_told_over_two_paragraphs_keeps_both() -> None:
    result = extract_facts(BACKLOG, SourceRef("x", "wiki/sources/x.md", "raw/x.md", "intake-backlog.md"))
    impacts = [(o.text, o.line_start, o.line_end) for o in result.observations if o.text.startswith("Impact: ")]
    assert impacts == [
        ("Impact: Forms reach the data store late, and urgent reports reach the safety team late.", 11, 11),
        ("Impact: Nothing is lost while the queue grows: messages are kept for 14 days.", 13, 13)]


def test_an_alert_page_in_plain_words_is_a_runbook() -> None:
    """An alert's page whose parts say in plain words when it fires, what users lose and whom it
    pages in turn (no Meaning, Diagnosis or Mitigation heading) is read as a runbook: its
    trigger, its impact and its escalation chain."""
    text = ("# OcrBacklogHigh\n\n## When this alert fires\n\n`OcrBacklogHigh` fires when the oldest page waits"
            " over 20 minutes.\n\n## What it means for users\n\n- Scanned documents stay unsearchable.\n\n"
            "## Licence server unreachable\n\n1. Check the licence server instance.\n\n## Escalation chain\n\n"
            "| Step | Who |\n|---|---|\n| 1 | OCR on-call |\n\nTell the review team in #review-ops after an hour.\n")
    result = extract_facts(text, SourceRef("x", "wiki/sources/x.md", "raw/x.md", "runbooks/ocr-backlog.md"))
    said = [fact.text for fact in result.observations]
    assert any(t.startswith("Alert: `OcrBacklogHigh` fires when") for t in said), said
    assert "Impact: Scanned documents stay unsearchable." in said
    assert any(t.startswith("Escalation: ") and "#review-ops" in t for t in said), said


def test_the_numbered_steps_of_a_case_section_are_its_mitigation() -> None:
    """An alert's runbook whose triage sends the reader to a section per case ("## Step A: one
    collection starves the others", "## Licence server unreachable"): each numbered step of a
    section no part reads is a Mitigation; a Related section's list is none."""
    text = ("# Collection stuck\n\n## Symptoms\n\n- The queue age alert fires.\n\n## Quick triage\n\n"
            "| What you see | Go to |\n|---|---|\n| One collection holds the slots | Step A |\n\n"
            "## Step A: one collection starves the others\n\n1. List who holds the semaphore.\n"
            "2. Terminate the workflow, do not delete it.\n3. Move the offending file to quarantine.\n\n"
            "## Escalation\n\nPage the platform on-call.\n\n"
            "## Related\n\n1. The architecture page.\n2. The OCR runbook.\n")
    result = extract_facts(text, SourceRef("x", "wiki/sources/x.md", "raw/x.md", "runbooks/stuck.md"))
    said = {fact.text: fact.line_start for fact in result.observations}
    assert said.get("Mitigation: Terminate the workflow, do not delete it.") == 16, said
    assert said.get("Mitigation: Move the offending file to quarantine.") == 17, said
    assert not any("architecture page" in text for text in said), said


def test_an_escalation_table_before_a_wiki_diagram_gives_each_row() -> None:
    text = ("# Backlog\n\n## Symptoms\n\n- The backlog alert fires.\n\n## Escalation\n\n| When | Who |\n|---|---|\n"
            "| Backlog not draining after rollback | Platform on-call |\n| Broker unhealthy | Ops secondary |\n\n"
            "::: mermaid\ngraph LR\n  S[Sensors] --> B[Broker]\n:::\n")
    result = extract_facts(text, SourceRef("x", "wiki/sources/x.md", "raw/x.md", "runbooks/backlog.md"))
    said = [fact.text for fact in result.observations]
    assert "Escalation: Backlog not draining after rollback: Platform on-call" in said, said
    assert not any("graph LR" in text for text in said), said


def test_a_part_that_leads_into_a_table_keeps_each_row() -> None:
    """A Meaning written as a lead-in and a table of its usual causes ("Almost always, one of:"):
    each row is a meaning, not only the lead-in."""
    text = ("# LedgerMismatch\n\n## When this alert fires\n\nThe alert fires when the ledger and the scale"
            " disagree.\n\n## What it means\n\nAlmost always, one of:\n\n| Cause | How often |\n|---|---|\n"
            "| A ticket did not reach the ledger | 70% |\n| A ticket was voided after it was applied | 20% |\n\n"
            "## Escalation\n\nPage the ledger on-call.\n")
    result = extract_facts(text, SourceRef("x", "wiki/sources/x.md", "raw/x.md", "runbooks/ledger.md"))
    said = {fact.text: fact.line_start for fact in result.observations}
    assert said.get("Meaning: A ticket did not reach the ledger: 70%") == 13, said
    assert said.get("Meaning: A ticket was voided after it was applied: 20%") == 14, said
