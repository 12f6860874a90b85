"""A learning review (Jeli's and Etsy's debriefs: Summary, What happened, Local rationality,
What we learned) that tells its cause in the story rather than under a heading of its own
(issue 23 item 3). Written here for a museum's ticket scanners."""

from __future__ import annotations

from tasks.extract import Extraction, SourceRef, extract_facts


def _labelled(result: Extraction, label: str) -> list[tuple[str, int]]:
    return [(o.text, o.line_start) for o in result.observations if o.text.startswith(f"{label}: ")]


DEBRIEF = """# Debrief: ticket scanners rejected every e-ticket

## Summary

From 10:00 to 12:30 on 6 April, the entrance scanners rejected every e-ticket.

## What happened

The ticketing vendor rotated its signing key overnight. Our scanners still held the old key.

The front desk spotted it first, at 10:05, from a queue at the door. The scanners log rejections but nothing alerts on them.

## Local rationality

Ana's first guess was the Wi-Fi, because the scanners had dropped off it the week before.

## What we learned

- A key the vendor rotates is a key we must fetch, not copy.
"""


def _extract() -> Extraction:
    return extract_facts(DEBRIEF, SourceRef("x", "wiki/sources/x.md", "raw/x.md", "debrief.md"))


def test_the_story_beside_the_summary_tells_the_cause_paragraph_by_paragraph() -> None:
    causes = _labelled(_extract(), "Cause")
    assert ("Cause: The ticketing vendor rotated its signing key overnight. Our scanners still held the old key.",
            9) in causes
    assert any(line == 11 and "nothing alerts on them" in text for text, line in causes)


def test_who_noticed_first_is_the_detection_and_a_first_guess_is_no_cause() -> None:
    result = _extract()
    # (that nothing alerts on the rejections tells how it was not noticed: a Detection too, conc64b)
    assert _labelled(result, "Detection") == [
        ("Detection: The front desk spotted it first, at 10:05, from a queue at the door.", 11),
        ("Detection: The scanners log rejections but nothing alerts on them.", 11)]
    assert not any("Wi-Fi" in text for text, _ in _labelled(result, "Cause"))


def test_a_review_with_a_cause_section_keeps_its_story_out_of_the_causes() -> None:
    text = DEBRIEF.replace("## Local rationality", "## Root cause\n\nThe scanners copy the key by hand.\n\n"
                           "## Local rationality")
    result = extract_facts(text, SourceRef("x", "wiki/sources/x.md", "raw/x.md", "debrief.md"))
    assert not any("rotated its signing key" in text for text, _ in _labelled(result, "Cause"))


def test_a_description_read_as_the_summary_is_not_a_cause_too() -> None:
    text = ("# Incident: scanners down\n\n## Description\n\nEvery entrance scanner rejected e-tickets for two hours.\n\n"
            "## Timeline\n\n- 10:00 scanners fail\n")
    result = extract_facts(text, SourceRef("x", "wiki/sources/x.md", "raw/x.md", "inc.md"))
    assert _labelled(result, "Summary") == [
        ("Summary: Every entrance scanner rejected e-tickets for two hours.", 5)]
    assert not any(line == 5 for _, line in _labelled(result, "Cause"))
