"""Decision logs kept in one page (issue 23 item 3, concl41): entries as bold dated lines with a
plain `Decision:` field, entries with `**Outcome:**` and `**Consequences:**` fields under a
"decision register" title, and a log table whose Decision column names the question and a
Chosen column the answer. Written here with other words than the sets that showed them."""

from __future__ import annotations

from tasks.extract import Extraction, SourceRef, extract_facts


def _extract(text: str, name: str = "minutes/log.md") -> Extraction:
    return extract_facts(text, SourceRef("x", "wiki/sources/x.md", "raw/x.md", name))


def _texts(result: Extraction, label: str) -> list[str]:
    return [o.text for o in result.observations if o.text.startswith(f"{label}: ")]


PLAIN_FIELDS = """# Incident Tooling - decision log

One page, newest last. Each entry: date, decision, why, who decided.

---

**2024-02-01 - Pager rota moves to the new scheduler**

Decision: the on-call rota is kept in the new scheduler, not in the shared
spreadsheet.
Why: the spreadsheet was edited by hand and twice paged nobody.
Decided by: Ana Lopes.

---

**2024-04-11 - Status page hosted outside our cloud**

Decision: the public status page runs on a hosted service, so that it stays up when our
region is down.
Why: during the last outage the status page was down with everything else.
Decided by: Support and SRE.
"""


def test_a_log_of_plain_decision_fields_is_read_not_taken_for_an_index() -> None:
    result = _extract(PLAIN_FIELDS)
    assert result.record_role == ""  # it states its decisions: no log's index page
    assert result.subject is not None and result.subject.ref.entity_type == "meeting"  # not an incident
    decisions = {o.text: (o.line_start, o.line_end) for o in result.observations
                 if o.text.startswith("Decision: ")}
    assert decisions == {
        "Decision: the on-call rota is kept in the new scheduler, not in the shared spreadsheet.": (9, 10),
        "Decision: the public status page runs on a hosted service, so that it stays up when our "
        "region is down.": (18, 19),
    }


REGISTER = """# Platform Services - decision register

Kept by the platform meeting. One entry per decision, newest last.

### P-003 - Build agents move to ephemeral VMs

**Status:** Superseded by P-005
**Date:** 2025-01-14
**Context:** Long-lived agents drifted from their image.
**Outcome:** Every build runs on a fresh VM that is destroyed after the job.
**Consequences:** Caches must be restored from the artifact store; builds take a minute longer.

### P-004 - One container registry

**Status:** Agreed
**Date:** 2025-03-02
**Outcome:** All images are pushed to the central registry only.
**Consequences:** The team registries are deleted in June.

### P-005 - Agents on the shared cluster

**Status:** Proposed
**Date:** 2025-05-20
**Outcome:** _to be decided at the June meeting_
**Consequences:** _TBC_
"""


def test_a_register_reads_each_outcome_and_its_consequences() -> None:
    result = _extract(REGISTER)
    assert result.subject is not None and result.subject.ref.entity_type == "meeting"
    assert _texts(result, "Decision") == [
        "Decision: Every build runs on a fresh VM that is destroyed after the job.",
        "Decision: All images are pushed to the central registry only.",
    ]  # the entry still open ("to be decided") is no decision
    assert _texts(result, "Consequence") == [
        "Consequence: Caches must be restored from the artifact store; builds take a minute longer.",
        "Consequence: The team registries are deleted in June.",
    ]
    # each entry's Status is the entry's: the register itself is not superseded
    assert not _texts(result, "Status")


TABLE = """# Data platform decision log

| ID | Date | Decision | Options | Chosen | Owner | Status |
|---|---|---|---|---|---|---|
| DP-1 | 2025-02-03 | Table format for the lake | Iceberg; Delta Lake | Apache Iceberg | Data team | Agreed |
| DP-2 | 2025-03-10 | Orchestrator | Airflow; Dagster | Dagster | Data team | Agreed |
| DP-3 | 2025-04-01 | Retention of raw events | 30 days; 90 days | | Data team | Proposed |
"""


