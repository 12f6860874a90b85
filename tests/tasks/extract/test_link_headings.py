"""Keys a section's heading cites (tasks/extract/link_headings.py)."""

from __future__ import annotations

from tasks.extract.link_headings import heading_mentions
from tasks.extract.structure import scan

MINUTES = """# Payments weekly, 3 March

## Attendees

Ana, Ben

## Queue lag alert (INC-212 follow-up)

The alert fires at five minutes now.

## DL-04: Keep the ledger in Postgres

Agreed.

## 2026-03-03 — RFC-9 accepted

Shipped.

## Retries (`ERR-5` in code, see [RFC-7](../design/rfc-7.md))

Two retries.
"""


def test_a_key_after_a_headings_first_words_cites_its_record() -> None:
    """"## Queue lag alert (INC-212 follow-up)" cites INC-212; a heading that opens with its key
    (or with a date and then the key) names its own item, and a key in code or in a link's own
    text is no mention (the link says what it means)."""
    structure = scan(MINUTES.splitlines(), 1)
    found = [(link.text, link.number, link.line, link.mention, link.relation_type)
             for link in heading_mentions(structure, "minutes")]
    assert found == [("INC-212", 212, 7, True, "relates_to")]


def test_a_title_that_names_its_own_key_cites_nothing() -> None:
    structure = scan("# Major incident report — INC-77\n\n## Summary\n\nDown.\n".splitlines(), 1)
    assert heading_mentions(structure, "postmortems") == []


def test_a_logs_own_entry_named_in_a_heading_cites_nothing() -> None:
    text = ("# Decision log\n\n- **BD-1** (2026-01-02) Use Kafka.\n- **BD-2** (2026-01-09) Use Avro.\n\n"
            "## Notes on BD-2\n\nAvro schemas live in the registry.\n")
    assert heading_mentions(scan(text.splitlines(), 1), "decisions") == []
