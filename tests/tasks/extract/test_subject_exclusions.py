"""Names no page is about (issue 23 item 4, precision; subj69): the tool a printout's footer names, a
product a technology cell says the system is built without, an incident review's kind, a
catalog page's field heading."""

from __future__ import annotations

from tasks.extract import SourceRef, extract_facts
from tasks.extract.front_matter import split_frontmatter
from tasks.extract.stack_names import tech_cells
from tasks.extract.structure import scan
from tasks.extract.subject_terms import title_subject


def _related(text: str) -> set[str]:
    result = extract_facts(text, SourceRef("a1", "sources/a1.md", "doc.md", "doc.md"))
    return {fact.target.display for fact in result.relations if fact.relation_type != "mentions"}


PRINTED_STORY = """# ch-812 · Move the price feed to Flink

**Team:** Pricing
**State:** Done

## Description

The price feed is a cron job that reloads every file each hour. We move it to a Flink job
that reads the Kafka topic, so prices change within a minute.

## Decision

We run the feed as a Flink job on the shared cluster. The cron job stops in June.

---
Knowledge article: KB0001 · Printed from ServiceDesk by jdoe · Internal
"""


def test_the_tool_a_printouts_footer_names_is_no_subject() -> None:
    related = _related(PRINTED_STORY)
    assert "Flink" in related
    assert "ServiceDesk" not in related


def test_a_product_a_cell_says_the_system_is_built_without_is_no_product() -> None:
    _, body, first_line = split_frontmatter("| Component | Technology |\n|---|---|\n"
                                            "| Publisher | Debezium-free polling publisher |\n"
                                            "| Store | PostgreSQL 15 |\n")
    structure = scan(body, first_line)
    assert "postgresql" in tech_cells(structure)
    assert not any("debezium" in key for key in tech_cells(structure))


def test_a_major_incident_report_is_a_genre_not_a_subject() -> None:
    assert title_subject("Major Incident Report — INC0042") is None
    assert title_subject("Major Incident Report: ledger sync stalled") == "ledger sync"


FACT_SHEET = """# Dockyard

`Application` · Lifecycle: **Active**

### Description

Dockyard books berths for arriving vessels. Harbour control uses it all day; Dockyard
sends each booking to the harbour's billing system.

### Lifecycle

| Phase | Date |
|---|---|
| Active | 2021-04-01 |

### Interfaces (provider → consumer)

| Interface | Provider | Consumer | Technology |
|---|---|---|---|
| IF-01 | Dockyard | Billing | REST |

### IT components (tech stack)

| Component | Version | Lifecycle |
|---|---|---|
| PostgreSQL | 13 | Phase out |
| Redis | 7 | Active |

### Observations

1. Dockyard must not book a berth twice.
"""


def test_a_heading_a_table_header_names_as_a_field_is_no_component() -> None:
    related = _related(FACT_SHEET)
    assert "Lifecycle" not in related
    assert {"PostgreSQL", "Redis"} <= related


def test_an_incident_reviews_kind_linked_by_its_acronym_is_no_subject() -> None:
    text = ("# Berth planner\n\n## Overview\n\nThe berth planner books berths. It must not plan when the feed "
            "is stale (after the outage, see [MIR](../postmortems/inc-12-mir.md) and "
            "[PIR](../postmortems/inc-9-pir.md)).\n")
    assert not {"MIR", "PIR"} & _related(text)
