"""Entity precision (prec71, issue 23 item 4): classes of non-subjects the subject rules let
through. An identifier, a practice, a role, a standard or a kind of text written as an acronym
("a UUID", "MFA", "POPs", "POSIX", "the FAQs", "ETAs") names no system; the parties
of a trade ("the carrier", "the seller") are no components, though agent nouns; a blog
byline's "By" is no part of a name, and a company heading a page is no person."""

from __future__ import annotations

from tasks.extract import SourceRef, extract_facts
from tasks.extract.decision_people import PERSON_TYPE
from tasks.extract.document_people import document_people
from tasks.extract.structure import scan

RUNBOOK = """# Runbook: Parcelhub label sync

**Owner:** Logistics Platform team
**Status:** Active

## Summary

Parcelhub sends each shipment to the carrier through the label sync. The dispatcher reads
the outbox and the dispatcher retries each label; the carrier answers with a tracking
number. If the carrier is down, the dispatcher parks the label and the seller sees a
warning. The seller can re-send it; the seller never calls the carrier directly.

## Diagnosis

1. Check the LMS queue: the LMS keeps every label until the LMS confirms the print.
2. Every label gets one of the UUIDs on first use.
3. Search the UUIDs in the LMS log.
4. Ask the DBA to check the replica; the DBA answers within the hour.
5. The DBA may kill long queries. MFA moves to WebAuthn next quarter.
6. The FAQs list the carriers' error codes.
7. The FAQs are on the wiki.
8. ETAs come from the carrier.
9. ETAs in the app lag by five minutes.
10. Twelve CDN POPs serve the label images.
11. The POPs cache them for an hour.

## Mitigation

Restart the dispatcher. If the LMS is down, page the Logistics Platform team. Never purge the
UUIDs, the FAQs or the ETAs; the DBA restores the replica; POPs refill by themselves.
"""


def _subjects(text: str) -> set[str]:
    result = extract_facts(text, SourceRef("a1", "sources/a1.md", "runbook.md", "runbook.md"))
    return {fact.target.display for fact in result.relations
            if fact.relation_type in {"about", "affected", "caused_by", "mitigated_by"}}


def test_acronyms_of_kinds_roles_and_standards_are_no_subjects_a_systems_is() -> None:
    subjects = _subjects(RUNBOOK)
    assert "LMS" in subjects  # the team's system, written five times
    assert not {"UUID", "MFA", "FAQ", "FAQs", "ETA", "ETAs", "POP", "POPs", "POSIX"} & subjects


def test_the_parties_of_a_trade_are_no_components_an_agent_noun_is() -> None:
    subjects = _subjects(RUNBOOK)
    assert "dispatcher" in subjects
    assert not {"carrier", "seller"} & subjects


def test_a_blog_bylines_by_is_no_part_of_the_name() -> None:
    """"By Nadia Perrin · March 3, 2025 · 4 min read": the person is Nadia Perrin, not "By
    Nadia Perrin", and her name is no technology of the page."""
    text = ("# How we cut label latency\n\nBy Nadia Perrin · March 3, 2025 · 4 min read\n\n"
            "Labelhub renders labels. Labelhub moved to Rust; Labelhub now answers in 40 ms.\n")
    assert document_people(scan(text.splitlines(), 1)).full == {"nadia perrin"}
    result = extract_facts(text, SourceRef("a1", "sources/a1.md", "post.md", "post.md"))
    types = {fact.target.display: fact.target.entity_type for fact in result.relations}
    assert types.get("Nadia Perrin") == PERSON_TYPE and "By Nadia Perrin" not in types


def test_a_company_heading_a_page_as_a_byline_does_is_no_person() -> None:
    """"*Pellham Freight Ltd · Platform · updated 2026-03-10*": the company that writes the page;
    a person's byline in the same place is a person."""
    def people(byline: str) -> frozenset[str]:
        text = f"# Yardmaster overview\n\n{byline}\n\nYardmaster plans the yard. Yardmaster runs on Go.\n"
        return document_people(scan(text.splitlines(), 1)).full

    assert people("*Pellham Freight Ltd · Platform · updated 2026-03-10*") == set()
    assert people("*Noor Haddad · Platform · 2026-03-10*") == {"noor haddad"}
