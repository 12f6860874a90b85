"""Subject precision (issue 23 item 4; subj65): a table of who holds each role ("| Role | Person |",
a RACI chart or an EA tool's subscriptions) lists no components; a bold label naming a quality
("**Business criticality:** high") names no component; an "-er" noun the page writes doing what
only people do ("the planner decides", "drivers say") is a person's role, no component; a
capitalised verb that opens an action item before an article ("- [x] Rewrite the runbook") is
no name; an owner field "Cards & Ledger · Ana Lima" names one team and its lead, not two people;
a Zoom meeting summary ("Quick recap", "Next steps", "Summary") is read as minutes; an AsyncAPI
page's "### PUB `x.y.v1` Operation" heading names a channel (a topic); a "| Name | Role |" table
and an action item "- Ana Lima will ..." name people; so do a thread's comment headers ("**ines-d** ·
Mar 4") and an item's owner by handle ("*@mkovacs*")."""

from __future__ import annotations

import re

from tasks.extract import SourceRef, extract_facts
from tasks.extract.code_names import code_names
from tasks.extract.decision_people import people_in_lines
from tasks.extract.document_people import document_people, handle_people
from tasks.extract.genres import MINUTES, recognise_genre
from tasks.extract.structure import scan
from tasks.extract.subject_terms import agent_nouns

_TYPED = {"about", "affected", "caused_by", "mitigated_by", "owned_by"}


def _subjects(text: str, path: str) -> dict[str, str]:
    result = extract_facts(text, SourceRef("a1", "sources/a1.md", path.rsplit("/", 1)[-1], path))
    return {fact.target.display: fact.relation_type for fact in result.relations
            if fact.relation_type in _TYPED}


FACT_SHEET = """# Parcelhub

Parcelhub is the depot scanning system of Northway Freight.

## Overview

**Business criticality:** Mission critical, the depots stop without it.

## Subscriptions

| Role | Person |
|---|---|
| Responsible | Ines Duarte (Depot Systems) |
| Accountable | Paul Brandt (Head of Depot Systems) |
| Observer | Mia Chen |

## Components

| Component | Responsibility |
|---|---|
| Scanrelay | Sends each scan from the handhelds to Parcelhub |
| Routebook | Holds the day's routes for each depot |

## Architecture

Parcelhub runs Scanrelay in every depot and Routebook centrally. Scanrelay
queues scans when a depot is offline; Routebook is read by Scanrelay at 05:00.
"""


def test_role_tables_and_quality_labels_name_no_components() -> None:
    subjects = _subjects(FACT_SHEET, "architecture/parcelhub.md")
    assert {"Scanrelay", "Routebook"} <= subjects.keys(), subjects
    assert not {"Responsible", "Accountable", "Observer", "Business criticality"} & subjects.keys(), subjects


def test_an_agent_noun_doing_what_people_do_is_a_role() -> None:
    prose = [(1, "The planner decides when to re-plan; the scheduler runs every hour."),
             (2, "Planners will not trust a plan they cannot explain. The planner edits the draft."),
             (3, "The scheduler writes the queue and the scheduler retries.")]
    nouns = agent_nouns(prose)
    assert "scheduler" in nouns
    assert "planner" not in nouns


ACTIONS = """# INC-12: Scanner uploads failed

**Status:** Resolved

## Summary

Scanrelay stopped sending scans to Parcelhub for an hour after a certificate expired.

## Root cause

The Scanrelay client certificate expired; Parcelhub rejected every upload.

## Action items

- [x] Rewrite the certificate runbook so it starts from the expiry alert. @ines
- [ ] Add an expiry alert to Scanrelay. @paul
"""


def test_a_verb_opening_an_action_item_is_no_subject() -> None:
    subjects = _subjects(ACTIONS, "postmortems/inc-12.md")
    assert "Scanrelay" in subjects, subjects
    assert "Rewrite" not in subjects, subjects


