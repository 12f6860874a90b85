"""Incident reviews written as plain text or as formal reports (conc64b): a bug tracker's RCA
(its header's "See Also" is any page's field, not a proposal's; "Root cause analysis:" alone on
its line over the paragraphs that tell it), an accident report's "Probable Cause" beside its
"Analysis", and an FAQ answer that states a rule among other sentences."""

from __future__ import annotations

from tasks.extract import Extraction, SourceRef, extract_facts

BUG = """Bug 412 - Ledger: refunds posted twice on 3 March

Status:       RESOLVED FIXED
Product:      Payments
Component:    ledger-refunds
Severity:     major
Assignee:     Ana Ruiz
See Also:     design/ledger-refunds.md
Reported:     2026-03-03 09:12 UTC by Bo Chen

---

Comment 1  Ana Ruiz 2026-03-04 10:02:17 UTC

Root cause analysis:

The refund worker timed out on the bank's API and the queue redelivered the message, so a
second worker posted the same refund.

Nothing checks whether a refund was already posted before it is sent.

---

Comment 2  Ana Ruiz 2026-03-05 08:00:00 UTC

Fixed in ledger 2.4.1.
"""


def _extract(text: str) -> Extraction:
    return extract_facts(text, SourceRef("x", "wiki/sources/x.md", "raw/x.md", "notes.md"))


def _said(text: str) -> list[str]:
    return [fact.text for fact in _extract(text).observations]


def test_a_bug_trackers_rca_is_an_incident_review_and_its_labelled_cause_is_read() -> None:
    result = _extract(BUG)
    assert result.subject is not None and result.subject.ref.entity_type == "incident"
    said = [fact.text for fact in result.observations]
    assert ("Cause: The refund worker timed out on the bank's API and the queue redelivered the message, so a "
            "second worker posted the same refund.") in said, said
    assert "Cause: Nothing checks whether a refund was already posted before it is sent." in said, said
    assert not any(text.startswith("Cause: Comment") or "---" in text for text in said), said


REPORT = """# Incident report: ticket shop unavailable on sale day

## Executive Summary

On Friday, March 6, 2026, tickets for the summer tour went on sale and the shop failed.

## Analysis

The load test assumed arrivals spread over an hour; most buyers came in four minutes.

## Probable Cause

The probable cause was exhaustion of the order database's connections by the seat check.

## Recommendations

- Put a queue page in front of the ticket shop on sale days.
"""


def test_a_section_that_names_the_cause_is_kept_beside_the_analysis() -> None:
    said = _said(REPORT)
    assert ("Cause: The probable cause was exhaustion of the order database's connections by the seat "
            "check.") in said, said
    assert "Cause: The load test assumed arrivals spread over an hour; most buyers came in four minutes." in said


FAQ = """# Fleet operations FAQ

Owner: Fleet Ops.

## How do I add capacity before an event?

Change `bufferSize` on the autoscaler in the config repository and let Argo CD sync it. Do not
edit the fleet's replicas by hand. Capacity shows up within five minutes of the sync.

## How do I roll out a new build?

Bump the image tag in the config repository; the rollout replaces idle servers first.

## How do I drain a node?

Cordon it, then wait for its matches to end.
"""


def test_a_rule_an_faq_answer_states_among_other_sentences_is_kept() -> None:
    said = _said(FAQ)
    assert "Constraint: Do not edit the fleet's replicas by hand." in said, said


WRITE_UP = """# Incident: patch downloads stalled

## What happened

Patch 4.2 went out at 12:00 UTC and downloads stopped at 99 % for many players on PC.

**Cause:** the tail job republished the manifest under the same URL without a cache purge.

**Impact:** for four hours about 38 % of PC players could not finish the patch and could not play.

**Resolution:** we rolled the cache change back and published a new manifest under a new URL.
"""


def test_a_bold_labelled_part_inside_another_part_is_read_and_ends_the_part_before_it() -> None:
    said = _said(WRITE_UP)
    assert "Cause: the tail job republished the manifest under the same URL without a cache purge." in said, said
    # the paragraph after an Impact is no more of the Impact when a bold label names another part
    assert not any(text.startswith("Impact: Resolution:") for text in said), said
    assert not any(text.startswith("Cause: Impact:") for text in said), said
