"""Azure's public post-incident review template (issue 23 item 3): "What happened?", "What went
wrong and why?", "How did we respond?" (the response, entry by entry: who noticed, who found
what was wrong, what ended it), "How are we making incidents like this less likely or less
impactful?" and "How can customers make incidents like this less impactful?" (what those
affected can do: a mitigation). Written here for a transit operator's ticketing outage."""

from __future__ import annotations

from tasks.extract import Extraction, SourceRef, extract_facts


def _labelled(result: Extraction, label: str) -> list[tuple[str, int]]:
    return [(o.text, o.line_start) for o in result.observations if o.text.startswith(f"{label}: ")]


PIR = """# Post Incident Review (PIR) - ticket machines offline

## What happened?

Between 07:10 and 09:30 on 4 June 2025, ticket machines at every station could not sell tickets.

## What went wrong and why?

The payment gateway's certificate expired because its renewal job had been disabled.

## How did we respond?

- 07:18 The station desk raised a P2 from passenger complaints.
- 07:45 Ana Ruiz identified the expired certificate on the gateway.
- 08:10 The certificate was renewed and the gateway restarted.

## How are we making incidents like this less likely or less impactful?

- Alert 30 days before any certificate expires.

## How can station staff make incidents like this less impactful?

Hand out paper travel permits at the barriers until the machines sell again.
"""


def _extract() -> Extraction:
    return extract_facts(PIR, SourceRef("x", "wiki/sources/x.md", "raw/x.md", "pir.md"))


def test_the_response_entries_tell_detection_diagnosis_and_resolution() -> None:
    result = _extract()
    assert _labelled(result, "Detection") == [
        ("Detection: 07:18 The station desk raised a P2 from passenger complaints.", 13)]
    assert _labelled(result, "Diagnosis") == [
        ("Diagnosis: 07:45 Ana Ruiz identified the expired certificate on the gateway.", 14)]
    assert _labelled(result, "Resolution") == [
        ("Resolution: 08:10 The certificate was renewed and the gateway restarted.", 15)]


def test_what_those_affected_can_do_is_a_mitigation_and_what_we_change_an_action() -> None:
    result = _extract()
    assert _labelled(result, "Mitigation") == [
        ("Mitigation: Hand out paper travel permits at the barriers until the machines sell again.", 23)]
    assert _labelled(result, "Action item") == [
        ("Action item: Alert 30 days before any certificate expires.", 19)]


def test_the_response_entries_are_details_not_read_for_subjects() -> None:
    # who did the chores of the response (a person on call, a desk) is no subject of the review
    kinds = {o.kind for o in _extract().observations if 13 <= o.line_start <= 15}
    assert kinds == {"detail"}
