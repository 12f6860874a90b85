"""Names one mention makes sure of (tasks/extract/stack_names.py): the items of a technology
column or field, and a product's name before its release number in prose."""

from __future__ import annotations

import time

from tasks.extract import SourceRef, extract_facts
from tasks.extract.stack_names import tech_cells, versioned_names
from tasks.extract.structure import scan

COMPONENTS = """# Crew dispatch components

| Component | Responsibility | Runs as | Tech |
|---|---|---|---|
| `crew-api` | Serves the app | Deployment, 3 replicas | Kotlin, Spring Boot 3 |
| `crew-assigner` | Chooses a crew | Deployment | Kotlin / OptaPlanner |
| `jobs` stream | Durable queue | NATS JetStream, R3 | NATS Server 2.10 |
| `crew-db` | Jobs and rosters | Azure Database for PostgreSQL Flexible Server | PostgreSQL 16 |
| `renderer` | Renders labels | spot nodes | Go 1.23 service |
| `lambda` | Sends pushes | function | AWS Lambda |
| `notes` | Free text | none | single static binary |

| Field | Value |
|---|---|
| Runtime | Python 3.12 on EKS |

- **Language:** Go 1.23, single static binary, run by systemd.
- **Owner:** Platform team
"""


def _names(seen: dict[str, list[tuple[int, str]]]) -> dict[str, list[int]]:
    return {hits[0][1]: [number for number, _ in hits] for hits in seen.values()}


def test_tech_cells_reads_a_technology_column_and_fields() -> None:
    names = _names(tech_cells(scan(COMPONENTS.splitlines(), 1)))
    assert {"Kotlin", "Spring Boot", "OptaPlanner", "NATS Server", "PostgreSQL", "Go", "AWS Lambda",
            "Python", "EKS"} <= set(names)
    assert names["Kotlin"] == [5, 6]  # once a line, each line it is written on
    assert names["Go"] == [9, 17]  # a column's cell and a "**Language:**" field
    # other columns, versions, kind words and plain words are no names
    for not_a_name in ("Deployment", "R3", "3", "2.10", "service", "spot nodes", "single static binary",
                       "AWS", "Platform team", "Azure Database"):
        assert not_a_name not in names


def test_tech_cells_prefers_a_known_name_that_opens_a_longer_one() -> None:
    page = "| Service | Technology |\n|---|---|\n| db | Azure Database for PostgreSQL Flexible Server |\n"
    assert "Azure Database for PostgreSQL" in _names(tech_cells(scan(page.splitlines(), 1)))


def test_tech_cells_needs_a_technology_label() -> None:
    page = "| Component | Owner |\n|---|---|\n| Kotlin | Platform |\n\n- **Status:** Kotlin 2.0\n"
    assert tech_cells(scan(page.splitlines(), 1)) == {}


def test_versioned_names_reads_a_product_before_its_release() -> None:
    prose = [
        (1, "The release moved because the OpenTripPlanner 2.6 upgrade changes walking routes."),
        (2, "Upgrade Timefold Solver 1.9 before the roster run; we keep FlightCore 3 for now."),
        (3, "See Section 3.2 and Version 2.1, Patch 4.2 and Ward 7 on Terminal 2."),
        (4, "The median overcharge was EUR 11.40; clients subscribe with QoS 1."),
        (5, "CR-4471 FlightCore 3.1 and the Cubic Validator 3.2 firmware; Open Match 1.8."),
        (6, "Python 3.12 and Kafka 3.7 keep their own rules; so do RHEL 8 and DTP 9."),
    ]
    names = _names(versioned_names(prose))
    assert names == {"OpenTripPlanner": [1], "Timefold Solver": [2], "FlightCore": [2, 5], "Cubic Validator": [5]}


def test_versioned_names_are_subjects_of_their_document() -> None:
    text = ("# Ops sync 2025-04-22\n\n## Notes\n\n- Release moved to 6 May. The OpenTripPlanner 2.6 upgrade"
            " changes walking routes near the river.\n- Staffing is unchanged.\n\n## Actions\n\n"
            "- Leah: check the timetable feed.\n")
    result = extract_facts(text, SourceRef("a", "wiki/sources/x.md", "raw/x.md", "x.md"))
    assert "OpenTripPlanner" in {relation.target.display for relation in result.relations}


def test_stack_names_stay_linear_on_hostile_lines() -> None:
    lines = ["*" * 50_000 + ":", "| " + " " * 50_000 + "x |", "A " * 25_000 + "1.0", "- " * 25_000 + "Tech: Go"]
    page = "| Tech |\n|---|\n" + "\n".join(f"| {'(' * 20_000}{' ' * 20_000} |" for _ in range(2)) + "\n"
    structures = [scan(lines, 1), scan(page.splitlines(), 1)]
    started = time.perf_counter()
    for structure in structures:
        tech_cells(structure)
    versioned_names(enumerate(lines, 1))
    assert time.perf_counter() - started < 2.0


def test_a_number_between_a_products_words_is_part_of_its_name() -> None:
    """Vendors write a product line or edition between a name's words ("Pinnacle 21 Enterprise",
    "Dynamics 365 Business Central"); a number at the end or a dotted one is a release, and a
    known technology's number before another product is its release ("Java 17 Spring Boot")."""
    lines = ["| Container | Technology |", "|---|---|",
             "| SubmitKit | Python, Pinnacle 21 Enterprise, AS2 gateway |",
             "| Ledger | Dynamics 365 Business Central, Camunda 8, Kafka 3.7 |",
             "| Builder | Java 17 Spring Boot |", ""]
    names = {name for seen in tech_cells(scan(lines, 1)).values() for _, name in seen}
    assert {"Pinnacle 21 Enterprise", "Dynamics 365 Business Central", "Camunda", "Kafka", "Java"} <= names
    assert not names & {"Pinnacle", "Pinnacle 21", "Java 17 Spring Boot", "Camunda 8"}


def test_a_thing_described_in_common_words_or_a_delivery_model_is_no_product() -> None:
    """heldout29's architecture view: "| Display controllers, firmware 5.4 |" describes what
    runs, "| Vendor SaaS |" how a product is bought; "Mews Connector API" (heldout27) stays."""
    page = ("# Passenger information: application view\n\n| Component | Purpose | Technology |\n|---|---|---|\n"
            "| Platformline | Departure boards | Display controllers, firmware 5.4 |\n"
            "| Voyager Plan | Timetable planning | Vendor SaaS |\n"
            "| Lintel | Reservations | Go, Mews Connector API |\n")
    names = _names(tech_cells(scan(page.splitlines(), 1)))
    assert "Display" not in names and "Display controllers" not in names
    assert {"Go", "Mews Connector API", "Vendor SaaS"} <= set(names)  # the cell reader keeps the item
    facts = extract_facts(page, SourceRef("a", "wiki/sources/view.md", "raw/view.md"))
    made = {entity.ref.display for entity in facts.entities}
    assert "Vendor SaaS" not in made and "Display" not in made
    assert "Mews Connector API" in made
