"""A functional specification in Joel Spolsky's shape (Overview, Scenarios, Nongoals, Details,
Open Issues, Side Notes) is a proposal: its Nongoals are its non-goals and its Details, told in
sub-sections, its design."""

from __future__ import annotations

from tasks.extract import SourceRef, extract_facts
from tasks.extract.genres import PROPOSAL, recognise_genre
from tasks.extract.structure import scan

SPEC = """# Parcel Lockers Functional Specification

Ana Ruiz, Logistics Apps

## Overview

Parcel Lockers lets a customer collect an order from a locker at the station.

## Scenarios

**Scenario 1: Mia.** Mia orders a kettle and picks it up on her way home.

## Nongoals

This version will NOT:

- take returns through the locker;
- support lockers in shops.

## Details

### Reservation

A locker is reserved when the order ships and held for 72 hours.

### Codes

The pick-up code is sent by SMS and expires with the reservation.

## Open Issues

- Do we charge for a second reservation?
"""


def _observations(text: str) -> list[tuple[str, int]]:
    result = extract_facts(text, SourceRef("x", "wiki/sources/x.md", "raw/x.md", "docs/spec.md"))
    return [(fact.text, fact.line_start) for fact in result.observations]


def test_a_functional_spec_is_read_as_a_proposal() -> None:
    structure = scan(SPEC.splitlines(), 1)
    assert recognise_genre([], structure, "Parcel Lockers Functional Specification") == PROPOSAL


def test_its_nongoals_are_non_goals_and_its_details_the_design() -> None:
    observations = _observations(SPEC)
    assert ("Non-goal: take returns through the locker;", 17) in observations
    assert ("Non-goal: support lockers in shops.", 18) in observations
    assert ("Design: A locker is reserved when the order ships and held for 72 hours.", 24) in observations
    assert ("Design: The pick-up code is sent by SMS and expires with the reservation.", 28) in observations
