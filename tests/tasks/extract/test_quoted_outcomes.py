"""A page of no genre that proposes a plan and quotes its outcome (a Loomio or Discourse export):
the items under "What I am proposing:" are the design it proposes, the outcome's block quote is
read as the statements it holds, with no quote marker inside them."""

from __future__ import annotations

from tasks.extract import SourceRef, extract_facts

POLL = """# Move the build cache to object storage

**Proposal** · Started by Ana Ruiz on 2 Mar 2026

## Details

The build cache disk fills up every week.

What I am proposing:

1. The cache is written to the object store, one key per artifact hash.
2. Entries unused for 30 days are deleted by a lifecycle rule.

## Outcome

> **Agreed.** We move the build cache to the object store in sprint 12.
> The old cache disk is kept read-only until April,
> then deleted.
>
> — Ben Ode, 9 Mar 2026
"""


def _observations(text: str) -> list[tuple[str, int]]:
    result = extract_facts(text, SourceRef("x", "wiki/sources/x.md", "raw/x.md", "decisions/cache.md"))
    return [(fact.text, fact.line_start) for fact in result.observations]


def test_the_items_a_page_proposes_are_its_design() -> None:
    observations = _observations(POLL)
    assert ("Design: The cache is written to the object store, one key per artifact hash.", 11) in observations
    assert ("Design: Entries unused for 30 days are deleted by a lifecycle rule.", 12) in observations


def test_a_quoted_outcome_is_read_without_its_quote_markers() -> None:
    observations = _observations(POLL)
    assert not any(">" in text for text, _ in observations), observations
    decisions = [text for text, _ in observations if text.startswith("Decision: ")]
    assert any("We move the build cache to the object store in sprint 12." in text for text in decisions), decisions


NOTES = """# Checkout review

Oct 2, 2026

### Summary

The team reviewed the checkout latency work and agreed to ship the cache.

### Suggested next steps

- [ ] [Ana Ruiz] Cache rollout: Enable the price cache for 10% of shoppers.
- [x] [Ben Ode] Dashboard: Add the cache hit rate to the checkout board.
"""


def test_a_task_list_of_next_steps_gives_its_action_items() -> None:
    observations = _observations(NOTES)
    assert ("Action item: [Ana Ruiz] Cache rollout: Enable the price cache for 10% of shoppers.", 11) in observations
    assert ("Action item: [Ben Ode] Dashboard: Add the cache hit rate to the checkout board.", 12) in observations
