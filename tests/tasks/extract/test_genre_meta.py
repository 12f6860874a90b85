"""What a document states about its own status and dates, in the places real documents state
them (issue 23 item 2): a bold field closed before its prose, a status-page or review sentence, a
byline, a day span, a revision history table, and the pages of no genre."""

from __future__ import annotations

import pytest

from tasks.extract.genre_meta import genre_dates, iso_date, stem_order
from tasks.extract.genres import POSTMORTEM, HeaderField
from tests.extraction import extract as _extract
from tests.extraction import stated as _stated


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("January 14-19, 2026", "2026-01-14"),  # a span of days: its first day
        ("14–19 January 2026", "2026-01-14"),
        ("November 11 and November 15, 2025", "2025-11-11"),
        ("Oct 29 to 30, 2025", "2025-10-29"),
        ("3 March 2020", "2020-03-03"),
        ("10-12 people on 3 March 2020", "2020-03-03"),  # a count, not a span of days
    ],
)
def test_a_span_of_days_is_dated_by_its_first_day(text: str, expected: str) -> None:
    assert iso_date(text) == expected


def test_an_incident_told_as_a_span_or_on_the_morning_of_a_day() -> None:
    span = [(3, "Between November 11 and November 15, 2025 we hit a Postgres limit.")]
    facts = genre_dates(POSTMORTEM, [], ("Ingestion delays (November 2025)", 1), span, "delays")
    assert [f.text for f in facts] == ['Incident date: 2025-11-11 (written "November 11 and November 15, 2025")']
    morning = [(3, "On the morning of Monday, September 22nd, 2025, students could not join.")]
    facts = genre_dates(POSTMORTEM, [], ("Why eduroam stopped", 1), morning, "eduroam")
    assert [f.text.split(" (")[0] for f in facts] == ["Incident date: 2025-09-22"]


def test_a_postmortems_byline_date_is_not_the_incidents() -> None:
    prose = [(3, "_Export of the slide deck presented at the retro, 20 November 2025._"),
             (7, "- Storm Halvard, Saturday 8 November 2025, 17:40 to 23:55 local")]
    facts = genre_dates(POSTMORTEM, [], ("Storm Halvard: lessons learned", 1), prose, "halvard")
    assert [(f.text.split(" (")[0], f.line_start) for f in facts] == [("Incident date: 2025-11-08", 7)]
    # a status field's day is its own, not the byline's next item's; the story's span opens the day
    issued = [HeaderField("status", "Final · Issued 9 September 2026", 3)]
    told = [(3, "_Status: Final · Issued 9 September 2026_"),
            (7, "From Friday, 21 August 2026 to Wednesday, 2 September 2026, payments were held.")]
    facts = genre_dates(POSTMORTEM, issued, ("Incident report: payments held", 1), told, "held")
    assert [(f.text.split(" (")[0], f.line_start) for f in facts] == [("Incident date: 2026-08-21", 7)]
    posted = [(3, "Resolved. Posted Jun 02, 2025 - 12:15 BST")]  # a status page's update: during it
    facts = genre_dates(POSTMORTEM, [], ("Incident history: export delayed", 1), posted, "export")
    assert [f.text.split(" (")[0] for f in facts] == ["Incident date: 2025-06-02"]


TDD = """# Store purchase flow - technical design document

**Document status: Superseded.** Replaced by [RFC-112][rfc112] on 10 Sep 2025. Kept for history.

### Revision history

| Version | Date | Author | Change |
|---|---|---|---|
| 1.1 | 10/09/2025 | Ji-woo Park | Marked superseded |
| 0.1 | 12/01/2024 | Arjun Nair | First draft |
| 1.0 | 19/02/2024 | Arjun Nair | Approved |

## Overview

This design describes how a purchase reaches the inventory.

## Goals

- One purchase, one charge.

## Non-goals

- Refunds.

[rfc112]: ../rfcs/112.md
"""


def test_a_bold_field_closed_before_its_prose_and_a_revision_history() -> None:
    result = _extract(TDD)
    assert _stated(result, "status") == ["Status: Superseded"]
    # the table's earliest day is when it was written, its latest when it last changed (any row order)
    assert _stated(result, "date") == ['Created: 2024-01-12 (written "12/01/2024")',
                                       'Last updated: 2025-09-10 (written "10/09/2025")']


