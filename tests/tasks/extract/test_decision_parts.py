"""The parts of a decision record kept beside its decision (tasks/extract/decision_parts.py):
each further choice, consequences, drivers as constraints or rationale, the chosen option's
reason, the options not chosen with why; never template placeholders or HTML comments."""

from __future__ import annotations

from tasks.extract import Extraction, SourceRef, extract_facts

NYGARD = """# 7. Cache tariff tables in Redis

Date: 2024-03-02

## Status

Accepted

## Context

The rating service reads tariff tables from Postgres on every call.

Forces:

- a tariff change must reach every rater within one minute;
- the rating team runs Redis already for the session store and knows it well;
- cost.

## Decision

We will cache each tariff table in Redis, keyed by its version.

Raters read the version number from Postgres once a minute and reload on a change.

We decided against an in-process cache because raters restart many times a day.

See the rating runbook for the reload command.

For example:

```
tariff:v42
```

## Consequences

- Rating calls no longer touch Postgres on the hot path.
- A Redis outage falls back to Postgres reads, at four times the latency.
- https://example.org/dashboards/rating

<!-- What becomes easier or more difficult to do because of this change? -->
"""

MADR = """---
status: accepted
date: 2024-05-01
---

# Queue invoices with NATS JetStream

## Context and Problem Statement

Invoices are posted synchronously and time out under load.

## Decision Drivers

* invoices must survive a broker restart
* the operations team wants one fewer product to patch every month

## Considered Options

* NATS JetStream
* Amazon SQS
* {title of option 3}

## Decision Outcome

Chosen option: "NATS JetStream", because it persists messages and the platform team already runs NATS.

### Consequences

* Good, because posting no longer blocks the request.
* Bad, because a second consumer group must be operated.

## Pros and Cons of the Options

### NATS JetStream

* Good, because it is already deployed.

### Amazon SQS

* Good, because nobody runs it.
* Bad, because invoices would leave our data centre, which the auditors forbid.

### [option 3]

* Bad, because [argument c]
"""

Y_STATEMENT = """# ADR-3: Idempotency keys

In the context of the payment API, facing duplicate charges on retries, we decided for
client-supplied idempotency keys and neglected server-side deduplication by amount, to achieve
exactly-once charges, accepting that clients must store a key per request.
"""


def _extract(text: str, name: str) -> Extraction:
    return extract_facts(text, SourceRef("x", "wiki/sources/x.md", "raw/x.md", name))


def _observed(result: Extraction) -> dict[str, tuple[int, int]]:
    return {o.text: (o.line_start, o.line_end) for o in result.observations}


def _labelled(observed: dict[str, tuple[int, int]], label: str) -> list[str]:
    return [text for text in observed if text.startswith(f"{label}: ")]


def test_a_nygard_record_keeps_each_choice_its_consequences_and_its_forces() -> None:
    result = _extract(NYGARD, "0007-cache-tariff-tables.md")
    observed = _observed(result)
    assert result.is_decision_record
    decisions = _labelled(observed, "Decision")
    assert decisions[0].startswith("Decision: We will cache each tariff table in Redis")
    assert observed["Decision: Raters read the version number from Postgres once a minute and reload on a "
                    "change."] == (23, 23)
    assert not any("For example" in text or "runbook" in text for text in observed)  # an example, a pointer
    assert observed["Rejected: We decided against an in-process cache because raters restart many times a "
                    "day."] == (25, 25)
    assert not any(text.startswith("Rationale: We decided against") for text in observed)  # kept once
    assert _labelled(observed, "Consequence") == [
        "Consequence: Rating calls no longer touch Postgres on the hot path.",
        "Consequence: A Redis outage falls back to Postgres reads, at four times the latency.",
    ]  # (not the bare address, nor the template's HTML comment)
    assert observed["Constraint: a tariff change must reach every rater within one minute;"] == (15, 15)
    assert "Rationale: the rating team runs Redis already for the session store and knows it well;" in observed
    assert not any(text.endswith(": cost.") for text in observed)  # a word is no reason


def test_a_madr_record_keeps_the_reason_and_why_the_options_not_chosen_lost() -> None:
    observed = _observed(_extract(MADR, "0004-queue-invoices.md"))
    assert any(text.startswith('Rationale: Chosen option: "NATS JetStream", because it persists') for text in observed)
    assert _labelled(observed, "Consequence") == [
        "Consequence: Good, because posting no longer blocks the request.",
        "Consequence: Bad, because a second consumer group must be operated.",
    ]
    assert _labelled(observed, "Rejected") == [
        "Rejected: Amazon SQS, because invoices would leave our data centre, which the auditors forbid."]
    assert observed["Constraint: invoices must survive a broker restart"] == (14, 14)
    assert "Rationale: the operations team wants one fewer product to patch every month" in observed
    assert not any("option 3" in text or "argument c" in text for text in observed)  # placeholders


