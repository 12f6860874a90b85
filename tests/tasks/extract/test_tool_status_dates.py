"""Status and dates as incident and wiki tools state them (issue 23 items 2 and 6, stat45): an
incident tool's fields under "Key information", bold fields on one line, a status page's history
copied as text, a channel summary's lifecycle lines, a Backstage catalog entry kept in a fence,
nested front matter, Confluence's status lozenge, and the day fields that are not the page's own."""

from __future__ import annotations

import pytest

from tasks.extract.genre_meta import catalog_lifecycle, genre_status, iso_date
from tasks.extract.genres import HeaderField, header_fields
from tasks.extract.status_updates import first_posted, is_update_chrome, update_parts, update_states
from tasks.extract.structure import scan
from tests.extraction import extract as _extract
from tests.extraction import stated as _stated


@pytest.mark.parametrize(
    ("written", "expected"),
    [
        ("Tue 3 Mar 2026", "2026-03-03"),
        ("March 3rd, 2026", "2026-03-03"),
        ("3rd of March 2026", "2026-03-03"),
        ("2026-03-03T14:05:00Z", "2026-03-03"),
        ("Q1 2026", None),  # a quarter is no day (nor a month)
        ("Q2 2026 (target release)", None),
    ],
)
def test_dates_as_teams_write_them_in_headers(written: str, expected: str | None) -> None:
    assert iso_date(written) == expected


INCIDENT_IO = """# INC-2231: Stop displays frozen

## Key information

- **Status:** Learning
- **Severity:** Minor
- **Reported at:** 2026-03-03T14:05:00Z
- **Resolved at:** 2026-03-03T15:20:00Z

## Summary

Forty stop displays froze after the arrivals API moved.

## Contributors

- The display controller does not follow redirects.
"""


def test_an_incident_tools_fields_under_key_information_are_the_pages_own() -> None:
    result = _extract(INCIDENT_IO)
    assert _stated(result, "status") == ["Status: Learning"]
    assert _stated(result, "date") == ['Incident date: 2026-03-03 (written "2026-03-03T14:05:00Z")']
    assert "Severity: Minor" in _stated(result, "severity")  # read as an incident: its fields say so


def test_bold_fields_on_one_line_are_read_apart() -> None:
    text = ("# Retrospective: charger overload\n\n**Incident:** INC-88 · **Severity:** SEV3 · "
            "**Current milestone:** Resolved\n\n## Milestones\n\n| Milestone | Time |\n|---|---|\n"
            "| Started | 2026-03-09 22:41 UTC |\n| Resolved | 2026-03-10 01:05 UTC |\n\n"
            "## Contributing Factors\n\n- The scheduler started every charger at once.\n")
    result = _extract(text)
    assert _stated(result, "status") == ["Status: Resolved"]  # FireHydrant's milestone, not "INC-88 · ..."
    assert _stated(result, "severity") == ["Severity: SEV3"]
    assert 'Incident date: 2026-03-09 (written "2026-03-09 22:41 UTC")' in _stated(result, "date")


HISTORY = """# Delayed arrivals on stop displays

Resolved - This incident has been resolved.
Mar 3, 14:05 UTC

Monitoring - The feed is publishing again. We are monitoring the results.
Mar 3, 13:40 UTC

Identified - The issue has been identified as a stalled consumer of the location stream.
Mar 3, 13:12 UTC

Investigating - We are investigating reports of displays showing scheduled times only.
Mar 3, 12:58 UTC

This incident affected: Stop displays.

Posted 2 days ago. Mar 03, 2026 - 12:58 UTC
"""


def test_a_status_page_history_copied_as_text_is_read_as_its_updates() -> None:
    structure = scan(HISTORY.splitlines(), 1)
    assert [state for _, state in update_states(structure)] == ["resolved", "monitoring", "identified",
                                                                "investigating"]
    parts = dict(update_parts(structure))
    assert parts["Cause"][0] == "The issue has been identified as a stalled consumer of the location stream."
    result = _extract(HISTORY)
    assert _stated(result, "status") == ['Status: resolved (written "Resolved")']  # as its update writes it
    assert _stated(result, "date") == ['Incident date: 2026-03-03 (written "Posted 2 days ago. Mar 03, 2026 - 12:58 UTC")']
    assert not any(o.text.startswith("Summary: ") for o in result.observations)  # an update is no summary


