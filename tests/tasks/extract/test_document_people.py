"""Who a document names as people (tasks/extract/document_people.py) and the names minutes'
attendance lists (subject_marks `_listed_people`)."""

from __future__ import annotations

from tasks.extract.document_people import document_people
from tasks.extract.structure import scan
from tasks.extract.subject_marks import _listed_people


def _people(text: str, stated: tuple[str, ...] = ()) -> tuple[frozenset[str], frozenset[str]]:
    found = document_people(scan(text.splitlines(), 1), stated)
    return found.full, found.given


def test_bylines_and_owner_notes_give_full_names() -> None:
    full, given = _people("*Written by Ilse Brandt for the payments team.*\n\n"
                          "- Add an alert. (Owner: Tomás Ruiz, STO-88)\n- Assignee: Frank van Dijk\n")
    assert full == {"ilse brandt", "tomás ruiz", "frank van dijk"}
    assert given == {"ilse", "tomás", "frank"}


def test_a_byline_in_underscore_italics_gives_its_author() -> None:
    full, given = _people("_Written by Ilse Brandt for the payments team._\n\nText.\n")
    assert full == {"ilse brandt"} and given == {"ilse"}
    assert _people("The page was rewritten by Ilse Brandt\n")[0] == set()  # inside a word: no byline


def test_a_team_a_day_or_one_word_is_no_person() -> None:
    full, _ = _people("Owned by Payments Infrastructure.\nWritten by Monday Morning.\n"
                      "Prepared by Ilse for review.\n- Owner: Storage Team\n")
    assert full == set()


def test_names_matches_a_person_or_a_given_name_alone() -> None:
    people = document_people(scan(["Text."], 1), ["Maren Holt"])
    assert people.names("Maren Holt") and people.names("Maren") and people.names("maren h.")
    assert not people.names("Marenstore cluster") and not people.names("PostgreSQL")
    assert not people.names("Maren data lake pipeline")


def test_attendance_brackets_after_a_team_are_people_after_a_name_a_role() -> None:
    assert _listed_people("payments (Ilse Brandt, Tomás") == {"payments", "ilse", "brandt", "tomás"}
    assert _listed_people("Noor (Kafka team), SRE (Keisha, Lars)") == {"noor", "sre", "keisha", "lars"}
    assert _listed_people("Piotr Zielinski (developer productivity)") == {"piotr", "zielinski"}


def test_role_fields_task_owner_columns_bracketed_roles_and_deeds_give_people() -> None:
    full, given = _people(
        "*Sunniva Dahl, Platform Infrastructure · 6 min read*\n\n"
        "| | |\n|---|---|\n| **Incident Commander** | Hannah Okafor |\n"
        "Approver: Kwame Mensah (Head of Platform)\n\n"
        "At 14:27 Diego Salas rolled back the release.\n"
        "- Rafael Costa (IC, SRE)\n\n"
        "| Action | Owner | Ticket |\n|---|---|---|\n| Canary per pod | Jonas Berg | SRE-530 |\n")
    assert full == {"sunniva dahl", "hannah okafor", "kwame mensah", "diego salas", "rafael costa",
                    "jonas berg"}
    assert {"hannah", "diego"} <= given


def test_technologies_and_teams_in_those_places_are_no_people() -> None:
    full, _ = _people(
        "| **Owner** | Payments Infrastructure |\nLead: Kafka Connect\n"
        "Kafka Streams rolled back the offsets.\nCruise Control (rebalancer lead)\n"
        "| Step | Owner |\n|---|---|\n| Add broker | Storage Team |\n")
    assert full == set()


def test_the_hint_of_a_line_is_the_plain_pattern_it_stands_for() -> None:
    # _HINT_RE opens every alternative with a literal (for speed): it finds exactly the lines
    # the pattern written with classes and boundaries finds
    import re

    from tasks.extract.document_people import _HINT_RE

    plain = re.compile(r"by |ssign|DRI|wner|ommander|[Ss]cribe|[Ll]ead\b|[Oo]n-?call|esponder|eviewer"
                       r"|pprover|[Tt]aker|acilitator|\bIC\b|\s[–—]\s")
    lines = ["IC: Ilse", "the IC said", "PUBLIC", "xIC y", "ICs", "a — b", "a—b", "\t– x", "– x", "Lead",
             "leads", "misleading", "lead.", "On-call", "oncall", "Scribe", "note taker", "Taker",
             "done by Ana", "nearby", "DRIVER", "owner", "nothing here", "IC", "_IC_"]
    assert [bool(_HINT_RE.search(line)) for line in lines] == [bool(plain.search(line)) for line in lines]
    assert sum(bool(_HINT_RE.search(line)) for line in lines) > 10


def test_attendance_and_decided_by_fields_list_people_and_wrap_onto_plain_lines() -> None:
    full, _ = _people("Members present: Sofia Almeida (Matchmaking), Ji-woo Park (Commerce), Oleksandr Kovalenko\n"
                      "(Data Platform), Mei Lin (Security)\n"
                      "Last verified: 2025-10-28, by Oscar Lindqvist, Cruise Control enabled\n"
                      "Decided by: Kwabena Osei (approver), Priya Natarajan.\n"
                      "*Author: Raj Patel (Platform). Sponsor: Ana Lima, Head of Platform.*\n")
    assert {"sofia almeida", "ji-woo park", "oleksandr kovalenko", "mei lin", "kwabena osei",
            "priya natarajan", "raj patel"} <= full
    assert not any("cruise" in name or "verified" in name for name in full)  # a field of its own