@pytest.mark.parametrize(
    ("header", "expected"),
    [
        ("Verdict: **Ready with conditions** (see the end of this page)", "Status: Ready with conditions"),
        ("**Lifecycle:** production · **Tier:** 1 · **Owner:** Depot Systems", "Status: production"),
        ("*Status: in production since Season 2; sessionisation on Flink in trial.*",
         "Status: in production since Season 2; sessionisation on Flink in trial"),
        ("*Status: approved, in progress · Author: Nadia F · Last updated 14 October 2025*",
         "Status: approved, in progress"),  # a byline of many fields: the status field alone
        ("Catalogue entry kept by the Billing team. Entry status: Published.", "Status: Published"),
        # a byline's items set apart by middle dots: a status word alone, or reached by someone
        ("*Tracking ID: KVR-PIR-2412-3 · Final · Published Dec 19th 2024*", "Status: Final"),
        ("*Views · Version 2.1 · Lucy Ambrose · Approved by the Architecture Board, 11 March 2025*",
         'Status: Approved (written "Approved by the Architecture Board, 11 March 2025")'),
        ("This incident has been resolved.", "Status: resolved"),
        # a catalogue's header line of items: its status field's item (LeanIX's quality seal)
        ("`Application` · Fact sheet completion **84%** · Quality seal: **Approved** (renewed 19 Nov 2026)",
         'Status: Approved (written "Approved (renewed 19 Nov 2026)")'),
        ("This post-incident review is final; it was accepted by the leadership group.", "Status: final"),
    ],
)
def test_a_status_where_pages_state_it(header: str, expected: str) -> None:
    result = _extract(f"# Vault Object\n\n{header}\n\n## Architecture\n\nThree racks in two rooms.\n")
    assert _stated(result, "status") == [expected]


def test_a_bold_status_alone_is_no_byline() -> None:
    """A status page's update label ("**Resolved**") is no byline of items: its sentence says it."""
    result = _extract("# Vault Object\n\n**Resolved**\n\nThis incident has been resolved.\n\n"
                      "## Architecture\n\nThree racks.\n")
    assert _stated(result, "status") == ["Status: resolved"]


def test_a_status_sentence_in_a_decision_record_without_a_status_field() -> None:
    text = ("# One-pager: region-pinned matchmaking\n\n*Written 2 July 2025.*\n"
            "*This one-pager was approved by the Architecture Review Board on 9 September 2025.*\n\n"
            "## Background\n\nOne global pool.\n\n## Proposal\n\nWe will split every ranked queue by region.\n")
    result = _extract(text)
    assert result.is_decision_record
    assert _stated(result, "status") == ["Status: approved"]


def test_an_incident_sentence_is_no_status_unless_about_this_incident() -> None:
    text = "# Vault Object\n\nThe incident was resolved by a restart.\n\n## Architecture\n\nThree racks.\n"
    assert _stated(_extract(text), "status") == []


