"""Runbooks and incident reports that public formats mark as such outside their headings (issue 23
items 1 and 3, conc65a): a page's tags (Docusaurus front matter, HackMD's `###### tags:` line), a
help centre's "When to use it:" field and "X: what to check" title over numbered "Step N:"
headings; and an 8D report's disciplines (D0-D8) read as the incident's parts, its 5W2H problem
table and its tables of containment actions and validations row by row."""

from __future__ import annotations

from tasks.extract import Extraction, SourceRef, extract_facts
from tasks.extract.structure import section_key


def _extract(text: str) -> Extraction:
    return extract_facts(text, SourceRef("x", "wiki/sources/x.md", "raw/x.md", "docs/page.md"))


def _type(result: Extraction) -> str | None:
    return result.subject.ref.entity_type if result.subject is not None else None


def _labelled(result: Extraction, label: str) -> dict[str, tuple[int, int]]:
    return {o.text: (o.line_start, o.line_end) for o in result.observations if o.text.startswith(f"{label}: ")}


TAGGED = """---
title: Proofing cabinet humidity
tags: [bakery, ovens, runbook]
---

# Proofing cabinet humidity

## Where the number comes from

Each cabinet has a probe read by the line controller every minute.

## HumidityLow

Fires when a cabinet reads under 70 % for ten minutes.
"""

HACKMD = """# Flour silo level

###### tags: `playbook` `silos`

## Reading the gauge

The gauge on the silo skirt is the one to trust.

## Ordering more

Call the mill before 11:00 for next-day delivery.
"""

UNTAGGED = TAGGED.replace("tags: [bakery, ovens, runbook]", "tags: [bakery, ovens]")

HELP_CENTRE = """# Oven stopped mid-bake: what to check

**Ana Ruiz**
Updated March 3, 2026 10:12

## Step 1: Read the fault code

The panel shows a code and the tray count.

## Step 2: Restart or call

If the code is E4, restart the burner from the panel.
"""

WHEN_TO_USE = """# Re-weighing a rejected batch

**Who this is for:** line leads. **When to use it:** the checkweigher rejected a whole batch.

## Setting up

Take the batch to scale 2.

## Weighing

Weigh ten loaves and write the figures on the batch card.

## If something goes wrong

Call the shift manager.
"""


def test_a_pages_tags_that_name_its_genre_make_it_one() -> None:
    assert _type(_extract(TAGGED)) == "runbook"
    assert _type(_extract(HACKMD)) == "runbook"
    assert _type(_extract(UNTAGGED)) != "runbook"  # the tag says so, not the headings


def test_a_help_centre_article_is_a_runbook_by_its_title_steps_and_use_field() -> None:
    assert _type(_extract(HELP_CENTRE)) == "runbook"
    assert _type(_extract(WHEN_TO_USE)) == "runbook"
    # one section of a runbook's is not enough without the field
    assert _type(_extract(WHEN_TO_USE.replace("**When to use it:**", "**Batch:**"))) != "runbook"


EIGHT_D = """# 8D Report 8D-88 — Loaves under weight on line 3

| Field | Value |
|---|---|
| Date of occurrence | 04.02.2026 |
| Status | Closed |

## D0 — Emergency response

Line 3 stopped at 07:10 and the batch was held back from dispatch.

## D2 — Problem description

| 5W2H | |
|---|---|
| What | Loaves on line 3 weighed 760 g, not 800 g |
| Where | Divider on line 3 |
| When | 05:00 to 07:10 on 04.02.2026 |
| Who found it | The checkweigher, at the 07:00 audit |
| How many | 4,200 loaves re-worked |

## D3 — Interim containment actions

| # | Action | Owner | Verified |
|---|---|---|---|
| 1 | Every tenth loaf weighed by hand | B. Osei | yes |

## D4 — Root cause

The divider's piston had worn, so each cut took less dough than the setting said.

## D6 — Implement and validate

| Action | Done | Validation |
|---|---|---|
| 1 | 10.02.2026 | Two weeks of weights inside 5 g of the setting |
"""


