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
    assert "Status: resolved" in said
    assert any(text.startswith("Incident date: 2025-05-06") for text in said)
    assert "Cause: The session store ran out of connections." in said
    assert any(text.startswith("Summary: On May 6, 2025") for text in said)
