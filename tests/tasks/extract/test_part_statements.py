"""Every statement of a design section and of a meeting's topic (cov67a): each sentence and
list item kept with its own lines, a meeting's by what it says; a decision log's sections are no
topics, and a roll, an agenda, a question or a lead-in is no statement. Fixtures written for
these tests."""

from __future__ import annotations

from tasks.extract import Extraction, SourceRef, extract_facts

PROPOSAL = """# RFC-12: Shared image cache

Status: Accepted

## Summary

Build agents share one image cache.

## Detailed design

One registry mirror runs per data centre, on two VMs behind the load balancer.

## Proposed solution

- Agents pull through the mirror; a miss goes to the upstream registry.
- The mirror keeps images for 30 days.

Images are signed before the mirror serves them. Unsigned images are refused.

## Alternatives

A cache per agent was rejected: disks fill up.
"""

WITHDRAWN = PROPOSAL.replace("Status: Accepted", "Status: Withdrawn")

MEETING = """# Build team weekly, 4 March 2026

## Attendees

Ana Ruiz, Bo Lind, Chen Wei

## Agenda

1. Image cache rollout
2. Flaky runners

## 1. Image cache rollout

- The mirror in the north data centre has served 9,000 pulls since Monday.
- Bo worries the south mirror shares one disk with the CI database.
- Moving the mirror to its own VM was not agreed because the budget is spent.
- Platform Ops will resize the south disk on Friday.
- **Agreed:** the south mirror goes live on 11 March.

## 2. Flaky runners

Three runners failed health checks this week. Which pool are they in?

The plan:

- [ ] check the runner image
"""

LOG = """# Build decision log

| ID | Date | Decision | Status |
|----|------|----------|--------|
| BD-1 | 2026-01-04 | Images are built once and promoted | Agreed |
| BD-2 | 2026-02-01 | Runners are rebuilt every night | Agreed |

## Notes

The runner pool was smaller back then.
"""


def _extract(text: str, name: str = "docs/x.md") -> Extraction:
    return extract_facts(text, SourceRef("x", "wiki/sources/x.md", "raw/x.md", name))


def _spans(result: Extraction) -> dict[str, tuple[int, int]]:
    return {o.text: (o.line_start, o.line_end) for o in result.observations}


def test_each_item_of_a_proposed_solution_is_a_design_of_its_own() -> None:
    found = _spans(_extract(PROPOSAL))
    assert found["Design: One registry mirror runs per data centre, on two VMs behind the load balancer."] == (11, 11)
    assert found["Design: Agents pull through the mirror; a miss goes to the upstream registry."] == (15, 15)
    assert found["Design: The mirror keeps images for 30 days."] == (16, 16)
    assert found["Design: Images are signed before the mirror serves them."] == (18, 18)
    assert found["Design: Unsigned images are refused."] == (18, 18)
    assert not any(text.startswith("Design: A cache per agent") for text in found)  # another part's


def test_a_withdrawn_proposal_keeps_its_design_as_the_design_it_withdrew() -> None:
    found = _spans(_extract(WITHDRAWN))
    assert "Withdrawn design: The mirror keeps images for 30 days." in found
    assert not any(text.startswith("Design: ") for text in found)


def test_each_statement_of_a_meeting_topic_is_kept_by_what_it_says() -> None:
    found = _spans(_extract(MEETING, "notes/2026-03-04.md"))
    assert found["Outcome: The mirror in the north data centre has served 9,000 pulls since Monday."] == (14, 14)
    assert found["Risk: Bo worries the south mirror shares one disk with the CI database."] == (15, 15)
    assert found["Rejected: Moving the mirror to its own VM was not agreed because the budget is spent."] == (16, 16)
    assert found["Action item: Platform Ops will resize the south disk on Friday."] == (17, 17)
    assert found["Outcome: Three runners failed health checks this week."] == (22, 22)
    # what another reader kept is not kept again; a question, a lead-in, a check box, the roll
    # and the agenda are no statements
    assert sum("the south mirror goes live on 11 March" in text for text in found) == 1
    assert not any("Which pool" in text or "The plan" in text or "runner image" in text for text in found)
    assert not any("Ana Ruiz" in text or "Flaky runners" in text for text in found)


def test_a_decision_log_has_no_topics() -> None:
    found = _spans(_extract(LOG, "decisions/log.md"))
    assert not any("smaller back then" in text for text in found)


ARCHITECTURE = """# Parcel ledger: architecture overview

The parcel ledger records every parcel movement for billing.

## Components

| Component | Responsibility |
|---|---|
| ledger-api | Takes movements from the depots |
| ledger-db | Keeps the movements |

## How corrections work

A correction is a new movement that reverses the old one. Corrections reach billing the next
morning. Only the billing team may post a correction.

## Glossary

A movement is a scan of a parcel at a depot door.
"""


def test_each_statement_of_an_architecture_section_is_kept_as_its_design_or_rule() -> None:
    found = _spans(_extract(ARCHITECTURE, "architecture/parcel-ledger.md"))
    assert found["Design: A correction is a new movement that reverses the old one."] == (14, 14)
    assert found["Design: Corrections reach billing the next morning."] == (14, 15)
    assert any(text.startswith("Constraint: Only the billing team may post a correction.") for text in found)
    assert not any("scan of a parcel" in text for text in found)  # a glossary describes no part


NOTES = """# Storage sync, 2 June 2026

## Attendees

Ana, Bo

## Backups

AI-generated content may be inaccurate or misleading. Always check for accuracy.

The nightly backup now finishes by 04:00 on every cluster. For more information, see the backup
dashboard. ~~Tape copies are kept for a year.~~

[To be completed by the storage team]

Bo: the restore test passed, i.e. the whole
bucket came back in two hours.
"""


