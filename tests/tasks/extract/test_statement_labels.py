"""The label a kept statement's own words give it where its part's label is only a default (lab69):
a scribe's "ACTION:" / "AGREED:" marks, a decision item that turns an option down, a design
statement's rule told without a modal verb, an architecture page's introducing section and its
section of known weaknesses, an incident summary's sentence that opens with how long the harm
lasted. Fixtures written for these tests."""

from __future__ import annotations

import pytest

from tasks.extract import Extraction, SourceRef, extract_facts
from tasks.extract.model import ObservationFact
from tasks.extract.part_statements import topic_label
from tasks.extract.statement_labels import marked_label, rejected_decisions, summary_part


def _extract(text: str, name: str) -> Extraction:
    return extract_facts(text, SourceRef("x", "wiki/sources/x.md", "raw/x.md", name))


def _texts(result: Extraction) -> list[str]:
    return [fact.text for fact in result.observations]


@pytest.mark.parametrize(("statement", "label"), [
    ("ACTION: lena to draft the restore checklist by Friday", "Action item"),
    ("#action bo to rotate the mirror's certificate", "Action item"),
    ("TODO: move the runners to the new pool", "Action item"),
    ("Action items: ana to write up the cache numbers", "Action item"),
    ("AGREED: the south mirror goes live on 11 March", "Decision"),
    ("#agreed keep the old cache until April", "Decision"),
    ("The action plan was discussed at length", None),
    ("Agreed timelines slipped twice this quarter", None),
])
def test_a_scribes_mark_names_the_part(statement: str, label: str | None) -> None:
    assert marked_label(statement) == label


def test_a_marked_topic_line_is_labelled_by_its_mark_not_as_an_outcome() -> None:
    assert topic_label("ACTION: lena to draft the restore checklist by Friday", "Outcome") == "Action item"
    assert topic_label("AGREED: the south mirror goes live on 11 March", "Outcome") == "Decision"
    assert topic_label("The mirror served 9,000 pulls since Monday", "Outcome") == "Outcome"


MEETBOT = """==========================
#builds: weekly sync
==========================


Meeting started by ana at 10:00:05 UTC. The full logs are available at
https://bot.example.org/builds/2026/builds.2026-05-12-10.00.log.html .



Meeting summary
---------------
* Image mirror  (ana, 10:00:12)
  * the north mirror served 9,000 pulls this week  (bo, 10:01:40)
  * ACTION: bo to move the south mirror onto its own disk by 19 May
    (ana, 10:03:02)

* Runners  (ana, 10:10:00)
  * three runners failed their health checks on Tuesday  (bo, 10:11:30)
  * ACTION: ana to rebuild the runner image with the new agent  (ana,
    10:14:10)

Meeting ended at 10:30:00 UTC.




Action items, by person
-----------------------
* ana
  * ana to rebuild the runner image with the new agent
* bo
  * bo to move the south mirror onto its own disk by 19 May




People present (lines said)
---------------------------
* ana (20)
* bo (12)
"""


def test_a_meeting_bots_marked_lines_are_action_items_not_outcomes() -> None:
    # (MeetBot's summary: each topic's lines, the "ACTION:" ones wrapped with their speaker and time)
    texts = _texts(_extract(MEETBOT, "meetings/2026-05-12-builds-sync.md"))
    assert any(t.startswith("Action item: ACTION: ana to rebuild the runner image") for t in texts), texts
    assert not any(t.startswith("Outcome: ") and "ACTION:" in t for t in texts)
    assert "Outcome: three runners failed their health checks on Tuesday (bo, 10:11:30)" in texts


def _decision(text: str, line: int) -> ObservationFact:
    return ObservationFact(f"Decision: {text}", line, line, kind="decision")


