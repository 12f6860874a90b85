"""A decision record's heading that asks why ("Why not real time", "Why we chose Kafka") holds
the reasons for its decision (conc63): each item is a Rationale."""

from __future__ import annotations

from tasks.extract import SourceRef, extract_facts

RECORD = """# ADR 7: Send depot rotas by e-mail each night

## Status

Accepted

## Context

Rotas are changed in the scheduler all day; drivers read them on paper.

## Decision

We send each depot's rota by e-mail at 22:00 every night.

## Why not a live feed

- A live feed needs a driver app we do not have the staff to build this year.
- A nightly e-mail keeps the scheduler's load off the morning peak.

## Consequences

- A change after 22:00 reaches drivers the next night.
"""


def test_the_items_under_a_why_not_heading_are_the_decisions_reasons() -> None:
    result = extract_facts(RECORD, SourceRef("a1", "sources/x.md", "raw/x.md", "0007-depot-rotas.md"))
    said = [fact.text for fact in result.observations]
    assert "Rationale: A nightly e-mail keeps the scheduler's load off the morning peak." in said, said
    assert any(s.startswith("Rationale: A live feed needs a driver app") for s in said), said
