"""An operations FAQ written as Q/A pairs, not headings, is a runbook: each answer read with its
question, "Who owns what?" read as responsibilities, an answer's sentences read by the part they
tell; a heading that qualifies a part's name ("Mitigation steps") is that part (conc64b)."""

from __future__ import annotations

from tasks.extract import Extraction, SourceRef, extract_facts
from tasks.extract.runbook_faq import question_answers
from tasks.extract.structure import scan

FAQ = """# Print service — operations FAQ

Answers the print on-call gives most often.

**Q: Labels come out blank. What do I check first?**

A: Check that the font package is on the spooler host. Most often a rebuilt image dropped it.

**Q: The spooler has not taken a job for 30 minutes. Is that an incident?**

A: During depot hours, yes: raise a P2 and page the on-call.

If jobs sit in the dead-letter queue, do not purge them; they are replayed once the cause is fixed.

**Q: Who owns what?**

A:
- Spooler code and on-call: Print team (Ada Lind, lead)
- Printers themselves: the leasing vendor, through Facilities

**Q: Where are the dashboards?**

A: Grafana folder "Print": queue depth, jobs per minute.
"""


def _extract(text: str) -> Extraction:
    return extract_facts(text, SourceRef("x", "wiki/sources/x.md", "raw/x.md", "notes.md"))


def _said(text: str) -> list[str]:
    return [fact.text for fact in _extract(text).observations]


def test_the_pairs_and_their_answers() -> None:
    pairs = question_answers(scan(FAQ.splitlines(), 1))
    assert [question for question, _, _ in pairs] == [
        "Labels come out blank. What do I check first?",
        "The spooler has not taken a job for 30 minutes. Is that an incident?",
        "Who owns what?", "Where are the dashboards?"]
    _, line, answer = pairs[0]
    assert line == 5 and answer[1] == (7, "Check that the font package is on the spooler host. Most often a rebuilt "
                                           "image dropped it.")


def test_an_operations_faq_of_pairs_is_a_runbook() -> None:
    result = _extract(FAQ)
    assert result.subject is not None and result.subject.ref.entity_type == "runbook"
    # three pairs and no title sign are no runbook: a product FAQ stays a page
    plain = _extract(FAQ.replace("# Print service — operations FAQ", "# Print service questions"))
    assert plain.subject is not None and plain.subject.ref.entity_type == "document"


def test_each_answer_is_read_by_the_parts_its_sentences_tell() -> None:
    said = _said(FAQ)
    assert ("Procedure: Labels come out blank. What do I check first? Check that the font package is on the "
            "spooler host. Most often a rebuilt image dropped it.") in said, said
    assert "Diagnosis: Check that the font package is on the spooler host." in said, said
    assert "Diagnosis: Most often a rebuilt image dropped it." in said, said
    assert "Escalation: During depot hours, yes: raise a P2 and page the on-call." in said, said
    assert ("Constraint: If jobs sit in the dead-letter queue, do not purge them; they are replayed once the "
            "cause is fixed.") in said, said
    assert "Responsibility: Spooler code and on-call: Print team (Ada Lind, lead)" in said, said
    assert "Responsibility: Printers themselves: the leasing vendor, through Facilities" in said, said
    # a question is no rule, whatever words it holds
    assert not any(text.startswith("Constraint: **Q") or "Q:" in text for text in said), said


RUNBOOK = """# Disk filling on the print spooler

## Alert details

The `SpoolDiskFull` alert fires when the spool disk is over 90 % full for 10 minutes.

## Mitigation steps

1. Delete spool files older than a day.
2. Restart the spooler.

## Escalation

Page the Print on-call lead if the disk is still over 90 % after an hour.
"""


def test_a_heading_that_qualifies_a_parts_name_is_that_part() -> None:
    result = _extract(RUNBOOK)
    assert result.subject is not None and result.subject.ref.entity_type == "runbook"
    said = [fact.text for fact in result.observations]
    assert "Mitigation: Delete spool files older than a day." in said, said


VERBS = """# Runbook: WebhookBacklogHigh

## Meaning

Payment webhooks from the card processor are queued for more than ten minutes.

## Diagnose

Open the queue dashboard and compare the receive rate with the delete rate.

## Mitigate

- Worker crash-looping after a deploy: roll the release back with Helm.
- Ledger unavailable: scale the worker to zero and let messages queue.

## Escalate to

| When | Who |
|---|---|
| Backlog older than an hour | Payments secondary on-call |
"""


def test_a_heading_that_names_a_part_by_its_verb_is_that_part() -> None:
    said = [fact.text for fact in _extract(VERBS).observations]
    assert "Mitigation: Ledger unavailable: scale the worker to zero and let messages queue." in said, said
    assert "Diagnosis: Open the queue dashboard and compare the receive rate with the delete rate." in said, said
    assert "Escalation: Backlog older than an hour: Payments secondary on-call" in said, said
