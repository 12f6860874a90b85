"""A prohibition under the condition it holds in ("If messages sit in the dead-letter queue, do
not purge them") is a rule, as one that opens its sentence is (conc63); a sentence that only
mentions "never" after a comma is not."""

from __future__ import annotations

from tasks.extract import SourceRef, extract_facts

FAQ = """# Ticket scanner sync: operations notes

The scanner sync copies the day's tickets to every gate scanner each morning.

If scans are sitting in the retry queue, do not delete them; they are replayed once the gate is
back online.

The old scanners were slow, never more than ten a minute, and are gone now.
"""


def test_a_conditional_prohibition_is_a_rule() -> None:
    result = extract_facts(FAQ, SourceRef("a1", "sources/x.md", "raw/x.md", "x.md"))
    said = [fact.text for fact in result.observations]
    assert any(s.startswith("Constraint: If scans are sitting in the retry queue, do not delete them") for s in said), said
    assert not any("never more than ten" in s for s in said), said
