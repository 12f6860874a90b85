"""Conclusions of pages written outside markdown's sections (concl62): an outliner's meeting page
(Logseq / Roam: every line a bullet block, headings as blocks, `key:: value` properties, wiki
links on every name, TODO markers), a message-board post and its replies, a tech radar blip that
opens with its recommendation and argues it under "Why ...". Each is read by what its statements
say: a labelled decision or risk, an open task with its owner, a rule, a non-goal, the reasons."""

from __future__ import annotations

from tasks.extract import Extraction, SourceRef, extract_facts
from tasks.extract.plain_conclusions import plain_conclusions
from tasks.extract.structure import scan


def _extract(name: str, text: str) -> Extraction:
    return extract_facts(text, SourceRef("x", "wiki/sources/x.md", "raw/x.md", name))


def _said(extraction: Extraction) -> list[str]:
    return [fact.text for fact in extraction.observations]


OUTLINE = """title:: Storage sync 2025-02-11
type:: [[meeting]]
attendees:: [[Ana Ruiz]], [[Ben Okafor]], [[Chen Li]]

- ## Agenda
  collapsed:: true
\t- Archive tiering
\t- AOB
- ## Archive tiering
\t- Ben: the cold tier pilot is done, see [[Cold tier pilot]].
\t- Retention period agreed: 13 months on the warm tier, then cold storage.
\t\t- DECISION: the billing export keeps reading the warm tier until March.
\t- Risk raised by Chen: only one person can restore from tape today.
\t\t- Ana to write the restore drill for the on-call guide.
- ## Ceph upgrade follow-ups from the January outage
\t- Ben: all nodes now run the patched kernel.
- ## Actions
\t- TODO Ana — restore drill in the on-call guide
\t  SCHEDULED: <2025-02-20 Thu>
\t- TODO Ben Okafor — price the second tape library
\t- DONE Chen — close the pilot tickets
- template:: sync-notes
  template-including-parent:: false
\t- Copy this block for the next sync. Delete this line.
"""


def test_an_outliner_page_is_read_block_by_block_under_its_heading_blocks() -> None:
    said = _said(_extract("2025-02-11-storage-sync.md", OUTLINE))
    assert "Decision: the billing export keeps reading the warm tier until March." in said
    assert any(o.startswith("Decision: Retention period agreed: 13 months") for o in said)
    assert "Risk: only one person can restore from tape today." in said
    assert "Action item: restore drill in the on-call guide (owner: Ana)" in said
    assert "Action item: price the second tape library (owner: Ben Okafor)" in said
    # a task done is no action left; the template block and its instruction are no fact; a
    # topic's follow-ups told ("all nodes now run ...") are no action items
    assert not any("close the pilot tickets" in o for o in said)
    assert not any("Copy this block" in o or "sync-notes" in o for o in said)
    assert not any(o.startswith("Action item: Ben: all nodes") for o in said)
    # the properties are fields, not statements
    assert not any("attendees" in o.lower() for o in said)


def test_a_memory_note_still_states_its_own_facts() -> None:
    """A note of `- [fact]` and `- uses [[X]]` lines is read by its lines, not as prose."""
    note = """# Billing export

- uses [[Warm tier]]
- [decision] Keep reading the warm tier until March #storage
- The export must finish before 06:00 and we decided to keep the CSV format for now.
"""
    structure = scan(note.splitlines(), 1)
    assert plain_conclusions(structure, "Billing export", set(), whole=True) == []


POST = """Acme Libraries › Systems › Message Board

# Going cashless at the desks: what changes for branches

**Ana Ruiz** (Systems lead) · Mar 3rd · Notified 12 people

Hi all,

The board agreed on Thursday to stop taking cash at every branch desk from 1 June, so card
readers replace the cash drawers. Branches have wanted this for a while.

Here's what I'm proposing:

1. Card readers on every desk by the middle of May.
2. Refunds go only to the card that paid.

Things I'm *not* proposing: changes to the photocopier payments (the vendor handles that).

---

**Chen Li** · Mar 5th

Thanks all. This is decided: we go with Ana's two points, plus the refund rule.
"""


def test_a_board_post_is_summarised_by_its_first_paragraph_not_its_breadcrumb_or_byline() -> None:
    said = _said(_extract("going-cashless.md", POST))
    summaries = [o for o in said if o.startswith("Summary: ")]
    assert summaries and summaries[0].startswith("Summary: The board agreed on Thursday to stop taking cash")
    assert "Constraint: Refunds go only to the card that paid." in said
    assert ("Non-goal: changes to the photocopier payments (the vendor handles that).") in said
    assert any(o.startswith("Decision: This is decided: we go with") for o in said)
    # the reply adopts the post's proposal: its items are what was decided (a rule stays a rule too)
    assert "Decision: Card readers on every desk by the middle of May." in said
    assert "Decision: Refunds go only to the card that paid." in said


def test_a_proposal_no_one_adopts_decides_nothing() -> None:
    said = _said(_extract("going-cashless.md", POST.replace("This is decided: we go with Ana's two points, plus "
                                                            "the refund rule.", "Let's talk on Friday.")))
    assert not any(o.startswith("Decision: Card readers") for o in said)


def test_a_title_that_only_holds_a_changelog_word_is_no_changelog() -> None:
    """"What changes in ..." or "... history after return" name no release log."""
    for title in ("What changes in overdue notices", "Anonymise borrowing history after return"):
        text = f"# {title}\n\nIntro words for the page go here as a paragraph.\n\n- Refunds must go to the card that paid.\n"
        said = plain_conclusions(scan(text.splitlines(), 1), title, set(), whole=True)
        assert any(o.text == "Constraint: Refunds must go to the card that paid." for o in said), title
    for title in ("Changelog", "CHANGES", "Release notes for v2.1", "mypkg Changelog"):
        text = f"# {title}\n\n- Refunds must go to the card.\n"
        said = plain_conclusions(scan(text.splitlines(), 1), title, set(), whole=True)
        assert said == [], title


BLIP = """---
title: "Valkey for session storage"
ring: Adopt
---

# Valkey (for session storage) — **Adopt**

*Platforms · moved in from Trial · published May 2nd, 2025*

We now recommend Valkey as the session store for the web tier, and the old Memcached pool is on
Hold. It replaces the session decision of last year.

## Why it moved

We ran it in Trial for six months. What we saw:

- Replication kept sessions through two node losses without a single forced logout.
- Memory use fell by a third against the Memcached pool.

## Advice on the ring

**Adopt** means: new services keep sessions in Valkey. Nothing new is to be built against the
Memcached protocol.
"""


def test_a_blip_that_opens_with_its_recommendation_decides_it_and_its_why_section_argues_it() -> None:
    said = _said(_extract("valkey-blip.md", BLIP))
    assert any(o.startswith("Decision: We now recommend Valkey as the session store") for o in said)
    assert "Rationale: Replication kept sessions through two node losses without a single forced logout." in said
    assert "Rationale: Memory use fell by a third against the Memcached pool." in said
    assert not any(o.startswith("Rationale: We ran it in Trial") for o in said)  # the list's lead-in
    assert "Constraint: Nothing new is to be built against the Memcached protocol." in said
    assert "Decision: Adopt: new services keep sessions in Valkey." in said  # what the ring means here