def test_a_plain_update_is_only_a_status_pages_state_before_a_dash() -> None:
    notes = scan(["# Notes", "", "Update - we bumped the chart.", "", "Completed - the migration ran."], 1)
    assert update_states(notes) == []  # a note's "Update - ..." is no status page's update
    assert is_update_chrome("Mar 3, 14:05 UTC") and is_update_chrome("Resolved - done.")
    assert not is_update_chrome("On Mar 3, 14:05 UTC the feed stopped.")


def test_the_first_posted_update_dates_a_long_status_page() -> None:
    lines = [(n, f"Update {n} of a long page.") for n in range(1, 40)]
    lines += [(40, "Posted Mar 04, 2026 - 09:00 UTC"), (41, "filler"), (42, "Posted Mar 03, 2026 - 12:58 UTC")]
    assert first_posted(lines) == (42, "Posted Mar 03, 2026 - 12:58 UTC")
    page = ("# Card payments failing\n\n**Resolved** - This incident has been resolved.\n\n"
            + "".join(f"**Update** - Still working on it, step {n}.\n\n" for n in range(14))
            + "**Investigating** - We are looking into failed card payments.\nPosted Mar 03, 2026 - 12:58 UTC\n")
    assert _stated(_extract(page), "date") == ['Incident date: 2026-03-03 (written "Posted Mar 03, 2026 - 12:58 UTC")']


def test_a_channel_summary_states_the_incidents_last_step() -> None:
    text = ("# #inc-depot-power: channel summary\n\n- Incident opened at 05:52 on Tue 3 Mar 2026 by @amira\n"
            "- Incident resolved at 09:10 on Tue 3 Mar 2026 by @pieter\n- Severity: SEV2\n"
            "- Incident closed at 09:45 on Tue 3 Mar 2026 by @pieter\n\n"
            "**What happened:** A power cut at the depot stopped the overnight charging.\n")
    assert _stated(_extract(text), "status") == ["Status: closed"]
    story = ("# Depot outage\n\n## What happened\n\nThe incident was resolved at 09:10 when the generator "
             "started.\n\n## Root cause\n\nThe transfer switch was in manual mode.\n")
    assert _stated(_extract(story), "status") == []  # a sentence of the story is no bot's lifecycle line


CATALOG_PAGE = """# Journey Planner Service

Last reviewed: 03/03/2026

## Summary

The journey planner answers trip queries.

## Catalog entry

```yaml
apiVersion: backstage.io/v1alpha1
kind: Component
metadata:
  name: journey-planner
spec:
  type: service
  lifecycle: experimental
  owner: group:planning-team
```
"""


def test_a_backstage_entry_for_the_pages_own_component_gives_its_lifecycle() -> None:
    result = _extract(CATALOG_PAGE)
    assert _stated(result, "status") == ["Status: experimental"]
    assert 'Review date: 2026-03-03 (written "03/03/2026")' in _stated(result, "date")  # one reading only
    structure = scan(CATALOG_PAGE.splitlines(), 1)
    assert catalog_lifecycle(structure, "Trip search overview") is None  # another component's entry
    two = CATALOG_PAGE.replace("```\n", "---\napiVersion: backstage.io/v1alpha1\nkind: Component\nmetadata:\n"
                               "  name: journey-planner-ui\nspec:\n  lifecycle: production\n```\n")
    assert catalog_lifecycle(scan(two.splitlines(), 1), "Journey Planner Service") is None  # many entries


def test_nested_front_matter_dates_and_lifecycle() -> None:
    text = ("---\ntitle: Fare sync runbook\ndate:\n  created: 2024-01-31\n  updated: 2024-02-02\n"
            "spec:\n  lifecycle: deprecated\n---\n\n# Fare sync runbook\n\n## Symptom\n\nOld fares on buses.\n\n"
            "## Diagnosis\n\n1. Check the job.\n\n## Mitigation\n\n1. Re-run the job.\n")
    result = _extract(text)
    assert "Date: 2024-01-31" in _stated(result, "date") and "Last updated: 2024-02-02" in _stated(result, "date")
    assert _stated(result, "status") == ["Status: deprecated"]


def test_confluence_status_lozenge_as_its_macro_text() -> None:
    found = genre_status([HeaderField("status", "{status:colour=Green|title=IN PROGRESS}", 4)], None)
    assert found is not None and found.text == "Status: IN PROGRESS"
    plain = genre_status([HeaderField("status", "✅ DONE", 4)], None)
    assert plain is not None and plain.text == "Status: DONE"


