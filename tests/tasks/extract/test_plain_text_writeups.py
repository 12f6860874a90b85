"""Incident write-ups sent as plain text (an e-mail, a note pasted from a word processor, concl45):
their parts are titled by plain lines ("What happened", "Why it happened"), not markdown
headings; and the SRE book's fields written as a list (`- Root cause: ...`, `- Trigger: ...`)."""

from __future__ import annotations

from tasks.extract import Extraction, SourceRef, extract_facts
from tasks.extract.document_people import document_people
from tasks.extract.genres import names_itself
from tasks.extract.structure import scan
from tasks.markdown.blocks import plain_titles, read_blocks


def _extract(name: str, text: str) -> Extraction:
    return extract_facts(text, SourceRef("x", "wiki/sources/x.md", "raw/x.md", name))


def _labelled(result: Extraction, label: str) -> dict[str, tuple[int, int]]:
    return {o.text: (o.line_start, o.line_end) for o in result.observations if o.text.startswith(f"{label}: ")}


EMAIL = """From: Noor Haddad <noor@example.org>
To: platform@example.org
Date: Thu, 5 Mar 2026 19:02:11 +0000
Subject: Today's ledger database outage

Hi everyone,

A quick write-up of today's ledger outage before the weekend.

What happened

At 10:05 UTC the ledger primary ran out of connections and refused every write.
For 48 minutes no payment was booked; the queue kept them and nothing was lost.

Why it happened

The nightly reconciler opened a connection per account after its upgrade and
never closed them, so the pool filled within minutes of its start.

How we fixed it

Karim Nassar stopped the reconciler at 10:53 and the primary recovered at once.

What we will do

1. Cap the reconciler at ten connections (Karim Nassar).
2. Alert when the ledger pool is above 80% for five minutes (Ops Guild).

Thanks,

Noor
"""


def test_plain_lines_title_the_parts_of_a_body_without_headings() -> None:
    lines = EMAIL.split("\n")
    titles = [(h.line, h.text, h.level) for h in plain_titles(read_blocks(EMAIL, lines))]
    assert titles == [(9, "What happened", 2), (14, "Why it happened", 2), (19, "How we fixed it", 2),
                      (23, "What we will do", 2)]
    assert plain_titles(read_blocks("# Notes\n\nWhat happened\n\nText.\n\nWhy\n\nMore.\n")) == ()
    one = "Intro.\n\nWhat happened\n\nThe disk filled.\n"  # one title is no outline
    assert plain_titles(read_blocks(one)) == ()
    lines_only = "Intro.\n\nAlice\n\nBob\n\nCarol\n"  # titles stand over text, not over titles
    assert plain_titles(read_blocks(lines_only)) == ()
    assert [s.heading for s in scan(lines, 1).sections[1:]] == [
        "What happened", "Why it happened", "How we fixed it", "What we will do"]


def test_an_emailed_write_up_gives_its_parts_and_actions() -> None:
    result = _extract("ledger-outage-email.md", EMAIL)
    summary = _labelled(result, "Summary")
    assert any(text.startswith("Summary: At 10:05 UTC the ledger primary") for text in summary)
    assert any("connection per account" in text for text in _labelled(result, "Cause"))
    assert list(_labelled(result, "Resolution").values()) == [(22, 22)]
    actions = _labelled(result, "Action item")
    assert [lines for lines in actions.values()] == [(26, 26), (27, 27)]
    names = {r.target.display: r.target.entity_type for r in result.relations}
    assert names.get("Karim Nassar") == "person" and "Karim" not in names  # a person, never a technology


def test_a_write_up_that_names_itself_opens_no_story() -> None:
    assert names_itself("A quick write-up of today's ledger outage before the weekend.")
    assert names_itself("This write-up on the outage is final.")
    assert not names_itself("We write up every incident within a week.")


def test_a_bracket_alone_at_an_items_end_names_a_person_not_a_team() -> None:
    people = document_people(scan(EMAIL.split("\n"), 1))
    assert people.names("Karim Nassar") and people.names("Karim")
    assert not people.names("Ops Guild")


KEY_INFORMATION = """# INC-7: Search unavailable

**Severity:** Major

## Summary

From 09:38 to 10:48 UTC search answered every request with an error.

## Key information

- Root cause: search and registration share one connection pool with no limit per query.
- Trigger: a new client integration repeated a slow search twelve times a second.
- Fix: the client's key was rate-limited to one search per second.
- Detection: the availability SLO alert paged the on-call at 09:41.
- Impact: High

## Impact

- 70 minutes without search for every customer.

## Timeline

| Time | Event |
|---|---|
| 09:38 | First errors |

## Follow-ups

- Give search its own connection pool.
"""


def test_the_sre_fields_written_as_a_list_are_the_parts_they_name() -> None:
    result = _extract("inc-7.md", KEY_INFORMATION)
    assert _labelled(result, "Cause") == {
        "Cause: search and registration share one connection pool with no limit per query.": (11, 11)}
    assert list(_labelled(result, "Trigger").values()) == [(12, 12)]
    assert list(_labelled(result, "Resolution").values()) == [(13, 13)]
    assert list(_labelled(result, "Detection").values()) == [(14, 14)]
    assert not any("High" in text for text in _labelled(result, "Impact"))  # a field's value, no sentence


