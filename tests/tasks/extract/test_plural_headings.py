"""Signs of a genre written in other words than the template's (issue 23 item 1): a plural
written "(s)" ("Lesson(s) Learned", "Root Cause(s)", as NASA's lessons-learned entries and many
forms write a heading that may hold one or more), and a checklist's "Use when:" field."""

from __future__ import annotations

from tasks.extract import Extraction, SourceRef, extract_facts
from tasks.extract.structure import section_key


def _extract(text: str) -> Extraction:
    return extract_facts(text, SourceRef("x", "wiki/sources/x.md", "raw/x.md", "notes.md"))


def test_a_plural_written_with_s_in_brackets_is_the_plural() -> None:
    assert section_key("## Lesson(s) Learned") == "lessons learned"
    assert section_key("3. Root Cause(s):") == "root causes"
    assert section_key("Recommendation(s)") == "recommendations"
    assert section_key("Owner(s) (optional)") == "owners"
    assert section_key("Decision") == "decision"


REVIEW = """# Entry 0042: a van route sent to the wrong depot

## Abstract

On 3 May 2025 the routing service sent the north van to the south depot for the whole morning.

## Driving Event

The depot code of the north van was typed as S1 when the route was set up.

## Lesson(s) Learned

1. A depot code typed by hand is a route nobody checks.
2. The routing service trusted every code it was given.
"""


def test_a_lessons_heading_with_s_in_brackets_makes_an_incident_review() -> None:
    result = _extract(REVIEW)
    assert result.subject is not None and result.subject.ref.entity_type == "incident"
    lessons = [o.text for o in result.observations if o.text.startswith("Lesson: ")]
    assert lessons == ["Lesson: A depot code typed by hand is a route nobody checks.",
                       "Lesson: The routing service trusted every code it was given."]


CHECKLIST = """# Checklist: mail queue backlog

**Use when:** the `MailQueueDepth` alert fires (more than 5,000 messages queued for 15 minutes).

1. Check the relay's queue length.
2. Flush the deferred queue.
3. Escalate to the mail on-call lead if the queue still grows.
"""


def test_a_checklist_with_a_use_when_field_is_a_runbook() -> None:
    result = _extract(CHECKLIST)
    assert result.subject is not None and result.subject.ref.entity_type == "runbook"


def test_a_use_when_field_alone_makes_no_runbook() -> None:
    # a pattern catalogue's entry says when to use the pattern: no checklist, no runbook
    page = "# Circuit breaker\n\n**Use when:** a remote call can hang.\n\nWrap the call in a breaker.\n"
    result = _extract(page)
    assert result.subject is None or result.subject.ref.entity_type != "runbook"