def test_a_log_table_states_the_option_chosen_beside_its_question() -> None:
    decisions = _texts(_extract(TABLE), "Decision")
    assert decisions == [
        "Decision: Table format for the lake: Apache Iceberg (2025-02-03; owner: Data team; status: Agreed)",
        "Decision: Orchestrator: Dagster (2025-03-10; owner: Data team; status: Agreed)",
        "Decision: Retention of raw events (2025-04-01; owner: Data team; status: Proposed)",
    ]


PROBLEM_RECORD = """# PRB-0042 Duplicate invoices after the queue failover

## Root cause

The consumer replayed a batch it had already committed, because the failover reset its offsets.

## Permanent fix

| # | Change | Owner | Target |
|---|---|---|---|
| 1 | Add a unique key on invoice number and ignore conflicts on insert | Billing team | 2025-07-30 |
| 2 | Store consumer offsets in the broker, not on local disk | Platform team | 2025-07-04 |
"""


def test_a_postmortem_table_with_owner_and_target_is_its_action_items() -> None:
    assert _texts(_extract(PROBLEM_RECORD, "postmortems/prb-0042.md"), "Action item") == [
        "Action item: Add a unique key on invoice number and ignore conflicts on insert (owner: Billing team)",
        "Action item: Store consumer offsets in the broker, not on local disk (owner: Platform team)",
    ]  # the column that says the most is the change, not the row's number


WHY_COLUMN = """# Data platform decision log

| ID | Date | Decision | Why | Decided by | Status |
|----|------|----------|-----|------------|--------|
| DP-11 | 2025-05-02 | Events are kept 400 days, then rolled up | Finance needs a full year to compare seasons | Data team | Decided |
| DP-12 | 2025-06-12 | We will not add a second warehouse | | Data team | Decided |

## Reversed decisions

| ID | Date | Decision | Reversed by | Why |
|----|------|----------|-------------|-----|
| DP-04 | 2024-10-14 | Exports go by SFTP only | DP-09 | Two customers need signed URLs |
"""


def test_a_log_tables_why_column_is_each_rows_rationale_not_a_reversals() -> None:
    result = _extract(WHY_COLUMN)
    rationale = {o.text: (o.line_start, o.line_end) for o in result.observations if o.text.startswith("Rationale: ")}
    assert rationale == {"Rationale: Finance needs a full year to compare seasons": (5, 5)}
    assert len(_texts(result, "Decision")) == 3


TWO_DIGIT_YEARS = """# Payments platform: decision log

Kept by the Payments squad. New rows at the bottom. Dates are DD/MM/YY.

| Ref | Date | Decision | Who |
|-----|------|----------|-----|
| PD-1 | 03/02/25 | Card tokens are stored in the vault service, never in the ledger | Ines |
| PD-2 | 14/02/25 | Refunds run as a nightly batch | Ines, Bo |
| PD-3 | 08/09/26 | Payouts move to the new bank's API | Bo |
"""


def test_a_log_tables_two_digit_days_read_in_its_order_and_its_newest_row_dates_it() -> None:
    """A decision log kept as a table with `DD/MM/YY` days (the page says so, and "14/02/25"
    shows it): each row is a decision of its day, the ambiguous ones too, and the newest row's
    day is when the log was last updated; a page that dates itself keeps its own date."""
    result = _extract(TWO_DIGIT_YEARS)
    decisions = _texts(result, "Decision")
    assert any("vault service" in text and "2025-02-03" in text for text in decisions), decisions
    assert any("new bank" in text and "2026-09-08" in text for text in decisions), decisions
    assert _texts(result, "Last updated") == ['Last updated: 2026-09-08 (written "08/09/26")']
    dated = TWO_DIGIT_YEARS.replace("Kept by", "Last updated: 2026-10-01\n\nKept by")
    assert _texts(_extract(dated), "Last updated") == ["Last updated: 2026-10-01"]
