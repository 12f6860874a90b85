"""Decisions told in two shapes no heading names (issue 23 item 3, concl51): a decision log kept
as a list whose entries open with their day and the word "decided" (the reasons and rules of each
entry nested under it), and a decision told in the paragraph under a line that says it follows
("Decision, 4 May, after the review call:"), as an issue thread's closing comment writes it, with
its conditions listed below. Written here with other words than the sets that showed them."""

from __future__ import annotations

from tasks.extract import Extraction, SourceRef, extract_facts


def _extract(text: str, name: str = "decisions/log.md") -> Extraction:
    return extract_facts(text, SourceRef("x", "wiki/sources/x.md", "raw/x.md", name))


def _spans(result: Extraction, label: str) -> dict[str, tuple[int, int]]:
    return {o.text: (o.line_start, o.line_end) for o in result.observations if o.text.startswith(f"{label}: ")}


DATED_LIST_LOG = """# Courier routing rules - decision log

Owner: Routing team
Newest entries first. One line per decision, notes indented below it.

## 2025

- **2025-06-10 - decided:** parcels over 30 kg always go to the van fleet.
  - Why: cargo bikes broke two axles in May carrying heavy parcels.
  - Bike couriers must never accept a parcel the scale has not weighed.
  - Ticket RT-88, decided by the routing lead.
- **2025-03-02 - decided:** routes are rebuilt every 2 minutes instead of every 10.
  - Retries are limited to three per route build.
- **2025-01-15 - decided:** the routing engine is bought, not built in-house.
"""


def test_a_log_of_dated_list_entries_gives_each_decision_its_reason_and_rules() -> None:
    result = _extract(DATED_LIST_LOG)
    assert result.record_role == ""  # it states its decisions: no log's index page
    assert _spans(result, "Decision") == {
        "Decision: parcels over 30 kg always go to the van fleet.": (8, 8),
        "Decision: routes are rebuilt every 2 minutes instead of every 10.": (12, 12),
        "Decision: the routing engine is bought, not built in-house.": (14, 14),
    }
    assert _spans(result, "Rationale") == {
        "Rationale: cargo bikes broke two axles in May carrying heavy parcels.": (9, 9)}
    constraints = _spans(result, "Constraint")
    assert constraints["Constraint: Bike couriers must never accept a parcel the scale has not weighed."] == (10, 10)
    assert constraints["Constraint: Retries are limited to three per route build."] == (13, 13)
    assert not any("Ticket RT-88" in o.text for o in result.observations)  # no reason, no rule


TIMELINE = """# Checkout outage on 2025-02-03

## Summary

The checkout service returned errors for 40 minutes after a bad deploy.

## Timeline

- 2025-02-03 14:05 - deploy of checkout 7.2 starts
- 2025-02-03 14:09 - error rate alert fires
- 2025-02-03 14:45 - rollback completes
"""


def test_a_timeline_of_dated_items_is_no_decision_log() -> None:
    result = _extract(TIMELINE, "postmortems/2025-02-03-checkout.md")
    assert result.subject is not None and result.subject.ref.entity_type == "incident"
    assert not _spans(result, "Decision")


THREAD = """# RFC: pick the object store for build artefacts

state: CLOSED
labels: decision

## Summary

Move build artefacts off the NFS server.

## Motivation

The NFS server is full every month.

## Proposal

Build artefacts sit on one NFS server that fills up every month. I propose we move
them to an object store with a lifecycle rule.

Why:

- The NFS server filled up three times this quarter and stopped every build.
- An object store bills per gigabyte and needs no disk swaps.

--
author: lena
--
Decision, 4 May 2025, after the review call:

We move build artefacts to the S3-compatible store in our own data centre. The NFS
server stays read-only until the end of June.

Conditions:

1. Artefacts older than 90 days are deleted by the lifecycle rule.
2. Release builds are copied to the archive bucket before they expire.

The hosted cloud bucket is rejected for the egress fees.
"""


