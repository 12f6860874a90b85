"""Conclusions read by what a heading names and what a sentence states, whatever the template
(conc64a): a section whose heading names risks ("Open risks", "Q4. What are the risks?",
"Risks / open stuff") gives each risk, and the rule or mitigation its item adds, in a design
page, an architecture page, a decision record and a page of no genre; a rule stated inside a
decision record's chosen paragraph; a rule a system enforces, told as what it does ("refuses a
key it has already written", "fails the plan if ...", "only enrols ...")."""

from __future__ import annotations

from tasks.extract import SourceRef, extract_facts
from tasks.extract.genre_parts import risk_items, risk_sections
from tasks.extract.structure import scan

ARCHITECTURE_OPEN_RISKS = """# Parcel tracking platform

The platform tells customers where their parcel is, from depot scans to the doorstep.

## Components

- **Scanhub** receives depot scans over MQTT.
- **Trackview** serves the tracking page.

## Open risks

- The depot MQTT broker is a single node in one rack.
- Trackview still renders on the server, so a traffic spike slows every page.
"""

ONE_PAGER_RISKS = """# DR-4: Weekly settlement run for couriers

Status: Accepted

## Context

Couriers are paid monthly and ask for weekly pay.

## Decision

We will pay couriers every Friday from the settlement service. Payouts must never exceed the
balance confirmed by the depot scans. The run starts at 06:00.

## Q4. What are the risks?

- Friday bank holidays move the run; finance must be told a week ahead.
- Depot scans can arrive late on Thursday nights.
"""

PLAIN_RISKS = """# Courier tips in the app

Customers can add a tip after delivery, paid to the courier with the weekly settlement.

## How it works (proposed)

The tip service stores one tip per delivery. The payout generator refuses a tip it has
already paid. Tips over 20 pounds are held for a check.

## Risks / open stuff

- Card refunds after a tip: the courier keeps the tip; finance will absorb the cost.
- Payment data is sensitive; keep it in the tip service only, never copy it to the warehouse.
- TBD: who answers courier questions about tips.
"""

PLAIN_TOOL = """# depot-gateway Terraform module

Creates the gateway VM, its disk and its firewall rules for one depot.

## Time source

Each gateway reads time from the depot's GPS clock. The module fails the plan if
`gps_clock_address` is empty for any depot.

## Sync

The sync agent only uploads scans whose depot code is registered. If the backend rejects a
file, the agent moves it to the `failed/` folder and retries at night.
"""


def _line(text: str, words: str) -> int:
    return next(number for number, line in enumerate(text.splitlines(), 1) if words in line)


def _said(text: str, path: str) -> set[tuple[str, int]]:
    result = extract_facts(text, SourceRef("x", "wiki/sources/x.md", "raw/x.md", path))
    return {(o.text, o.line_start) for o in result.observations}


def test_each_item_under_a_heading_that_names_risks_is_a_risk() -> None:
    said = _said(ARCHITECTURE_OPEN_RISKS, "docs/architecture/parcel-tracking.md")
    assert ("Risk: The depot MQTT broker is a single node in one rack.", _line(ARCHITECTURE_OPEN_RISKS, "MQTT broker is")) in said
    assert ("Risk: Trackview still renders on the server, so a traffic spike slows every page.",
            _line(ARCHITECTURE_OPEN_RISKS, "Trackview still")) in said


def test_the_genre_readers_find_risk_sections_by_the_word_not_by_one_template_s_heading() -> None:
    text = ONE_PAGER_RISKS.replace("## Q4. What are the risks?", "## Known risks and open questions")
    structure = scan(text.splitlines(), 1)
    titles = [structure.title(section) for section in risk_sections(structure)]
    assert titles == ["Known risks and open questions"]
    risks = [fact.text for fact in risk_items(structure)]
    assert risks[1] == "Risk: Depot scans can arrive late on Thursday nights."
    # "risky" and "risk-free" name no section of risks
    calm = scan(text.replace("Known risks and open questions", "Risk-free rollout").splitlines(), 1)
    assert risk_sections(calm) == []


