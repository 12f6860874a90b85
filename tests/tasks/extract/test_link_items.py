"""Pages named without a markdown link (tasks/extract/link_items.py and the readers that use it,
tasks/extract/genre_links.py): wiki links by title and by file, in prose and in front-matter
lists, a key with its revision after it, a tracker's "#57", a title after "see:"."""

from __future__ import annotations

from tasks.extract import SourceRef, extract_facts
from tasks.extract.link_items import leading_key, see_title_links
from tasks.extract.record_links import BY_TITLE, RELATES_TO, SUPERSEDES
from tasks.extract.structure import scan


def links(text: str, path: str = "kb/ops/page.md") -> set[tuple[str, str, bool, str | None]]:
    result = extract_facts(text, SourceRef("a" * 64, "wiki/sources/x.md", "raw/x.md", path))
    return {(link.text, link.relation_type, link.incoming, link.folder) for link in result.record_links}


RUNBOOK = """# Boiler lockout triage

> ⚠️ **Superseded** by [[Boiler lockout triage in HeatWatch]] on 2 May 2025.

## Alert

A boiler reports a lockout for five minutes.

## Mitigate

1. The new controller replaces [[Legacy HMI]] on site; reset it there.
2. Page the on-call engineer.
"""


def test_a_wiki_link_by_title_is_typed_by_the_verb_right_before_it_said_of_this_page() -> None:
    found = links(RUNBOOK)
    assert ("Boiler lockout triage in HeatWatch", SUPERSEDES, True, BY_TITLE) in found
    # "The new controller replaces [[Legacy HMI]]": said of a controller, not of this page
    assert ("Legacy HMI", RELATES_TO, False, BY_TITLE) in found


FRONT_MATTER_LIST = """---
tags: [runbook]
related:
  - "[[Heat network architecture]]"
  - "[[inc-2025-031-boiler-lockouts|INC-2025-031]]"
---

# Boiler offline

## Alert

No reading from a boiler for ten minutes.

## Mitigate

Restart the gateway's agent.
"""


def test_a_front_matter_list_of_wiki_links_names_pages_by_title_and_by_file() -> None:
    found = links(FRONT_MATTER_LIST)
    assert ("Heat network architecture", RELATES_TO, False, BY_TITLE) in found
    assert ("inc-2025-031-boiler-lockouts", RELATES_TO, False, "*/") in found


def test_an_item_that_opens_with_a_key_names_that_document() -> None:
    for item, key in [("SOP-QA-004 rev C", "SOP-QA-004"), ("INC-2025-031 (boiler lockouts)", "INC-2025-031"),
                      ("CHG-8812", "CHG-8812"), ("ADR-12 — Use Kafka", "ADR-12"), ("RB-07, v2", "RB-07")]:
        match = leading_key(item)
        assert match is not None and match.group() == key, item
    for item in ["INC-14 was caused by a full disk", "TLS-1 settings", "SEV-2", "the SOP-QA-004 sheet"]:
        assert leading_key(item) is None, item


DOCUMENT_CONTROL = """# SOP-QA-011 Boiler lockout triage

| Field | Value |
|---|---|
| Document ID | SOP-QA-011 |
| Revision | A |
| Supersedes | SOP-QA-004 rev C |

## 1. Procedure

1. Acknowledge the page within 5 minutes.
2. Never reset a boiler remotely while a crew is on site.
"""


def test_a_document_control_row_supersedes_the_document_its_key_names() -> None:
    result = extract_facts(DOCUMENT_CONTROL, SourceRef("a" * 64, "wiki/sources/x.md", "raw/x.md",
                                                      "kb/sop-qa-011-boiler-lockout-triage.md"))
    typed = [link for link in result.record_links if link.relation_type == SUPERSEDES]
    assert [(link.text, link.incoming, link.mention, link.number) for link in typed] == [
        ("SOP-QA-004", False, True, 4)]


ISSUE = """# Email lockout alerts to the crews #41

**Closed** · dana opened this issue on Feb 2, 2025 · 2 comments

---

**dana** commented on Feb 2, 2025

Send an email to the crew of the area when a boiler locks out.

---

**lee** commented on Mar 20, 2025

Closing as superseded by #57: the alert goes to the crews' tablets instead.
"""


def test_a_trackers_issue_superseded_by_another_names_it_by_its_number_in_the_same_folder() -> None:
    found = links(ISSUE, "kb/issues/issue-41-email-lockout-alerts.md")
    assert ("#57", SUPERSEDES, True, "kb/issues") in found


def test_a_key_of_two_words_after_a_supersession_verb_is_superseded() -> None:
    text = ("# Boiler lockout triage, revised\n\n## Purpose\n\n"
            "This procedure supersedes SOP-QA-004 rev C from 2 May 2025.\n\n"
            "## Procedure\n\n1. Acknowledge the page.\n2. Call the crew.\n")
    result = extract_facts(text, SourceRef("a" * 64, "wiki/sources/x.md", "raw/x.md", "kb/sop-qa-011.md"))
    typed = {(link.text, link.mention) for link in result.record_links if link.relation_type == SUPERSEDES}
    assert typed == {("SOP-QA-004", True)}


