"""Status and dates that a document's own fields state in the shapes that tools and house styles
export (issue 23 item 2): a tracker's story or issue (Shortcut's "Workflow state", Redmine's
attribute table under a subtitle), a committee paper's cover block, a typed notice with dot
leaders, a card's or a checklist's revision line, a report's emphasised state line and "Basic
information" part, an experiment's state, a controlled document's issue table, a knowledge
article's publication dates. Each fixture is written here, in the shape the tool or style gives."""

from __future__ import annotations

import pytest

from tasks.extract.date_fields import MAIN, UPDATED, date_role
from tasks.extract.genre_meta import iso_date
from tests.extraction import extract, stated

SHORTCUT_STORY = """# sc-912 · Decide where the image cache lives (R2 instead of S3)

**Story type:** Chore
**Workflow state:** Completed
**Epic:** Image delivery v3
**Requester:** Mara Quist
**Created:** Jan 9, 2025
**Completed:** Jan 30, 2025

---

## Description

The image cache sits in S3 and its egress bill doubled this year. We move it to R2.
"""

REDMINE_ISSUE = """Platform » Storage

# Bug #412

## Uploads over 2 GB fail with a timeout

Added by Ana Ruiz 3 months ago. Updated 1 month ago.

| | | | |
|---|---|---|---|
| Status: | Resolved | Start date: | 14/01/2025 |
| Priority: | Normal | Due date: | |
| Assignee: | Bruno Lima | % Done: | 100% |

### Description

The upload proxy cuts any request after 120 s, so large uploads never finish.
"""

COMMITTEE_PAPER = """**ARCHIVE COPY — Status: WITHDRAWN.** Replaced by paper FC/25/03. Kept for the record.

---

NORTHWOLD HOUSING TRUST

Finance Committee

Paper FC/24/11 — FOR DECISION

Title: Replacing the rent ledger system
Meeting: 9 October 2024
Paper date: 30 September 2024
Author: Imran Shah, Head of Finance Systems

1. Purpose

1.1 This paper asks the Committee to choose the system that replaces the rent ledger.
"""

TYPED_NOTICE = """NORTHWOLD RAIL — TECHNICAL AUTHORITY
DECISION NOTICE

    Reference ............ TA-25-003
    Title ................ Retire the depot scheduling mainframe
    Decision meeting ..... 4 March 2025 (TA 25/04)
    Outcome .............. REJECTED
    Classification ....... Internal

1. PURPOSE

To record that the Authority declined the proposal to retire the mainframe this year.
"""

ACTION_CARD = """# CHECKLIST C-2
## Loss of cooling in the server room

Rev 2 — 14/05/2025 · Card owner: Facilities Manager

### When to use this card

- The room temperature alarm sounds, or
- the CRAC unit shows a fault.

### Actions

1. Open the room's doors to the corridor.
2. Call the facilities on-call.
"""

HANDBOOK_PAGE = """QUICK REFERENCE HANDBOOK                                 NON-NORMAL CHECKLIST
DISPATCH SYSTEMS                                          Rev 7 · 03 FEB 25

# DISPATCH — LOSS OF FLIGHT PLAN FEED

**Condition:** no flight plan updates for 15 min or more.

1. Check the feed's status page.
2. Call the vendor's support line.
"""

CAST_REPORT = """# CAST analysis — PAY-INC-77: card payments declined after a key rotation

*Prepared by Ana Ruiz and Bruno Lima for the Payments incident review.*
*Review state: Final*

## 1. Basic information

- **Loss event:** on **Friday 7 March 2025**, 09:10–10:02 UTC, card payments were declined.
- **Losses:** 4,100 failed checkouts.

## 2. Proximate events

1. 09:05 the key rotation job ran.
"""


def test_a_tracker_storys_workflow_state_is_its_status() -> None:
    """Shortcut's "Workflow state" (Jira's and Azure DevOps' "Workflow status") is the status of
    the record the page is."""
    result = extract(SHORTCUT_STORY, "decisions/sc-912-image-cache.md")
    assert stated(result, "status") == ["Status: Completed"]
    assert stated(result, "date")[0].startswith("Date: 2025-01-09")


def test_a_trackers_attribute_table_under_a_subtitle_is_the_issues_header() -> None:
    """Redmine's issue page: the tracker and number as the title, the subject as a heading right
    under it, then the attribute table of fields side by side ("| Status: | Resolved | Start
    date: | 14/01/2025 |"): each key's cell ending with its colon gives one field."""
    result = extract(REDMINE_ISSUE, "issues/redmine-412-large-uploads.md")
    assert stated(result, "status") == ["Status: Resolved"]
    assert any("2025-01-14" in text for text in stated(result, "date"))
    assert not any("Due" in text for text in stated(result, "date"))  # an empty field is none


