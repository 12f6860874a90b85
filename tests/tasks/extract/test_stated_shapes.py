"""Status and dates in the shapes stat49 left and stat50 wrote (issue 23 items 2 and 6): a
tracker's state on a line of its own, a project page's start date, and the shapes of the stat50
set (tracker exports, PR descriptions, database properties, catalog files, written dates)."""

from __future__ import annotations

from tests.extraction import extract, stated


def test_a_bare_state_line_above_the_opened_line_is_the_issues_status() -> None:
    # GitHub's issue page copied as text: "**Closed**" alone, then "tlind opened this issue on ..."
    text = ("# Pump readings missing every night #231\n\n**Closed**\n\n"
            "tlind opened this issue on Mar 3, 2026 · 4 comments\n\n---\n\n"
            "**tlind** commented on Mar 3, 2026\n\nEvery night the table has a hole.\n")
    result = extract(text, "issues/231-pump-readings.md")
    assert "Status: Closed" in stated(result, "status")
    # a bold word alone with no tracker's line after it states nothing
    plain = extract("# Door rota\n\n**Closed**\n\nThe office is shut on Fridays.\n", "notes/rota.md")
    assert stated(plain, "status") == []


def test_a_project_pages_start_date_is_the_projects_not_the_pages() -> None:
    text = ("# Data Platform : Telemetry migration\n\nCreated by Lena Brandt, last modified on Feb 27, 2026\n\n"
            "| Page properties | |\n|---|---|\n| Project status | IN PROGRESS |\n| Project lead | Lena Brandt |\n"
            "| Start date | 02 Feb 2026 |\n| Target date | Q3 2026 |\n\n## Why\n\nThe old table is slow.\n")
    dates = stated(extract(text, "wiki/telemetry-migration-plan.md"), "date")
    assert 'Start date: 2026-02-02 (written "02 Feb 2026")' in dates
    assert not any(d.startswith(("Created:", "Date:")) for d in dates)
    # an RFC's "Start Date" is still the day it was written
    rfc = extract("# Retry uploads\n\n- Start Date: 2026-01-05\n- RFC PR: #12\n\n## Summary\n\nRetry.\n\n"
                  "## Motivation\n\nUploads fail.\n", "rfcs/0012-retry-uploads.md")
    assert any(d.startswith("Created: 2026-01-05") for d in stated(rfc, "date"))


def test_jiras_printable_view_gives_status_and_created_apart() -> None:
    # "Created: ...  Updated: ...  Resolved: ..." on one line, apart by blanks; "| Status: | Done |"
    text = ("# [FERRY-412] Gate scanners reject renewed season passes\n\n"
            "Created: 03/Mar/26 9:14 AM  Updated: 11/Mar/26 4:02 PM  Resolved: 10/Mar/26 5:30 PM\n\n"
            "| | |\n|---|---|\n| Status: | Done |\n| Resolution: | Fixed |\n| Assignee: | Dev Raman |\n\n"
            "Description\n\nPasses renewed in the app are turned away at the gates.\n")
    result = extract(text, "jira/FERRY-412-gate-scanners.md")
    assert stated(result, "status") == ["Status: Done"]
    dates = stated(result, "date")
    assert 'Date: 2026-03-03 (written "03/Mar/26 9:14 AM")' in dates
    assert 'Last updated: 2026-03-11 (written "11/Mar/26 4:02 PM")' in dates
    assert result.subject is not None and result.subject.ref.names[0].startswith("FERRY-412 Gate")


def test_a_pull_requests_merged_line_gives_its_state_and_day() -> None:
    text = ("# Move seat holds to Redis Streams #1187\n\n**Merged**\n\n"
            "priya-s merged 6 commits into `main` from `holds-on-streams` on Mar 12, 2026\n\n---\n\n"
            "**priya-s** commented on Mar 9, 2026\n\n## What\n\nSeat holds move to a Redis stream.\n")
    result = extract(text, "github/pr-1187-seat-holds.md")
    assert stated(result, "status") == ["Status: Merged"]
    assert any(d.startswith("Date: 2026-03-12") for d in stated(result, "date"))


