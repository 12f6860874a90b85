"""A Debian DEP-style proposal's header block (conc63): its indented `Abstract:` field, with
the lines folded under it, is the proposal's summary (the author's own, as a TL;DR is), before
an Introduction that tells the process."""

from __future__ import annotations

from tasks.extract import SourceRef, extract_facts

DEP = """    Title: Route parcels by the next truck
    DEP: 21
    State: ACCEPTED
    Date: 2026-04-11
    Drivers: Ana Ruiz <ana@example.org>
    Abstract:
     Sorter chooses the depot that ships a parcel by the earliest truck that
     reaches the customer, replacing the road-distance rule.

## Introduction

This is a proposal, modelled on the Debian DEP process, to change how Sorter routes parcels.

## Motivation

* A third of parcels for the north coast waited a day at the nearest depot.

## Proposal

1. Sorter loads the truck timetable every night at 02:00.
2. The depot with the earliest arrival wins.
"""


def test_the_header_abstract_is_the_summary() -> None:
    result = extract_facts(DEP, SourceRef("a1", "sources/x.md", "raw/x.md", "x.md"))
    said = [fact.text for fact in result.observations]
    summaries = [s for s in said if s.startswith("Summary: ")]
    assert summaries == ["Summary: Sorter chooses the depot that ships a parcel by the earliest truck that "
                         "reaches the customer, replacing the road-distance rule."], said
