"""A status page's incident with its Postmortem update (Atlassian Statuspage's public incident
page, issue 23 item 3): after the summary, the cause it tells in a public post's words ("The
outage started when ..."), what was done ("We have ...") and what will be ("... and we are ...");
and the Identified update's containment ("We have paused ...") as the mitigation. Written here
for a bike-share operator."""

from __future__ import annotations

from tasks.extract import Extraction, SourceRef, extract_facts
from tasks.extract.status_postmortem import postmortem_parts
from tasks.extract.structure import scan


def _labelled(result: Extraction, label: str) -> list[tuple[str, int]]:
    return [(o.text, o.line_start) for o in result.observations if o.text.startswith(f"{label}: ")]


PAGE = """# Bike unlocks failing in the rider app

**Resolved**

This incident affected: Rider app (Unlocks).

**Postmortem**

Between 17:05 and 18:20 UTC on 2 May 2025, riders could not unlock bikes from the app.

The outage started when the dock gateway's certificate expired. Unlock requests were refused by every dock. We have renewed the certificate, added an expiry alert, and we are moving certificates to automatic renewal this quarter.

Posted May 05, 2025 - 10:00 UTC

**Identified** - The dock gateway's certificate has expired. We have paused unlock retries so the docks are not flooded.

Posted May 02, 2025 - 17:40 UTC

**Investigating** - Riders cannot unlock bikes. We are investigating.

Posted May 02, 2025 - 17:10 UTC
"""


def _extract() -> Extraction:
    return extract_facts(PAGE, SourceRef("x", "wiki/sources/x.md", "raw/x.md", "status.md"))


def test_the_postmortem_update_tells_cause_resolution_and_action() -> None:
    result = _extract()
    assert ("Cause: The outage started when the dock gateway's certificate expired. Unlock requests were "
            "refused by every dock.", 11) in _labelled(result, "Cause")
    assert ("Resolution: We have renewed the certificate, added an expiry alert, and we are moving "
            "certificates to automatic renewal this quarter.", 11) in _labelled(result, "Resolution")
    assert _labelled(result, "Action item") == [
        ("Action item: we are moving certificates to automatic renewal this quarter.", 11)]


def test_the_identified_updates_containment_is_the_mitigation() -> None:
    assert _labelled(_extract(), "Mitigation") == [
        ("Mitigation: We have paused unlock retries so the docks are not flooded.", 15)]


def test_a_page_without_updates_has_no_postmortem_parts() -> None:
    page = "# Notes\n\n**Postmortem**\n\nSummary.\n\nThe outage started when a disk filled.\n"
    assert postmortem_parts(scan(page.splitlines(), 1)) == []
