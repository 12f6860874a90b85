"""A decision record's subjects beyond what its decision names (tasks/extract/genre_subjects.py,
DECISION_RECORD): the genre rules, read under the stricter gates of _record_subject."""

from __future__ import annotations

from tasks.extract import SourceRef, extract_facts
from tests.conftest import CORPUS

RECORD = """# 7. Run pipeline jobs on Slurm

Date: 2021-03-09

## Status

Accepted by the Rights & Metadata team.

## Context

The institute runs its analysis on the `hx` cluster. Each run is processed by a shell script
that Ansible installs on the login node, and the Sequencing Informatics team starts it by
hand. Rights rarely change. We considered AWS Batch with a message broker in front of it, see
the [ARB minute](arb-2021-03.md).

## Decision

We will use Slurm for every pipeline job, with the Strongroom database holding accounting
and a mapping table for the queues. Partitions follow node classes.

## Consequences

Java tools such as GATK need their memory request padded.
"""


def _about(text: str, path: str = "decisions/0007-slurm.md") -> set[str]:
    result = extract_facts(text, SourceRef("a1", "sources/a1.md", "doc.md", path))
    assert result.is_decision_record
    return {fact.target.display for fact in result.relations if fact.relation_type == "about"}


def test_a_record_is_about_the_technologies_and_systems_its_prose_names() -> None:
    about = _about(RECORD)
    assert {"Ansible", "Strongroom database", "Java"} <= about


def test_a_record_gives_no_kind_of_thing_fragment_link_or_piece_of_a_name() -> None:
    about = {name.lower() for name in _about(RECORD)}
    for wrong in ("message broker", "mapping table", "partitions follow node", "arb minute", "rights",
                  "metadata team", "aws"):
        assert wrong not in about, wrong


def test_the_decision_still_names_what_it_uses() -> None:
    result = extract_facts(RECORD, SourceRef("a1", "sources/a1.md", "doc.md", "decisions/0007-slurm.md"))
    uses = {fact.target.display for fact in result.relations if fact.relation_type == "uses"}
    assert "Slurm" in uses
    assert "Slurm" not in _about(RECORD)  # related once, by the decision's own relation


def test_a_name_only_in_the_text_of_a_link_to_another_record_is_no_subject() -> None:
    text = ("# 2. Use SQLite\n\n## Status\n\nAccepted\n\n## Context\n\nSmall.\n\n"
            "## Decision\n\nUse SQLite.\n\nSupersedes [Use PostgreSQL](0001-use-postgresql.md).\n")
    assert "PostgreSQL" not in _about(text, "adr/0002-use-sqlite.md")
    assert "PostgreSQL" in _about(text.replace("Small.", "Small. PostgreSQL needs a server we do not run."),
                                  "adr/0002-use-sqlite.md")


MADR = """# Replace Grid Engine with Slurm

* Status: accepted
* Date: 2024-05-14

## Context and Problem Statement

The cluster needs a scheduler that runs GPU jobs.

## Considered Options

* Slurm with slurmdbd accounting
* Kubernetes with Kueue

## Decision Outcome

Chosen option: "Slurm with slurmdbd accounting", because it schedules GPUs.

## Pros and Cons of the Options

### Kubernetes with Kueue

* Bad, because our pipelines assume a shared filesystem.
"""


def test_a_name_an_option_not_chosen_writes_is_a_subject() -> None:
    # "Kueue" is written twice, on the Considered Options item and its heading: an option weighed
    assert "Kueue" in _about(MADR, "decisions/0019-slurm.md")
    without_options = MADR.replace("## Considered Options", "## Notes")
    assert "Kueue" not in _about(without_options, "decisions/0019-slurm.md")


