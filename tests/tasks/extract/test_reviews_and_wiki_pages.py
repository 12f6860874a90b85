"""Architecture pages in two public shapes (concl62): a wiki article about a platform (a
"From the ... wiki" tagline, a maintenance notice quoted over it, an infobox table, then its lead
paragraph; its components each a sub-section whose paragraph opens with the name in bold), and an
architecture review in the AWS Well-Architected style, whose findings are rated HRI / MRI (high /
medium risk issue) before the question they answer."""

from __future__ import annotations

from tasks.extract import Extraction, SourceRef, extract_facts


def _extract(name: str, text: str) -> Extraction:
    return extract_facts(text, SourceRef("x", "wiki/sources/x.md", "raw/x.md", name))


def _said(extraction: Extraction) -> list[str]:
    return [fact.text for fact in extraction.observations]


ARTICLE = """# Parcel Tracking Platform

From the Northway Logistics engineering wiki

> *This article needs additional citations. Please help improve it.*

| Parcel Tracking Platform | |
|---|---|
| **Developer(s)** | Tracking squad |
| **Written in** | Go, Kotlin |

The **Parcel Tracking Platform** is the set of systems Northway uses to follow every parcel from
the depot scanner to the doorstep.

## Components

### Scanhub

**Scanhub** is the depot gateway, one per depot. It buffers scans for a day when the link is down.

### Trailmap

**Trailmap** keeps the position of every parcel for 90 days.

## Data flow

Scanhub sends to Trailmap; customers read positions only through the public tracking API.
"""


def test_a_wiki_article_is_led_by_its_lead_paragraph_and_its_components_by_their_bold_names() -> None:
    said = _said(_extract("parcel-tracking-platform.md", ARTICLE))
    overview = [o for o in said if o.startswith("Overview: ")]
    assert overview == ["Overview: The Parcel Tracking Platform is the set of systems Northway uses to follow "
                        "every parcel from the depot scanner to the doorstep."]
    assert any(o.startswith("Responsibility: Scanhub: Scanhub is the depot gateway, one per depot.") for o in said)
    assert any(o.startswith("Responsibility: Trailmap: Trailmap keeps the position") for o in said)


REVIEW = """# Well-Architected review: Parcel Tracking (production)

**Workload:** Parcel Tracking · **Environment:** Production
**Review date:** 2 September 2024 · **Reviewed by:** Ana Ruiz

## Architecture overview

The platform serves 40 depots from one AWS account per environment.

## Findings by pillar

### Reliability

- **HRI — REL 2:** Scanhub is the only path from depots to Trailmap; when it is down, no scan arrives.
- **MRI:** the scan queue has no dead-letter queue.

### Cost optimisation

- **Medium risk:** the replica is sized like the primary and sits at 8% CPU.
- *No findings recorded.*

## Improvement plan

| Item | Pillar | Owner | Target |
|---|---|---|---|
| Add a dead-letter queue | Reliability | Ben Okafor | Q4 2024 |
"""


def test_a_review_s_rated_findings_are_risks_without_their_rating() -> None:
    said = _said(_extract("well-architected-review.md", REVIEW))
    assert ("Risk: Scanhub is the only path from depots to Trailmap; when it is down, no scan arrives."
            in said)
    assert "Risk: the scan queue has no dead-letter queue." in said
    assert "Risk: the replica is sized like the primary and sits at 8% CPU." in said
    assert any(o.startswith("Action item: Add a dead-letter queue") for o in said)
    assert not any("No findings recorded" in o for o in said)
