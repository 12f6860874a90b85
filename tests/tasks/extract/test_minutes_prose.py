"""Minutes told in prose under a Notes heading (conc63): "Ana to send the quote" is an action
with its owner, "Option B agreed for March" what the meeting agreed; a design's "Sorter will
choose ..." and a person agreeing with another are neither."""

from __future__ import annotations

from tasks.extract import SourceRef, extract_facts

MINUTES = """# Depot operations board, 4 March

Attendees: Ana Ruiz, Bruno Lima, Chen Wei

## Agenda

1. Scanner replacement
2. Winter routes

## Notes

**1. Scanners.** Bruno: the trial of the TC58 went well. The TC58 agreed for March, reviewed
after a year. Ana to send the purchase order to Fleet IT by Friday.

**2. Winter routes.** Chen agreed with Bruno that the planner needs a second run. Back to normal
routes from April. The planner will choose the depot by the next truck.

## Action items

- Chen — second planner run before the next board
"""


def _said() -> list[str]:
    result = extract_facts(MINUTES, SourceRef("a1", "sources/x.md", "raw/x.md", "x.md"))
    return [fact.text for fact in result.observations]


def test_a_named_action_and_a_thing_agreed_in_the_notes_are_kept() -> None:
    said = _said()
    assert any(s.startswith("Action item: Ana to send the purchase order to Fleet IT by Friday.") for s in said), said
    assert "Decision: The TC58 agreed for March, reviewed after a year." in said


def test_a_person_agreeing_a_common_word_before_to_and_a_design_are_not() -> None:
    said = _said()
    assert not any("Chen agreed with Bruno" in s for s in said if s.startswith("Decision: ")), said
    # (a statement of the topic all the same: kept as what the meeting heard, no action)
    assert not any("Back to normal" in s for s in said if not s.startswith("Outcome: ")), said
    assert not any("will choose" in s for s in said if s.startswith("Action item: ")), said
