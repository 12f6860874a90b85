"""An Amazon-style narrative proposal: each of its Tenets is a rule the design keeps (a
Constraint), and its "What we are not doing" section its non-goals."""

from __future__ import annotations

from tasks.extract import SourceRef, extract_facts

NARRATIVE = """# Proposal: Offline ticket checks on the trams

## Introduction

This paper proposes that ticket scanners check tickets offline when the network drops.

## Tenets

1. **A valid ticket is never refused.** When in doubt, accept.
2. **The back office is the record.** Every offline check is uploaded once the scanner is online.

## Proposal

Each scanner keeps the day's ticket list and checks against it when the network is down.

## What we are not doing

We are not replacing the scanners and not changing the fare rules.
"""


def _observations(text: str) -> list[tuple[str, int]]:
    result = extract_facts(text, SourceRef("x", "wiki/sources/x.md", "raw/x.md", "design/offline.md"))
    return [(fact.text, fact.line_start) for fact in result.observations]


def test_each_tenet_is_a_constraint() -> None:
    observations = _observations(NARRATIVE)
    assert ("Constraint: A valid ticket is never refused. When in doubt, accept.", 9) in observations
    assert ("Constraint: The back office is the record. Every offline check is uploaded once the scanner is online.",
            10) in observations


def test_what_a_narrative_is_not_doing_is_its_non_goals() -> None:
    assert ("Non-goal: We are not replacing the scanners and not changing the fare rules.", 18) in _observations(NARRATIVE)
