"""A document's subjects (tasks/extract/genre_subjects.py): a common technology named in lower
case or once where it counts, a name used once inside a conclusion, "Go" the language, and no
phrase that opens as a description."""

from __future__ import annotations

from pathlib import Path

import pytest

from tasks.extract import SourceRef, extract_facts
from tasks.extract.candidates import CandidateHits
from tasks.extract.decision_people import PERSON_TYPE
from tasks.extract.genre_subjects import _Choice, _where_a_name_runs

POSTMORTEM = """# Postmortem: Checkout outage

**Date:** 2024-02-01
**Status:** Complete

## Summary

On 1 February 2024 checkout failed for 20 minutes after a deploy of the cart service.

## Root Cause

The cart service opened a new connection to postgres for every request, and connections
queued until the pool in PgBouncer was exhausted. Users on an older SDK retried at once.

## Detection

The error-rate alert in Grafana paged the on-call engineer.

## Resolution

We rolled the cart service back from the Spinnaker console.
"""

PROPOSAL = """# Proposal: Go should have iterators

Author: Ann Example
Status: Draft

## Abstract

Go programs loop over containers by hand. This proposal adds iterators to the Go language.

## Background

Go to the appendix for the history. Iterators in Rust and Python inspired this.
"""


def _subjects(text: str) -> dict[str, str]:
    result = extract_facts(text, SourceRef("a1", "sources/a1.md", "doc.md", "doc.md"))
    return {fact.target.display: fact.relation_type for fact in result.relations
            if fact.relation_type in {"about", "affected", "caused_by", "mitigated_by"}}


def test_postmortem_subjects_named_in_lower_case_or_once_where_it_counts() -> None:
    subjects = _subjects(POSTMORTEM)
    assert subjects.get("PostgreSQL") == "caused_by"  # "postgres", in lower case, in the root cause
    assert "PgBouncer" in subjects  # once, inside the root cause
    assert subjects.get("Spinnaker") == "mitigated_by"  # once, inside the resolution
    # once, but where it alerted and paged: the team's own alerting tool (recall34: the gold of
    # dev7, dev8, heldout, heldout3 and heldout5 names it so); a dashboard one opens is not one
    assert subjects.get("Grafana") == "about"
    assert not any("older" in name.lower() for name in subjects)


def test_go_the_language_and_languages_named_once_in_passing() -> None:
    subjects = _subjects(PROPOSAL)
    assert "Go" in subjects
    assert "Rust" not in subjects and "Python" not in subjects  # once, outside title and conclusions


def test_a_page_of_no_genre_needs_more_than_two_mentions_of_a_common_technology() -> None:
    assert _subjects("# Notes\n\nWe moved to Redis last year. Redis is fast.\n") == {}
    assert _subjects("# Notes\n\nWe moved to Redis last year.\n\n## Later\n\nIt is fast.\n\n## End\n\nOk.\n") == {
        "Redis": "about"}  # a write-up in sections: once in a sentence is enough
    assert "Redis" in _subjects("# Redis notes\n\nWe moved to Redis last year. Redis is fast.\n")


NOTES = """# Queue redesign review, 2024-05-14

## Summary

We reviewed moving job dispatch from the jobs table in PostgreSQL to NATS JetStream.
JetStream keeps messages on disk. The dispatcher would publish each job to JetStream.

## Key points

- JetStream consumers pull jobs instead of polling.
- The jobs table stays the source of truth; workers read it through JetStream too.
"""


def test_notes_named_by_day_are_no_record_and_yield_subjects() -> None:
    result = extract_facts(NOTES, SourceRef("a1", "sources/a1.md", "doc.md", "notes/2024-05-14-queue-review.md"))
    assert not result.is_decision_record  # a day in its file name is no record number (recall33) ...
    assert not any(o.text.startswith("Decision: ") for o in result.observations)
    subjects = {f.target.display for f in result.relations if f.relation_type == "about"}
    # ... and its subjects are read (PostgreSQL and NATS named once in a sentence of notes in sections)
    assert {"JetStream", "jobs table", "PostgreSQL", "NATS"} == subjects
    numbered = extract_facts(NOTES, SourceRef("a1", "sources/a1.md", "doc.md", "adr/0007-queue-review.md"))
    # a numbered record: its names under a record's stricter gates (dec48), no plain "jobs table"
    assert {f.target.display for f in numbered.relations if f.relation_type == "about"} == {
        "JetStream", "PostgreSQL", "NATS"}


ARCHITECTURE = """# Log ingestion architecture

## Components

| Component | Responsibility |
|---|---|
| `collector` | Tails files and ships batches to the router. |
| `router` | Hashes each stream to a partition. |

**indexer**: one indexer owns a partition; the router never buffers.

## Deployment

Gradual deployment is the default. Update the router with `lumenctl`. Error budgets are
tracked per tenant. The Dockerfile of each component lives next to its code. Handling of a
moved stream is described in the router's Dockerfile. Update notes and Error pages too.
"""


