"""A status page's incident updates read as the parts of the incident (tasks/extract/status_updates.py)."""

from __future__ import annotations

from tasks.extract import SourceRef, extract_facts
from tasks.extract.status_updates import is_bare_state, update_parts, update_states
from tasks.extract.structure import Structure, scan


def _structure(text: str) -> Structure:
    return scan(text.splitlines(), 1)


PAGE = """# Slow logins on the customer portal

**Postmortem**

On May 6, 2025, between 08:10 and 08:55 UTC, logins took over 20 seconds for most customers.

Posted May 09, 2025 - 16:00 UTC

**Resolved**

This incident has been resolved.

Posted May 06, 2025 - 09:20 UTC

**Monitoring** - The session store was scaled out and logins are fast again. Posted May 06, 2025 - 08:58 UTC

**Identified**

The session store ran out of connections.

Posted May 06, 2025 - 08:40 UTC

**Investigating**

We are looking into slow logins.

Posted May 06, 2025 - 08:15 UTC
"""


def test_each_update_is_read_by_its_state() -> None:
    structure = _structure(PAGE)
    assert [state for _, state in update_states(structure)] == [
        "postmortem", "resolved", "monitoring", "identified", "investigating"]
    assert update_parts(structure) == [
        ("Resolution", ("The session store was scaled out and logins are fast again.", 15, 15)),
        ("Cause", ("The session store ran out of connections.", 19, 19)),
    ]


def test_a_single_bold_state_is_no_status_page() -> None:
    assert update_parts(_structure("# Note\n\n**Identified** - a typo in the docs.\n")) == []
    assert is_bare_state("**Postmortem**") and not is_bare_state("**Postmortem** - written below")
    assert not is_bare_state("**Postmortem review**")


def test_a_status_page_is_an_incident_with_its_day_status_and_parts() -> None:
    result = extract_facts(PAGE, SourceRef("x", "wiki/sources/x.md", "raw/x.md", "slow-logins.md"))
    said = {o.text for o in result.observations}
    assert result.subject is not None and result.subject.ref.entity_type == "incident"
    assert 'Status: resolved (written "Resolved")' in said  # the state as its update writes it
    assert any(text.startswith("Incident date: 2025-05-06") for text in said)
    assert "Cause: The session store ran out of connections." in said
    assert any(text.startswith("Summary: On May 6, 2025") for text in said)


def test_the_state_its_updates_leave_an_incident_in_is_its_status() -> None:
    """Updates run newest first: an incident that reached Resolved (or Completed, a maintenance)
    is resolved, whatever update its page shows first; an open one is in its newest update's
    state; the write-up and an "Update" state nothing of the incident."""
    from tasks.extract.status_updates import update_status

    updates = ("**{first}** - The queue is draining.\n\nPosted Jun 02, 2025 - 10:40 UTC\n\n"
               "**Identified** - A full disk on the broker.\n\nPosted Jun 02, 2025 - 10:05 UTC\n\n"
               "**Investigating** - Orders are slow.\n\nPosted Jun 02, 2025 - 09:50 UTC\n")
    ended = "# Slow orders\n\n**Postmortem**\n\nThe disk filled.\n\n" + updates.format(first="Resolved")
    assert update_status(_structure(ended)) == (7, "Resolved")  # (no sentence says it: the updates do)
    open_page = "# Slow orders\n\n" + updates.format(first="Update")
    assert update_status(_structure(open_page)) == (7, "Identified")
    assert update_status(_structure("# Notes\n\n**Resolved** - the budget is approved.\n")) is None
    result = extract_facts(ended, SourceRef("x", "wiki/sources/x.md", "raw/x.md", "status/slow-orders.md"))
    assert [o.text for o in result.observations if o.kind == "status"] == ['Status: resolved (written "Resolved")']


def test_an_incident_that_ran_past_midnight_is_dated_by_its_first_update() -> None:
    """Updates run newest first: the day an incident began is its last stamp's (Investigating,
    23:41 on 3 March), not the Resolved stamp that opens the page (01:10 on 4 March)."""
    page = ("# Delayed webhook deliveries\n\n**Resolved** - Webhooks are delivered on time.\n"
            "Posted Mar 04, 2025 - 01:10 UTC\n\n**Identified** - A queue consumer was stuck.\n"
            "Posted Mar 03, 2025 - 23:58 UTC\n\n**Investigating** - Webhooks are delayed.\n"
            "Posted Mar 03, 2025 - 23:41 UTC\n")
    result = extract_facts(page, SourceRef("x", "wiki/sources/x.md", "raw/x.md", "status/webhooks.md"))
    dates = [o.text for o in result.observations if o.kind == "date"]
    assert dates == ['Incident date: 2025-03-03 (written "Posted Mar 03, 2025 - 23:41 UTC")'], dates
