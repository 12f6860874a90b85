"""Warning boxes in three markup families (a `:::warning` container, a GitBook
`{% hint style="danger" %}`, a GitHub `> [!CAUTION]` alert) are risks the page flags; a note
or tip box is not."""

from __future__ import annotations

from tasks.extract import SourceRef, extract_facts
from tasks.extract.admonitions import risk_boxes
from tasks.extract.structure import scan

PAGE = """# Label printer service

## How it works

The label service renders shipping labels and sends them to the depot printers.

:::warning
If the print queue is full, labels for the evening run are dropped.
:::

:::tip
Restart the printer from its web page.
:::

{% hint style="danger" %}
A label printed twice ships the parcel twice.
{% endhint %}

> [!CAUTION]
> The printers lose their queue on a power cut.

> [!NOTE]
> The printers are leased.

## Components

- The renderer turns an order into a label.
"""


def test_each_warning_box_is_a_risk_and_a_tip_is_not() -> None:
    assert risk_boxes(scan(PAGE.splitlines(), 1)) == [
        ("If the print queue is full, labels for the evening run are dropped.", 8, 8),
        ("A label printed twice ships the parcel twice.", 16, 16),
        ("The printers lose their queue on a power cut.", 20, 20)]


def test_an_architecture_page_keeps_its_warnings_as_risks() -> None:
    result = extract_facts(PAGE, SourceRef("x", "wiki/sources/x.md", "raw/x.md", "architecture/labels.md"))
    risks = [fact.text for fact in result.observations if fact.text.startswith("Risk: ")]
    assert "Risk: If the print queue is full, labels for the evening run are dropped." in risks, risks
