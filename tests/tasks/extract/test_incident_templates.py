"""Incident write-ups as public templates and tools write them (issue 23 items 1-3 and 5, inc43):
the SRE book's Trigger section, PagerDuty's Impact table, How'd We Do? and a severity named in
its Overview, Atlassian's "The event was triggered by ...", incident.io's Contributors /
Mitigators / Learnings and risks, FireHydrant's Customer Impact Summary and bold-question
lessons, and a Statuspage incident's updates. Written here in other words than inc43's fixtures."""

from __future__ import annotations

from tasks.extract import Extraction, SourceRef, extract_facts


def _extract(name: str, text: str) -> Extraction:
    return extract_facts(text, SourceRef("x", "wiki/sources/x.md", "raw/x.md", name))


def _labelled(result: Extraction, label: str) -> dict[str, tuple[int, int]]:
    return {o.text: (o.line_start, o.line_end) for o in result.observations if o.text.startswith(f"{label}: ")}


SRE = """# Map tiles outage (incident #77)

### Date

2025-11-03

### Status

Complete, action items in progress

### Root Causes

The tile cache evicted every entry because its size limit was read in kilobytes.

### Trigger

A config push at 10:02 changed the cache size unit.

### Resolution

Rolled the config back at 10:40.
"""


def test_an_sre_trigger_section_is_the_trigger_not_a_cause() -> None:
    result = _extract("map-tiles.md", SRE)
    assert _labelled(result, "Trigger") == {"Trigger: A config push at 10:02 changed the cache size unit.": (17, 17)}
    assert all("config push" not in text for text in _labelled(result, "Cause"))
    assert "Status: Complete, action items in progress" in {o.text for o in result.observations}


PAGERDUTY = """# Webhook deliveries delayed

**Postmortem Owner:** Rosa Imbert

## Overview

On 2 June 2025 we suffered a 25 minute SEV-1 because the webhook queue's consumers were paused.

## Impact

| Time in SEV-1 | 25 mins |
|---|---|
| Webhooks delayed | 9,400 |
| Support Requests Raised | 12 |

## How'd We Do?

### What Went Well

* Paging reached the owner at once.

### What Didn't Go So Well

* The pause flag had no alert.
"""


def test_pagerduty_impact_table_severity_and_how_we_did() -> None:
    result = _extract("webhooks.md", PAGERDUTY)
    assert _labelled(result, "Severity") == {"Severity: SEV-1": (7, 7)}
    assert _labelled(result, "Impact") == {
        "Impact: Time in SEV-1: 25 mins; Webhooks delayed: 9,400; Support Requests Raised: 12": (11, 14)}
    assert set(_labelled(result, "Lesson")) == {"Lesson: Paging reached the owner at once.",
                                                "Lesson: The pause flag had no alert."}


def test_a_table_of_affected_services_is_no_table_of_figures() -> None:
    text = PAGERDUTY.replace("| Time in SEV-1 | 25 mins |", "| Service | Effect |").replace(
        "| Webhooks delayed | 9,400 |", "| webhook-relay | 9,400 deliveries late |")
    assert not _labelled(_extract("webhooks.md", text), "Impact")


def test_a_severity_named_past_the_opening_paragraphs_is_not_the_incidents() -> None:
    text = PAGERDUTY.replace("a 25 minute SEV-1", "a 25 minute outage") + (
        "\n## Notes\n\nFirst paragraph.\n\nSecond paragraph.\n\nIt would have been a SEV-1 at peak.\n")
    assert not _labelled(_extract("webhooks.md", text), "Severity")


ATLASSIAN = """# Postmortem: duplicate invoices

## Incident summary

Between 09:00 and 09:40 UTC, customers received duplicate invoices. The event was triggered by a
deploy of the invoicing worker at 08:58.

## Fault

The worker retried sends that had already succeeded.
"""


def test_an_atlassian_summary_sentence_tells_the_trigger() -> None:
    result = _extract("invoices.md", ATLASSIAN)
    assert _labelled(result, "Trigger") == {
        "Trigger: The event was triggered by a deploy of the invoicing worker at 08:58.": (5, 6)}


INCIDENT_IO = """# Post-mortem: INC-12 Search returning stale prices

## Summary

Search showed yesterday's prices for two hours on 4 May 2025.

## Contributors

- The price indexer skipped its run when the lock was held.

## Mitigators

- A manual reindex button let support fix the worst pages.

## Learnings and risks

- A skipped run must be loud.

## Follow-ups

- Alert when an indexer run is skipped (Mei Tan, ENG-9)
"""


def test_incident_io_contributors_mitigators_and_learnings() -> None:
    result = _extract("inc-12.md", INCIDENT_IO)
    assert _labelled(result, "Cause") == {
        "Cause: The price indexer skipped its run when the lock was held.": (9, 9)}
    assert _labelled(result, "Mitigation") == {
        "Mitigation: A manual reindex button let support fix the worst pages.": (13, 13)}
    assert _labelled(result, "Lesson") == {"Lesson: A skipped run must be loud.": (17, 17)}


FIREHYDRANT = """# Retrospective: Export job stalled

**Severity:** SEV2

## Customer Impact Summary

Customers could not download reports for 3 hours.

## Lessons Learned

**What went well?**

The retry button worked for small exports.

**What could have gone better?**

Nobody watched the export queue.
"""


def test_firehydrant_impact_summary_and_lessons_under_bold_questions() -> None:
    result = _extract("export-retro.md", FIREHYDRANT)
    assert _labelled(result, "Impact") == {"Impact: Customers could not download reports for 3 hours.": (7, 7)}
    assert _labelled(result, "Lesson") == {"Lesson: The retry button worked for small exports.": (13, 13),
                                           "Lesson: Nobody watched the export queue.": (17, 17)}


ATLASSIAN_ACTIONS = """# Postmortem: stale seat maps

## Incident summary

Seat maps showed sold seats as free for 20 minutes on 3 March 2025.

## Corrective actions

- Alert when a seat is sold twice (owner: Booking team, HOT-41).
- Add a contract test for the lock key (owner: Nadia Rahman, HOT-42).
"""


def test_a_team_owning_a_corrective_action_with_its_ticket_is_a_subject() -> None:
    result = _extract("seat-maps.md", ATLASSIAN_ACTIONS)
    teams = {e.ref.display for e in result.entities if e.ref.entity_type == "team"}
    assert "Booking team" in teams
    assert not any("HOT-41" in team for team in teams)


def test_an_incident_tools_start_and_end_fields_are_kept_as_written() -> None:
    text = INCIDENT_IO.replace("## Summary", "- **Impact started at:** 2025-05-04 07:55 UTC\n"
                               "- **Resolved at:** 2025-05-04 09:58 UTC\n- **Started:** soon\n\n## Summary")
    result = _extract("inc-12.md", text)
    assert _labelled(result, "Incident start") == {"Incident start: 2025-05-04 07:55 UTC": (3, 3)}
    assert _labelled(result, "Incident end") == {"Incident end: 2025-05-04 09:58 UTC": (4, 4)}
