"""Incident write-ups and runbooks in house styles (issue 23 items 1, 3, 5, inc42): an issue
thread kept as the postmortem, a learning review with a short version, a blog post without
headings, a Kepner-Tregoe problem analysis, and an ops checklist whose check boxes are the
procedure. Written here in the shapes heldout13 and heldout14 showed, with other words."""

from __future__ import annotations

from tasks.extract import Extraction, SourceRef, extract_facts
from tasks.extract.genres import is_thread_chrome, issue_state, names_itself


def _extract(name: str, text: str) -> Extraction:
    return extract_facts(text, SourceRef("x", "wiki/sources/x.md", "raw/x.md", name))


def _labelled(result: Extraction, label: str) -> dict[str, tuple[int, int]]:
    return {o.text: (o.line_start, o.line_end) for o in result.observations if o.text.startswith(f"{label}: ")}


ISSUE = """# Invoices stuck in the outbox after the mail relay swap #88

**Closed** · ana-lopes opened this issue on 2 Apr 2025 · 3 comments

**Labels:** `incident` `sev-3`

---

**ana-lopes** commented on 2 Apr 2025

### Incident report

**Severity:** Sev 3

#### What happened

At 09:10 the new mail relay went live and invoices stopped leaving the outbox.

#### Why the relay refused them

The relay only accepts senders on its allow-list, and the billing sender was not on it.

#### What fixed it

At 11:02 Ben added the billing sender to the allow-list and the outbox drained.

#### Impact

- 1,204 invoices were sent three hours late.

#### Follow-ups

- [x] Add the billing sender to the allow-list (@ben-okafor)
- [ ] Alert when the outbox holds more than 100 invoices (@ana-lopes)

---

**ben-okafor** commented on 3 Apr 2025

Decision at the ops review: the relay keeps its allow-list and billing
owns its entry.
"""


def test_an_issue_thread_is_an_incident_with_its_parts() -> None:
    result = _extract("postmortems/issue-88.md", ISSUE)
    assert result.subject is not None and result.subject.ref.entity_type == "incident"
    texts = [o.text for o in result.observations]
    assert "Status: Closed" in texts
    assert any(text.startswith("Incident date: 2025-04-02") for text in texts)
    assert _labelled(result, "Cause") == {
        "Cause: The relay only accepts senders on its allow-list, and the billing sender was not on it.": (21, 21)}
    assert list(_labelled(result, "Resolution").values()) == [(25, 25)]
    assert _labelled(result, "Action item") == {
        "Action item: Add the billing sender to the allow-list (@ben-okafor) (owner: @ben-okafor)": (33, 33),
        "Action item: Alert when the outbox holds more than 100 invoices (@ana-lopes) (owner: @ana-lopes)": (34, 34),
    }
    assert _labelled(result, "Decision") == {
        "Decision: the relay keeps its allow-list and billing owns its entry.": (40, 41)}
    # the tracker's own lines are no summary
    assert not any("opened this issue" in text or "commented on" in text for text in texts)


def test_the_lines_of_an_issue_tracker() -> None:
    assert issue_state("**Closed** · ana opened this issue on 2 Apr 2025 · 3 comments") == "Closed"
    assert issue_state("Open - bo wants to merge 2 commits into main") == "Open"
    assert issue_state("Closed the door at 09:00 and left.") is None
    # GitHub's close reasons, and a discussion's line with its author in bold
    assert issue_state("Closed as not planned · ana opened this issue on 2 Apr 2025") == "Closed as not planned"
    assert issue_state("Closed as duplicate · **bo-k** started this conversation in Ideas · May 2, 2024") == \
        "Closed as duplicate"
    assert issue_state("Closed as outdated, since we moved on.") is None
    assert is_thread_chrome("**ben-okafor** commented on 3 Apr 2025")
    assert not is_thread_chrome("Ben commented that the relay was slow, so we looked at it.")