def test_written_people_gives_each_full_name_as_first_written_with_its_line() -> None:
    from tasks.extract.document_people import written_people

    lines = [(3, "**Incident commander:** Piotr Zielinski"), (5, "At 18:31 piotr zielinski moved it."),
             (8, "- Alarm on drift (Owner: Tobias Lindqvist)")]
    people = document_people(scan([text for _, text in lines], 1), ["Noor"])
    assert written_people(people, lines) == [
        (3, "Piotr Zielinski", lines[0][1]), (8, "Tobias Lindqvist", lines[2][1])]


def test_full_name_is_capitalized_words_of_a_person_not_a_post_or_a_group() -> None:
    from tasks.extract.document_people import full_name

    assert full_name("Ilse Brandt") and full_name("Frank van Dijk") and full_name("Elif Yıldız")
    for name in ("Service Monitoring", "Commerce tech lead", "Version 3", "[Marco Pracucci]",
                 "Apologies: Ilse Mertens", "Payments Infrastructure", "Kafka Streams"):
        assert not full_name(name), name


def test_meeting_field_lines_are_the_fields_of_a_meetings_people_and_their_wrapped_lines() -> None:
    from tasks.extract.document_people import meeting_field_lines

    lines = [(1, "# Board minutes"), (3, "Members present: Dmitri Sokolov (Metering), Lukas"),
             (4, "Brenner (Field Ops), Chloe Martin"), (5, "**Chair:** Marek Nowicki"),
             (6, "## 1. Actions"), (7, "Dmitri Sokolov asked how long Kafka keeps the reads."),
             (8, "Apologies: Ingrid Solberg")]
    assert meeting_field_lines(lines) == {3, 4, 5, 8}


def test_brackets_that_spell_out_an_acronym_name_no_person() -> None:
    full, _ = _people("""# Auth plugins

- [httpie-jwt-auth](https://example.org/jwt): JWTAuth (JSON Web Tokens)
- [httpie-ntlm](https://example.org/ntlm): NTLM (NT LAN Manager)
- Rotate the signing keys (Ilse Brandt)
""")
    assert "json web tokens" not in full and "nt lan manager" not in full
    assert "ilse brandt" in full


def test_an_emails_sender_and_the_people_it_copies_are_people() -> None:
    full, _ = _people("From: Tariq Mahmood <tariq.mahmood@kestrel.example>\n"
                      "To: provisioning-all@kestrel.example; Operations leadership\n"
                      "Cc: Ines Carvalho <ines.carvalho@kestrel.example>, pricing-team@kestrel.example\n"
                      "Subject: What happened with NPX on Wednesday\n\nHi all,\n")
    assert full == {"tariq mahmood", "ines carvalho"}  # not the lists and groups it is sent to


def test_a_from_field_without_a_recipient_or_subject_is_no_email() -> None:
    full, _ = _people("# Migration notes\n\nFrom: Oracle Cloud Platform\nCc: Data Platform\n\nText.\n")
    assert full == set()
    full, _ = _people("# Sync\n\nFrom: Hamza Quraishi\n\nNotes of the sync.\n")
    assert full == set()  # a sender without a recipient or subject: no e-mail header


def test_a_daci_table_and_mentions_side_by_side_name_people() -> None:
    """A DACI page's roles (Atlassian's template: Driver, Approver, Contributors, Informed), a
    record's "Recorded by" row, and @-mentions a wiki or shared document writes side by side."""
    full, _ = _people("| | |\n|---|---|\n| **Driver** | @Marisol Okafor |\n| **Approver** | @Corinne Beaudry |\n"
                      "| **Contributors** | @Ayodele Fashola, @Wes Tuttle (Elm Prairie) |\n"
                      "| **Informed** | Agronomy Analytics, location managers |\n| Recorded by | Noor Haddad |\n")
    names = {name for name in full if " " in name}  # (a handle's first word is a person's too: "@Marisol")
    assert names == {"marisol okafor", "corinne beaudry", "ayodele fashola", "wes tuttle", "noor haddad"}
    full, _ = _people("**Attendees:** @Marisol Okafor @Dale Brunsvold @Jun Takahashi\n")
    assert {name for name in full if " " in name} == {"marisol okafor", "dale brunsvold", "jun takahashi"}
    # a driver that is software is no role's value
    full, _ = _people("| Component | Driver |\n|---|---|\n| Driver | PostgreSQL JDBC |\n")
    assert full == set()


def test_who_last_reviewed_the_page_and_fields_side_by_side_name_people() -> None:
    """A page's header says who last reviewed or updated it, beside a date; minutes write two
    role fields on one line, apart by a middle dot."""
    for line in ("| Last reviewed | 2026-04-21 by Tomasz Wierzbicki |", "Last updated: 19 May 2026 (Tomasz Wierzbicki)",
                 "> Last reviewed: 17/03/2026 · Tomasz Wierzbicki · Owner: Ingestion Platform"):
        assert _people(f"{line}\n\nText.\n")[0] == {"tomasz wierzbicki"}, line
    assert _people("Last updated: 19 May 2026 by the Payments Team\n")[0] == set()
    full, _ = _people("**Chair:** Saoirse Kavanagh · **Minutes:** Ines Castellano\n")
    assert full == {"saoirse kavanagh", "ines castellano"}


def test_a_role_field_inside_a_top_line_of_fields_joined_by_dots_gives_people() -> None:
    """"*Incident: INC-7 · Severity: SEV-1 · Facilitator: Marta Lindqvist · ...*": the field after a
    dot is read as a field at a line's start; a line lower down, or no role's field, gives nobody."""
    top = ("# Learning review\n\n*Incident: INC-7 · Severity: SEV-1 · Facilitator: Marta Lindqvist"
           " · Published: 19 March 2026*\n\nText.\n\nMore text.\n\nLast: Status: x · Scribe: Ola Berg\n")
    assert _people(top)[0] == {"marta lindqvist"}
