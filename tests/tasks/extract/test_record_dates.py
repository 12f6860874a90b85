"""Dates in the forms decision records write them; a date is never guessed."""

from __future__ import annotations

import pytest

from tasks.record_dates import day_first_hint, find_date


@pytest.mark.parametrize(
    ("text", "day_first", "expected"),
    [
        ("2017-06-30", None, "2017-06-30"),
        ("2017/6/3", None, "2017-06-03"),
        ("30/06/2017", None, "2017-06-30"),  # 30 cannot be a month
        ("06/30/2017", None, "2017-06-30"),
        ("05/03/2021", True, "2021-03-05"),  # day-first, as the record's other dates show
        ("05/03/2021", False, "2021-05-03"),
        ("05/03/2021", None, "05/03/2021"),  # both readings possible: kept as written
        ("04.03.2021", True, "2021-03-04"),
        # dots are written day-first (stat49: "Date: 09.03.2026", "Date: 3.2.2026"), unless the
        # record's other dates say month-first
        ("09.03.2026", None, "2026-03-09"),
        ("3.2.2026", None, "2026-02-03"),
        ("3.2.2026", False, "2026-03-02"),
        ("sensor agent build 3.3.2026.1", None, None),  # a version, not a date
        # a year with its century elided beside a month's name (stat49: "*Decided Mar 3 '26 by ...*")
        ("Decided Mar 3 '26 by the Data Platform group", None, "2026-03-03"),
        ("3 Mar ’26", None, "2026-03-03"),
        ("Mar 3 '26a", None, None),
        ("rock'n'roll on Mar 3 at '26", None, None),
        ("4 March 2021", None, "2021-03-04"),
        ("4th of March, 2021", None, "2021-03-04"),
        ("March 4, 2021", None, "2021-03-04"),
        ("Sept 14 2017", None, "2017-09-14"),
        ("Accepted on 14 Sep 2017 by the team", None, "2017-09-14"),
        ("March 2021", None, None),  # no day stated: no date
        ("31/02/2021", True, None),  # no such day
        ("release v10.2.2021", None, None),  # part of a version, not a date
        ("", None, None),
        ("10/04/18", True, "2018-04-10"),  # a two-digit year (issue 23)
        ("26/03/98", None, "1998-03-26"),
        ("10/04/18", None, "10/04/18"),  # both readings possible: kept as written
    ],
)
def test_find_date(text: str, day_first: bool | None, expected: str | None) -> None:
    assert find_date(text, day_first) == expected


def test_compact_dates_only_where_a_date_field_states_them() -> None:
    assert find_date("20200924", None, compact=True) == "2020-09-24"
    assert find_date("20200924", None) is None


@pytest.mark.parametrize(
    ("texts", "expected"),
    [
        (["Date: 03/04/2019", "reviewed 25/04/2019"], True),
        (["Date: 03/04/2019", "reviewed 04/25/2019"], False),
        (["Date: 03/04/2019"], None),
        (["Date: 2019-04-03"], None),
        # the weekday written beside a date settles it: 4 November 2025 is a Tuesday, 11 April a Friday
        (["Incident date: 04/11/2025 (Tuesday), retro held 11/11/2025"], True),
        (["Tuesday 11/04/2025"], False),
        (["Friday 04/11/2025"], False),
        (["Monday 04/11/2025"], None),  # neither reading is a Monday: no evidence
        (["Mon 03/03/2025"], None),  # both readings are one day
    ],
)
def test_day_first_comes_from_the_records_own_dates(texts: list[str], expected: bool | None) -> None:
    assert day_first_hint(texts) is expected


def test_the_hint_for_lines_asked_again_is_the_same_and_a_generator_is_read_whole() -> None:
    """day_first_hint remembers the answer for the lines asked last: asked again (a list, then a
    generator of the same lines) it gives the same answer; other lines get their own."""
    day_first = ["Notes of the review", "Date: 26/03/2018", "Next: 05/04/2018"]
    month_first = ["Date: 03/26/2018"]
    assert day_first_hint(day_first) is True
    assert day_first_hint(line for line in day_first) is True
    assert day_first_hint(month_first) is False
    assert day_first_hint(["Date: 05/04/2018"]) is None
    assert day_first_hint(day_first) is True


@pytest.mark.parametrize(
    ("texts", "expected"),
    [(["Date: 03/09/2026", "- 11 days of aggregates recomputed (23/08 to 02/09)."], True),
     (["Date: 03/09/2026", "Aggregates recomputed 08/23 through 09/02."], False),
     # a full date's order wins over a day and month alone
     (["Date: 03/09/2026", "Reviewed 09/14/2026", "(23/08 to 02/09)"], False),
     # ratios, fractions and rotas are no days
     (["Date: 03/09/2026", "On call 24/7, a 50/50 split, 3/4 of nodes, 16/9 screens, 31/05%"], None),
     (["Date: 03/09/2026", "see runbooks/23/08-x and v1.23/08"], None)],
)
def test_a_day_and_month_without_a_year_settles_the_order(texts: list[str], expected: bool | None) -> None:
    assert day_first_hint(texts) is expected
    if expected is not None:
        assert find_date(texts[0], expected) == ("2026-09-03" if expected else "2026-03-09")


@pytest.mark.parametrize(
    ("texts", "expected"),
    [(["| DL-12 | 08/09/26 | GPS clock |", "> Dates are DD/MM/YY."], True),
     (["Date format: MM/DD/YYYY", "| 08/09/26 | GPS clock |"], False),
     # the stated order wins over a date that contradicts it by mistake
     (["Dates are written DD-MM-YYYY.", "Drafted 09/14/2026"], True),
     (["The ADD/MMX flags", "xDD/MMy", "Created 08/09/26"], None)],
)
def test_a_stated_date_format_settles_the_order(texts: list[str], expected: bool | None) -> None:
    assert day_first_hint(texts) is expected
