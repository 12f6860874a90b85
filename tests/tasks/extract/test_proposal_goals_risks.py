"""A design doc's goals under a "Goals:" label and a KEP's risk paragraphs that say what is done
about them (concl48)."""

from __future__ import annotations

from tasks.extract import SourceRef, extract_facts

LABELLED_GOALS = """# Design doc: Paying repairers once

| | |
|---|---|
| Status | In review |

## Context and Scope

The payment job pays approved invoices every 30 minutes.

## Goals and non-goals

Goals:

- A repairer is never paid twice for the same invoice.
- Payments are sent within 15 minutes of approval.

Non-goals:

- Paying customers directly.

## The actual design

Each payment instruction is a ledger row with a state.
"""

KEP_RISKS = """# KEP-4: Partner API

## Summary

Partners report claims through an API.

## Proposal

Add an endpoint to the intake service.

### Risks and Mitigations

A buggy partner integration could flood intake on a storm day. Each partner
is limited to 20 requests per second at the API gateway.

Relying on one gateway may cause timeouts. Large bursts would queue for minutes.

## Design Details

The endpoint reuses the validation module.
"""


def _said(text: str, path: str) -> set[tuple[str, int]]:
    result = extract_facts(text, SourceRef("x", "wiki/sources/x.md", "raw/x.md", path))
    return {(o.text, o.line_start) for o in result.observations}


def test_goals_under_a_label_of_a_goals_and_non_goals_section_are_goals() -> None:
    said = _said(LABELLED_GOALS, "docs/design/repairpay.md")
    assert ("Goal: A repairer is never paid twice for the same invoice.", 15) in said
    assert ("Goal: Payments are sent within 15 minutes of approval.", 16) in said
    assert not any(text == "Goal: Paying customers directly." for text, _ in said)  # a non-goal
    assert ("Non-goal: Paying customers directly.", 20) in said


def test_a_risk_paragraph_s_later_sentences_that_state_a_measure_are_its_mitigation() -> None:
    said = _said(KEP_RISKS, "docs/kep-4.md")
    assert ("Mitigation: Each partner is limited to 20 requests per second at the API gateway.", 13) in said
    assert any(text.startswith("Risk: A buggy partner integration could flood intake") for text, _ in said)
    # a paragraph that goes on telling its risk ("would queue") has no mitigation
    assert not any(text.startswith("Mitigation: Large bursts") for text, _ in said)


def test_a_risks_section_that_does_not_say_mitigations_gives_no_mitigation() -> None:
    said = _said(KEP_RISKS.replace("### Risks and Mitigations", "### Risks"), "docs/kep-4.md")
    assert not any(text.startswith("Mitigation: ") for text, _ in said)
