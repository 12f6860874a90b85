"""An incident summary's sentence that says what users got instead of an answer ("returned
errors or timed out for most requests", with its window) is the incident's impact; a finding
that rules a suspect out ("The CDN was not a factor") is the diagnosis, not a cause (conc63)."""

from __future__ import annotations

from tasks.extract import SourceRef, extract_facts

REPORT = """# Incident report: ticket shop unavailable on sale day

## Executive Summary

On Friday, March 6, 2026, at 10:00 GMT, tickets for the summer tour went on sale. Between 10:02
and 10:48 GMT the ticket shop returned errors or timed out for most requests. No orders were
charged twice.

## Findings

1. The seat check held a database connection for its whole duration.
2. The CDN was not a factor; its error rate stayed flat.

## Probable Cause

The probable cause was exhaustion of the order database's connections by the seat check.

## Recommendations

- Put a queue page in front of the ticket shop on sale days.
"""


def test_a_summary_sentence_of_errors_and_timeouts_is_the_impact() -> None:
    result = extract_facts(REPORT, SourceRef("a1", "sources/x.md", "raw/x.md", "x.md"))
    said = [fact.text for fact in result.observations]
    assert ("Impact: Between 10:02 and 10:48 GMT the ticket shop returned errors or timed out for most "
            "requests.") in said, said


def test_a_finding_that_rules_a_suspect_out_is_no_cause() -> None:
    result = extract_facts(REPORT, SourceRef("a1", "sources/x.md", "raw/x.md", "x.md"))
    said = [fact.text for fact in result.observations]
    assert "Diagnosis: The CDN was not a factor; its error rate stayed flat." in said, said
    assert "Cause: The seat check held a database connection for its whole duration." in said, said