def test_a_decision_under_its_lead_in_line_with_its_conditions_and_reasons() -> None:
    result = _extract(THREAD, "design/artefact-store.md")
    decision = "Decision: We move build artefacts to the S3-compatible store in our own data centre. The NFS " \
               "server stays read-only until the end of June."
    assert _spans(result, "Decision") == {decision: (29, 30)}
    constraints = _spans(result, "Constraint")
    assert constraints["Constraint: Artefacts older than 90 days are deleted by the lifecycle rule."] == (34, 34)
    assert constraints["Constraint: Release builds are copied to the archive bucket before they expire."] == (35, 35)
    rationale = _spans(result, "Rationale")
    assert rationale["Rationale: The NFS server filled up three times this quarter and stopped every build."] == (
        21, 21)
    assert _spans(result, "Rejected") == {
        "Rejected: The hosted cloud bucket is rejected for the egress fees.": (37, 37)}
    # a page of no genre keeps the decision under its lead-in too, and a lead-in with no decision
    # word ("Notes from the call:") leads in nothing
    plain = "# Artefact store call\n\nWe met to settle where build artefacts live.\n\n" + THREAD.split(
        "--\nauthor: lena\n--\n")[1].replace("Conditions:", "Notes from the call:")
    assert _spans(_extract(plain, "notes/artefacts.md"), "Decision") == {decision: (7, 8)}
    assert not _spans(_extract(plain.replace("Decision, 4 May 2025,", "Notes"), "notes/artefacts.md"), "Decision")


WEEKLY = """# 2025-05-06 Warehouse systems weekly

## Attendees

- Priya (chair)
- Tomasz

## Discussion items

| Item | Who | Notes |
|---|---|---|
| Scanner firmware | Priya | Rollout paused at depot 3. |

Decisions (summary for the register):

1. Scanner firmware 4.2 goes to every depot by 20 May.
2. Night shift keeps the paper fallback until June.

## Action items

- Tomasz to send the firmware schedule to the depots.
"""


def test_a_lead_in_sentence_over_a_meetings_decisions_and_a_dated_title_no_entry() -> None:
    result = _extract(WEEKLY, "minutes/2025-05-06-weekly.md")
    assert _spans(result, "Decision") == {
        "Decision: Scanner firmware 4.2 goes to every depot by 20 May.": (16, 16),
        "Decision: Night shift keeps the paper fallback until June.": (17, 17),
    }  # the page's dated title ("# 2025-05-06 Warehouse systems weekly") is no log entry


CHANGES_RFC = """# RFC 12: Rate limits for the partner API

- Status: Accepted
- Author: Dana

## Summary

Partners can flood the API; we add limits.

## Motivation

Two partners sent 40,000 requests a minute in March and slowed every other client.

## Changes to the gateway

This RFC adds a token bucket per partner key in the gateway, in front of every route.

* A partner gets 600 requests a minute; bursts of 100 are allowed.
* A request over the limit gets a 429 with a Retry-After header.

## Alternatives

* Limits per IP address. Rejected: partners share NAT gateways.
"""


def test_a_section_that_says_what_the_proposal_changes_is_its_design() -> None:
    result = _extract(CHANGES_RFC, "design/rfc-12.md")
    assert _spans(result, "Design") == {
        "Design: This RFC adds a token bucket per partner key in the gateway, in front of every route.": (16, 16),
        "Design: A partner gets 600 requests a minute; bursts of 100 are allowed.": (18, 18),
        "Design: A request over the limit gets a 429 with a Retry-After header.": (19, 19),
    }
    # a design section named as the template names it is read as before, and no second time
    named = CHANGES_RFC.replace("## Changes to the gateway", "## Design")
    designs = _spans(_extract(named, "design/rfc-12.md"), "Design")
    assert "Design: This RFC adds a token bucket per partner key in the gateway, in front of every route." in designs
    assert len(designs) == len(set(designs))


ALERT_PLAYBOOK = """# Playbook: PickListStale

| | |
|---|---|
| **Alert name** | `PickListStale` |
| **Severity** | P2 |
| **Service** | Picker |

## What the alert means

The alert fires when a depot's pick list has not been rebuilt for 10 minutes.

## Possible causes

1. The picker service is down.
2. The stock feed from the ERP is late.

## Diagnosis

1. Open the "Picker / freshness" dashboard and find the stale depot.
2. Check the stock feed lag panel.

## Steps

1. Restart the picker instance of that depot.
2. If the feed is late, page the ERP on-call.
"""


def test_an_alerts_playbook_with_a_severity_field_is_a_runbook_its_parts_each_read() -> None:
    result = _extract(ALERT_PLAYBOOK, "runbooks/pick-list-stale.md")
    assert result.subject is not None and result.subject.ref.entity_type != "incident"
    assert _spans(result, "Meaning") == {
        "Meaning: The alert fires when a depot's pick list has not been rebuilt for 10 minutes.": (11, 11)}
    diagnosis = _spans(result, "Diagnosis")
    assert diagnosis["Diagnosis: The picker service is down."] == (15, 15)  # the second section of the part
    assert diagnosis["Diagnosis: Check the stock feed lag panel."] == (21, 21)
    # the steps of an alert's runbook are its mitigation, not a procedure's stages
    assert _spans(result, "Mitigation")["Mitigation: Restart the picker instance of that depot."] == (25, 25)
    assert not _spans(result, "Procedure")


