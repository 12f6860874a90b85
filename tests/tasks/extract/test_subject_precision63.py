"""Subject precision and recall (issue 23 item 4; subj63): a reference architecture's template
headings (Azure Architecture Center: "Workflow", "Contributors") are no components; a link
whose text names another document of the site ("see the [Billing Change](../changes/x.md)")
names that document, not a subject; a team written "X & Y team" is one team, not "Y team";
the process or template a document is modelled on ("modelled on the Debian DEP process") is no
subject; sign-in protocols and directories are common technologies."""

from __future__ import annotations

from tasks.extract import SourceRef, extract_facts
from tasks.extract.candidates import CandidateHits
from tasks.extract.technologies import usual_spelling

_TYPED = {"about", "affected", "caused_by", "mitigated_by", "owned_by"}


def _subjects(text: str, path: str) -> dict[str, str]:
    result = extract_facts(text, SourceRef("a1", "sources/a1.md", path.rsplit("/", 1)[-1], path))
    return {fact.target.display: fact.relation_type for fact in result.relations
            if fact.relation_type in _TYPED}


REFERENCE = """# Parcel tracking platform

This reference architecture shows how Trackline, Hubscan and Routewise share parcel events
through one event stream, with Trackline as the system of record.

## Architecture

### Workflow

1. A courier scans a parcel with Hubscan; Hubscan sends the scan to Trackline.
2. Trackline stores the scan and publishes it; Routewise plans the next leg.
3. The workflow ends when Routewise confirms the delivery to Trackline.

### Components

- **Trackline** is the parcel record system and the only writer of parcel states.
- **Hubscan** is the scanner application used in every depot.
- **Routewise** plans routes. Its planner is changing, see the
  [Routing Change](../changes/routewise-planner-change.md).

## Considerations

- Trackline must stay the only writer of parcel states.
- Hubscan must queue scans while a depot is offline.

## Contributors

*This article is maintained by the Parcel Platform group. It was written by these contributors.*

Principal author:
- Ines Duarte | Lead architect

Other contributors:
- Paul Brandt | Engineer
"""


def test_reference_architecture_template_headings_and_links_to_documents_are_no_subjects() -> None:
    subjects = _subjects(REFERENCE, "architecture/parcel-tracking.md")
    assert {"Trackline", "Hubscan", "Routewise"} <= subjects.keys(), subjects
    assert not {"Workflow", "Contributors", "Routing Change"} & subjects.keys(), subjects


POSTMORTEM = """# Login failures for the staff portal

**Date:** 2026-03-02
**Status:** Resolved

## Summary

Staff could not log in to Ledgerly for 40 minutes.

## Root cause

The signing certificate of the Doorway SAML identity provider expired. The renewal was a
calendar reminder that nobody owned. Follow-up work is tracked in
[the Change](../changes/doorway-rotation-change.md).

## Resolution

Ana Ruiz (Identity & Access team lead) loaded a new certificate into Doorway.
The Identity & Access team owns Doorway.
"""


def test_a_link_named_by_its_kind_and_a_team_joined_by_an_ampersand() -> None:
    subjects = _subjects(POSTMORTEM, "postmortems/doorway-login-failures.md")
    assert "the Change" not in subjects and "Change" not in subjects, subjects
    assert "Access team" not in subjects, subjects
    assert "Identity & Access team" in subjects, subjects
    assert "SAML" in subjects, subjects  # named in the root cause: a common technology


PROPOSAL = """# Proposal: Ledger export over SFTP

Status: Draft
Author: Ana Ruiz

## Summary

This is a proposal (modelled on the Python PEP
process) to export the Ledgerly ledger nightly to Tallybank over SFTP. Ledgerly writes the
file and Tallybank reads it; Ledgerly keeps the export for seven days.

## Motivation

Tallybank asks for the ledger by e-mail today. Ledgerly already writes a nightly file.

## Design details

Ledgerly signs the file; Tallybank checks the signature before it loads the ledger.
"""


def test_the_process_a_proposal_is_modelled_on_is_no_subject() -> None:
    subjects = _subjects(PROPOSAL, "design/ledger-export.md")
    assert "Ledgerly" in subjects and "Tallybank" in subjects, subjects
    assert not {"Python PEP", "PEP", "Python"} & subjects.keys(), subjects


