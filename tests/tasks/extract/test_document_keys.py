"""The keys a document states for itself, and the earlier incidents a postmortem cites by key
(tasks/extract/document_keys.py)."""

from __future__ import annotations

from tasks.extract.document_keys import (
    REFERENCES_INCIDENT,
    cited_incidents,
    own_keys,
    record_keys,
    trailing_ticket,
)
from tasks.extract.facts import extract_facts
from tasks.extract.genres import HeaderField
from tasks.extract.model import NameRef, SourceRef
from tasks.extract.structure import scan


def test_record_keys_are_series_and_numbers_never_standards_or_severities() -> None:
    text = "INC-2025-0731 and PD-20251104-02, not SHA-256, SEV-2, TLS-1, LTO-9, v1.2-3 or us-east-1"
    assert record_keys(text) == ["INC-2025-0731", "PD-20251104-02"]
    assert record_keys("see /INC-12 and INC-12.5") == []


def test_own_keys_come_from_the_title_bracket_and_the_record_fields() -> None:
    fields = [HeaderField("incident", "PD #Q3RK7 / INC-431", 3), HeaderField("priority", "P1", 4),
              HeaderField("reference", "INC-14", 5)]
    assert own_keys("Postmortem: kits assigned twice (INC-2026-031)", fields, incident=True) == [
        "INC-2026-031", "INC-431", "INC-14"]
    # a meeting's or a runbook's Incident field names another record
    assert own_keys("Weekly", fields, incident=False) == ["INC-14"]
    assert own_keys("Upgrade to TLS 1.3 (SHA-256)", [], incident=True) == []


def _postmortem(text: str):
    return extract_facts(text, SourceRef("x", "wiki/sources/x.md", "raw/x.md", "docs/postmortems/x.md"))


POSTMORTEM = """# Postmortem: Boardwall flight screens blank

| | |
|---|---|
| Incident | INC-2025-0731 |
| Severity | SEV-1 |
| Incident date | Saturday 19 July 2025 |

## Summary

The screens went blank for 40 minutes after a gateway restart.

## Root cause

The gateway dropped every socket on restart.

## Action items

- [ ] Send an idempotency key on every gateway call — Declan Ruddock — PAY-311
- [ ] Agree how failovers are announced — OPS-58

## Related incidents

- INC-297 (payments batch overlap, November 2025), closed without follow-ups.
- **INC-2025-0731** is this one.
- SHA-256 mismatches were not involved.
"""


def test_an_incident_write_up_is_known_by_its_key_and_cites_earlier_incidents() -> None:
    result = _postmortem(POSTMORTEM)
    assert result.subject is not None and result.subject.ref.entity_type == "incident"
    assert "INC-2025-0731" in result.subject.aliases
    cited = [(r.relation_type, r.target.display, r.target.entity_type) for r in result.relations
             if r.relation_type == REFERENCES_INCIDENT]
    assert cited == [(REFERENCES_INCIDENT, "INC-297", "incident")]


def test_only_a_related_incidents_section_cites_incidents() -> None:
    structure = scan(["# Outage", "", "## Action items", "", "- INC-12 add an alert"], 1)
    assert cited_incidents(structure, NameRef(("Outage",), "incident", 1), ()) == []


def test_a_tracker_key_after_an_action_items_last_dash_is_its_ticket_not_its_owner() -> None:
    assert trailing_ticket("Alert on p99 — Yusuf Karimi — SRE-81") == ("Alert on p99 — Yusuf Karimi", "SRE-81")
    assert trailing_ticket("Move to SHA-256 — SHA-256") == ("Move to SHA-256 — SHA-256", None)
    assert trailing_ticket("Alert on p99 — Yusuf Karimi") == ("Alert on p99 — Yusuf Karimi", None)
    actions = [o.text for o in _postmortem(POSTMORTEM).observations if o.text.startswith("Action item: ")]
    assert "Action item: Send an idempotency key on every gateway call (owner: Declan Ruddock, PAY-311)" in actions
    assert "Action item: Agree how failovers are announced (ticket: OPS-58)" in actions
    # the ticket is no entity of the incident
    assert not any(r.target.display in {"PAY-311", "OPS-58"} for r in _postmortem(POSTMORTEM).relations)


def test_an_investigation_reports_number_is_its_own_key() -> None:
    """An incident report numbered in its header (NTSB's "Report Number: AAR-24-02") is known by
    that number; a meeting's "Report number" field names no key of the meeting."""
    fields = [HeaderField("report number", "IR-25-07", 3), HeaderField("adopted", "April 2, 2025", 4)]
    assert own_keys("Incident Report: Checkout Unavailable", fields, incident=True) == ["IR-25-07"]
    assert own_keys("Weekly sync", fields, incident=False) == []
