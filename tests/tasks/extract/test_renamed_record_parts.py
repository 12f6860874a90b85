"""A decision record whose template renames the usual parts and gives the usual name in
parentheses (the Alexandrian pattern's "Prologue (Summary)", "Discussion (Context)", "Solution
(Decision)", "Consequences (Results)"): its Solution is read as the Decision; a section break's
ornament ("❖ ❖ ❖") is no choice; "we chose X over Y" turns Y down."""

from __future__ import annotations

from tasks.extract import SourceRef, extract_facts
from tasks.extract.structure import find_section, scan

RECORD = """# ADR-0042: Invoices are rendered by a queue worker

| | |
|---|---|
| Status | Accepted |
| Decided | 3 May 2025 |

## Prologue (Summary)

Invoices for large customers are rendered by a queue worker, not in the web request.

## Discussion (Context)

Invoices are rendered in the web request today and time out for large customers.

## Solution (Decision)

**A queue worker renders each invoice and stores the PDF in the object store.**

The web request only enqueues the job and returns at once.

We chose a queue worker over rendering in the browser because the PDF must be archived.

* * *

## Consequences (Results)

- Large invoices no longer time out.
"""


def _observations(text: str) -> list[tuple[str, int]]:
    result = extract_facts(text, SourceRef("x", "wiki/sources/x.md", "raw/x.md", "decisions/adr-0042.md"))
    return [(fact.text, fact.line_start) for fact in result.observations]


def test_a_section_is_found_by_the_usual_name_its_heading_gives_in_parentheses() -> None:
    structure = scan(RECORD.splitlines(), 1)
    solution = find_section(structure, "decision")
    assert solution is not None and structure.title(solution) == "Solution (Decision)"
    # an aside that is no part's name, or a name with more after it, is not read as one
    assert find_section(structure, "results (x)") is None
    assert find_section(scan("# T\n\n## Decision drivers (ranked)\n\nx\n".splitlines(), 1), "decision") is None


def test_the_solution_of_an_alexandrian_record_is_its_decision() -> None:
    observations = _observations(RECORD)
    decisions = [text for text, _ in observations if text.startswith("Decision: ")]
    assert decisions[0].startswith("Decision: A queue worker renders each invoice and stores the PDF in the object")
    assert "Decision: The web request only enqueues the job and returns at once." in decisions
    assert not any("* * *" in text for text in decisions)
    assert ("Rejected: We chose a queue worker over rendering in the browser because the PDF must be archived.",
            22) in observations
    assert ("Consequence: Large invoices no longer time out.", 28) in observations


def test_its_prologue_is_its_summary() -> None:
    assert ("Summary: Invoices for large customers are rendered by a queue worker, not in the web request.",
            10) in _observations(RECORD)


THREAD = """# Keep sessions in Redis #88

Accepted · **ana** started this conversation in Decisions · Mar 4, 2025

### Context

Sessions live in the web servers' memory and are lost on every deploy.

### Proposal

- Store sessions in Redis with a 24 hour expiry.

### Questions

1. Does anyone read sessions outside the web servers?

---

**ben** · Mar 6, 2025 · Marked as answer

Decision: we go with Redis for sessions from the April release. The old cookie store is
removed once every server reads from Redis.
"""


def test_a_labelled_decision_outside_the_decision_section_is_a_decision() -> None:
    result = extract_facts(THREAD, SourceRef("x", "wiki/sources/x.md", "raw/x.md", "decisions/88.md"))
    decisions = [(fact.text, fact.line_start) for fact in result.observations if fact.text.startswith("Decision: ")]
    assert ("Decision: we go with Redis for sessions from the April release. The old cookie store is removed"
            " once every server reads from Redis.", 21) in decisions, decisions
