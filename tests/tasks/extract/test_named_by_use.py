"""Subject precision (issue 23 item 6; prec50): what a page writes by its use or its state is
no subject of its own: a time zone or a unit after a number ("16:05 CST"), a priority ("a P3
for Platform Operations"), the kind of document the page is ("PIR owner" of a "Post-incident
review"), a chat channel ("the Grain Marketing channel"), a kind the page says is not there ("no
hosted broker is used"), a thing in a state ("a spare gateway", "a corrupt folder index"), a
product's release and kind ("a ChirpStack v4 network server"), a post ("the location
manager", "Preservation team lead"), a licence ("Apache 2.0"), a collection's identifier
("MER-C-0419"), a diagram's node, and what a team owns in brackets after its name
("Farm Data Platform (FieldLink code)"), either of two kinds ("a compression or retention
job"), a role in a message's path ("the receiving mail server"), a machine of a pool ("the GPU
node pool"); a place written in emphasis keeps its whole name ("_Elm Prairie location_"), and
a longer name said short keeps the longer ("the activity job" of "the field activity job")."""

from __future__ import annotations

from tasks.extract import SourceRef, extract_facts
from tasks.extract.candidates import _CAP_PHRASE_RE
from tasks.extract.decision_people import PERSON_TYPE, TEAM_TYPE, people_in_lines
from tasks.extract.genre_subjects import _abbreviates_title_label, _before_a_measure, _talked_in
from tasks.extract.stack_names import versioned_names
from tasks.extract.subject_marks import code_like_lines
from tasks.extract.subject_terms import generic_mention, series_key, system_phrases, unit_after_number

RUNBOOK = """# FieldLink: MQTT backlog / stale sensor readings

| | |
|---|---|
| Alert | `FieldLinkReadingAgeHigh` |
| Owner | Farm Data Platform (Marisol Okafor) |
| Page owner | Platform Operations (on call), Farm Data Platform (FieldLink code) |

## Meaning

EMQX queues messages for FieldLink, and once the queue is full it drops the oldest ones.
FieldLink writes the readings to TimescaleDB. EMQX and TimescaleDB run on our cluster, and
no hosted broker is used. Each elevator leg has a ChirpStack v4 network server in front of EMQX.

## Mitigation

1. Scale `fieldlink-ingest` and watch EMQX drain.
2. **Gateway down.** Call the location manager and ask them to power-cycle the gateway. If
   it does not come back in 15 minutes, raise a P3 for Platform Operations field hardware.
3. Post in the Grain Marketing channel when readings are back.

::: mermaid
graph LR
  S[Sensors] --> G[LoRaWAN gateway] --> C[ChirpStack] --> E[EMQX] --> F[FieldLink]
:::

## Escalation

| When | Who |
|---|---|
| EMQX itself unhealthy | Platform Operations |
| Backlog not draining | Farm Data Platform on-call |
"""


def _subjects(text: str, path: str) -> set[str]:
    result = extract_facts(text, SourceRef("a1", "sources/a1.md", "doc.md", path))
    return {fact.target.display for fact in result.relations
            if fact.relation_type in {"about", "affected", "caused_by", "mitigated_by", "owned_by"}}


def test_a_runbook_is_not_about_its_priorities_channels_posts_releases_and_diagram_nodes() -> None:
    """(A team's bracket names who leads it or what it owns: the person is related, the code is no team.)"""
    subjects = _subjects(RUNBOOK, "runbooks/fieldlink-mqtt-backlog.md")
    assert {"EMQX", "TimescaleDB", "ChirpStack", "Platform Operations", "Marisol Okafor"} <= subjects, subjects
    assert not {"p3 for platform operations", "grain marketing", "location manager", "hosted broker",
                "v4 network server", "sensors", "fieldlink code"} & {s.lower() for s in subjects}, subjects


def test_a_time_zone_or_a_unit_after_a_number_is_no_name() -> None:
    timeline = "Mar 2, 2026 - 16:05 CST\nMar 2, 2026 - 10:52 CST\nthe 30 GB volume"
    assert unit_after_number("CST", timeline) and unit_after_number("GB", timeline)
    assert not unit_after_number("CST", f"{timeline}\nCST publishes the settlement file")
    assert not unit_after_number("EMQX", "EMQX 5 dropped them")


