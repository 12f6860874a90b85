"""A decision page in Atlassian's DACI shape (concl62): its options weighed as a table with one
column per option and a Cons row, the option chosen named by its number ("Option 1 chosen on
28 Mar 2023"); every option not chosen is rejected with its cons. A paragraph that names itself
the accepted consequence is a consequence, wherever the page writes it."""

from __future__ import annotations

from tasks.extract import Extraction, SourceRef, extract_facts
from tasks.extract.genre_parts import rejected_sentences
from tasks.extract.structure import scan


def _extract(name: str, text: str) -> Extraction:
    return extract_facts(text, SourceRef("x", "wiki/sources/x.md", "raw/x.md", name))


DACI = """# DEC-12: Assign parcels to the nearest depot with stock

| | |
|---|---|
| **Status** | DECIDED |
| **Driver** | @Ana Ruiz |
| **Approver** | @Ben Okafor |
| **Outcome** | Option 1 chosen on 28 Mar 2023 (nearest depot by road) |

## Background

Parcels go to whichever depot the order system lists first, so the oldest depots carry most of the work.

## Options considered

| | Option 1: nearest depot by road | Option 2: owning region first | Option 3: round-robin |
|---|---|---|---|
| Description | Compute road distance to the customer | Prefer the customer's own region | Rotate across depots |
| Pros | Shortest trip | Keeps stock at home | Evens out workload |
| Cons | Needs a distance table | Ignores geography; regions span 40 miles | Longest trips; nobody could defend it |

## Outcome

**Decision:** the order system picks the depot with the shortest road distance to the customer.

Accepted consequence: central depots stay busy, because they are near most customers.
"""


def test_a_daci_page_rejects_the_options_it_did_not_choose_with_their_cons() -> None:
    said = [fact.text for fact in _extract("DEC-12-nearest-depot.md", DACI).observations]
    rejected = [o for o in said if o.startswith("Rejected: ")]
    assert rejected == ["Rejected: Option 2: owning region first: Ignores geography; regions span 40 miles. "
                        "Option 3: round-robin: Longest trips; nobody could defend it."]
    assert any(o.startswith("Consequence: Accepted consequence: central depots stay busy") for o in said)


def test_an_options_table_without_a_stated_choice_rejects_nothing() -> None:
    text = DACI.replace("| **Outcome** | Option 1 chosen on 28 Mar 2023 (nearest depot by road) |\n", "")
    assert not [f for f in rejected_sentences(scan(text.splitlines(), 1)) if "Option" in f.text]
