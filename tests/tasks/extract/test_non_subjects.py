"""Names the prose uses for what is not a subject (issue 23 item 4, precision): on-call
rotations, places, given names of people; and the false facts of owner lines, agenda topics
and procedure steps read twice."""

from __future__ import annotations

from pathlib import Path

import pytest

from tasks.extract import SourceRef, extract_facts
from tasks.extract.decision_people import people_in_lines
from tasks.extract.genre_subjects import _inside_a_longer_name
from tasks.extract.non_subjects import (
    city_name,
    cut_from_title_label,
    done_one_by_one,
    given_names,
    names_a_department,
    names_a_post,
    only_inside_names,
    only_possessive,
    places_after_at,
    rotation_names,
    sentence_cell,
    status_words,
    written_as_label,
    written_as_message,
    written_as_place,
    written_as_role,
)


def test_rotations_beside_their_word_in_an_on_call_column_and_as_handles() -> None:
    lines = ["Page the `labels-primary` rotation in PagerDuty.",
             "1. Claims on-call (Opsgenie rotation `claims-primary`).",
             "| Service | Owning team | On-call (Opsgenie) |", "|---|---|---|",
             "| quotesmith | Pricing | `pricing-primary` |", "", "ping @payments-primary now",
             "page the Platform SRE on-call", "the `claims-intake` on-call takes it"]
    assert rotation_names(enumerate(lines)) == {"labels-primary", "claims-primary", "pricing-primary",
                                                "payments-primary"}


@pytest.mark.parametrize(
    ("name", "expected"),
    [("Northgate", True), ("Riverside", True), ("Marrow Lane", True), ("St Brigid", True), ("Ward", True),
     ("Eastfield", True), ("Kellsbridge", True), ("Grafana", False), ("PgBouncer", False), ("Kafka", False)])
def test_places_after_at_before_a_site_word_and_numbered_rooms(name: str, expected: bool) -> None:
    text = " ".join([
        "Depot controllers at Northgate and Riverside printed the rosters. Depots at",
        "Ashvale General, St Brigid's and Marrow Lane. A nurse on Ward 7B saw it.",
        "Print a label in the Eastfield depot. Look at Grafana; requests queued in PgBouncer.",
        "Kafka 3.6 runs at Kafka scale too; Kafka lagged. A copy on Ceph in the Kellsbridge data centre."])
    assert written_as_place(name, text, places_after_at(text)) is expected


def test_given_names_of_responders_and_action_owners() -> None:
    text = ("The on-call engineer, Tomasz, saw the alias. Aleksander, on the Realtime on-call, got "
            "the call. Add an alert (Sade, by 21 Feb). Kafka, our event log, lagged.")
    assert given_names(text) == {"Tomasz", "Aleksander", "Sade"}


@pytest.mark.parametrize(
    ("line", "expected"),
    [('Owner: Fares & Payments (on-call rota "FareGate")', [("Fares & Payments", "team")]),
     ("Owner: Depot Systems & Labels (#depot-labels)", [("Depot Systems & Labels", "team")]),
     ("Owners: Ana Lima & Bo Chen", [("Ana Lima", "person"), ("Bo Chen", "person")])])
def test_a_team_joined_by_an_ampersand_is_one_team(line: str, expected: list[tuple[str, str]]) -> None:
    assert [(p.name, p.entity_type) for p in people_in_lines([(3, line)])] == expected


def _extract(text: str, path: str):  # type: ignore[no-untyped-def]
    return extract_facts(text, SourceRef("x", "wiki/sources/x.md", "raw/x.md", path))


def test_an_owning_team_field_ends_at_its_channel_and_the_next_field() -> None:
    path = Path(__file__).parents[2] / "fixtures/distill/prec38/architecture/labeldesk-service.md"
    result = _extract(path.read_text(encoding="utf-8"), "architecture/labeldesk-service.md")
    teams = [f.ref.display for f in result.entities if f.ref.entity_type == "team"]
    assert "Depot Systems" in teams and not any("#" in team or "owner" in team for team in teams)


