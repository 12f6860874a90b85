"""Canonical entity names (issue 23 item 2): one entity for "Postgres", "postgres" and
"PostgreSQL 15", the written forms its registry aliases; subject terms read from prose."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tasks.distill.apply import distill_memory
from tasks.extract import SourceRef, extract_facts
from tasks.extract.canonical import canonical_name, canonical_names, singular_acronym, spelled_out, versioned
from tasks.extract.subject_terms import system_phrases, title_subject
from tasks.store.operation import writing_operation
from tasks.store.settings import load_settings
from tests.conftest import FIXED_NOW
from tests.stored_sources import bootstrap, store_source


def test_canonical_names_drop_versions_and_use_the_usual_spelling() -> None:
    assert canonical_name("PostgreSQL 15") == "PostgreSQL"
    assert canonical_name("postgres") == canonical_name("Postgres") == "PostgreSQL"
    assert canonical_name("Elasticsearch 6") == "Elasticsearch"
    assert canonical_name("RFC 1210") == "RFC 1210"  # a number that names, not a version
    assert canonical_name("Route53") == canonical_name("Route 53") == "Route 53"  # 53 is the name
    assert canonical_name("AWS Cloud Formation") == canonical_name("CloudFormation") == "CloudFormation"
    assert canonical_names("Postgres") == ("PostgreSQL", "Postgres")
    assert canonical_names("shuffle-sharding") == ("shuffle-sharding", "shuffle sharding")
    assert versioned("PostgreSQL", "on PostgreSQL 15 and PostgreSQL 15.2, not PostgreSQL-16") == [
        "PostgreSQL 15", "PostgreSQL 15.2"]


def test_system_phrases_and_title_subjects() -> None:
    found = system_phrases([(3, "We restarted the session store; a new service took over the Payments API.")])
    assert {hits[0][1] for hits in found.values()} == {"session store", "Payments API"}
    assert system_phrases([(1, "a shared cache service")])["shared cache service"] == [(1, "shared cache service")]
    assert title_subject("Postmortem: Login service outage") == "Login service"
    assert title_subject("Scheduler architecture") == "Scheduler"


POSTMORTEM = """# Postmortem: {title}

**Date:** 2024-0{month}-02
**Status:** Complete

## Summary

The {name} primary ran out of disk and the orders service stopped writing for 20 minutes.

## Root Causes

The {name} write-ahead log filled the disk of the {name} primary.

## Resolution

We grew the disk of the {name} primary.

## Action Items