def test_a_decision_item_that_turns_an_option_down_is_kept_as_rejected_too() -> None:
    facts = [_decision("We go with option 2: one mirror per data centre.", 3),
             _decision("Option 1 rejected because a cache per agent fills its disk.", 4),
             _decision("Why not option 3: nobody here runs Harbor.", 5),
             _decision("Option 3 was rejected and option 2 is chosen instead.", 6)]
    found = [fact.text for fact in rejected_decisions(facts)]
    assert found[:4] == [fact.text for fact in facts]  # every decision stays as it was
    assert found[4:] == ["Rejected: Option 1 rejected because a cache per agent fills its disk.",
                         "Rejected: Why not option 3: nobody here runs Harbor."]


def test_a_decision_whose_lines_a_rejected_option_holds_gets_no_second_one() -> None:
    facts = [_decision("Option 1 rejected: disks fill up.", 4),
             ObservationFact("Rejected: Option 1: a cache per agent", 4, 4, kind="detail")]
    assert rejected_decisions(facts) == facts


STORY = """# sc-12 · Decide how build images are cached

**Story type:** Chore  
**Workflow state:** Done  
**Owners:** Ana Ruiz  
**Created:** Apr 2, 2026  

## Description

Agents pull every image from the upstream registry. We need one cache before the spring
release. Options we talked about:

1. a cache per agent
2. one registry mirror per data centre

## Decision (Ana, 8 Apr)

We go with option 2: one registry mirror per data centre, two VMs behind the load balancer.

- The mirror keeps images for 30 days.
- Option 1 rejected because each agent's disk fills up within a week.
"""


def test_a_decision_sections_rejected_option_is_kept_as_rejected() -> None:
    # (a tracker's story that records a decision: its Decision section's items read as decisions)
    texts = _texts(_extract(STORY, "decisions/sc-12-image-cache.md"))
    assert any(t.startswith("Decision: We go with option 2") for t in texts)
    assert "Rejected: Option 1 rejected because each agent's disk fills up within a week." in texts


PROPOSAL = """# RFC-31: Scanned page archive

Status: Accepted

## Summary

Keep every scanned page in one archive.

## Detailed design

Scanners upload pages to the ingest service, which writes them to the archive bucket.

## Proposed solution

- The ingest service rejects any page whose checksum does not match.
- Pages go to the archive first; only then is the web copy made.
- The archive is reachable only from the library network.
- A change to the retention rules needs two archivists to approve it.
- Donor names are not published.
- The web copy is rebuilt every night.
"""


@pytest.mark.parametrize("words", [
    "rejects any page whose checksum does not match",
    "only then is the web copy made",
    "The archive is reachable only from the library network.",
    "needs two archivists to approve it",
    "Donor names are not published.",
])
def test_a_design_statement_that_states_a_rule_without_a_modal_is_a_constraint(words: str) -> None:
    texts = _texts(_extract(PROPOSAL, "rfcs/0031-scanned-page-archive.md"))
    assert any(t.startswith("Constraint: ") and words in t for t in texts), texts


def test_a_design_statement_that_states_no_rule_stays_design() -> None:
    texts = _texts(_extract(PROPOSAL, "rfcs/0031-scanned-page-archive.md"))
    assert "Design: The web copy is rebuilt every night." in texts


ARCHITECTURE = """# Parcel ledger: architecture overview

## Components

| Component | Responsibility |
|---|---|
| ledger-api | Takes movements from the depots |
| ledger-db | Keeps the movements |

## 1.1 Purpose

The parcel ledger records every parcel movement for billing. Depot staff use it every shift.

## Corrections

A correction is a new movement that reverses the old one.

## Known design debt

- The ledger database runs in one data centre, with a cold copy in the other.
- Depot scanners still send movements over FTP.
"""


def test_an_architecture_pages_introducing_section_tells_its_summary() -> None:
    texts = _texts(_extract(ARCHITECTURE, "architecture/parcel-ledger.md"))
    assert any(t.startswith("Summary: ") and "Depot staff use it every shift." in t for t in texts), texts
    assert "Design: A correction is a new movement that reverses the old one." in texts


def test_an_architecture_pages_section_of_its_weaknesses_tells_its_risks() -> None:
    texts = _texts(_extract(ARCHITECTURE, "architecture/parcel-ledger.md"))
    assert "Risk: The ledger database runs in one data centre, with a cold copy in the other." in texts, texts
    assert "Risk: Depot scanners still send movements over FTP." in texts


