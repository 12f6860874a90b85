"""Names that are no system by their words or their place (prec43, issue 23 item 6): a
person's post ("duty manager"), a named storm, a measure of a system ("Redis CPU"), a known
product with what it is used for ("Twilio for SMS"), a verb that opens a table cell or a step
("Accepts label jobs", "page Platform SRE"), a post in brackets and a list's "with"."""

from __future__ import annotations

from tasks.extract import SourceRef, extract_facts
from tasks.extract.decision_people import people_in_lines
from tasks.extract.non_subjects import given_names
from tasks.extract.subject_terms import field_label, holds_terms

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


ARC42 = """# Meterhub – architecture documentation (arc42)

## 1. Introduction and goals

Meterhub reads smart meters and stores their readings in TimescaleDB.

## 5. Building block view

### Level 1

- **meter-ingest**: reads MQTT telemetry and writes it to TimescaleDB.
- **reads-api**: serves readings to the billing service.

## 8. Crosscutting concepts

- **Observability:** OpenTelemetry in every service; Observability dashboards in Grafana.
- **Background jobs:** compression jobs are monitored like services; background jobs page.

## Operations

- **On-call:** Metering (PagerDuty service "Metering").
"""


def test_a_series_heading_concepts_and_a_hyphenated_label_are_no_components() -> None:
    lowered = {name.lower() for name in _subjects(ARC42)}
    assert {"meter-ingest", "reads-api"} <= lowered, lowered
    assert not {"level", "level 1", "observability", "background jobs", "on-call"} & lowered, lowered


def test_a_field_label_may_be_a_hyphenated_compound() -> None:
    assert field_label("On-call") and field_label("Language")
    assert not field_label("PgBouncer") and not field_label("Ceph-CSI")


def test_sections_that_hold_terms() -> None:
    assert holds_terms("crosscutting concepts") and holds_terms("design principles") and holds_terms("glossary")
    assert not holds_terms("components") and not holds_terms("building block view")


def test_a_responder_named_in_full_after_a_role() -> None:
    names = given_names("Escalate to the Integration lead, Aoife Brennan.\n"
                        "The on-call identity engineer, Hannah Okafor, was paged.")
    assert {"Aoife Brennan", "Hannah Okafor"} <= names


RADAR = """# Platform tech radar

## Adopt

- **ScyllaDB** - accounts and sessions.

## Trial

- **Open Match** - matchmaking; trial in one region.

## Assess

- **Valkey** - a Redis fork to assess.

## Hold

- **Memcached** - no new work on it; trial ended.
"""


def test_a_ring_of_a_radar_is_no_subject() -> None:
    lowered = {name.lower() for name in _subjects(RADAR)}
    assert "trial" not in lowered and "adopt" not in lowered, lowered


HYPHENS = """# Postmortem: search results stale after the catalog re-index

**Date:** 2025-05-02
**Status:** Complete

## Summary

The nightly re-index of the catalog stalled, and `cart-svc` served stale prices. The
post-processor of the re-index dropped every e-mail the re-index queued, and cart-svc
retried. No e-mail reached customers; the post-processor was restarted twice.

## Root Cause

The re-index wrote to the e-mail queue faster than the post-processor drained it; cart-svc
read the old index.
"""


def test_english_words_written_with_a_hyphen_are_no_names() -> None:
    lowered = {name.lower() for name in _subjects(HYPHENS)}
    assert "cart-svc" in lowered, lowered
    assert not {"re-index", "e-mail", "post-processor"} & lowered, lowered


def test_a_post_named_as_head_of_a_department_is_no_subject() -> None:
    text = POSTMORTEM.replace("SMS alerts go out", "The Head of Airport Systems was told. SMS alerts go out")
    assert "head of airport systems" not in {name.lower() for name in _subjects(text)}
