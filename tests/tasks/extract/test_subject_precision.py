"""Subject precision (issue 23 item 6; prec34): a common word capitalised only where a sentence,
a heading or a table cell opens, a town, a public body, the team's own organisation, and people
named by one word are no subjects; product names that are rarer words still are."""

from __future__ import annotations

from pathlib import Path

from tasks.extract import SourceRef, extract_facts
from tasks.extract.common_capitals import capital_only
from tasks.extract.ordinary_words import common_word
from tasks.extract.organisations import organisation_names

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "distill"

POSTMORTEM = """# Postmortem: results service outage at Westfield General Hospital

**Date:** 2025-03-02
**Status:** Complete

## Summary

On 2 March 2025 the results service stopped answering for 50 minutes. Observation records
from the wards of Westfield General Hospital queued in Kestrel, our message relay, and NHS
trusts that read them through the results service saw timeouts. Access to the ward
dashboards was lost too. Encounter summaries were delayed.

## Impact

| Area | Effect |
|---|---|
| Access | Clinicians could not open the dashboards; access came back at 10:50 |
| Observation | Observation records arrived up to 50 minutes late |
| Infrastructure | No infrastructure was lost |

Infrastructure on call paged Lucía Ferreira, who restarted Kestrel.

## Root Cause

The results service exhausted its database connections after a deploy: each Encounter
lookup opened a new one against PostgreSQL. Observation writes then queued in Kestrel.
An Encounter backlog in Westfield built up while the pool was empty.

## Resolution

Lucía Ferreira rolled the results service back and drained Kestrel. Ferreira then raised
the pool size.

## Action items

| Task | Owner |
|---|---|
| Cap connections per pod of the results service | Lucía Ferreira |
| Alert on Kestrel queue depth | Tom Hale |

Contact: oncall@stmarks-health.example
"""


def _subjects(text: str) -> dict[str, str]:
    result = extract_facts(text, SourceRef("a1", "sources/a1.md", "doc.md", "postmortems/pm.md"))
    return {fact.target.display: fact.target.entity_type for fact in result.relations
            if fact.relation_type in {"about", "affected", "caused_by", "mitigated_by"}}


def test_common_words_capitalised_where_sentences_and_cells_open_are_no_subjects() -> None:
    subjects = _subjects(POSTMORTEM)
    assert "Kestrel" in subjects and "results service" in subjects and "PostgreSQL" in subjects
    assert not {"Access", "Observation", "Encounter", "Infrastructure"} & subjects.keys(), subjects


def test_towns_public_bodies_and_people_are_no_technologies() -> None:
    subjects = _subjects(POSTMORTEM)
    assert not {"Westfield", "NHS", "Ferreira"} & subjects.keys(), subjects
    assert subjects.get("Lucía Ferreira") == "person"  # the person who rolled back, never a technology
    assert "Westfield General Hospital" not in subjects


def test_common_word_measure() -> None:
    assert all(common_word(w) for w in ["Access", "Observation", "payments", "Ready"])
    assert not any(common_word(w) for w in ["Kestrel", "Hydra", "Conveyor", "Unleash", "kubectl", "v2"])


def test_a_capitalised_common_word_is_a_name_on_more_than_its_capital() -> None:
    assert capital_only("Access", "Access to the dashboards was lost. We restored access.\n| Access | x |")
    assert not capital_only("Task", "Each `Task` runs in a pod. A Task has steps.")  # a code span
    # written inside sentences as a noun of its own, more often than in lower case
    assert not capital_only("Task", "The build has a Task that runs. Each run holds a Task in order; the task ends.")
    assert capital_only("Encounter", "Each Encounter lookup failed. An Encounter backlog grew.")  # a modifier
    assert capital_only("Payment", 'They saw "Payment failed". The Payments API and the payments queue.')
    assert not capital_only("Kestrel", "Kestrel queued the records.")  # no common word
    assert not capital_only("Route", "Upgrade to Route 2 first.")  # a version follows it


def test_organisations_from_hosts_mail_and_institutions() -> None:
    names = organisation_names(
        "# 41 minutes without api.orchardline.com\nMail mei@orchardline.example. See "
        "[docs](https://docs.adyen.com/x). Patients of Westfield General Hospital and NHS trusts; Kent County.")
    assert {"orchardline", "westfield", "nhs", "kent"} <= names
    assert "adyen" not in names  # a link's target: a vendor's documentation
    assert "ashvale" in organisation_names("the hospital systems of Ashvale Health Group")