@pytest.mark.parametrize(
    ("text", "path", "expected"),
    [
        ("# Access review policy\n\nOwner: Security team\nLast reviewed: 2026-01-12\n\n## Policy\n\nReview.\n",
         "policies/access.md", ["Review date: 2026-01-12"]),
        ("# Retro board: Sprint 41\n\nExported from the team's retro board, 11 March 2026. Facilitator: Dana.\n"
         "\n## Went well\n\n- Calm cut-over.\n",
         "retros/board.md", ['Date: 2026-03-11 (written "Exported from the team\'s retro board, 11 March 2026")']),
        ("# #standup - thread of Tuesday 14 October 2025\n\nMorning all.\n", "chat/standup.md",
         ['Date: 2025-10-14 (written "#standup - thread of Tuesday 14 October 2025")']),
        ("# Problem analysis: SAML logins rejected\n\nThe IdP was up.\n", "pm/2025-10-09-saml.md",
         ["Date: 2025-10-09 (from the file name)"]),
        ("# Learn backlog notebook\n\nOwner: Learn team. Last run: 2025-10-27.\n\nRun cell 1.\n", "nb/learn.md",
         ["Last updated: 2025-10-27"]),
        ("# Catalogue page, autumn edition\n\nThe catalogue lists 2 March 2025 as a holiday.\n", "cat/page.md", []),
        # a meeting tool's export, its day last in the file name (the title's 03/04/2026 says no order)
        ("# Summary of the ops sync (03/04/2026)\n\nWe met.\n", "notes/summary-ops-sync-2026-03-04.md",
         ["Date: 2026-03-04 (from the file name)"]),
        # a proposal's byline: the day it was started, and the day its vote closed (Loomio)
        ("# Move to queues\n\n**Proposal** · Status: Closed · Started by Ana on 2 Oct 2026 · Closed Thu 9 Oct 2026,"
         " 17:00 GMT\n\nWe move.\n", "props/queues.md",
         ['Date: 2026-10-02 (written "Started by Ana on 2 Oct 2026")',
          'Closing date: 2026-10-09 (written "Closed Thu 9 Oct 2026, 17:00 GMT")']),
        # a cover page's revision history under a bold label: its first and last rows (a template's
        # placeholder row is none)
        ("Ledger Platform\nSoftware Architecture Document\n\n**Revision History**\n\n| Date | Version | Author |\n"
         "|---|---|---|\n| 02.03.2025 | 1.0 | Ana |\n| 14.01.2026 | 2.0 | Bo |\n| <dd/mm/yy> | <x.x> | <name> |\n\n"
         "## 1. Introduction\n\nThe ledger.\n", "arch/ledger-sad.md",
         ['Date: 2025-03-02 (written "02.03.2025")', 'Last updated: 2026-01-14 (written "14.01.2026")']),
    ],
)
def test_the_dates_a_page_of_no_genre_states_about_itself(text: str, path: str, expected: list[str]) -> None:
    assert _stated(_extract(text, path), "date") == expected


def test_a_meetings_title_day_takes_its_year_from_the_page() -> None:
    """Minutes titled by weekday and day ("Architecture forum — Tue 17 Mar"): the year is the
    page's own (its previous minutes' date); the previous meeting's day is not this one's."""
    text = ("# Architecture forum — Tue 17 Mar\n\n**Chair:** Ana Ruiz  \n**Notes:** Bo Lind\n\n"
            "Previous minutes: 2026-03-03 (approved without changes).\n\n## Agenda\n\n1. Kafka upgrade\n\n"
            "## Decisions\n\n- We will upgrade Kafka to 3.7.\n\n## Action items\n\n- Bo: book the window\n")
    assert _stated(_extract(text, "minutes/forum.md"), "date") == [
        'Meeting date: 2026-03-17 (written "Tue 17 Mar")']
    untitled = text.replace(" — Tue 17 Mar", "")
    assert _stated(_extract(untitled, "minutes/forum.md"), "date") == []  # not the previous meeting's
    assert _stated(_extract(untitled, "minutes/2026-03-17-forum.md"), "date") == [
        "Meeting date: 2026-03-17 (from the file name)"]


def test_an_incident_opened_on_a_day_without_its_year() -> None:
    text = ("# Postmortem: checkout failures\n\n_Written 2024-03-08 by the payments team._\n\n"
            "## Summary\n\nOn the 3rd of March checkout failed for 40 minutes.\n\n"
            "## Root cause\n\nA bad config push to the gateway.\n\n## Resolution\n\nWe rolled back the config.\n")
    assert _stated(_extract(text, "postmortems/checkout.md"), "date") == [
        'Incident date: 2024-03-03 (written "the 3rd of March")']


def test_a_version_table_under_the_title_dates_the_page() -> None:
    """A document-control table opening an arc42 page (`| Version | Date | Author | Change |`):
    its first row's day and its last one's, as a revision history section gives them."""
    text = ("# 5. Building Block View — Compute Platform\n\n| Version | Date | Author | Change |\n"
            "|---|---|---|---|\n| 1.3 | 2025-06-30 | Ines | Strata replaces NFS |\n"
            "| 1.4 | 2026-02-03 | Ines, Tom | Slurm replaces Grid Engine |\n\nStatus: Current\n\n"
            "## 5.1 Whitebox: overall system\n\nSlurm schedules the jobs; Lustre holds scratch.\n\n"
            "## 5.2 Building blocks\n\nThe scheduler must run as one active controller.\n")
    dates = _stated(_extract(text, "architecture/building-block-view.md"), "date")
    assert dates == ["Date: 2025-06-30", "Last updated: 2026-02-03"]
    without_version = text.replace("| Version | Date |", "| Release | Date |")
    assert "Last updated: 2026-02-03" not in _stated(_extract(without_version, "architecture/b.md"), "date")


