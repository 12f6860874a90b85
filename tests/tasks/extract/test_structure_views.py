"""The views a Structure builds once and shares with every reader of its document
(tasks/extract/structure.py: by_number, text, written, holding, remembered), and the readers
that visit only the lines `holding` names: the same answers as a walk over every line."""

from __future__ import annotations

import random

from tasks.extract.document_people import task_owner_cells
from tasks.extract.genre_text import clean_lines, clean_visible
from tasks.extract.genres import decision_rows
from tasks.extract.stack_names import tech_cells
from tasks.extract.structure import Structure, scan

PAGE = """# Ledger service

Setext title
============

Owner: Payments team (Ana)

```text
| not | a table |
[ref]: https://example.org/in-code
```

| Task | Owner |
|------|-------|
| Rotate keys | Ana Lima |
Not a row: the table ended above.
| Drop the cache | Ben Okafor |

[ref]: https://example.org/x
The **Ledger** writes `ledger-sync` jobs.
"""


def _structure(text: str = PAGE) -> Structure:
    return scan(text.split("\n"), 1)


def test_views_equal_what_each_reader_built_from_visible() -> None:
    structure = _structure()
    assert structure.by_number == dict(structure.visible)
    assert structure.text == "\n".join(line for _, line in structure.visible)
    assert structure.written == [(n, line) for n, line in structure.visible if n not in structure.heading_lines]
    assert all("```" not in line and "in-code" not in line for _, line in structure.visible)  # code is not visible
    assert 4 in structure.heading_lines and (4, "============") not in structure.written


def test_views_are_built_once_and_shared() -> None:
    structure = _structure()
    assert structure.by_number is structure.by_number
    assert structure.written is structure.written
    assert structure.holding("|") is structure.holding("|")
    calls: list[Structure] = []

    def build(given: Structure) -> int:
        calls.append(given)
        return len(given.visible)

    assert structure.remembered(build) == structure.remembered(build) == len(structure.visible)
    assert calls == [structure]
    assert _structure().remembered(build) == len(structure.visible) and len(calls) == 2  # per document


def test_holding_names_every_line_that_holds_a_needle_and_no_other() -> None:
    structure = _structure()
    for needles in [("|",), ("[",), ("**", "`"), (")",), ("Owner", "owner"), ("absent",), ("e", "|")]:
        expected = {index for index, (_, line) in enumerate(structure.visible)
                    if any(needle in line for needle in needles)}
        assert structure.holding(*needles) == expected, needles


def test_holding_matches_a_scan_of_each_line_on_random_pages() -> None:
    rng = random.Random(7)
    pieces = ["| a | b |", "|---|---|", "x [y](z)", "plain words", "", "# Head", "a ) b", "`c`", "||", "[", "|"]
    for _ in range(200):
        lines = [rng.choice(pieces) for _ in range(rng.randint(0, 12))]
        structure = scan(lines, 1)
        for needle in ("|", "[", ")", "`"):
            expected = {i for i, (_, line) in enumerate(structure.visible) if needle in line}
            assert structure.holding(needle) == expected


def test_a_line_without_a_bar_ends_a_table_for_the_gated_readers() -> None:
    structure = _structure()
    assert task_owner_cells(structure) == [(15, "Ana Lima")]  # the row after the prose line is no task's
    page = ("| Component | Tech |\n|---|---|\n| api | Kotlin |\nplain line\n| worker | Rust |\n\n"
            "**Language:** Go 1.23\n")
    names = {hits[0][1] for hits in tech_cells(_structure(page)).values()}
    assert names == {"Kotlin", "Go"}  # not "Rust": its header is not above it any more


def test_decision_rows_reads_the_line_before_a_row_whatever_it_holds() -> None:
    page = ("| Date | Decision | Owner |\n|---|---|---|\n| 2024-06-03 | Adopt Renovate | Ana |\n"
            "text between\n| 2024-06-04 | Drop the cron | Ben |\n")
    # the second row opens a table of its own: its first row is read as a header
    assert decision_rows(_structure(page)) == [3]


def test_clean_visible_is_the_whole_document_cleaned_once() -> None:
    page = ("# Runbook\n\n<!-- an instruction\nstill the comment -->\nKept line.\n\n"
            "- [ ] Reviewed by the team\n[Describe the alert here.]\nThe alert fires.\n")
    structure = _structure(page)
    cleaned = clean_visible(structure)
    assert cleaned == clean_lines(structure.visible)
    assert clean_visible(structure) is cleaned  # shared by the readers of the document
    assert (5, "Kept line.") in cleaned and (4, "") in cleaned and (7, "") in cleaned


def test_an_owning_team_column_is_read_as_a_task_owner_column() -> None:
    """A components table's "Owning team" (or "Team") column names who owns each row, as an
    action table's "Owner" column does."""
    page = ["| Container | Responsibility | Owning team |", "|---|---|---|",
            "| Event bus | Carries events | Platform SRE |", "", "| Service | Team |", "|---|---|",
            "| mobile-bff | Mobile |"]
    assert task_owner_cells(scan(page, 1)) == [(3, "Platform SRE"), (7, "Mobile")]