def test_reference_page_components_marked_by_structure_and_no_sentence_start_words() -> None:
    subjects = _subjects(ARCHITECTURE)
    assert {"collector", "router", "indexer"} <= set(subjects)
    assert not {"Update", "Error", "Handling", "Dockerfile", "Gradual deployment", "Log ingestion"} & set(subjects)


NOTIFICATIONS = """# Notification service architecture

The notification service sends email and push messages for every product team. The backend
service of any product team never calls a provider directly. A contributor filed an issue
on GitHub about it. Metadata is kept in Amazon Aurora; Aurora is backed up nightly.

## Components

- **intake**: validates requests; see the [`--max-batch`](./flags.md) and the
  [intake argument](./config.md#intake).
- **dispatcher**: sends through the rate
  limit service; Error: the dispatcher drops a message after an hour.
- [Production tips](./tips.md)

## Constraints

- The dispatcher must never send to a user who opted out; see OPS-7781 and OPS-7790.
- Aurora must keep receipts for 90 days. The PoC of a second dispatcher is TBD.

## Glossary

- **Quiet hours**: a window in which only transactional messages are delivered.
"""


def test_precision_no_kinds_labels_tracker_keys_jargon_or_glossary_terms() -> None:
    subjects = _subjects(NOTIFICATIONS)
    assert {"intake", "dispatcher", "rate limit service", "Amazon Aurora"} <= set(subjects)
    assert not {"Error", "OPS", "PoC", "GitHub", "backend service", "product team", "limit service",
                "Production tips", "Quiet hours", "intake argument", "Aurora"} & set(subjects)


def _unsure(text: str) -> set[str]:
    result = extract_facts(text, SourceRef("a1", "sources/a1.md", "doc.md", "doc.md"))
    return {spellings[0] for spellings in result.subject_terms}


KINDS = """# Postmortem: Search outage

## Summary

Product services publish events to the indexer; each product team owns one. The search
service failed on the API node after a force-merge of the product index, and every
search request returned an error.

## Root Cause

A force-merge of the product index ran on the API node while the search service served
traffic; Product services kept publishing. The order-router and the ceph-csi driver
retried each error. The build workers retried too; build workers share the product index.
The nightly reindex ran as the batch job on the production cluster.

## Resolution

We stopped the force-merge and restarted the order-router and ceph-csi on the API node.
"""


def test_ordinary_words_in_lower_case_need_the_structure_to_be_subjects() -> None:
    """A lower-case term of ordinary English words that names a kind of thing is no subject
    unless the structure marks it; it stays an unsure term (a candidate)."""
    subjects = _subjects(KINDS)
    assert {"search service", "product index", "order-router", "ceph-csi", "build worker"} <= set(subjects)
    assert not {"force-merge", "Product service", "product team", "API node", "batch job",
                "production cluster"} & set(subjects)
    assert {"force-merge", "API node", "Product service", "product team", "batch job",
            "production cluster"} <= _unsure(KINDS)  # twice, or where a conclusion is stated: candidates


def test_the_structure_makes_an_ordinary_term_a_subject() -> None:
    """The same terms become subjects where a table row, a header field, bold, code or a
    heading names them; a heading's word a modifier describes ("Streaming uploads") does not."""
    marked = KINDS.replace("## Resolution", "| Affected | API node, force-merge |\n|---|---|\n\n## Resolution")
    assert {"force-merge", "API node"} <= set(_subjects(marked))


PROPOSAL_SLUG = """# DEP 42: Streaming uploads for the artifact store

Author: Ann Example
Status: Draft

## Summary

Uploads to the artifact store are buffered. This DEP streams uploads; uploads resume.
The artifact store keeps uploads for a day, and uploads are checked.

## Motivation

The artifact store runs out of disk.
"""


def _proposal_subjects(text: str) -> set[str]:
    result = extract_facts(text, SourceRef("a1", "sources/a1.md", "0042-streaming-uploads.md",
                                           "0042-streaming-uploads.md"))
    return {fact.target.display for fact in result.relations if fact.relation_type == "about"}


def test_a_lower_case_word_of_the_file_name_that_the_title_describes_is_no_subject() -> None:
    """"uploads" (0042-streaming-uploads.md) is an ordinary word the title describes
    ("Streaming uploads"): no subject, unless written bold or standing alone in a heading."""
    assert "artifact store" in _proposal_subjects(PROPOSAL_SLUG)
    assert "uploads" not in _proposal_subjects(PROPOSAL_SLUG)
    assert "uploads" in _proposal_subjects(PROPOSAL_SLUG.replace("This DEP streams uploads", "This DEP streams **uploads**"))
    assert "uploads" in _proposal_subjects(PROPOSAL_SLUG.replace("## Summary", "## The uploads"))


RUNBOOK = """# Runbook: Orders replication lag

## Meaning

The orders database replicas lag behind the primary. The cluster runs on Kubernetes.

## Background

The replica dashboard is in Grafana (see the [Datadog monitor](https://example.com/m)).
Each replica is a pod (the node runs Ubuntu, managed with Ansible).
- Error: `timeout` in the Envoy logs.

## Mitigation

Restart the replica pod.
"""


