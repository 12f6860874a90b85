"""A RUP Software Architecture Document (a cover of short lines, Architectural Goals and
Constraints, Logical, Process and Deployment Views) is an architecture page: its logical view's
elements are responsibilities, its process view's steps and its deployment view the design, and
its cover is no overview."""

from __future__ import annotations

from tasks.extract import SourceRef, extract_facts
from tasks.extract.genres import ARCHITECTURE, recognise_genre
from tasks.extract.structure import scan

SAD = """Parcel Routing Platform
Software Architecture Document
Version 1.2

## 1. Architectural Goals and Constraints

- **Latency.** A route must be returned within 300 ms.

## 2. Logical View

| Element | Responsibility |
|---|---|
| Router | Picks the depot for each parcel |
| Tracker | Records every scan of a parcel |

## 3. Process View

1. The scanner posts each scan to the Tracker.
2. The Router reads the latest scan and picks the next depot.

## 4. Deployment View

Both services run on one Kubernetes cluster in two zones.
"""


def _observations(text: str) -> list[tuple[str, int]]:
    result = extract_facts(text, SourceRef("x", "wiki/sources/x.md", "raw/x.md", "architecture/sad.md"))
    return [(fact.text, fact.line_start) for fact in result.observations]


def test_a_rup_sad_is_an_architecture_page() -> None:
    assert recognise_genre([], scan(SAD.splitlines(), 1), "Parcel Routing Platform") == ARCHITECTURE


def test_its_views_are_read_and_its_cover_is_no_overview() -> None:
    observations = _observations(SAD)
    assert ("Responsibility: Router: Picks the depot for each parcel", 13) in observations
    assert ("Design: The scanner posts each scan to the Tracker.", 18) in observations
    assert ("Design: The Router reads the latest scan and picks the next depot.", 19) in observations
    assert ("Design: Both services run on one Kubernetes cluster in two zones.", 23) in observations
    assert not any(text.startswith("Overview: ") for text, _ in observations), observations
