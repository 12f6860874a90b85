"""What the statement readers keep as a statement (tasks/extract/statement_text.py)."""

from __future__ import annotations

import pytest

from tasks.extract.statement_text import is_statement


@pytest.mark.parametrize("text", [
    "The pool ran out of connections at 14:05.",
    "- Kafka keeps seven days of the events",
    "Nothing writes to the archive directly.",
])
def test_a_claim_of_four_words_or_more_is_a_statement(text: str) -> None:
    assert is_statement(text)


@pytest.mark.parametrize("text", [
    "Too short here.",  # fewer than four words
    "The plan has three steps:",  # a lead-in
    "Why did the alert not fire?",  # a question
    "SEE THE RUNBOOK FOR DETAILS",  # no lower-case word
    "See the runbook for the full procedure.",
    "For details, see the incident review.",
    "Refer to the on-call guide for the rota.",
    "For more information, read the design doc.",
    "[To be completed by the security team]",
    "Describe the motivation of your proposal here.",
    "This section summarizes the design in brief.",
])
def test_a_pointer_a_placeholder_or_an_instruction_is_not(text: str) -> None:
    assert not is_statement(text)
