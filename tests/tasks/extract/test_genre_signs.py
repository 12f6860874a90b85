"""An incident report recognised from the parts it holds, in templates beside the postmortem's."""

from __future__ import annotations

import pytest

from tasks.extract import Extraction, SourceRef, extract_facts
from tasks.extract.genre_signs import ACTION, CAUSE, EVENT, IMPACT, holds_an_incident, incident_parts


def _extract(text: str) -> Extraction:
    return extract_facts(text, SourceRef("x", "wiki/sources/x.md", "raw/x.md", "notes/page.md"))


# An A3 problem-solving report: background, current condition, root cause analysis, countermeasures.
_A3 = """# A3 - Loading dock scanners lose their pairing

**Owner:** Rosa Lind · **Date:** 2025-04-02 · **Status:** Open

## 1. Background

The dock scanners pair with the yard tablets over Bluetooth every shift.

## 2. Current condition

Since 17 March about a third of the scanners drop their pairing twice a shift.

## 3. Target

No scanner drops its pairing during a shift.

## 4. Root cause analysis

The tablets' power saving turns Bluetooth off after ten idle minutes.

## 5. Countermeasures

| # | Countermeasure | Owner | Due |
|---|---|---|---|
| 1 | Turn power saving off in the tablet profile | Rosa Lind | 10 Apr |

## 6. Follow-up

Check the pairing log each Friday in April.
"""

# An occurrence report (a quality or safety system's form): a field table, then its parts.
_OCCURRENCE = """**OCC-2025-0031 Pallet label printer printed the wrong consignee**

| | |
|---|---|
| Occurrence no. | OCC-2025-0031 |
| Date of occurrence | 04/05/2025 |
| Reported by | Dock supervisor |
| Status | Closed |

### Description

Forty pallets left with another customer's labels.

### Root cause

The print queue kept a stale template after the consignee table was reloaded.

### Corrective and preventive actions

| Action | Owner | Due |
|---|---|---|
| Clear the queue's template cache on reload | B. Okoro | 30/05/2025 |
"""

# A CAST analysis: the loss event and losses as fields, the events, the recommendations.
_CAST = """# CAST analysis: nightly export published an empty catalogue

## 1. Basic information

- **Loss event:** on 2 June 2025 the public catalogue showed no items for six hours.
- **Losses:** about 900 orders not placed.

## 2. Proximate events

The export job wrote an empty file and the publisher copied it.

## 3. Analysis of each controller

The publisher had no check on the file's size.

## 4. Recommendations

- The publisher refuses a file smaller than half of yesterday's.
"""

# A proposal with risks, consequences and follow-up work: no incident.
_PROPOSAL = """# Proposal: move the build cache to object storage

## Motivation

The cache disk fills every week.

## Risks and mitigations

A slow bucket slows every build; we keep a local tier.

## Consequences

Builds depend on the object store.

## Follow-up

Measure the hit rate after a month.
"""


@pytest.mark.parametrize("text", [_A3, _OCCURRENCE, _CAST], ids=["a3", "occurrence", "cast"])
def test_an_incident_report_in_another_template_is_an_incident(text: str) -> None:
    result = _extract(text)
    assert result.subject is not None and result.subject.ref.entity_type == "incident"


def test_a_proposal_with_risks_consequences_and_follow_up_is_no_incident() -> None:
    result = _extract(_PROPOSAL)
    assert result.subject is not None and result.subject.ref.entity_type == "proposal"


def test_the_parts_are_read_from_headings_and_fields() -> None:
    assert incident_parts(["current condition", "root cause analysis", "countermeasures"], []) == {
        IMPACT, CAUSE, ACTION}
    assert incident_parts(["description"], ["date of occurrence"]) == {EVENT}
    assert incident_parts([], ["current status of the incident"]) == set()  # says nothing of when
    assert incident_parts(["proximate events", "recommendations"], ["loss event", "losses"]) == {
        EVENT, IMPACT, ACTION}


def test_actions_alone_or_without_an_event_or_cause_make_no_incident() -> None:
    # impact and actions without an event or a cause: a change plan's "Impact" and "Follow-ups"
    assert not holds_an_incident(["impact", "consequences", "follow-ups"], [])
    # an event, an impact and a cause but nothing done about it: a story, not a report
    assert not holds_an_incident(["timeline", "impact", "root cause"], [])
    assert holds_an_incident(["timeline", "root cause", "corrective actions"], [])


_COMPARED = """# Outage: price import stalled

## Impact

Prices were stale for two hours.

## Root cause

The import screen validated the file's columns, not like the
pricing tool does. A zero-downtime reload kept the bad file; the zero-downtime reload
had no check, and the zero-downtime reload is still on.

## Action items

- The import screen runs the pricing checks.
"""


def test_a_system_only_likened_to_and_a_number_word_compound_are_no_subjects() -> None:
    result = _extract(_COMPARED)
    names = {name.lower() for fact in result.entities for name in fact.ref.names}
    assert "pricing tool" not in names  # written only as what the screen is likened to
    assert "zero-downtime" not in names  # "zero-downtime reload": it describes, as "two-phase" does


# A Pugh concept selection: a session's fields (a facilitator, as a meeting's), criteria, the
# matrix, and the section that names the concept selected.
_PUGH = """# CS-7 - Badge printer for the visitor desk: concept selection (Pugh matrix)

| Field | Value |
|---|---|
| Facilitator | Noor Haddad |
| Date of session | 04.02.2025 |
| Status | ~~Draft~~ Selected (see below) |

## 1. Problem

Visitors wait at the desk while a badge is written by hand.

## 2. Matrix

| Criterion | A. Hand-written | B. Thermal printer | C. Tablet kiosk |
|---|---|---|---|
| Speed | S | + | + |
| Cost | S | + | - |

## 3. Selection

**Concept B is selected: a thermal printer at the desk prints each badge from the booking.**

## 4. Consequences

The desk keeps a roll of labels in stock.
"""


def test_a_decision_matrix_that_names_its_selection_is_a_decision_record() -> None:
    result = _extract(_PUGH)
    assert result.is_decision_record  # not a meeting's notes for its facilitator
    texts = [o.text for o in result.observations]
    assert any(t.startswith("Status: Selected") and "see below" not in t.split(" (written")[0] for t in texts)
