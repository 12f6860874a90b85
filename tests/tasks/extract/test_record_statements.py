"""Every statement of a decision record that no reader kept (stmt68): a Decision section's (or a
section its template words as the decision, "How we will do it") as Decision, any section's by
what its words say (a rule, a risk, a reason); a context's problem, the metadata and the
statements a reader kept are not repeated. Fixtures written for these tests."""

from __future__ import annotations

from tasks.extract import SourceRef, extract_facts
from tasks.extract.model import ObservationFact
from tasks.extract.record_statements import record_statements
from tasks.extract.structure import scan

RECORD = """# ADR-0042: Nightly batch for the fare report

* Status: Accepted
* Date: 2026-03-02

## Context

The fare report takes eleven hours to build from the ledger. Finance reads it at 09:00.
Ledger rows must never be changed by the report.

## Decision

We will build the fare report as a nightly batch on the warehouse.

## How we will do it

The scheduler starts the batch at 01:00 UTC. The warehouse cluster has four nodes and stops
after the run.

- Results land in the reporting schema, so the dashboards keep their queries.

## Consequences

* Good, because the report is ready every morning.

## Open points

We risk a late report when the ledger export is late. The export team meets on Fridays.

## Links

* Replaces the hourly cron job described in the old wiki page.
"""


def _observations(text: str) -> list[str]:
    result = extract_facts(text, SourceRef("r", "wiki/sources/r.md", "raw/r.md", "docs/adr/0042-fare-batch.md"))
    assert result.is_decision_record
    return [o.text for o in result.observations]


def test_a_section_the_template_words_as_the_decision_is_read_statement_by_statement() -> None:
    said = _observations(RECORD)
    assert "Decision: The scheduler starts the batch at 01:00 UTC." in said
    assert any(o.startswith("Decision: The warehouse cluster has four nodes") for o in said)
    assert any(o.startswith("Decision: Results land in the reporting schema") for o in said)


def test_a_statement_is_labelled_by_its_own_words_in_any_section() -> None:
    said = _observations(RECORD)
    assert "Constraint: Ledger rows must never be changed by the report." in said
    assert any(o.startswith("Risk: We risk a late report") for o in said)


def test_context_metadata_links_and_kept_statements_are_not_repeated() -> None:
    said = _observations(RECORD)
    assert sum("takes eleven hours" in o for o in said) == 1  # its context's reader's, once
    assert not any("meets on Fridays" in o for o in said)  # a section of no part: only what its words tell
    assert not any("hourly cron job" in o for o in said)  # its links
    assert sum("nightly batch on the warehouse" in o for o in said) == 1  # its reader's decision


def test_no_statement_without_a_part_or_a_cue() -> None:
    text = "# ADR-1: Use one queue\n\n## Spike results\n\nThe spike ran for two weeks in staging.\n"
    assert record_statements(scan(text.splitlines(), 1), []) == []


def test_a_template_placeholder_is_no_statement() -> None:
    text = ("# ADR-2: Pick a broker\n\n## Decision outcome\n\nChosen option: {title of option 1}.\n\n"
            "### How we will do it\n\n* Good, because [argument a] holds for us.\n"
            "* The broker runs on three nodes in each region.\n")
    said = [o.text for o in record_statements(scan(text.splitlines(), 1), [])]
    assert said == ["Decision: The broker runs on three nodes in each region."]


def test_an_options_pros_and_cons_are_the_options_not_the_records() -> None:
    text = ("# ADR-3: Put a gateway in front\n\n## Decision\n\nOne gateway runs in each region.\n\n"
            "## Pros and Cons of the Options\n\n### A shared library\n\n* Good, because no new hop for calls.\n"
            "* Bad, because one library per language.\n")
    assert record_statements(scan(text.splitlines(), 1), []) == [
        ObservationFact("Decision: One gateway runs in each region.", 5, 5, "detail")]
