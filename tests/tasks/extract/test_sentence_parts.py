"""The part a sentence tells by its own words, whatever section holds it (conc64b):
how an incident was noticed, said under "What went wrong" or in the story; a runbook step's
check and hand-over; what a runbook's alert costs the people the service serves."""

from __future__ import annotations

from tasks.extract import SourceRef, extract_facts
from tasks.extract.model import ObservationFact
from tasks.extract.sentence_parts import rejections_told, step_part, tells_detection, tells_loss

REVIEW = """# Postmortem: parcel labels printed blank

## Summary

On 4 May 2026 between 09:10 and 11:40 UTC the label service printed blank labels for 3,200
parcels after a font package was removed from its image.

## What went wrong

- Nobody was paged for two hours; the first signal was a depot manager's phone call.
- The image build dropped the font package without a warning.

## What happened

A courier at the Leeds depot emailed the support desk to say every label was blank. We rolled
the image back at 11:30.

## Action items

- Alert when no label has been printed for 10 minutes (owner: Label team)
"""


def _said(text: str) -> list[str]:
    return [fact.text for fact in extract_facts(text, SourceRef("a1", "sources/x.md", "raw/x.md", "x.md")).observations]


def test_a_sentence_that_tells_how_it_was_noticed_is_a_detection_in_any_part() -> None:
    said = _said(REVIEW)
    assert "Detection: Nobody was paged for two hours; the first signal was a depot manager's phone call." in said, said
    assert ("Detection: A courier at the Leeds depot emailed the support desk to say every label was "
            "blank.") in said, said
    # an action item that promises an alert tells what will be built, not how it was noticed
    assert not any(text.startswith("Detection: Alert when") for text in said), said


def test_detection_cues() -> None:
    assert tells_detection("We learned about the outage from a customer tweet.")
    assert tells_detection("There was no alert on the queue's depth.")
    assert tells_detection("The night shift noticed at 02:10 that the board was empty.")
    assert tells_detection("Eight batches failed before anyone raised an incident.")
    assert not tells_detection("We added an alert on the queue's depth.")
    assert not tells_detection("The first batch of the day failed at 06:00.")


def test_a_step_sentence_that_checks_or_hands_over_is_its_part() -> None:
    assert step_part("Check the consumer lag before restarting anything.") == "Diagnosis"
    assert step_part("If the lag keeps growing, the consumer is failing on one message.") == "Diagnosis"
    assert step_part("If it still fails, hand over to the Storage team.") == "Escalation"
    assert step_part("Restart the consumer pod.") is None


def test_a_loss_to_the_people_served_is_an_impact() -> None:
    assert tells_loss("Analysts will not see new runs in the warehouse until it recovers.")
    assert tells_loss("Carriers then receive manifests late or not at all.")
    assert not tells_loss("The consumer group lags behind the topic.")


RUNBOOK = """# Runbook: PrintQueueStalled

## Meaning

The print queue has not taken a job for 15 minutes. Depot staff cannot print parcel labels
until it recovers.

## Mitigation

1. Check the spooler's queue depth on the Print dashboard.
2. Restart the spooler: `systemctl restart spoold`.
3. If jobs still do not leave the queue, hand over to the Workplace IT team.

## Escalation

Page the Print on-call lead if the queue is stalled for more than an hour.
"""


def test_a_runbooks_step_and_meaning_sentences_are_read_by_what_they_tell() -> None:
    said = _said(RUNBOOK)
    assert "Mitigation: Check the spooler's queue depth on the Print dashboard." in said, said
    assert "Diagnosis: Check the spooler's queue depth on the Print dashboard." in said, said
    assert ("Escalation: If jobs still do not leave the queue, hand over to the Workplace IT team."
            in said), said
    assert "Impact: Depot staff cannot print parcel labels until it recovers." in said, said
    assert not any(text.startswith("Diagnosis: Restart") for text in said), said


SUMMARY = """# Postmortem: invoice emails sent twice

## Summary

On 2 June 2026 between 08:00 and 09:10 UTC about 4,100 customers received their invoice email
twice. A config change halved the mailer's send timeout, so every slow send was retried. The
billing API timed out after a certificate rotation on the mail relay. The new queue client made
every consumer retry on its own. This is about the mailer, so it is ours to write up.

## Root cause

The mailer does not record a send before it retries.
"""


def test_a_summary_sentence_that_explains_is_a_cause_beside_the_summary() -> None:
    said = _said(SUMMARY)
    causes = [text for text in said if text.startswith("Cause: ")]
    assert "Cause: A config change halved the mailer's send timeout, so every slow send was retried." in causes, said
    assert "Cause: The billing API timed out after a certificate rotation on the mail relay." in causes, said
    assert "Cause: The new queue client made every consumer retry on its own." in causes, said
    # what the write-up is, and what the outage did, are no causes
    assert not any("ours to write up" in text for text in causes), causes


def test_a_summary_so_after_the_outage_itself_tells_what_it_did_not_why() -> None:
    text = SUMMARY.replace("A config change halved the mailer's send timeout, so every slow send was retried.",
                           "The mailer was down for an hour, so invoices waited.")
    causes = [said for said in _said(text) if said.startswith("Cause: ")]
    assert not any("invoices waited" in said for said in causes), causes


def test_a_compound_that_says_what_a_thing_is_like_describes_it() -> None:
    from tasks.extract.subject_terms import describing
    assert describing("Catalyst-style") and describing("Redis-like")
    assert not describing("Catalyst") and not describing("read-only")


