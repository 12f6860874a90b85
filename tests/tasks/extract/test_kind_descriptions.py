"""A system phrase that only says what kind of thing a named system is (tasks/extract/
kind_descriptions.py): the name is the subject, the phrase no system of its own."""

from __future__ import annotations

import pytest

from tasks.extract import SourceRef, extract_facts
from tasks.extract.kind_descriptions import only_describes_a_name


@pytest.mark.parametrize("phrase, line", [
    ("job runner", "Replace the cron trigger of Relay, our job runner, with a lease."),
    ("refund tool", "Refunds are issued from the refund tool, Backroom."),
    ("pricing service", "Orders call Tallyman, a stateless pricing service that caches rates."),
    ("booking platform", "Rooms sync through Trellis, the group's booking platform. Trellis retries."),
    ("search service", "Findly is the museum's search service: a front end over Solr."),
    ("metrics layer", "Dashboards read Atlas (the new metrics layer) since May."),
])
def test_a_phrase_written_as_a_names_kind_describes_it(phrase: str, line: str) -> None:
    assert only_describes_a_name(phrase, [line])


@pytest.mark.parametrize("lines", [
    ["Relay, our job runner, starts jobs.", "The job runner restarts at 02:00."],  # the system too
    ["However, the job runner failed."],  # a sentence's opening word, no name
    ["It is the job runner that failed."],
    ["Jobs wait in the job runner (PostgreSQL) for a lease."],  # what it runs on, not its name
    ["The nightly job runner\nstarts at 02:00."],
])
def test_a_phrase_written_as_the_system_itself_is_no_description(lines: list[str]) -> None:
    assert not only_describes_a_name("job runner", lines)


RUNBOOK = """# Runbook: checkout price errors

**Owner:** Pricing team

## Summary

Orders call Tallyman, our pricing service, which caches rates in Redis. The rates
come from the rate feed; the rate feed updates every hour.

## Mitigation

Restart Tallyman. If the rate feed is stale, Tallyman serves the last good rates; page the
Pricing team when the rate feed is down for an hour.
"""


def test_the_named_system_is_the_subject_not_its_description() -> None:
    result = extract_facts(RUNBOOK, SourceRef("a1", "sources/a1.md", "runbook.md", "runbook.md"))
    subjects = {fact.target.display for fact in result.relations if fact.relation_type == "about"}
    assert {"Tallyman", "rate feed"} <= subjects
    assert "pricing service" not in subjects
