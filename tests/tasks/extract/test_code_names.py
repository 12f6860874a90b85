"""The team's systems named in code spans or coined in lower case (tasks/extract/code_names.py),
and a decision log kept as one table (tasks/extract/genres.decision_rows)."""

from __future__ import annotations

import random
import re

from tasks.extract.code_names import (
    _ARGUMENT_AFTER_RE,
    _VERB,
    _VERB_AFTER_RE,
    _after_span,
    alert_headings,
    alert_name,
    code_names,
    lower_case_names,
)
from tasks.extract.genres import decision_rows
from tasks.extract.structure import scan
from tasks.extract.subject_terms import term_key


def _code_terms(lines: dict[int, str]) -> dict[str, list[tuple[int, str]]]:
    terms: dict[str, list[tuple[int, str]]] = {}
    for number, line in lines.items():
        for part in line.split("`")[1::2]:
            terms.setdefault(part, []).append((number, line))
    return terms


def test_a_code_span_named_twice_where_a_table_or_a_kind_word_says_what_it_is() -> None:
    lines = {
        3: "- Write holdings to the `item_holding` table in `catalogue-db`.",
        4: "| `catalogue-db` | Amazon RDS for PostgreSQL 16 | Holdings |",
        5: "- Only `holdings-sync` writes to `item_holding`.",
        6: "| EKS `eks-apps-prod`, node group `general-4x` | Runs `holdings-sync` |",
        7: "Restart `holdings-sync` after `HoldingsSyncStale` fires.",
        8: "Alert `HoldingsSyncStale`: see the runbook.",
    }
    found = code_names(_code_terms(lines), lines, (1, "# holdings-sync"))
    assert {seen[0][1] for seen in found.values()} == {"item_holding", "catalogue-db", "holdings-sync",
                                                       "HoldingsSyncStale", "general-4x"}  # a node group, once
    assert [n for n, _ in found[term_key("holdings-sync")]] == [1, 5, 6, 7]  # the title's line counts


def test_a_code_span_named_once_where_the_line_says_its_kind_of_system() -> None:
    lines = {
        3: "Workers take jobs from the `docsight-ocr-jobs` SQS queue and read the `hl-claims-docs` S3 bucket.",
        4: "Scores go to a new topic, `fraud.scores.v1`. The `QuoteLatencyP95High` alert fired at 07:58.",
        5: "Watch the `sync_polled_total` metric and the `max_retries` setting; move the row to `outbox_dead`.",
        6: "Look `up-stream` in tables; `DocSightErrorRateHigh` is listed below.",
    }
    found = code_names(_code_terms(lines), lines, (1, "# DocSight"))
    assert {seen[0][1] for seen in found.values()} == {"docsight-ocr-jobs", "hl-claims-docs", "fraud.scores.v1",
                                                       "QuoteLatencyP95High"}


def test_a_dotted_span_a_sentence_publishes_or_consumes_is_a_topic() -> None:
    """A dotted name published, emitted, consumed or subscribed to (a few words may stand
    between the verb and "to"), or called a NATS subject or an exchange, is a topic; a dotted
    setting compared or raised is not, nor a file a sentence publishes."""
    lines = {
        3: "Kestrel runs hourly and publishes `kestrel.rates.published`; Tidewater consumes it.",
        4: "The connector publishes the answer to `npx.events.v1` for PortGate.",
        10: "Checkout-api writes a row, then publishes a `payment.created` event on RabbitMQ.",
        5: "Events arrive on NATS JetStream (subject `lintel.inventory.changed`).",
        6: "It sends a small JSON event to the topic exchange `results.events` with the ward.",
        7: "Compare the loop time with `max.poll.interval.ms`; raise `spring.datasource.url` later.",
        8: "CI publishes `site.yaml` to the bucket.",
        9: "Producers could not meet `min.insync.replicas`; set `min.insync.replicas` to 2.",
    }
    found = code_names(_code_terms(lines), lines, (1, "# Events"))
    topics = {"kestrel.rates.published", "npx.events.v1", "payment.created", "lintel.inventory.changed",
              "results.events"}
    assert {seen[0][1] for seen in found.values()} == topics


def test_settings_values_hosts_files_and_flags_are_not_systems() -> None:
    lines = {
        3: "| `max_connections` | 200 | `SYNC_PAUSED` | `koha.example.org` | `values.yaml` |",
        4: "| `max_connections` | 400 | `SYNC_PAUSED` | `koha.example.org` | `values.yaml` |",
        5: 'Use the `slow-resource` query; `slow-resource` is the main error type; see `python3.11`.',
        6: "The `slow-resource` value, and `python3.11` again.",
        7: "Check `spring.datasource.url` and `spring.datasource.url` in `PipelineRunSpec`, `PipelineRunSpec`.",
    }
    assert code_names(_code_terms(lines), lines, (1, "# Settings")) == {}


