"""The technologies a decision names as its subject; precision first (no name, no subject)."""

from __future__ import annotations

import pytest

from tasks.decision_subjects import decision_subjects


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
        ("We will use ADR 12 as the base.", []),
        ("The Puppetmaster will continue to use a local instance of PostgreSQL.", []),
    ],
)
def test_decision_subjects(text: str, expected: list[tuple[str, str]]) -> None:
    assert [(s.relation_type, s.name) for s in decision_subjects(text)] == expected