def test_an_8d_reports_disciplines_are_its_parts() -> None:
    assert section_key("D4 — Root cause") == "root cause"
    assert section_key("D3: Interim containment actions") == "interim containment actions"
    assert section_key("Dough 3 rising") == "dough 3 rising"  # not a discipline's number
    result = _extract(EIGHT_D)
    assert _type(result) == "incident"
    assert any("piston had worn" in text for text in _labelled(result, "Cause"))
    assert any("batch was held back" in text for text in _labelled(result, "Resolution"))
    assert _labelled(result, "Mitigation") == {"Mitigation: Every tenth loaf weighed by hand: B. Osei": (26, 26)}
    assert "Outcome: 10.02.2026: Two weeks of weights inside 5 g of the setting" in _labelled(result, "Outcome")


def test_a_5w2h_table_says_the_incidents_extent_and_who_found_it() -> None:
    result = _extract(EIGHT_D)
    assert _labelled(result, "Impact")["Impact: 4,200 loaves re-worked"] == (20, 20)
    assert "Detection: The checkweigher, at the 07:00 audit" in _labelled(result, "Detection")
    assert "Summary: Loaves on line 3 weighed 760 g, not 800 g" in _labelled(result, "Summary")
    # a table of actions is no 5W2H table: its rows are not read as the incident's parts
    assert not any("When" in text for text in _labelled(result, "Summary"))


ALERTS_TABLE = """---
tags: [runbook]
---

# Mixer: torque alerts

## Alerts covered

| Monitor | Fires when | Urgency |
|---|---|---|
| `[Mixer] torque > 90%` | torque over 90 % for 2 min | High |
| `[Mixer] motor temperature` | winding above 120 C | Low |

The mixer trips itself at 110 % torque; these alerts come before it.

## Escalation

Call the line engineer on shift.
"""


def test_a_runbooks_table_of_alerts_gives_each_alert_once() -> None:
    result = extract_facts(ALERTS_TABLE, SourceRef("x", "wiki/sources/x.md", "raw/x.md", "docs/page.md"))
    alerts = _labelled(result, "Alert")
    assert alerts == {"Alert: `[Mixer] torque > 90%`: torque over 90 % for 2 min": (11, 11),
                      "Alert: `[Mixer] motor temperature`: winding above 120 C": (12, 12)}
    # the text after the table says what the alerts mean, once (not once per alert)
    meaning = [o.text for o in result.observations if o.text.startswith("Meaning: ")]
    assert meaning == ["Meaning: The mixer trips itself at 110 % torque; these alerts come before it."]


def test_an_irregular_participle_before_a_systems_noun_tells_a_state() -> None:
    from tasks.extract.subject_terms import describing, starts_as_description
    assert describing("rebuilt") and describing("rewritten") and not describing("Rebuild")
    assert starts_as_description("rebuilt feed") and not starts_as_description("GTFS feed")


GOOGLE_STYLE = """# Incident Report: delayed parcel labels

## ISSUE SUMMARY

On Monday 2 March 2026 from 08:00 to 11:30 UTC, label printing at the Leeds depot failed.

## DETAILED DESCRIPTION OF IMPACT

From 08:00 to 11:30 UTC:

- 3,100 parcels left a day late.
- 40 drivers waited at the dock for their loads.

## ROOT CAUSE

The label service ran out of disk when its log rotation stopped.

## REMEDIATION AND PREVENTION

Engineers freed disk space at 11:20 and printing resumed at 11:30.

We are taking the following steps to prevent recurrence:

- Log rotation is monitored and pages the depot systems team when it stops.
- The label service keeps 20 GB of disk free and refuses new logs below it.

## What went well

- The dock team switched to hand-written labels within an hour.

## What can be improved

- Nobody was paged for the full disk.
"""


