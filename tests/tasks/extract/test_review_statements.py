"""Every statement of a postmortem's or a runbook's part, each kept with its own lines
(tasks/extract/review_statements.py, cov67b): a part told in several paragraphs or several
sentences is kept whole, sentence by sentence; a subsection goes on with its parent's part; a
sentence whose words tell another part is kept as that part; a summary's byline is no part."""

from __future__ import annotations

from tasks.extract import SourceRef, extract_facts

REVIEW = """# Postmortem: invoice export stalled

_Published 12 May 2026 by the Billing team._

## Summary

On 11 May 2026 the invoice export stopped for three hours and 840 invoices were sent late.

## Root cause

The export job reads a lock row before it starts, so that two pods never send the same invoice
twice to the tax portal. A deploy at 09:02 drained the pod that held the row while it was in the
middle of a batch, and the row stayed held by a pod that no longer existed. Every later run of the
export, one every five minutes, found the row held, waited on the lock for the full ten minutes it
allows and gave up without sending anything. The retry queue filled with the same 840 invoices.
The export dashboard counts runs, not invoices sent, so it stayed green the whole morning.

The lock has no expiry, so nothing released it until someone deleted it by hand.

The deploy pipeline drains pods without waiting for the export job to finish its batch.

Staging runs one pod, so a lock left behind by a drained pod had never been seen there.

See also the export service's architecture page.

## Action items

- Give the export lock an expiry of fifteen minutes (owner: Billing team)
"""

SUBSECTIONS = """# Postmortem: mobile sign-in failures after the 4.2 release

## Summary

On 3 June 2026 sign-in failed for users of the 3.x app for two hours.

## Root cause

The 4.2 release moved token refresh to a new endpoint.

### Why old apps broke

The 3.x apps call the old refresh endpoint with a form body.

The new gateway route accepts only a JSON body and answers 415 to anything else.

Old apps treat any 4xx answer from refresh as a logout and drop the session.

Our contract tests run only against the current app, so no test sent a form body.

## Action items

- Add the 3.x refresh call to the contract tests (owner: Mobile team)
"""


def _said(text: str) -> list[tuple[str, int, int]]:
    found = extract_facts(text, SourceRef("a1", "sources/x.md", "raw/x.md", "x.md")).observations
    return [(fact.text, fact.line_start, fact.line_end) for fact in found]


def test_each_sentence_of_a_cause_told_at_length_is_kept_with_its_lines() -> None:
    said = _said(REVIEW)
    texts = [text for text, _, _ in said]
    # the reader keeps the section's opening; its later sentences are kept one by one
    # a paragraph longer than an observation holds is cut; the sentences after the cut are kept
    assert ("Cause: The export dashboard counts runs, not invoices sent, so it stayed green the whole morning.",
            16, 16) in said, said
    assert any(text.startswith("Cause: The lock has no expiry") for text in texts), texts
    # a pointer to another page is no statement of the part
    assert not any("See also" in text for text in texts), texts
    # an action item stays an action item, never a cause
    assert not any(text.startswith("Cause: Give the export lock") for text in texts), texts


def test_a_summary_byline_is_not_kept() -> None:
    texts = [text for text, _, _ in _said(REVIEW)]
    assert not any("Published 12 May 2026" in text and not text.startswith(("Summary: _Published", "Date"))
                   for text in texts), texts
    assert not any(text.startswith(("Cause: _Published", "Impact: _Published")) for text in texts), texts


def test_a_subsection_goes_on_with_its_parents_part() -> None:
    said = _said(SUBSECTIONS)
    # "Why old apps broke" under "Root cause": each of its statements is a cause, with its line
    assert ("Cause: The 3.x apps call the old refresh endpoint with a form body.", 13, 13) in said, said
    assert ("Cause: The new gateway route accepts only a JSON body and answers 415 to anything else.", 15, 15) in said
    assert ("Cause: Old apps treat any 4xx answer from refresh as a logout and drop the session.", 17, 17) in said
    texts = [text for text, _, _ in said]
    assert len(texts) == len(set(texts)), texts  # none kept twice


STORY = """# Postmortem: ticket scanner outage at the spring fair

## Summary

On 14 April 2026 the gate scanners rejected valid tickets for 50 minutes.

## What happened

Doors opened at 10:00 and about 9,000 visitors arrived in the first hour. The ticket API ran out
of database connections at 10:12, and the scanners showed every ticket as invalid. The gate
staff let visitors in by hand from 10:20. The scanners were working again by 10:50 once the
pool had been raised, and the queue at the gates cleared by 11:05.

## Root cause

The API's connection pool was sized for a weekday load of 400 visitors an hour.

## Action items

- Size the connection pool for the first hour of a fair (owner: Ticketing team)
"""


def test_a_story_sentence_that_tells_what_broke_is_a_cause() -> None:
    texts = [text for text, _, _ in _said(STORY)]
    assert ("Cause: The ticket API ran out of database connections at 10:12, and the scanners showed every "
            "ticket as invalid.") in texts, texts
    # the story's other sentences tell no part by their words: not kept as one
    assert not any(text.startswith("Cause: Doors opened") for text in texts), texts


def test_a_story_sentence_that_tells_the_state_it_came_back_to_is_the_resolution() -> None:
    texts = [text for text, _, _ in _said(STORY)]
    assert ("Resolution: The scanners were working again by 10:50 once the pool had been raised, and the queue "
            "at the gates cleared by 11:05.") in texts, texts


HELD_IN_A_CAUSE = """# Postmortem: duplicate invoices from the billing export

Date: 2026-05-04

## Summary

The billing export sent some invoices twice on 4 May.

## Root cause

The export job lost its checkpoint when the reporting host was rebuilt, and it restarted from
the start of the month. It had no record of what it had sent, so 1,240 invoices were sent twice
to customers.

## Resolution

We restored the checkpoint from the backup and restarted the job.
"""


def test_a_sentence_held_in_another_part_is_kept_as_the_part_its_words_tell() -> None:
    """A cause paragraph's sentence that counts what the incident cost is the Impact too, with
    its own lines; the cause paragraph stays whole."""
    result = extract_facts(HELD_IN_A_CAUSE, SourceRef("x", "wiki/sources/x.md", "raw/x.md", "postmortems/x.md"))
    found = {o.text: (o.line_start, o.line_end) for o in result.observations}
    impact = "Impact: It had no record of what it had sent, so 1,240 invoices were sent twice to customers."
    assert found[impact] == (12, 13)
    assert any(t.startswith("Cause: The export job lost its checkpoint") for t in found)
    # a sentence that tells no other part than its holder's is not kept twice
    assert not any(t.startswith("Cause: It had no record") for t in found)
