"""A proposal's scope, compatibility and turned-down options in the places PEP-style and
KIP-style templates put them (concl62): a sentence anywhere that says something is out of scope
or not covered is a non-goal; the items of a "Backwards Compatibility" (PEP) or "Compatibility,
Deprecation, and Migration Plan" (KIP) section are its consequences; an option a rationale names
as "(rejected: why)" is a rejected option, beside the rationale."""

from __future__ import annotations

from tasks.extract import Extraction, SourceRef, extract_facts


def _extract(name: str, text: str) -> Extraction:
    return extract_facts(text, SourceRef("x", "wiki/sources/x.md", "raw/x.md", name))


def _said(extraction: Extraction) -> list[str]:
    return [fact.text for fact in extraction.observations]


PEP_STYLE = """# SEP 0021: Route parcels by the next truck, not by road distance

| | |
|---|---|
| **SEP** | 0021 |
| **Author** | Ana Ruiz |
| **Status** | Final |
| **Created** | 2024-04-11 |

## Abstract

Sorter will choose the depot that ships a parcel by asking which depot reaches the customer on the
earliest truck, instead of the road-distance rule.

## Specification

1. Sorter loads the truck timetable every night at 02:00.
2. The depot with the earliest arrival wins.

Parcels for lockers are out of scope: the locker partner routes those itself.

## Rationale

We considered letting depot staff pick by hand (rejected: it moved the work to the busiest people)
and buying the carrier's routing module (rejected: it needs the fleet's GPS data).

## Backwards Compatibility

- Pick lists keep the same format; depots see no change besides which parcels appear.
- Parcels booked before the rollout keep their chosen depot.
"""


def test_a_pep_style_proposal_s_scope_compatibility_and_rejected_options() -> None:
    said = _said(_extract("sep-0021-route-by-truck.md", PEP_STYLE))
    assert "Non-goal: Parcels for lockers are out of scope: the locker partner routes those itself." in said
    assert "Consequence: Pick lists keep the same format; depots see no change besides which parcels appear." in said
    assert "Consequence: Parcels booked before the rollout keep their chosen depot." in said
    rejected = [o for o in said if o.startswith("Rejected: ")]
    assert rejected and "rejected: it moved the work to the busiest people" in rejected[0]
    assert "rejected: it needs the fleet's GPS data" in rejected[0]
    assert any(o.startswith("Rationale: We considered letting depot staff") for o in said)


EMAIL = """Subject: Intent to ship: automatic setpoints at two sites
From: Ana Ruiz <ana@example.org>
Date: Tue, 2 Jun 2026 08:41:17 +0100

Hi all,

Setpoints will be written automatically at Northfield and Eastmoor from next month, so the control
room no longer types them by hand.

Westfen Solar is not covered: its plant controller cannot accept remote setpoints until 2027.

Flag
`auto_apply` per site, default off. Rollback is flipping the flag, which returns the site to manual entry.
"""


def test_a_sentence_of_a_plain_document_that_leaves_a_site_out_is_a_non_goal() -> None:
    said = _said(_extract("intent-to-ship.md", EMAIL))
    assert ("Non-goal: Westfen Solar is not covered: its plant controller cannot accept remote setpoints "
            "until 2027.") in said
    assert "Mitigation: Rollback is flipping the flag, which returns the site to manual entry." in said


DESIGN_DOC = """# Offline delivery scans in Courier

Status: Implemented

## Abstract

This proposal makes the Courier app work for a full shift with no signal, and sync when it gets one.

## Goals

1. Every scan in the app works offline and is queued.
2. Dispatch remains the only system of record for deliveries.

## Design

### Sync

When the phone has a connection, the sync worker sends the queued scans in order.

Conflict rules:

| Case | Rule |
|---|---|
| Dispatch cancelled the delivery while the driver scanned it | the scan is kept as a note; the delivery is not closed |
| Photo upload fails | retried for 7 days, then flagged to the dispatcher |
"""


def test_a_design_s_rules_table_under_its_lead_in_and_a_goal_that_keeps_one_system_the_only_one() -> None:
    said = _said(_extract("courier-offline-scans.md", DESIGN_DOC))
    assert "Design: Photo upload fails: retried for 7 days, then flagged to the dispatcher" in said
    assert any(o.startswith("Design: Dispatch cancelled the delivery while the driver scanned it: the scan is kept")
               for o in said)
    assert "Constraint: Dispatch remains the only system of record for deliveries." in said