def test_numbered_agenda_topics_are_not_action_items() -> None:
    text = ("# Depot Systems weekly — 10 September 2025\n\nAttendees: Joanna Byrne, Marta Silva\n\n"
            "## Agenda\n\n### 1. INC-2231 follow-ups\n\n- Joanna: the disk alert is live.\n\n"
            "### 2. Printer firmware\n\n- Tomasz: firmware reached Kingsway.\n\n"
            "## Action items\n\n- [ ] Priya: draft the migration plan (due 2025-09-24)\n")
    actions = [o.text for o in _extract(text, "minutes/2025-09-10-weekly.md").observations
               if o.text.startswith("Action item")]
    assert len(actions) == 1 and "migration plan" in actions[0]


def test_a_step_that_states_a_constraint_is_kept_once() -> None:
    text = ("# Maintenance procedure MP-3: restarting the workers\n\n## Before you start\n\n"
            "- Never restart the workers between 05:00 and 07:00.\n\n## Steps\n\n"
            "1. Scale the workers to zero.\n2. Scale the workers back to 6; they must all be ready before you go on.\n"
            "3. Print a test label.\n\n## Rollback\n\nScale the workers back.\n")
    facts = _extract(text, "runbooks/mp-3.md").observations
    assert [o.text for o in facts if o.kind == "constraint"] == [
        "Constraint: Never restart the workers between 05:00 and 07:00."]
    assert any(o.text.startswith("Procedure: Scale the workers back to 6") for o in facts)


def test_a_system_phrase_cut_from_a_longer_name_is_no_subject() -> None:
    line = "The cause was an expired Apple Push Notification service (APNs) certificate."
    assert _inside_a_longer_name("Notification service", line)
    assert _inside_a_longer_name("Azure Service", "stopped consuming from Azure Service Bus after")
    assert not _inside_a_longer_name("Job controller", "The Job controller counts a Pod as done.")
    assert not _inside_a_longer_name("Payments API", "calls to the Payments API failed")


@pytest.mark.parametrize(
    ("name", "expected"),
    [("Season", True), ("Phase", True), ("Patch", True), ("Kafka", False), ("Release", False), ("Sprint", False)])
def test_a_word_before_a_number_is_a_label_where_it_is_not_a_sentences_first_word(name: str, expected: bool) -> None:
    text = ("# After Action Review: login stall during the Season 4 launch\n"
            "- Season launch readiness review for Season 5.\nSince Phase 2, Kafka 3.6 lags; Patch 4.2 shipped.\n"
            "The Release train runs weekly; Release 7 added hourly reads.\nSprint 14 ended. Sprint planning.\n"
            "We plan each Sprint with Kafka.")
    assert written_as_label(name, text) is expected


@pytest.mark.parametrize(
    ("name", "title", "expected"),
    [("After Action", "After Action Review: login queue stall", True),
     ("history", "Incident history: Patch 4.2 downloads stalled", True),
     ("Fulfilment platform", "Fulfilment platform: system overview", False),
     ("T-Lang", "T-Lang Meeting: Current meeting", False),
     ("LabelDesk", "Incident report: parcel labels stuck (LabelDesk)", False)])
def test_common_words_cut_from_a_titles_label_are_the_kind_of_document(name: str, title: str, expected: bool) -> None:
    assert cut_from_title_label(name, title) is expected


def test_status_words_of_a_legend_and_a_status_column() -> None:
    lines = list(enumerate([
        "Statuses: **Proposed**, **Agreed**, **Reversed** (say by which entry), **Parked**.",
        "",
        "| ID | Decision | Status | Owner |",
        "|----|----------|--------|-------|",
        "| SDL-07 | Spark jobs run nightly on Kubernetes | Agreed | Kaito Brennan |",
        "| SDL-08 | Parked: tiering cold objects to tape | Deferred | Pieter de Vries |",
        "| SDL-09 | Trino is the only query engine | Reversed by SDL-10 | Malini Fernando |",
        "",
        "| Service | Owner |",
        "|---|---|",
        "| Kafka | Platform |",
    ], 1))
    assert status_words(lines) == {"proposed", "agreed", "reversed", "parked", "deferred"}
    assert status_words([(1, "We parked **Kafka** for now.")]) == frozenset()


