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
