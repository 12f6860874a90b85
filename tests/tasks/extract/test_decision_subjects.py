"""The technologies, services and systems a decision names as its subject; precision first (no
name, no subject)."""

from __future__ import annotations

import pytest

from tasks.extract.decision_subjects import decision_subjects


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("We will use Luxon as the standard date library.", [("uses", "Luxon")]),
        ("We are using Amazon Web Services as our hosting provider.", [("uses", "Amazon Web Services")]),
        ("Use RDS instead of MySQL", [("uses", "RDS"), ("rejects", "MySQL")]),
        ("We have decided to use ACM to manage our certificates.", [("uses", "ACM")]),
        ("Requests should be mocked by using `msw`.", [("uses", "msw")]),
        ("Code should use the native `fetch` for HTTP.", [("uses", "fetch")]),
        (
            "The approaches taken for migrating from MongoDB to AWS DocumentDB are:",
            [("replaces", "MongoDB"), ("uses", "AWS DocumentDB")],
        ),
        ("Mongo Replacement by DocumentDB", [("replaces", "Mongo"), ("uses", "DocumentDB")]),
        ("Replace Jenkins with GitHub Actions.", [("replaces", "Jenkins"), ("uses", "GitHub Actions")]),
        ("Zod is the preferred library for validating data.", [("uses", "Zod")]),
        ('Chosen option: "Option 2: Lunr.js".', [("uses", "Lunr.js")]),
        # precision first: no capitalized name right after the verb, no subject
        ("We will use one of the following option names.", []),
        ("We decided to use a mechanism outside the environments.", []),
        ("We are using Elasticache instead of provisioning our own Redis.", [("uses", "Elasticache")]),
        ('Chosen option: "ADR number", because it is short.', []),
        ('Chosen option: "Multi-packages, monorepo, with Yarn and Lerna", because', []),
        ("Use Markdown Architectural Decision Records Now Please", []),  # never a cut name
        ("Use Pub/Sub for delay repay claims", []),  # nor one cut at a slash ("Pub")
        ("We will use ADR 12 as the base.", []),
        ("The Puppetmaster will continue to use a local instance of PostgreSQL.", []),
    ],
)
def test_decision_subjects(text: str, expected: list[tuple[str, str]]) -> None:
    assert [(s.relation_type, s.name) for s in decision_subjects(text)] == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # systems merged into others: the old one replaced, the kept one used
        ("Combine api-redis into backend-redis",
         [("replaces", "api-redis", "system"), ("uses", "backend-redis", "system")]),
        ("Combine api-mongo cluster into mongo cluster",
         [("replaces", "api-mongo cluster", "system"), ("uses", "mongo cluster", "system")]),
        ("We should merge the API PostgreSQL instance into the main PostgreSQL instance.",
         [("replaces", "API PostgreSQL instance", "system"),
          ("uses", "main PostgreSQL instance", "system")]),
        ("Consolidate `orders-db` into the `billing-db`.",
         [("replaces", "orders-db", "system"), ("uses", "billing-db", "system")]),
        # managed cloud services are typed service, other names technology
        ("Use RDS instead of provisioned EC2 databases",
         [("uses", "RDS", "service"), ("rejects", "EC2", "service")]),
        ("Mongo Replacement by DocumentDB",
         [("replaces", "Mongo", "technology"), ("uses", "DocumentDB", "service")]),
        ("We will create an EFS resource and expose the mount.", [("uses", "EFS", "service")]),
        ("We will replace the nginx configuration with an Application Load Balancer.",
         [("uses", "Application Load Balancer", "service")]),
        ("We will use Luxon", [("uses", "Luxon", "technology")]),
        # precision first: a choice left open, numbers of things, a name without a system noun
        ("Move it to either the cache instances, or replace the config with an Application Load "
         "Balancer.", []),
        ("Merge the two services into one service.", []),
        ("We will create a Status section in every record.", []),
        ("We will create an EFS.", []),
    ],
)
def test_systems_and_services(text: str, expected: list[tuple[str, str, str]]) -> None:
    assert [(s.relation_type, s.name, s.entity_type) for s in decision_subjects(text)] == expected
