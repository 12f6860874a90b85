"""Entity names do not depend on where a team hard-wraps its prose (issue 23 item 4): a name
broken across a line end ("Azure Load\nTesting") is one name, and a document re-wrapped at
another width (or one line per paragraph) gives the same entities. The full comparison over
every development set is benchmarks/bench_rewrap.py (45 differences left, classed there)."""

from __future__ import annotations

import pytest

from tests.rewrap_documents import UNWRAPPED, differences, entities_of, rewrap, set_documents

WIDTHS = (60, 80, UNWRAPPED)

PAGE = """# Load test platform

## Overview

The load test platform runs nightly load tests of the checkout service on Azure Load
Testing. Results land in Azure Blob Storage, and the nightly jobs are scheduled by Apache
Airflow. The Platform team owns the platform; Platform reviews every change to the test plans.

## Components

The runner starts each test from the pipeline. Azure Load Testing streams its metrics to the
dashboard, and the Grid Data team reads the results from Azure Blob Storage every morning.
Airflow retries a failed job twice.
"""


def test_rewrap_fills_paragraphs_only() -> None:
    text = ("---\ntitle: A page\n---\n# Heading that is long\n\nOne two three\nfour five.\n\n"
            "- item one\n  continued\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n```\ncode\nlines\n```\n\n"
            "Owner: Ana\nStatus: Draft\n")
    assert rewrap(text, UNWRAPPED) == text.replace("One two three\nfour five.", "One two three four five.")
    assert rewrap(text, 10).count("\n") == text.count("\n") + 1  # "One two" / "three four" / "five."


def test_rewrap_never_opens_a_block() -> None:
    wrapped = rewrap("We counted - 3 of them and # 4 more.\n", 10)
    assert wrapped == "We counted -\n3 of them\nand # 4\nmore.\n"
    assert all(not line.startswith(("-", "#")) for line in wrapped.split("\n"))


def test_a_name_across_a_line_end_is_one_name() -> None:
    names = {name for name, _ in entities_of(PAGE, "load-test-platform.md")}
    assert {"Azure Load Testing", "Apache Airflow", "Platform team", "Grid Data team"} <= names
    assert not names & {"Azure Load", "Airflow", "Platform", "Grid Data", "Azure Blob"}


@pytest.mark.parametrize("width", WIDTHS)
def test_the_page_rewrapped_gives_the_same_entities(width: int) -> None:
    assert entities_of(rewrap(PAGE, width), "p.md") == entities_of(PAGE, "p.md")


@pytest.mark.parametrize("name", ["dev5", "heldout2"])
def test_a_development_set_rewrapped_gives_the_same_entities(name: str) -> None:
    found = [diff for path in set_documents(name) for diff in differences(path, WIDTHS)]
    assert found == []
