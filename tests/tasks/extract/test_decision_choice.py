"""A decision record's decision is the paragraph that states the choice (issue 23)."""

from __future__ import annotations

from tasks.extract import Extraction, SourceRef, extract_facts

RECORD = """# 4. Use a message broker

Date: 2019-03-04

## Status

Accepted

## Context

Services call each other directly.

## Decision

We explored a number of existing solutions for asynchronous messaging, comparing
their operational cost and client support.

Eventually we decided to introduce [RabbitMQ][rabbit]:
services publish events to it and consume them from queues.

## Consequences

One more system to run.

[rabbit]: https://www.rabbitmq.com/
"""


def _extract(text: str) -> Extraction:
    return extract_facts(text, SourceRef("x", "wiki/sources/x.md", "raw/x.md", "adr/0004-broker.md"))


def test_the_choice_not_the_search_is_the_decision() -> None:
    result = _extract(RECORD)
    decisions = [(o.text, o.line_start, o.line_end) for o in result.observations if o.kind == "decision"]
    assert decisions == [("Decision: Eventually we decided to introduce RabbitMQ: services publish "
                          "events to it and consume them from queues.", 18, 19)]
    assert [e.ref.display for e in result.entities] == ["RabbitMQ"]  # a reference-style link's text


def test_a_first_paragraph_that_states_the_choice_stays_the_decision() -> None:
    text = RECORD.replace("We explored a number of existing solutions", "We will adopt one of the solutions")
    decisions = [o for o in _extract(text).observations if o.kind == "decision"]
    assert decisions[0].text.startswith("Decision: We will adopt one of the solutions")
    assert decisions[0].line_start == 15


def test_a_rejection_is_not_the_choice() -> None:
    text = RECORD.replace("Eventually we decided to introduce", "We decided against")
    decisions = [o for o in _extract(text).observations if o.kind == "decision"]
    assert decisions[0].text.startswith("Decision: We explored")


def test_a_sign_post_record_keeps_its_date() -> None:
    text = ("# 12. Move the deploy pipeline to GitHub Actions\n\nDate: 2021-11-05\n\n"
            "This record is kept in the [platform handbook](https://handbook.example.com/adr/0012).\n")
    result = extract_facts(text, SourceRef("x", "wiki/sources/x.md", "raw/x.md", "adr/0012-move-deploy.md"))
    assert result.is_decision_record
    assert [o.text for o in result.observations if o.kind == "date"] == ["Date: 2021-11-05"]
