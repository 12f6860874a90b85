"""Coined capitals (tasks/extract/subject_coined.py): a word with a capital inside it after
lower-case letters is a name wherever it stands, the first word of a sentence or a list item too."""

from __future__ import annotations

from tasks.extract import SourceRef, extract_facts
from tasks.extract.candidates import CandidateHits
from tasks.extract.subject_coined import coined_capitals


def test_two_capitals_in_a_short_word_are_no_coined_name() -> None:
    assert coined_capitals("SchedMD") and coined_capitals("CloudNativePG") and coined_capitals("RotaWing")
    assert not any(coined_capitals(word) for word in ("OfS", "PhD", "McCallum", "DevOps", "Grafana", "iOS"))


def test_a_coined_name_opening_sentences_is_a_phrase_hit() -> None:
    hits = CandidateHits()
    hits.add_phrases(3, "", "The change was saved late. TillPoint published it at once.")
    hits.add_phrases(4, "", "2. TillPoint's queue sorts by local time.")
    hits.add_phrases(5, "", "Update the schedule. Nothing else changed.")
    assert [n for n, _ in hits.phrases["TillPoint"]] == [3, 4]
    assert "Update" not in hits.phrases and "Nothing" not in hits.phrases  # ordinary words opening sentences


def test_a_coined_word_opening_a_grammar_rule_or_a_link_is_no_hit() -> None:
    hits = CandidateHits()
    hits.add_phrases(7, "RetryStmt  = \"retry\" Block .", "RetryStmt  = \"retry\" Block .")  # a grammar's rule
    hits.add_phrases(8, "[DiskScaling](disk-scaling.md) page", "DiskScaling page")  # another page's title
    hits.add_phrases(9, "PagerFox", "PagerFox")  # a word alone: no sentence about it
    hits.add_phrases(10, "[TillPoint sign-in outage](outage.md).", "TillPoint sign-in outage.")  # a title's words
    assert not {"RetryStmt", "DiskScaling", "PagerFox", "TillPoint"} & hits.phrases.keys()


# A postmortem whose system is named only where sentences and list items open.
POSTMORTEM = """# Postmortem: shift swaps lost after the clock change

## Summary

On 26 October 2025 shift swaps saved during the clock change were lost. TillPoint, the
store's shift planner, stored them under the wrong hour.

## Root cause

TillPoint sorts pending swaps by local time. The repeated hour made two swaps share a key
and the second overwrote the first.

## Resolution

1. TillPoint's swap queue now sorts by UTC.
2. Store managers re-entered the 14 lost swaps by hand.
"""


def test_a_coined_name_written_only_where_sentences_open_is_a_subject() -> None:
    result = extract_facts(POSTMORTEM, SourceRef("a1", "sources/a1.md", "doc.md", "doc.md"))
    related = {fact.target.display for fact in result.relations if fact.relation_type != "mentions"}
    assert "TillPoint" in related
    assert not {"Store", "Store managers", "Resolution"} & related


def test_a_coined_name_ends_in_an_act_only_after_a_verb_stem() -> None:
    from tasks.extract.subject_coined import ends_in_an_act

    assert ends_in_an_act("VerticalScaling") and ends_in_an_act("GangScheduling")
    assert not any(ends_in_an_act(name) for name in ("RotaWing", "ConfigString", "OpsDeck", "PayRing"))


RUNBOOK = """# Runbook: duty swaps not published

## Symptom

Crew see yesterday's duties in the app.

## Diagnosis

DutyWing publishes every roster change to the crew app. DutyWing's publish queue holds
the changes when the app's endpoint refuses them. See the
[VerticalScaling](vertical-scaling.md) page for the queue's limits.

## Mitigation

Restart the publisher of DutyWing from its admin page.
"""


def test_a_coined_name_ending_in_a_noun_with_ing_is_a_subject() -> None:
    result = extract_facts(RUNBOOK, SourceRef("a1", "sources/a1.md", "doc.md", "doc.md"))
    related = {fact.target.display for fact in result.relations if fact.relation_type != "mentions"}
    assert "DutyWing" in related  # not "what is done" as "Handling" is
    assert "VerticalScaling" not in related  # another page's title, and an act