def test_the_kind_of_document_a_title_opens_with_and_a_chat_channel() -> None:
    assert _abbreviates_title_label("PIR", "Post-incident review: DISC-2291 Documents bypassed review")
    assert not _abbreviates_title_label("PIR", "Incident review: PIR sensor failed")
    assert _talked_in("Grain Marketing", "#farm-data-ops and the Grain Marketing channel")
    assert not _talked_in("Grain Marketing", "the Grain Marketing channel; Grain Marketing owns it")


def test_a_kind_the_page_says_is_not_there_and_a_thing_in_a_state() -> None:
    assert generic_mention("hosted broker", "EMQX runs on our cluster, and no hosted broker is used.")
    assert not generic_mention("hosted broker", "the hosted broker drops messages")
    found = system_phrases([(1, "price a third and fourth spare gateway for the July review"),
                            (2, "A 61 GB PST had a corrupt folder index and the corrupt index stalled.")])
    assert not {"spare gateway", "folder index", "corrupt index"} & set(found), found


def test_a_release_before_a_lower_case_kind_is_the_products_not_a_name() -> None:
    found = system_phrases([(1, "a ChirpStack v4 network server in our own cluster"),
                            (2, "the Open311 GeoReport v2 API serves requests")])
    assert "v4 network server" not in found and "network server" in found, found
    assert "georeport v2 api" in found, found


def test_a_licence_a_collections_identifier_and_a_diagram_edge() -> None:
    versions = versioned_names([(1, "Tesseract 5.3 (LSTM models, Apache 2.0), OCRmyPDF 16.1 as a wrapper")])
    assert "apache" not in versions and "ocrmypdf" in versions, versions
    assert series_key("MER", "A 61 GB PST from collection MER-C-0419 had a corrupt index")
    assert not series_key("MER", "MER owns the collection")
    assert code_like_lines([(1, "  S[Sensors] --> G[LoRaWAN gateway]"), (2, "  the sensors report")]) == {1}


def test_a_name_in_emphasis_keeps_its_first_word() -> None:
    phrases = [match.group(0) for match in _CAP_PHRASE_RE.finditer("_Elm Prairie location, April 2026._")]
    assert phrases[0] == "Elm Prairie", phrases


def test_a_post_after_a_team_is_the_team() -> None:
    people = people_in_lines([(3, "author: Hollis Greaves, Preservation team lead")])
    assert {(p.name, p.entity_type) for p in people} == {("Hollis Greaves", PERSON_TYPE),
                                                       ("Preservation team", TEAM_TYPE)}, people


POSTMORTEM = """# What happened: acres counted twice in RowTrack

**Status:** Resolved

## Summary

Between Monday Oct 12 and Wednesday Oct 14, RowTrack's field activity job
counted some sprayer passes twice. The ingest code deduplicated on the wrong key.

## Resolution

- Thu Oct 15: re-ran the field activity job for Oct 5-15 and regenerated the drafts.

## Action items

1. Add a reconnect-with-buffer track to the activity job's test fixtures. Owner: Jun Takahashi.
"""


def test_a_longer_name_said_short_keeps_the_longer() -> None:
    subjects = {s.lower() for s in _subjects(POSTMORTEM, "postmortems/2026-10-16-rowtrack.md")}
    assert "field activity job" in subjects and "activity job" not in subjects, subjects


def test_either_kind_a_role_in_a_path_and_a_machine_of_a_pool_are_no_system() -> None:
    found = system_phrases([(1, "If a compression or retention job is running now, let it finish.")])
    assert "retention job" not in found and "compression job" not in found, found
    assert "data team" in system_phrases([(1, "It does not cover the loyalty or data team consumers.")])
    assert generic_mention("mail server", "the receiving mail server must refuse any message")
    assert not generic_mention("mail server", "the mail server refused the message")
    assert _before_a_measure("privscreen GPU node", "- provision the privscreen GPU node pool (DISC-2301)")
    assert not _before_a_measure("NPX worker", "Keep the separate NPX worker pool until we have something better.")
