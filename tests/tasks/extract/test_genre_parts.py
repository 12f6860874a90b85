"""House styles of proposals, architecture pages and decision logs (issue 23 items 2-3, concl36d):
a PEP header kept in a code fence, Goals / Drawbacks / Alternatives sections, a PR/FAQ's answers,
a C4 container page, a service README, and a decision log kept as one table. The documents are
tests/fixtures/distill/house36d (written from public templates before the code)."""

from __future__ import annotations

from pathlib import Path

from tasks.extract import Extraction, SourceRef, extract_facts
from tasks.extract.genre_parts import figure_rows

HOUSE = Path(__file__).resolve().parents[2] / "fixtures" / "distill" / "house36d"


def _extract(name: str) -> Extraction:
    return extract_facts((HOUSE / name).read_text(encoding="utf-8"),
                         SourceRef("x", "wiki/sources/x.md", "raw/x.md", name))


def _observed(result: Extraction) -> dict[str, tuple[int, int]]:
    return {o.text: (o.line_start, o.line_end) for o in result.observations}


def test_a_pep_header_in_a_code_fence_is_the_header_block() -> None:
    result = _extract("proposals/pep-0021-warehouse-export-format.md")
    observed = _observed(result)
    assert result.title == "Columnar export format for the billing warehouse"
    assert observed["Status: Superseded"] == (5, 5)
    assert any(o.startswith("Created: 2023-03-03") for o in observed)
    assert any(o.startswith("Why superseded: This PEP was superseded by") for o in observed)
    assert observed["Rejected: Keeping CSV with gzip: loads take four hours and the schema is lost on every "
                    "change."] == (32, 32)


def test_goals_drawbacks_and_each_rejected_alternative_of_a_proposal() -> None:
    observed = _observed(_extract("proposals/pep-0024-parquet-exports.md"))
    assert observed["Goal: Let Trino and Spark read the export without a conversion job."] == (13, 13)
    assert any(o.startswith("Drawback: Parquet files cannot be appended to") for o in observed)
    rejected = [o for o in observed if o.startswith("Rejected: ")]
    assert len(rejected) == 2 and rejected[1].startswith("Rejected: Avro: rejected")


def test_a_pr_faq_answers_read_by_their_questions() -> None:
    observed = _observed(_extract("proposals/invoice-preview-prfaq.md"))
    assert any(o.startswith("Summary: Customers see their next invoice before it is sent.") for o in observed)
    assert any(o.startswith("Design: A preview page in the portal") for o in observed)
    assert any(o.startswith("Rationale: Support tickets show") for o in observed)
    assert observed["Constraint: A preview must never show usage of another tenant."] == (28, 28)
    assert any(o.startswith("Non-goal: Previews for invoices paid by bank transfer") for o in observed)
    assert not any("[ ]" in o or "Security review" in o for o in observed)  # the review check-boxes


def test_a_c4_container_page_is_an_architecture_page_with_constraints_and_gaps() -> None:
    result = _extract("architecture/ledger-containers.md")
    assert result.subject is not None and result.subject.explicit_type
    observed = _observed(result)
    assert observed["Constraint: invoice-drafts runs as a single instance because draft numbers are allocated "
                    "in memory."] == (25, 25)
    assert sum(o.startswith("Gap: ") for o in observed) == 2


def test_a_service_readme_responsibilities_slos_and_what_it_does_not_do() -> None:
    observed = _observed(_extract("architecture/invoice-drafts-README.md"))
    assert sum(o.startswith("Responsibility: ") for o in observed) == 2
    assert observed["SLO: Draft freshness under 90 minutes: 99% of hours"] == (26, 26)
    assert any(o.startswith("Non-goal: invoice-drafts does not send invoices") for o in observed)


def test_a_decision_log_kept_as_one_table_gives_each_dated_row() -> None:
    result = _extract("minutes/billing-decision-log.md")
    assert result.subject is not None and not result.record_role  # not a log's index page
    decisions = {o.text: o.line_start for o in result.observations if o.text.startswith("Decision: ")}
    assert len(decisions) == 4  # the blank row to copy (YYYY-MM-DD) is not one
    assert decisions["Decision: Use Parquet for the nightly export instead of ORC. (2023-04-25; owner: Dana "
                     "Whitfield; status: active)"] == 8
    assert not any(o.text.startswith(("Status: ", "Meeting date: ")) for o in result.observations)
    assert any(o.text.startswith("Rejected: ") and "TimescaleDB was considered and rejected" in o.text
               for o in result.observations)


