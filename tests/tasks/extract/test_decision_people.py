"""The people and teams a decision record names as its deciders, authors or owners: only from
explicit structure (front matter, a `Deciders:` line) or an explicit ownership verb."""

from __future__ import annotations

import pytest

from tasks.extract import SourceRef, extract_facts
from tasks.extract.decision_people import (
    deciders_in_status,
    owners_in_text,
    people_in_front_matter,
    people_in_lines,
    unique,
)

SOURCE = SourceRef("asset", "wiki/sources/s.md", "log/0007-pick-a-queue.md", "log/0007-pick-a-queue.md")


@pytest.mark.parametrize(
    ("meta", "expected"),
    [
        # MADR 3 front matter, a comma-separated string: teams by their last word
        ({"deciders": "web team, mobile team"},
         [("web team", "team", "decided_by"), ("mobile team", "team", "decided_by")]),
        # a YAML list of people, an email and a date in parentheses dropped
        ({"deciders": ["Alice Smith <alice@example.org>", "Bob Jones (2021-03-04)"]},
         [("Alice Smith", "person", "decided_by"), ("Bob Jones", "person", "decided_by")]),
        # MADR 4 key, a GitHub team handle and a user handle
        ({"decision-makers": ["@acme/platform", "@jdoe"]},
         [("@acme/platform", "team", "decided_by"), ("@jdoe", "person", "decided_by")]),
        ({"authors": "Carol Diaz and Dan Wu"},
         [("Carol Diaz", "person", "authored_by"), ("Dan Wu", "person", "authored_by")]),
        ({"owner": "the data platform team"}, [("data platform team", "team", "owned_by")]),
        # placeholders and pronouns are nobody
        ({"deciders": "[list everyone involved in the decision]"}, []),
        ({"deciders": "<name>"}, []),
        ({"deciders": "everyone, the team, TBD"}, []),
        ({"deciders": 42, "status": "accepted", "title": "Alice Smith"}, []),
        # MADR 4's `consulted:` (what the record is about): split at commas only, groups of
        # ordinary words are teams, a person's team in brackets left out, a placeholder nobody
        ({"consulted": "Parks and Recreation IT, Oksana Melnyk (Data Platform), Contact Centre operations"},
         [("Parks and Recreation IT", "team", "about"), ("Oksana Melnyk", "person", "about"),
          ("Contact Centre operations", "team", "about")]),
        ({"consulted": "<list everyone consulted>"}, []),
    ],
)
def test_people_in_front_matter(meta: dict[str, object], expected: list[tuple[str, str, str]]) -> None:
    found = people_in_front_matter(meta, {key: 3 for key in meta})
    assert [(p.name, p.entity_type, p.relation_type) for p in found] == expected
    assert all(p.line_start == p.line_end == 3 for p in found)


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("* Deciders: platform team", [("platform team", "team", "decided_by")]),
        ("- **Decided by:** Alice Smith, [Bob Jones](https://example.org/bob)",
         [("Alice Smith", "person", "decided_by"), ("Bob Jones", "person", "decided_by")]),
        ("Decision makers: Erin O'Neil; Frank van Dijk",
         [("Erin O'Neil", "person", "decided_by"), ("Frank van Dijk", "person", "decided_by")]),
        ("Author: Grace Hopper", [("Grace Hopper", "person", "authored_by")]),
        ("Owners: payments squad", [("payments squad", "team", "owned_by")]),
        # a group's word in the name: a team, not a person (heldout20's owner fields)
        ("Owner: Platform Architecture", [("Platform Architecture", "team", "owned_by")]),
        ("Owners: Amara Nwosu, Platform Reliability",
         [("Amara Nwosu", "person", "owned_by"), ("Platform Reliability", "team", "owned_by")]),
        # a template's line, a sentence, a date line: nobody
        ("- Deciders: [list everyone involved in the decision] <!-- optional -->", []),
        ("Deciders: everyone who attended the architecture review on 2021-01-02", []),
        ("Decided: 2021-01-02", []),
        ("Author: see git history", []),
        ("Authors: jdoe, @msmith", [("@msmith", "person", "authored_by")]),
        ("- Consulted: Revenue Engineering, Etch Equipment Engineering",
         [("Revenue Engineering", "team", "about"), ("Etch Equipment Engineering", "team", "about")]),
        ("We asked Alice Smith to decide.", []),  # a capitalized name in prose is no decider
    ],
)
def test_people_in_lines(line: str, expected: list[tuple[str, str, str]]) -> None:
    found = people_in_lines([(9, line)])
    assert [(p.name, p.entity_type, p.relation_type) for p in found] == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("The platform team will own the deploy pipeline.", ["platform team"]),
        ("Teams move their builds to shared runners that the platform team operates.",
         ["platform team"]),
        ("The service is owned by the Data Engineering team from May.", ["Data Engineering team"]),
        ("The SRE team is responsible for the alerts.", ["SRE team"]),
        # no explicit ownership verb, no name, or no team's name: nothing
        ("The platform team reviewed the options.", []),
        ("The whole team will own the outcome.", []),
        ("The team will own it.", []),
        ("Alice will own the migration.", []),
    ],
)
def test_owners_in_text(text: str, expected: list[str]) -> None:
    found = owners_in_text(text, 5, 6)
    assert [p.name for p in found] == expected
    assert all((p.entity_type, p.relation_type, p.line_start, p.line_end) == ("team", "owned_by", 5, 6)
               for p in found)


