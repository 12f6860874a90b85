"""An architecture page (a LeanIX fact sheet's notes, a wiki page) that leads a list in as the
system's rules ("Rules the application follows:") or as its parts ("X is made of:"): each rule is
a Constraint, each part the design."""

from __future__ import annotations

from tasks.extract import SourceRef, extract_facts

PAGE = """# Dock scheduler

## Overview

The dock scheduler assigns trucks to loading docks at the warehouse.

## Architecture notes

The dock scheduler is made of:

- **planner** — a Python service that books a dock for each arriving truck.
- **yard screen** — the board the gatehouse clerk reads.

Rules the scheduler follows:

1. Docks are booked in 30-minute slots.
2. Refrigerated trucks get docks 1 to 4.

## Components

- The planner database keeps the day's bookings.
"""


def test_led_in_rules_are_constraints_and_led_in_parts_the_design() -> None:
    result = extract_facts(PAGE, SourceRef("x", "wiki/sources/x.md", "raw/x.md", "architecture/docks.md"))
    observations = [(fact.text, fact.line_start) for fact in result.observations]
    assert ("Constraint: Docks are booked in 30-minute slots.", 16) in observations
    assert ("Constraint: Refrigerated trucks get docks 1 to 4.", 17) in observations
    assert ("Design: planner — a Python service that books a dock for each arriving truck.", 11) in observations
    assert ("Design: yard screen — the board the gatehouse clerk reads.", 12) in observations
