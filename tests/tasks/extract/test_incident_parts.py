"""A postmortem as PagerDuty's and incident.io's templates write it (concl44): a Root cause
section beside a Contributing factors list, each factor a cause too; an export's "Reported at"
timestamp is the incident's day, not the day it was exported."""

from __future__ import annotations

from tasks.extract import SourceRef, extract_facts

EXPORT = """# INC-9: Checkout errors

> Exported from incident.io on 20 Mar 2025, 09:00 CET

**Status:** Closed
**Severity:** Major
**Reported at:** 14 Mar 2025, 10:02 CET
**Resolved at:** 14 Mar 2025, 11:40 CET

## Summary

Checkout failed for 98 minutes after a bad config push.

## Root cause

The payment client read a timeout of 0 from the new config.

## Contributing factors

- The config schema allowed a zero timeout.
- The canary stage covered no checkout traffic.

## Follow-ups

- [ ] Reject zero timeouts in the schema (owner: Ana)
"""


def _said() -> list[str]:
    result = extract_facts(EXPORT, SourceRef("x", "wiki/sources/x.md", "raw/x.md", "postmortems/inc-9.md"))
    return [fact.text for fact in result.observations]


def test_each_contributing_factor_beside_a_root_cause_is_a_cause() -> None:
    said = _said()
    assert "Cause: The payment client read a timeout of 0 from the new config." in said
    assert "Cause: The config schema allowed a zero timeout." in said
    assert "Cause: The canary stage covered no checkout traffic." in said


def test_the_reported_at_timestamp_is_the_incident_date_not_the_export_day() -> None:
    dates = [text for text in _said() if text.startswith("Incident date: ")]
    assert dates and dates[0].startswith("Incident date: 2025-03-14")


# An export's key information kept as a list of bold fields (written for this test).
FIELDS = """# INC-12: Subtitles missing

**Status:** Closed
**Severity:** Major

## Summary

New programmes had no subtitles for two days.

## Key information

- **Impact:** 214 programmes without subtitles for up to 52 hours.
- **Duration:** 2 days, 3 hours
- **Detected by:** a viewer complaint forwarded by the support desk

## Root cause

The parser upgrade broke one character table.

## Follow-ups

- [ ] Add a fixture for every character table (owner: Ana)
"""


def test_a_detected_by_field_is_the_detection_and_no_field_runs_into_the_impact() -> None:
    result = extract_facts(FIELDS, SourceRef("x", "wiki/sources/x.md", "raw/x.md", "postmortems/inc-12.md"))
    said = {fact.text: (fact.line_start, fact.line_end) for fact in result.observations}
    assert said["Detection: a viewer complaint forwarded by the support desk"] == (14, 14)
    assert said["Impact: 214 programmes without subtitles for up to 52 hours."] == (12, 12)
    assert not any(text.startswith("Impact: Duration") for text in said)


# A review that tells what went wrong beside what went well, a paragraph each (written for this
# test, in the SRE book's and incident.io's sections).
WENT_WRONG = """# INC-30: Requests not reaching the work-order system

**Status:** Closed
**Severity:** Major

## Summary

For a day no request became a work order because the connector's secret had expired.

## What went wrong

Nobody owned the renewal of the secret.

The connector treated 401 like any other error and kept reporting itself healthy.

## What went well

The queue kept every message.

## Follow-ups

- [ ] Alarm on the dead-letter queue (owner: Ana)
"""


def test_each_paragraph_of_what_went_wrong_is_a_cause() -> None:
    result = extract_facts(WENT_WRONG, SourceRef("x", "wiki/sources/x.md", "raw/x.md", "postmortems/inc-30.md"))
    said = {(fact.text, fact.line_start) for fact in result.observations}
    assert ("Cause: Nobody owned the renewal of the secret.", 12) in said
    assert ("Cause: The connector treated 401 like any other error and kept reporting itself healthy.", 14) in said
    assert not any(text.startswith("Cause: The queue kept") for text, _ in said)  # what went well is no cause


def test_a_summary_that_tells_how_it_recovered_gives_the_resolution() -> None:
    text = """# INC-7: activations failing

**Severity:** Major

## Summary

From 07:52 to 12:47 most activations failed: the vendor's new rate limit rejected our retries.

We recovered by cutting the worker concurrency to 16 and replaying the stuck jobs.

## Action items

- Back off on HTTP 429 (owner: Oona)
"""
    result = extract_facts(text, SourceRef("x", "wiki/sources/x.md", "raw/x.md", "inc-7.md"))
    said = {o.text: (o.line_start, o.line_end) for o in result.observations}
    assert said["Resolution: We recovered by cutting the worker concurrency to 16 and replaying the stuck "
                "jobs."] == (9, 9)