def test_a_status_row_gives_its_state_but_a_header_row_does_not() -> None:
    rows = ["| Item | Value |", "|---|---|", "| Document status | Baselined v2.1 |", "| Framework | Kafka |"]
    assert status_words(enumerate(rows, 1)) == {"baselined"}
    # a header row is no status row: its column gives the states ("Open"), not "Owner"
    assert status_words(enumerate(["| Status | Owner |", "|---|---|", "| Open | Ana |"], 1)) == {"open"}


@pytest.mark.parametrize(("text", "expected"), [
    ("Loosely follows ISO/IEC/IEEE 42010: stakeholders, concerns, views", True),
    ("Mostly written in Go", True),
    ("Go service, Redis", False),  # a known technology and its kind
    ("Kotlin, PostgreSQL 16", False),
    ("Spring Boot app on Kubernetes", False),
    ("Lighthouse, Okta", False),
    ("TypeScript", False),
])
def test_a_technology_cell_that_is_a_sentence_lists_no_products(text: str, expected: bool) -> None:
    assert sentence_cell(text) is expected


@pytest.mark.parametrize(("span", "expected"), [
    ("recipe resolve timeout", True), ("tool state feed lagging", True),
    ("helm list", False), ("nats stream info LINTEL", False), ("kubectl get pods", False),
    ("recipe last-check 12", False),
])
def test_a_code_span_of_english_words_is_a_message_not_a_command(span: str, expected: bool) -> None:
    assert written_as_message(span) is expected


@pytest.mark.parametrize(("bracket", "expected"), [
    ("Head of Platform", True), ("Director of Engineering", True), ("Boardwall product owner", True),
    ("VP Engineering", True), ("Fab 4 operations manager", True),
    ("Platform SRE", False), ("Revenue Engineering", False), ("Head Office Systems", False),
])
def test_a_bracket_that_gives_a_persons_post_names_no_team(bracket: str, expected: bool) -> None:
    assert names_a_post(bracket) is expected


def test_a_thing_done_one_at_a_time_is_no_system() -> None:
    assert done_one_by_one("rollback went node", "The rollback went node by node, and tools kept flapping.")
    assert not done_one_by_one("gateway node",
                               "Roll back the gateway node by hand. The gateway node by node B.")
    assert not done_one_by_one("gateway node", "the gateway node is down")


def test_a_sentence_cell_a_quoted_message_a_post_and_two_kinds_make_no_subjects() -> None:
    text = "\n".join([
        "# Architecture description: Ledgerline warehouse", "",
        "| Item | Value |", "|---|---|",
        "| System of interest | Ledgerline, the billing warehouse |",
        "| Document status | Baselined v2.1 |",
        "| Framework | Loosely follows ISO/IEC/IEEE 42010: stakeholders, concerns, views |",
        "| Owner | Hana Morimoto (Head of Platform) |", "",
        "## Data-flow view", "",
        "Ledgerline loads invoices from Kafka into ClickHouse.",
        "Ledgerline must never read from Kafka directly.",
        "About a third of our tools (the older etch and furnace controllers) answer slowly.",
        "Ledgerline fails with `recipe resolve timeout` when ClickHouse is slow; the loader logs",
        "`tool state feed lagging` then. The rollback went node by node.", "",
        "## Rules", "",
        "- Ledgerline must only write to ClickHouse through the loader.",
        "- The loader must retry three times.",
    ])
    result = _extract(text, "architecture/ledgerline.md")
    names = {f.ref.display for f in result.entities}
    assert {"ClickHouse", "Kafka"} <= names
    assert not names & {"Loosely", "IEC", "Baselined", "Head of Platform", "furnace controller", "recipe",
                        "tool", "rollback went node"}, names


