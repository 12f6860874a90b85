"""Minutes written by an AI note-taker (Zoom AI Companion's "Quick recap" over its "Summary" of
topic sub-sections): the recap is the meeting's Summary."""

from __future__ import annotations

from tasks.extract import SourceRef, extract_facts

MINUTES = """# Meeting summary for Payments weekly sync (03/04/2026)

**Participants:** Ana Ruiz, Ben Ode

## Quick recap

The team reviewed the refund backlog and agreed to retire the old export job next month.

## Next steps

- Ana to switch off the export job on 1 April.

## Summary

### Refund backlog

Ben reported that the backlog is down to 40 refunds.
"""


def test_the_quick_recap_is_the_meetings_summary() -> None:
    result = extract_facts(MINUTES, SourceRef("x", "wiki/sources/x.md", "raw/x.md", "minutes/sync.md"))
    summaries = [(fact.text, fact.line_start) for fact in result.observations if fact.text.startswith("Summary: ")]
    assert summaries == [("Summary: The team reviewed the refund backlog and agreed to retire the old export job"
                          " next month.", 7)]


HACKMD = """# Depot planning review — 04/03/2026

**Attendees:** Ana Ruiz, Ben Ode

## Agenda

1. Forklift charging

## 1. Forklift charging

- Ben: the chargers trip when all six run at once. ==Decided: charge at most four forklifts at a time.==
- Night shift: ==Decided: move charging to the night shift from 1 April.==
- Ana asked whether the old chargers can be sold.

## Action items

- [ ] @ben — put up the charging rota — 10/03
"""


def test_a_highlighted_decision_in_hackmd_minutes_is_a_decision() -> None:
    result = extract_facts(HACKMD, SourceRef("x", "wiki/sources/x.md", "raw/x.md", "minutes/depot.md"))
    decisions = [(fact.text, fact.line_start) for fact in result.observations if fact.text.startswith("Decision: ")]
    assert decisions == [("Decision: charge at most four forklifts at a time.", 11),
                         ("Decision: move charging to the night shift from 1 April.", 12)]
