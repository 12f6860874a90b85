"""The genre-independent conclusion reader (tasks/extract/plain_conclusions.py): a statement is
read by what it says (a choice, a rule, an action with its owner, a cause and its fix), a
heading by the kind its words name; boilerplate, questions, code and memory notes never."""

from __future__ import annotations

from tasks.extract.facts import extract_facts
from tasks.extract.model import SourceRef
from tasks.extract.plain_conclusions import MAX_PER_KIND
from tests.conftest import CORPUS


def _said(text: str) -> list[str]:
    result = extract_facts(text, SourceRef("a1", "sources/x.md", "raw/x.md", "x.md"))
    return [f"{fact.line_start}-{fact.line_end} {fact.text}" for fact in result.observations]


MEMO = """# Memo: replacing the ticket scanners

To: Operations
From: Ines Carvalho

The 140 handheld scanners the crews use reach the end of security updates in June, and the
ticketing service already warns on every scan from them.

After a trial we recommend replacing them with the TC58 rather than staff phones.

Next steps:

- Ines Carvalho will place the order by 20 March.
- Fleet IT will recycle the old units after the cut-over.

## Rules for other teams

Other services must read bookings through the API; no service may query its database.

## Open questions

- Should we keep ten spares?
"""


def test_a_memo_of_no_genre_gets_its_summary_choice_actions_and_rules() -> None:
    said = _said(MEMO)
    assert "6-7 Summary: The 140 handheld scanners the crews use reach the end of security updates in June, " \
           "and the ticketing service already warns on every scan from them." in said
    assert "9-9 Decision: After a trial we recommend replacing them with the TC58 rather than staff phones." in said
    assert "13-13 Action item: Ines Carvalho will place the order by 20 March. (owner: Ines Carvalho)" in said
    assert "14-14 Action item: Fleet IT will recycle the old units after the cut-over." in said
    assert ("18-18 Constraint: Other services must read bookings through the API; no service may query its "
            "database.") in said
    assert not any("spares" in line for line in said)  # a question is no conclusion


CHANGE = """# CHG-7 Database failover test

## Description of change

Fail the primary database over to the standby in the second data centre and back again.

## Backout plan

If sales do not resume within five minutes, restart the API pods against the old primary.

## Review

<!-- Reviewers: tick each box before the CAB meeting. -->
- [ ] Tested in staging
- [x] Service desk informed

## Status

- Kiosk sales were slow because the switch was saturated; the network team moved CCTV to its own VLAN.
"""


def test_a_change_request_keeps_its_backout_as_mitigation_and_no_check_box() -> None:
    said = _said(CHANGE)
    assert "5-5 Summary: Fail the primary database over to the standby in the second data centre and back again." in said
    assert ("9-9 Mitigation: If sales do not resume within five minutes, restart the API pods against the "
            "old primary.") in said
    assert "19-19 Cause: Kiosk sales were slow because the switch was saturated" in said
    assert "19-19 Resolution: the network team moved CCTV to its own VLAN." in said
    assert not any("Tested in staging" in line or "Reviewers" in line or "informed" in line for line in said)


def test_a_description_of_how_it_works_is_no_rule_but_a_policy_list_is() -> None:
    prose = "# Cache\n\nThe cache can only hold one entry per key, and it is cleared at start.\n"
    assert not any("Constraint" in line for line in _said(prose))
    policy = ("# Access\n\n## Policy\n\n1. Access not used for 90 days is removed automatically.\n"
              "2. Contractors get access for at most 30 days at a time.\n")
    said = _said(policy)
    assert "5-5 Constraint: Access not used for 90 days is removed automatically." in said
    assert "6-6 Constraint: Contractors get access for at most 30 days at a time." in said


