"""Styles of the wild that hold their conclusions outside the usual headings (lead38): a runbook
kept as a check-box list, an operations FAQ, an After Action Review, formal minutes with numbered
resolutions, a technology radar. Fixtures under tests/fixtures/distill/lead38/, written from
the public forms of each style."""

from __future__ import annotations

from pathlib import Path

from tasks.extract import Extraction, SourceRef, extract_facts

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "distill" / "lead38"


def _extract(name: str) -> Extraction:
    text = (FIXTURES / name).read_text(encoding="utf-8")
    return extract_facts(text, SourceRef("x", "wiki/sources/x.md", "raw/x.md", f"docs/{name}"))


def _said(result: Extraction) -> list[tuple[str, int]]:
    return [(fact.text, fact.line_start) for fact in result.observations]


def test_a_checklist_runbook_gives_its_alert_steps_and_rules() -> None:
    said = _said(_extract("checklist.md"))
    assert ("Alert: Use this checklist when `SearchApiLatencyHigh` fires (p99 above 800 ms for "
            "10 minutes).", 5) in said
    steps = [text for text, _ in said if text.startswith("Mitigation: ")]
    assert len(steps) == 6 and steps[0].startswith("Mitigation: 1. Acknowledge the page")
    assert not any("[ ]" in text for text, _ in said)  # the boxes are markup, not the step
    assert ("Constraint: Never restart more than one data node at a time.", 14) in said


def test_two_check_boxes_are_a_sign_off_not_a_procedure() -> None:
    text = ("# Runbook: disk full\n\n## Meaning\n\nThe volume is over 90 %.\n\n## Sign-off\n\n"
            "- [ ] Reviewed by the owner\n- [ ] Linked from the alert\n")
    said = _said(extract_facts(text, SourceRef("x", "wiki/sources/x.md", "raw/x.md", "docs/disk.md")))
    assert not any("Reviewed by the owner" in text for text, _ in said)


def test_an_operations_faq_is_a_runbook_whose_answers_are_its_procedures() -> None:
    result = _extract("faq.md")
    assert result.subject is not None and result.subject.ref.entity_type == "runbook"
    said = [text for text, _ in _said(result)]
    assert any(text.startswith("Procedure: How do I add a broker? Apply the Terraform module") for text in said)
    assert ("Constraint: The cluster must never run with fewer than three in-sync replicas for the "
            "`payments` topic.") in said


def test_an_after_action_review_gives_what_happened_why_and_what_to_improve() -> None:
    result = _extract("aar.md")
    assert result.subject is not None and result.subject.ref.entity_type == "incident"
    said = [text for text, _ in _said(result)]
    assert any(text.startswith("Summary: At 10:05 UTC p99 latency rose") for text in said)
    assert any(text.startswith("Cause: The Redis session cache hit its connection limit") for text in said)
    assert ("Action item: Cap the Redis client pool at 50 connections per pod (owner: Checkout team, "
            "by 30 May).") in said
    assert "Lesson: Paging fired within two minutes of the first errors." in said


def test_numbered_resolutions_of_formal_minutes_are_decisions() -> None:
    said = _said(_extract("arb.md"))
    assert ("Decision: The shared cache is approved for the catalogue service only; other services "
            "wait for the load test.", 11) in said
    assert ("Decision: Fluent Bit replaces Logstash on every node by June.", 16) in said


def test_each_item_of_a_technology_radar_is_a_decision_of_its_ring() -> None:
    said = [text for text, _ in _said(_extract("radar.md"))]
    assert "Decision: Adopt: Kafka (Confluent Cloud) for event streams between services." in said
    assert "Decision: Hold: Airflow 1.x: no new DAGs; everything moves to Dagster." in said
    assert sum(text.startswith("Decision: ") for text in said) == 5