def test_chrome_pointers_placeholders_and_struck_text_are_no_statements() -> None:
    found = _spans(_extract(NOTES, "notes/2026-06-02.md"))
    assert "Outcome: The nightly backup now finishes by 04:00 on every cluster." in found
    assert not any("AI-generated" in text or "check for accuracy" in text for text in found)
    assert not any("For more information" in text or "Tape copies" in text for text in found)
    assert not any("To be completed" in text for text in found)


RFC = """# RFC-31: Signed build artefacts

Status: Accepted

## Summary

Every artefact the build publishes is signed.

## Motivation

A tampered image reached staging in May.

Nobody could tell which build produced it. Auditors ask for provenance from next year.

## Design

The build signs each artefact with a key held in the KMS.

## Security

Only the release pipeline may use the signing key. Keys rotate every 90 days.

## Test plan

We sign a test image in CI every night and verify it.

## Future possibilities

Think about what your proposal would allow next. Signing could cover SBOM files too.
"""


def test_a_proposal_keeps_each_statement_of_sections_of_no_part() -> None:
    found = _spans(_extract(RFC, "rfcs/0031-signed-artefacts.md"))
    assert any("Auditors ask for provenance" in text for text in found if text.startswith("Rationale: "))
    # a section no part names ("Security"): its statements as the design, a rule as a rule
    assert any(text.startswith("Constraint: Only the release pipeline may use the signing key.") for text in found)
    assert found["Design: Keys rotate every 90 days."] == (21, 21)
    # a test plan and what may come later are no design; an instruction to the author no statement
    assert not any("verify it" in text or "SBOM" in text or "your proposal" in text for text in found)


def test_each_paragraph_of_a_proposal_part_is_kept_under_the_part() -> None:
    text = RFC.replace("## Test plan", "## Drawbacks\n\nSigning adds a minute to each build.\n\n"
                       "A lost key blocks every release until a new one is issued.\n\n"
                       "The verify step needs network access to the KMS.\n\n## Test plan")
    found = _spans(_extract(text, "rfcs/0031-signed-artefacts.md"))
    assert found["Drawback: Signing adds a minute to each build."] == (25, 25)
    assert found["Drawback: A lost key blocks every release until a new one is issued."] == (27, 27)
    assert found["Drawback: The verify step needs network access to the KMS."] == (29, 29)


def test_a_long_proposal_keeps_at_most_max_statements_more() -> None:
    from tasks.extract.part_statements import MAX_STATEMENTS

    steps = "\n\n".join(f"Step {n} copies shard {n} to the new cluster." for n in range(1, 41))
    text = PROPOSAL.replace("## Alternatives", f"## Migration\n\nThis section explains how the shards move.\n\n{steps}\n\n## Alternatives")
    found = _extract(text).observations
    added = [o for o in found if o.text.startswith("Design: Step ")]
    assert not any("This section" in o.text for o in found)  # what the section says it does
    # its design section's four statements first (PROPOSAL's), then the rest in document order
    assert len(added) == MAX_STATEMENTS - 4 and added[0].text == "Design: Step 1 copies shard 1 to the new cluster."


CUED_PROPOSAL = """# RFC-31: Tile cache for the map viewer

Status: Accepted

## Summary

The map viewer reads tiles through one shared cache.

## Detailed design

The cache runs as two pods behind the ingress.

## Proposed solution

- Only members of the maps-admin group can purge the cache.
- Nothing writes to the tile bucket directly.
- Tiles are stored only as WebP.
- The cache refuses unsigned purge requests.
- We will not try to prefetch tiles for every zoom level.
- If the tile bucket were lost, every viewer would show a blank map.
- Pre-rendering for print is not planned before 2027.
- Tiles expire after seven days in the cache.
"""


def test_a_design_statement_is_kept_by_what_its_words_say() -> None:
    """A design section's statement that states a rule, a scope left out or a worry is kept under
    that part (the part's label is only its default); the rest stay Design."""
    found = _spans(_extract(CUED_PROPOSAL))
    assert "Design: The cache runs as two pods behind the ingress." in found
    assert "Constraint: Only members of the maps-admin group can purge the cache." in found
    assert "Constraint: Nothing writes to the tile bucket directly." in found
    assert "Constraint: Tiles are stored only as WebP." in found
    assert "Constraint: The cache refuses unsigned purge requests." in found
    assert "Non-goal: We will not try to prefetch tiles for every zoom level." in found
    assert "Risk: If the tile bucket were lost, every viewer would show a blank map." in found
    assert "Non-goal: Pre-rendering for print is not planned before 2027." in found
    assert "Design: Tiles expire after seven days in the cache." in found


CUED_ARCHITECTURE = """# Parcel router architecture

## Components

The router reads scans from the depot queue and assigns each parcel a van.

Nothing else writes
to the assignments table. The router has no fallback for the depot queue; vans keep their last
plan when it stops. Re-routing parcels already on a van is out of scope.
"""


def test_an_architecture_statement_is_kept_by_what_its_words_say() -> None:
    found = _spans(_extract(CUED_ARCHITECTURE, "architecture/parcel-router.md"))
    assert "Design: The router reads scans from the depot queue and assigns each parcel a van." in found
    assert "Constraint: Nothing else writes to the assignments table." in found
    assert any(t.startswith("Risk: The router has no fallback for the depot queue") for t in found)
    assert "Non-goal: Re-routing parcels already on a van is out of scope." in found