@pytest.mark.parametrize(
    ("field", "expected"),
    [
        ("- Status: Accepted (2025-03-12)", 'Status: Accepted (written "Accepted (2025-03-12)")'),
        ("**State:** Accepted (expires 2025-12-31)", 'Status: Accepted (written "Accepted (expires 2025-12-31)")'),
        ("Status: Recommendation accepted by the programme board on March 17th, 2025",
         'Status: Recommendation accepted (written "Recommendation accepted by the programme board on '
         'March 17th, 2025")'),
        ("Status: Final, reviewed at the weekly on 2025-03-18", "Status: Final, reviewed at the weekly on 2025-03-18"),
    ],
)
def test_a_proposals_status_field_without_its_day(field: str, expected: str) -> None:
    text = (f"# Proposal: Use Buildkite for CI\n\n{field}\n- Created: 2025-02-03\n\n## Summary\n\nMove CI to Buildkite.\n\n"
            "## Motivation\n\nBuilds queue for an hour.\n\n## Proposal\n\nWe will run Buildkite agents.\n")
    assert _stated(_extract(text, "proposals/0042-buildkite.md"), "status") == [expected]


@pytest.mark.parametrize(
    ("title", "header", "expected"),
    [
        ("Proposal: Use Buildkite for CI", "- Stage: Accepted\n- Created: 2025-02-03", "Status: Accepted"),
        ("[APPROVED] Proposal: Use Buildkite for CI", "- Created: 2025-02-03", "Status: APPROVED"),
        ("Proposal: Use Buildkite for CI", "![status](https://img.shields.io/badge/status-in_review-yellow)\n\n"
         "Created: 2025-02-03", "Status: in review"),
        ("Proposal: Use Buildkite for CI", "🟢 Approved · 2025-02-03", "Status: Approved"),
        ("Proposal: Use Buildkite for CI", "| | |\n|---|---|\n| Status | {status:colour=Green|title=APPROVED} |\n"
         "| Created | 2025-02-03 |", "Status: APPROVED"),
    ],
)
def test_a_proposals_status_badge_mark_or_stage(title: str, header: str, expected: str) -> None:
    text = (f"# {title}\n\n{header}\n\n## Summary\n\nMove CI to Buildkite.\n\n"
            "## Motivation\n\nBuilds queue for an hour.\n\n## Proposal\n\nWe will run Buildkite agents.\n")
    assert _stated(_extract(text, "proposals/0042-buildkite.md"), "status") == [expected]


def test_a_jira_exports_fields_in_its_wiki_markup() -> None:
    """Jira's wiki markup bolds a key with one star (`*Status:* Resolved`) and writes its dates
    `01/Mar/24 2:05 PM` (two-digit year, the month by name)."""
    text = ("# Proposal: Use Kafka for events\n\n*Status:* Resolved\n*Created:* 01/Mar/24 2:05 PM\n\n"
            "## Summary\n\nUse Kafka.\n\n## Motivation\n\nWe need events.\n\n## Proposal\n\nWe will use Kafka.\n")
    result = _extract(text, "proposals/kafka.md")
    assert _stated(result, "status") == ["Status: Resolved"]
    assert _stated(result, "date") == ['Created: 2024-03-01 (written "01/Mar/24 2:05 PM")']
    italic = text.replace("*Status:*", "_Status:_").replace("*Created:* 01/Mar/24 2:05 PM", "_Created:_ 2024-03-01")
    assert _stated(_extract(italic, "proposals/kafka.md"), "status") == ["Status: Resolved"]
    assert iso_date("on 5 May 20 people joined") is None  # a count after a day is no two-digit year


def test_a_status_whose_link_wraps_onto_the_next_line() -> None:
    text = ("# Proposal: Results bridge\n\n- **Status:** Replaced by [CEP-0014: FHIR Subscriptions for result\n"
            "  notification](cep-0014.md)\n- **Created:** 2024-11-18\n\n## Summary\n\nA bridge.\n\n"
            "## Motivation\n\nResults are late.\n\n## Proposal\n\nWe will poll the LIMS.\n")
    assert _stated(_extract(text, "proposals/bridge.md"), "status") == [
        'Status: Replaced by CEP-0014 (written "Replaced by CEP-0014: FHIR Subscriptions for result notification")']


