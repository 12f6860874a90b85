"""Header fields written in other shapes (genres.header_fields): a definition list's term over
its `: value` line, a bold key alone over its value, a field in a code span."""

from __future__ import annotations

from tasks.extract.genres import header_fields
from tasks.extract.structure import scan
from tests.extraction import extract, stated


def _fields(text: str) -> list[tuple[str, str, int]]:
    return [(f.key, f.value, f.line) for f in header_fields({}, {}, scan(text.splitlines(), 1))]


def test_a_definition_lists_term_over_its_value_is_a_field() -> None:
    text = "# Move search to OpenSearch\n\nStatus\n: Under review\n\nCreated\n: 2026-02-02\n\n## Motivation\n\nx\n"
    assert _fields(text) == [("status", "Under review", 3), ("created", "2026-02-02", 6)]


def test_a_bold_key_alone_over_its_value_is_a_field_when_it_names_a_state_or_a_date() -> None:
    text = ("# Feature flag service\n\n**Status**\n\nApproved\n\n**Last updated**\n\n4 March 2026\n\n"
            "**Background**\n\nFlags live in three places.\n\n## Goals\n\nOne place.\n")
    assert _fields(text) == [("status", "Approved", 5), ("last updated", "4 March 2026", 9)]


def test_a_bold_label_over_a_sentence_is_prose_not_a_field() -> None:
    text = "# Ledger compaction\n\n**Status**\n\nAccepted by the architecture board last week.\n\n## Motivation\n\nx\n"
    assert _fields(text) == []


def test_fields_in_code_spans_are_fields() -> None:
    text = "# Rotate the TLS certificates\n\n`Status: Active` · `Owner: SRE` · `Last tested: 2026-02-27`\n\n## Steps\n"
    assert [key for key, _, _ in _fields(text)] == ["status", "owner", "last tested"]


def test_a_design_docs_stacked_header_states_its_status_and_dates() -> None:
    result = extract("# Design: Feature flag service\n\n**Status**\n\nApproved\n\n**Last updated**\n\n"
                     "4 March 2026\n\n## Goals\n\nOne place for flags.\n\n## Design\n\nA flag service.\n")
    assert stated(result, "status") == ["Status: Approved"]
    assert 'Last updated: 2026-03-04 (written "4 March 2026")' in stated(result, "date")
