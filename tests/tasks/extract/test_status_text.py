"""A stated status as recorded: the status, with the text as written beside it when it says
when or by whom the status was reached (issue 23 item 2; the forms of public ADRs and design
docs: "Status: accepted (2026-08-09)", "Status: accepted on 2026-09-21", MADR's "superseded by
ADR-0123", a status list with a date per step)."""

from __future__ import annotations

import pytest

from tasks.extract.status_text import (
    badge_status,
    emoji_status,
    is_pointer,
    normalised_status,
    status_observation,
    title_status,
    without_status_macros,
)


@pytest.mark.parametrize(
    ("written", "status"),
    [
        ("Accepted (2025-03-12)", "Accepted"),  # the day it was reached, in brackets
        ("Decided, 2025-04-09.", "Decided"),  # after a comma
        ("accepted on September 1, 2026.", "accepted"),
        ("Accepted (expires 2025-12-31)", "Accepted"),  # a dated aside
        ("Recommendation accepted by the programme board on March 17th, 2025", "Recommendation accepted"),
        ("approved by user (2026-08-28)", "approved"),
        ("accepted (2026-08-09). Scope: events.", "accepted"),  # the next field of the line is not the status
        ("Proposed (2021-09-02); Accepted (2021-10-01)", "Accepted"),  # the last step is current
        ("Replaced by [CEP-0014: FHIR Subscriptions for result notification", "Replaced by CEP-0014"),
        ("Superseded by ADR-0123: Use Kafka", "Superseded by ADR-0123"),
        # what replaced it, then an aside and a sentence of history (a Status section's paragraph)
        ("Superseded by ADR-019 (June 2024). Kept for history.", "Superseded by ADR-019"),
        ("Approved by the Architecture Board, 11 March 2025", "Approved"),  # who, a comma, the day
        # the release it was reached for, and an aside saying by whom and when
        ("approved for the 2024.2 release cycle (Station Systems review, 18 March 2024).", "approved"),
        # the version a draft has reached, and a note to its readers after a dash
        ("DRAFT (v0.3) – for the Friday review, please comment inline", "DRAFT"),
        ("Draft (version 2)", "Draft"),
        ("In review — see the pull request for comments", "In review"),
        # a retired status that points to its successor after a dash
        ('Superseded — see "Queues on Kafka" (forum, May 2025)', "Superseded"),
    ],
)
def test_when_and_by_whom_are_not_the_status(written: str, status: str) -> None:
    assert normalised_status(written) == status


@pytest.mark.parametrize(
    "written",
    [
        "Final, reviewed at the Integration weekly on 2025-03-18",  # a second statement, not a date
        "Final, action items in progress",
        "Resolved - actions in progress",
        "Approved with conditions",
        "Draft (v0.3) with the pricing section still missing",  # more than its version
        "Approved - pending a security review",  # a condition after the dash, not a note
        "Approved for on-call use",
        "Known Error - permanent fix scheduled",
        "Superseded by ADR-0011",
        "Superseded by ADR-0019 on 2024-03-01",  # what replaced it is the status's own
        "Approved by the security team",  # who, without a day: said as written
        "Accepted for the next release only if the load test passes",  # a condition after the release
        "implementable",
    ],
)
def test_a_status_that_says_more_stays_as_written(written: str) -> None:
    assert normalised_status(written) == written


def test_the_observation_keeps_the_text_as_written() -> None:
    fact = status_observation("Accepted  (2025-03-12)", 5, 5)
    assert fact.text == 'Status: Accepted (written "Accepted (2025-03-12)")'
    assert (fact.line_start, fact.line_end, fact.kind) == (5, 5, "status")
    assert status_observation("Accepted", 3, 4).text == "Status: Accepted"


@pytest.mark.parametrize(
    ("title", "status"),
    [
        ("[ACCEPTED] Use Kafka for events", "ACCEPTED"),
        ("Use Kafka for events [Draft]", "Draft"),
        ("Use Kafka for events (Superseded)", "Superseded"),
        ("Use Kafka (v2) for events", None),  # brackets that are no status
        ("Use [Kafka] for events", None),
        ("Use Kafka for events", None),
    ],
)
def test_a_titles_status_mark(title: str, status: str | None) -> None:
    assert title_status(title) == status


