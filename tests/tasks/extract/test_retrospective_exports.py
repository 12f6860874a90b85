"""An incident tool's retrospective export (FireHydrant's public template: the tool's export
note under the title, Description, Customer impact, Timeline, Contributing factors, "What went
well?", "What didn't go so well?", "Where did we get lucky?", Follow-up tasks), issue 23 item 3.
Written here for a parcel locker network."""

from __future__ import annotations

from tasks.extract import Extraction, SourceRef, extract_facts
from tasks.extract.incident_prose import timeline_repairs


def _labelled(result: Extraction, label: str) -> list[tuple[str, int]]:
    return [(o.text, o.line_start) for o in result.observations if o.text.startswith(f"{label}: ")]


EXPORT = """# Retrospective: INC-77 Lockers refused every pickup code

**Incident:** INC-77 · **Severity:** SEV2

_Exported from FireHydrant. Empty fields were left out._

## Description

From 09:00 to 10:30 every locker refused the pickup codes sent that morning.

## Timeline

| Time | Event |
|---|---|
| 09:05 | Support notices a spike of locker complaints |
| 09:20 | Code sending paused for all lockers |
| 10:10 | Signing key rotated on every locker |

## What didn't go so well?

- Nobody knew the signing key expired yearly.
"""


def _extract() -> Extraction:
    return extract_facts(EXPORT, SourceRef("x", "wiki/sources/x.md", "raw/x.md", "inc-77.md"))


def test_the_tools_export_note_is_not_the_summary() -> None:
    result = _extract()
    assert _labelled(result, "Summary") == [
        ("Summary: From 09:00 to 10:30 every locker refused the pickup codes sent that morning.", 9)]
    assert not any("Exported" in o.text for o in result.observations)


def test_a_timeline_entry_that_contains_the_harm_is_the_mitigation() -> None:
    result = _extract()
    assert _labelled(result, "Mitigation") == [("Mitigation: Code sending paused for all lockers", 16)]
    assert _labelled(result, "Resolution") == [("Resolution: Signing key rotated on every locker", 17)]


def test_what_did_not_go_so_well_is_kept_as_a_cause() -> None:
    assert ("Cause: Nobody knew the signing key expired yearly.", 21) in _labelled(_extract(), "Cause")


def test_timeline_repairs_before_it_was_noticed_are_not_read() -> None:
    entries = [(1, "Feature flag disabled for the beta"), (2, "On-call notices the error spike"),
               (3, "Feature flag disabled for everyone"), (4, "Fix deployed")]
    assert timeline_repairs(entries) == [("Mitigation", ("Feature flag disabled for everyone", 3, 3)),
                                         ("Resolution", ("Fix deployed", 4, 4))]


SEV_REVIEW = """# SEV Review: print queue stalled (SEV2)

## Summary

The print queue stalled for two hours after the spooler lost its disk.

## Root cause

The spooler's only disk failed and nothing moved its jobs elsewhere.

## Timeline

| Time | Event |
|---|---|
| 09:10 | Front desk flags missing boarding passes |
| 09:25 | SEV2 opened |
| 10:40 | Mitigated: jobs routed to the backup spooler |
| 11:05 | Resolved |

## Tasks

- T-12 Alert when the spooler disk is 80% full — **done**
- T-13 Second spooler in the other rack — open
"""


def test_a_sev_reviews_tasks_are_its_action_items_and_a_named_entry_its_part() -> None:
    result = extract_facts(SEV_REVIEW, SourceRef("x", "wiki/sources/x.md", "raw/x.md", "sev.md"))
    assert _labelled(result, "Action item") == [
        ("Action item: T-12 Alert when the spooler disk is 80% full — done", 22),
        ("Action item: T-13 Second spooler in the other rack — open", 23)]
    assert _labelled(result, "Mitigation") == [("Mitigation: jobs routed to the backup spooler", 17)]
    assert _labelled(result, "Resolution") == []  # a bare "Resolved" tells nothing


def test_a_runbooks_tasks_are_no_action_items() -> None:
    runbook = ("# Runbook: print queue\n\n## Meaning\n\nThe queue is stalled.\n\n## Mitigation\n\n"
               "1. Route jobs to the backup spooler.\n\n## Tasks\n\n- Restart the spooler.\n")
    result = extract_facts(runbook, SourceRef("x", "wiki/sources/x.md", "raw/x.md", "rb.md"))
    assert _labelled(result, "Action item") == []


def test_a_word_that_names_a_thing_tells_no_detection() -> None:
    entries = [(1, "Envoy retries cause more /flags requests"), (2, "Rollback deployed")]
    assert timeline_repairs(entries) == []  # nothing noticed it: no response has started
