"""A lessons-learned entry (NASA LLIS's public template: Abstract, Driving Event, Lesson(s)
Learned, Recommendation(s)) and other reviews that list their action items as Recommendations
(issue 23 item 3: the incident's cause and each action item)."""

from __future__ import annotations

from tasks.extract import Extraction, SourceRef, extract_facts


def _extract(text: str) -> Extraction:
    return extract_facts(text, SourceRef("x", "wiki/sources/x.md", "raw/x.md", "entry.md"))


def _labelled(result: Extraction, label: str) -> list[tuple[str, int]]:
    return [(o.text, o.line_start) for o in result.observations if o.text.startswith(f"{label}: ")]


ENTRY = """# Lessons Learned Entry: 0112

- **Lesson Date:** 2025-06-02
- **Submitted by:** Ines Kahn, depot lead

## Abstract

On 12 May 2025 the north depot's van routes were printed for the south depot.

## Driving Event

The route planner imported the depot table from a spreadsheet that had been sorted by hand. The dispatcher noticed it at 06:40 when the first van left empty.

## Lesson(s) Learned

1. A table sorted by hand is a table nobody checks.

## Recommendation(s)

1. Import the depot table from the master data service only.
2. Print each route with its depot code in large type.

## Evidence of Recurrence Control Effectiveness

No route has been printed for the wrong depot since the import changed.
"""


def test_the_recommendations_of_a_review_are_its_action_items() -> None:
    result = _extract(ENTRY)
    assert _labelled(result, "Action item") == [
        ("Action item: Import the depot table from the master data service only.", 20),
        ("Action item: Print each route with its depot code in large type.", 21)]
    assert _labelled(result, "Decision") == []


def test_the_driving_event_tells_the_cause_and_how_it_was_noticed() -> None:
    result = _extract(ENTRY)
    cause = _labelled(result, "Cause")
    assert cause and cause[0][1] == 12 and "sorted by hand" in cause[0][0]
    assert _labelled(result, "Detection") == [
        ("Detection: The dispatcher noticed it at 06:40 when the first van left empty.", 12)]
    assert _labelled(result, "Lesson") == [("Lesson: A table sorted by hand is a table nobody checks.", 16)]


def test_a_design_docs_recommendations_are_no_action_items() -> None:
    design = ("# Proposal: one depot table\n\n## Summary\n\nKeep one depot table.\n\n## Motivation\n\n"
              "Two tables drift.\n\n## Recommendations\n\n1. We recommend the master data service.\n")
    assert _labelled(_extract(design), "Action item") == []


def test_the_evidence_that_the_actions_worked_is_the_outcome() -> None:
    assert _labelled(_extract(ENTRY), "Outcome") == [
        ("Outcome: No route has been printed for the wrong depot since the import changed.", 25)]


def test_the_driving_events_story_is_a_detail_not_read_for_subjects() -> None:
    # who was on shift and what they saw is told as often as the systems involved
    causes = [o for o in _extract(ENTRY).observations if o.text.startswith("Cause: ") and o.line_start == 12]
    assert [o.kind for o in causes] == ["detail"]