def test_a_memory_note_and_code_give_nothing_inferred() -> None:
    note = ("# Storage notes\n\nHow the memory stores its state on one machine, with a single writer.\n\n"
            "- [decision] Use WAL mode for SQLite\n")
    assert not any(line.split(" ", 1)[1].startswith(("Summary", "Decision:")) for line in _said(note))
    code = "# Deploy\n\n```sh\n# we decided to never run this twice; it must not be run at most once\n```\n"
    assert not any("Constraint" in line or "Decision" in line for line in _said(code))


def test_rules_are_capped_per_kind() -> None:
    rules = "\n".join(f"- Rule {n}: the service must never call service number {n} directly." for n in range(40))
    said = _said(f"# Rules of the platform\n\n## Rules\n\n{rules}\n")
    assert sum(" Constraint: " in line for line in said) == MAX_PER_KIND


OWNED_TABLE = """# Analysis: badge readers rejected staff cards after the key change

| Field | Value |
|---|---|
| Owner | Facilities IT |

## What we saw

Readers in two buildings refused every staff card for an hour on Monday morning.

## Decisions and actions

| # | Action | Owner | Due |
|---|---|---|---|
| 1 | Load the new card key on every reader before it is switched on | Facilities IT | done |
| 2 | Add a reader health check to the morning dashboard | Security Operations | 2025-11-14 |

## Visitors

| Name | Role |
|---|---|
| Ana Lopes | Contractor |
| Bruno Diaz | Auditor |
"""


def test_a_table_of_owned_actions_gives_each_row_with_its_owner() -> None:
    said = _said(OWNED_TABLE)
    assert [line for line in said if "Action item" in line] == [
        "15-15 Action item: Load the new card key on every reader before it is switched on (owner: Facilities IT)",
        "16-16 Action item: Add a reader health check to the morning dashboard (owner: Security Operations)",
    ]  # a table with no owner column (who visited) is no list of actions


DEBRIEF = """# Debrief: the night sort stopped

**What happened?** The sorter stopped at 01:52 and sorted nothing for two hours.

**What will we do differently?**
- Back up the speed table after every change, not weekly. (Owner: Hub Engineering)
- Add the halt signal to the control room alarms. (Owner: Night shift leads)
"""


def test_an_item_with_its_owner_in_brackets_is_an_action_whatever_the_case() -> None:
    said = _said(DEBRIEF)
    assert "6-6 Action item: Back up the speed table after every change, not weekly. (Owner: Hub Engineering)" in said
    assert "7-7 Action item: Add the halt signal to the control room alarms. (Owner: Night shift leads)" in said


def test_a_licence_text_states_no_conclusions_of_the_team() -> None:
    """A repository's LICENSE file, ingested with its docs: its "shall mean" definitions and legal
    terms are the licence's, not the team's constraints; a team's page about licences still rules."""
    licence = ("# LICENSE Apache 2.0\n\n                Apache License\n          Version 2.0, January 2004\n\n"
               "   TERMS AND CONDITIONS FOR USE, REPRODUCTION, AND DISTRIBUTION\n\n"
               '   "License" shall mean the terms and conditions for use, reproduction, and distribution.\n\n'
               "   Notwithstanding the above, nothing herein shall supersede or modify the terms of any "
               "separate license agreement you may have executed with Licensor.\n")
    assert _said(licence) == []
    policy = ("# Open-source licence policy\n\nWe reviewed the licences our services ship under.\n\n"
              "Every service must declare its licence in its catalog entry before its first release.\n\n"
              "Code under the GNU General Public License must never be linked into the mobile app.\n")
    assert any("must declare its licence" in said for said in _said(policy))


def test_a_licence_texts_defined_terms_are_no_subjects() -> None:
    text = (CORPUS / "thomvaill-log4brains-adrs" / "LICENSE-Apache-2.0.txt").read_text(encoding="utf-8")
    result = extract_facts(text, SourceRef("a1", "sources/x.md", "raw/x.md", "LICENSE-Apache-2.0.txt"))
    assert result.observations == [] and result.entities == []  # were "Licensor", "Contribution", ...
