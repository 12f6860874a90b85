"""Canonical entity names (issue 23 item 2): one entity for "Postgres", "postgres" and
"PostgreSQL 15". A written name becomes its canonical form (a well-known product's usual
spelling, without a trailing version number); the written forms are kept as the entity's
registry aliases. Case is not a difference: the registry's keys are case-insensitive.
Pure."""

from __future__ import annotations

import re

from tasks.extract.technologies import usual_spelling

# Well-known other spellings of a product -> its usual name (keys lower-case).
_USUAL_NAMES = {
    "postgres": "PostgreSQL",
    "postgresql": "PostgreSQL",
    "pg": "PostgreSQL",
    "k8s": "Kubernetes",
    "kubernetes": "Kubernetes",
    "mongo": "MongoDB",
    "mongodb": "MongoDB",
    "elastic search": "Elasticsearch",
    "elasticsearch": "Elasticsearch",
    "golang": "Go",
    "javascript": "JavaScript",
    "nodejs": "Node.js",
    "node.js": "Node.js",
    "argocd": "Argo CD",
    "argo cd": "Argo CD",
    "mysql": "MySQL",
    "redis": "Redis",
    "kafka": "Kafka",
    "apache kafka": "Kafka",
    "opensearch": "OpenSearch",
    "amazon opensearch": "OpenSearch",
    "aws msk": "Amazon MSK",
    "amazon msk": "Amazon MSK",
}
# A trailing version: "PostgreSQL 15", "Elasticsearch 6", "Python 3.11", "Go 1.x", "Redis v7".
_VERSION_AFTER_RE = re.compile(r"\s+v?\d+(?:\.\d+)*(?:\.x)?(?![\w.-])")
_VERSION_RE = re.compile(r"^(?P<name>.*[a-z].*?)\s+v?\d+(?:\.\d+)*(?:\.x)?$")


def canonical_name(written: str) -> str:
    """The canonical form of a written name: its usual spelling when it is a well-known
    product, without a trailing version number ("PostgreSQL 15" -> "PostgreSQL"; a number
    that is part of a known name stays: "Route 53")."""
    name = " ".join(written.split())
    usual = _USUAL_NAMES.get(name.lower())
    if usual is not None:
        return usual
    if " " in name and name[-1:].isdigit() and usual_spelling(name) is not None:
        return name
    versioned = _VERSION_RE.match(name)
    if versioned is not None:
        base = versioned.group("name")
        return _USUAL_NAMES.get(base.lower(), base)
    return name


def canonical_names(written: str, *others: str) -> tuple[str, ...]:
    """The canonical name first, then every other written form (case-insensitively distinct;
    a lower-case hyphenated name also with spaces: "shuffle-sharding" is "Shuffle Sharding"):
    a NameRef's names, so an entity already registered under any of them is the one found."""
    names: list[str] = []
    spaced = written.replace("-", " ") if "-" in written and written.islower() else written
    for name in (canonical_name(written), written, *others, spaced):
        name = " ".join(name.split())
        if name and name.lower() not in {n.lower() for n in names}:
            names.append(name)
    return tuple(names)


def versioned(name: str, text: str) -> list[str]:
    """The spellings of `name` with a version that `text` writes ("PostgreSQL 15"), sorted."""
    found: set[str] = set()
    start = text.find(name + " ")
    while start >= 0:
        end = start + len(name)
        match = _VERSION_AFTER_RE.match(text, end)
        if match is not None and (start == 0 or not (text[start - 1].isalnum() or text[start - 1] == "-")):
            found.add(text[start:match.end()])
        start = text.find(name + " ", end)
    return sorted(found)
