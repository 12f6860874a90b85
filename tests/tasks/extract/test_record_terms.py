"""How a decision record writes a name that is not its subject (tasks/extract/record_terms.py)."""

from __future__ import annotations

from tasks.extract.record_terms import (
    issues_a_convention,
    kind_beside_technology,
    named_as_example,
    plural_of_written,
)

APIS = """APIs might be defined using an RPC IDL (e.g. in Protobuf, GraphQL or similar), or as code
interfaces (e.g.
framework APIs in Swift, Kotlin, Java etc). We will publish them with Backstage.
Resources are the infrastructure your software needs, like Bigtable databases, Pub/Sub topics
or CDNs."""


def test_names_in_a_list_after_an_example_marker_are_examples() -> None:
    for name in ("Protobuf", "GraphQL", "Swift", "Java", "Bigtable", "Pub/Sub"):
        assert named_as_example([name], APIS), name


def test_a_name_written_outside_the_list_is_no_example() -> None:
    assert not named_as_example(["Backstage"], APIS)
    assert not named_as_example(["Protobuf"], f"{APIS}\nWe chose Protobuf for the wire format.")
    assert not named_as_example(["Kafka"], "We will use Kafka. For example, the outbox writes to it.")


def test_a_single_name_after_such_as_is_no_list() -> None:
    assert not named_as_example(["GATK"], "Java tools such as GATK need their memory request padded.")


def test_a_sentence_end_closes_the_marker() -> None:
    text = "Queues, e.g. the ones we run now. Redis, Kafka and NATS were weighed."
    assert not named_as_example(["Redis"], text)


def test_a_known_technology_with_the_kind_it_is() -> None:
    assert kind_beside_technology("MySQL database")
    assert kind_beside_technology("Node.js platform")
    assert not kind_beside_technology("Strongroom database")  # a system's own name
    assert not kind_beside_technology("S3 govuk-integration-artefact bucket")
    assert not kind_beside_technology("MySQL")


def test_a_plural_of_a_name_the_text_writes() -> None:
    assert plural_of_written("Puppetmasters", "Use a Puppetmaster. Puppetmasters sign certificates.")
    assert not plural_of_written("Jenkins", "Jenkins runs the job.")
    assert not plural_of_written("Access", "Acces and Access")  # a double s is no plural


def test_an_organisation_written_only_before_its_convention() -> None:
    text = "# Use Prettier-ESLint Airbnb for the code style\n- ESLint with Airbnb code style\n"
    assert issues_a_convention(["Airbnb"], text)
    assert not issues_a_convention(["ESLint"], text)
    assert not issues_a_convention(["Airbnb"], f"{text}We call the Airbnb API.")