def test_a_common_technology_named_once_in_a_sentence_of_a_runbook_but_not_as_an_aside() -> None:
    subjects = _subjects(RUNBOOK)
    assert "Kubernetes" in subjects  # once, in a sentence of what the team runs
    assert not {"Grafana", "Datadog", "Ubuntu", "Ansible", "Envoy"} & subjects.keys()  # on a line
    # with a link, in parentheses, in a quoted error


BUILD_OUTAGE = """# What happened to our builds

On Saturday our builds failed for seven hours. An autoscaler (a small program we call
`runnerd`) starts an instance for each job.

## Background

We moved CI from Jenkins last year.

## What happened

runnerd saw the failed jobs as unhealthy and started new ones. The `namespace` was full.
Each namespace holds the jobs of a team.

## Changes

- runnerd will stop scaling after five failed jobs.
"""


def test_a_coined_name_in_code_and_prose_without_an_article() -> None:
    subjects = _subjects(BUILD_OUTAGE)
    assert "runnerd" in subjects and "Jenkins" in subjects
    assert "namespace" not in subjects  # written after an article: a kind of thing


def test_a_team_named_by_its_field_and_a_technology_backing_a_thing() -> None:
    page = ("# Checkout notes\n\nOwner: messaging team. It is run by the data engineering team.\n\n"
            "## Change\n\nThe rollout enabled the Memcached-backed cache. We are hiring team leads.\n\n"
            "## End\n\nDone.\n")
    subjects = _subjects(page)
    assert {"messaging team", "data engineering team", "Memcached"} <= subjects.keys()
    assert not any("hiring" in name for name in subjects)


def test_a_name_an_appositive_defines_is_a_subject_once() -> None:
    page = ("# Proposal: Leased schedules\n\nStatus: Draft\n\n## Summary\n\nReplace the trigger of Conveyor, "
            "our job runner, with a lease.\n\n## Alternatives\n\nWe looked at tus, the resumable upload "
            "protocol, but dropped it. However, the parser can wait.\n")
    subjects = _subjects(page)
    assert {"Conveyor", "tus"} <= subjects.keys()
    assert "However" not in subjects and "parser" not in subjects


def test_a_team_named_twice_anywhere() -> None:
    page = ("# Postmortem: DNS failures\n\n## Summary\n\nLookups failed for an hour.\n\n## Background\n\n"
            "On Monday the platform team migrated the cluster DNS.\n\n## Notes\n\nThe platform team owns "
            "the chart.\n")
    assert "platform team" in _subjects(page)


BYLINED_POSTMORTEM = """# The ledger backlog of 4 March

*Written by Ilse Brandt for the payments team, 11 March 2025.*

On Tuesday 4 March 2025 at 09:02 UTC the ledger-writer stopped committing batches to Postgres,
and card payments queued for 47 minutes.

## What happened

A schema migration took an exclusive lock on the entries table. Ilse noticed the queue depth
at 09:10 and paged Tomás Ruiz from storage.

## Timeline

- 09:02 the migration starts
- 09:10 Ilse sees the queue depth alert in Grafana
- 09:25 Tomás cancels the migration; the ledger-writer drains its backlog

## Follow-up

- Run migrations through pg-online-schema-change. (Owner: Ilse Brandt, PAY-311)
- Alert on lock waits over 30 seconds. (Owner: Tomás Ruiz, STO-88)
"""

MINUTES_WRAPPED_ATTENDANCE = """# Storage sync, 12 March 2025

Attendees: payments (Ilse Brandt, Tomás
Ruiz), storage (Kofi Mensah), platform (Wren Adeyemi)

## Notes

- Kofi: the Ceph cluster upgrade to Reef is done on two of three racks.
- Wren asked whether the RGW gateways need a restart after the upgrade.
- Tomás presented the lock-wait alert for Postgres.

## Decisions

- Finish the Ceph upgrade on the third rack next week.

## Action items

- Kofi Mensah: upgrade the last rack.
"""

MINUTES_PEOPLE_IN_PROSE = """# Storage sync, 19 March 2025

Attendees: payments (Ilse Brandt, Tomás
Ruiz), storage (Kofi Mensah), platform (Wren Adeyemi)

## Notes

The Ceph cluster upgrade to Reef finished on all racks. After the upgrade Kofi Mensah found
that the RGW gateways kept stale bucket indexes, and Wren Adeyemi restarted them by hand.

## Action items

| Owner | Task |
|---|---|
| Kofi Mensah | write the RGW restart into the upgrade runbook |
"""


def _persons(text: str) -> set[str]:
    result = extract_facts(text, SourceRef("a1", "sources/a1.md", "doc.md", "doc.md"))
    return {fact.target.display for fact in result.relations if fact.target.entity_type == "person"}


def test_people_a_byline_or_an_owner_note_names_are_no_subjects() -> None:
    subjects = _subjects(BYLINED_POSTMORTEM)
    persons = _persons(BYLINED_POSTMORTEM)  # they are the persons it names, never a technology
    assert not any(name.startswith(("Ilse", "Tomás")) for name in set(subjects) - persons), subjects
    assert {"Ilse Brandt", "Tomás Ruiz"} <= persons
    assert "PostgreSQL" in subjects  # what the incident is about stays


