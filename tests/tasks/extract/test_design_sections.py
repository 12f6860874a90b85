"""A design told in sub-sections (concl44): a Google design doc's "The actual design" with no
text of its own, each "### ..." opened by its statement; a KEP's Proposal text followed by its
user stories keeps only its own text as the design."""

from __future__ import annotations

from tasks.extract import SourceRef, extract_facts

GOOGLE_DOC = """# Design doc: Order export

## Context and Scope

The shop exports orders to the ledger once a night.

## Goals and non-goals

* Orders reach the ledger within 5 minutes.

## The actual design

### Change feed

Each order change is written to an outbox table in the same transaction.

### Delivery

A relay reads the outbox and posts each change to the ledger API at most once.

## Alternatives considered

**Nightly batch.** Rejected: too late for finance.
"""

KEP = """# KEP-7: Faster scheduling

## Summary

The scheduler caches node scores.

## Proposal

The scheduler keeps a score cache per node and invalidates it on pod events.

### User Stories

#### Story 1

As an operator I want pods placed within a second.
"""


def _designs(text: str) -> list[tuple[str, int]]:
    result = extract_facts(text, SourceRef("x", "wiki/sources/x.md", "raw/x.md", "docs/design.md"))
    return [(fact.text, fact.line_start) for fact in result.observations if fact.text.startswith("Design: ")]


def test_each_sub_section_of_a_design_with_no_text_of_its_own_is_a_design() -> None:
    assert _designs(GOOGLE_DOC) == [
        ("Design: Each order change is written to an outbox table in the same transaction.", 15),
        ("Design: A relay reads the outbox and posts each change to the ledger API at most once.", 19)]


def test_a_proposal_with_text_of_its_own_does_not_read_its_user_stories() -> None:
    assert _designs(KEP) == [
        ("Design: The scheduler keeps a score cache per node and invalidates it on pod events.", 9)]


KEP_DETAILS = KEP + """
## Design Details

The cache lives in the scheduler's memory and is rebuilt on restart.

<!--
This section should contain enough information that the specifics of your
change are understandable.
-->

### Test Plan

We replay a day of real pod events.
"""


def test_a_proposals_design_details_are_its_design_too_beside_the_proposal() -> None:
    assert _designs(KEP_DETAILS) == [
        ("Design: The scheduler keeps a score cache per node and invalidates it on pod events.", 9),
        ("Design: The cache lives in the scheduler's memory and is rebuilt on restart.", 19)]


def test_design_details_with_no_text_of_their_own_give_no_design_from_the_test_plan() -> None:
    text = KEP + "\n## Design Details\n\n### Test Plan\n\n[ ] I/we understand the owners may require updates.\n"
    assert [line for _, line in _designs(text)] == [9]


GOALS = """# KEP-9: Automatic booking

## Summary

The planner books antenna contacts by itself.

## Motivation

### Goals

- Plan every contact for the next 48 hours.
- Never book a contact from an orbit older than 36 hours.

## Proposal

A solver picks the contacts every six hours.
"""


def test_a_goal_that_forbids_is_a_constraint_too() -> None:
    result = extract_facts(GOALS, SourceRef("x", "wiki/sources/x.md", "raw/x.md", "docs/kep-9.md"))
    rules = [(o.text, o.line_start) for o in result.observations if o.text.startswith("Constraint: ")]
    assert rules == [("Constraint: Never book a contact from an orbit older than 36 hours.", 12)]


ROLLOUT = GOOGLE_DOC.replace("## Alternatives considered", """### Rollout

1. Run the relay in shadow for a week and compare the ledger's totals.
2. Switch the nightly export off once the totals agree for seven days.
3. Is a rollback needed?

## Alternatives considered""")


def test_each_step_of_a_designs_rollout_is_a_procedure() -> None:
    result = extract_facts(ROLLOUT, SourceRef("x", "wiki/sources/x.md", "raw/x.md", "docs/design.md"))
    steps = [(o.text, o.line_start) for o in result.observations if o.text.startswith("Procedure: ")]
    assert steps == [("Procedure: Run the relay in shadow for a week and compare the ledger's totals.", 23),
                     ("Procedure: Switch the nightly export off once the totals agree for seven days.", 24)]


# A Google design doc whose sub-sections each go on past their opening paragraph, and whose
# design opens with an "Overview" of its own (written for this test).
LONG_DESIGN = """# Design doc: Faster live playlists

## Context and Scope

The apps play live channels 30 seconds behind the broadcast.

## Goals and non-goals

* Live delay of 8 seconds or less.

## The actual design

### Overview

We will serve partial segments of 300 ms from the packager.

### Origin

The CDN must not cache a held playlist request for longer than one part.

Origin shield: all playlist requests go through one shield region per CDN.

### Players

- hls.js on web.
- AVPlayer on iOS.

The player's target latency is 6 seconds.

## Alternatives considered

**WebRTC.** Rejected: no DRM.
"""