def test_a_y_statement_gives_its_rejected_option_goal_and_accepted_consequence() -> None:
    observed = _observed(_extract(Y_STATEMENT, "adr-3-idempotency-keys.md"))
    assert observed["Rejected: server-side deduplication by amount"] == (3, 5)
    assert observed["Rationale: exactly-once charges"] == (3, 5)
    assert observed["Consequence: clients must store a key per request"] == (3, 5)


# The template's clauses a paragraph each (concl49), two options neglected, in bold as the
# template's placeholders were.
Y_CLAUSES = """# ADR-9: Nightly batch for risk scores

Status: Accepted

## Decision (Y-statement)

In the context of **the risk scoring service**,

facing **a nightly run that now takes 19 hours**,

we decided for **a batch on Spark that writes back to the scores database**,

and neglected **scoring every new case as it arrives, and
buying the vendor's scoring module**,

to achieve **a full run in under two hours**,

accepting that **scores are at most one day old**.

## Consequences

| Area | Effect | Who carries it |
|---|---|---|
| Operations | The platform team runs Spark on call | Platform team |
| Cost | About EUR 1,900 a month for the cluster | Finance |

Runs are retried once by the scheduler.
"""


def test_a_y_statement_written_a_clause_a_paragraph_is_one_statement() -> None:
    observed = _observed(_extract(Y_CLAUSES, "adr-9-nightly-batch.md"))
    decision = _labelled(observed, "Decision")[0]
    assert decision.startswith("Decision: In the context of the risk scoring service, facing")
    assert observed[decision] == (7, 18)
    assert observed["Rejected: scoring every new case as it arrives"] == (7, 18)
    assert observed["Rejected: buying the vendor's scoring module"] == (7, 18)
    assert observed["Rationale: a full run in under two hours"] == (7, 18)
    assert observed["Consequence: scores are at most one day old"] == (7, 18)


def test_a_table_of_consequences_gives_one_a_row_beside_the_prose() -> None:
    observed = _observed(_extract(Y_CLAUSES, "adr-9-nightly-batch.md"))
    assert [(text, observed[text]) for text in _labelled(observed, "Consequence")][:3] == [
        ("Consequence: Operations: The platform team runs Spark on call", (24, 24)),
        ("Consequence: Cost: About EUR 1,900 a month for the cluster", (25, 25)),
        ("Consequence: Runs are retried once by the scheduler.", (27, 27))]


def test_a_driver_that_forbids_a_kind_of_thing_is_a_constraint_not_a_rationale() -> None:
    text = ("# Store fields as Zarr\n\n* Status: accepted\n* Date: 2025-11-20\n\n## Context and Problem Statement\n\n"
            "How should we serve forecast fields?\n\n## Decision Drivers\n\n"
            "* no single machine whose failure stops delivery\n* users read small pieces far more often than whole fields\n\n"
            "## Considered Options\n\n* Zarr on object storage\n* More file servers\n\n## Decision Outcome\n\n"
            "Chosen option: \"Zarr on object storage\", because it removes the file server.\n")
    said = list(_observed(_extract(text, "decisions/0015-zarr.md")))
    assert "Constraint: no single machine whose failure stops delivery" in said
    assert "Rationale: no single machine whose failure stops delivery" not in said
    assert "Rationale: users read small pieces far more often than whole fields" in said


def test_each_item_a_need_leads_in_to_is_a_constraint() -> None:
    text = ("# 6. Serve forecasts through one server\n\nDate: 2021-03-04\n\n## Status\n\nAccepted\n\n## Context\n\n"
            "Every consumer copies whole files today.\n\nWe need one service that:\n\n"
            "* serves the latest runs from one copy;\n* lets a user cut out a region.\n\n"
            "We have people who run one already.\n\n## Decision\n\nWe will run a THREDDS server.\n\n"
            "## Consequences\n\nConsumers stop copying files.\n")
    said = list(_observed(_extract(text, "decisions/0006-tds.md")))
    assert "Constraint: serves the latest runs from one copy;" in said
    assert "Constraint: lets a user cut out a region." in said
    assert not any(fact.startswith("Constraint: We have people") for fact in said)