def test_kinds_of_thing_written_in_capitals_are_no_subjects() -> None:
    # GOV.UK's record of ALB health checks: "a server_name based Vhost per application", "the
    # default Vhost"; log4brains' records: "sorted in the IDE"
    names: set[str] = set()
    for path in ("alphagov-govuk-aws-adrs/0037-alb-health-checks.md",
                 "thomvaill-log4brains-adrs/20201016-use-the-adr-slug-as-its-unique-id.md",
                 "thomvaill-log4brains-adrs/"
                 "20200925-multi-packages-architecture-in-a-monorepo-with-yarn-and-lerna.md"):
        result = extract_facts((CORPUS / path).read_text(encoding="utf-8"),
                               SourceRef("a1", "sources/a1.md", path.rsplit("/", 1)[1], path))
        names |= {entity.ref.display for entity in result.entities}
    assert "ALB" in names and not {"IDE", "Vhost"} & names, sorted(names)


EXAMPLES = """# 12. Model resources in the catalog

## Status

Accepted

## Context

Resources are the infrastructure a service needs at runtime, like Bigtable databases,
Pub/Sub topics or CDNs. They are indexed from definitions (e.g. Terraform, Pulumi) and
stored in the MySQL database of the catalog, beside the Puppetmaster that configures it.

## Decision

We will keep resources in MySQL and let Puppet and the Puppetmasters write them.
"""


def test_a_record_is_not_about_its_examples_kinds_or_plurals() -> None:
    about = _about(EXAMPLES, "decisions/0012-resources.md")
    assert {"MySQL", "Puppet"} <= about, sorted(about)
    for wrong in ("Bigtable", "Pub/Sub", "Terraform", "Pulumi", "MySQL database", "Puppetmasters"):
        assert wrong not in about, (wrong, sorted(about))


def test_shared_corpus_records_lose_examples_documents_and_kinds_not_subjects() -> None:
    about: set[str] = set()
    for path in ("backstage-adrs/adr005-catalog-core-entities.md",
                 "alphagov-govuk-aws-adrs/0002-hosting-platforms.md",
                 "alphagov-govuk-aws-adrs/0019-centralise-mysql-databases.md",
                 "alphagov-govuk-aws-adrs/0006-puppet-architecture.md",
                 "thomvaill-log4brains-adrs/20200925-use-prettier-eslint-airbnb-for-the-code-style.md"):
        about |= _about((CORPUS / path).read_text(encoding="utf-8"), path)
    assert {"MySQL", "Puppet", "PostgreSQL"} <= about, sorted(about)
    assert not {"Swift", "Kotlin", "Protobuf", "Avro", "TFRecord", "GraphQL", "S3 bucket", "MySQL database",
                "Puppetmasters", "GDS Tech Forum Hosting Guide", "Airbnb", "ESLint VS Code"} & about, sorted(about)
    assert {"ESLint", "Prettier"} <= about, sorted(about)


CONTEXT_ONCE = """# 7. Use Tesseract for OCR

Date: 2024-03-02

## Status

Accepted

## Context

The Fenwick Genome Institute scans its paper records. The first version of Glyph
calls Apache Tika for born-digital files and leaves scanned pages without text.

## Decision

We will run Tesseract on every image-only page.
"""


def test_a_name_written_once_in_a_records_context_is_a_subject_but_not_who_writes_it() -> None:
    """The Context states the problem the record decides on: a product named there once
    ("calls Apache Tika") is a subject; the institution that writes the record is not."""
    about = _about(CONTEXT_ONCE, "decisions/0007-tesseract.md")
    assert "Apache Tika" in about
    assert "Fenwick Genome Institute" not in about
    # the same name once in a section that states no problem stays a candidate
    aside = CONTEXT_ONCE.replace("## Context", "## Notes")
    assert "Apache Tika" not in _about(aside, "decisions/0007-tesseract.md")


def test_a_group_of_operations_a_context_cites_is_no_subject() -> None:
    text = CONTEXT_ONCE.replace("The Fenwick Genome Institute scans its paper records.",
                                "One principle of TechOps is to use managed services.")
    about = _about(text, "decisions/0007-tesseract.md")
    assert "Apache Tika" in about and "TechOps" not in about