def test_a_committee_papers_cover_block_and_archive_stamp() -> None:
    """A committee paper: a stamp's status after a dash ("ARCHIVE COPY — Status: WITHDRAWN.")
    and the day of the meeting that decides it before the day the paper was written."""
    result = extract(COMMITTEE_PAPER, "papers/fc-24-11-rent-ledger.md")
    assert stated(result, "status") == ["Status: WITHDRAWN"]
    assert stated(result, "date")[0].startswith("Date: 2024-10-09")


def test_a_typed_notices_dot_leader_fields() -> None:
    """A plain-text notice typed as a form ("Outcome .......... REJECTED") in an indented block."""
    result = extract(TYPED_NOTICE, "decisions/ta-25-003-mainframe.md")
    assert stated(result, "status") == ["Status: REJECTED"]
    assert stated(result, "date")[0].startswith("Date: 2025-03-04")


@pytest.mark.parametrize(("text", "expected"), [
    (ACTION_CARD, "Last updated: 2025-05-14"),
    (HANDBOOK_PAGE, "Last updated: 2025-02-03"),
])
def test_a_revision_mark_in_the_header_dates_the_revision_in_force(text: str, expected: str) -> None:
    """A card's or a handbook page's revision line ("Rev 2 — 14/05/2025", "Rev 7 · 03 FEB 25")."""
    dates = stated(extract(text, "runbooks/card.md"), "date")
    assert any(date.startswith(expected) for date in dates), dates


def test_a_revision_mark_without_a_whole_date_dates_nothing() -> None:
    text = ACTION_CARD.replace("Rev 2 — 14/05/2025", "Rev 2 — reviewed by the Facilities team")
    assert not any(d.startswith("Last updated") for d in stated(extract(text, "runbooks/card.md"), "date"))


def test_an_emphasised_state_line_and_a_basic_information_part() -> None:
    """A report whose state stands in emphasis under its byline ("*Review state: Final*") and
    whose first part, "Basic information", holds its fields ("Loss event: on Friday 7 March 2025")."""
    result = extract(CAST_REPORT, "reviews/pay-inc-77-cast.md")
    assert stated(result, "status") == ["Status: Final"]
    assert any("2025-03-07" in text for text in stated(result, "date"))


def test_an_emphasised_byline_is_no_field() -> None:
    text = CAST_REPORT.replace("*Review state: Final*", "*Author: Ana Ruiz*")
    assert stated(extract(text, "reviews/pay-inc-77-cast.md"), "status") == []


@pytest.mark.parametrize(("value", "expected"), [
    ("Running (ramped to 50/50 on Nov 2, 2026)", "Status: Running"),
    ("Paused", "Status: Paused"),
])
def test_an_experiments_state(value: str, expected: str) -> None:
    """An experiment brief's status as experimentation platforms name it."""
    text = (f"# Experiment brief: shorter checkout\n\n**Owner:** Ana Ruiz\n**Status:** {value}\n\n"
            "## Hypothesis\n\nA shorter checkout raises conversion.\n")
    assert stated(extract(text, "design/exp.md"), "status")[0].startswith(expected)


def test_a_version_and_a_status_on_one_cover_line() -> None:
    text = ("Northwold Trust — Data Protection Impact Assessment\n\nProject: Tenant portal\n"
            "Version: 2.0 — Status: Approved\nDate: 3rd June 2025\n\n## Step 1: The need\n\nWe hold tenants' data.\n")
    assert stated(extract(text, "design/dpia.md"), "status") == ["Status: Approved"]


def test_a_controlled_documents_issue_table_dates_its_last_issue() -> None:
    text = ("# Ledger service — Software Design Description\n\n## Document control\n\n"
            "| Issue | Date | Author | Change |\n|---|---|---|---|\n| 1.0 | 2 May 2024 | A. Ruiz | First issue |\n"
            "| 2.0 | 9 June 2025 | B. Lima | Event sourcing |\n\n## 1 Introduction\n\nThe ledger service keeps balances.\n")
    dates = stated(extract(text, "architecture/ledger-sdd.md"), "date")
    assert any(d.startswith("Last updated: 2025-06-09") for d in dates), dates