def test_hosts_are_read_on_the_lines_that_may_hold_one_as_in_the_whole_text() -> None:
    # organisation_names searches only the lines with an "@" or a dot before a top-level label:
    # the same names as both host patterns over the whole text, a host at a line's edge included
    from tasks.extract import organisations

    text = ("Intro line without hosts.\nRUNBOOKS.ORCHARDLINE.INTERNAL lists it\n"
            "plain words.\nping  ops@tollbridge.co\nstatus.harbourline.io\n(no host here)\n"
            "alerts go to noreply@gmail.com.\nlast line: relay.kestrel-ops.lan")
    whole = {(m.group(1) or m.group(2)).lower() for m in organisations._OWN_HOST_RE.finditer(text)}
    whole -= organisations._MAIL_HOSTS
    whole |= {m.group(1).lower() for m in organisations._BARE_HOST_RE.finditer(text)}
    assert whole == {"orchardline", "tollbridge", "harbourline", "kestrel-ops"}
    assert organisation_names(text) == frozenset(whole)


MINUTES = """# T-Lang meeting (2020-02-27)

## Attendees

- Niko, Felix, Josh

## Action items

- Niko to reach out to Aaron Hill about never type fallback
- ~~Felix to comment on the inline asm RFC~~

## Notes

> @Alan has proposed to merge this.
>
> | Team member | State |
> | --- | --- |
> | @Alan | **merge** |
> | @Grace | |

Niko and Felix discussed the RFC. Alan and Grace will review. Niko asked Alan about Grace's
concerns; Felix said the RFC reads well. Aaron Hill wrote the prototype.
"""


def test_people_named_by_one_word_or_a_handle_are_no_technologies() -> None:
    result = extract_facts(MINUTES, SourceRef("a1", "sources/a1.md", "doc.md", "minutes/2020-02-27.md"))
    made = {fact.target.display for fact in result.relations if fact.target.entity_type != "person"}
    assert not {"Niko", "Felix", "Alan", "Grace", "Aaron Hill"} & made, made


def test_the_institution_pattern_matches_as_written_with_its_boundary_first() -> None:
    import re

    from tasks.extract import organisations

    plain = re.compile(r"(?<![\w-])([A-Z][A-Za-z]+)\s+(?:" + organisations._INSTITUTIONS + r"|(?<=[A-Z]{2}\s)(?:"
                       + organisations._INSTITUTIONS.lower() + r"))\b")
    text = ("Kent County. xKent County, -Leeds Council, _York City; NHS trusts and ICB boards;\n"
            "Westfield General Hospital\nAshvale Health Group, Ashvale Healthcare Holdings")
    found = [m.span(1) for m in organisations._INSTITUTION_RE.finditer(text)]
    assert found == [m.span(1) for m in plain.finditer(text)]
    assert len(found) >= 4


def test_a_name_is_written_as_a_name_as_the_boundary_first_searches_say() -> None:
    # _written_as_name's searches open with the word (for speed): the same answers as the
    # searches written with the boundary first, at the page's edges and after a word or a dash
    import re

    from tasks.extract.common_capitals import _without_code, _written_as_name
    from tasks.extract.text import STOPWORDS

    def plain(name: str, text: str) -> bool:
        stem = name[:-1] if name.endswith("s") and len(name) > 3 else name
        forms = rf"(?:{re.escape(stem)}(?:e?s)?)"
        if re.search(rf"`{forms}`|\[{forms}\]\(|(?<![\w-]){forms} v?\d", text):
            return True
        inside = sum(1 for m in re.finditer(rf"(?<=[a-z0-9] ){forms}(?![\w-])( [A-Za-z]+)?", text)
                     if m.group(1) is None or m.group(1)[1:] in STOPWORDS)
        return inside >= 2 and inside >= len(re.findall(rf"(?<![\w-]){forms.lower()}(?![\w-])", _without_code(text)))

    texts = ["Atlas 2 ships", "xAtlas 2", "-Atlas v3", "a Task has steps and the Task. ends; 2 Tasks",
             "a Task has steps, the task and the tasks and `task`", "the Tasks api, each Task lookup, 1 Task",
             "Reef", "Reef 18.2", "the Reef and a Reef, reef-side, xreef"]
    answers = [_written_as_name(name, text) for text in texts for name in ("Atlas", "Task", "Tasks", "Reef")]
    assert answers == [plain(name, text) for text in texts for name in ("Atlas", "Task", "Tasks", "Reef")]
    assert answers.count(True) >= 5


def test_a_page_titled_by_a_name_cut_at_of_is_not_about_its_first_word() -> None:
    page = """# Code of Conduct

We expect contributors to follow the Python Software Foundation's Code of Conduct.

This Code of Conduct will help steer your interactions. Report Code of Conduct violations
to the maintainers; Python stays a welcoming community.
"""
    result = extract_facts(page, SourceRef("a1", "sources/a1.md", "doc.md", "docs/code_of_conduct.md"))
    assert "Code" not in {fact.ref.display for fact in result.entities}


