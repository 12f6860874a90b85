"""A maintenance procedure's and a playbook's own parts (issue 23 item 3): the window it may run
in ("## When"), what to do when a step fails beside whom to call ("## If it goes wrong"), and
the opening sentence that says when to use the page. Written here for a hospital's badge readers."""

from __future__ import annotations

from tasks.extract import Extraction, SourceRef, extract_facts


def _extract(text: str) -> Extraction:
    return extract_facts(text, SourceRef("x", "wiki/sources/x.md", "raw/x.md", "procedure.md"))


def _labelled(result: Extraction, label: str) -> list[tuple[str, int]]:
    return [(o.text, o.line_start) for o in result.observations if o.text.startswith(f"{label}: ")]


PROCEDURE = """# Maintenance procedure: badge reader firmware

## When

- Tuesday 02:00-04:00, when the wards are quiet. Never during a shift change.
- One floor at a time.

## Steps

1. Put the floor's readers in offline mode.
2. Push the firmware with `badgectl push --floor <n>`.

## If it goes wrong

- A reader does not come back: leave it offline, the door stays on its key lock. Page Estates on-call if a ward door is affected.
"""


def test_each_item_of_the_window_is_a_rule_kept_whole() -> None:
    result = _extract(PROCEDURE)
    assert _labelled(result, "Constraint") == [
        ("Constraint: Tuesday 02:00-04:00, when the wards are quiet. Never during a shift change.", 5),
        ("Constraint: One floor at a time.", 6)]


def test_what_to_do_when_a_step_fails_is_a_mitigation_beside_the_escalation() -> None:
    result = _extract(PROCEDURE)
    assert ("Mitigation: A reader does not come back: leave it offline, the door stays on its key lock.",
            15) in _labelled(result, "Mitigation")
    assert [line for _, line in _labelled(result, "Escalation")] == [15]


PLAYBOOK = """Facilities › Playbooks › Badge readers

# Badge reader outage playbook

| Owner | Severity |
|---|---|
| Estates IT | P2 |

Use this page when staff cannot open ward doors with their badges. The ward desk can run the first two checks.

## Checks

1. Is the reader's light red?
2. Is the whole floor affected?

## Escalation

Estates IT on-call, then the security desk.
"""


def test_the_opening_use_this_page_sentence_is_the_summary_not_a_rule() -> None:
    result = _extract(PLAYBOOK)
    said = "Use this page when staff cannot open ward doors with their badges."
    assert _labelled(result, "Summary") == [(f"Summary: {said}", 9)]
    assert f"Constraint: {said}" not in {o.text for o in result.observations}


WENT_WRONG = """# Postmortem: lab results delayed

## Summary

Lab results reached the wards two hours late on 3 March.

## Root cause

The results queue's consumer crashed on a malformed message.

## What went wrong

- Nobody owned the queue's alerts.
"""


def test_what_went_wrong_is_a_lesson_as_the_sre_template_files_it_and_a_cause() -> None:
    result = _extract(WENT_WRONG)
    assert ("Lesson: Nobody owned the queue's alerts.", 13) in _labelled(result, "Lesson")
    assert ("Cause: Nobody owned the queue's alerts.", 13) in _labelled(result, "Cause")


def test_an_item_that_calls_no_one_and_a_rule_are_no_mitigation_of_it() -> None:
    page = PROCEDURE.replace(
        "- A reader does not come back:",
        "- The push hangs: usually the floor switch is down. Check the switch first.\n"
        "- Anything else: page the estates secondary. Never factory-reset a reader.\n"
        "- A reader does not come back:")
    mitigations = [text for text, _ in _labelled(_extract(page), "Mitigation")]
    assert not any("switch" in text or "factory-reset" in text for text in mitigations)


def test_what_went_wrong_told_in_paragraphs_is_the_story_not_lessons() -> None:
    told = WENT_WRONG.replace("- Nobody owned the queue's alerts.", "The consumer had crashed twice before.")
    assert _labelled(_extract(told), "Lesson") == []
