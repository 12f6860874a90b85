"""Subject precision (issue 23 item 6; prec49): what a document names by its kind or by a
word about it is no subject of its own: a document linked by its genre word ("the debrief"),
a debrief's title word, a system in a state ("stuck jobs"), a credential of a system ("the NPX
client certificate"), a product's name cut before "for" ("Azure Database for PostgreSQL"), a
tracker's key written with a year ("INC-2026-031"), an identifier of a named system ("NetLedger
ID"), a person's post ("the NPX service manager", "Head of Provisioning Platform"), and a kind
of thing named in code right before it ("the `claims-docs-inbound` S3 bucket": the bucket)."""

from __future__ import annotations

from tasks.extract import SourceRef, extract_facts
from tasks.extract.decision_people import PERSON_TYPE, TEAM_TYPE, people_in_lines
from tasks.extract.genre_subjects import (
    _before_a_measure,
    _identifier_of_a_name,
    _inside_a_longer_name,
    _with_code_name,
)
from tasks.extract.subject_terms import link_texts, series_key, system_phrases, title_subject

RUNBOOK = """# PortGate stuck port orders

**Service:** PortGate · **Team:** Number Portability squad

## When this alert fires

PortGate writes each port request to its outbox; the NPX connector sends it to NPX.
Background: [the debrief](../postmortems/tally-debrief.md) and the
[March backlog write-up](../postmortems/march.md).

## Diagnosis

1. Check the relay. If 500 stuck jobs wait in the outbox, restart the relay.
2. If the connector logs `certificate expired`, the NPX client certificate has lapsed.
3. The `porting-inbound` S3 bucket holds the rejected files.
4. Every port is identified by its NetLedger ID; NetLedger keeps the numbers.
5. Trigger: Azure Database for PostgreSQL failed the replica over after INC-2026-031.

## Escalation

- NPX-side faults: NPX operations line, then the NPX service manager.
- Tell Document Services in working hours; tell Document Services again after an hour.
"""


def _subjects(text: str, path: str = "runbooks/portgate.md") -> set[str]:
    result = extract_facts(text, SourceRef("a1", "sources/a1.md", "doc.md", path))
    return {fact.target.display for fact in result.relations
            if fact.relation_type in {"about", "affected", "caused_by", "mitigated_by"}}


def test_what_a_runbook_names_by_kind_is_no_subject() -> None:
    subjects = _subjects(RUNBOOK)
    assert {"NPX", "Document Services", "Azure Database for PostgreSQL"} <= subjects
    for name in ("the debrief", "March backlog write-up", "stuck job", "NPX client", "NetLedger ID",
                 "Azure Database", "INC", "NPX service manager", "S3 bucket", "tell Document Services"):
        assert name not in subjects, name


def test_a_connector_is_named_by_what_it_connects() -> None:
    phrases = system_phrases([(1, "PortGate writes to its outbox; the NPX connector sends each request."),
                              (2, "If the connector crash-loops, restart it.")])
    assert set(phrases) == {"npx connector"}
    text = RUNBOOK + "\nThe NPX connector holds the only NPX session; restart the connector once.\n"
    subjects = _subjects(text)
    assert "NPX connector" in subjects and "connector" not in subjects


def test_a_link_to_a_document_by_its_genre_word_names_no_component() -> None:
    seen = link_texts([(1, "See [the debrief](../postmortems/x.md), [IIIF design](iiif.md)"),
                       (2, "and the [restore drill incident](./inc.md); [queriers](./querier.md)")])
    assert set(seen) == {"querier"}


def test_a_debrief_title_names_no_subject_by_its_genre_word() -> None:
    assert title_subject("Debrief: the login service outage") == "login service"
    assert title_subject("Debrief: duplicate data usage billed after the MinIO failover") is None


def test_a_state_a_count_of_threads_or_a_verb_is_no_modifier_of_a_system() -> None:
    phrases = system_phrases([(1, "First batch of 500 stuck jobs replayed by concurrent workers."),
                              (2, "NPX calls get their own 8-thread worker pool in OrderFlow."),
                              (3, "Move it to quarantine and tell Document Services in working hours.")])
    assert set(phrases) == {"document service"}


