"""Subject precision (issue 23 item 6; prec62): RFC 2119 key words, an RFC memo's IANA section,
the company that holds a page's copyright or its mail domain, a command's `sudo`, a post-incident
review's genre words, a header table's role label, a person's name run on into the next line's
label, a document key's prefix, a link to a thread or a post, when or how a job runs: none is a
subject. A team written "X & Y" is one name; "Owner: Team (Person)" types the team a team and the
person a person; a component heading "A and B" names two components."""

from __future__ import annotations

from tasks.extract import SourceRef, extract_facts
from tasks.extract.organisations import organisation_names
from tasks.extract.subject_terms import series_key, title_subject

_TYPED = {"about", "affected", "caused_by", "mitigated_by", "owned_by", "authored_by"}


def _subjects(text: str, path: str) -> dict[str, str]:
    result = extract_facts(text, SourceRef("a1", "sources/a1.md", path.rsplit("/", 1)[-1], path))
    return {fact.target.display: fact.target.entity_type for fact in result.relations
            if fact.relation_type in _TYPED}


MEMO = """```
Kestrel Freight                                            J. Okoro
Request for Comments: KF-3                                     Yards
                                                          4 May 2026

                Yardlink Gate Protocol
```

1. Introduction

   Yardlink sends gate events to Tallyman. This memo defines how Yardlink confirms each event
   to Tallyman and what Tallyman must do when a confirmation is late.

   The key words "MUST", "MUST NOT", "SHALL", "SHOULD" and "MAY" in this document are to be
   interpreted as described in RFC 2119.

2. Gate events

   Yardlink MUST send every gate event to Tallyman within 5 seconds.
   Tallyman SHALL reject an event older than one hour.
   Tallyman SHALL log every rejected event, and Yardlink SHALL resend it once.

3. IANA Considerations

   This memo has no IANA actions.

Copyright (c) 2026 Kestrel Freight. All rights reserved. Kestrel Freight runs Yardlink on
two hosts per yard.
"""


def test_rfc_key_words_iana_and_the_copyright_holder_are_no_subjects() -> None:
    subjects = _subjects(MEMO, "design/kf-3-yardlink-gate-protocol.md")
    assert "Yardlink" in subjects and "Tallyman" in subjects, subjects
    assert not {"SHALL", "MUST", "IANA", "Kestrel Freight"} & subjects.keys(), subjects


def test_organisations_from_copyright_and_hyphenated_mail_domains() -> None:
    assert "kestrel freight" in organisation_names("Copyright (c) 2026 Kestrel Freight. All rights reserved.")
    assert "orchardline" in organisation_names("© 2024 Orchardline Ltd")
    names = organisation_names("Write to ana.lima@kestrel-freight.example or ops@lists.tarnby-rail.org.uk.")
    assert {"kestrel freight", "kestrel", "tarnby rail", "tarnby"} <= names, names
    assert "org" not in names
    assert "kafka" not in organisation_names("the broker at kafka-broker.internal")  # a host, not a company


RUNBOOK = """# Maintenance procedure: patching the Yardlink relays

Cookbook: `yard_relay` · Environment: `production`
Owner: Yard Systems (Ana Okoro) · Backup: Platform on-call
Last reviewed: 2 Sept 2024

This procedure patches the Yardlink relays, two per yard.

## When

- Sunday 06:00-08:00, before any yard opens. Never on a weekday.

## Steps

1. Drain the relay: `yardctl drain relay-a`.
2. Check the relay with `sudo yardctl selftest`; it must print `OK`.
3. Run `sudo yardctl status relay-a` until it shows `drained`.
4. If the relay does not come back, call Ana Okoro.

## Rollback

Re-pin the previous version and run step 1 again on each relay.

## Escalation

Page Platform on-call only if both relays of a yard are down.
"""


def test_owner_team_with_its_person_in_brackets_and_sudo() -> None:
    subjects = _subjects(RUNBOOK, "runbooks/yardlink-patching.md")
    assert subjects.get("Yard Systems") == "team", subjects
    assert subjects.get("Ana Okoro") == "person", subjects
    assert "sudo" not in subjects and "yardctl" in subjects, subjects  # what `sudo` runs


def test_what_sudo_runs_in_a_code_span_is_the_tool() -> None:
    from tasks.extract.subject_marks import _INLINE_COMMAND_RE

    assert [(m.group(1) if (m := _INLINE_COMMAND_RE.match(span)) else None)
            for span in ["sudo relayctl selftest", "sudo relayctl", "relayctl selftest", "relayctl -v"]] == [
        "relayctl", None, None, "relayctl"]


def test_common_products_are_known_technologies() -> None:
    from tasks.extract.technologies import usual_spelling

    assert [usual_spelling(name) for name in ("proxmox", "emqx", "questdb", "couchbase lite")] == [
        "Proxmox", "EMQX", "QuestDB", "Couchbase Lite"]


def test_post_incident_review_words_leave_the_title_subject() -> None:
    assert title_subject("Post Incident Review (PIR) – Yardlink gate events delayed") == "Yardlink gate events"
    assert title_subject("Post-incident review: Tallyman outage") == "Tallyman"


RECORD = """# YEP 0007: Confirm gate events in Yardlink

| | |
|---|---|
| **YEP** | 0007 |
| **Author** | Ana Okoro |
| **Implementation Team** | Ana Okoro, Ben Adler |
| **Status** | Final |

## Abstract

Yardlink will confirm each gate event to Tallyman, using the gate timetable from Yard Planning
& Scheduling, instead of sending and forgetting. Yard Planning & Scheduling publishes the
timetable every night; Yardlink reads it at 02:00.

## Specification

1. Yardlink keeps each unconfirmed event for an hour and resends it to Tallyman once.
2. Tallyman answers every event within 5 seconds.

See the [Basecamp thread](../minutes/gate-events.md) and YEP-7's notes in YEP-7 itself.
"""


