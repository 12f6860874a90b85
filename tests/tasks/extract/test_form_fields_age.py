"""A page's age stamp ("Last updated 4 days ago") read against the export day printed beside it."""

from __future__ import annotations

import pytest

from tasks.extract.form_fields_age import aged_day
from tests.extraction import extract, stated


@pytest.mark.parametrize(("line", "expected"), [
    ("Last updated 4 days ago · Exported from GitBook on 24 Nov 2026", "2026-11-20"),
    ("Last updated a week ago | Printed on 3 March 2026", "2026-02-24"),
    ("Last updated yesterday · Exported on 2026-01-01", "2025-12-31"),
    ("Last updated 4 days ago", None),  # no export day to count back from
    ("Last updated 4 days ago · Owner: Search team", None),
])
def test_an_age_counts_back_from_the_export_day_on_its_line(line: str, expected: str | None) -> None:
    clause = line.split("·")[0].split("|")[0]
    found = aged_day(clause, line)
    assert (found[0] if found else None) == expected


def test_a_gitbook_exports_footer_dates_the_pages_last_update() -> None:
    text = ("# Checkout overview\n\nHow a basket becomes an order.\n\n## Request path\n\n"
            "The web client calls the checkout API.\n\n"
            "<sub>Last updated 3 days ago · Exported from GitBook (Shop space) on 10 Jun 2025</sub>\n")
    dates = stated(extract(text, "architecture/checkout.md"), "date")
    assert any(d.startswith("Last updated: 2025-06-07") for d in dates), dates