def test_a_public_incident_reports_parts_lead_ins_and_improvements() -> None:
    result = _extract(GOOGLE_STYLE)
    impact = " ".join(_labelled(result, "Impact"))
    assert "3,100 parcels left a day late" in impact and "40 drivers waited" in impact
    assert any("freed disk space" in text for text in _labelled(result, "Resolution"))
    actions = _labelled(result, "Action item")
    assert "Action item: Log rotation is monitored and pages the depot systems team when it stops." in actions
    assert "Action item: The label service keeps 20 GB of disk free and refuses new logs below it." in actions
    assert "Lesson: Nobody was paged for the full disk." in _labelled(result, "Lesson")


CODES = """---
tags: [runbook]
---

# Checkweigher rejects

## Reading the reject code

| Reject code | Meaning | What you do |
|---|---|---|
| `UNDER` | Loaf under the lower limit | Re-weigh by hand; never pass it on the line's word |
| `METAL` | Metal detector tripped | See "Metal finds" below |

## Escalation

Call the quality lead.
"""


def test_a_table_of_codes_gives_each_codes_diagnosis_and_fix() -> None:
    result = _extract(CODES)
    assert _labelled(result, "Diagnosis") == {"Diagnosis: Loaf under the lower limit (when: `UNDER`)": (11, 11),
                                              "Diagnosis: Metal detector tripped (when: `METAL`)": (12, 12)}
    fixes = _labelled(result, "Mitigation")
    assert "Mitigation: Re-weigh by hand; never pass it on the line's word (when: `UNDER`)" in fixes
    assert not any("Metal finds" in text for text in fixes)  # a pointer to another section is no fix
    assert "Constraint: never pass it on the line's word" in _labelled(result, "Constraint")


ALERT_HEADED = """---
tags: [runbook]
---

# Oven alarms

## OvenTempLow

Fires when the oven reads under 200 C for three minutes.

- Check the burner flame through the sight glass.

## Escalation

Call the bakery engineer.
"""


def test_under_an_alerts_own_heading_its_unnamed_firing_sentence_is_the_alert() -> None:
    result = _extract(ALERT_HEADED)
    assert _labelled(result, "Alert") == {"Alert: Fires when the oven reads under 200 C for three minutes.": (9, 9)}


TRIAGE = """---
tags: [runbook]
---

# Proofer: slow rise alerts

## Alerts covered

| Monitor | Fires when |
|---|---|
| `ProoferRiseSlow` | dough height under target after 40 min |

## 1. Which cabinet?

- Check the cabinet's humidity trend on the line screen.
- Compare its temperature with the next cabinet's.

## 2. After it's over

- Write the batch numbers in the quality log.
- Open a maintenance ticket if a cabinet was off for over an hour.

## Escalation

Call the bakery engineer.
"""


def test_a_runbooks_triage_question_and_after_care_sections() -> None:
    result = _extract(TRIAGE)
    assert _labelled(result, "Diagnosis") == {
        "Diagnosis: Check the cabinet's humidity trend on the line screen.": (15, 15),
        "Diagnosis: Compare its temperature with the next cabinet's.": (16, 16)}
    assert _labelled(result, "Action item") == {
        "Action item: Write the batch numbers in the quality log.": (20, 20),
        "Action item: Open a maintenance ticket if a cabinet was off for over an hour.": (21, 21)}


def test_a_help_centre_articles_opening_for_whom_and_when_is_its_summary() -> None:
    page = HELP_CENTRE.replace(
        "## Step 1", "This article is for line leads on the night shift. When an oven stops mid-bake,\n"
        "the panel shows why.\n\n## Step 1")
    summary = _labelled(_extract(page), "Summary")
    assert summary == {"Summary: This article is for line leads on the night shift. When an oven stops mid-bake,"
                       " the panel shows why.": (6, 7)}
    assert _labelled(_extract(HELP_CENTRE), "Summary") == {}  # no such opening: none


def test_a_hand_over_told_in_a_runbooks_paragraph_is_an_escalation() -> None:
    page = TRIAGE.replace("## Escalation\n\nCall the bakery engineer.\n",
                          "## Burnt batches\n\nDo not bin a burnt batch yourself. Call the Quality desk on shift.\n"
                          "The batch card stays with the trays.\n")
    assert _labelled(_extract(page), "Escalation") == {"Escalation: Call the Quality desk on shift.": (25, 25)}
