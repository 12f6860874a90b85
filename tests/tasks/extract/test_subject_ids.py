"""The key a record is filed under is an alias of its entity (tasks/extract/subject_ids.py): by
its file name, its title and its ID field; never a standard's version, a date or a word."""

from __future__ import annotations

from tasks.extract import SourceRef, extract_facts
from tasks.extract.genres import HeaderField
from tasks.extract.subject_ids import own_ids


def _aliases(text: str, path: str) -> tuple[str, ...]:
    result = extract_facts(text, SourceRef("a1", "sources/a1.md", path.rsplit("/", 1)[-1], path))
    assert result.subject is not None
    return result.subject.aliases


def test_the_key_a_file_name_opens_with_as_the_text_writes_it() -> None:
    assert own_ids("Crew roster rule change", "OR-2026-0117-roster-rule", "Report OR-2026-0117 was filed.",
                   []) == ["OR-2026-0117"]
    assert own_ids("Reindex", "ab-12-nightly", "Story ab-12: nightly.", []) == ["ab-12"]


def test_a_file_name_key_whose_number_alone_the_text_writes() -> None:
    text = "| Article Number | 000451 |\n| Article Type | How-to |\n"
    assert own_ids("How to purge a queue", "kba-000451-purge-queue", text, []) == ["KBA-000451"]
    # a long series ("forms-response") is the file's words, not a key, unless the text writes it
    assert own_ids("Incident report", "forms-response-12-freezer", "Response 12 ...", []) == []


def test_no_key_without_the_text_or_of_a_standard_or_a_date() -> None:
    assert own_ids("Rotate keys", "ops-77-rotate-keys", "We rotate the keys.", []) == []
    assert own_ids("Hashing", "sha-256-artifacts", "Use SHA-256 for artifacts.", []) == []
    assert own_ids("Weekly", "2026-03-05-weekly", "Notes of 2026-03-05.", []) == []


def test_the_key_at_a_titles_start_or_after_its_label() -> None:
    assert own_ids("QX-DEC-04 — Message broker: concept selection", "broker-matrix", "", []) == ["QX-DEC-04"]
    assert own_ids("mq-88 · Decide how orders reach billing", "orders", "", []) == ["mq-88"]
    assert own_ids("Causal analysis — PAY-INC-0042: double charges", "cast", "", []) == ["PAY-INC-0042"]
    # a key the title only cites is another record's
    assert own_ids("Outage after the RFC-12 rollout", "outage", "", []) == []


def test_the_key_of_a_records_id_field() -> None:
    fields = [HeaderField("decision id", "QX-DEC-04", 3), HeaderField("owner id", "EMP-2231", 4)]
    assert own_ids("Message broker", "broker", "", fields) == ["QX-DEC-04"]


PUGH = """# QX-DEC-04 — Message broker: concept selection

| Field | Value |
|---|---|
| Decision ID | QX-DEC-04 |
| Status | **Decided** |

## Context

Orders reach billing through a nightly file from Tallyhub. We need events.

## Decision

We chose RabbitMQ over Kafka for the order events.

## Consequences

Tallyhub publishes each order as it is placed.
"""


def test_a_decision_records_key_is_its_entitys_alias() -> None:
    assert "QX-DEC-04" in _aliases(PUGH, "decisions/message-broker-pugh.md")


def test_the_key_a_title_ends_with_after_the_kind_of_page_it_is() -> None:
    assert own_ids("ACTION CARD FW-3", "action-card-fw3", "", []) == ["FW-3"]
    assert own_ids("Change request CHG-8812", "chg", "", []) == ["CHG-8812"]
    # another page's key ("Follow-up to INC-42") or a thing's name ("... broker EMQX-5") is none
    assert own_ids("Follow-up to INC-42", "follow-up", "", []) == []
    assert own_ids("Upgrade the broker EMQX-5", "upgrade", "", []) == []