def test_unique_keeps_the_first_statement_of_each_name_and_relation() -> None:
    found = unique(people_in_lines([(2, "Deciders: Alice Smith"), (4, "Deciders: alice smith, Bob Jones")]))
    assert [(p.name, p.line_start) for p in found] == [("Alice Smith", 2), ("Bob Jones", 4)]


MADR = """---
status: accepted
date: 2021-06-01
deciders: Alice Smith, web team
---
# Use Kafka for order events

## Context and Problem Statement

Orders are polled today.

## Decision Outcome

Chosen option: "Kafka". The platform team will own the cluster.
"""


def test_a_record_relates_its_deciders_and_owner_with_provenance() -> None:
    result = extract_facts(MADR, SOURCE)
    assert result.subject is not None and result.subject.ref.entity_type == "decision"
    people = {(r.relation_type, r.target.display, r.target.entity_type) for r in result.relations
              if r.relation_type in {"decided_by", "owned_by"}}
    assert people == {
        ("decided_by", "Alice Smith", "person"),
        ("decided_by", "web team", "team"),
        ("owned_by", "platform team", "team"),
    }
    notes = {ref.display: (o.text, o.line_start, o.line_end) for ref, o in result.entity_observations}
    assert notes["Alice Smith"] == ('Decider of the decision "Use Kafka for order events"', 4, 4)
    assert notes["platform team"] == ('Owner of the decision "Use Kafka for order events"', 14, 14)


def test_a_page_that_is_no_decision_record_names_no_deciders() -> None:
    text = "---\ndeciders: Alice Smith\n---\n# Meeting notes\n\nWe talked.\n"
    result = extract_facts(text, SourceRef("a", "s.md", "notes/meeting.md", "notes/meeting.md"))
    assert not result.is_decision_record
    assert not any(r.relation_type == "decided_by" for r in result.relations)


@pytest.mark.timeout(10)
@pytest.mark.parametrize("value", ["a@" * 20_000, "a@b" * 333, "<" * 5_000 + "@", "x, " * 20_000])
def test_hostile_deciders_values_take_linear_time(value: str) -> None:
    people_in_front_matter({"deciders": value}, {})
    people_in_lines([(1, f"Deciders: {value}")])


def test_an_author_s_line_names_its_authors() -> None:
    found = people_in_lines([(3, "Author(s): Priya Raman, Tomasz Wójcik")])
    assert [(p.name, p.entity_type, p.relation_type) for p in found] == [
        ("Priya Raman", "person", "authored_by"), ("Tomasz Wójcik", "person", "authored_by")]


def test_a_team_joined_by_an_ampersand_with_its_head_word_before_the_next_field() -> None:
    from tasks.extract.decision_people import people_in_lines

    found = people_in_lines([(3, "Owner: Identity & Access team · Reviewed with the Information Security Group")])
    assert [(p.name, p.entity_type) for p in found] == [("Identity & Access team", "team")]


@pytest.mark.parametrize(("line", "expected"), [
    ("(Accepted 09/03/2021 by the Research Computing Platform team.)", ["Research Computing Platform team"]),
    ("Accepted on 07/03/2023 by the Rights & Metadata team. Kept here for history.", ["Rights & Metadata team"]),
    ("Approved by the Architecture Review Board", ["Architecture Review Board"]),
    ("Accepted by the team.", []),  # no name
    ("Superseded by the Platform team's ADR-0019", []),  # no verb of acceptance
    ("Accepted. The budget was signed off by the Finance board", []),  # another sentence
])
def test_deciders_in_status(line: str, expected: list[str]) -> None:
    found = deciders_in_status([(9, line)])
    assert [p.name for p in found] == expected
    assert all(p.relation_type == "decided_by" and p.entity_type == "team" and p.line_start == 9 for p in found)


def test_a_record_s_status_names_the_team_that_accepted_it() -> None:
    text = ("# 3. Cache rights windows in Redis\n\n## Status\n\nAccepted on 07/03/2023 by the Rights & Metadata "
            "team.\n\n## Context\n\nThe change was approved by the Finance board.\n\n## Decision\n\nWe will use Redis.\n")
    result = extract_facts(text, SourceRef("a1", "sources/a1.md", "doc.md", "decisions/0003-cache.md"))
    decided = {fact.target.display for fact in result.relations if fact.relation_type == "decided_by"}
    assert decided == {"Rights & Metadata team"}  # not the board the Context names
