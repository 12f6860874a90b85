"""Conclusions in the house styles heldout29 showed (issue 23 item 3, concl52), written here in
other words: a post-incident review that asks its parts as questions, an ITIL problem record, a
runbook whose parts are named with a word of their own ("Quick checks", "Fixes" over cases), an
architecture view's principles, a KIP's Public Interfaces, an OpenStack spec's impact sections
under its licence comment, and an options table with a verdict column."""

from __future__ import annotations

from tasks.extract import Extraction, SourceRef, extract_facts


def _extract(name: str, text: str) -> Extraction:
    return extract_facts(text, SourceRef("x", "wiki/sources/x.md", "raw/x.md", name))


def _labelled(result: Extraction, label: str) -> list[tuple[str, int, int]]:
    return [(o.text.removeprefix(f"{label}: "), o.line_start, o.line_end) for o in result.observations
            if o.text.startswith(f"{label}: ")]


PIR = """## Post Incident Review (PIR) - Ledger - invoices sent twice

### What happened?

Between 09:00 and 11:30 UTC on 4 March 2025 the ledger sent 1,200 invoices twice.

### What went wrong and why?

The retry queue replayed acknowledged jobs after the worker upgrade changed the ack format.

### How are we making incidents like this less likely or less impactful?

- Completed: the worker checks the ack format version before replaying.
- In progress: a duplicate-invoice alarm on the mail gateway (owner: Ana Lopes).
"""


def test_a_review_that_asks_its_parts_as_questions() -> None:
    result = _extract("postmortems/pir-ledger.md", PIR)
    assert ("The retry queue replayed acknowledged jobs after the worker upgrade changed the ack format.",
            9, 9) in _labelled(result, "Cause")
    actions = [text for text, _, _ in _labelled(result, "Action item")]
    assert actions == ["Completed: the worker checks the ack format version before replaying.",
                       "In progress: a duplicate-invoice alarm on the mail gateway (owner: Ana Lopes)."]


PROBLEM = """# Problem Record PRB-0107

| Field | Value |
|---|---|
| Short description | Exports stall after a failover |
| State | Known Error |

## Problem statement

Since the March failover the nightly export has stalled twice a week and the finance team got late reports.

## Impact

Finance reports arrived late on six mornings.

## Investigation notes

- *2025-03-02, Ben:* the export holds a lock on the old primary after a failover.

## Root cause

The exporter caches the primary's address and never refreshes it, so it keeps a dead connection.

## Workaround

1. Restart the exporter after any failover.
2. Re-run the export by hand before 07:00.

## Permanent fix

- The exporter resolves the primary on every run.
"""


def test_a_problem_record_keeps_its_workaround_apart_from_its_fix() -> None:
    result = _extract("postmortems/PRB-0107.md", PROBLEM)
    assert [text for text, _, _ in _labelled(result, "Mitigation")] == [
        "Restart the exporter after any failover.", "Re-run the export by hand before 07:00."]
    assert [text for text, _, _ in _labelled(result, "Resolution")] == [
        "The exporter resolves the primary on every run."]
    assert ("2025-03-02, Ben: the export holds a lock on the old primary after a failover.", 18, 18) \
        in _labelled(result, "Cause")


RUNBOOK = """# ledger-workers

Operational notes for the ledger workers.

## Symptoms

The alert `LedgerQueueGrowing` fires and invoices are not sent.

## Quick checks

```bash
ledgerctl queue stats
```

A healthy queue drains 200 jobs a minute. A queue that only grows means the workers are stuck.

## Fixes

### One worker is stuck

1. Find the worker in the pool listing.
2. Restart it with `ledgerctl worker restart <id>`.

### The whole pool is stuck

- Check the database connection first.
- Fail the pool over to the second region.

## Escalation

Page the ledger on-call.
"""


