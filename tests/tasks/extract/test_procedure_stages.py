"""A runbook written as numbered procedures (conc63): "Procedure 1: Pre-checks", "Procedure 4:
Escalation" are signs of a runbook (the part a stage names, else a procedure), a stage whose
heading ends in a part's word is that part, and an admonition's label (`WARNING:`, `[!CAUTION]`)
does not hide the rule it flags."""

from __future__ import annotations

from tasks.extract import SourceRef, extract_facts
from tasks.extract.genres import RUNBOOK, recognise_genre
from tasks.extract.structure import scan

PROCEDURES = """# Ticket sale day: opening and scaling the box office

This page covers the morning a big tour goes on sale.

## Roles

| Role | Who |
|---|---|
| Incident commander | Box office on-call lead |

## Procedure 1: Pre-checks (T-24h)

1. Scale the sales API to 30 pods.
2. Confirm the queue page is enabled for the sale.

WARNING: Do not raise the database pool above 60 during a sale. Last spring a larger pool
took the payments service down too.

## Procedure 2: Opening the sale

1. Open the sale in the queue console.
2. Watch the error rate on the sales dashboard.

## Procedure 3: Escalation

1. After ten minutes of paused sales, page the head of ticketing.
2. The promoter decides whether to move the sale.
"""


def _said(text: str) -> list[str]:
    result = extract_facts(text, SourceRef("a1", "sources/x.md", "raw/x.md", "x.md"))
    return [fact.text for fact in result.observations]


def test_numbered_procedures_are_signs_of_a_runbook() -> None:
    structure = scan(PROCEDURES.split("\n"), 1)
    assert recognise_genre([], structure, "Ticket sale day: opening and scaling the box office") == RUNBOOK
    # no stage names a part and no other heading is a runbook's: a procedure alone is no runbook
    plain = "# Notes\n\n## Procedure 1: Setup\n\nText.\n\n## Procedure 2: Use\n\nText.\n"
    assert recognise_genre([], scan(plain.split("\n"), 1), "Notes") is None


def test_a_stage_named_escalation_is_the_escalation_and_a_warning_states_a_rule() -> None:
    said = _said(PROCEDURES)
    assert any(s.startswith("Escalation: After ten minutes of paused sales, page the head of ticketing.")
               for s in said), said
    assert "Constraint: Do not raise the database pool above 60 during a sale." in said
    assert not any(s.startswith("Constraint: WARNING") for s in said), said


def test_a_github_alert_label_is_left_out_of_the_rule() -> None:
    text = PROCEDURES.replace("WARNING: Do not raise", "[!CAUTION] Never raise")
    assert "Constraint: Never raise the database pool above 60 during a sale." in _said(text)