REVIEW = """# Learning review: the night the ledger export repeated itself

**Status:** Published
**Incident:** INC-77, Wed 5 Feb 2025, 01:10-03:40
**Written:** 2025-02-20

> This review follows our learning-review format: it is about how the night looked
> to the people in it, not about who got it wrong.

## The short version

The ledger export stopped producing files for two hours and a half.

The trigger was a retried upload: the scheduler sent the same batch twice.
With two batches of one day, the export refused to close the period.

## What made this hard

**The retry said it had worked.** The scheduler reports success once it has sent the batch.

**Busy looked like healthy.** The export runs at full CPU every night.

## What went well

The finance team had the manual export ready because they practise it every quarter.
"""


def test_a_learning_review_reads_its_short_version_its_named_trigger_and_its_lessons() -> None:
    result = _extract("postmortems/review.md", REVIEW)
    texts = [o.text for o in result.observations]
    assert any(text.startswith("Incident date: 2025-02-05") for text in texts)  # the Incident field's day
    summary = _labelled(result, "Summary")
    assert list(summary.values()) == [(12, 12)]  # the short version, not the quoted note on the format
    assert _labelled(result, "Cause") == {
        "Cause: The trigger was a retried upload: the scheduler sent the same batch twice. With two "
        "batches of one day, the export refused to close the period.": (14, 15)}
    assert list(_labelled(result, "Lesson").values()) == [(19, 19), (21, 21), (25, 25)]


BLOG = """# Why the print service lost every queue on Monday

*Posted by the Workplace team. Published 3 March 2025.*

This post-incident review is final; we publish it because so many of you were affected.

On Monday 24 February 2025 at 08:05 printing failed in every building, and it was
over by 10:30.

The root cause, in one line: the spooler's disk filled with a week of failed jobs.

Here is what we are doing about it:

- We will purge failed jobs every night.
- We are adding an alert on the spooler's disk.
"""


def test_a_blog_post_without_headings_is_an_incident_review() -> None:
    result = _extract("posts/print.md", BLOG)
    assert result.subject is not None and result.subject.ref.entity_type == "incident"
    texts = [o.text for o in result.observations]
    assert any(text.startswith("Incident date: 2025-02-24") for text in texts)
    assert not any("publish it because" in text for text in texts)  # the note on the post is no cause
    assert "Cause: The root cause, in one line: the spooler's disk filled with a week of failed jobs." in texts
    assert list(_labelled(result, "Action item").values()) == [(14, 14), (15, 15)]
    assert names_itself("This post-incident review is final.")
    assert not names_itself("The incident review board meets on Fridays.")
    # a mail titled by its Subject ("Write-up: seat reservations failing") says what it is here
    assert names_itself("Here is the promised write-up of Tuesday's seat reservation outage.")
    assert not names_itself("The write-up of the design is in the wiki; no outage expected.")


ANALYSIS = """# Problem analysis: badge readers refused staff after the CA renewal

| Field | Value |
|---|---|
| Problem record | PRB-12 |
| Status | Closed |

## Problem statement

On 4 March 2025 at 07:30 badge readers in two buildings refused every staff card.

## Possible causes and how we tested them

1. **A network outage between the readers and the controller.** Tested: pings were
   clean. *Ruled out.*
2. **The readers did not trust the renewed certificate authority.** Tested: the
   readers' trust store held only the old root, and the
   controller presented the new one. Explains every IS and IS NOT.
   *True cause.*

## Most probable cause

The renewed root was pushed to the controller before the readers.
"""


def test_a_kepner_tregoe_analysis_is_an_incident_with_its_true_cause() -> None:
    result = _extract("problems/prb-12.md", ANALYSIS)
    assert result.subject is not None and result.subject.ref.entity_type == "incident"
    causes = _labelled(result, "Cause")
    assert "Cause: The renewed root was pushed to the controller before the readers." in causes
    assert [span for text, span in causes.items() if "did not trust" in text] == [(16, 19)]
    assert not any("network outage" in text for text in causes)  # ruled out
    assert list(_labelled(result, "Summary").values()) == [(10, 10)]


CHECKLIST = """# Ops checklist: kiosk screens frozen

Owner: Front of House team

## 1. Alert - what you see

- [ ] Alert `KioskFrozen`: more than 10% of kiosks report no heartbeat for 5 minutes.

## 2. Meaning - which case

- [ ] **One kiosk**: its power or its cable.
- [ ] **Every kiosk**: the kiosk API is down.

## 3. Mitigation

- [ ] One kiosk: restart it from the console. Do not send an engineer at night.

## 4. Escalation

- [ ] Every kiosk: page the platform on-call.

## Review sign-off

- [ ] Front of House lead
- [ ] Platform lead
- [ ] Service desk lead
"""


