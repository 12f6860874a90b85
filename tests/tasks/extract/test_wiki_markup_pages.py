"""Pages written in wiki markup (conc63): MediaWiki's and Phabricator Remarkup's `== Title ==`
lines are headings, so a Phabricator RFC or a Fedora-style Change proposal is read by its parts;
a Change proposal's own parts (Detailed Description, Benefit to ..., Upgrade/compatibility
impact, Contingency Plan) say what the proposal is and where its design, reasons and
consequences stand."""

from __future__ import annotations

from tasks.extract import Extraction, SourceRef, extract_facts
from tasks.extract.genres import PROPOSAL, recognise_genre
from tasks.extract.structure import scan
from tasks.markdown.blocks import read_blocks, wiki_headings, without_lines


def _extract(text: str) -> Extraction:
    return extract_facts(text, SourceRef("x", "wiki/sources/x.md", "raw/x.md", "x.md"))


def _said(text: str) -> list[str]:
    return [fact.text for fact in _extract(text).observations]


REMARKUP_RFC = """# RFC: Replace the nightly route planner with a solver

**Author:** Ines Duarte

== Problem statement ==

The planner sorts parcels by weight and fills the first van that fits; last winter drivers
reworked a third of the routes by hand.

== Motivation ==

* The van tablets already report their load, so the planner can check weights itself.

== Goals ==

* no van leaves over its weight limit
* every parcel for a locker arrives before 09:00

== Alternatives ==

| Option | Notes |
|---|---|
| Tune the greedy planner | tried in 2023, reworked routes fell by a tenth only |
| Buy the vendor's module | licence per van, a year to integrate |

== Proposal ==

Build a `route-solver` service around a constraint solver. The planner hands it the day's
parcels and vans as one file and gets back a van and a slot for each parcel.
"""


def test_wiki_headings_are_read_apart_from_the_text_they_head() -> None:
    body = "= Title =\n== Summary ==\nMove the portal.\n\nText == not a heading ==\n=== Scope ===\n".split("\n")
    blocks = read_blocks("\n".join(body), body)
    found = [(head.line, head.level, head.text) for head in wiki_headings(blocks)]
    assert found == [(0, 1, "Title"), (1, 2, "Summary"), (5, 3, "Scope")]
    assert without_lines(((0, 3), (4, 6)), {0, 1, 5}) == ((2, 3), (4, 5))
    structure = scan(body, 1)
    assert [structure.title(section) for section in structure.sections[1:]] == ["Title", "Summary", "Scope"]
    assert (3, 3) in structure.paragraphs  # "Move the portal." stands under its heading


def test_unbalanced_or_setext_marks_are_no_wiki_heading() -> None:
    body = "Title\n=====\n\n== Summary =\n\n= =\n".split("\n")
    assert wiki_headings(read_blocks("\n".join(body), body)) == ()


def test_a_remarkup_rfc_is_read_as_a_proposal() -> None:
    said = _said(REMARKUP_RFC)
    assert any(s.startswith("Summary: The planner sorts parcels by weight") for s in said), said
    assert "Goal: no van leaves over its weight limit" in said
    assert any(s.startswith("Rejected: Tune the greedy planner") for s in said), said
    assert any(s.startswith("Design: Build a `route-solver` service") for s in said), said
    # a Motivation's items are why the change is wanted
    assert "Rationale: The van tablets already report their load, so the planner can check weights itself." in said


CHANGE_PROPOSAL = """# Changes/DepotSignOn

= Depot sign-on on Keycloak =

== Summary ==
Move the depot sign-on portal from the old CAS server to Keycloak, keeping CAS for the
scanners.

== Owner ==
* Name: Ana Ruiz

== Detailed Description ==
Keycloak runs on the shared cluster with two replicas; drivers keep their badge login and
the portal moves to OpenID Connect.

== Benefit to the Company ==
* Certificate rotation is automated, so an expired key cannot stop the morning shift.
* Password resets no longer need the service desk.

== Upgrade/compatibility impact ==
Sessions are not carried over: every driver logs in once more after cutover.

== How To Test ==
Log in on each depot's kiosk with a test badge.

== Contingency Plan ==
* Contingency mechanism: point the portal back at the CAS server.
"""


def test_a_change_proposal_is_read_by_its_own_parts() -> None:
    structure = scan(CHANGE_PROPOSAL.split("\n"), 1)
    assert recognise_genre([], structure, "Changes/DepotSignOn") == PROPOSAL
    said = _said(CHANGE_PROPOSAL)
    assert any(s.startswith("Design: Keycloak runs on the shared cluster") for s in said), said
    assert "Rationale: Password resets no longer need the service desk." in said
    assert any(s.startswith("Rationale: Certificate rotation is automated") for s in said), said
    assert "Consequence: Sessions are not carried over: every driver logs in once more after cutover." in said


JIRA_EXPORT = """[OPS-88] Keep the depot rota in the shared calendar
Created: 02/Mar/24 10:41 AM  Updated: 30/Jun/24 04:12 PM

Status:              Closed
Type:                Decision

Description

*Context*
Depot rotas live in three spreadsheets that drift apart; twice last winter a depot opened with
nobody on the early shift.

*Decision*
We keep the depot rota in the shared calendar, one calendar per depot.

*Consequences*
- Spreadsheet rotas are retired after the March cut-over.
- Shift swaps are made in the calendar, not by e-mail.

Comments

Ana Ruiz - 14/Mar/24 09:12 AM
Agreed at the operations review.
"""


def test_jira_wiki_bold_titles_head_a_plain_bodys_parts() -> None:
    body = JIRA_EXPORT.split("\n")
    structure = scan(body, 1)
    titles = [structure.title(section) for section in structure.sections[1:]]
    assert titles == ["Description", "Context", "Decision", "Consequences", "Comments"]
    said = _said(JIRA_EXPORT)
    assert "Decision: We keep the depot rota in the shared calendar, one calendar per depot." in said
    assert "Consequence: Shift swaps are made in the calendar, not by e-mail." in said
    assert "Date: 2024-03-02" in said  # Jira's "02/Mar/24", read as a record's date too


def test_an_emphasised_phrase_opening_a_sentence_is_no_title() -> None:
    body = "A short memo.\n\nNotes\n\nText here.\n\n*Really* important: keep it.\nMore text.\n\nEnd\n\nLast words.\n".split("\n")
    structure = scan(body, 1)
    titles = [structure.title(section) for section in structure.sections[1:]]
    assert titles == ["Notes", "End"]
