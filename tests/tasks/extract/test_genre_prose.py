"""Conclusions and dates written the way documents in the wild write them (issue 23 items 2-3):
bold-labelled paragraphs, an incident's day in prose, impact in numbers, a byline, Rust RFC
anchor definitions, a free-form write-up and minutes named by their attendees."""

from __future__ import annotations

from tasks.extract import Extraction, SourceRef, extract_facts
from tasks.extract.genre_meta import genre_dates
from tasks.extract.genre_prose import sentences
from tasks.extract.genre_text import clean_lines, list_items
from tasks.extract.genres import POSTMORTEM


def _extract(text: str, path: str = "docs/doc.md") -> Extraction:
    return extract_facts(text, SourceRef("x", "wiki/sources/x.md", "raw/x.md", path))


def _observations(result: Extraction) -> dict[str, tuple[int, int]]:
    return {fact.text: (fact.line_start, fact.line_end) for fact in result.observations}


def _with(result: Extraction, prefix: str) -> list[str]:
    return [fact.text for fact in result.observations if fact.text.startswith(prefix)]


SRE = """# Postmortem: Queue stalls after the broker upgrade

**Date:** 2025-02-03

**Status:** Final

**Summary:** The order queue stopped delivering for 20 minutes because the new broker
rejected the old client protocol.

**Impact:** About 41,000 orders were delayed.

**Root Causes:** The client library still spoke the old protocol version.

**Resolution:** We rolled the broker back.

## Action Items

| Action Item | Owner |
|---|---|
| Pin the protocol version | ana |

## Lessons Learned

- Upgrades need a canary.

## Timeline

- 10:00 broker upgraded
"""


def test_bold_labelled_parts_of_an_sre_postmortem_are_its_conclusions() -> None:
    result = _extract(SRE)
    found = _observations(result)
    summary = "Summary: The order queue stopped delivering for 20 minutes because the new broker rejected the old client protocol."
    assert found[summary] == (7, 8)
    assert found["Impact: About 41,000 orders were delayed."] == (10, 10)
    assert found["Cause: The client library still spoke the old protocol version."] == (12, 12)
    assert found["Resolution: We rolled the broker back."] == (14, 14)
    assert "Status: Final" in found and "Incident date: 2025-02-03" in found


BLOG = """# What went wrong with the upload service

*Posted by Ann Lee, 12 March 2024*

On Tuesday 5 March 2024 at 14:05 UTC, uploads began to fail. It lasted an hour.

## What broke

A full disk stopped the upload workers. In total 9,200 uploads failed during the hour.
Workers logged 507 errors all along.

## Day by day

- 14:05 3,000 uploads failed at once

## How we fixed it

We freed the disk and restarted the workers.

## What we are changing

- Alert when the disk is 80 % full (owner: Ann Lee)
"""


def test_a_free_form_write_up_is_a_postmortem_dated_by_its_story_not_its_byline() -> None:
    result = _extract(BLOG)
    assert result.subject is not None and result.subject.ref.entity_type == "incident"
    found = _observations(result)
    assert 'Incident date: 2024-03-05 (written "Tuesday 5 March 2024 at 14:05 UTC")' in found
    assert _with(result, "Summary: ") == ["Summary: On Tuesday 5 March 2024 at 14:05 UTC, uploads began to fail. It lasted an hour."]
    assert _with(result, "Impact: ") == ["Impact: In total 9,200 uploads failed during the hour."]
    assert _with(result, "Resolution: ") == ["Resolution: We freed the disk and restarted the workers."]
    assert _with(result, "Action item: ") == ["Action item: Alert when the disk is 80 % full (owner: Ann Lee)"]


def test_a_prose_date_needs_on_before_it() -> None:
    prose = [(3, "Published 1 May 2024."), (5, "On 2024-04-30 at 09:00 the cache failed.")]
    facts = genre_dates(POSTMORTEM, [], ("Cache failure", 1), prose, "cache")
    assert [f.text for f in facts] == ['Incident date: 2024-04-30 (written "2024-04-30 at 09:00")']


def test_rust_rfc_anchor_definitions_and_instructions_are_not_prose() -> None:
    lines = [(1, "[summary]: #summary"), (2, "Describe the change"), (3, "in a few lines."), (4, ""),
             (5, "Add a cache layer: reads go through it.")]
    assert clean_lines(lines) == [(1, ""), (2, ""), (3, ""), (4, ""), (5, "Add a cache layer: reads go through it.")]


def test_a_drawing_flattened_into_a_paragraph_is_no_statement() -> None:
    drawing = "OID Space [███████░░████] 0-1M OIDs ↑ Next OID Counter (must skip over used OIDs)"
    text = f"# Outage\n\n## Appendix\n\n{drawing}\n\nEvery writer must skip a used OID.\n"
    assert clean_lines([(1, drawing), (2, "A box ─ or two ░░ is text.")]) == [
        (1, ""), (2, "A box ─ or two ░░ is text.")]
    texts = [fact.text for fact in _extract(text).observations]
    assert not any("OID Space" in t for t in texts)


