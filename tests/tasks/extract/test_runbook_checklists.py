"""A runbook told as one numbered checklist under its title, with no part headings (issue 23
item 3: the runbook's alert -> mitigation): its "Use when:" field is the alert, each step's first
sentence a mitigation, and a step's sentence that says what a reading means, whom to call or
what should follow is a diagnosis, an escalation or an outcome."""

from __future__ import annotations

from tasks.extract import Extraction, SourceRef, extract_facts
from tasks.extract.runbook_checklist import part_of


def _extract(text: str) -> Extraction:
    return extract_facts(text, SourceRef("x", "wiki/sources/x.md", "raw/x.md", "notes.md"))


def _labelled(result: Extraction, label: str) -> list[tuple[str, int]]:
    return [(o.text, o.line_start) for o in result.observations if o.text.startswith(f"{label}: ")]


CHECKLIST = """# Checklist: mail queue backlog

**Use when:** the `MailQueueDepth` alert fires (more than 5,000 messages queued for 15 minutes).
**Owner:** Mail on-call.

1. Check the relay's queue length.

   ```
   $ postqueue -p | tail -1
   ```
   Expected output:
   ```
   -- 120 Kbytes in 14 Requests.
   ```
   If the count is over 5,000, go to step 2. Otherwise close the alert.

2. Flush the deferred queue.

   Expected output: `flushed`. A count that does not fall means the next hop refuses mail.

3. Wait ten minutes. It should fall by half in that time.

4. If senders complain, ask Customer Support to post a notice on the status page.

5. Escalate to the mail on-call lead if the queue still grows.

Related: [mail relay overview](../architecture/mail.md)
"""


def test_the_use_when_field_is_the_alert_and_each_step_a_mitigation() -> None:
    result = _extract(CHECKLIST)
    assert _labelled(result, "Alert") == [
        ("Alert: the `MailQueueDepth` alert fires (more than 5,000 messages queued for 15 minutes).", 3)]
    assert _labelled(result, "Mitigation") == [
        ("Mitigation: Check the relay's queue length.", 6),
        ("Mitigation: Flush the deferred queue.", 17),
        ("Mitigation: Wait ten minutes.", 21)]


def test_a_steps_sentences_tell_its_diagnosis_escalation_and_outcome() -> None:
    result = _extract(CHECKLIST)
    # (a step that opens with a check is a diagnosis beside the mitigation it is: conc64b)
    assert _labelled(result, "Diagnosis") == [
        ("Diagnosis: If the count is over 5,000, go to step 2.", 15),
        ("Diagnosis: A count that does not fall means the next hop refuses mail.", 19),
        ("Diagnosis: Check the relay's queue length.", 6)]
    assert _labelled(result, "Outcome") == [("Outcome: It should fall by half in that time.", 21)]
    assert _labelled(result, "Escalation") == [
        ("Escalation: If senders complain, ask Customer Support to post a notice on the status page.", 23),
        ("Escalation: Escalate to the mail on-call lead if the queue still grows.", 25)]


def test_what_a_command_prints_is_no_statement_of_the_step() -> None:
    texts = [o.text for o in _extract(CHECKLIST).observations]
    assert not any("Expected output" in text or "Kbytes" in text or "flushed" in text for text in texts)


def test_a_page_with_part_headings_is_read_by_its_parts_not_as_a_checklist() -> None:
    page = CHECKLIST.replace("1. Check the relay's", "## Mitigation\n\n1. Check the relay's")
    assert _labelled(_extract(page), "Outcome") == []


def test_a_sentence_is_a_part_by_what_it_says() -> None:
    assert part_of("A site showing OFFLINE is a gateway problem, not a backlog.") == "Diagnosis"
    assert part_of("Page the DBA on-call if replication lag passes an hour.") == "Escalation"
    assert part_of("If it persists, call Ana Ruiz on her mobile.") == "Escalation"
    assert part_of("The queue should empty within a minute.") == "Outcome"
    assert part_of("It should not be restarted twice.") is None  # a rule, not what follows
    assert part_of("Ask for help in the channel.") is None  # no one named
    assert part_of("Restart the consumers.") is None
