"""What a meeting or a log turned down, in its own label or words (concl48): a "Rejected:" item,
an option followed by "Rejected: <why>", and "did not agree to"."""

from __future__ import annotations

from tasks.extract import SourceRef, extract_facts

MINUTES = """# Architecture forum, 24 March 2026

Attendees: Maren, Wen, Tobi

## 1. Scoring cut-over

- **Decision:** remove the synchronous call on 7 April if shadow scores still match.
- Rejected: starting the partner API alpha in parallel with the cut-over. Too many moving parts.
- The board did not agree to raise the cap to 100,000 seeds this year; revisit after the crawl.

## 2. OCR quota

Options we looked at:

- Request a higher quota only. Rejected: AWS granted a 50% raise, not enough for storm days.
- Token bucket in the OCR worker (chosen).

## Action items

- Wen to write the cut-over plan (owner: Wen)
"""


def _rejected(text: str) -> dict[str, int]:
    result = extract_facts(text, SourceRef("x", "wiki/sources/x.md", "raw/x.md", "minutes/2026-03-24.md"))
    return {o.text: o.line_start for o in result.observations if o.text.startswith("Rejected: ")}


def test_a_rejected_label_an_option_s_rejection_and_a_turned_down_proposal_are_rejected() -> None:
    assert _rejected(MINUTES) == {
        "Rejected: starting the partner API alpha in parallel with the cut-over.": 8,
        "Rejected: The board did not agree to raise the cap to 100,000 seeds this year; revisit after the crawl.": 9,
        "Rejected: Request a higher quota only: AWS granted a 50% raise, not enough for storm days.": 15,
    }


def test_a_status_of_rejected_is_no_rejected_option() -> None:
    assert _rejected(MINUTES.replace("- Rejected: starting", "- Status: Rejected. Starting")) == {
        "Rejected: The board did not agree to raise the cap to 100,000 seeds this year; revisit after the crawl.": 9,
        "Rejected: Request a higher quota only: AWS granted a 50% raise, not enough for storm days.": 15,
    }
