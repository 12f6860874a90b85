"""What an incident write-up says of its parts in its own words (concl48): a summary that names
its mitigation and its resolution ("Mitigation was to ...; resolution was to ..."), who noticed it
("Finance spotted the duplicates ..."), an e-mail's "What it cost", and a sentence that says
something is unrelated to the cause (no cause)."""

from __future__ import annotations

from tasks.extract import Extraction, SourceRef, extract_facts
from tasks.extract.incident_prose import named_repair_sentences


def _extract(text: str) -> Extraction:
    return extract_facts(text, SourceRef("x", "wiki/sources/x.md", "raw/x.md", "docs/postmortems/inc-7.md"))


def _labelled(result: Extraction, label: str) -> dict[str, tuple[int, int]]:
    return {o.text: (o.line_start, o.line_end) for o in result.observations if o.text.startswith(f"{label}: ")}


REVIEW = """# INC-7: Search returns nothing after a bulk suppress

**Severity:** Major
**Status:** Closed

## Summary

From 09:58 to 17:52 searches returned only a fraction of their results. A bulk edit set
the suppress flag on a million records. Finance spotted the drop in the morning report.
Mitigation was to stop the harvester and restore the index from the backup; resolution was
to undo the bulk edit and let the harvester catch up.

## Root cause

The harvester applies suppress flags as deletes with no limit on how many.

## Notes

The search redesign is unrelated to the cause but was discussed because it touches the index.
"""


def test_a_summary_that_names_its_mitigation_and_resolution_gives_each() -> None:
    result = _extract(REVIEW)
    assert _labelled(result, "Mitigation") == {
        "Mitigation: Mitigation was to stop the harvester and restore the index from the backup": (10, 11)}
    assert _labelled(result, "Resolution") == {
        "Resolution: resolution was to undo the bulk edit and let the harvester catch up.": (10, 11)}


def test_who_noticed_it_in_the_summary_is_its_detection() -> None:
    assert "Detection: Finance spotted the drop in the morning report." in _labelled(_extract(REVIEW), "Detection")


def test_a_sentence_unrelated_to_the_cause_is_no_cause() -> None:
    causes = _labelled(_extract(REVIEW), "Cause")
    assert any("applies suppress flags as deletes" in text for text in causes)
    assert not any("redesign" in text for text in causes)


def test_a_sentence_that_only_mentions_a_fix_names_no_part() -> None:
    story = [("We will fix the alert routing next week.", 3, 3, 3),
             ("The fix was to raise the limit to 256 kB.", 4, 4, 4)]
    assert named_repair_sentences(story, set()) == [("Resolution", ("The fix was to raise the limit to 256 kB.", 4, 4))]


EMAIL = """From: Ana Silva <ana@example.org>
Subject: What happened with the nightly crawl

Hi all,

Short version: the crawl ran two days late and filled the staging disk.

What happened

The crawl started on Monday and ran into calendar traps, because the profile had no per-host limit.

What it cost

- About 4 million fetched URLs are missing from the collection.
- The selective crawl was delayed by a week.

Ana
"""


def test_an_email_s_what_it_cost_is_the_impact() -> None:
    impact = _labelled(_extract(EMAIL), "Impact")
    assert ("Impact: About 4 million fetched URLs are missing from the collection.; The selective crawl was "
            "delayed by a week.") in impact
    assert "Impact: Ana" not in impact  # the sign-off after the part is no more of it