def test_role_labels_link_to_a_thread_and_a_team_joined_by_ampersand() -> None:
    subjects = _subjects(RECORD, "decisions/yep-0007-confirm-gate-events.md")
    assert "Tallyman" in subjects, subjects
    assert "Implementation Team" not in subjects and "Basecamp thread" not in subjects, subjects
    assert "Yard Planning & Scheduling" in subjects and "Yard Planning" not in subjects, subjects


def test_a_key_written_only_with_its_number_is_no_subject() -> None:
    assert series_key("MIP", "Not decided yet: MIP-4. LIB-430 Decide MIP-4. For MIP-4: nulling.")
    assert not series_key("MIP", "MIP-4 moves the MIP exporter")  # written alone too
    assert not series_key("SEV", "a SEV-2 once")


DESIGN = """Offline gate passes when Yardlink is unreachable
=================================================

Design doc · Author: Ben Adler (Yard Systems) · Reviewers: Ana Okoro, Cora Diaz
Last updated: 09/04/2024 · Status: Draft

Context
-------

Yardlink relays gate events to Tallyman. When Yardlink is down, gates stop. Yardlink
and Tallyman both run at every yard, and Tallyman keeps the passes.

Design
------

Gates keep a local list of passes from Tallyman and upload their events to Yardlink later.
"""


def test_a_name_run_on_into_the_next_lines_label_is_no_subject() -> None:
    subjects = _subjects(DESIGN, "design/offline-gate-passes.md")
    assert "Yardlink" in subjects, subjects
    assert not any(name.startswith("Cora Diaz ") for name in subjects), subjects


ARCHITECTURE = """# Yard platform architecture

## Architecture overview

The yard platform serves 14 yards. Yardlink relays gate events from the gates; Tallyman keeps
the passes; Quaywise is what the guards carry.

## Components

### Yardlink

**Yardlink** relays gate events from every yard to the centre.

### Tallyman and Quaywise

**Tallyman** keeps the passes. **Quaywise** is the guards' mobile app, a client of Tallyman.

## Data flow

Gates -> Yardlink -> Tallyman -> Quaywise. An idempotent job and the morning job of Tallyman both resend events; each idempotent job
runs once, and the morning job at 06:00.
"""


def test_a_heading_of_two_components_and_how_a_job_runs() -> None:
    subjects = _subjects(ARCHITECTURE, "architecture/yard-platform.md")
    assert {"Yardlink", "Tallyman", "Quaywise"} <= subjects.keys(), subjects
    assert not {"Tallyman and Quaywise", "idempotent job", "morning job"} & subjects.keys(), subjects


def test_a_capitalized_phrase_with_an_acronym_is_no_person() -> None:
    from tasks.extract.document_people import full_name

    assert not full_name("Apology SMS") and not full_name("Kafka ACL")
    assert full_name("Ollie Brandt")


OUTLINER_MINUTES = """title:: Yard guild 2026-10-02
type:: [[meeting]]
date:: [[Oct 2nd, 2026]]
attendees:: [[Ana Okoro]], [[Ben Adler]], [[Cora Diaz]]
facilitator:: [[Ben Adler]]

- ## Agenda
	- Yardlink relay patching
	- Tallyman passes
- ## Yardlink relay patching
	- Ana: both relays at the north yard are patched; the south yard is next.
		- DECISION: patch one relay per yard per Sunday.
	- Ben asked whether Tallyman needs a restart after each patch.
		- Cora: no, Tallyman reconnects on its own.
- ## Actions
	- TODO Ana — patch the south yard relays
"""


def test_outliner_minutes_attendees_in_page_links_are_people() -> None:
    subjects = _subjects(OUTLINER_MINUTES, "minutes/2026-10-02-yard-guild.md")
    assert {subjects.get(name) for name in ("Ana Okoro", "Ben Adler", "Cora Diaz")} == {"person"}, subjects


def test_a_lone_letter_that_ends_a_name_is_kept() -> None:
    from tasks.extract.candidates import CandidateHits

    hits = CandidateHits()
    for number, line in enumerate(["Gateways publish to the broker as MQTT Sparkplug B. They buffer.",
                                   "We chose Option B. Then Plan B failed."], 1):
        hits.add_phrases(number, line, line)
    assert "MQTT Sparkplug B" in hits.phrases and "MQTT Sparkplug" not in hits.phrases
    assert "Option B" not in hits.phrases and "Plan B" not in hits.phrases


SEV_REVIEW = """# SEV Review: Yardlink relay clock drift (SEV2)

| | |
|---|---|
| **SEV level** | SEV2 |
| **Date** | 03/09/2026 |
| **SEV owner** | Ana Okoro (YRD) |
| **Status** | Closed |

## Summary

The Yardlink relay at the north yard lost its time source and its clock drifted by seven
minutes. Tallyman accepted the gate events with future timestamps.

## Impact

- 11 days of gate events were filed in the wrong hour.

## Detection

Detected by the yard office at 09:15, not by monitoring.

## Root cause

- The Yardlink image uses one public NTP pool and no local fallback.

## Timeline

| Time | Event |
|---|---|
| 09:15 | The yard office flags the wrong hours |
| 11:30 | Cause found: relay clock +7m |

## Tasks

- T-101 Yardlink relays take time from the yard GPS clock -- **done**
"""


def test_a_sev_reviews_owner_and_the_team_in_brackets() -> None:
    subjects = _subjects(SEV_REVIEW, "postmortems/sev2-yardlink-clock-drift.md")
    assert subjects.get("Ana Okoro") == "person" and subjects.get("YRD") == "team", subjects
