"""Conclusions read by what a section or sentence says, in styles no other fixture set uses
(concl39, issue 23 item 3): a PR/FAQ's answers that state a rule, an SLO document's targets and
error budget policy, a change board's conditions of approval, a design document's own Decisions
section and dated decision log, and a system page written as questions with its rules under
"What must never happen?". The documents are tests/fixtures/distill/concl39 (written from public
templates before the code) and small texts written here."""

from __future__ import annotations

from pathlib import Path

from tasks.extract import Extraction, SourceRef, extract_facts

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "distill" / "concl39"


def _extract(text: str, name: str = "page.md") -> Extraction:
    return extract_facts(text, SourceRef("x", "wiki/sources/x.md", "raw/x.md", name))


def _observed(result: Extraction) -> dict[str, tuple[int, int]]:
    return {o.text: (o.line_start, o.line_end) for o in result.observations}


def _fixture(name: str) -> dict[str, tuple[int, int]]:
    return _observed(_extract((FIXTURES / name).read_text(encoding="utf-8"), name))


def test_a_pr_faq_rule_stated_in_an_answer_without_its_question() -> None:
    observed = _fixture("proposals/prfaq-driver-app-offline.md")
    assert observed["Constraint: A phone may hold at most 2,000 unsent scans; beyond that the app stops "
                    "accepting new scans and asks the driver to find signal."] == (21, 22)
    assert any(o.startswith("Constraint: The dispatch API must reject the second signature") for o in observed)
    assert not any(o.startswith("Constraint: Q:") or "When does it ship" in o for o in observed)


def test_an_slo_document_its_targets_and_its_error_budget_policy() -> None:
    observed = _fixture("architecture/slo-dispatch-api.md")
    assert observed["SLO: Availability: share of scan requests that return a non-5xx response: 99.9% over "
                    "28 days"] == (19, 19)
    assert any(o.startswith("Constraint: If the dispatch API has spent its error budget") for o in observed)


def test_a_change_boards_conditions_of_approval_are_constraints() -> None:
    observed = _fixture("minutes/cab-2025-07-14.md")
    assert observed["Constraint: The old print server stays powered on for 14 days as the back-out path."] == (13, 13)
    assert "Decision: Approved with conditions" in observed


def test_a_design_documents_decision_log_table_reads_its_decision_column() -> None:
    observed = _fixture("proposals/prd-route-export.md")
    assert observed["Decision: Use the existing SFTP gateway rather than build an upload portal. "
                    "(2025-03-10)"] == (33, 33)
    assert "Decision: 2025-03-10" not in observed


_SYSTEM_PAGE = """# Relay (message bus)

Relay carries every order event from the shop to the warehouse.

## What does it do?

It takes order events from the shop and hands them to the warehouse systems within a minute.

## Who owns it?

The Integration team.

## What depends on it?

The warehouse systems and the invoicing job.

## What must never happen?

- Relay drops an order event without writing it to the dead-letter queue.
- Two consumers read the same partition.

## Where is the code?

In the relay repository.
"""


def test_a_system_page_of_questions_is_an_architecture_page_with_its_rules() -> None:
    observed = _observed(_extract(_SYSTEM_PAGE))
    assert observed["Constraint: Two consumers read the same partition."] == (20, 20)
    assert any(o.startswith("Constraint: Relay drops an order event") for o in observed)


_DESIGN = """# Design doc: Search indexer

## Overview

The indexer builds the product search index from the catalogue.

## Goals

- Index a product change within a minute.

## Proposal

A worker reads catalogue changes and writes them to the index.

## Decisions

- We chose OpenSearch over Solr because the team already runs it.
- We will not index archived products.

## Outcomes

- Faster search for shoppers.
"""


def test_a_design_documents_decisions_section_not_its_outcomes() -> None:
    observed = _observed(_extract(_DESIGN))
    assert observed["Decision: We chose OpenSearch over Solr because the team already runs it."] == (17, 17)
    assert "Decision: We will not index archived products." in observed
    assert not any(o.startswith("Decision: Faster search") for o in observed)


# concl49: the rules a page keeps, grouped under sub-headings of the section that says so.
GROUPED_RULES = """# Ledger platform - containers

## Components

| Container | Responsibility |
|---|---|
| Ledger API | Takes postings from every client |
| Audit store | The audit trail of every container |
| Reports | Month-end reports for finance |

## Rules every container keeps

### Data integrity

- The audit store is append-only: no container has UPDATE or DELETE on it.
- Every posting must carry the user and the time in UTC.

### Operations

- Support staff are read-only by default.
"""


def test_the_items_under_a_rules_sections_sub_headings_are_rules() -> None:
    observed = _observed(_extract(GROUPED_RULES, "ledger-containers.md"))
    assert observed["Constraint: The audit store is append-only: no container has UPDATE or DELETE on it."] == (15, 15)
    assert observed["Constraint: Support staff are read-only by default."] == (20, 20)
    assert sum(o.startswith("Constraint: Every posting must carry") for o in observed) == 1  # once


def test_where_a_thing_may_be_kept_and_nowhere_else_is_a_rule() -> None:
    text = """# Ledger platform - architecture

## Components

| Container | Responsibility |
|---|---|
| Ledger API | Takes postings |

## Operations

Secrets and certificates live in Azure Key Vault only. Deploys run on weekdays.

The client certificate lives only in the gateway's secret store.

The dashboards run on Grafana and only show yesterday's totals.
"""
    observed = _observed(_extract(text, "ledger-architecture.md"))
    assert observed["Constraint: Secrets and certificates live in Azure Key Vault only."] == (11, 11)
    assert observed["Constraint: The client certificate lives only in the gateway's secret store."] == (13, 13)
    assert not any("dashboards" in o for o in observed if o.startswith("Constraint: "))


def test_what_one_may_only_do_is_a_rule() -> None:
    text = """# CEP-0004: Partner API for claims

Status: Accepted

## Goals

- Partners report a claim through an API.

## Non-goals

- A partner portal.

## Design

Add `POST /partner/v1/claims` to the intake service, behind the API gateway.
Each partner gets its own OAuth 2.0 client, and may only report claims on policies it placed.

## Alternatives considered

- Batch files from each partner. Rejected: a day late.
"""
    observed = _observed(_extract(text, "cep-0004-partner-api.md"))
    assert observed["Constraint: Each partner gets its own OAuth 2.0 client, and may only report claims on "
                    "policies it placed."] == (16, 16)
