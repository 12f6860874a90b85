"""Minutes that write what the meeting agreed in their prose (concl45): "Agreed it should not:
...", "It was agreed that ...", "The group agreed to ..." are decisions; a question about what
was agreed, or agreeing to disagree, is none."""

from __future__ import annotations

from tasks.extract import Extraction, SourceRef, extract_facts


def _extract(name: str, text: str) -> Extraction:
    return extract_facts(text, SourceRef("x", "wiki/sources/x.md", "raw/x.md", name))


MINUTES = """# Payments weekly — Tue 4 Mar 2025

**Attendees:** Ana Ruiz (chair), Ben Okafor, Chen Li
**Notes:** Ben Okafor

## Agenda

1. Ledger retention
2. Card tokens

## 1. Ledger retention

Chen asked whether the archive could hold the raw ledger rows. Agreed it should not: the warehouse
stays the only copy of raw rows. Ben will write it down.

## 2. Card tokens

Ana showed the vault pricing. It was agreed that tokens move to the vault in April.
Did we agree on the rollout order? We agreed to disagree on the naming.

**Decision:** the vault keeps tokens for 13 months.

## Action items

| # | Action | Owner | Due |
|---|--------|-------|-----|
| 1 | Write the retention note | Ben Okafor | 11/03/2025 |
"""


def test_what_the_meeting_agreed_in_its_prose_is_a_decision() -> None:
    decisions = {o.text: (o.line_start, o.line_end) for o in _extract("2025-03-04-payments.md", MINUTES).observations
                 if o.text.startswith("Decision: ")}
    assert decisions["Decision: Agreed it should not: the warehouse stays the only copy of raw rows."] == (13, 14)
    assert decisions["Decision: It was agreed that tokens move to the vault in April."] == (18, 18)
    assert "Decision: the vault keeps tokens for 13 months." in decisions
    assert not any("rollout order" in text or "disagree" in text for text in decisions)


# concl49: an agenda topic's outcome written as a list item that opens with its verb.
DECIDED_ITEMS = """# Platform forum — 22 Jan

Date: January 22, 2026
Attendees: Ines Carvalho, Tariq Mahmood

## Agenda

1. Retiring the worker pool

## 1. Retiring the worker pool

Tariq: the connector has run since August with no missed cut-offs.

- Decidedly slow week for everyone.
- Decided to remove the pool in the February release.
- We decided that we prefer Ines's approach to the retries.
"""


def test_a_list_item_opening_with_its_decision_verb_is_a_decision() -> None:
    result = _extract("2026-01-22-platform-forum.md", DECIDED_ITEMS)
    decided = {o.text: (o.line_start, o.kind) for o in result.observations if o.text.startswith("Decision: ")}
    assert decided["Decision: Decided to remove the pool in the February release."] == (15, "detail")
    assert decided["Decision: We decided that we prefer Ines's approach to the retries."] == (16, "detail")
    assert not any("Decidedly" in text for text in decided)
    assert "Ines" not in {e.ref.names[0] for e in result.entities}  # a person in it is no subject


# concl49: a log entry's or a topic's list led by its labelled decision goes on with the
# entry's further decisions, up to an item with a label of its own.
LED_BY_DECISION = """# Provisioning forum — 2 Dec

Date: December 2, 2025
Attendees: Oona Lindqvist, Tariq Mahmood

## 1. Activation codes

Two customers lost their numbers after an activation code sent by SMS was used.

- Decision: activation codes are sent by email only.
- The shop shows the QR code on screen; it is never printed.
- Customer Care may resend a code only after a passcode check.
- Owner: Oona Lindqvist.
- Reviewed again in March?

## 2. Stock

- Stock is counted weekly.
"""


def test_the_items_after_a_labelled_decision_in_its_list_are_decisions_too() -> None:
    result = _extract("2025-12-02-provisioning-forum.md", LED_BY_DECISION)
    decided = {o.text: o.line_start for o in result.observations if o.text.startswith("Decision: ")}
    assert decided["Decision: Customer Care may resend a code only after a passcode check."] == 12
    assert decided["Decision: The shop shows the QR code on screen; it is never printed."] == 11
    assert not any("Owner" in text or "March" in text or "weekly" in text for text in decided)