def test_sign_in_protocols_and_directories_are_common_technologies() -> None:
    assert usual_spelling("saml") == "SAML"
    assert usual_spelling("Active Directory") == "Active Directory"
    assert usual_spelling("webauthn") == "WebAuthn"


CHANGE = """= Ledger export on Tallybank =

== Summary ==
Move the nightly ledger export of Ledgerly from e-mail to Tallybank over SFTP.

== Owner ==
* Name: Ana Ruiz
* Email: a.ruiz@example.org
* Name: Kofi Mensah
* Email: <!-- add yours -->

== Detailed Description ==
Ledgerly writes the ledger file each night; Tallybank reads it at 02:00. Ledgerly keeps the
file for seven days so Tallybank can read it again.
"""


def test_the_people_of_contact_cards_a_name_field_then_an_email_field() -> None:
    result = extract_facts(CHANGE, SourceRef("a1", "sources/a1.md", "ledger-export.md",
                                             "changes/ledger-export.md"))
    people = {fact.target.display for fact in result.relations if fact.target.entity_type == "person"}
    assert {"Ana Ruiz", "Kofi Mensah"} <= people, people


REPORT = """# Accident report: ticket gates closed at Harbour Street

**Report number:** HR-26-07
**Date:** 2026-05-02

## Summary

The Gatekeep ticket gates at Harbour Street stayed closed for 50 minutes because Gatekeep
lost its connection to Farebox.

## Probable Cause

The probable cause was an expired client certificate between Gatekeep and Farebox.

## Recommendations

To the Fare Systems team:
- HR-26-07-R1: Alert 30 days before a Gatekeep certificate expires.

To Station Operations:
- HR-26-07-R2: Open the gates by hand after 5 minutes without Farebox.

## Who owns what

- Gatekeep code and on-call: Fare Systems (Nadia Haddad, tech lead)
- Station staffing: Station Operations (Oren Bakker)
"""


def test_teams_a_report_addresses_and_teams_with_their_person_in_brackets() -> None:
    subjects = _subjects(REPORT, "postmortems/harbour-street-gates.md")
    teams = {name for name in subjects if name.startswith(("Fare Systems", "Station Operations"))}
    assert len(teams) == 2 and "Station Operations" in teams, subjects
    assert "Nadia Haddad" not in teams and "Oren Bakker" not in teams


def test_a_stop_word_hyphened_to_a_name_stays_in_it() -> None:
    hits = CandidateHits()
    hits.add_phrases(3, "We chose OR-Tools CP-SAT over the old heuristic.",
                     "We chose OR-Tools CP-SAT over the old heuristic.")
    assert "OR-Tools CP-SAT" in hits.phrases and not any(p.startswith("-") for p in hits.phrases), hits.phrases


def test_a_system_with_where_it_runs_in_brackets_is_no_team() -> None:
    text = REPORT + "\n## Where it runs\n\n- Beacon  (Harbour GovCloud)\n- Beacon  (Harbour GovCloud)\n"
    result = extract_facts(text, SourceRef("a1", "sources/a1.md", "gates.md", "postmortems/gates.md"))
    teams = {fact.target.display for fact in result.relations if fact.target.entity_type == "team"}
    assert "Beacon" not in teams and any(name.startswith("Fare Systems") for name in teams), teams


def test_a_team_is_called_by_its_name_without_team_too() -> None:
    result = extract_facts(POSTMORTEM, SourceRef("a1", "sources/a1.md", "doorway.md", "postmortems/doorway.md"))
    team = next(fact for fact in result.entities if fact.ref.display == "Identity & Access team")
    assert "Identity & Access" in team.aliases, team.aliases


def test_a_one_word_name_with_a_lower_case_tail_after_a_hyphen() -> None:
    hits = CandidateHits()
    lines = ["We put Queue-it in front of the shop.", "The Built-in check stays.",
             "All Welsh-language letters go.", "Options were Queue-it or our own page."]
    for number, line in enumerate(lines, start=1):
        hits.add_phrases(number, line, line)
    assert len(hits.phrases.get("Queue-it", [])) == 2, hits.phrases
    assert not {"Built-in", "Welsh-language"} & hits.phrases.keys(), hits.phrases