def test_a_decision_record_s_risks_and_a_rule_stated_inside_its_chosen_paragraph() -> None:
    said = _said(ONE_PAGER_RISKS, "docs/decisions/DR-4-weekly-settlement.md")
    assert any(text.startswith("Risk: Friday bank holidays move the run") for text, _ in said)
    assert ("Risk: Depot scans can arrive late on Thursday nights.", _line(ONE_PAGER_RISKS, "Depot scans can")) in said
    # the rule, on its own lines, beside the decision that holds it
    assert ("Constraint: Payouts must never exceed the balance confirmed by the depot scans.",
            _line(ONE_PAGER_RISKS, "Payouts must")) in said
    assert any(text.startswith("Decision: We will pay couriers every Friday") for text, _ in said)
    # the sentence that states the choice is not kept again as a rule
    assert not any(text.startswith("Constraint: We will pay couriers") for text, _ in said)


def test_a_plain_page_s_risk_items_give_the_risk_and_the_rule_or_mitigation_they_add() -> None:
    said = _said(PLAIN_RISKS, "docs/design/courier-tips.md")
    refunds, sensitive = _line(PLAIN_RISKS, "Card refunds"), _line(PLAIN_RISKS, "Payment data")
    assert ("Risk: Card refunds after a tip: the courier keeps the tip", refunds) in said
    assert ("Mitigation: finance will absorb the cost.", refunds) in said
    assert ("Risk: Payment data is sensitive", sensitive) in said
    assert ("Constraint: keep it in the tip service only, never copy it to the warehouse.", sensitive) in said
    assert not any("who answers courier questions" in text for text, _ in said)  # still open, no risk


def test_a_rule_a_system_enforces_told_as_what_it_does_is_a_constraint() -> None:
    said = _said(PLAIN_RISKS, "docs/design/courier-tips.md")
    assert ("Constraint: The payout generator refuses a tip it has already paid.",
            _line(PLAIN_RISKS, "payout generator")) in said
    said = _said(PLAIN_TOOL, "modules/depot-gateway/README.md")
    assert ("Constraint: The module fails the plan if `gps_clock_address` is empty for any depot.",
            _line(PLAIN_TOOL, "The module fails")) in said
    assert ("Constraint: The sync agent only uploads scans whose depot code is registered.",
            _line(PLAIN_TOOL, "only uploads")) in said
    # what happens when the other side refuses is no rule of this one
    assert not any(text.startswith("Constraint: If the backend rejects") for text, _ in said)


REQUIREMENTS_TABLE = """# Carrier route exports

Carriers get their routes from the planner instead of by e-mail.

## Non-functional requirements

| ID | Requirement | Priority |
|---|---|---|
| NF1 | An export holds only the parcels of its own carrier | Must |
| NF2 | Exports are ready by 05:30 every working day | Must |

## Provider requirements

| Name | Version |
|---|---|
| hashicorp/aws | ~> 5.0 |
| hashicorp/random | ~> 3.6 |

## Service levels

| Measure | Objective |
|---|---|
| Export ready before the first van leaves | 99.5% of days |
"""

OPTIONS_TABLE = """# RFC: Route planning solver

Status: In review

## Summary

Plan delivery routes with a constraint solver instead of by hand.

## Motivation

Planners spend two hours every morning fitting parcels to vans.

## Options

| Option | Notes |
|---|---|
| Tune the spreadsheet macros | tried in 2024; saved ten minutes a day |
| Google OR-Tools routing | open source, Python bindings |
| Buy a planning suite | licence per van, eight months to deploy |

## Proposal

Build a `route-solver` service in Python around OR-Tools routing, fed by the depot system.

## Drawbacks

The team has to learn the solver's modelling language.
"""


def test_each_row_of_a_table_of_rules_is_a_constraint_read_by_its_header() -> None:
    said = _said(REQUIREMENTS_TABLE, "docs/prd-route-exports.md")
    assert ("Constraint: An export holds only the parcels of its own carrier",
            _line(REQUIREMENTS_TABLE, "NF1")) in said
    assert ("Constraint: Exports are ready by 05:30 every working day", _line(REQUIREMENTS_TABLE, "NF2")) in said
    # no column says it: the row read whole
    assert ("Constraint: Export ready before the first van leaves — 99.5% of days",
            _line(REQUIREMENTS_TABLE, "first van")) in said
    # a row of names and versions states no rule in words
    assert not any("hashicorp" in text for text, _ in said)


