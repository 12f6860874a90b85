"""Status and dates as incident and wiki tools state them (issue 23 items 2 and 6, stat45): an
incident tool's fields under "Key information", bold fields on one line, a status page's history
copied as text, a channel summary's lifecycle lines, a Backstage catalog entry kept in a fence,
nested front matter, Confluence's status lozenge, and the day fields that are not the page's own."""

from __future__ import annotations

import pytest

from tasks.extract.genre_meta import catalog_lifecycle, genre_status, iso_date
from tasks.extract.genres import HeaderField
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
    assert _stated(result, "status") == ["Status: resolved"]
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