def test_a_field_that_dates_something_else_never_gives_the_main_date() -> None:
    runbook = ("# Depot network: runbook\n\n| Status | Current |\n|---|---|\n| Owner | Depot IT |\n"
               "| Last reviewed | 3rd of March 2026 |\n\n## Diagnosis\n\n1. Check the controller.\n\n"
               "## Mitigation\n\n1. Restore the configuration.\n\n## Escalation\n\nPage the network team.\n")
    assert _stated(_extract(runbook), "date") == ['Review date: 2026-03-03 (written "3rd of March 2026")']
    proposal = ("# Proposal: idempotent loads\n\nLast updated: 2025-06-24\n\n## Motivation\n\n"
                "On 19 May 2025 the job restored from an old checkpoint and loaded reads twice.\n\n"
                "## Goals\n\n- Loads can run twice.\n\n## Non-Goals\n\n- Exactly-once delivery.\n\n"
                "## Design Details\n\nEach load carries its batch key.\n")
    assert _stated(_extract(proposal), "date") == ["Last updated: 2025-06-24"]  # the story's day is not its own
    requirements = ("# Passenger alerts: requirements\n\n| | |\n|---|---|\n| Target release | Q2 2026 |\n"
                    "| Document status | DRAFT |\n\n## Goals\n\n- Tell passengers of a cancelled bus.\n")
    result = _extract(requirements)
    assert _stated(result, "date") == [] and _stated(result, "status") == ["Status: DRAFT"]


def test_an_unadorned_state_is_an_update_only_over_its_stamp() -> None:
    minutes = scan(["# Board minutes", "", "Resolved - that the budget for 2026 is approved.", "",
                    "Resolved - that the audit committee meets in May."], 1)
    assert update_states(minutes) == []  # a board's resolutions are no status page's updates
    stamped = scan(["# Slow logins", "", "Resolved - This incident has been resolved.", "Mar 3, 14:05 UTC"], 1)
    assert update_states(stamped) == [(3, "resolved")]


# stat49: the status and date shapes stat45 left, each as a public template or tool writes it.
CONFLUENCE_PROPOSAL = """# Self-service meter photo upload

| | |
|---|---|
| **Status** | Accepted |
| **Owner** | Rui Costa |
| **Target release** | Q3 2026 |

Created by Rui Costa, last modified on Mar 03, 2026

## Problem

Customers who cannot read their meter call the contact centre to book a reader visit.

## Proposal

The customer portal takes a photo of the meter and reads the figures from it.

## Out of scope

- Reading gas meters.

## Open questions

- Can the photo be kept as evidence in a billing dispute?
"""


def test_a_confluence_byline_dates_the_last_change_not_the_creation() -> None:
    result = _extract(CONFLUENCE_PROPOSAL, "design/meter-photo-upload.md")
    assert _stated(result, "status") == ["Status: Accepted"]
    # "Created by Rui Costa, last modified on ...": the day is the last change's; Q3 2026 no day
    assert _stated(result, "date") == ['Last updated: 2026-03-03 (written "modified on Mar 03, 2026")']


CONFLUENCE_RUNBOOK = """1. [Network Operations](index.html)

# Network Operations : Booster pump restart

Created by Joan Miro, last modified by Rui Costa on Mar 17, 2026

## When the booster pump trips

1. Check the pump's breaker on the SCADA console.
2. Restart the pump from the console: `restart BP-04`.
"""


def test_a_confluence_export_modified_by_someone_else_is_last_updated() -> None:
    dates = _stated(_extract(CONFLUENCE_RUNBOOK, "runbooks/booster-pump-restart.md"), "date")
    assert dates == ['Last updated: 2026-03-17 (written "modified by Rui Costa on Mar 17, 2026")']


PROJECT_PAGE = """1. [Data Platform](index.html)

# Data Platform : Meter archive migration

Created by Joan Miro, last modified on Feb 27, 2026

| Page properties | |
|---|---|
| Project status | IN PROGRESS |
| Start date | 02 Feb 2026 |

## Why

ADR 12 chose a new store for the archive. This page tracks the move.

## Milestones

| Milestone | Owner | Status |
|---|---|---|
| Archive tables created | Joan Miro | DONE |
| Backfill of 2025 | Rui Costa | IN PROGRESS |
"""


