"""Every statement of a form's answers and a page's named fields (cov69): a question over its
answer, a bold field line, a run-in label, a field table's rows and columns, and on a page of no
genre a section whose heading names a part; each statement with its own lines, labelled by the
field's words or its own, never the question, a metadata field, a placeholder or guidance.
Fixtures written for these tests."""

from __future__ import annotations

from tasks.extract import Extraction, SourceRef, extract_facts
from tasks.extract.field_statements import field_part, field_statements
from tasks.extract.structure import scan

INCIDENT_FORM = """# Incident report: build cache outage

Form: Incident report (Platform team)
Responder: ana@example.org

**1. Which system was affected?**

The shared build cache and every CI runner that reads from it.

**2. When was it discovered, and by whom?**

On Tuesday at 09:10, by Bo Lind during the morning stand-up.

**3. What was the root cause?**

The cache volume filled up after the retention job was switched off in March.

**4. What immediate actions were taken?**

- Bo deleted images older than 30 days from the volume.
- Chen restarted the runners one by one.

**5. Follow-up actions (with owner)**

- Turn the retention job back on and alert when it has not run — Chen Wei
- Add a disk usage panel to the CI dashboard — Bo Lind

**6. Current status of the incident**

Closed and monitoring in place now

**7. Comments (optional)**

*If you are unsure what to write here, ask the incident manager*
"""


def _extract(text: str, name: str = "docs/x.md") -> Extraction:
    return extract_facts(text, SourceRef("x", "wiki/sources/x.md", "raw/x.md", name))


def _lines(result: Extraction) -> dict[str, tuple[int, int]]:
    return {o.text: (o.line_start, o.line_end) for o in result.observations}


def test_a_field_names_its_part_in_the_readers_words() -> None:
    assert field_part("8. What was the root cause?") == "Cause"
    assert field_part("When was it discovered, and by whom?") == "Detection"
    assert field_part("Follow-up actions (with owner)") == "Action item"
    assert field_part("What immediate actions were taken?") == "Resolution"
    assert field_part("How many customers were affected?") == "Impact"
    assert field_part("Hypothesis") == "Goal"
    assert field_part("Non-goals") == "Non-goal"
    assert field_part("When to use this card") == "Alert"
    assert field_part("4. OPTIONS NOT TAKEN") == "Rejected"
    assert field_part("Favourite colour") is None


def test_each_answer_of_a_form_is_kept_under_its_question_part() -> None:
    found = _lines(_extract(INCIDENT_FORM))
    assert found["Cause: The cache volume filled up after the retention job was switched off in March."] == (
        16, 16)
    assert found["Detection: On Tuesday at 09:10, by Bo Lind during the morning stand-up."] == (12, 12)
    assert found["Resolution: Chen restarted the runners one by one."] == (21, 21)
    assert found["Action item: Add a disk usage panel to the CI dashboard — Bo Lind"] == (26, 26)
    texts = " ".join(found)
    assert "What was the root cause" not in texts and "Which system" not in texts  # never a question
    # a status field is the status readers' (their "Status:" observation), no statement
    assert "monitoring in place" not in " ".join(text for text in found if not text.startswith("Status: "))
    assert "ask the incident manager" not in texts  # guidance in italics


BRIEF = """# Experiment brief: smarter retry for flaky tests

Owner: Ana Ruiz

## Context

About 4% of CI runs fail on a test that passes on retry.

## Hypothesis

If CI retries a failed test once, then fewer merges wait on a re-run.

## Decision criteria

Ship if median merge time drops and no real failure is hidden.

## Results

TBD

## Notes

We met on Tuesday to talk about it.
"""


def test_a_page_of_no_genre_reads_its_named_sections_as_fields() -> None:
    found = _lines(_extract(BRIEF))
    assert found["Goal: If CI retries a failed test once, then fewer merges wait on a re-run."] == (11, 11)
    assert found["Decision: Ship if median merge time drops and no real failure is hidden."] == (15, 15)
    texts = " ".join(found)
    assert "TBD" not in texts
    assert "We met on Tuesday" not in texts  # a section that names no part, and says none


RUN_IN = """# Retention review for the photo archive

Author: Bo Lind

**Nature of the processing.** Volunteers upload scans; a nightly job resizes them for the web.

**Retention.** Scans are kept for ten years and then deleted by the archive job.

| Risk | Measure | Residual |
|---|---|---|
| R1 scans exposed by a leaked link | Links expire after seven days and need a sign-in | Low |

| Field | Value |
|---|---|
| Root cause | The export bucket was left public after the migration. |
"""


def test_run_in_labels_and_field_tables_are_fields() -> None:
    found = _lines(_extract(RUN_IN))
    assert found["Constraint: Scans are kept for ten years and then deleted by the archive job."] == (7, 7)
    assert found["Mitigation: Links expire after seven days and need a sign-in"] == (11, 11)
    assert found["Cause: The export bucket was left public after the migration."] == (15, 15)
    assert any(text.endswith("a nightly job resizes them for the web.") for text in found)