def test_an_issue_forms_proposal_states_its_status_under_a_heading() -> None:
    """A proposal filed through a GitHub issue form: "[Proposal]: " before its title, each field
    a `### Label` heading over its value."""
    text = ("# [Proposal]: Use Kafka for events\n\n### Status\n\nAccepted\n\n### Created\n\n2024-03-01\n\n"
            "## Summary\n\nUse Kafka.\n\n## Motivation\n\nWe need events.\n\n## Proposal\n\nWe will use Kafka.\n")
    result = _extract(text, "proposals/kafka.md")
    assert _stated(result, "status") == ["Status: Accepted"]
    assert result.subject is not None and result.subject.ref.display == "Use Kafka for events"


GITLAB_RUNBOOK = (
    "# OCR queue backlog\n\n[[_TOC_]]\n\n## Symptoms\n\n- The `ocr-work` queue is over 2,000 messages.\n\n"
    "## Possible checks\n\n1. Check the worker count.\n2. Check the Textract quota.\n3. Check the DLQ.\n\n"
    "## Resolution\n\n1. Scale the workers to 12.\n2. Replay the DLQ.\n3. Post in #claims-ops.\n\n"
    "## Escalation\n\n- Page the Document Services on-call.\n\n## Notes\n\n"
    "<!-- Runbook template: add a Monitoring section -->\n{footer}\n"
)


@pytest.mark.parametrize(
    ("footer", "expected"),
    [
        ("Last edited on 2026-03-27 by Wen Li.",
         ['Last updated: 2026-03-27 (written "Last edited on 2026-03-27 by Wen Li")']),
        # a field line: its value as written (date_fields reads "page last reviewed" as a review date)
        ("Page last reviewed: 17 March 2026", ['Review date: 2026-03-17 (written "17 March 2026")']),
        ("This page was last edited on 4 March 2026, at 10:12.",
         ['Last updated: 2026-03-04 (written "last edited on 4 March 2026, at 10:12")']),
        ("Last update: March 3, 2026", ['Last updated: 2026-03-03 (written "March 3, 2026")']),  # a field line
        ("Posted 2026-03-27 by Wen Li.", []),  # no "last": not a page footer's date
        ("- Last updated the dashboard on 2026-03-27.", []),  # an item of a list, not the page's footer
    ],
)
def test_a_pages_footer_dates_its_last_edit_or_review(footer: str, expected: list[str]) -> None:
    """GitLab wikis print "Last edited on ..." under a page, GOV.UK "Page last reviewed: ...",
    MediaWiki "This page was last edited on ...": the page's last update or review (a runbook's
    only date, often); a list item's "last updated ... on" is not."""
    assert _stated(_extract(GITLAB_RUNBOOK.format(footer=footer), "runbooks/ocr-backlog.md"), "date") == expected
    notes = "".join(f"The ledger posts batch {letter} nightly.\n\n" for letter in "ABCDEF")
    plain = f"# Ledger notes\n\n{notes}{footer}\n"  # a page of no genre, its footer under its opening
    found = _stated(_extract(plain, "notes/ledger.md"), "date")  # (a field line, when the page has no sections)
    assert [date.split(" (written")[0] for date in found] == [date.split(" (written")[0] for date in expected]


@pytest.mark.parametrize(
    ("front_matter", "expected"),
    [
        ("lastReviewed: 2025-01-10", "Review date: 2025-01-10"),  # camelCase (Backstage/TechDocs pages)
        ("last_modified_at: 2025-01-10", "Last updated: 2025-01-10"),  # Jekyll
        ("last_update:\n  date: 2025-01-10\n  author: Ana", "Last updated: 2025-01-10"),  # Docusaurus
    ],
)
def test_a_runbooks_front_matter_dates_its_review_or_update(front_matter: str, expected: str) -> None:
    text = (f"---\ntitle: Disk full\n{front_matter}\n---\n\n# Disk full\n\n## Symptoms\n\nDisk over 90%.\n\n"
            "## Mitigation\n\n1. Clean logs.\n")
    assert expected in _stated(_extract(text, "runbooks/disk-full.md"), "date")