def test_a_fence_under_a_list_item_is_its_code_not_its_text() -> None:
    # the OpenShift runbooks' template: "1. Confirm ...:" then an indented ```console block
    lines = list(enumerate(["1. Confirm whether the API is also unresponsive:", "",
                            "    ```console", "    $ oc cluster-info", "    ```", "",
                            "1. Check the pods.", "", "    ```", "    - not an item", "    ```"], 1))
    assert list_items(lines) == [("Confirm whether the API is also unresponsive: `$ oc cluster-info`", 1, 4),
                                 ("Check the pods. `- not an item`", 7, 10)]


def test_minutes_named_by_attendees_and_a_working_group_title() -> None:
    text = ("# Storage working group — 4 March 2025\n\nPresent: Ann, Bo.\n\n## Discussion\n\n- x\n\n"
            "## Outcomes\n\n- The cache moves to staging.\n\n## Action items\n\n- @bo: measure hit rates\n")
    result = _extract(text)
    assert result.subject is not None and result.subject.ref.entity_type == "meeting"
    found = _observations(result)
    assert 'Meeting date: 2025-03-04 (written "Storage working group — 4 March 2025")' in found
    assert "Decision: The cache moves to staging." in found
    assert "Action item: @bo: measure hit rates (owner: @bo)" in found


def test_a_runbook_keeps_its_alert_beside_its_meaning_and_an_only_constraint() -> None:
    runbook = _extract("# DiskFull\n\n## Alert\n\nFires at 90 % disk.\n\n## Meaning\n\nThe disk is nearly full.\n\n"
                       "## Mitigation\n\nDelete old logs.\n")
    assert {"Alert: Fires at 90 % disk.", "Meaning: The disk is nearly full."} <= set(_observations(runbook))
    page = _extract("# Store architecture\n\nThe store keeps blocks.\n\n## Components\n\nx\n\n## Constraints\n\n"
                    "Only the compactor deletes blocks from the bucket.\n")
    assert "Constraint: Only the compactor deletes blocks from the bucket." in _observations(page)


def test_check_box_action_items_owners_and_labelled_non_goals() -> None:
    review = _extract("# Outage of the export job\n\n## Root cause\n\nA bad config.\n\n## Action items\n\n"
                      "- [ ] Validate the config on load (@ana)\n- [x] Roll back the config @bo\n")
    assert _with(review, "Action item: ") == ["Action item: Validate the config on load (@ana) (owner: @ana)",
                                              "Action item: Roll back the config @bo (owner: @bo)"]
    design = _extract("# Design: Export batching\n\n## Goals and non-goals\n\n**Goals:**\n\n- Batch exports.\n\n"
                      "**Non-goals:**\n\n- Changing the export format.\n- Streaming.\n\nMore prose.\n\n## Design\n\nQueue them.\n")
    assert _with(design, "Non-goal: ") == ["Non-goal: Changing the export format.", "Non-goal: Streaming."]


def test_minutes_action_lines_and_a_decision_paragraph() -> None:
    minutes = _extract("# Team meeting\n\nAttendees: Ann, Bo\n\n## Agenda\n\n- cache\n\n## Decisions\n\n"
                       "We keep the current cache for another quarter.\n\n## Notes\n\nACTION: Bo to write the plan.\n")
    assert "Decision: We keep the current cache for another quarter." in _observations(minutes)
    assert "Action item: Bo to write the plan. (owner: Bo)" in _observations(minutes)


def test_minutes_with_bold_labels_over_lists_instead_of_headings() -> None:
    # Notes kept in a word processor mark their parts with a bold line, not a heading.
    minutes = _extract("# Platform sync, 3 June 2025\n\nAttendees: Ann, Bo\n\n## 1. Queues\n\n"
                       "We compared the brokers.\n\n**Decisions**\n\n- D1: All queues move to the new broker.\n"
                       "  Old queues drain by July.\n- D2: We do not buy the hosted plan.\n\n"
                       "The cost discussion goes on next week.\n\n- not a decision\n\n"
                       "**Action items:**\n\n- Bo to size the cluster.\n")
    found = _observations(minutes)
    assert found["Decision: All queues move to the new broker. Old queues drain by July."] == (11, 12)
    assert found["Decision: We do not buy the hosted plan."] == (13, 13)
    # no decision, and an item of three words no statement (what the meeting goes on with is
    # a statement of its topic: kept as what it heard, not as a decision)
    assert not [text for text in found if "not a decision" in text
                or "cost discussion" in text and not text.startswith("Outcome: ")]
    assert "Action item: Bo to size the cluster. (owner: Bo)" in found
    # A bold label inside a paragraph, or one that is no part of the genre, marks no list.
    other = _extract("# Platform sync, 3 June 2025\n\nAttendees: Ann\n\n**Notes**\n\n- D1: keep it.\n")
    assert not _with(other, "Decision: ")