def test_the_identifier_a_documents_title_opens_with_is_an_alias_of_it() -> None:
    incident = _extract("inc-7.md", KEY_INFORMATION)
    assert incident.subject is not None and incident.subject.aliases == ("INC-7",)
    proposal = _extract("gep-12.md", "---\ntitle: Automatic scheduling\nstatus: implementable\n"
                        "creation-date: 2025-11-20\n---\n\n# GEP-12: Automatic scheduling\n\n## Summary\n\n"
                        "The planner books contacts by itself.\n\n## Motivation\n\nHand planning is slow.\n\n"
                        "## Proposal\n\nA solver picks the contacts.\n")
    assert proposal.subject is not None and proposal.subject.ref.names[0] == "Automatic scheduling"
    assert proposal.subject.aliases == ("GEP-12",)
    severity = _extract("sev.md", KEY_INFORMATION.replace("# INC-7: Search unavailable", "# SEV-1: Search unavailable"))
    assert severity.subject is not None and severity.subject.aliases == ()


# The same write-up from a mail client that bolds its part titles (concl49): "**What happened,
# in order**" is a title, the bold run-in "**Short version:**" opens the summary, the signature's
# plain "Noor" is no title, and the quoted earlier message below it is not the writer's telling.
BOLD_EMAIL = """From: Noor Haddad <noor@example.org>
Sent: Thu 5 Mar 2026 19:02
Subject: What happened with the ledger today

Hi everyone,

A lot of you asked, so here is what happened, what we did and what we will change.

**Short version:** from 10:05 to 10:53 the ledger refused every write because
its connection pool was full. Nothing was lost.

**What happened, in order**

The nightly reconciler opened a connection per account after its upgrade and
never closed them.

**What we did**

- 10:53 Karim Nassar stopped the reconciler and the primary recovered at once.

**What we will change** (owners agreed this afternoon)

1. Cap the reconciler at ten connections. Owner: Karim Nassar.
2. Alert when the ledger pool is above 80% for five minutes. Owner: Noor Haddad.

Noor

> On Thu 5 Mar 2026 at 10:20, Karim Nassar wrote:
> 3,000 payments failed since 10:05, all with "too many connections".
"""


def test_bold_lines_title_the_parts_and_a_plain_signature_does_not() -> None:
    titles = [h.text for h in plain_titles(read_blocks(BOLD_EMAIL))]
    assert titles == ["**What happened, in order**", "**What we did**",
                      "**What we will change** (owners agreed this afternoon)"]
    bold_sentence = "Intro.\n\n**Note: this is a sentence, not a title.**\n\nText.\n\n**Why**\n\nMore.\n"
    assert [h.text for h in plain_titles(read_blocks(bold_sentence))] == []


def test_a_bold_titled_e_mail_is_read_as_an_incident_write_up() -> None:
    result = _extract("ledger-email.md", BOLD_EMAIL)
    summary = _labelled(result, "Summary")
    assert list(summary.values()) == [(9, 10)]
    assert any(text.startswith("Summary: from 10:05 to 10:53 the ledger") for text in summary)
    assert [lines for lines in _labelled(result, "Action item").values()] == [(23, 23), (24, 24)]
    assert not any(o.text.split(": ", 1)[-1].startswith(">") for o in result.observations)


CAPITALS_MAIL = """From: Jun Takahashi <jun@example.org>
To: platform@example.org
Date: Fri, 16 Oct 2026 17:42:10 -0500
Subject: What happened: acres counted twice

Hi all,

Here is the write-up for the double-counted acres. Short version first.

WHAT HAPPENED
Between Monday and Wednesday the activity job counted some passes twice.
The agronomy office noticed on Wednesday morning.

WHY
The ingest code deduplicated on the time the server received each position,
so a resent buffer was stored a second time.

IMPACT
- 212 draft invoices for 87 members, none sent.

WHAT'S NEXT
1. Add a reconnect track to the job's test fixtures. Owner: me.

Jun
"""


def test_capitals_title_the_text_right_under_them() -> None:
    """A plain-text mail titles its parts in capitals with the text on the next line, no blank
    line between (a list too): each title is a section, its text a paragraph of its own."""
    lines = CAPITALS_MAIL.split("\n")
    structure = scan(lines, 1)
    assert [s.heading for s in structure.sections[1:]] == ["WHAT HAPPENED", "WHY", "IMPACT", "WHAT'S NEXT"]
    assert (10, 10) in structure.paragraphs and (11, 12) in structure.paragraphs
    # a sentence's first line in capitals is rare; one in mixed case is never a title
    mixed = "Intro.\n\nWhat happened\nBetween Monday and Wednesday.\n\nWhy\nBecause.\n"
    assert plain_titles(read_blocks(mixed, mixed.split("\n"))) == ()
    # a manual page's sections (text indented under "NAME") are not read so
    manual = "TOOL(8)\n\nNAME\n       tool - does a thing\n\nDESCRIPTION\n       More text here.\n"
    assert plain_titles(read_blocks(manual, manual.split("\n"))) == ()


def test_a_part_titled_why_tells_the_cause_and_what_happened_the_incident() -> None:
    result = _extract("postmortems/acres.md", CAPITALS_MAIL)
    causes = _labelled(result, "Cause")
    assert any("deduplicated on the time" in text for text in causes), causes
    assert not any("counted some passes twice" in text for text in causes), causes
    assert any("reconnect track" in text for text in _labelled(result, "Action item"))