def test_each_paragraph_of_each_design_sub_section_is_a_design() -> None:
    assert _designs(LONG_DESIGN) == [
        ("Design: We will serve partial segments of 300 ms from the packager.", 15),
        ("Design: The CDN must not cache a held playlist request for longer than one part.", 19),
        ("Design: Origin shield: all playlist requests go through one shield region per CDN.", 21),
        ("Design: hls.js on web.; AVPlayer on iOS.", 25),
        ("Design: The player's target latency is 6 seconds.", 28)]


def test_an_overview_inside_the_design_is_not_the_documents_summary() -> None:
    result = extract_facts(LONG_DESIGN, SourceRef("x", "wiki/sources/x.md", "raw/x.md", "docs/design.md"))
    summaries = [(fact.text, fact.line_start) for fact in result.observations if fact.text.startswith("Summary: ")]
    assert summaries == [("Summary: The apps play live channels 30 seconds behind the broadcast.", 5)]


# A KEP whose Design Details go on past their opening paragraph with the rules the design keeps,
# whose Risks and Mitigations are a paragraph each, and a goal that limits (written for this test).
KEP_RULES = """# KEP-11: Lineage events

## Summary

The lab system publishes an event for every step a sample goes through.

## Motivation

### Goals

- A column reaches the lake only if the data dictionary lists it.
- Every step is recorded once.

## Proposal

The lab system writes each event to an outbox table; a relay appends them to the lake.

### Risks and Mitigations

If the relay stops, events pile up in the outbox and the lake falls behind.

A correction made in the lab but not entered in the lab system would still leave wrong lineage.

## Design Details

Each event has a UUID, the sample ID and a timestamp in UTC.

The relay must be idempotent: an event already in the table is skipped.

### Test Plan

We replay last year's audit log.
"""


def test_each_paragraph_of_the_design_details_is_a_design_and_its_rule_a_constraint() -> None:
    result = extract_facts(KEP_RULES, SourceRef("x", "wiki/sources/x.md", "raw/x.md", "docs/kep-11.md"))
    said = {(o.text, o.line_start) for o in result.observations}
    assert ("Design: Each event has a UUID, the sample ID and a timestamp in UTC.", 26) in said
    assert ("Design: The relay must be idempotent: an event already in the table is skipped.", 28) in said
    assert ("Constraint: The relay must be idempotent: an event already in the table is skipped.", 28) in said
    assert not any(text.startswith("Design: We replay") for text, _ in said)  # the Test Plan is no design


def test_each_paragraph_of_risks_and_mitigations_is_a_risk_and_a_goal_that_limits_a_rule() -> None:
    result = extract_facts(KEP_RULES, SourceRef("x", "wiki/sources/x.md", "raw/x.md", "docs/kep-11.md"))
    said = {(o.text, o.line_start) for o in result.observations}
    assert ("Risk: If the relay stops, events pile up in the outbox and the lake falls behind.", 20) in said
    assert ("Risk: A correction made in the lab but not entered in the lab system would still leave wrong "
            "lineage.", 22) in said
    assert ("Constraint: A column reaches the lake only if the data dictionary lists it.", 11) in said
    assert not any(text.startswith("Constraint: Every step") for text, _ in said)


# concl49: a PEP-style proposal's Rationale told a reason a paragraph.
PEP_STYLE = """CDPEP: 12
Title: Packaging in SubmitKit
Status: Accepted
Created: 12-Jan-2026


Abstract
========

This proposal changes SubmitKit so that it assembles eCTD 4.0 submissions.


Rationale
=========

We considered buying a publishing tool. Both tools want to own the document store.

Generating the message from our own metadata keeps one source of truth.


Specification
=============

SubmitKit writes the submission unit message with the HL7 schema.
"""


def test_a_rationale_told_over_paragraphs_keeps_each_reason() -> None:
    result = extract_facts(PEP_STYLE, SourceRef("x", "wiki/sources/x.md", "raw/x.md", "cdpep-0012.md"))
    reasons = [(o.text, o.line_start) for o in result.observations if o.text.startswith("Rationale: ")]
    assert reasons == [
        ("Rationale: We considered buying a publishing tool. Both tools want to own the document store.", 16),
        ("Rationale: Generating the message from our own metadata keeps one source of truth.", 18)]


# concl49: the paragraph that says what the document proposes, after the landscape.
PROPOSING = """# Inventory: a topology model

| | |
|---|---|
| **Status** | Approved |

## Context and scope

Inventory is the network inventory service. It records sites, routers and links.

What it cannot answer today is which cells lose service when a router fails.

This doc proposes a topology model inside Inventory that answers that question in seconds.

## Goals and non-goals

- Answer "what depends on element X" in under 2 seconds.

## Design

Every inventory record becomes a node.

## Alternatives considered

- A graph database. Rejected: a second store to run.
"""


def test_the_paragraph_that_says_what_the_document_proposes_is_a_summary() -> None:
    result = extract_facts(PROPOSING, SourceRef("x", "wiki/sources/x.md", "raw/x.md", "topology-model.md"))
    summaries = [(o.text, o.line_start) for o in result.observations if o.text.startswith("Summary: ")]
    assert summaries[-1] == ("Summary: This doc proposes a topology model inside Inventory that answers that "
                             "question in seconds.", 13)
    assert not any("What it cannot answer" in text for text, _ in summaries)