def test_a_plain_root_cause_label_and_a_resolution_told_in_steps() -> None:
    review = _extract("# Orders lost: broker disks full\n\nIncident date: 2 Oct 2025 · Impact: High\n\n"
                      "## Summary\n\nOrders were not published for an hour.\n\n## Recovery\n\n"
                      "1. Paused the connector at 10:19.\n2. Grew the broker volumes\n   to 1.5 TiB.\n"
                      "3. Replayed the missing orders.\n\n## Five whys\n\n1. Why? Disks filled.\n\n"
                      "Root cause: a staging-only setting reached production through a shared file.\n\n"
                      "Impact: High\n")
    found = _observations(review)
    assert found["Resolution: Paused the connector at 10:19."] == (11, 11)
    assert found["Resolution: Grew the broker volumes to 1.5 TiB."] == (12, 13)
    assert found["Resolution: Replayed the missing orders."] == (14, 14)
    assert found["Cause: a staging-only setting reached production through a shared file."] == (20, 20)
    assert "Impact: High" not in found  # a field's value, not a sentence


def test_dates_in_body_tables_timestamps_and_pep_form() -> None:
    text = ("# Checkout incident\n\n## Incident details\n\n| Field | Value |\n|---|---|\n| Status | Resolved |\n"
            "| Incident date | 2024-03-14T09:12:00Z |\n\n## Root cause\n\nA bad deploy.\n\n## Timeline\n\n- 09:12 deploy\n")
    result = _extract(text)
    assert "Status: Resolved" in _observations(result)
    assert 'Incident date: 2024-03-14 (written "2024-03-14T09:12:00Z")' in _observations(result)
    pep = _extract("# PEP 999 -- A thing\n\nPEP: 999\nStatus: Draft\nCreated: 01-Jun-2001\n\n## Abstract\n\nA thing.\n\n"
                   "## Motivation\n\nWhy.\n\n## Specification\n\nHow.\n")
    assert 'Created: 2001-06-01 (written "01-Jun-2001")' in _observations(pep)


def test_a_metadata_table_written_across_and_a_timeline_date() -> None:
    doc = _extract("# Design: Export queue\n\n| Status | Author | Created |\n|---|---|---|\n| In review | Ann | 05.03.2024 |\n\n"
                   "## Goals\n\n- Fast.\n\n## Non-goals\n\n- Cheap.\n\n## Design\n\nA queue.\n")
    assert {"Status: In review", 'Created: 2024-03-05 (written "05.03.2024")'} <= set(_observations(doc))
    incident = _extract("# Checkout down\n\n## Root cause\n\nA bad deploy.\n\n## Impact\n\nNo checkouts.\n\n"
                        "## Timeline\n\n- 14/03/2024 09:12 deploy\n- 03/14 09:20 rollback\n")
    assert 'Incident date: 2024-03-14 (written "- 14/03/2024 09:12 deploy")' in _observations(incident)


def test_status_as_written_and_a_field_link_by_the_number_its_label_names() -> None:
    proposal = ("# P\n\nStatus: ✅ Accepted\nReplaces: [RFC 0019](https://example.org/rfcs/pull/19), "
                "[#77](https://example.org/issues/77)\n\n## Motivation\n\nx\n\n## Proposal\n\ny\n")
    result = _extract(proposal)
    assert "Status: Accepted" in _observations(result)
    assert [(link.relation_type, link.number) for link in result.record_links] == [("supersedes", 19)]
    section = _extract("# P\n\n## Status\n\nAccepted\n\n## Motivation\n\nx\n\n## Proposal\n\ny\n")
    assert "Status: Accepted" in _observations(section)


def test_a_write_up_without_a_cause_section_states_its_cause_in_a_sentence() -> None:
    text = ("# Incident: checkout was slow on Monday\n\nOn Monday 4 March 2024 checkout slowed down for an hour.\n\n"
            "## Details\n\nWe looked at the graphs first. The slowdown was caused by a missing index on the "
            "orders table.\n\n## Timeline\n\n- 10:00 the root cause was unknown\n\n## Action items\n\n- Add the index\n")
    assert _with(_extract(text), "Cause: ") == ["Cause: The slowdown was caused by a missing index on the orders table."]


def test_notes_read_as_a_record_take_the_iso_date_of_their_title() -> None:
    notes = _extract("# Cache review, 2020-02-03\n\n## Summary\n\nWe reviewed the cache.\n\n## Decision\n\nWe keep it.\n")
    assert "Date: 2020-02-03" in _observations(notes)


def test_a_paragraphs_sentences_are_remembered_but_each_caller_gets_its_own_list() -> None:
    parts = [(4, "The queue is full. Workers stop"), (5, "reading it."), (6, "- An item ends here.")]
    first = sentences(parts)
    assert first == [("The queue is full.", 4, 4), ("Workers stop reading it.", 4, 5), ("An item ends here.", 6, 6)]
    first.append(("changed", 0, 0))
    assert sentences(list(parts)) == first[:-1]