def test_people_in_brackets_and_on_a_wrapped_attendance_line_are_no_subjects() -> None:
    for text in (MINUTES_WRAPPED_ATTENDANCE, MINUTES_PEOPLE_IN_PROSE):
        subjects = set(_subjects(text)) - _persons(text)
        assert not any(name.split()[0] in {"Ilse", "Tomás", "Kofi", "Wren"} for name in subjects), subjects
        assert "Ceph" in subjects


RECALL32_POSTMORTEM = """# Postmortem: Search results stale

**Date:** 2025-02-01
**Status:** Complete

## Summary

Search results were six hours old because the indexing workers stopped reading the change
feed. A full replay of the change feed then overloaded the cluster; the replay tool had no
rate limit. Raj traced the lag to the Hourly
Rollup job, which held a lock on the feed. The Postgres write-ahead log grew meanwhile.

## Root Cause

The Hourly Rollup job locked the change feed table while it ran.

## Action Items

| Action | Owner | Ticket |
|---|---|---|
| Add a freshness check to the synthetic probes in Checkly | SRE | OPS-12 |
| Give the replay tool a default rate limit and re-index nightly | Search | OPS-13 |
| Add jitter to cache TTLs in the indexer | Search | OPS-14 |
"""


def test_heads_a_wrapped_name_and_a_sentence_cell_of_a_table() -> None:
    subjects = _subjects(RECALL32_POSTMORTEM)
    assert "change feed" in subjects and "replay tool" in subjects  # a feed, a tool: system heads
    assert "Hourly Rollup" in subjects or "Hourly Rollup job" in subjects  # across a line break
    assert not {"Rollup", "Hourly", "Rollup job"} & set(subjects)  # its halves name nothing
    assert "Checkly" in subjects  # once, in an action item's sentence cell of a table
    assert not any(name.lower().startswith("re-") for name in subjects)  # "re-index" is a verb
    assert "TTLs" not in subjects  # an all-caps plural written once is a kind
    assert not any("write-ahead" in name for name in subjects)  # Postgres's log is a part of it


def test_a_team_the_page_says_owns_something_is_a_subject_once() -> None:
    text = """# Search cluster

## Overview

Product search runs on an OpenSearch cluster of six data nodes. Queries come from a
Kotlin service. A nightly reindex runs as a Spark job.

## Operations

Snapshots go to S3 every six hours. The Search team owns the cluster; dashboards are
maintained by the Catalog team.
"""
    subjects = _subjects(text)
    assert "Search team" in subjects and "Catalog team" in subjects


def test_a_components_bold_field_labels_are_not_components() -> None:
    text = ("# Billing platform: architecture\n\nStatus: current\n\n## Components\n\n### invoice-api\n\n"
            "- **Language:** Go\n- **Hosts:** EKS, three replicas\n- **Consumes:** the orders topic\n"
            "- **Serves:** the web app\n\n### ledger-writer\n\n**Language**: Java. **Consumes**: invoice events.\n\n"
            "## Constraints\n\n- Only ledger-writer may write to the ledger database.\n")
    result = extract_facts(text, SourceRef("a", "wiki/sources/x.md", "raw/x.md", "arch/billing.md"))
    names = {e.ref.display for e in result.entities}
    assert {"invoice-api", "ledger-writer"} <= names
    assert not names & {"Language", "Hosts", "Consumes", "Serves", "Language:", "Consumes:"}


def test_an_alternatives_sub_heading_that_names_a_product_is_a_subject() -> None:
    text = """# OEP-31: PgBouncer 1.23 with prepared statements

## Summary

We upgrade PgBouncer to 1.23 so that prepared statements work in transaction mode.

## Motivation

Prepared statements fail behind PgBouncer 1.19, and PgBouncer is used by every service.

## Drawbacks

None worth noting.

## Alternatives

### PgCat

PgCat supports prepared statements but is young.

### Stay on 1.19 and enforce exec mode

Every driver would need its settings changed.
"""
    subjects = _subjects(text)
    assert "PgCat" in subjects
    assert not any(name.startswith("Stay") for name in subjects)  # an approach, not a product


def test_a_coined_name_the_title_writes_in_lower_case_is_a_subject() -> None:
    text = """# Design: moving invoice-renderer from Cloud Tasks to Pub/Sub

## Summary

The invoice-renderer service turns a finished billing period into a PDF.

## Motivation

At month-end invoice-renderer falls behind.

## Alternatives

Keep the queue.
"""
    assert "invoice-renderer" in _subjects(text)


def test_a_thing_named_in_code_after_its_kind_is_the_name() -> None:
    text = """# outbox-relay

## Overview

outbox-relay publishes rows of the outbox table to Kafka.

## Components

| Component | Role |
|---|---|
| relay | publishes rows |

## Constraints

- outbox-relay never deletes rows. The clean-up job `outbox-janitor` deletes published rows.
"""
    subjects = _subjects(text)
    assert "outbox-janitor" in subjects
    assert "clean-up job" not in subjects