def test_the_rows_of_an_options_table_the_design_does_not_name_are_rejected() -> None:
    said = _said(OPTIONS_TABLE, "docs/rfcs/route-solver.md")
    assert ("Rejected: Tune the spreadsheet macros: tried in 2024; saved ten minutes a day",
            _line(OPTIONS_TABLE, "spreadsheet")) in said
    assert ("Rejected: Buy a planning suite: licence per van, eight months to deploy",
            _line(OPTIONS_TABLE, "planning suite")) in said
    assert not any(text.startswith("Rejected: Google OR-Tools") for text, _ in said)  # the one chosen
    # a design that names none of them tells no choice: no row is read
    vague = OPTIONS_TABLE.replace("around OR-Tools routing", "around a solver")
    assert not any(text.startswith("Rejected: ") for text, _ in _said(vague, "docs/rfcs/route-solver.md"))


RECORD_CONTEXT = """# 4. Queue depot scans before the planner

Date: 2026-02-11

## Status

Accepted

## Context

Depot scanners post straight to the planner today, and every planner restart loses the scans
sent while it is down.

Last winter two restarts during the morning peak lost 1,900 scans.

The options we looked at:

- a queue in front of the planner
- retries in the scanner firmware

## Decision

We will put an SQS queue between the scanners and the planner.

## Consequences

Scans reach the planner up to a minute later.
"""


def test_a_decision_record_s_context_paragraphs_say_why_it_was_needed() -> None:
    said = _said(RECORD_CONTEXT, "docs/adr/0004-queue-depot-scans.md")
    assert ("Rationale: Depot scanners post straight to the planner today, and every planner restart "
            "loses the scans sent while it is down.", _line(RECORD_CONTEXT, "Depot scanners post")) in said
    assert ("Rationale: Last winter two restarts during the morning peak lost 1,900 scans.",
            _line(RECORD_CONTEXT, "Last winter")) in said
    # a line that leads in to the options is no reason (nor are the options)
    assert not any(text.startswith("Rationale: The options we looked at") for text, _ in said)
    assert any(text.startswith("Decision: We will put an SQS queue") for text, _ in said)


KEYED_DECISIONS = """# Depot systems review — 2026-03-03

Attendees: Ana, Ben, Chen

## Agenda

1. Scanner queue
2. Label printers

## Scanner queue

Ben showed the lost-scan figures from the winter.

**Decision D-26-04:** Scans go through an SQS queue from April; the planner reads the queue only.

## Label printers

Decision #5: The old label printers stay until the lease ends in June.

## Action items

- Ben to order the queue's alarms.
"""


def test_a_minute_s_decision_labelled_with_its_key_is_a_decision() -> None:
    said = _said(KEYED_DECISIONS, "docs/minutes/2026-03-03-depot-systems-review.md")
    assert ("Decision: Scans go through an SQS queue from April; the planner reads the queue only.",
            _line(KEYED_DECISIONS, "D-26-04")) in said
    assert ("Decision: The old label printers stay until the lease ends in June.",
            _line(KEYED_DECISIONS, "#5")) in said


LONG_SUMMARY = """# RFC 12: One scan queue for every depot

Status: Accepted

## Summary

Every depot scanner posts its scans to one SQS queue, and the planner reads them from the queue
instead of taking them over HTTP. The queue keeps a scan for four days, so a planner restart or a
deploy no longer loses the scans sent while it is down. Each scan carries the depot's code and the
scanner's serial number, and the planner drops a scan it has already seen by its scan ID. Depots
on the old firmware keep posting over HTTP to a small relay that puts their scans on the same
queue. The relay is retired once the last depot has the new firmware, planned for September. The
planner team owns the queue, its alarms and the relay. Nothing else reads the queue.

## Motivation

Two restarts in the winter peak lost 1,900 scans.

## Drawbacks

Scans reach the planner up to a minute later.
"""


def test_a_long_summary_cut_short_is_kept_whole_in_pieces_with_their_own_lines() -> None:
    said = _said(LONG_SUMMARY, "docs/rfcs/0012-one-scan-queue.md")
    summaries = sorted((line, text) for text, line in said if text.startswith("Summary: "))
    assert summaries[0][1].startswith("Summary: Every depot scanner posts its scans to one SQS queue")
    assert summaries[0][1].endswith(" […]")
    # what the cut left out, after it: the relay's retirement and who owns the queue
    rest = " ".join(text for _, text in summaries[1:])
    assert "The planner team owns the queue, its alarms and the relay." in rest
    assert "Nothing else reads the queue." in rest
    assert all(line > summaries[0][0] for line, _ in summaries[1:])
    assert all(len(text) <= 480 for _, text in summaries)