def test_runbook_parts_named_with_a_word_of_their_own() -> None:
    result = _extract("runbooks/ledger-workers.md", RUNBOOK)
    assert ("A healthy queue drains 200 jobs a minute. A queue that only grows means the workers are stuck.",
            15, 15) in _labelled(result, "Diagnosis")
    steps = [(text, start) for text, start, _ in _labelled(result, "Mitigation")]
    assert ("Find the worker in the pool listing.", 21) in steps
    assert ("Check the database connection first.", 26) in steps
    assert ("Fail the pool over to the second region.", 27) in steps


VIEW = """# Application view: billing

## Application components

| Component | Purpose | Owner |
|---|---|---|
| Ledger | Writes invoices | Billing team |
| Mailer | Sends invoices | Billing team |

## Interfaces

| # | From → To | Content |
|---|---|---|
| I-1 | Ledger → Mailer | Invoice events |

## Architecture principles applied

1. **Each service keeps its data.** The ledger keeps its own schema.
2. **Events over calls.** New feeds go on the event bus, not point-to-point calls.
"""


def test_an_architecture_views_principles_are_its_rules() -> None:
    result = _extract("architecture/billing-view.md", VIEW)
    rules = [text for text, _, _ in _labelled(result, "Constraint")]
    assert any("New feeds go on the event bus" in rule for rule in rules)
    assert any("The ledger keeps its own schema." in rule for rule in rules)


OPTIONS = """# ADR-31 Queue for ledger events

## Status

Accepted

## Decision

We will use RabbitMQ quorum queues for ledger events.

## Options considered

| Option | Verdict |
|---|---|
| Keep the cron poller (ADR-12) | Rejected — a day of delay |
| RabbitMQ quorum queues | **Chosen** |
| Redis streams | Rejected: no dead-letter queue |
"""


def test_an_options_tables_turned_down_rows_are_rejected() -> None:
    result = _extract("decisions/ADR-31.md", OPTIONS)
    rejected = _labelled(result, "Rejected")
    assert ("Keep the cron poller: a day of delay", 15, 15) in rejected
    assert ("Redis streams: no dead-letter queue", 17, 17) in rejected
    assert not any(text.startswith("RabbitMQ") for text, _, _ in rejected)


KIP = """# LIP-4: Ledger events with idempotency keys

**Status**: Under discussion

## Motivation

The ledger sends invoice events twice after a restart.

## Public Interfaces

- Every event carries `event_key`, built from the invoice number and its version.

## Proposed Changes

The ledger stores the last version it sent per invoice and sends each version once.

## Compatibility, Deprecation, and Migration Plan

- Phase 1: send both the old and the new events.

## Rejected Alternatives

- **De-duplicate in every consumer.** Rejected: each consumer would re-implement it.
"""


def test_a_kips_public_interfaces_detail_its_design() -> None:
    result = _extract("design/LIP-4.md", KIP)
    design = [text for text, _, _ in _labelled(result, "Design")]
    assert any("Every event carries `event_key`" in text for text in design)


SPEC = """..
 This work is licensed under a Creative Commons Attribution 3.0 Unported License.

=============================
Ledger: signed invoice export
=============================

Blueprint: ledger-signed-export

Spec status: approved for the 2025.1 release cycle.

Since the audit, every invoice export must be signed by the ledger.

Problem description
===================

Exports are plain files that anyone with access to the share can change.

Use Cases
---------

* As an auditor I can tell an export was not changed after the ledger wrote it.

Proposed change
===============

The ledger signs each export with its release key.

Alternatives
------------

* Keep plain exports and audit the share. Rejected: an audit finds a change too late.

REST API impact
---------------

None.

Security impact
---------------

Exports are signed with the ledger release key; the importer refuses unsigned exports.

Notifications impact
--------------------

None.

Implementation
==============

Primary assignee: Ana Lopes.
"""


def test_a_specs_impact_sections_detail_its_design_under_no_licence_summary() -> None:
    result = _extract("design/spec-ledger-export.md", SPEC)
    design = [text for text, _, _ in _labelled(result, "Design")]
    assert "Exports are signed with the ledger release key; the importer refuses unsigned exports." in design
    assert "None." not in design
    assert not any("licensed" in text for text, _, _ in _labelled(result, "Summary"))
