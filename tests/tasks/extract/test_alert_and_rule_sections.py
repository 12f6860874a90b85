"""A runbook for several alerts, a sub-section each under "When this alert fires", and an
architecture page's "Cross-cutting rules" (concl48)."""

from __future__ import annotations

from tasks.extract import SourceRef, extract_facts
from tasks.extract.genre_parts import _RULES_HEADING_RE

RUNBOOK = """# Lantern: scoring latency and consumer lag

Service: Lantern · Owner: Fraud Analytics team

## When this alert fires

### LanternScoringLatencyHigh

Fires when Lantern's p95 scoring time is above 500 ms for 10 minutes.

### LanternConsumerLagHigh

Fires when the consumer group is more than 2,000 messages behind for 15 minutes.

## What it means

Scores arrive late; customers can still report claims.

## Mitigation

1. Bad model release: roll back with `lantern-deploy rollback`.
2. Storm volume: scale the consumer to 24 replicas.
"""

OVERVIEW = """# Claims platform overview

The claims platform takes first notice of loss and pays claims.

## Components

| Component | Responsibility |
|---|---|
| Intake | Creates claims |
| Lantern | Scores claims for fraud |

## Cross-cutting rules

- All services run in the eu-west-2 region only.
- A new service needs an owner and a runbook before go-live.
"""


def _said(text: str, path: str) -> dict[str, int]:
    result = extract_facts(text, SourceRef("x", "wiki/sources/x.md", "raw/x.md", path))
    return {o.text: o.line_start for o in result.observations}


def test_each_alert_of_a_runbook_for_several_is_an_alert() -> None:
    alerts = {text: line for text, line in _said(RUNBOOK, "runbooks/lantern.md").items()
              if text.startswith("Alert: ")}
    assert alerts == {
        "Alert: Fires when Lantern's p95 scoring time is above 500 ms for 10 minutes.": 9,
        "Alert: Fires when the consumer group is more than 2,000 messages behind for 15 minutes.": 13}


def test_each_item_under_a_rules_heading_is_a_constraint_but_not_an_alert_rule() -> None:
    said = _said(OVERVIEW, "architecture/overview.md")
    assert said.get("Constraint: All services run in the eu-west-2 region only.") == 14
    assert said.get("Constraint: A new service needs an owner and a runbook before go-live.") == 15
    renamed = _said(OVERVIEW.replace("## Cross-cutting rules", "## Cross-cutting notes"), "architecture/overview.md")
    assert "Constraint: All services run in the eu-west-2 region only." not in renamed


def test_a_monitoring_system_s_rules_heading_lists_no_rules() -> None:
    assert _RULES_HEADING_RE.search("Cross-cutting rules") is not None
    assert _RULES_HEADING_RE.search("Alert rules") is None
    assert _RULES_HEADING_RE.search("Recording rules") is None