LOWER_OPENING_NAMES = """# Design: Catalog search on OpenSearch

Author: Ana Ruiz (Catalog team)
Status: Approved

## Context and Scope

The catalog is a stac-fastapi service over pgSTAC. Search requests time out in pgSTAC.

## The actual design

pgSTAC stays the source of truth. An indexer copies each pgSTAC item into OpenSearch,
and the gRPC gateway sends searches there. Customers on iOS keep their app.
"""


def test_a_name_that_opens_in_lower_case_before_its_capitals_is_a_name_when_it_recurs() -> None:
    subjects = _subjects(LOWER_OPENING_NAMES)
    assert "pgSTAC" in subjects
    assert "iOS" not in subjects  # written once, in passing: no name used once


def test_the_phrase_hits_hold_names_that_open_in_lower_case_but_no_identifier_or_path() -> None:
    hits = CandidateHits()
    for number, line in enumerate(["Reads pgSTAC over gRPC.", "maxRetries is 3; see a.pgSTAC and eBPF-tools.",
                                   "HTTPS and kOps."], 1):
        hits.add_phrases(number, line, line)
    assert {phrase for phrase in hits.phrases if phrase[0].islower()} == {"pgSTAC", "gRPC"}


def test_a_kind_of_thing_is_read_from_the_text_it_is_given_when_texts_alternate() -> None:
    """_kind_of_thing splits the page's text once for all its terms (the split is remembered for
    the text asked last): asked about two pages in turn, each answer is its own page's."""
    from tasks.extract.genre_subjects import _kind_of_thing, _lines_of

    kinds = "Each product service owns a queue.\nMore product services."  # only "each", plural
    one = "The product service is down.\nEach product service owns a queue."  # "the": one system
    for _ in range(2):
        assert _kind_of_thing("system", "product service", 2, kinds) is True
        assert _kind_of_thing("system", "product service", 2, one) is False
        assert _lines_of(kinds) == tuple(kinds.splitlines())
        assert _lines_of("a\rb\u2028c") == ("a", "b", "c")


CONNECTOR_POSTMORTEM = """# INC-412: requests not reaching Cityworks

| Field | Value |
|---|---|
| **Affected services** | KP311, Cityworks connector |
| **Date** | 2025-12-09 |

## Summary

The Cityworks connector could not sign in to Cityworks for 31 hours. The City of Kestrel Point
asked for a review.

## Root cause

The connector treated 401 like any other error, so the connector retried and the connector
kept reporting itself healthy. Nobody told the lab manager.

## Resolution

The connector was restarted after the secret was renewed.
"""


def test_a_bare_word_is_the_short_way_to_say_the_name_that_ends_with_it() -> None:
    subjects = _subjects(CONNECTOR_POSTMORTEM)
    assert "Cityworks connector" in subjects and "connector" not in subjects
    assert "City of Kestrel Point" not in subjects  # the team's own city
    assert "lab manager" not in subjects  # a person's post


STATUS_LOG = """# Strata data lake: decision log

Owner: Data Engineering

Statuses: **Proposed**, **Agreed**, **Parked**.

| ID | Date | Decision | Status | Owner |
|----|------|----------|--------|-------|
| SDL-02 | 21/01/2025 | Table data uses Apache Iceberg with the REST catalog | Agreed | Kaito Brennan |
| SDL-08 | 10/06/2025 | Parked: tiering cold objects to tape with a lifecycle rule | Parked | Pieter de Vries |
| SDL-11 | 28/01/2026 | Sample lineage is written as an Iceberg table fed by Trino jobs | Proposed | Owen Hargreaves |

## Notes

**SDL-08.** Parked because the tape library is out of support; Iceberg and Trino stay.
"""


def test_a_status_of_the_log_and_a_table_of_a_format_are_no_subjects() -> None:
    subjects = _subjects(STATUS_LOG)
    assert "Iceberg" in subjects or "Apache Iceberg" in subjects
    assert "Parked" not in subjects and "Iceberg table" not in subjects


def test_a_table_of_a_chosen_format_written_once_is_no_system() -> None:
    def choice(key: str, score: int, kind: str = "system") -> _Choice:
        return _Choice(score, key, key, "system", 1, key, False, kind)

    chosen = [choice("iceberg", 5, "phrase"), choice("iceberg table", 1), choice("grant table", 1),
              choice("adyen", 4, "known"), choice("adyen client", 1), choice("trino table", 3)]
    # "an append-only Iceberg table": one table of the format; "grant table" names no chosen
    # format; "Adyen client" (judged a subject in inc43) and a table written often stay
    assert _where_a_name_runs(chosen, {"iceberg", "adyen", "trino"}) == {"iceberg table"}


BOARD_MINUTES = """# DSD Architecture Review Board – Tue 10 Feb

**Meeting:** Digital Services Division Architecture Review Board, fortnightly
**Chair:** Marisol Quintero (DSD Director)

## 1. Credentials that expire

Kwame said this is the third expired-credential incident in a year across DSD.

- **Decision:** Every credential used by a DSD service is stored in AWS Secrets Manager.
"""


