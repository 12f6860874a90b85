"""Canonical entity names (issue 23 item 2): one entity for "Postgres", "postgres" and
"PostgreSQL 15". A written name becomes its canonical form (a well-known product's usual
spelling, without a trailing version number); the written forms are kept as the entity's
registry aliases. Case is not a difference: the registry's keys are case-insensitive.
Pure."""

from __future__ import annotations

import re

from tasks.extract.technologies import usual_spelling
from tasks.extract.text import word_spans

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
    # AWS's DNS and template services, written run together as often as apart (GOV.UK's ADRs
    # write both "Route53" and "Route 53", "Cloud Formation" and "CloudFormation")
    "route53": "Route 53",
    "amazon route 53": "Route 53",
    "aws route 53": "Route 53",
    "aws route53": "Route 53",
    "cloudformation": "CloudFormation",
    "cloud formation": "CloudFormation",
    "aws cloudformation": "CloudFormation",
    "aws cloud formation": "CloudFormation",
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


def spelled_out(acronym: str, text: str) -> str | None:
    """The name `text` spells `acronym` out in, its capitalized words' initials ("Digital
    Services Division" for "DSD"; "of", "and", "for" and "the" between them are no initials),
    the form written most often, or None: the acronym is that name's short form. Words that
    end a longer name do not spell it."""
    if not _ACRONYM_RE.fullmatch(acronym) or acronym[0] not in text:
        return None
    link = r"[ \t]+(?:(?:of|and|for|the|&)[ \t]+)?"
    # "D(?<![\w-]D)": the first letter, then the boundary behind it, so the engine skips to that
    # letter instead of trying the boundary at every character of the page (the same matches)
    first = acronym[0]
    rest = "".join(f"{link}{letter}[a-z]+" for letter in acronym[1:])
    pattern = re.compile(f"{first}(?<![\\w-]{first})[a-z]+{rest}" + r"(?![\w-])")
    found = [" ".join(match.group().split()) for match in pattern.finditer(text)
             if not _LONGER_NAME_RE.search(text, max(0, match.start() - 40), match.start())]
    return max(sorted(set(found)), key=found.count) if found else None


_ACRONYM_RE = re.compile(r"[A-Z]{2,6}")
# A capitalized word right before the spelled-out words: they end a longer name ("Airport
# Collaborative Decision Making" is "A-CDM", not "CDM"), unless the word opens a sentence ("The").
_LONGER_NAME_RE = re.compile(r"(?<![\w-])(?!(?:The|A|An|Our|Its|Their|This|That|Every|Each)\b)[A-Z][\w-]* $")


def singular_acronym(name: str, text: str) -> str | None:
    """The singular of a plural acronym that `text` also writes alone ("OTA" of "OTAs" where
    the page writes "an OTA that had" or "OTA APIs"; not of "OTA_HotelAvailNotifRQ", an
    identifier), or None: one entity for both spellings, the plural its alias. An acronym
    whose final "s" is its own letter is never written without it ("APNs", the Apple Push
    Notification service) and stays as written."""
    if not _PLURAL_ACRONYM_RE.fullmatch(name):
        return None
    singular = name[:-1]
    return singular if word_spans(text, singular) else None


_PLURAL_ACRONYM_RE = re.compile(r"[A-Z][A-Z0-9]{1,5}s")


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