def test_a_hyphenated_span_a_line_calls_a_tag_or_a_flag_is_a_setting_even_in_a_field_or_a_row() -> None:
    lines = {
        3: "- **Decision:** Every credential is stored in Secrets Manager with an `expires-on` tag.",
        4: "| 1 | Tag all external credentials with `expires-on` | Oren | 2026-03-01 |",
        5: "| 2 | Set the `enable-fields` flag to `stable` | Dev | 2026-03-02 |",
        6: "- **Decision:** `enable-fields` stays off; `orders-sync` moves to the `orders-db` database.",
        7: "| 3 | Restart `orders-sync` | Dev | 2026-03-03 |",
    }
    found = code_names(_code_terms(lines), lines, (1, "# Review board"))
    # a tag and a flag are settings; a span the same rows name without a setting's word stays
    assert {seen[0][1] for seen in found.values()} == {"orders-sync", "orders-db"}


def test_a_coined_lower_case_name_opens_a_sentence() -> None:
    prose = [
        (3, "recorded some loans twice. shelfcheck, the kiosk back end, retried"),
        (4, "a checkout call to Koha after a restart of shelfcheck and of tapsettle."),
        (6, "shelfcheck keeps its request ids in memory and replays them."),
        (8, "- replays happen; tapsettle too."),
        (9, "Replays are rare, and vehpos is quiet."),
    ]
    names, words = lower_case_names(prose)
    assert set(names) == {term_key("shelfcheck")}
    assert term_key("tapsettle") in words and term_key("replays") not in words  # "Replays" opens a sentence capitalized
    assert term_key("vehpos") not in words  # written once


def test_a_decision_log_kept_as_one_table() -> None:
    body = (
        "# Team decision log\n\n"
        "| ID | Date | Decision (one line) | Decider | Status |\n|---|---|---|---|---|\n"
        "| DEC-1 | 2024-02-05 | Replace `shelf-index` with Apache Solr. | Maya | active |\n"
        "| DEC-2 | 2024-02-19 | Build the app with React Native. | Owen | active |\n"
        "| DEC-n | YYYY-MM-DD | What was decided. | Name | proposed |\n\n"
        "| Date | What happened |\n|---|---|\n| 2024-03-01 | A timeline row, not a decision. |\n"
    )
    assert decision_rows(scan(body.splitlines(), 1)) == [5, 6]


def test_a_coined_word_in_code_on_three_lines_that_acts_in_a_sentence() -> None:
    lines = {
        3: "The lab results router `labroute` delivered 1,312 results twice.",
        4: "`labroute` processed the same messages twice.",
        5: "For every result `labroute` calls the FHIR server.",
        6: "Set pgx to `exec` mode; `exec` mode sends a describe; drop the `exec` setting.",
        7: "Run `kubectl get pods`, then `kubectl` again; `kubectl` is the tool.",
        8: "The labels `namespace` and `job`; the `namespace` label; `namespace` again.",
    }
    found = code_names(_code_terms(lines), lines, (1, "# Duplicate results"))
    assert {seen[0][1] for seen in found.values()} == {"labroute"}  # not a setting, a command, a label
    two = {3: lines[3], 4: lines[4]}
    assert not code_names(_code_terms(two), two, (1, "# Duplicate results"))  # twice is not enough


def test_a_section_named_after_an_alert_is_that_alert() -> None:
    titles = [(15, "MllpListenerDown"), (19, "Context"), (45, "`LabrouteConsumerLag`"), (60, "Retry budget"),
              (70, "Kubernetes")]
    assert {seen[0][1] for seen in alert_headings(titles).values()} == {"MllpListenerDown", "LabrouteConsumerLag"}


def test_a_span_then_a_pattern_is_found_as_the_pattern_built_around_the_span_finds_it() -> None:
    rng = random.Random(3)
    pieces = ["`runnerd`", "`runnerd", "`run`", "runnerd", " ", "\t", "  ", "   ", "reads", "read", "the",
              "is", "was", "restarted", "ed", "x", "`", "-n", "\n", "each", "s"]
    checked = 0
    for term in ["runnerd", "run", "a.b"]:
        verb = re.compile(rf"`{re.escape(term)}`[ \t]{{1,3}}{_VERB}")
        argument = re.compile(rf"`{re.escape(term)}[ \t]+[^`\n]")
        for _ in range(4_000):
            line = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 10)))
            assert _after_span(f"`{term}`", _VERB_AFTER_RE, line) == bool(verb.search(line)), line
            assert _after_span(f"`{term}", _ARGUMENT_AFTER_RE, line) == bool(argument.search(line)), line
            checked += bool(verb.search(line)) + bool(argument.search(line))
    assert checked > 100


def test_an_alert_name_is_camel_case_words_an_acronym_or_a_status_code_among_them() -> None:
    for name in ("MllpListenerDown", "SlurmctldRPCLatencyHigh", "LustreOSTFull", "LumenOrigin404RateHigh",
                 "SlurmctldDown", "QuoteLatencyP95High"):
        assert alert_name(name), name
    for name in ("PipelineRun", "HashMap", "HTTPServer", "Kubernetes", "DataStore", "slurmctldDown"):
        assert not alert_name(name), name
    titles = [(9, "SlurmctldDown"), (12, "PipelineRun")]  # two words when the second is a condition
    assert {seen[0][1] for seen in alert_headings(titles).values()} == {"SlurmctldDown"}