def test_an_acronym_the_page_spells_out_is_the_name_it_spells() -> None:
    result = extract_facts(BOARD_MINUTES, SourceRef("a1", "sources/a1.md", "doc.md", "doc.md"))
    division = next(f for f in result.entities if f.ref.display == "Digital Services Division")
    assert "DSD" in division.aliases and division.ref.entity_type == "team"
    assert "DSD" not in _subjects(BOARD_MINUTES)


TWO_PLATFORM_TEAMS = """# Review board – Tue 10 Feb

**Present:** Halvard Moe (311 Platform), Oren Castellanos (Platform
Operations), Dev Anand (Payments)

## 1. Credentials

- **Decision:** Platform Operations runs a weekly report of expiring credentials in Secrets Manager.
- Renewal is owned by 311 Platform. Marek will change the Airflow DAG. Due Monday 10 Nov.
- Secrets Manager tags are read by Platform Operations every Monday, from 17 Nov.
- The first report goes out on 24 Nov, the second on Fri 1 Dec.
"""


def test_a_word_only_inside_team_names_is_no_subject() -> None:
    subjects = _subjects(TWO_PLATFORM_TEAMS)
    assert "Platform Operations" in subjects and "Platform" not in subjects


def test_a_month_cut_short_is_no_subject() -> None:
    # heldout18's e-mailed write-up: "Due Monday 10 Nov.", "On Thu, Nov 6, 2025 at 4:31 PM ..."
    path = Path(__file__).parents[2] / "fixtures/distill/heldout18/postmortems/2025-11-06-open-data-311-pii-exposure.md"
    subjects = _subjects(path.read_text(encoding="utf-8"))
    assert "CKAN" in subjects and "Nov" not in subjects


DEPOT_RUNBOOK = """# Runbook: Validator deny-list rotation

## Meaning

The "L1 latency" panel on the Prism Grafana dashboard is above 2 hours.

## Mitigation

1. Push the bundle with `ansible-playbook rotate.yml` from the depot server.
2. Wait for depot sync. Buses pick up the bundle when they connect to the depot Wi-Fi overnight.
3. Restart the validators through PgBouncer if the bundle is older than a day.
"""


def test_where_one_looks_or_connects_named_once_is_no_subject() -> None:
    subjects = _subjects(DEPOT_RUNBOOK)
    assert "PgBouncer" in subjects  # a name written once where a step is stated
    assert "Wi-Fi" not in subjects and "Prism Grafana" not in subjects


BUILDING_BLOCKS = """# PermitHub – building block view

PermitHub issues building, electrical, plumbing and sign permits. It is used by the Department of Building
and Safety's clerks and inspectors. Fees are posted to Munis by the PermitHub fee engine.

## Constraints

- A fee change needs sign-off from Building and Safety finance before deploy.
- PermitHub must never store card numbers; Building and Safety staff use Munis.
"""


def test_a_name_of_x_of_y_goes_on_after_and_and_its_last_word_is_no_name_alone() -> None:
    subjects = _subjects(BUILDING_BLOCKS)
    assert "Department of Building" not in subjects and "Safety" not in subjects
    assert "Department of Building and Safety" in subjects


def test_people_named_in_a_role_are_persons_the_document_is_about() -> None:
    text = ("# Postmortem: News channel outage\n\n**Date:** 2026-01-17\n"
            "**Postmortem owner:** Amara Nwosu\n**Incident commander:** Dr Piotr Zielinski\n\n"
            "## Summary\n\nThe channel was down for 20 minutes.\n\n## Action items\n\n"
            "| Action | Owner |\n|---|---|\n| Alarm on pipeline drift | Tobias Lindqvist |\n\n"
            "**Apologies:** Rosa Delgado\n")
    result = extract_facts(text, SourceRef("x", "wiki/sources/x.md", "raw/x.md", "postmortems/x.md"))
    people = {(r.relation_type, r.target.display) for r in result.relations if r.target.entity_type == "person"}
    # the owner field's person stays owned_by; the commander (without "Dr") and the action's owner
    # are about; someone who sent apologies is no subject
    assert people == {("owned_by", "Amara Nwosu"), ("about", "Piotr Zielinski"), ("about", "Tobias Lindqvist")}


def test_a_person_only_listed_in_a_meetings_fields_is_no_subject() -> None:
    text = ("# Architecture review board: 2026-02-10\n\n**Chair:** Marisol Quintero\n"
            "**Present:** Halvard Moe (311 Platform), Chloe Martin (Customer Care)\n\n"
            "## 1. Expiring credentials\n\nHalvard walked through the expired Cityworks secret.\n")
    persons = _persons(text)
    assert "Halvard Moe" in persons  # named again where the notes tell what was said
    assert not {"Marisol Quintero", "Chloe Martin"} & persons


