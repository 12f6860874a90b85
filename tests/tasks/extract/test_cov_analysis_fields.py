"""The parts of analysis templates that are not postmortem headings (a CAST analysis's loss event,
hazards and controllers' unsafe control actions; an A3 report's current condition and
countermeasures; an 8D report's containment) read as the incident parts they are
(tasks/extract/field_statements.py, cov70); a field's value may open in lower case; a table's
header that names two parts names its columns, not a field."""

from __future__ import annotations

from tasks.extract import SourceRef, extract_facts
from tasks.extract.field_statements import field_part

CAST = """# CAST analysis: ticket scanners rejected valid tickets at the spring fair

## 1. Basic information

- **Loss event:** on Saturday 12 April 2025, 09:40-11:05, the gate scanners turned away about 3,000 ticket holders.
- **Hazard:** a scanner accepts a revocation list that was never signed by the ticket service.

## 2. Hazards and constraints

| Hazard | Constraint that should have held |
|---|---|
| H1 unsigned revocation list loaded | SC1 scanners must refuse any revocation list without a valid signature |
"""

A3 = """# A3: duplicate bursary payments

## 2. Current condition

- Forty students were paid their bursary twice in the March run.

## 5. Countermeasures

- Make the payment export refuse a student already paid in the same run.
"""


def _said(text: str) -> list[tuple[str, int, int]]:
    found = extract_facts(text, SourceRef("a1", "sources/x.md", "raw/x.md", "x.md")).observations
    return [(fact.text, fact.line_start, fact.line_end) for fact in found]


def test_the_parts_of_analysis_templates_name_incident_parts() -> None:
    assert field_part("Loss event") == "Impact"
    assert field_part("Current condition") == "Impact"
    assert field_part("Hazards") == "Risk"
    assert field_part("Unsafe control actions") == "Cause"
    assert field_part("Analysis of each controller") == "Cause"
    assert field_part("Countermeasures") == "Action item"
    assert field_part("D3 Containment actions") == "Mitigation"


def test_a_loss_event_that_opens_in_lower_case_is_kept_as_the_impact() -> None:
    texts = [text for text, _, _ in _said(CAST)]
    assert any(text.startswith("Impact: on Saturday 12 April 2025") and "turned away about 3,000 ticket holders" in text
               for text in texts)
    assert "Risk: a scanner accepts a revocation list that was never signed by the ticket service." in texts


def test_a_table_header_that_names_two_parts_is_no_field() -> None:
    texts = [text for text, _, _ in _said(CAST)]
    assert not any("Constraint that should have held" in text for text in texts)


def test_an_a3_current_condition_is_the_impact_not_a_constraint() -> None:
    texts = [text for text, _, _ in _said(A3)]
    assert "Impact: Forty students were paid their bursary twice in the March run." in texts
    assert not any(text.startswith("Constraint: Forty students") for text in texts)


def test_a_table_of_one_column_is_read_without_a_fault() -> None:
    text = "# Hazard log\n\n| Hazard |\n|---|\n| a scanner accepts an unsigned revocation list |\n"
    assert isinstance(_said(text), list)