def test_an_owner_team_joined_by_ampersand_before_its_lead_is_one_team() -> None:
    found = people_in_lines([(3, "Owner: Cards & Ledger · Ana Lima")])
    assert [(p.name, p.entity_type) for p in found] == [("Cards & Ledger", "team")]
    # two people joined by "&" stay two people
    two = people_in_lines([(3, "Owner: Ana Lima & Bo Chen")])
    assert {p.name for p in two} == {"Ana Lima", "Bo Chen"}


ZOOM = """# Meeting summary for Depot weekly sync (03/02/2026)

## Quick recap

The team reviewed the Scanrelay rollout and the Routebook migration.

## Next steps

- Ines Duarte will move the last depot to Scanrelay by Friday.

## Summary

### Scanrelay rollout

Ines said eleven depots run Scanrelay; the team agreed to finish the rollout.
"""


def test_a_zoom_meeting_summary_is_minutes() -> None:
    structure = scan(ZOOM.split("\n"), 1)
    assert recognise_genre([], structure, "Meeting summary for Depot weekly sync (03/02/2026)") == MINUTES


ASYNCAPI = """# Depot Event Bus 2.0.0 documentation

The depot event bus carries what has happened in the depots.

## Operations

### PUB `parcel.scanned.v1` Operation

Produced by Scanrelay for every scan.

### SUB `route.assigned.v2` Channel

Consumed by Scanrelay.

### Setting `max.batch.size` Option

How many scans go in one batch.
"""


def test_an_asyncapi_operation_or_channel_heading_names_its_channel() -> None:
    lines = dict(enumerate(ASYNCAPI.split("\n"), 1))
    terms: dict[str, list[tuple[int, str]]] = {}
    for number, line in lines.items():
        for span in re.findall(r"`([^`]+)`", line):
            terms.setdefault(span, []).append((number, span))
    found = code_names(terms, lines, (1, lines[1]))
    assert {"parcel.scanned.v1", "route.assigned.v2"} <= found.keys()
    assert "max.batch.size" not in found  # a setting's key, though written on a heading too


REPORT = """# 8D Report 8D-7 — Scans lost at Riverside depot

## D1 — Team

| Name | Role |
|---|---|
| Ines Duarte | Team leader, Scanrelay owner |
| Paul Brandt | Depot manager |

## Next steps

- Mia Kovacs will replace the Scanrelay gateway by Friday.
- Scanrelay will queue scans while the depot is offline.
- Our Terraform will remain simple.
"""


def test_a_table_of_members_and_roles_and_an_owner_who_will_act_name_people() -> None:
    people = document_people(scan(REPORT.split("\n"), 1))
    assert {"ines duarte", "paul brandt", "mia kovacs"} <= people.full, people
    assert not any("scanrelay" in name or "terraform" in name for name in people.full), people


THREAD = """# Keep scan retries in Scanrelay #31

**northway/depot** · Discussions · Ideas

**ines-d** started this conversation in Ideas · Mar 4, 2025

**ines-d** · Mar 4, 2025

Scanrelay retries each scan three times before it gives up.

**note** · this is a label, no one's login

**pbrandt** · Mar 5, 2025 · ✅ Marked as answer

Scanrelay should keep retrying until the depot is online.

## Follow-ups

- [ ] Add a retry counter to Scanrelay. *@mkovacs* · DEP-12
"""


def test_a_thread_names_its_commenters_and_owners_by_login() -> None:
    structure = scan(THREAD.split("\n"), 1)
    assert [login for _, login in handle_people(structure)] == ["ines-d", "pbrandt", "mkovacs"]
    subjects = _subjects(THREAD, "decisions/discussion-31.md")
    assert {"ines-d", "pbrandt", "mkovacs"} <= subjects.keys(), subjects


def test_an_apps_comments_in_a_thread_name_no_person() -> None:
    thread = THREAD + "\n**dependabot** · Mar 6, 2025\n\nBumps scanrelay-client from 1.2 to 1.3.\n\n" \
        "**github-actions** · Mar 6, 2025\n\nThe nightly build passed.\n"
    structure = scan(thread.split("\n"), 1)
    assert [login for _, login in handle_people(structure)] == ["ines-d", "pbrandt", "mkovacs"]
