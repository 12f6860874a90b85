"""A day written without its year, dated by the document's own full dates (issue 23 item 2:
minutes titled "Architecture forum — Tue 17 Mar", a write-up that opens "On the 3rd of March")."""

from __future__ import annotations

from datetime import date

import pytest

from tasks.extract.yearless_dates import anchor_date, title_year, yearless_date

ANCHOR = date(2026, 3, 3)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Lumen architecture forum — Tue 17 Mar", ("2026-03-17", "Tue 17 Mar")),
        ("On the 3rd of March checkout failed", ("2026-03-03", "the 3rd of March")),
        ("Tuesday, March 17: platform sync", ("2026-03-17", "Tuesday, March 17")),
        ("Retro of 30 December", ("2025-12-30", "30 December")),  # nearest the anchor: the year before
    ],
)
def test_the_year_is_the_one_nearest_the_documents_own_date(text: str, expected: tuple[str, str]) -> None:
    assert yearless_date(text, ANCHOR) == expected


@pytest.mark.parametrize(
    "text",
    [
        "Mon 17 Mar",  # 17 March 2026 is a Tuesday: the weekday says another year
        "17 March 2026",  # a whole date, read elsewhere
        "March 17th, 2025",
        "Step 3 may fail",  # "may" is no month
        "Version 2.17 Mar",
    ],
)
def test_no_day_is_read_when_the_text_does_not_say_one(text: str) -> None:
    assert yearless_date(text, ANCHOR) is None


def test_nothing_is_read_without_an_anchor() -> None:
    assert yearless_date("Platform sync — Tue 17 Mar", None) is None
    assert yearless_date("the 3rd of March", ANCHOR, at_start=True) is not None
    assert yearless_date("it failed on the 3rd of March", ANCHOR, at_start=True) is None


def test_the_anchor_is_the_first_whole_iso_date() -> None:
    assert anchor_date(["Attendees: Ana", "Previous minutes: 2026-03-03 (approved)", "2025-01-01"]) == ANCHOR
    assert anchor_date(["2026-02-30 is no day", "v1.2026-03-03x"]) is None


@pytest.mark.parametrize(
    ("title", "expected"),
    [
        ("Incident review 2026: Northgate telemetry loss", date(2026, 7, 2)),
        ("Offsite 2025", date(2025, 7, 2)),
        ("Roadmap 2025 to 2026", None),  # two years: neither is the page's
        ("Incident review 2026-01", None),  # a month, read as a date elsewhere
        ("Release v2026.1 notes", None),  # part of a version
        ("Postmortem: pump telemetry loss", None),
    ],
)
def test_a_year_a_title_names_alone_anchors_its_days(title: str, expected: date | None) -> None:
    assert title_year(title) == expected


def test_a_day_of_the_titled_year_is_read_in_that_year() -> None:
    anchor = title_year("Incident review 2026")
    assert yearless_date("9 February", anchor, at_start=True) == ("2026-02-09", "9 February")
    assert yearless_date("31 December", anchor, at_start=True) == ("2026-12-31", "31 December")


def test_a_month_and_year_in_the_opening_lines_anchors_a_story_day() -> None:
    # an Etsy-style debrief's byline "_Elm Prairie location, April 2026._" over "On Tue 7 Apr ..."
    from tasks.extract.yearless_dates import month_year

    anchor = month_year(["_Elm Prairie location, April 2026. Facilitated by Tomasz W."])
    assert anchor == date(2026, 4, 15)
    assert yearless_date("Tue 7 Apr a temperature cable", anchor, at_start=True) == ("2026-04-07", "Tue 7 Apr")
    assert month_year(["From March 2025 to May 2026 the bins ..."]) is None  # two months: no anchor
    assert month_year(["We may 2026 see"]) is None  # a month's name has its capital
    assert month_year(["Release 3.4 2026 notes", "no month here"]) is None
    # the month of a whole date is no month named alone (an e-mail's "Sent: Tue 15 Sep 2026 19:12")
    assert month_year(["Sent: Tue 15 Sep 2026 19:12"]) is None
    assert month_year(["the 3rd of March 2026", "15th March 2026"]) is None
