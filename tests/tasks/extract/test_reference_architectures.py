"""An Azure Architecture Center reference architecture (conc63): its Workflow's steps and its
Components' items tell the design; under Considerations, each Well-Architected pillar's items
and its "should" sentences are rules the system keeps, its statements of what is are not."""

from __future__ import annotations

from tasks.extract import SourceRef, extract_facts

REFERENCE = """# Parcel tracking on Azure

This reference architecture shows how the depots of a courier share parcel scans through one
event hub, with the tracking store as the record of where each parcel is.

## Architecture

### Workflow

1. A driver scans a parcel with the handheld app.
2. The scan service writes the scan to Event Hubs.
3. The tracking service updates the parcel's last known place.

### Components

- **Event Hubs** carries every scan from the depots.
- **Cosmos DB** holds the tracking store, one document per parcel.

## Considerations

### Reliability

- Consumers are idempotent: Event Hubs delivers at least once.

### Cost optimization

The handheld app is licensed per device. New depots should reuse the shared event hub, not get
their own.
"""


def _said() -> list[str]:
    result = extract_facts(REFERENCE, SourceRef("a1", "sources/x.md", "raw/x.md", "x.md"))
    return [fact.text for fact in result.observations]


def test_the_workflow_and_the_components_tell_the_design() -> None:
    said = _said()
    assert "Design: The scan service writes the scan to Event Hubs." in said
    assert "Design: Cosmos DB holds the tracking store, one document per parcel." in said


def test_a_pillars_items_and_should_sentences_are_rules_its_facts_are_not() -> None:
    said = _said()
    assert "Constraint: Consumers are idempotent: Event Hubs delivers at least once." in said
    assert "Constraint: New depots should reuse the shared event hub, not get their own." in said
    assert not any("licensed per device" in s for s in said if s.startswith("Constraint: ")), said