@pytest.mark.parametrize(
    ("line", "expected"),
    [("**Current state:** Under Discussion", "Status: Under Discussion"),  # the KIP/FLIP template
     ("Current state: Accepted", "Status: Accepted"),
     ("*State:* Adopted in release 4", "Status: Adopted in release 4")],
)
def test_a_status_sections_labelled_line_states_its_value(line: str, expected: str) -> None:
    """A Status section written as the field it is ("Current state: Under Discussion", then the
    discussion thread and the ticket): the value, not the label."""
    text = (f"# KIP-9: Compact the ledger\n\n## Status\n\n{line}\n\nDiscussion thread: the dev list\n\n"
            "## Motivation\n\nThe ledger grows.\n\n## Public Interfaces\n\nA new `compact` command.\n\n"
            "## Proposed Changes\n\nThe broker compacts the ledger nightly.\n\n## Rejected Alternatives\n\n"
            "Deleting old entries.\n")
    assert _stated(_extract(text, "design/kip-9.md"), "status") == [expected]


@pytest.mark.parametrize(
    ("front", "expected"),
    [("ring: Adopt\nquadrant: Platforms", ["Status: Adopt"]),
     ("quadrant: Tools\nring: hold", ["Status: hold"]),
     ("ring: canary\nregion: eu-west-1", [])],  # a deployment ring is no radar's
)
def test_a_radar_blips_ring_is_its_status(front: str, expected: list[str]) -> None:
    """A technology radar's blip kept as a page (Thoughtworks' build-your-own-radar and
    Backstage's tech-radar write `ring` and `quadrant`): its ring is what the team decided of it."""
    text = f"---\ntitle: Valkey for sessions\n{front}\n---\n\n# Valkey for sessions\n\nWe recommend Valkey.\n"
    assert _stated(_extract(text, "radar/valkey.md"), "status") == expected


RFC_HEADER = """```
Orbit Freight                                                  A. Sato
Request for Comments: OF-12                                    Routing
Category: Informational                                        L. Moss
{date_line}
                    Pallet Label Exchange
```

Status of This Memo

   This memo describes an internal protocol.

1. Introduction

   Depots exchange pallet labels over a queue.

2. Goals

   Every label reaches the depot before the pallet does.

3. Non-Goals

   Printing the labels.
"""


@pytest.mark.parametrize(
    ("date_line", "expected"),
    [("                                                          4 June 2025", "2025-06-04"),
     ("Updates: 7, 9                                                 June 2025", "2025-06"),
     ("                                                          Draft two", None)],
)
def test_an_rfc_first_pages_header_dates_the_document(date_line: str, expected: str | None) -> None:
    """An RFC's first page (RFC 7322) lays its header out in two columns, the date last in the
    right one: the document's date, read where it stands (aligned right or after a wide gap)."""
    result = _extract(RFC_HEADER.format(date_line=date_line), "design/of-12.md")
    dates = [o.text for o in result.observations if o.kind == "date"]
    if expected is None:
        assert dates == []
    else:
        assert dates and dates[0].split(": ", 1)[1].startswith(expected), dates


def test_a_notice_label_at_a_pages_top_is_its_status() -> None:
    """"> **Deprecated:** ...", GitHub's "> [!WARNING]" over "> Obsolete. See ...", "ARCHIVED:" open a
    paragraph among the first lines: the page's status; the word inside a sentence ("archived
    in SampleTrack"), or lower down the page, is none."""
    runbook = ("# Broker disk runbook\n\n> **Deprecated:** this runbook is no longer maintained. Use "
               "[the new runbook](disk-v2.md) instead.\n\n## Symptoms\n\nDisk over 85 %.\n\n## Mitigation\n\n"
               "Delete old segments.\n")
    assert _stated(_extract(runbook, "runbooks/disk.md"), "status") == ["Status: Deprecated"]
    alert = "# Old sync\n\n> [!WARNING]\n> Obsolete. See [v2](v2.md) instead.\n\n## Summary\n\nSyncs nightly.\n"
    assert _stated(_extract(alert, "notes/sync.md"), "status") == ["Status: Obsolete"]
    sentence = ("# Data design\n\nFiles are\narchived in SampleTrack.\n\nArchived data stays.\n\n"
                "## Summary\n\nWe keep data.\n")
    assert _stated(_extract(sentence, "notes/data.md"), "status") == []