@pytest.mark.parametrize(("sentence", "part"), [
    ("For about 40 minutes no ticket sold in the app reached the ledger.", "Impact"),
    ("For 3 hours the nightly export wrote empty files.", "Impact"),
    ("Between 09:03 and 10:41 UTC the booking API returned errors for most requests.", "Impact"),
    ("From 07:10 to 16:25 on 5 March, nobody could log in to the portal.", "Impact"),
    ("For each request the gateway checks the client certificate.", None),
    ("The gateway rejected our certificate at 07:10.", None),
])
def test_an_incident_summarys_sentence_that_opens_with_how_long_it_lasted_is_the_impact(
        sentence: str, part: str | None) -> None:
    assert summary_part(sentence) == part


POSTMORTEM = """# Postmortem: ticket sales lost in the rider app

**Date:** 2026-02-03
**Severity:** SEV-2

## Summary

For about 40 minutes no ticket sold in the app reached the ledger. The payment gateway turned our
requests away because the client certificate it holds for us had expired. Sales at ticket
machines went on as usual.

## Impact

About 3,100 purchases failed and 212 riders called the help line.

## Root cause

The client certificate was renewed on our side only; nobody sent the new one to the gateway.

## Resolution

We sent the new certificate to the gateway's support desk, who loaded it at 10:52.

## Action items

- Alert 30 days before any client certificate expires (owner: Ana Ruiz)
"""


def test_a_postmortem_summarys_opening_window_is_kept_as_its_impact_too() -> None:
    result = _extract(POSTMORTEM, "postmortems/2026-02-03-ticket-sales.md")
    impact = [fact for fact in result.observations
              if fact.text == "Impact: For about 40 minutes no ticket sold in the app reached the ledger."]
    assert [(fact.line_start, fact.line_end) for fact in impact] == [(8, 8)]
    assert any(fact.text.startswith("Summary: For about 40 minutes") for fact in result.observations)
    assert not any(fact.text.startswith("Impact: Sales at ticket machines") for fact in result.observations)


CLAUSES = """# RFC-40: Signed timetable packs

Status: Accepted

## Summary

Stations keep a signed copy of the day's timetable.

## Detailed design

The publisher builds one pack per station every night. Packs are signed with the release key;
the station controllers refuse unsigned packs. The controllers keep the last three packs.

## Alternatives

Serving the timetable live from the central API was rejected: a network cut would blank the boards.
"""


def test_a_rule_told_in_a_clause_of_a_kept_design_statement_is_kept_as_a_constraint_too() -> None:
    result = _extract(CLAUSES, "rfcs/0040-signed-packs.md")
    rules = [(fact.text, fact.line_start, fact.line_end) for fact in result.observations
             if fact.text.startswith("Constraint: ")]
    assert rules == [("Constraint: the station controllers refuse unsigned packs.", 11, 12)], rules
    assert any(fact.text.startswith("Design: ") and "Packs are signed with the release key" in fact.text
               for fact in result.observations)


@pytest.mark.parametrize(("statement", "told", "label"), [
    ("Concept B is selected: the app pulls a full roster when it opens.", "Outcome", "Decision"),
    ("The group agreed to drop the old column on Sunday.", "Outcome", "Decision"),
    ("We decided to keep the old checker installed until March.", "Outcome", "Decision"),
    ("We will go with the nightly rebuild for now.", "Design", "Decision"),
    ("The vendor selected for the pilot went bankrupt in May.", "Outcome", "Outcome"),
    ("The team reviewed the shadow run numbers.", "Outcome", "Outcome"),
])
def test_a_topic_statement_that_tells_a_choice_is_a_decision(statement: str, told: str, label: str) -> None:
    assert topic_label(statement, told) == label


def test_agreeing_to_disagree_is_no_decision() -> None:
    assert topic_label("We agreed to disagree on the naming.", "Outcome") == "Outcome"
