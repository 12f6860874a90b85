"""The teams a document names where it says who owns or does something
(tasks/extract/owner_teams.py), and their place among the document's subjects."""

from __future__ import annotations

from tasks.extract import SourceRef, extract_facts
from tasks.extract.document_people import document_people
from tasks.extract.owner_teams import owner_teams
from tasks.extract.structure import scan


def _teams(text: str) -> dict[str, list[int]]:
    structure = scan(text.splitlines(), 1)
    return {seen[0][1]: [number for number, _ in seen]
            for seen in owner_teams(structure, document_people(structure)).values()}


def test_owner_fields_action_owners_and_task_columns_name_teams() -> None:
    teams = _teams(
        "# Kestrel scratch retro\n\n"
        "> Owner: Identity & Access team · Reviewed with the Information Security Group\n"
        "Owner: Digital Learning Platforms team. Last run: 2025-10-27.\n\n"
        "- [ ] Publish guidance on small files - owner: Research Software Engineering (3)\n"
        "- Back up the speed table after every change. (Owner: Hub Engineering)\n"
        "- [x] Add an alert on inode use - owner: Hamza Rahimi (6)\n\n"
        "| # | Action | Owner | Due |\n|---|---|---|---|\n"
        "| 1 | Alert on consumer group rebalances | SRE Guild | 11/07/2025 |\n"
        "| 2 | Add a unique index | Wen Li | 04/07/2025 |\n"
        "| 3 | Raise the poll interval | Customer Billing team | 04/07/2025 |\n\n"
        "| **Problem owner** | Dev Ahluwalia, Head of Warehouse Systems |\n")
    assert teams == {"Identity & Access team": [3], "Digital Learning Platforms team": [4],
                     "Research Software Engineering": [6], "Hub Engineering": [7], "SRE Guild": [12],
                     "Customer Billing team": [14], "Warehouse Systems": [16]}


def test_a_persons_bracketed_team_is_one_the_document_names_again() -> None:
    teams = _teams(
        "# Seat map outage\n\n"
        "| Analysis lead | Morag Tennant (Identity & Access) |\n\n"
        "Ruth Amadi (Payments) did the repair work.\n\n"
        "Some background for readers outside Payments: the seat map runs on GKE.\n\n"
        "Tomás Ruiz (Ticketing) approved the change, with Ana Lima (Customer) and Li Wei (Customer Care).\n")
    # "Payments" is written again; "Identity & Access", "Ticketing" and "Customer Care" only in
    # brackets (a department that attends); "Customer" is no team alone
    assert teams == {"Payments": [5]}
    assert _teams("Owner: Kwame Asante (Identity & Access)\n\nThe Identity & Access team runs Keycloak.\n") == {
        "Identity & Access": [1]}


def test_roles_people_column_heads_and_attendance_are_no_teams() -> None:
    teams = _teams(
        "# Weekly sync\n\n"
        "Present: Ana, Bruno, Chen, Lea Martin, Grid Flexibility team\n"
        "Attendees: Priya Nair (chair), Jonas Berg (IC, SRE)\n\n"
        "| Action | Owner | Status |\n|---|---|---|\n"
        "| Fix the alert | Ana Lima | Done |\n\n"
        "Owner: TBD\nOwner: on-call rota\nOwner: Head\nOwner: SRE\nOwner: Kafka\n"
        "Ana and Chen met Ana and Chen.\n")
    assert teams == {"Grid Flexibility team": [3]}  # in attendance only a name with a team's head word


def test_owner_teams_become_subjects_of_a_page_of_no_genre() -> None:
    text = ("# Access review policy\n\nOwner: Security team\n\n"
            "Every quarter each system owner reviews who can reach production.\n")
    result = extract_facts(text, SourceRef("a1", "sources/a1.md", "policy.md", "policy.md"))
    assert {(fact.relation_type, fact.target.display, fact.target.entity_type) for fact in result.relations
            if fact.target.display == "Security team"} == {("about", "Security team", "team")}


def test_a_persons_team_written_as_a_slug_in_brackets() -> None:
    text = ("# Invoice renderer\n\nAuthor(s): Priya Raman (billing-platform)\n\n"
            "Nobody on billing-platform wants to run Kafka.\n")
    assert _teams(text) == {"billing-platform": [3]}
    # written once: no team
    assert _teams("Author(s): Priya Raman (billing-platform)\n") == {}


def test_a_team_a_sentence_says_owns_keeps_or_wrote_the_thing() -> None:
    teams = _teams(
        "# Booking data flow\n\n"
        "It is owned by the Booking team and runs in two regions.\n"
        "Prepared by the Payments squad, February 2026.\n"
        "The log is kept by the Fares & Ticketing team for the fare platform.\n"
        "Requests are served by the Edge team's proxies.\n"
        "The relay was written by Ana Lima and is run by the on-call team.\n")
    # a name with a team's head word after "owned / prepared / kept by"; not whose proxies serve,
    # a person, or a team of no name
    assert teams == {"Booking team": [3], "Payments squad": [4], "Fares & Ticketing team": [5]}


def test_a_team_named_after_its_work_in_an_ing_word() -> None:
    # "Booking", "Metering": the "-ing" nouns of "book" and "meter", which the dictionary does not list
    assert _teams("# Fares\n\nOwner: Metering team\n\nOwner: Booking\n\nThe Booking queue is full.\n") == {
        "Metering team": [3], "Booking": [5]}
