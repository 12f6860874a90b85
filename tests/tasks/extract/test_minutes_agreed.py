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