def test_a_project_pages_status_is_its_own_not_its_milestones() -> None:
    result = _extract(PROJECT_PAGE, "wiki/meter-archive-migration.md")
    assert _stated(result, "status") == ["Status: IN PROGRESS"]
    assert 'Last updated: 2026-02-27 (written "modified on Feb 27, 2026")' in _stated(result, "date")


def test_a_status_written_for_a_component_or_an_order_is_not_the_pages() -> None:
    fields = [HeaderField("build status", "failing", 3), HeaderField("order status", "open", 4)]
    assert genre_status(fields, None) is None


GITHUB_ISSUE = """# Pump readings missing every night #231

**Closed**

tlind opened this issue on Mar 3, 2026 · 4 comments

---

**tlind** commented on Mar 3, 2026

Every night the readings table has a five-minute hole from 02:00.

**pnair** commented on Mar 6, 2026

Fixed in telemetry-writer 3.6.2026.2: a batch that times out is retried.
"""


def test_an_issue_is_dated_by_the_day_it_was_opened() -> None:
    dates = _stated(_extract(GITHUB_ISSUE, "issues/231-pump-readings-missing.md"), "date")
    assert dates == ['Date: 2026-03-03 (written "opened this issue on Mar 3, 2026")']


INCIDENT_REVIEW = """# Incident review 2026: Northgate telemetry loss

Date: 9 February
Facilitator: Priya Nair
Status: see the checklist below

## What happened

From 01:10 to 05:30 the control room saw no readings from the Northgate pump stations.

## Checklist

- [x] Resolved: repeater back on mains power
- [ ] Closed in the incident tracker
"""


def test_a_day_without_its_year_under_a_titled_year_and_a_status_that_points_elsewhere() -> None:
    result = _extract(INCIDENT_REVIEW, "incidents/incident-review-northgate.md")
    assert _stated(result, "date") == ['Incident date: 2026-02-09 (written "9 February")']
    assert _stated(result, "status") == []  # "see the checklist below", and no checklist word


DASH_FIELDS = """# Meter read validation rules

Status - Accepted
Owner - Billing Systems
Date - 03-Mar-2026

## Rules

- Rome - the capital is no field of this page
- A read lower than the previous read is held.
"""


def test_header_fields_written_with_a_dash() -> None:
    result = _extract(DASH_FIELDS, "design/meter-read-validation-rules.md")
    assert _stated(result, "status") == ["Status: Accepted"]
    assert _stated(result, "date") == ['Date: 2026-03-03 (written "03-Mar-2026")']


RECORD_HISTORY = """# 9. Valve commands need two-person approval

## Status

~~Proposed~~ Accepted

## Date

09.03.2026

## Context

An operator can close a trunk main valve with one click.

## Decision

A close command on a trunk main needs a second operator's approval.
"""


def test_a_records_struck_through_history_and_dotted_date() -> None:
    result = _extract(RECORD_HISTORY, "adr/0009-valve-commands.md")
    assert _stated(result, "status") == ['Status: Accepted (written "~~Proposed~~ Accepted")']
    assert _stated(result, "date") == ["Date: 2026-03-09"]


@pytest.mark.parametrize(
    ("header", "status", "day"),
    [
        ("* Status: Proposed -> Accepted\n* Date: 2026-03-18", 'Status: Accepted (written "Proposed -> Accepted")',
         "Date: 2026-03-18"),
        ("*Decided Mar 3 '26 by the Data Platform group*\n\n## Status\n\nAccepted", "Status: Accepted",
         "Date: 2026-03-03"),
        ("Date: 3.2.2026\n\n## Status\n\nAccepted", "Status: Accepted", "Date: 2026-02-03"),
    ],
)
def test_record_status_history_and_dates_as_teams_write_them(header: str, status: str, day: str) -> None:
    text = f"# 16. Run the hydraulic model every night\n\n{header}\n\n## Context\n\nThe model is six months old.\n"
    text += "\n## Decision\n\nWe will run the model every night.\n"
    result = _extract(text, "adr/0016-hydraulic-model.md")
    assert _stated(result, "status") == [status]
    assert _stated(result, "date") == [day]


def test_only_a_pages_own_keys_are_fields_when_written_with_a_dash() -> None:
    lines = ["# Valve register", "", "Status - Current", "Rome - the capital of Italy",
             "Owner – Network Operations", "- Date - 2026-03-03", "", "## Valves", "", "Text."]
    found = {(f.key, f.value) for f in header_fields({}, {}, scan(lines, 1))}
    assert found == {("status", "Current"), ("owner", "Network Operations")}
