"""Dates and statuses in the places other house styles state them (issue 23 item 2): a Microsoft
Learn page's `ms.date`, an AsciiDoc header's `:revdate:`, a footer in emphasis, an incident
report's "Date of occurrence" beside the day its report was adopted, the day a status field says
the record was approved, and the state a status page's updates leave an incident in."""

from __future__ import annotations

from tests.extraction import extract as _extract
from tests.extraction import stated as _stated

LEARN = """---
title: Payments platform overview
description: How the ledger, the gateway and the payout jobs fit together.
ms.date: 04/27/2025
ms.topic: reference-architecture
---

# Payments platform overview

The ledger is the system of record; the gateway talks to the card schemes.

## Components

- Ledger: keeps every posting.
- Gateway: authorises card payments.
"""


def test_a_learn_pages_ms_date_is_its_last_update_read_month_first() -> None:
    assert _stated(_extract(LEARN), "date") == ['Last updated: 2025-04-27 (written "04/27/2025")']


ASCIIDOC = """# Rotating the broker certificates
:owner: Platform SRE
:revdate: 2025-06-03
:toc: left

This runbook renews the broker's TLS certificates before they expire.

## Procedure

1. Issue the new certificate from the internal CA.
2. Restart the brokers one at a time.
"""


def test_an_asciidoc_headers_revision_date_dates_the_page() -> None:
    assert "Last updated: 2025-06-03" in _stated(_extract(ASCIIDOC), "date")


FAQ = """# Billing exports: operations FAQ

**Q: Where do the exports land?**

A: In the finance bucket, one folder per day.

**Q: Who do I call when an export is late?**

A: The billing on-call, through the pager.

_Last reviewed 14/05/25._
"""


def test_a_footer_in_emphasis_dates_the_review() -> None:
    assert _stated(_extract(FAQ), "date") == ['Review date: 2025-05-14 (written "Last reviewed 14/05/25")']


REPORT = """# Incident Report: Checkout Unavailable During the Spring Sale

**Report number:** IR-25-07
**Date of occurrence:** March 3, 2025
**Adopted:** April 2, 2025, by the Reliability Review Board

## Executive Summary

On Monday, March 3, 2025, checkout returned errors for forty minutes.

## Probable Cause

The connection pool in front of the orders database was exhausted.
"""


def test_an_incident_reports_day_of_occurrence_is_its_date_not_the_day_it_was_adopted() -> None:
    dates = _stated(_extract(REPORT), "date")
    assert dates[0].startswith("Incident date: 2025-03-03"), dates
    assert not any("2025-04-02" in text for text in dates)


CHANGE = """# Move the build farm to ephemeral runners

* Owner: Build tooling team
* Targeted release: Q3 2025
* Status: Approved by the Engineering Steering Group, 12 June 2025

## Summary
Replace the long-lived build agents with runners created for each job.

## Detailed Description
The agents drift from their image and fail builds that pass on a laptop.
"""


def test_the_day_a_status_field_says_the_record_was_approved_dates_it() -> None:
    dates = _stated(_extract(CHANGE), "date")
    assert any(text.startswith("Date: 2025-06-12 (written \"Approved by the Engineering Steering Group")
               or text.startswith("Created: 2025-06-12") for text in dates), dates


def test_a_status_that_names_a_later_records_day_does_not_date_the_record() -> None:
    text = CHANGE.replace("Approved by the Engineering Steering Group, 12 June 2025",
                          "Superseded by the runner fleet proposal on 12 June 2025")
    assert not any("2025-06-12" in found for found in _stated(_extract(text), "date"))


STATUS_PAGE = """# Incident history: slow sign-in

**Resolved** - This incident has been resolved. Sign-in has been fast since 10:02.
Posted Jun 02, 2025 - 10:30 UTC

**Monitoring** - The session cache was scaled out. We are monitoring.
Posted Jun 02, 2025 - 09:55 UTC

**Investigating** - Sign-in takes over 20 seconds for most users.
Posted Jun 02, 2025 - 09:20 UTC
"""


def test_a_status_page_incident_keeps_its_state_as_the_update_writes_it() -> None:
    assert _stated(_extract(STATUS_PAGE), "status") == ['Status: resolved (written "Resolved")']


TASK = """# RFC: Move the nightly exports to the warehouse loader

**Task:** T812
**Tags:** Data-Platform-RFC (Under discussion), Warehouse, Billing
**Author:** Ana Ruiz

== Problem statement ==

The exports are copied by hand each morning.
"""


def test_a_trackers_tag_with_its_board_column_or_a_scoped_status_label_states_the_status() -> None:
    assert _stated(_extract(TASK), "status") == ["Status: Under discussion"]
    labelled = TASK.replace("Data-Platform-RFC (Under discussion), Warehouse", "kind: rfc, status: accepted")
    labelled = labelled.replace("**Tags:**", "**Labels:**")
    assert [text.split(" (")[0] for text in _stated(_extract(labelled), "status")] == ["Status: accepted"]
    plain = TASK.replace("Data-Platform-RFC (Under discussion)", "Data-Platform (Backlog)")
    assert _stated(_extract(plain), "status") == []


PAPER = """Refund auto-approval in Billing
===============================

Last edited by Ana Ruiz · 14/03/2026
Created by Ana Ruiz

---

**TL;DR** Billing approves refunds under £20 without a manual check.
"""


def test_a_bylines_day_after_its_author_and_a_dot_is_the_last_edit() -> None:
    assert _stated(_extract(PAPER), "date") == ['Last updated: 2026-03-14 (written "14/03/2026")']
    undated = PAPER.replace(" · 14/03/2026", " · Billing team")
    assert _stated(_extract(undated), "date") == []