PAPER = """TOOLING BOARD - DECISION NOTICE

    Reference ........ TB-7
    Outcome .......... APPROVED

1. BACKGROUND

1.1 Builds upload artefacts to three different stores today. Nobody can say which copy
is the one that shipped.

2. DECISION

2.1 Every build SHALL upload its artefacts to the one artefact store.

2.2 The two old stores turn read-only on 1 June and are deleted a year later.

3. OPTIONS NOT TAKEN

3.1 Keep the three stores and sync them nightly; the sync would be a fourth system.

4. CONSEQUENCES

- Release scripts change their upload step; the platform team does that before June.
"""


def test_a_plain_papers_numbered_headings_are_fields_and_paragraph_numbers_go() -> None:
    found = _lines(_extract(PAPER))
    assert found["Decision: The two old stores turn read-only on 1 June and are deleted a year later."] == (
        15, 15)
    assert found["Rejected: Keep the three stores and sync them nightly; the sync would be a fourth system."] == (
        19, 19)
    assert found["Consequence: Release scripts change their upload step; the platform team does that before June."] \
        == (23, 23)
    assert not any(text.startswith(("Decision: 2.2", "Rejected: 3.1")) for text in found)


LEAD_INS = """# Search cache notes

Root cause:

The cache key left out the locale, so pages in one language were served in another.

Consequence we accept: a cold cache after each deploy costs about ten minutes of slow pages.

TBD: who owns the cache dashboard after the move.

The team proposes:

- Keep the cache for anonymous pages only.
"""


def test_a_plain_lead_in_names_a_field_and_a_statement_led_by_a_part_takes_it() -> None:
    found = _lines(_extract(LEAD_INS))
    assert found["Cause: The cache key left out the locale, so pages in one language were served in another."] == (
        5, 5)
    assert any(text.startswith("Consequence: Consequence we accept: a cold cache") for text in found)
    assert not any("who owns the cache dashboard" in text for text in found)  # still open: no statement


LOG_TABLE = """# Payments decision log

| ID | Date | Decision | Risk |
|---|---|---|---|
| PAY-1 | 2025-01-10 | Card data stays with the processor. | Nobody checks the processor's logs today. |
"""


def test_a_logs_table_is_left_to_the_log_readers() -> None:
    assert not any(o.text.startswith("Risk: Nobody checks") for o in _extract(LOG_TABLE).observations)


PLAIN_TEXT_REPORT = """ACME HOSTING - REASON FOR OUTAGE

Reference:   RFO-12
Status:      Closed

1. SUMMARY
----------
Event start:  3 May 09:10 UTC
Duration:     2 h 5 min

Uploads to the EU region failed for two hours.

2. ROOT CAUSE
-------------
- The certificate on the upload gateway had expired at midnight on 2 May.
"""


def test_a_plain_text_reports_underlined_numbered_headings_are_fields() -> None:
    found = _lines(_extract(PLAIN_TEXT_REPORT, "docs/rfo-12.md"))
    assert found["Cause: The certificate on the upload gateway had expired at midnight on 2 May."] == (
        15, 15)
    assert not any("Duration" in text or "Event start" in text for text in found)  # its header fields
    structure = scan(PLAIN_TEXT_REPORT.split("\n"), 1)
    said = {(f.text, f.line_start) for f in field_statements(structure, [], incident=True)}
    assert said == {("Summary: Uploads to the EU region failed for two hours.", 11),
                    ("Cause: The certificate on the upload gateway had expired at midnight on 2 May.", 15)}


KB_ARTICLE = """# How to rotate the upload gateway certificate

## Symptoms

Uploads fail with a TLS handshake error.

## Resolution

1. Renew the certificate with the internal CA.
2. Reload the gateway so it serves the new one.

## Cause

The gateway certificate is issued for 90 days and nobody renews it by hand in time.
"""


def test_a_genre_pages_unread_section_of_a_telling_part_is_a_field() -> None:
    found = _lines(_extract(KB_ARTICLE, "runbooks/rotate-gateway-cert.md"))
    assert found["Cause: The gateway certificate is issued for 90 days and nobody renews it by hand in time."] == (
        14, 14)


COMMITTEE = """RIVERSIDE LIBRARIES - DIGITAL SERVICES COMMITTEE

Minutes of the meeting held on 4 March 2026

Present: A. Khan (Chair), B. Osei, C. Lind

DSC/26/04 Catalogue search outage
The catalogue search was down for six hours on a Saturday. The index server ran out of disk.
RESOLVED: that the index server gets disk alerts before the summer.

DSC/26/05 Any other business
None.
"""


def test_a_committees_numbered_minutes_are_fields_told_as_what_it_heard() -> None:
    found = _lines(_extract(COMMITTEE, "minutes/dsc-2026-03-04.md"))
    assert found["Outcome: The catalogue search was down for six hours on a Saturday."] == (8, 8)
    assert not any("Any other business" in text for text in found)  # the minute's title