- Alert on {name} disk usage (owner: sam)
"""


def test_one_entity_for_every_spelling_of_postgres(tmp_path: Path) -> None:
    root = tmp_path / ".memories"
    bootstrap(root, FIXED_NOW)
    for month, (title, name) in enumerate([("Orders database full", "Postgres"),
                                            ("Orders database full again", "postgres"),
                                            ("Orders database full once more", "PostgreSQL 15")], 1):
        text = POSTMORTEM.format(title=title, name=name, month=month)
        store_source(root, f"incidents/2024-0{month}-02-orders.md", text, now_iso=FIXED_NOW)
    with writing_operation(load_settings(root, fixed_clock=FIXED_NOW), "distill") as operation:
        assert distill_memory(operation).status == "success"
    registry = json.loads((root / "context/entity-registry.jsonc").read_text(encoding="utf-8"))
    postgres = [e for e in registry["entries"] if "postgres" in e["canonicalName"].lower()
                or any("postgres" in a.lower() for a in e["aliases"])]
    assert [e["canonicalName"] for e in postgres] == ["PostgreSQL"]
    assert {"Postgres", "PostgreSQL 15"} <= set(postgres[0]["aliases"])
    graph = json.loads((root / "context/knowledge-graph.index.jsonc").read_text(encoding="utf-8"))
    incidents = {r["sourceEntityName"] for r in graph["relations"] if r["targetEntityName"] == "PostgreSQL"}
    assert len(incidents) == 3  # each incident relates to the one entity


def test_an_acronym_spelled_out_by_the_initials_of_capitalized_words() -> None:
    text = ("**Meeting:** Digital Services Division board\nEvery DSD service ...\n"
            "the Department of Building and Safety; PCI DSS SAQ A")
    assert spelled_out("DSD", text) == "Digital Services Division"
    assert spelled_out("DBS", text) == "Department of Building and Safety"  # "of", "and" are no initials
    assert spelled_out("SAQ", text) is None and spelled_out("Dsd", text) is None
    assert spelled_out("DS", "digital services, Digital services") is None  # capitalized words only


def _spelled_out_by_boundary_first(acronym: str, text: str) -> str | None:
    """spelled_out as it was written before its pattern opened with the acronym's letter: the
    word boundary first, tried at every character (the reference for the same answers)."""
    import re

    from tasks.extract.canonical import _ACRONYM_RE, _LONGER_NAME_RE

    if not _ACRONYM_RE.fullmatch(acronym) or acronym[0] not in text:
        return None
    link = r"[ \t]+(?:(?:of|and|for|the|&)[ \t]+)?"
    pattern = re.compile(r"(?<![\w-])" + link.join(f"{letter}[a-z]+" for letter in acronym) + r"(?![\w-])")
    found = [" ".join(match.group().split()) for match in pattern.finditer(text)
             if not _LONGER_NAME_RE.search(text, max(0, match.start() - 40), match.start())]
    return max(sorted(set(found)), key=found.count) if found else None


def test_spelled_out_finds_what_the_boundary_first_pattern_found() -> None:
    import random

    rng = random.Random(7)
    words = ["Digital", "Services", "Division", "of", "and", "the", "Data", "-Digital", "xDigital", "Design",
             "\n", "The", "Service", "Desk", "DSD", "D", "Dd", "&", "\t", "Sdk", "_Digital", "Dé"]
    answers = set()
    for _ in range(3000):
        text = " ".join(rng.choice(words) for _ in range(rng.randint(1, 12)))
        text = text.replace(" -", "-") if rng.random() < 0.3 else text
        for acronym in ("DSD", "DS", "SD", "DD", "TDS"):
            answer = spelled_out(acronym, text)
            assert answer == _spelled_out_by_boundary_first(acronym, text), (acronym, text)
            answers.add(answer)
    assert None in answers and len(answers) > 5  # pages that spell a name out, and pages that do not


@pytest.mark.parametrize(("name", "text", "expected"), [
    ("OTAs", "an OTA that had cents; the OTAs close", "OTA"),
    ("OTAs", "the OTAs and OTA_HotelAvailNotifRQ", None),  # an identifier's prefix is no singular
    ("APNs", "the APNs certificate expired", None),  # its "s" is its own letter: never written without
    ("SDKs", "the SDK and both SDKs", "SDK"),
    ("SDK", "the SDK", None),  # no plural
    ("Ops", "Ops and Op", None),  # no acronym
])
def test_a_plural_acronym_is_its_singular_where_the_page_writes_it(name: str, text: str,
                                                                  expected: str | None) -> None:
    assert singular_acronym(name, text) == expected


def test_a_plural_acronym_and_its_singular_are_one_entity() -> None:
    # "an OTA that had ..." once, "the OTAs" twice: the plural was the entity's name, and another
    # page's "OTA" a second entity
    path = (Path(__file__).parents[2] / "fixtures/distill/heldout27/postmortems"
            / "kestrel-near-zero-rates-learning-review.md")
    result = extract_facts(path.read_text(encoding="utf-8"),
                           SourceRef("x", "wiki/sources/x.md", "raw/x.md", "postmortems/kestrel.md"))
    names = [f.ref.names for f in result.entities if {"OTA", "OTAs"} & set(f.ref.names)]
    assert names == [("OTA", "OTAs")], names