@pytest.mark.parametrize(("text", "expected"), [
    ("Halvard Moe (311 Platform), Oren Castellanos (Platform\nOperations). Platform Operations runs it.", True),
    ("Owned by 311 Platform. The Platform is down.", False),  # "The" opens a sentence: no name's word
    ("311 Platform and our Platform team", False),
    ("Ledgerd Platform team", False),  # "Ledgerd" is no ordinary word: asked of ordinary words only
    ("the pages say nothing", False),
])
def test_an_ordinary_capitalized_word_written_only_inside_longer_names(text: str, expected: bool) -> None:
    word = "Ledgerd" if text.startswith("Ledgerd") else "Platform"
    assert only_inside_names(word, " ".join(text.split())) is expected



def test_a_word_after_an_english_word_or_at_a_lines_end_is_written_alone() -> None:
    assert only_inside_names("Platform", "runs on Ledgerd Platform. See 311 Platform.")
    assert not only_inside_names("Platform", "Run Platform, the tool, on our clusters.")  # "Run" opens it
    assert not only_inside_names("Platform", "ACH through Platform\nDev raised it")  # a line's end


def test_a_word_and_joins_to_a_capitalized_word_before_it_is_part_of_that_name() -> None:
    assert only_inside_names("Safety", "Rosa Delgado (Building and Safety) said. Building & Safety rejected it.")
    assert not only_inside_names("Safety", "Building and Safety rejected it. Safety comes first.")
    assert not only_inside_names("Safety", "The and Safety")  # no name's word before "and"


@pytest.mark.parametrize(("name", "expected"), [
    ("Revenue Engineering", True), ("Claims Operations", True), ("Platform SRE", True), ("HPC Operations", True),
    ("Engineering", False), ("data engineering", False), ("Site Reliability", False), ("Kafka Streams", False),
])
def test_a_department_is_capitalized_words_ending_in_the_work_people_do(name: str, expected: bool) -> None:
    assert names_a_department(name) is expected


def test_a_manager_written_in_the_plural_or_after_a_kinds_possessive_is_a_job() -> None:
    assert written_as_role("revenue manager", "Revenue managers currently correct Kestrel. A revenue manager.")
    assert written_as_role("revenue manager", "Review the floors with the hotel's revenue manager")
    assert not written_as_role("fault manager", "the NOC's fault manager will call; the fault manager shows it")
    assert not written_as_role("channel manager", "a third-party channel manager; the channel manager")
    assert not written_as_role("Secrets Manager", "AWS Secrets Manager; two Secrets Managers")  # a name


def test_a_word_written_once_as_the_possessive_of_a_kind_is_its_maker() -> None:
    assert only_possessive("Oracle", "Lintel reads OHIP, Oracle's integration platform. OHIP gives a token.")
    assert not only_possessive("Oracle", "Oracle's integration platform. Oracle support said no.")  # twice
    assert not only_possessive("Kestrel", "Kestrel's Kafka topic")  # the possessive of a name
    assert not only_possessive("Aldermoor Trust", "the Aldermoor Trust's archive")  # more words: not asked


def test_a_well_known_city_is_a_place_but_a_site_named_after_it_is_left_to_the_place_rules() -> None:
    assert city_name("Lisbon") and city_name("New York") and city_name("Frankfurt")
    assert not city_name("Lisbon Chiado") and not city_name("Sofia") and not city_name("Kafka")
    text = ("# Postmortem: overbookings at Lisbon Chiado\n\n## Summary\n\nTidewater pushed availability late"
            " to Booking.com, so the properties in Lisbon and Porto sold rooms twice.\n\n## Root cause\n\n"
            "Tidewater batched pushes every 15 minutes; Lisbon and Porto sold out inside one window.\n\n"
            "## Resolution\n\nTidewater now pushes each change to Booking.com within 60 seconds.\n")
    result = extract_facts(text, SourceRef("x", "wiki/sources/x.md", "raw/x.md", "postmortems/overbooking.md"))
    names = {f.ref.display for f in result.entities}
    assert not names & {"Lisbon", "Porto"}, names  # "Porto" was a subject
