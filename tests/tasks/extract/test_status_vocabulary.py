"""One vocabulary of the fields that state where a document stands (status_text.names_state):
the state nouns (status, state, stage, phase, lifecycle, outcome, verdict) alone or after a word
for the document itself, read by every genre's reader and by the decision records' reader."""

from __future__ import annotations

import pytest

from tasks.extract.status_text import names_state, states_state
from tests.extraction import extract, stated


@pytest.mark.parametrize("key", ["status", "phase", "document state", "rfc stage", "review status",
                                 "outcome", "proposal phase"])
def test_a_state_noun_alone_or_after_a_word_for_the_document_names_its_state(key: str) -> None:
    assert names_state(key)


@pytest.mark.parametrize("key", ["build status", "order state", "project phase", "date", "state machine",
                                 "customer outcome", "phase of the moon rollout"])
def test_a_state_of_something_the_page_describes_is_not_the_pages(key: str) -> None:
    assert not names_state(key)


def test_a_field_so_named_states_a_state_only_with_a_state_word() -> None:
    assert states_state("phase", "Accepted") and states_state("outcome", "Rejected by vote")
    assert not states_state("phase", "2 of 3") and not states_state("outcome", "faster builds")


PROPOSAL = """# Proposal: Four-day on-call rotation

- **Author:** Kim Lo
- **{key}:** {value}
- **Proposed:** 2026-02-02

## Summary

On-call shifts last four days.

## Motivation

Week-long shifts tire people.
"""


@pytest.mark.parametrize(("key", "value"), [("Phase", "Accepted"), ("Outcome", "Rejected"),
                                            ("Document state", "Draft")])
def test_a_proposals_state_field_by_another_name_is_its_status(key: str, value: str) -> None:
    assert stated(extract(PROPOSAL.format(key=key, value=value)), "status") == [f"Status: {value}"]


def test_a_field_of_that_name_without_a_state_word_is_no_status() -> None:
    assert stated(extract(PROPOSAL.format(key="Phase", value="2 of 3")), "status") == []


RECORD = """# ADR-012: Use Postgres for the ledger

{header}

## Context

We need a ledger store.

## Decision

We use Postgres for the ledger.

## Consequences

We run Postgres.
"""


@pytest.mark.parametrize("header", [
    "| Status | Date | Deciders |\n|--------|------|----------|\n| Accepted | 2026-03-01 | Ana, Sam |",
    "* Phase: Accepted\n* Date: 2026-03-01",
    "| Document state | Accepted |\n|---|---|\n| Date | 2026-03-01 |",
])
def test_a_decision_records_status_in_a_table_across_or_by_another_name(header: str) -> None:
    result = extract(RECORD.format(header=header), "docs/adr/0012-use-postgres.md")
    assert any(o.text.startswith("Status: Accepted") for o in result.observations), result.observations


BODY = "\n\n## Summary\n\nOne retry policy for all clients.\n\n## Motivation\n\nClients retry.\n\n## Design\n\nBackoff.\n"


@pytest.mark.parametrize(("head", "status"), [
    ("# Retry budgets — DRAFT", "Status: DRAFT"),  # a title's mark after a dash
    ("# Payments API - Deprecated", "Status: Deprecated"),
    ("# Retry budgets\n\n*Draft — last updated 5 January 2026*", "Status: Draft"),  # a byline's dashed items
])
def test_a_status_marked_after_a_dash_in_the_title_or_the_byline(head: str, status: str) -> None:
    assert stated(extract(head + BODY, "design/retry.md"), "status") == [status]


def test_a_title_or_byline_whose_dash_part_is_no_status_word_states_none() -> None:
    assert stated(extract("# Retry budgets — the final word on backoff" + BODY, "design/retry.md"), "status") == []
    assert stated(extract("# Retry budgets\n\n*Ana Ruiz — 5 January 2026*" + BODY, "design/retry.md"), "status") == []
