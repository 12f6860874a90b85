"""One vocabulary of date fields' names (tasks/extract/date_fields.py): which of a document's
dates a field holds by the words of its name, read after the exact names genre_meta knows."""

from __future__ import annotations

import pytest

from tasks.extract.date_fields import MAIN, OTHER, REVIEWED, UPDATED, WRITTEN, date_role
from tests.extraction import extract, stated


@pytest.mark.parametrize(("key", "role"), [
    ("date opened", MAIN), ("incident window", MAIN), ("dates", MAIN), ("detected at", MAIN),
    ("authored", WRITTEN), ("report issued", WRITTEN), ("last edited time", UPDATED),
    ("date changed", UPDATED), ("last audited", REVIEWED), ("next review", OTHER),
    ("resolved at", OTHER), ("target go live date", OTHER), ("owner", None), ("severity", None),
    ("lookup fails closed", OTHER), ("review held", MAIN), ("date reviewed", REVIEWED),
    ("date published", WRITTEN),
])
def test_a_date_fields_words_say_which_date_it_holds(key: str, role: str | None) -> None:
    assert date_role(key) == role


PAGE = """---
title: Unified retries
{key}: {value}
---

# Unified retries

## Summary

One retry policy for all clients.

## Design

Exponential backoff with jitter.
"""


@pytest.mark.parametrize(("key", "value", "date"), [("authored", "2026-01-11", "2026-01-11"),
                                                    ("date_opened", "11 January 2026", "2026-01-11")])
def test_a_pages_own_day_under_a_name_no_list_knows_is_its_date(key: str, value: str, date: str) -> None:
    dates = stated(extract(PAGE.format(key=key, value=value)), "date")
    assert dates and dates[0].split(": ", 1)[1].startswith(date), dates


def test_a_day_that_is_not_the_pages_is_never_its_date() -> None:
    for key in ("go_live_target", "retirement", "expected_end"):
        assert stated(extract(PAGE.format(key=key, value="2026-09-01")), "date") == []


INCIDENT = """# Postmortem: Storage latency

{fields}
Severity: SEV2

## Summary

Disk latency rose for a day.

## Root cause

A noisy neighbour on the shared array.

## Resolution

The volume moved to another array.
"""


def test_an_incidents_day_under_another_name_and_never_the_write_ups_day() -> None:
    found = stated(extract(INCIDENT.format(fields="Incident window: 2026-02-03 22:10 – 2026-02-04 01:30")), "date")
    assert found[0].startswith("Incident date: 2026-02-03"), found
    # when the write-up was issued is not when the incident happened
    assert stated(extract(INCIDENT.format(fields="Report issued: 2026-02-20")), "date") == []


def test_a_meetings_day_as_its_notes_open_with_it() -> None:
    result = extract("# Quarterly architecture review\n\nThe review was held on 9 March 2026 with all tech leads.\n\n"
                     "## Decisions\n\n- We standardise on OpenTelemetry.\n")
    assert stated(result, "date")[0].startswith("Date: 2026-03-09"), stated(result, "date")
