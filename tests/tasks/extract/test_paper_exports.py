"""A design written in a notes app and exported (Dropbox Paper, Notion; conc63): its author's
`**TL;DR**` paragraph is its summary (not the export's "Last edited by" line), the items under
"How it works (proposed)" are its design, and check-marked items are items: each ticked one
kept, an open box (a point still to settle) not."""

from __future__ import annotations

from tasks.extract import SourceRef, extract_facts

PAPER = """Parcel lockers in the depot app
===============================

Last edited by Ana Ruiz · 03/11/2026
Created by Ana Ruiz

---

**TL;DR** The depot app books a locker for every parcel a customer cannot receive at home,
instead of drivers calling the locker desk.

### Why are we doing this?

- Drivers spend ten minutes a round on the phone to the locker desk.

### How it works (proposed)

1. The app asks the locker service for a free locker at the end of each round.
2. The locker code is sent to the customer by text message.

### Things we decided in the 20 Oct call

☑ No locker for parcels over 20 kg.
☐ Whether lockers open at night - @Bruno Lima to check with the landlord
☑ Lockers are booked through the existing locker service.
"""


def _said() -> list[str]:
    result = extract_facts(PAPER, SourceRef("a1", "sources/x.md", "raw/x.md", "x.md"))
    return [fact.text for fact in result.observations]


def test_the_tldr_is_the_summary_and_the_proposed_workings_the_design() -> None:
    said = _said()
    summaries = [s for s in said if s.startswith("Summary: ")]
    assert summaries == ["Summary: The depot app books a locker for every parcel a customer cannot receive at "
                         "home, instead of drivers calling the locker desk."], said
    assert "Design: The locker code is sent to the customer by text message." in said


def test_ticked_items_are_decisions_an_open_box_is_not() -> None:
    said = _said()
    assert "Decision: No locker for parcels over 20 kg." in said
    assert "Decision: Lockers are booked through the existing locker service." in said
    assert not any("Whether lockers open at night" in s for s in said), said
