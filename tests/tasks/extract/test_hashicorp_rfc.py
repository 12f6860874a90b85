"""A HashiCorp-style RFC (concl50): "[RFC-ID] Title", a Proposal told as a numbered list, its
Implementation and its Abandoned Ideas; the items of a list kept as one text and cut short."""

from __future__ import annotations

from tasks.extract import SourceRef, extract_facts

RFC = """# [RFC-AB-012] Route invoices by region

| | |
|---|---|
| **Created** | May 12, 2026 |
| **Status** | Approved |
| **Owner** | Ana Lima |

## Summary

The invoice router sends each invoice to the ledger of its region.

## Background

Invoices are booked in one ledger today, whatever their region.

## Proposal

A new **region step** in the invoice router:

1. Read the invoice's billing address and resolve its region from the
   postcode table, ordered by the invoice's own booking time.
2. Look the region up in the ledger map, a table kept in the router's
   own database and synced nightly from the finance system.
3. Send the invoice to that ledger's queue, with the region as a
   message header so the ledger can check it.
4. Record the routing in the audit log, one row per invoice and
   region, so a wrong route can be traced.
5. Publish an `invoice-routed.v1` event for the finance dashboards
   and the month-end reconciliation.

## Implementation

- Written in Go beside the existing router, same deployment.
- The ledger map is edited through the admin screen.

## Abandoned Ideas

- **Route by customer account.** Accounts span regions; an account's invoices would land in one ledger.
- **Let each ledger poll for its invoices.** Polling doubles the load on the invoice store.
"""


def _said() -> dict[str, int]:
    result = extract_facts(RFC, SourceRef("x", "wiki/sources/x.md", "raw/x.md", "design/rfc-ab-012.md"))
    return {o.text: o.line_start for o in result.observations}


def test_a_numbered_rfc_is_read_as_a_proposal_not_a_template() -> None:
    said = _said()
    assert "Status: Approved" in said and any(t.startswith("Summary: The invoice router") for t in said), said


def test_each_step_past_the_cut_of_a_design_list_is_kept() -> None:
    said = _said()
    design = [t for t in said if t.startswith("Design: ")]
    assert any(t.startswith("Design: A new region step") and t.endswith("[…]") for t in design), design
    assert said.get("Design: Record the routing in the audit log, one row per invoice and region, so a wrong "
                    "route can be traced.") == 27, design
    assert any("invoice-routed.v1" in t for t in design), design
    # the steps the kept text shows are not kept twice
    assert not any(t.startswith("Design: Read the invoice's billing address") for t in design), design


def test_the_implementation_details_the_design_and_abandoned_ideas_are_rejected() -> None:
    said = _said()
    assert any(t.startswith("Design: Written in Go beside the existing router") for t in said), said
    rejected = [t for t in said if t.startswith("Rejected: ")]
    assert any("Route by customer account" in t for t in rejected), rejected
    assert any("Polling doubles the load" in t for t in rejected), rejected