def test_a_credential_of_a_system_is_said_of_it() -> None:
    assert _before_a_measure("NPX client", "the NPX client certificate has lapsed")
    assert _before_a_measure("OAuth client", "its OAuth client secret had expired")
    assert _before_a_measure("Kafka Connect connector", "a freeze on Kafka Connect connector config changes")
    assert not _before_a_measure("NPX client", "the NPX client retries twice")


def test_a_product_named_for_what_it_serves_is_written_whole() -> None:
    assert _inside_a_longer_name("Azure Database", "Azure Database for PostgreSQL failed over")
    assert not _inside_a_longer_name("Payments API", "the Payments API for partners is down")
    assert _inside_a_longer_name("Data Platform", "1. [Clinical Data Platform](index.html)")
    # a word that opens a bracket right before the name is a diagram's node or a call, outside it
    assert not _inside_a_longer_name("LoRaWAN gateway", "S[Sensors] --> G[LoRaWAN gateway] --> C[ChirpStack]")
    assert not _inside_a_longer_name("Payments API", "call(Payments API) from the worker")
    assert not _inside_a_longer_name("Adyen client", "- Add jitter to the Adyen client (Oskar Lind, ENG-1452)")


def test_a_name_wrapped_across_a_line_end_is_read_whole() -> None:
    text = """# ADR-7: Pregenerated randomisation lists

## Context

Tessera is the randomisation service that the Clinical
Data Platform team runs for our studies. The Clinical Data Platform team owns Tessera.
"""
    subjects = _subjects(text, "decisions/ADR-0007-lists.md")
    assert "Data Platform team" not in subjects


def test_a_tracker_key_with_a_year_is_a_series() -> None:
    assert series_key("INC", "It was added after INC-2026-031. Reads go to the primary.")
    assert not series_key("NPX", "NPX answers by callback; the NPX connector retries.")


def test_an_identifier_of_a_named_system_is_no_subject() -> None:
    text = "Every record becomes a node, identified by its NetLedger ID. NetLedger keeps them."
    assert _identifier_of_a_name("NetLedger ID", text)
    assert not _identifier_of_a_name("Entra ID", "Sign-in goes through Entra ID for staff.")


def test_a_kind_named_in_code_right_before_it_takes_the_code_name() -> None:
    lines = {9: "takes documents from the `claims-docs-inbound` S3", 10: "bucket, queues one job each"}
    assert _with_code_name([(9, "S3 bucket")], lines) == [(9, "claims-docs-inbound S3 bucket")]
    lines = {3: "the `picklist` PostgreSQL database and a PostgreSQL database for reports"}
    assert _with_code_name([(3, "PostgreSQL database")], lines) == [(3, "PostgreSQL database")]


def test_a_kind_named_in_code_is_the_named_thing_when_the_code_is_chosen() -> None:
    text = """# PickJobsQueueAgeHigh

The oldest message on the `pick-jobs` SQS queue is older than five minutes. Picklist
reads `pick-jobs` and writes pick lists; when `pick-jobs` backs up, pickers wait.
"""
    subjects = _subjects(text, "runbooks/PickJobsQueueAgeHigh.md")
    assert "pick-jobs" in subjects and "pick-jobs SQS queue" not in subjects


def test_a_post_over_a_group_is_the_group_it_heads() -> None:
    found = people_in_lines([(5, "owner: Ines Carvalho, Head of Provisioning Platform")])
    assert [(p.name, p.entity_type) for p in found] == [("Ines Carvalho", PERSON_TYPE),
                                                        ("Provisioning Platform", TEAM_TYPE)]
    found = people_in_lines([(5, "owner: Ann Lee, Head of Security")])
    assert [(p.name, p.entity_type) for p in found] == [("Ann Lee", PERSON_TYPE)]