def test_release_notes_are_dated_by_their_released_field_not_their_iso_week() -> None:
    text = ("# Tideway app 4.3 release notes — 2026-W10\n\nReleased: 5th March 2026\n"
            "Release manager: Tomasz Wrona\n\n## New\n\n- A banner when a sailing is cancelled.\n\n"
            "## Rollout\n\n100 % in week 2026-W11.\n")
    dates = stated(extract(text, "releases/tideway-4-3.md"), "date")
    assert dates == ['Date: 2026-03-05 (written "5th March 2026")']


_LIST_LOG = (
    "# Booking platform decision log\n\nOne entry per decision, newest last. A later entry supersedes an\n"
    'older one, which gets a "Superseded by" note.\n\nLast updated: 3rd March 2026\n\n## Entries\n\n'
    "- **BD-1** (2025-06-02) Seat holds are row locks. *Superseded by BD-4.*\n"
    "- **BD-2** (2025-07-14) Fares come from fare engine v2. Accepted.\n"
    "- **BD-4** (2026-01-12) Seat holds move to Redis Streams. Supersedes BD-1 (built in\n"
    "  [PR 1187](../github/pr-1187-move-seat-holds.md)). Accepted.\n")


def test_a_decision_log_kept_as_a_list_is_read_and_its_entries_supersede_nothing_of_the_page() -> None:
    from tasks.extract.genres import log_item_ids
    from tasks.extract.structure import scan

    result = extract(_LIST_LOG, "decisions/booking-platform-decision-log.md")
    assert result.record_role == ""  # a log kept in one page, not a log's index page
    typed = {(link.stem or link.text, link.relation_type, link.incoming) for link in result.record_links}
    assert ("pr-1187-move-seat-holds", "relates_to", False) in typed  # "Supersedes BD-1 (built in [PR ..]"
    assert not any(kind == "supersedes" for _, kind, _ in typed)  # an entry's, never the page's
    assert not any(text.startswith("BD-") for text, _, _ in typed)  # the log's own numbering names no page
    assert stated(result, "status") == []  # each entry's "Accepted" is the entry's
    assert stated(result, "date") == ['Last updated: 2026-03-03 (written "3rd March 2026")']  # no entry's day
    assert log_item_ids(scan(_LIST_LOG.splitlines(), 1)) == {"BD-1", "BD-2", "BD-4"}
    # a state named where a page explains its log is no subject
    assert not any(e.ref.names[0] == "Superseded" for e in result.entities)


_DATED_LIST_LOG = (
    "# Dispatch rules — decision log\n\nOwner: Industrial Engineering\nLast updated: 17 Feb 2026\n\n"
    "## 2026\n\n"
    "- **2026-02-17 — decided:** the litho bay goes back to critical-ratio dispatching.\n"
    "  - Trial for four weeks, then review (see 2026-03-17).\n"
    "- **2026-02-03 — decided:** hot lots may preempt a reserved lot.\n"
    "  - This is the rule proposed in [RFC 41](../design/RFC-41-hot-lot-preemption.md).\n"
    "- 2026-01-20 — decided: this entry replaces [the old board](../boards/spreadsheet-board.md).\n\n"
    "Runbook: [dispatch list stale][stale].\n\n[stale]: ../runbooks/dispatch-list-stale.md\n")


def test_a_decision_log_whose_entries_open_with_their_day_is_a_log_not_its_index_page() -> None:
    result = extract(_DATED_LIST_LOG, "decisions/dispatch-rules-decision-log.md")
    assert result.record_role == ""  # (heldout28's log yielded no entity: it was read as an index page)
    assert stated(result, "date") == ['Last updated: 2026-02-17 (written "17 Feb 2026")']  # no entry's day
    typed = {(link.stem, link.relation_type, link.incoming) for link in result.record_links}
    assert ("RFC-41-hot-lot-preemption", "relates_to", False) in typed
    assert ("dispatch-list-stale", "relates_to", False) in typed  # a reference-style link
    assert ("spreadsheet-board", "relates_to", False) in typed  # an entry's "replaces": the entry's, not the page's
    assert not any(kind == "supersedes" for _, kind, _ in typed)