@pytest.mark.parametrize(("key", "role"), [
    ("last published date", UPDATED), ("last posted", UPDATED), ("first published date", "written"),
    ("meeting", MAIN), ("da meeting", MAIN), ("loss event", MAIN), ("next meeting", "other"),
])
def test_date_field_roles_of_forms_and_papers(key: str, role: str) -> None:
    assert date_role(key) == role


def test_the_aviation_style_day_with_capital_months() -> None:
    assert iso_date("22 OCT 26") == "2026-10-22"
    assert iso_date("3 May 21 people") is None  # a count after a day and a month: no year


FORMS_RESPONSE = """# Facilities Incident Report — Response 12

Form: Facilities Incident Report
Responder: duty.officer@example.org

---

**1. Which room or system was affected?**

Server room B, and the cooling monitor

**2. When did the incident start?**

2025-07-19

**3. Describe what happened.**

The CRAC unit tripped at about 18:50. Nobody was alerted.
The standby unit was left in manual after a service.

**4. Current status of the incident**

Closed — monitoring in place

**5. Anything else?**

No.
"""


def test_a_form_responses_questions_give_its_status_and_its_day() -> None:
    """A Microsoft or Google Forms response: a bold numbered question over a short answer; the
    question about the state gives the status (its note after a dash kept as written), the
    question about when it started the incident's day; the other questions give no field."""
    result = extract(FORMS_RESPONSE, "reports/response-12.md")
    assert stated(result, "status") == ['Status: Closed (written "Closed — monitoring in place")']
    assert any("2025-07-19" in text for text in stated(result, "date"))


def test_a_questions_answer_of_a_paragraph_is_no_field() -> None:
    text = FORMS_RESPONSE.replace("Closed — monitoring in place", "Closed for now.\nWe watch it weekly.")
    assert stated(extract(text, "reports/response-12.md"), "status") == []


@pytest.mark.parametrize(("value", "expected"), [
    ("Closed — monitoring in place", 'Status: Closed (written "Closed — monitoring in place")'),
    ("Accepted — superseded later", "Status: Accepted — superseded later"),  # a second state: as written
])
def test_a_note_after_a_spaced_dash_follows_the_state(value: str, expected: str) -> None:
    text = f"# Cooling review\n\nStatus: {value}\n\n## Summary\n\nThe room overheated.\n"
    assert stated(extract(text, "notes/cooling.md"), "status") == [expected]


PAD_EXPORT = """Welcome to the team's pad server!

Text typed here is saved as you type.

-----------------------------------------------------------------------
BILLING SYNC  ·  Tue 3 Jun  ·  pad: billing-sync-2025-06-03
here: Ana, Bruno, Chen
prev: billing-sync-2025-05-27
-----------------------------------------------------------------------

1) Invoice run

- the June run moved to the new ledger; no errors
- Chen to switch off the old export by Friday
"""


def test_a_pad_exports_block_under_a_rule_is_titled_by_its_first_line() -> None:
    """An Etherpad export sets its header between two dashed rules: to markdown one setext
    heading of several lines. Its first line is the page's title (the whole block, over the
    naming standard's length, left the page without its entity)."""
    result = extract(PAD_EXPORT, "minutes/billing-sync-2025-06-03.md")
    assert result.title == "BILLING SYNC · Tue 3 Jun · pad: billing-sync-2025-06-03"
    assert result.subject is not None
    assert any("2025-06-03" in text for text in stated(result, "date"))


def test_a_one_line_setext_title_stays_whole() -> None:
    text = "=====\nBilling sync notes\n=====\n\nThe June run moved to the new ledger.\n"
    assert extract(text, "minutes/billing.md").title.endswith("Billing sync notes")


def test_a_stamp_names_its_replacement_by_a_trackers_number() -> None:
    """An archive stamp names what replaced the paper by its tracker's number ("Replaced by
    Redmine #2291"): a supersession by the document numbered so, as "superseded by KEP-1234" is;
    the tracker's number is also a citation of that page (tasks/extract/link_items.py), as a key
    in a sentence is."""
    links = extract(COMMITTEE_PAPER.replace("paper FC/25/03", "Redmine #2291 (ledger migration)"),
                    "papers/fc-24-11-rent-ledger.md").record_links
    assert [(link.relation_type, link.incoming, link.text, link.number) for link in links] == [
        ("relates_to", False, "#2291", 2291), ("supersedes", True, "Redmine #2291", 2291)]


def test_an_issues_number_after_no_verb_is_no_supersession() -> None:
    text = COMMITTEE_PAPER.replace("Replaced by paper FC/25/03.", "Discussed in Redmine #2291.")
    assert not [link for link in extract(text, "papers/fc.md").record_links if link.relation_type == "supersedes"]
