"""Names that are no system by their words or their place (prec43, issue 23 item 6): a
person's post ("duty manager"), a named storm, a measure of a system ("Redis CPU"), a known
product with what it is used for ("Twilio for SMS"), a verb that opens a table cell or a step
("Accepts label jobs", "page Platform SRE"), a post in brackets and a list's "with"."""

from __future__ import annotations

from tasks.extract import SourceRef, extract_facts
from tasks.extract.decision_people import people_in_lines

POSTMORTEM = """# Postmortem: parcel labels stuck during Storm Odile

**Date:** 2025-03-02
**Status:** Complete
**Authors:** Jonas Ekdahl (LabelDesk product owner)

## Summary

During Storm Odile the LabelDesk print queue stalled for 50 minutes. The terminal duty
manager saw blank labels first and the AOC duty manager paged the on-call. Redis CPU stayed
at 100 % while Redis evicted the label cache. SMS alerts go out through Twilio for SMS.

## Components

| Component | Responsibility | Technology |
|---|---|---|
| `labeldesk-api` | Accepts label jobs | Python |
| `labels-mq` | Queues label jobs | RabbitMQ |

## Root Cause

Redis ran out of memory: the label cache in Redis grew without a limit, and the duty manager
had no alert. Twilio retried every SMS twice. RabbitMQ queued label jobs behind it.

## Resolution

The on-call restarted Redis and RabbitMQ; if it happens again, page Platform SRE.
"""


def _subjects(text: str) -> set[str]:
    result = extract_facts(text, SourceRef("a1", "sources/a1.md", "doc.md", "postmortems/pm.md"))
    return {fact.target.display for fact in result.relations
            if fact.relation_type in {"about", "affected", "caused_by", "mitigated_by", "owned_by"}}


def test_posts_storms_measures_and_uses_are_no_subjects() -> None:
    subjects = _subjects(POSTMORTEM)
    assert {"Redis", "RabbitMQ"} <= subjects, subjects
    lowered = {name.lower() for name in subjects}
    assert not {"duty manager", "aoc duty manager", "terminal duty manager", "storm odile", "redis cpu",
                "twilio for sms"} & lowered, subjects


def test_a_verb_that_opens_a_cell_or_a_step_is_no_modifier() -> None:
    lowered = {name.lower() for name in _subjects(POSTMORTEM)}
    assert not {"accepts label job", "queues label job", "page platform"} & lowered, lowered


def test_a_post_in_brackets_is_no_team() -> None:
    lowered = {name.lower() for name in _subjects(POSTMORTEM)}
    assert "labeldesk product owner" not in lowered, lowered


def test_a_team_after_with_in_a_list_of_owners() -> None:
    people = people_in_lines([(3, "Decided by: Ops Centre, with Boardwall product team")])
    assert "Boardwall product team" in {person.name for person in people}
    assert not any(person.name.startswith("with ") for person in people)