def test_a_watch_tool_in_the_field_that_says_where_the_dashboard_or_pager_is() -> None:
    runbook = ("# Runbook: Origin 5xx rate\n\n**Dashboard:** Grafana → Origin overview\n"
               "Team: Platform. Pager: Opsgenie schedule `platform-primary`.\n\n"
               "## Meaning\n\nThe origin answers the CDNs with errors.\n\n## Mitigation\n\n"
               "Open the checkout dashboard in Datadog and restart the origin.\n")
    subjects = _subjects(runbook)
    assert {"Grafana", "Opsgenie"} <= subjects.keys()
    # a dashboard one opens in a step: the team's monitoring tool too (subj67: readers name the
    # watching tools key subjects so, Datadog in 7 tuning sets' gold, judged not one in none)
    assert "Datadog" in subjects


@pytest.mark.parametrize(
    ("page", "thing", "person"),
    [
        # "FlightCore and the CDM Portal agreed ...": a system after an article
        ("heldout14/minutes/2025-09-09-airport-systems-design-review.md", "CDM Portal", "Hideo Tanaka"),
        # "check in Boardwall Fleet (the device manager)": a thing its brackets name
        ("heldout14/runbooks/boardwall-screens-offline-checklist.md", "Boardwall Fleet", None),
        # "As a Sequencing Informatics analyst": a team, a job in it
        ("heldout19/architecture/building-block-view.md", "Sequencing Informatics", None),
    ],
)
def test_a_name_written_as_a_thing_is_no_person(page: str, thing: str, person: str | None) -> None:
    path = Path(__file__).parents[2] / "fixtures/distill" / page
    result = extract_facts(path.read_text(encoding="utf-8"), SourceRef("a1", "sources/a1.md", page, page))
    people = {fact.ref.display for fact in result.entities if fact.ref.entity_type == PERSON_TYPE}
    assert thing not in people
    assert person is None or person in people


ESCALATING_RUNBOOK = """# Runbook: Intake backlog

## Symptoms

The intake queue grows and the broker portal shows claims as pending. The NPX connector
stops relaying port orders to the broker portal.

## Mitigation

Restart the NPX connector; the broker portal catches up within ten minutes.

## Escalation

- Page the claims platform on-call when the backlog still grows after 30 minutes.
- Vendor support: case portal, priority 2, the claim number in the subject line.
"""


def test_a_portal_and_a_connector_are_systems_but_not_a_channel_one_escalates_through() -> None:
    subjects = _subjects(ESCALATING_RUNBOOK)
    assert "broker portal" in subjects and "NPX connector" in subjects
    assert "case portal" not in subjects  # where one files a vendor case, written once in Escalation
    assert "claims platform" in subjects  # the group paged: "the claims platform on-call"


DIAGRAMMED_RUNBOOK = """# FieldLink: MQTT backlog

## Symptoms

Readings arrive late on the FieldLink board and the EMQX queue grows.

## Diagnosis

Open ChirpStack and check when each gateway was last seen.

## Escalation

| When | Who |
|---|---|
| EMQX unhealthy | Platform Operations secondary |

::: mermaid
graph LR
  S[Sensors] --> G[LoRaWAN gateway] --> C[ChirpStack] --> F[FieldLink]
:::
"""


def test_a_diagram_at_the_end_of_escalation_is_no_escalation_channel() -> None:
    """A mermaid graph drawn under the Escalation section (Azure DevOps' `::: mermaid`) is a
    diagram, read as a fenced one is: none of its node labels is a channel one escalates
    through, nor a name read from prose ("Sensors"). (subj50 read its labels as names; at the
    merge concl50's and prec50's rules made the block code, as a fenced diagram is: reading
    every diagram's labels as names is left for later.)"""
    subjects = _subjects(DIAGRAMMED_RUNBOOK)
    assert "FieldLink" in subjects and "Sensors" not in subjects
    assert not any(relation not in {"about", "uses"} for relation in subjects.values()), subjects


KINDS_OF_PORTAL = """# Sign-in architecture

This page says how staff sign in to the library, the VPN and the research portals.

## Components

| Component | What it does |
|---|---|
| Keycloak | OIDC broker for the VPN, research portals and the library |
| Login | SAML for the library |

## Threats

A token of the library accepted by a research portal is the threat the broker guards against.
The identity team owns Keycloak and runs the Login service behind the broker portal.
"""


def test_a_system_phrase_written_only_as_many_of_a_kind_is_no_subject() -> None:
    subjects = _subjects(KINDS_OF_PORTAL)
    assert "research portal" not in subjects and "research portals" not in subjects
    assert "Keycloak" in subjects


DESKS_POSTMORTEM = """# Postmortem: Port orders stuck for a day

## Summary

Port-in orders stopped reaching NPX. The porting desk keyed 400 orders by hand and the porting
desk phoned the donor operators. Staff at the issue desk saw nothing.

## Root cause

The NPX client certificate expired. We sent the new certificate to the ESG help desk; with no
word from the help desk by noon, the ESG help desk was called. The service desk and the service desk
manager took the calls.
"""


