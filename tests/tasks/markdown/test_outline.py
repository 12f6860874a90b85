"""Outline helpers: the setext gate of the ATX fast path, and the first prose sentence."""

from __future__ import annotations

import pytest

from tasks.markdown.outline import first_sentence, may_hold_setext_heading, without_bom


@pytest.mark.parametrize(("text", "expected"), [
    ("Incident review\n===============\n\nIt broke.\n", True),
    ("Intro paragraph\n---\n", True),  # "---" under a paragraph line is an h2, not a rule
    ("   Indented title\n   ===\n", True),
    ("# Title\n\nText.\n\n---\n\nMore.\n", False),  # a rule after a blank line
    ("| a | b |\n| --- | --- |\n", False),  # a table's delimiter row
    ("---\ntitle: x\n---\n\n# Title\n", False),  # front matter: the caller starts past it
    ("x\n= not an underline\n", False),
])
def test_the_setext_gate_sees_every_underline_and_no_rule(text: str, expected: bool) -> None:
    start = text.find("\n---\n", 3) + 5 if text.startswith("---\n") else 0
    assert may_hold_setext_heading(text, start) is expected


def test_front_matter_closing_line_is_not_an_underline_past_the_start() -> None:
    text = "---\ntitle: x\n---\n\nBody text.\n"
    assert may_hold_setext_heading(text) is True  # from 0, "title: x" over "---" looks like one
    assert may_hold_setext_heading(text, text.index("Body")) is False


def test_the_first_sentence_skips_a_setext_heading() -> None:
    text = "Outage of the login service\n===========================\n\nLogins failed. More.\n"
    assert first_sentence(text, markdown=True) == "Logins failed."
    subtitle = "Notes\n-----\nThe cache was cold. It warmed.\n"
    assert first_sentence(subtitle, markdown=True) == "The cache was cold."
    assert first_sentence("Logins failed.\n", markdown=True) == "Logins failed."


def test_the_first_sentence_skips_a_block_of_header_fields() -> None:
    # the SRE book's postmortem header: "Status:", "Date:" lines before the first prose
    text = "# Outage\n\nStatus: Complete, action items in progress\nDate: 2026-03-03\n\nLogins failed. More.\n"
    assert first_sentence(text, markdown=True) == "Logins failed."
    assert first_sentence("**Authors:** Ana\n**Status:** Draft\n\nWe cache it.\n", markdown=True) == "We cache it."
    # one labelled line of prose is prose
    assert first_sentence("Summary: logins failed. More.\n", markdown=True) == "Summary: logins failed."


def test_crlf_and_a_byte_order_mark_hide_no_setext_heading() -> None:
    assert may_hold_setext_heading("Login outage\r\n============\r\n\r\nText.\r\n")
    assert without_bom("\ufeff# Title\n") == "# Title\n" and without_bom("# Title\n") == "# Title\n"