def test_a_title_after_see_colon_names_that_page() -> None:
    text = ("# Heat network\n\nFor how the gateway polls the boilers see: Boiler gateway architecture\n\n"
            "See: https://example.org/x\n\nLogs: see: Grafana\n\n## See: Boiler gateway\n")
    structure = scan(text.splitlines(), 1)
    assert [(link.text, link.folder) for link in see_title_links(structure)] == [
        ("Boiler gateway architecture", BY_TITLE)]


PAGE = "# Disk full\n\n## Alert\n\nDisk above 90 %.\n\n## Mitigate\n\nDelete old logs.\n\n## History\n\n"


def test_a_supersession_verb_types_every_id_of_its_list_and_a_quoted_title() -> None:
    found = links(PAGE + "This runbook replaces RB-3 and RB-5.\n")
    assert {("RB-3", SUPERSEDES, False), ("RB-5", SUPERSEDES, False)} <= {f[:3] for f in found}
    found = links(PAGE + 'This runbook is superseded by "Disk pressure triage".\n')
    assert ("Disk pressure triage", SUPERSEDES, True, BY_TITLE) in found
    # a tracker's issue link, its verb ending with a colon
    found = links(PAGE + "is superseded by: OPS-57\n")
    assert ("OPS-57", SUPERSEDES, True) in {f[:3] for f in found}


def test_a_notice_label_before_the_verb_keeps_it_said_of_this_page() -> None:
    found = links(PAGE + "> **Deprecated**: moved to [[Disk pressure triage]].\n")
    assert ("Disk pressure triage", SUPERSEDES, True, BY_TITLE) in found


def test_any_related_field_lists_related_pages() -> None:
    found = links("---\nrelated-adrs: [ADR-3, ADR-5]\nfollow-up-of: CHG-8812\n---\n" + PAGE)
    assert {("ADR-3", RELATES_TO), ("ADR-5", RELATES_TO), ("CHG-8812", RELATES_TO)} <= {f[:2] for f in found}


def test_a_built_sites_page_is_the_page_of_its_stem_and_a_breadcrumb_states_no_link() -> None:
    result = extract_facts("# Disk full\n\nParent: [Runbooks](../index.md)\n\n" + PAGE[12:]
                           + "See [the pressure runbook](../ops/disk-pressure.html).\n",
                           SourceRef("a" * 64, "wiki/sources/x.md", "raw/x.md", "kb/ops/page.md"))
    assert {(link.stem, link.folder) for link in result.record_links} == {("disk-pressure", "kb/ops")}


def test_a_tracker_number_in_a_title_is_the_pages_own_and_one_in_prose_cites_it() -> None:
    from tasks.extract.link_items import cited_numbers, hash_key, title_hash

    assert [title_hash(t) for t in ["Feature #2291", "Bug #12: crash", "Leak alerts as push #57",
                                    "Fare API postmortem (incident #2207)", "Fix #12 regression", "C# guide"]] == [
        "#2291", "#12", "#57", "#2207", None, None]
    text = "Specify 7 (Redmine #2291), per #214; &#8212; page.md#12, v#12, #12.5, #1 and a bare #1234."
    assert [cited for _, cited, _ in cited_numbers(text)] == ["#2291", "#214"]
    assert hash_key("#2291") == ("#", 2291) and hash_key("Redmine #2291") is None
    found = links(PAGE + "The cut-over waits for Redmine #2291.\n")
    assert ("#2291", RELATES_TO, False) in {f[:3] for f in found}


def test_a_page_a_dependencies_section_names_is_depended_on_and_still_cited() -> None:
    text = ("# SBEP 9: Generalise localities\n\n## Summary\n\nOne service generalises every locality.\n\n"
            "## Motivation\n\nExact localities leaked.\n\n## Non-Goals\n\nHiding taxa.\n\n"
            "## Dependencies\n\nThe cut-over ([Redmine #2291](../decisions/redmine-2291-specify.md)).\n")
    found = {(text, kind) for text, kind, _, _ in links(text, "kb/design/sbep-9.md")}
    assert {("Redmine #2291", "depends_on"), ("Redmine #2291", RELATES_TO)} <= found


def test_an_items_kind_and_number_or_a_lower_case_key_cite_the_page_stating_that_id() -> None:
    from tasks.extract.link_items import cited_numbers

    text = "Shortcut epic 311 and bug 2231 (internal ref sc-4127); utf-8, step-2 and covid-19 are none."
    assert [(cited, number) for _, cited, number in sorted(cited_numbers(text))] == [
        ("epic 311", 311), ("bug 2231", 2231), ("sc-4127", 4127)]
    found = links(PAGE + "The swap waits for Shortcut epic 311 (ref sc-4127).\n")
    assert {("epic 311", RELATES_TO), ("sc-4127", RELATES_TO)} <= {f[:2] for f in found}