def test_a_desk_written_again_is_a_team_but_not_one_every_organisation_has() -> None:
    result = extract_facts(DESKS_POSTMORTEM, SourceRef("a1", "sources/a1.md", "doc.md", "doc.md"))
    types = {fact.target.display: fact.target.entity_type for fact in result.relations}
    assert types.get("porting desk") == "team"
    assert "ESG help desk" in types and "help desk" not in types  # the acronym names which desk
    assert "issue desk" not in types  # once: where one goes
    assert "service desk" not in types  # what every organisation's desk is


def test_a_plus_that_ends_a_name_is_the_names_own() -> None:
    hits = CandidateHits()
    for number, line in enumerate(["The SM-DP+ server signs profiles over ES2+ calls.",
                                   "We price Disney+ and A+B plans, C++ and SM-DP+SM-DS."], 1):
        hits.add_phrases(number, line, line)
    assert {"SM-DP+", "ES2+", "Disney+"} <= set(hits.phrases)
    assert "A+" not in hits.phrases and not any(name.endswith("++") for name in hits.phrases)
    assert "SM-DP+" in hits.phrases and len(hits.phrases["SM-DP+"]) == 1  # not "SM-DP+SM-DS"


WATCHED_RUNBOOK = """# Runbook: Invoice queue age

## Meaning

Invoices wait in the queue longer than ten minutes. The queue runs on RabbitMQ.

## Diagnosis

1. Open the "Invoice workers" board in Grafana and compare the worker count with yesterday.
2. Check whether PagerDuty paged the billing on-call as well.
3. File a ticket in Jira for the billing team.
4. Post a note in Slack when the queue drains.
"""


def test_the_tools_that_watch_and_page_are_subjects_named_once_not_the_tracker_or_chat() -> None:
    subjects = _subjects(WATCHED_RUNBOOK)
    assert {"Grafana", "PagerDuty", "RabbitMQ"} <= subjects.keys()  # the team's monitoring and paging
    assert not {"Jira", "Slack"} & subjects.keys()  # where one files work and talks, named once


def test_a_watch_tool_named_once_takes_no_place_of_a_subject_with_more_evidence() -> None:
    from tasks.extract.genre_subjects import MAX_SUBJECTS, _capped

    def choice(name: str, kind: str, score: int) -> _Choice:
        return _Choice(score + 1, name.lower(), name, "technology", 1, name, False, kind, (), 1)

    others = [choice(f"{kind}{n}", kind, 1) for kind, many in (("system", 5), ("phrase", 4), ("code", 4))
              for n in range(many)]
    assert len(others) == MAX_SUBJECTS - 1
    kept = _capped([choice("Grafana", "known", 1), *others, choice("Tessera Primary", "phrase", 1)])
    names = [c.name for c in kept]
    assert "Tessera Primary" in names and "Grafana" not in names  # the cap is full: the tool gives way
    kept = _capped([choice("Grafana", "known", 1), *others])
    assert "Grafana" in [c.name for c in kept]  # room left: it is kept


def test_a_watch_tool_named_once_comes_after_the_technologies_of_its_kind() -> None:
    from tasks.extract.genre_subjects import _capped

    known = [_Choice(2, name.lower(), name, "technology", 1, name, False, "known", (), 1)
             for name in ("Argo CD", "Datadog", "EKS", "Grafana", "Kafka", "Kotlin", "Prometheus", "Python",
                          "Redis", "Spring Boot", "Terraform", "Vault")]
    names = [c.name for c in _capped(known)]
    assert {"Python", "Spring Boot"} <= set(names)  # each of its kind's places goes to a technology
    assert not {"Datadog", "Grafana"} & set(names)  # first, then to the watching tools


NOTICES_RUNBOOK = """# Runbook: Overdue notices not sent

## Meaning

The notice worker has sent no overdue notice for an hour.

## Background

Overdue notices go out by email (Amazon SES) or by SMS (Twilio), whichever the patron chose.
The notice worker keeps its queue in a table (see the Redis notes for the old design).

## Mitigation

Restart the notice worker.
"""


def test_a_technology_a_bracket_opens_with_is_what_the_noun_before_it_is_made_of() -> None:
    subjects = _subjects(NOTICES_RUNBOOK)
    assert {"Amazon SES", "Twilio"} <= subjects.keys()  # "(Twilio)": what the SMS is sent with
    assert "Redis" not in subjects  # further into a bracket: an aside


FLAGS_REVIEW = """# Incident review: feature flags served stale values

## Summary

On 4 March flags served stale values for 40 minutes.

## Background

The web shop reads its flags from LaunchDarkly through a relay we run ourselves. Its logs go
to CloudWatch. Rory McCallum wrote this review with the DevOps guild.

## Resolution

We restarted the relay.
"""


def test_a_coined_name_with_a_capital_inside_is_weighed_as_a_technology() -> None:
    subjects = _subjects(FLAGS_REVIEW)
    assert {"LaunchDarkly", "CloudWatch"} <= subjects.keys()  # once, in a sentence of what the team runs
    assert not {"McCallum", "Rory McCallum", "DevOps"} & subjects.keys()  # a surname, a practice


