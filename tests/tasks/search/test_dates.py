"""Dates on the read side (issue 28): a page's own date, the period a query names, --after and
--before, and dated pages first for a question about a period."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tasks.ingest import apply_ingest, collect_inputs, prepare_batch
from tasks.search.dates import date_bound, page_date, query_period
from tasks.search.query import SearchOptions, search
from tasks.store.errors import InputError
from tasks.store.layout import MemoryLayout
from tasks.store.operation import writing_operation
from tasks.store.settings import load_settings

CHAT = Path(__file__).resolve().parents[2] / "fixtures/relevance/conversations"


@pytest.mark.parametrize(("text", "period"), [
    ("what happened in August 2025?", ("2025-08-01", "2025-08-31")),
    ("what did they say on 2 April 2025", ("2025-04-02", "2025-04-02")),
    ("September 29, 2025 outage", ("2025-09-29", "2025-09-29")),
    ("the 2025-04-02 session", ("2025-04-02", "2025-04-02")),
    ("releases of 2025-02", ("2025-02-01", "2025-02-28")),
    ("late February 2024", ("2024-02-21", "2024-02-29")),
    ("decisions made in 2018", ("2018-01-01", "2018-12-31")),
    ("version 1.2024 of the tool", None),
    ("what replaces MongoDB?", None),
])
def test_the_period_a_query_names(text: str, period: tuple[str, str] | None) -> None:
    assert query_period(text) == period


def test_a_page_date_is_the_documents_own_not_a_write_time() -> None:
    assert page_date({"date": "26/03/2018"}, "x", "") == "2018-03-26"
    assert page_date({}, "Session 3 - 2 April 2025", "") == "2025-04-02"
    assert page_date({}, "Incident review", "On Tuesday 3 March 2020 at 14:05 the API") == "2020-03-03"
    assert page_date({"updated_at": "2026-03-24T22:40:05Z"}, "Notes", "no date here") is None


def test_after_and_before_take_days_months_years_or_fail_in_one_line() -> None:
    assert date_bound("2025-04", "--after", end=False) == "2025-04-01"
    assert date_bound("2025", "--before", end=True) == "2025-12-31"
    assert date_bound("Q3 2024", "--before", end=True) == "2024-09-30"
    with pytest.raises(InputError, match="--after takes a date"):
        date_bound("last tuesday", "--after", end=False)


@pytest.fixture(scope="module")
def chat(tmp_path_factory: pytest.TempPathFactory) -> MemoryLayout:
    base = tmp_path_factory.mktemp("dates")
    shutil.copytree(CHAT, base / "chat")
    settings = load_settings(base / "mem", fixed_clock="2026-03-24T22:40:05Z")
    with writing_operation(settings, "ingest") as operation:
        inputs, problems = collect_inputs([base / "chat"])
        apply_ingest(operation, prepare_batch(inputs, settings), problems)
    return operation.layout


def _titles(layout: MemoryLayout, text: str, **options: object) -> list[str]:
    hits = search(layout, text, SearchOptions(limit=10, **options)).hits  # type: ignore[arg-type]
    return [hit.title for hit in hits]


@pytest.mark.parametrize("semantic", [False, True])
def test_a_question_about_a_period_ranks_the_pages_dated_in_it_first(
        chat: MemoryLayout, semantic: bool) -> None:
    assert _titles(chat, "what happened in August 2025?", semantic=semantic)[0] == \
        "Session 7 - 30 August 2025"
    assert _titles(chat, "what did Maya say in early April 2025", semantic=semantic)[0] == \
        "Session 3 - 2 April 2025"


def test_after_and_before_keep_the_documents_dated_in_the_range(chat: MemoryLayout) -> None:
    titles = _titles(chat, "Maya Tomas", after="2025-06-01", before="2025-08-31")
    assert sorted(titles) == ["Session 6 - 9 June 2025", "Session 7 - 30 August 2025"]
    hits = search(chat, "pottery", SearchOptions(limit=10, before="2025-03-31")).hits
    assert {hit.doc_date for hit in hits} <= {"2025-03-03", "2025-03-17"} and hits


def test_the_mcp_search_takes_since_and_before_as_the_cli_takes_after_and_before(
        chat: MemoryLayout) -> None:
    from tasks.search.surface import batch_search

    answer = batch_search(chat, "Maya Tomas", since="2025-06", before="2025-08")
    assert sorted(h.title for h in answer.resultsByQuery[0].hits) == [
        "Session 6 - 9 June 2025", "Session 7 - 30 August 2025"]
    with pytest.raises(InputError, match="before takes a date"):
        batch_search(chat, "Maya", before="next week")


@pytest.mark.parametrize(("text", "period"), [
    ("what shipped in Q3 2024", ("2024-07-01", "2024-09-30")),
    ("the 2024-Q4 roadmap", ("2024-10-01", "2024-12-31")),
    ("the third quarter of 2024", ("2024-07-01", "2024-09-30")),
    ("first half of 2025", ("2025-01-01", "2025-06-30")),
    ("H2 2023 incidents", ("2023-07-01", "2023-12-31")),
    ("what did we decide in March of 2021", ("2021-03-01", "2021-03-31")),
    ("in March 2021", ("2021-03-01", "2021-03-31")),
    ("a limit of 2000 requests per second", None),
    ("the 2048 ms timeout", None),
])
def test_quarters_halves_and_counts_that_are_not_years(
        text: str, period: tuple[str, str] | None) -> None:
    assert query_period(text) == period


FREEZE_PAGES = {
    # dated in the third quarter of 2024 (front matter), says "freeze" once
    "freeze-q3.md": "---\ndate: 2024-08-14\n---\n# Release notice\n\n"
                    "The deployment freeze starts now; only hotfixes ship.\n",
    # a record dated by its Date field, outside the quarter
    "freeze-q1.md": "# Spring freeze\n\nDate: 2024-02-02\n\nA deployment freeze for the audit.\n",
    # undated: mentions the year and the freeze over and over
    "freeze-plans.md": "# Deployment freeze 2024\n\nThe 2024 deployment freeze: in 2024 the "
                       "deployment freeze covered every 2024 release; deployment freeze rules.\n",
}


@pytest.fixture(scope="module")
def freezes(tmp_path_factory: pytest.TempPathFactory) -> MemoryLayout:
    base = tmp_path_factory.mktemp("freezes")
    (base / "notes").mkdir()
    others = ("caching layer", "pager rotation", "schema migration", "load balancer", "log retention",
              "access review", "backup restore", "feature flags")
    pages = {**FREEZE_PAGES, **{f"other-{n}.md": f"# About the {topic}\n\nNotes on the {topic}.\n"
                                for n, topic in enumerate(others)}}
    for name, text in pages.items():
        (base / "notes" / name).write_text(text, encoding="utf-8")
    settings = load_settings(base / "mem", fixed_clock="2026-03-24T22:40:05Z")
    with writing_operation(settings, "ingest") as operation:
        inputs, problems = collect_inputs([base / "notes"])
        apply_ingest(operation, prepare_batch(inputs, settings), problems)
    return operation.layout


@pytest.mark.parametrize("semantic", [False, True])
def test_a_page_dated_in_the_period_beats_a_page_that_merely_mentions_the_year(
        freezes: MemoryLayout, semantic: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    for question in ("deployment freeze in Q3 2024", "deployment freeze in August 2024",
                     "deployment freeze on 2024-08-14"):
        assert _titles(freezes, question, semantic=semantic)[0] == "Release notice"
    assert _titles(freezes, "deployment freeze in Q1 2024", semantic=semantic)[0] == "Spring freeze"
    # without the period step, the page that repeats the year and the words wins
    monkeypatch.setattr("tasks.search.query.query_period", lambda _text: None)
    assert _titles(freezes, "deployment freeze in Q3 2024", semantic=semantic)[0] == \
        "Deployment freeze 2024"


@pytest.mark.parametrize("semantic", [False, True])
def test_a_query_that_names_no_date_ranks_exactly_as_without_the_period_step(
        freezes: MemoryLayout, semantic: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    questions = ("deployment freeze", "a freeze of 2000 requests", "hotfixes during the freeze")
    before = [search(freezes, q, SearchOptions(limit=10, semantic=semantic)).hits for q in questions]

    def never(*_args: object) -> object:
        raise AssertionError("a query naming no date has no period to rank by")

    monkeypatch.setattr("tasks.search.query.in_period_first", never)
    after = [search(freezes, q, SearchOptions(limit=10, semantic=semantic)).hits for q in questions]
    assert after == before and all(before)