# An arc42 building block view whose blackboxes write their parts as run-in labels in emphasis
# (arc42's Purpose/Responsibility, then a labelled list of rules), written for this test.
_BLACKBOXES = """# Building block view

Status: Current

## 5.1 Level 1

### 5.1.1 Ledger writer (blackbox)

*Purpose.* The single path by which postings reach the ledger tables.

*Rules.*

- Postings are appended in batches of whole journals; partial journals are dropped.
- Corrections go in as reversing postings.

### Fee calculator

_Purpose/Responsibility:_ Turns an order's lines into fee lines.

**Constraints.**

- Fee tables are read from the config repository at start-up.

*Note.* Nothing here is a purpose.
"""


def test_arc42_blackbox_run_in_purpose_and_rules_labels() -> None:
    result = extract_facts(_BLACKBOXES, SourceRef("x", "wiki/sources/x.md", "raw/x.md",
                                                  "architecture/building-blocks.md"))
    observed = _observed(result)
    assert observed["Responsibility: Ledger writer: The single path by which postings reach the "
                    "ledger tables."] == (9, 9)
    assert observed["Responsibility: Fee calculator: Turns an order's lines into fee lines."] == (18, 18)
    # the items of a run-in "Rules." or bold "Constraints." label, whatever their verb
    assert any(o.startswith("Constraint: Postings are appended in batches") for o in observed)
    assert any(o.startswith("Constraint: Corrections go in as reversing postings") for o in observed)
    assert any(o.startswith("Constraint: Fee tables are read from the config") for o in observed)
    # a run-in label of no part (what it says is a statement of the page, not its purpose)
    assert not any("Nothing here is a purpose" in o for o in observed if o.startswith("Responsibility: "))


def test_an_impact_table_with_an_empty_header_row_keeps_each_measure() -> None:
    rows = ["| | |", "|---|---|", "| Duration | 2 h 5 min |", "| Orders lost | none |",
            "| Customer-facing | Two partners' reports came a day late |"]
    found = figure_rows(list(enumerate(rows, start=40)))
    assert found == ("Duration: 2 h 5 min; Orders lost: none; Customer-facing: Two partners' reports came "
                     "a day late", 42, 44)
    # a table of no figures at all is no table of measures
    assert figure_rows(list(enumerate(["| | |", "|---|---|", "| Portal | down |"], start=1))) is None


# A decision log kept as a table with a note per row below it, each led by the row's key in bold
# (written for this test).
_NOTED_LOG = """# Billing decision log

| ID | Date | Decision | Status |
|----|------|----------|--------|
| BL-01 | 2025-03-04 | Invoices are stored as PDF/A in the archive bucket | Agreed |
| BL-02 | 2025-04-01 | Card payments go through the hosted checkout | Agreed |

## Notes on some entries

**BL-01.** The auditors asked for a format that still opens in ten years.
Invoices must never be edited after they are sent.

**BL-07.** A row this log does not have.

**Reminder.** Keep the ID sequence.
"""


def test_the_notes_under_a_decision_log_table_tell_why_each_row_was_decided() -> None:
    observed = _observed(extract_facts(_NOTED_LOG, SourceRef("x", "wiki/sources/x.md", "raw/x.md",
                                                             "decisions/billing-decision-log.md")))
    assert observed["Rationale: The auditors asked for a format that still opens in ten years."] == (10, 11)
    # a rule the note states is a constraint of its own, not part of the why
    assert observed["Constraint: Invoices must never be edited after they are sent."] == (10, 11)
    assert not any("A row this log does not have" in o or "Keep the ID sequence" in o for o in observed)


# A decision log's Decisions section kept as a dated table with a Status column, one row turned
# down and its Notes saying why (written for this test, as decision registers mark rows).
_REJECTED_ROW_LOG = """# Parking portal decision log

## Decisions

| # | Date | Decision | Decided by | Status | Notes |
|---|------|----------|------------|--------|-------|
| 3 | 2025-11-18 | Card surcharge of 2% | Finance board | Rejected | The fee bylaw allows only a flat fee |
| 2 | 2025-11-18 | Flat fee of $1 per card payment | Finance board | Accepted | From January |
"""


def test_a_row_the_decision_log_marks_rejected_is_an_option_rejected_with_its_why() -> None:
    observed = _observed(extract_facts(_REJECTED_ROW_LOG, SourceRef("x", "wiki/sources/x.md", "raw/x.md",
                                                                    "decisions/parking-decision-log.md")))
    assert observed["Rejected: Card surcharge of 2% (2025-11-18; owner: Finance board; status: Rejected)"] == (7, 7)
    assert observed["Rejected: The fee bylaw allows only a flat fee"] == (7, 7)
    assert not any(o.startswith("Decision: Card surcharge") for o in observed)
    # an accepted row stays a decision, with its date, owner and status; its notes are no reason
    assert observed["Decision: Flat fee of $1 per card payment (2025-11-18; owner: Finance board; "
                    "status: Accepted)"] == (8, 8)
    assert not any("From January" in o for o in observed)