def test_an_ops_checklist_reads_each_boxed_item_as_its_part() -> None:
    result = _extract("runbooks/kiosk.md", CHECKLIST)
    assert list(_labelled(result, "Alert").values()) == [(7, 7)]
    assert _labelled(result, "Meaning") == {"Meaning: One kiosk: its power or its cable.": (11, 11),
                                            "Meaning: Every kiosk: the kiosk API is down.": (12, 12)}
    assert list(_labelled(result, "Mitigation").values()) == [(16, 16)]
    assert list(_labelled(result, "Escalation").values()) == [(20, 20)]
    # who signs the page off is no step of it
    assert not any("lead" in o.text for o in result.observations if o.line_start >= 24)


LOUD = """# Postmortem: parcel labels not printed

## Summary

On 3 May 2025 at 06:10 the label printer lost its link to the Carrier Type B network and
labels were not printed. The Label Service logged every refusal at DEBUG level, so nobody saw
it. The Label Service retried through the Carrier Type B network until 07:40.

## Root cause

The Label Service had no route to the backup link of the Carrier Type B network.
"""


def test_a_log_level_and_a_name_cut_before_a_lone_letter_are_no_subjects() -> None:
    names = {e.ref.names[0] for e in _extract("postmortems/labels.md", LOUD).entities}
    assert "Label Service" in names
    assert "DEBUG" not in names
    assert "Carrier Type" not in names


PUBLIC_POST = """# Payment receipts delayed on March 3

*Posted March 5, 2026 by Ana Lima*

On March 3 receipts sent by the mailer did not reach most customers for about 6 hours.
This post explains what happened and what we are changing.

## What you saw

Between 09:20 and 15:30 UTC, 4,100 receipts were accepted by the mailer but never delivered.

No payment was lost. Every receipt was delivered by 16:10 UTC.

## What happened

The mailer signs every message with a key that was rotated that morning, and the new key was
published truncated, so receiving servers rejected the messages.

## What we think contributed

- The rotation job did not check the published key.
- Bounces were retried one by one, and nothing alerted on their rate.

## How we fixed it

We republished the key in two strings and re-sent the held receipts.

## What we are changing

- The rotation job checks the key before it is switched on.
"""


def test_what_customers_saw_is_the_impact_and_what_contributed_the_causes() -> None:
    result = _extract("postmortems/receipts.md", PUBLIC_POST)
    impact = _labelled(result, "Impact")
    assert any(t.startswith("Impact: Between 09:20 and 15:30 UTC, 4,100 receipts") for t in impact), impact
    assert any(t.startswith("Impact: No payment was lost.") for t in impact), impact
    causes = _labelled(result, "Cause")
    assert causes.get("Cause: The rotation job did not check the published key.") == (21, 21), causes
    assert any(t.startswith("Cause: Bounces were retried one by one") for t in causes), causes


def test_contributing_factors_under_a_bold_label_are_causes() -> None:
    """Jira Service Management's review writes its root cause and its contributing factors as bold
    run-in labels inside one "Why it happened" section: each factor is a cause."""
    text = ("# Post-incident review: OPS-12 Invoices sent twice\n\n| Field | Value |\n|---|---|\n"
            "| Incident | OPS-12 |\n| Priority | P2 |\n\n## Summary\n\nInvoices were sent twice for an hour.\n\n"
            "## Impact\n\n- 300 customers got two invoices.\n\n## Why it happened\n\n**Root cause.** The sender"
            " retried on a timeout that had in fact succeeded.\n\n**Contributing factors**\n\n"
            "1. The sender kept no record of what it had sent.\n2. Nothing alerted on duplicate sends.\n\n"
            "## Corrective actions\n\n- Record each send before retrying.\n")
    causes = _labelled(_extract("postmortems/ops-12.md", text), "Cause")
    assert causes.get("Cause: The sender kept no record of what it had sent.") == (22, 22), causes
    assert causes.get("Cause: Nothing alerted on duplicate sends.") == (23, 23), causes
