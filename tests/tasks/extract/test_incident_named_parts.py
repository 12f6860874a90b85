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


EXPORT = """# INC-231: Ingest stalled after a software update

## Summary

For 19 hours no sequencing output reached the lake.

## Root cause

The launcher's run folder pattern did not accept the new suffix.

## Timeline

**Mon 10 Nov**

- 18:30 — Lab upgrades the sequencer to v1.3 and the launcher is redeployed with a new config
- 20:41 — First run on v1.3 completes; the retry queue starts growing

**Tue 11 Nov**

- **09:12 UTC** - Malini reports in #strata that Monday's runs are missing; incident declared
- 11:20 — Cause found: the run folder pattern rejects the new suffix
- 13:50 — Launcher 2.8.1 deployed with a pattern that accepts the suffix
- 14:10 — Retry queue replayed with the tags added from [SampleTrack](https://example.org)
- 15:47 — Last object ingested; incident resolved

## Follow-ups

- Alert on the retry queue's depth (owner: Kaito)
"""

TABLE_TIMELINE = """# INC-412: Requests not reaching the work order system

## Summary

Requests failed for a day after a client secret expired.

## Root cause

The client secret had a 180-day lifetime that nobody tracked.

## Timeline

| When | What |
|---|---|
| Mon 01:12 | Client secret expires |
| Tue 08:40 | Dispatch supervisor notices no new work orders since Sunday night |
| Tue 09:52 | Public Works IT issues a new client secret |
"""


def test_an_export_without_a_resolution_part_tells_its_repairs_in_its_timeline() -> None:
    resolution = _labelled(_extract(EXPORT), "Resolution")
    assert resolution == {
        "Resolution: Launcher 2.8.1 deployed with a pattern that accepts the suffix": (22, 22),
        "Resolution: Retry queue replayed with the tags added from SampleTrack": (23, 23)}


def test_a_timeline_row_tells_how_it_was_noticed_and_what_ended_it() -> None:
    result = _extract(TABLE_TIMELINE)
    assert _labelled(result, "Detection") == {
        "Detection: Dispatch supervisor notices no new work orders since Sunday night": (16, 16)}
    assert _labelled(result, "Resolution") == {"Resolution: Public Works IT issues a new client secret": (17, 17)}


def test_a_timeline_is_not_read_when_a_resolution_section_states_it() -> None:
    text = EXPORT.replace("## Follow-ups", "## Resolution\n\nWe released a launcher that accepts the suffix.\n\n## Follow-ups")
    resolution = _labelled(_extract(text), "Resolution")
    assert list(resolution) == ["Resolution: We released a launcher that accepts the suffix."]