@pytest.mark.parametrize(
    ("line", "status"),
    [
        ("![status](https://img.shields.io/badge/status-accepted-green)", "accepted"),
        ("[![Status](https://img.shields.io/badge/Status-in_review-yellow.svg)](../README.md)", "in review"),
        ("![](https://img.shields.io/static/v1?label=stage&message=proposed&color=blue)", "proposed"),
        ("![build](https://img.shields.io/badge/build-passing-green)", None),  # another label
        ("Status: accepted", None),
    ],
)
def test_a_status_badge(line: str, status: str | None) -> None:
    assert badge_status(line) == status


@pytest.mark.parametrize(
    ("line", "status"),
    [
        ("✅ Accepted · 2024-03-01", "Accepted"),
        ("🟢 Approved", "Approved"),
        ("🚧 Draft — comments welcome", "Draft"),
        ("✅ We accepted the plan", None),  # a sentence, not a mark
        ("Accepted", None),
        ("- ✅ done", None),  # a checklist's item
    ],
)
def test_an_emoji_status_mark(line: str, status: str | None) -> None:
    assert emoji_status(line) == status


def test_a_status_lozenge_is_its_title() -> None:
    row = "| Status | {status:colour=Green|title=ACCEPTED} |"
    assert without_status_macros(row) == "| Status | ACCEPTED |"
    assert without_status_macros("| Status | Accepted |") == "| Status | Accepted |"


@pytest.mark.parametrize(
    ("written", "expected"),
    [
        # a status's history written on its line (stat49): the steps left struck through, or
        # arrowed to the current one
        ("~~Proposed~~ Accepted", "Accepted"),
        ("~~Draft~~ ~~Proposed~~ Accepted", "Accepted"),
        ("Proposed -> Accepted", "Accepted"),
        ("Proposed → Accepted (2026-03-10)", "Accepted"),
        ("Draft => In review", "In review"),
        # an arrow between words that are no steps of a status stays as written
        ("Accepted -> migration in Q3", "Accepted -> migration in Q3"),
        ("~~Accepted~~", "~~Accepted~~"),  # nothing left but the struck step: as written
    ],
)
def test_a_status_history_on_one_line_is_its_last_step(written: str, expected: str) -> None:
    assert normalised_status(written) == expected


def test_a_struck_through_history_keeps_the_text_as_written() -> None:
    fact = status_observation("~~Proposed~~ Accepted", 5, 5)
    assert fact.text == 'Status: Accepted (written "~~Proposed~~ Accepted")'


@pytest.mark.parametrize(
    ("value", "expected"),
    [("see the checklist below", True), ("See below", True), ("(see the tracker)", True),
     ("refer to the incident channel", True), ("Seen in production", False), ("Accepted", False),
     ("Resolved, see the timeline", False)],
)
def test_a_status_field_that_only_points_elsewhere_states_none(value: str, expected: bool) -> None:
    assert is_pointer(value) is expected


@pytest.mark.parametrize(
    ("written", "expected"),
    [
        ("Superseded by ADR 12 on 2025-11-03.", "Superseded by ADR 12 on 2025-11-03"),  # a sentence's stop
        ("~~Accepted~~ Superseded by ADR 12 on 2025-11-03.", "Superseded by ADR 12 on 2025-11-03"),
        ("Withdrawn, replaced by Carrier rates v2", "Withdrawn"),  # what replaced it is a link, not the status
        ("Deprecated; superseded by ADR-9", "Deprecated"),
        ("Accepted, and shipped in 4.2", "Accepted, and shipped in 4.2"),  # a clause that says more stays
        ("Superseded by ADR-9, replaced by nothing else", "Superseded by ADR-9, replaced by nothing else"),
    ],
)
def test_a_status_ends_before_its_full_stop_and_before_what_replaced_it(written: str, expected: str) -> None:
    assert normalised_status(written) == expected
