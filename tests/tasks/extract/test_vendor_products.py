"""Subject recall (issue 23 item 4; subj64): a product of a known technology or vendor ("Spring
Security", "AWS Secrets Manager", "Argo Workflows") is one of the document's subjects when it
is written once outside a heading, a link, an example and a label, in any genre; a known
name's phrase that ends in a kind of thing, a place, a company or a document word ("Kafka
ACL", "Tekton API", "Grafana Labs", "Harbor Ave") is none."""

from __future__ import annotations

from tasks.extract import SourceRef, extract_facts
from tasks.extract.technologies import vendor_alias, vendor_product

PROPOSAL = """# Proposal: move token signing keys out of the app config

Status: Draft
Author: Wren Adeyemi

## Summary

The booking API reads its signing keys from a file baked into the image. We propose to keep
them in AWS Secrets Manager and to let Spring Security fetch them at start-up.

## Motivation

Rotating a key today means a release. The reorder job, scheduled by Argo Workflows, has the
same problem with its database password.

## Alternatives

We looked at vendors' vaults, such as Azure Key Vault, and at running our own.

## Open questions

See [Grafana Labs pricing](https://example.com/pricing) before we pick a dashboard plan.
"""


def _subjects(text: str, path: str = "proposals/signing-keys.md") -> set[str]:
    result = extract_facts(text, SourceRef("a1", "sources/a1.md", "doc.md", path))
    return {fact.target.display for fact in result.relations
            if fact.relation_type in {"about", "affected", "caused_by", "mitigated_by"}}


def test_a_vendor_product_named_once_is_a_subject() -> None:
    subjects = _subjects(PROPOSAL)
    assert {"AWS Secrets Manager", "Spring Security", "Argo Workflows"} <= subjects, subjects


def test_an_example_or_a_link_text_is_no_product_subject() -> None:
    subjects = _subjects(PROPOSAL)
    assert "Azure Key Vault" not in subjects  # one example of a kind ("such as")
    assert "Grafana Labs" not in subjects  # a company, in a link's text


def test_vendor_product_shape() -> None:
    for name in ("Spring Security", "AWS Secrets Manager", "Azure Data Lake Storage Gen2", "Grafana Tempo",
                 "Microsoft Presidio", "Stripe Checkout", "Argo Events"):
        assert vendor_product(name), name
    for name in ("Kafka ACL", "Tekton API", "Cortex PR", "Harbor Ave", "Grafana Labs", "Kafka for MeterFlow",
                 "Kafka cluster", "Acme Billing", "Spring", "PostgreSQL 15", "Kubernetes CronJob",
                 "Windows Server", "HAProxy VIP"):
        assert not vendor_product(name), name



BACKGROUND = PROPOSAL.replace("has the\nsame problem with its database password.", """has the
same problem with its database password. Its hosts run RHEL and Windows Server behind the HAProxy VIP;
a Kubernetes CronJob reads Kubernetes Secrets, and the AWS Health dashboard shows the region.""")


def test_where_one_looks_what_runs_it_and_a_kind_are_no_products() -> None:
    assert "Windows Server" in BACKGROUND
    subjects = _subjects(BACKGROUND)
    assert "Argo Workflows" in subjects, subjects
    for name in ("AWS Health", "Windows Server", "HAProxy VIP", "Kubernetes CronJob", "Kubernetes Secrets"):
        assert name not in subjects, name


def test_a_vendor_products_bare_name_is_its_alias() -> None:
    assert vendor_alias("AWS Secrets Manager") == ["Secrets Manager"]
    assert vendor_alias("Azure Service Bus") == ["Service Bus"]
    assert vendor_alias("Amazon ElastiCache") == ["ElastiCache"]
    assert vendor_alias("AWS Support") == [] and vendor_alias("Stripe Checkout") == []


def test_a_footers_tool_is_no_subject() -> None:
    footer = PROPOSAL + "\n*Subscribe to updates · Powered by Atlassian Statuspage*\n"
    assert "Atlassian Statuspage" not in _subjects(footer)
    assert "Atlassian Statuspage" in _subjects(footer.replace("Powered by", "Published with the team's"))


def test_a_table_row_is_no_sentence_of_the_prose() -> None:
    table = PROPOSAL + "\n| Option | Why not |\n|---|---|\n| B | Apache Camel Quarkus needs a rewrite |\n"
    assert "Apache Camel Quarkus" not in _subjects(table)
    assert "Apache Camel Quarkus" in _subjects(PROPOSAL + "\nThe quotes service runs on Apache Camel Quarkus.\n")