def test_an_index_page_listing_dated_records_by_their_links_stays_an_index_page() -> None:
    text = ("# Decision log\n\nThe architecture decision records of the team.\n\n"
            "- 2023-03-03 [ADR-7: Use TIBCO Rendezvous](ADR-007-tibco.md)\n"
            "- 2025-11-18 [ADR-19: Move to NATS JetStream](ADR-019-nats.md)\n")
    assert extract(text, "decisions/index.md").record_role == "index"


def test_an_incident_tools_started_at_field_dates_the_incident_not_its_export_line() -> None:
    text = ("# Retrospective: Etch chamber ran the wrong recipe\n\n"
            "> Exported from Rootly on 2026-01-21 · Incident #INC-2026-014\n\n"
            "| Field | Value |\n|---|---|\n| Status | Resolved |\n| Severity | SEV1 |\n"
            "| Started at | 2026-01-14 03:42 UTC |\n| Resolved at | 2026-01-14 09:10 UTC |\n\n"
            "## Summary\n\nThe chamber processed two lots with the wrong recipe.\n\n"
            "## Root cause\n\nThe approval is per recipe, not per chamber.\n")
    dates = stated(extract(text, "postmortems/etch.md"), "date")
    assert dates[0] == 'Incident date: 2026-01-14 (written "2026-01-14 03:42 UTC")'
    # without the field, the story's day, not the day the write-up was exported
    story = text.replace("| Started at | 2026-01-14 03:42 UTC |\n", "").replace(
        "The chamber processed", "On 2026-01-14 the chamber processed")
    assert stated(extract(story, "postmortems/etch.md"), "date")[0] == "Incident date: 2026-01-14"


def test_a_status_heading_an_em_dash_status_and_an_incident_key_title() -> None:
    incident = ("# INC-0419: Depot scanners synced late\n\n**Wednesday, 3 September 2025** · SEV3 · Tracking team\n\n"
                "## Status: Closed\n\n## What happened\n\nScanners uploaded their scans 40 minutes late.\n\n"
                "## Resolution\n\nThe pool size was restored.\n")
    result = extract(incident, "postmortems/inc-0419-scanner-sync-delay.md")
    assert result.subject is not None and result.subject.ref.entity_type == "incident"  # the key in its title
    assert stated(result, "status") == ["Status: Closed"]  # a status field written as a heading
    assert stated(result, "date")[0].startswith("Incident date: 2025-09-03")
    withdrawn = ("# Carrier rate cache\n\nAuthored: 2025-10-01 by Lena Park (Pricing)\n"
                 "Status — Withdrawn, replaced by [Carrier rates v2](carrier-rates-v2.md)\n\n"
                 "## Problem\n\nQuoting waits for four carriers.\n\n## Proposal\n\nCache each rate card.\n")
    assert stated(extract(withdrawn, "design/carrier-rate-cache.md"), "status") == [
        'Status: Withdrawn (written "Withdrawn, replaced by Carrier rates v2")']


def test_a_status_among_fields_on_one_line_and_a_blog_byline_dating_a_yearless_incident() -> None:
    page = ("# Parcel tracking\n\n**Page status:** Current ✅ &nbsp;|&nbsp; **Last reviewed:** 2nd June 2025\n\n"
            "Parcel tracking shows customers where their parcel is.\n\n## How it works\n\nScans land on Kafka.\n")
    result = extract(page, "wiki/parcel-tracking.md")
    assert stated(result, "status") == ["Status: Current"]
    incident = ("# Webhook delivery failures\n\nBy Tim Okafor · July 4, 2025 · 5 min read\n\n"
                "On 2 July between 09:12 and 11:40 BST, 38 % of carrier webhooks were rejected with HTTP 401.\n\n"
                "## What went wrong\n\nThe secret was rotated in one place only.\n\n"
                "## What we are changing\n\n- Secrets are read from Vault.\n")
    result = extract(incident, "incidents/webhook-delivery-failures.md")
    assert result.subject is not None and result.subject.ref.entity_type == "incident"  # "rejected" broke
    assert stated(result, "date")[0] == 'Incident date: 2025-07-02 (written "2 July")'  # the byline's year
    plain = "# Notes on webhooks\n\nBy Tim Okafor · July 4, 2025 · 5 min read\n\nSome notes.\n"
    assert stated(extract(plain, "notes/webhooks.md"), "date")[0].startswith("Date: 2025-07-04")
