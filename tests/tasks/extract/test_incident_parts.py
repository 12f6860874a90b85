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