WRITEUP = """# Postmortem: OCR backlog

## Summary

Paperweight sends every page to Amazon Textract for OCR. We hit the Textract request quota
on Monday and the Paperweight queue grew for six hours.

## Impact

Claims waited for their documents. Medical documents never go to Textract and were OCRed
in our own account as usual.

## Resolution

Textract raised the quota; Paperweight drained the queue by 14:00.
"""


def test_a_product_with_what_it_is_used_for_and_an_acronym_as_a_verb_are_no_subjects() -> None:
    subjects = _subjects(WRITEUP)
    assert "Amazon Textract for OCR" not in subjects and "OCRed" not in subjects
    assert "Textract" in subjects and "Paperweight" in subjects


RUNBOOK = """# Runbook: validators offline

## Meaning

Tapline validators at a depot stopped uploading taps to FareEngine.

## Mitigation

Restart the depot router. If validators of more than one depot are offline, page the Fare
Systems team on-call through PagerDuty; the Fare Systems team owns FareEngine.

## Escalation

Fare Systems team, then the Developer Experience team; Developer Experience runs PagerDuty.
"""


def test_a_team_name_written_only_before_its_team_word_is_the_team_not_a_thing() -> None:
    subjects = _subjects(RUNBOOK)
    assert "Fare Systems" not in subjects and subjects.get("Fare Systems team") == "team"


def test_an_alert_runbook_is_not_about_its_own_name_written_in_camel_case() -> None:
    page = """---
title: Fare Engine Cap Lag
---

# FareEngineCapLag

## Meaning

This alert fires when the cap calculator of FareEngine is more than 15 minutes behind.

## Mitigation

Restart the FareEngine cap worker; if FareEngine stays behind, page the on-call.
"""
    result = extract_facts(page, SourceRef("a1", "sources/a1.md", "doc.md", "runbooks/FareEngineCapLag.md"))
    subjects = {fact.target.display for fact in result.relations if fact.relation_type == "about"}
    assert "FareEngineCapLag" not in subjects and "FareEngine" in subjects


def test_a_system_named_only_before_what_is_set_of_it_is_no_subject() -> None:
    writeup = """# Postmortem: CityPay double charges

## Summary

CityPay charged 212 card payments twice on 20 January when Stripe answered slowly.

## Root Cause

CityPay retried PaymentIntent creation after 5 seconds while Stripe was still answering.

## Action items

| Action | Owner |
|---|---|
| Raise the Stripe client timeout to 20 seconds | Dev Anand |
"""
    subjects = _subjects(writeup)
    assert "Stripe client" not in subjects and "Stripe" in subjects


def test_a_kind_of_network_is_no_subject() -> None:
    """heldout29's spec and COE: "the WAN link to the station", "a WAN maintenance window"."""
    page = ("# Postmortem: stale timetable packs on Platformline\n\n## Summary\n\nThe 02:30 push of "
            "Almanac packs failed during a WAN maintenance window, and Platformline\nkept the old "
            "pack. Platformline controllers reach Almanac over the WAN; the WAN\nwas down for 20 minutes.\n\n"
            "## Root cause\n\nThe WAN window and Almanac's fire-and-forget push of packs to Platformline.\n")
    subjects = _subjects(page)
    assert "WAN" not in subjects
    assert "Almanac" in subjects



def test_a_breadcrumb_step_and_a_piece_of_a_name_joined_by_ampersand_are_no_subjects() -> None:
    """heldout29's TOGAF view: "*Architecture Repository › Application Architecture › Views*"
    says where the page sits; its improvement proposal's "the Passenger & Train Systems version
    of ..." names one team, not "Train Systems"."""
    page = ("# Application view: passenger information\n\n*Architecture Repository › Application Architecture › "
            "Views · Version 2.1*\n\n## Application components\n\n| Component | Purpose | Owner |\n|---|---|---|\n"
            "| Almanac | Publishes the timetable feed | Station Systems |\n"
            "| Beacon | Publishes train positions | Station Systems |\n\n"
            "## Principles\n\nAlmanac must never push a pack to Beacon during the day.\n")
    subjects = _subjects(page)
    assert "Application Architecture" not in subjects
    assert {"Almanac", "Beacon", "Station Systems"} <= set(subjects)
    proposal = FIXTURES / "heldout29" / "design" / "WIP-7-crewlink-roster-events.md"
    subjects = _subjects(proposal.read_text(encoding="utf-8"))
    assert "Train Systems" not in subjects and "CrewLink" in subjects
