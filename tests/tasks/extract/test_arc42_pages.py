"""An arc42 page that is one section of its documentation (concl44): titled "building block
view", its levels as "Level 1" / "Level 2" headings, its blocks in arc42's `| Name |
Responsibility |` table under any heading, its rules as a "Rules:" label over a list; a
`last_updated` key alone does not make it a proposal."""

from __future__ import annotations

from tasks.extract import SourceRef, extract_facts
from tasks.extract.front_matter import key_lines, split_frontmatter
from tasks.extract.genre_parts import rule_items
from tasks.extract.genres import ARCHITECTURE, header_fields, recognise_genre
from tasks.extract.structure import scan

PAGE = """---
title: Ledger - building block view
last_updated: 2026-01-10
---

# Ledger: building block view

## Level 1: overview

The ledger books payments and serves balances.

| Name | Responsibility | Owner |
|---|---|---|
| booking-worker | Books each payment exactly once | Payments |
| balance API | Serves account balances to the apps | Payments |

## Level 2: booking-worker

Rules:

- A payment is booked only after its idempotency key is stored.
- Bookings are limited to 500 per second per shard.
"""


def _said() -> list[str]:
    result = extract_facts(PAGE, SourceRef("x", "wiki/sources/x.md", "raw/x.md", "docs/ledger.md"))
    return [fact.text for fact in result.observations]


def test_a_page_titled_as_an_arc42_view_with_a_last_updated_key_is_an_architecture_page() -> None:
    meta, body, first = split_frontmatter(PAGE)
    structure = scan(body, first)
    assert recognise_genre(header_fields(meta, key_lines(meta), structure), structure,
                           "Ledger - building block view") == ARCHITECTURE


def test_each_row_of_a_responsibility_table_is_a_responsibility() -> None:
    said = _said()
    assert "Responsibility: booking-worker: Books each payment exactly once" in said
    assert "Responsibility: balance API: Serves account balances to the apps" in said


def test_each_item_under_a_rules_label_is_a_constraint() -> None:
    meta, body, first = split_frontmatter(PAGE)
    rules = [fact.text for fact in rule_items(scan(body, first))]
    assert rules == ["Constraint: A payment is booked only after its idempotency key is stored.",
                     "Constraint: Bookings are limited to 500 per second per shard."]
    assert rules[1] in _said()


BLOCKS = """---
title: Ledger architecture
owner: group:ledger
---

# Ledger architecture

The ledger books every payment once and keeps the books for seven years.

## Building blocks

### Posting service

Books each payment as a pair of entries. Owned by the Ledger team.

- Postings must be idempotent by payment id.

### Statement job

- Statements must never be sent before the day is closed.

### Archive

The archive keeps closed months on object storage, read only.

## Runtime view

Payments flow from the gateway to the posting service.
"""


def test_each_block_of_a_building_blocks_section_is_a_responsibility_by_its_first_paragraph() -> None:
    result = extract_facts(BLOCKS, SourceRef("x", "wiki/sources/x.md", "raw/x.md", "docs/index.md"))
    duties = {o.text: (o.line_start, o.line_end) for o in result.observations
              if o.text.startswith("Responsibility: ")}
    assert duties == {
        "Responsibility: Posting service: Books each payment as a pair of entries. Owned by the Ledger team.": (14, 14),
        "Responsibility: Archive: The archive keeps closed months on object storage, read only.": (24, 24),
    }  # the Statement job opens with a rule, not with what it does
