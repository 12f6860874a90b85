"""The names a decision record's options not chosen are made of (concl45): what a MADR record's
Considered Options name beside the chosen one ("AWS Batch with Step Functions", "Keep Airflow
and add the KubernetesExecutor") is rejected by the decision; a verb, an ordinary word or a
describing word that opens an option ("Managed", "Cloud-optimised", "NHS-wide") names nothing."""

from __future__ import annotations

from tasks.extract import SourceRef, extract_facts
from tasks.extract.records import _option_names

RECORD = """# Run batch jobs on the cluster

* Status: accepted
* Date: 2025-05-06

## Context and Problem Statement

Nightly jobs run from cron on two hosts and fall behind.

## Considered Options

* Keep Jenkins and add the KubernetesPlugin
* Argo Workflows on the cluster
* AWS Batch with a managed queue

## Decision Outcome

Chosen option: "Argo Workflows on the cluster", because each step runs as its own pod.

## Pros and Cons of the Options

### Keep Jenkins and add the KubernetesPlugin

* Bad, because the Jenkins controller stays a single point of failure

### AWS Batch with a managed queue

* Bad, because the data would leave our storage
"""


def test_what_an_option_not_chosen_names_is_rejected() -> None:
    result = extract_facts(RECORD, SourceRef("x", "wiki/sources/x.md", "raw/x.md", "docs/adr/0004-batch.md"))
    rejected = sorted(r.target.display for r in result.relations if r.relation_type == "rejects")
    assert rejected == ["AWS Batch", "Jenkins", "KubernetesPlugin"]


def test_an_options_opening_verb_ordinary_and_describing_words_name_nothing() -> None:
    assert _option_names("Keep Jenkins and add the KubernetesPlugin, because x") == ["Jenkins", "KubernetesPlugin"]
    assert _option_names("Managed event service in the public cloud") == []
    assert _option_names("SMS through the NHS-wide messaging service") == []
    assert _option_names("Option 2: Build our own") == []


def test_a_sentence_that_tells_a_rejection_or_whose_option_it_is_names_nothing() -> None:
    assert _option_names("Due to the low traffic most of the MySQL databases receive we decided against this") == []
    assert _option_names("Michael Nygard's template") == []


SHARED_QUALIFIER = """# Checksums for every stored file

* Status: accepted

## Context and Problem Statement

MD5 is no longer accepted as evidence of fixity.

## Considered Options

* SHA-256 for all objects, with rolling sampled audits
* SHA-512 with rolling audits
* BLAKE3 with rolling audits

## Decision Outcome

Chosen option: "SHA-256 for all objects, with rolling sampled audits", because every tool accepts it.

## Pros and Cons of the Options

### SHA-256 for all objects, with rolling sampled audits

* Good, because every tool accepts it

### SHA-512 with rolling audits

* Bad, because the tape library's hardware verify does not support it

### BLAKE3 with rolling audits

* Bad, because the BagIt specification does not list it
"""


def test_an_option_that_shares_the_chosen_one_s_qualifier_but_not_its_name_is_rejected() -> None:
    result = extract_facts(SHARED_QUALIFIER, SourceRef("x", "wiki/sources/x.md", "raw/x.md", "adr/0015.md"))
    rejected = {o.text: o.line_start for o in result.observations if o.text.startswith("Rejected: ")}
    assert rejected == {
        "Rejected: SHA-512 with rolling audits, because the tape library's hardware verify does not support it": 27,
        "Rejected: BLAKE3 with rolling audits, because the BagIt specification does not list it": 31}