STORY = """# Postmortem: tram tickets charged twice

## Summary

Ticket sales in the app failed for part of the morning.

## What happened

At 07:31 the payments database failed over to its replica. The sales service retried every
unanswered charge, and 2,317 riders were charged twice for the same ticket. The team rolled the
service back at 08:40 and refunded the 2,317 second charges by noon.

## Action items

- Make the charge idempotent per order (owner: Payments team)
"""


def test_a_story_sentence_that_counts_what_it_cost_is_an_impact() -> None:
    said = _said(STORY)
    assert ("Impact: The sales service retried every unanswered charge, and 2,317 riders were charged twice "
            "for the same ticket.") in said, said
    # what the responders did counts no cost
    impacts = [text for text in said if text.startswith("Impact: ")]
    assert not any("refunded" in text for text in impacts), impacts


def test_cost_cues() -> None:
    from tasks.extract.sentence_parts import tells_cost
    assert tells_cost("The cost is estimated at EUR 38,000 in lost revenue.")
    assert tells_cost("For three hours nobody could log in to the portal.")
    assert not tells_cost("MediaLive failed over to pipeline 1, as designed.")
    assert not tells_cost("On 2025-04-10 the team merged a change to the node group.")


def test_what_the_responders_did_is_a_resolution_or_a_mitigation() -> None:
    from tasks.extract.sentence_parts import response_part
    assert response_part("We took the dataset offline at 16:24, 14 minutes after her email.") == "Mitigation"
    assert response_part("We republished the key split into two strings.") == "Resolution"
    assert response_part("At 17:26 Tobias Berg moved all traffic to the second CDN.") == "Resolution"
    assert response_part("The team paused the connector and replayed the missing orders.") == "Resolution"
    # what happened, who noticed, and what was decided are no acts of the response
    assert response_part("The incident was declared at 15:02.") is None
    assert response_part("At 16:10 a resident emailed the inbox to say her name was public.") is None
    assert response_part("We noticed the backlog at 09:40.") is None
    assert response_part("We decided to keep the old key.") is None


def test_a_story_sentence_of_the_response_is_kept() -> None:
    text = STORY.replace("The team rolled the\nservice back at 08:40 and refunded the 2,317 second charges by noon.",
                         "We switched sales\nto the backup processor at 08:40.")
    said = _said(text)
    assert "Resolution: We switched sales to the backup processor at 08:40." in said, said


CHANGES = """# What happened to sign-in on 14 May

On 14 May between 07:10 and 08:05 sign-in to the booking app failed for every customer after a
key rotation. Lesson for all of us: a key rotation must keep the old key until every token has
expired.

## What we are changing

First, the custom key cache in the booking service is gone.

Second, the realm module keeps the previous key as a passive key.

Finally, the sign-in alert pages on a drop in successful sign-ins.
"""


def test_changes_counted_off_in_prose_are_action_items_and_a_named_lesson_a_lesson() -> None:
    said = _said(CHANGES)
    actions = [text for text in said if text.startswith("Action item: ")]
    assert actions == ["Action item: First, the custom key cache in the booking service is gone.",
                       "Action item: Second, the realm module keeps the previous key as a passive key.",
                       "Action item: Finally, the sign-in alert pages on a drop in successful sign-ins."], said
    assert ("Lesson: Lesson for all of us: a key rotation must keep the old key until every token has "
            "expired.") in said, said


def test_prose_that_counts_nothing_off_gives_no_action_items() -> None:
    text = CHANGES.replace("First, the", "The").replace("Second, the", "The").replace("Finally, the", "The")
    assert not any(said.startswith("Action item: ") for said in _said(text))


REJECTING_RATIONALE = """# ADR-9: Keep build logs in object storage

Status: Accepted

## Context

Build logs fill the CI server's disk every few weeks.

## Decision

We will write build logs to the object store and keep them for 90 days.

## Rationale

We looked at a log service and rejected it because it charges per gigabyte ingested.
The object store is already run by the platform team.
"""


def test_a_reason_that_turns_an_option_down_is_kept_as_the_rejected_option() -> None:
    result = extract_facts(REJECTING_RATIONALE, SourceRef("x", "wiki/sources/x.md", "raw/x.md", "docs/adr-9.md"))
    texts = [o.text for o in result.observations]
    assert any(t.startswith("Rejected: We looked at a log service and rejected it") for t in texts)
    assert not any(t.startswith("Rationale: We looked at a log service") for t in texts)
    assert "Rationale: Build logs fill the CI server's disk every few weeks." in texts  # no option turned down


def test_rejections_told_keeps_lines_and_other_labels() -> None:
    facts = [ObservationFact("Rationale: Kafka was ruled out: nobody here runs it.", 4, 5, "detail"),
             ObservationFact("Rationale: The queue is already run by the platform team.", 6, 6, "detail"),
             ObservationFact("Decision: Rejected events go to a dead-letter queue.", 8, 8, "conclusion")]
    told = rejections_told(facts)
    assert told[0] == ObservationFact("Rejected: Kafka was ruled out: nobody here runs it.", 4, 5, "detail")
    assert told[1:] == facts[1:]  # no option turned down; another part's label is its own
    # a reason beside the options a reader read apart (a Rejected of its lines) stays the reason
    beside = [facts[0], ObservationFact("Rejected: Kafka, nobody here runs it", 5, 5, "detail")]
    assert rejections_told(beside) == beside