# A record whose Decision section states, beside its choices, the rules the choice keeps
# (written for this test, in the shape of a Nygard record).
RULED = """# 4. Sign download links at the edge

Date: 2025-06-02

## Status

Accepted

## Context

Every download asks the origin whether the file may be served.

## Decision

We will sign each download link at the edge with a key the origin issues.

Links live at most 15 minutes, so a withdrawn file stops downloading within a quarter
of an hour.

The origin stays the only store of grants; the edge never keeps a grant of its own.

The links carry the file id and the expiry time.
"""


def test_a_rule_the_decision_section_states_is_a_constraint_too() -> None:
    observed = _observed(_extract(RULED, "0004-sign-download-links.md"))
    assert observed["Constraint: Links live at most 15 minutes, so a withdrawn file stops downloading within "
                    "a quarter of an hour."] == (17, 18)
    assert observed["Constraint: The origin stays the only store of grants; the edge never keeps a grant of "
                    "its own."] == (20, 20)
    # each paragraph stays a choice of the decision as well; one that states no rule is no constraint
    assert any(text.startswith("Decision: Links live at most 15 minutes") for text in observed)
    assert not any(text.startswith("Constraint: The links carry") for text in observed)


TOLD_RULES = """# 7. Call the porting hub synchronously

## Status

Accepted

## Context

The regulator says an operator must complete a port-in within one working day.
The hub cannot take more than a few requests a second.

## Decision

We will call the porting hub from the order workflow and wait for its answer.

## Consequences

- Orders wait while the hub is slow.
- If a study extends, the porting desk must sign the new window before the old one ends.
"""


def test_a_rule_the_context_or_the_consequences_state_is_a_constraint() -> None:
    observed = _observed(_extract(TOLD_RULES, "0007-call-the-porting-hub.md"))
    assert observed["Constraint: The regulator says an operator must complete a port-in within one working "
                    "day."] == (9, 9)
    assert observed["Constraint: If a study extends, the porting desk must sign the new window before the old "
                    "one ends."] == (19, 19)
    assert not any(o.startswith("Constraint: The hub cannot") for o in observed)  # what is hard, no rule
    assert "Consequence: Orders wait while the hub is slow." in observed


LISTED_CHOICES = """# ADR-15: Send porting messages through an outbox

Status: Accepted

## Decision

We will send every porting request asynchronously, through a transactional outbox.

1. The order service writes each request to an `outbox` table in the same transaction
   as the porting state change.
2. A relay publishes outbox rows to the topic `porting.requests.v1` and marks them sent.
3. The connector is the only component that calls the porting hub, and it holds the certificate.
4. Orders no longer wait for the hub; the order is confirmed with the porting date shown as pending.

## Consequences

- A slow hub no longer blocks other orders.
"""


def test_a_decision_told_as_a_numbered_list_keeps_each_choice_and_its_rules() -> None:
    observed = _observed(_extract(LISTED_CHOICES, "0015-porting-outbox.md"))
    assert observed["Decision: Orders no longer wait for the hub; the order is confirmed with the porting date "
                    "shown as pending."] == (13, 13)
    assert observed["Decision: The order service writes each request to an `outbox` table in the same "
                    "transaction as the porting state change."] == (9, 10)
    assert observed["Constraint: The connector is the only component that calls the porting hub, and it holds "
                    "the certificate."] == (12, 12)


DACI = """# DR-4 Event transport: Kafka for order events

| | |
|---|---|
| **Status** | COMPLETE |
| **Driver** | @Ana Lima |
| **Approver** | @Rui Costa |
| **Outcome** | Run our own Kafka cluster for order events; services publish through the outbox |

## Background

Order events are sent by HTTP callbacks today, and a slow consumer holds every producer.

## Options considered

| | Option 1: callbacks | Option 2: Kafka |
|---|---|---|
| Pros | Nothing new to run | Consumers read at their own pace |

## Outcome

We chose **Option 2**, run by the platform team on our own cluster.

## Action items

- [x] @Rui Costa size the cluster for 3,000 events per second
- [ ] @Ana Lima move the billing consumer first
"""


def test_a_daci_records_stated_outcome_and_action_items_are_kept() -> None:
    """Atlassian's DACI template states the outcome in its header table and lists the action items
    the decision leaves: the outcome is a decision in its own words, each item an action."""
    observed = _observed(_extract(DACI, "DR-4-event-transport.md"))
    assert observed.get("Decision: Run our own Kafka cluster for order events; services publish through "
                        "the outbox") == (8, 8), observed
    actions = _labelled(observed, "Action item")
    assert any("size the cluster for 3,000 events per second" in t for t in actions), actions
    assert any("move the billing consumer first" in t for t in actions), actions