@pytest.mark.parametrize(
    ("alert", "expected"),
    [("> [!WARNING] Obsolete\n> Use the [new retries runbook](retries-v2.md) instead.", "Status: Obsolete"),
     ("> [!CAUTION] Superseded\n> by the [queue design](queue-design.md).", "Status: Superseded"),
     ("> [!IMPORTANT]\n> Superseded by [the queue design](queue-design.md).", "Status: Superseded"),
     ("> [!NOTE] Archived\n> Kept for the record.", "Status: Archived"),
     ("> [!TIP]\n> Superseding a flag needs a deploy.", None)],
)
def test_a_github_alerts_label_at_a_pages_top_is_its_status(alert: str, expected: str | None) -> None:
    """A GitHub alert or an Obsidian callout of any kind ("> [!WARNING] Obsolete", "> [!CAUTION]"
    over "> Superseded by [X](..)") states the page's status as its label or its first words do:
    tasks/markdown/boxes.py unboxes it before the status reader sees the lines."""
    text = f"# Payment retries\n\n{alert}\n\n## Summary\n\nWe retry payments with a backoff.\n"
    stated = _stated(_extract(text, "notes/retries.md"), "status")
    assert stated == ([expected] if expected else [])


@pytest.mark.parametrize(
    ("notice", "expected"),
    [(":::info Status\n**Approved.** Build starts in the next sprint, see the epic.\n:::", "Status: Approved"),
     (":::{note} Current status\nIn review; comments on the pull request.\n:::", "Status: in review"),
     (":::tip Background\nAccepted practice in the team is to page twice.\n:::", None)],
)
def test_a_notice_titled_status_is_the_pages_status_section(notice: str, expected: str | None) -> None:
    """A Docusaurus, HackMD or MyST notice titled "Status" (":::info Status" ... ":::") says what a
    Status section does; its status sentence alone, as written ("**Approved.** Build starts ...");
    a notice of another title states none."""
    text = (f"# Ledger compaction\n\n{notice}\n\n## Motivation\n\nThe ledger grows.\n\n"
            "## Proposal\n\nThe broker compacts the ledger nightly.\n\n## Alternatives\n\nDeleting old entries.\n")
    assert _stated(_extract(text, "design/compaction.md"), "status") == ([expected] if expected else [])


def test_a_status_sections_opening_sentence_is_its_status_as_written() -> None:
    """An incident template's Current Status section that opens with the status in a sentence of
    its own ("Resolved. Rolled back at 07:38 ..."): the status as written."""
    text = ("# Checkout errors after the 2.14 deploy\n\n## Summary\n\nCheckout failed for 40 minutes.\n\n"
            "## Current Status\n\nResolved. The deploy was rolled back at 07:38 and errors stopped.\n\n"
            "## Timeline\n\n- 07:00 deploy\n- 07:38 rollback\n\n## Root Cause\n\nA missing index.\n")
    assert _stated(_extract(text, "postmortems/checkout.md"), "status") == ["Status: Resolved"]


def test_an_items_field_of_another_things_status_is_none() -> None:
    """A header line's item that states the status of something else ("Build status: failing")
    is not the page's."""
    result = _extract("# Vault Object\n\n`Service` · Build status: failing · Owner: Ana\n\n"
                      "## Architecture\n\nThree racks in two rooms.\n")
    assert _stated(result, "status") == []


def test_a_file_names_day_settles_the_order_of_the_titles_numeric_date() -> None:
    # a meeting tool's export, month-first in its title, its ISO day in the file name
    assert stem_order("zoom-summary-weekly-sync-2026-12-01", ["Meeting summary for Weekly sync (12/01/2026)"]) is False
    assert stem_order("2026-01-12-retro", ["Retro (12/01/2026)"]) is True
    assert stem_order("weekly-sync-2026-12-01", ["Weekly sync (05/03/2026)"]) is None  # no reading is that day
    assert stem_order("weekly-sync", ["Weekly sync (12/01/2026)"]) is None