WRITE_UP = """# Postmortem: parcel labels printed blank at the Leeds depot

## Summary

On 12 May 2025 the label printers at the Leeds depot printed blank labels for three hours.

## What drivers and depot staff saw

- 2,300 parcels left without a readable label and were returned the next day.
- Drivers waited up to 40 minutes at the loading bay for reprinted labels.

## Why we did not notice sooner

The printer service reported every job as done, so no alert fired.

## What people saw

The on-call engineer saw a normal print queue and normal error rates.

## Root cause

A template update removed the font the printers use.
"""


def test_parts_named_by_what_their_heading_tells() -> None:
    result = _extract(WRITE_UP, "postmortems/2025-05-12-blank-labels.md")
    impact = _spans(result, "Impact")
    assert impact["Impact: 2,300 parcels left without a readable label and were returned the next day.; "
                  "Drivers waited up to 40 minutes at the loading bay for reprinted labels."] == (9, 10)
    assert not any("on-call engineer saw" in text for text in impact)  # the responders' story, no impact
    detection = _spans(result, "Detection")
    assert any("no alert fired" in text for text in detection)


FIRES = """# Runbook: PrinterQueueStuck

## When this alert fires

The alert fires when a depot's print queue has not moved for 5 minutes.

It means that labels are not being printed, and parcels pile up at the loading bay.

## Mitigation

1. Restart the print spooler.
"""


def test_the_paragraph_after_an_alerts_condition_is_what_it_means() -> None:
    result = _extract(FIRES, "runbooks/printer-queue-stuck.md")
    assert _spans(result, "Alert") == {
        "Alert: The alert fires when a depot's print queue has not moved for 5 minutes.": (5, 5)}
    assert _spans(result, "Meaning") == {
        "Meaning: It means that labels are not being printed, and parcels pile up at the loading bay.": (7, 7)}


CONTAINERS = """# Depot platform - containers

## Rules between containers

- The label service is the only container that talks to the printers. No other container may call a printer, even to read its status.
- No job of the nightly batch may write to the orders database.
"""


def test_a_rule_that_none_of_a_kind_may_is_a_constraint() -> None:
    result = _extract(CONTAINERS, "architecture/containers.md")
    constraints = _spans(result, "Constraint")
    assert any("No other container may call a printer" in text for text in constraints)
    assert any("No job of the nightly batch may write" in text for text in constraints)


def test_a_logged_decision_that_is_a_rule_is_a_constraint_too() -> None:
    result = _extract(DATED_LIST_LOG.replace(
        "the routing engine is bought, not built in-house.", "no route may cross the river bridge at rush hour."))
    assert _spans(result, "Constraint")["Constraint: no route may cross the river bridge at rush hour."] == (14, 14)
    assert "Decision: no route may cross the river bridge at rush hour." in _spans(result, "Decision")
    assert "Constraint: parcels over 30 kg always go to the van fleet." not in _spans(result, "Constraint")


LOSS_SUMMARY = """# Postmortem: the sorting line stopped at the Hull hub

## Summary

On 3 June 2025 the sorting line at the Hull hub stopped for 50 minutes after a PLC update. In all, 640
parcels missed the evening trucks and were delivered a day late. The line restarted once the update was
rolled back.

## Impact

Late parcels were refunded.

## Root cause

The PLC update changed the conveyor speed constants.
"""


def test_the_summarys_sentences_that_tell_a_loss_are_its_impact_too() -> None:
    result = _extract(LOSS_SUMMARY, "postmortems/2025-06-03-hull.md")
    impact = _spans(result, "Impact")
    assert impact["Impact: In all, 640 parcels missed the evening trucks and were delivered a day late."] == (5, 6)
    assert "Impact: On 3 June 2025 the sorting line at the Hull hub stopped for 50 minutes after a PLC update." \
        in impact
    assert not any("restarted" in text for text in impact)  # no loss told, no count: not the impact


TLDR = """# Label printer storm - summary of the incident thread

## TL;DR

For an hour on Tue 4 Mar every label printer in the Leeds depot rebooted in a loop. Cause: a firmware
push set the watchdog timer to 1 second. Fixed by rolling the firmware back.

## The thread, condensed

**09:10 - Ana:** printers rebooting again.
"""


def test_a_tldr_packs_the_cause_and_the_fix_into_its_sentences() -> None:
    result = _extract(TLDR, "postmortems/2025-03-04-printer-storm.md")
    assert _spans(result, "Cause")["Cause: a firmware push set the watchdog timer to 1 second."] == (5, 6)
    assert _spans(result, "Resolution")["Resolution: Fixed by rolling the firmware back."] == (6, 6)
