"""Admonitions in every public markup family are read as structure: the body as prose (markup and
indent out, line numbers kept), the title as a bold label, the kind kept beside."""

from __future__ import annotations

import pytest

from tasks.extract import SourceRef, extract_facts
from tasks.extract.admonitions import risk_boxes
from tasks.extract.structure import scan
from tasks.markdown.boxes import Box, unbox

FAMILIES = [
    # Docusaurus / VuePress / HackMD container, with a title
    (":::danger Rollback\nRevert the flag before the cache warms.\n:::",
     ["**Rollback:**", "Revert the flag before the cache warms.", ""], Box("danger", "Rollback", 1, 2)),
    # Docusaurus v3 title in brackets
    (":::tip[Escalation]\nPage the storage on-call.\n:::",
     ["**Escalation:**", "Page the storage on-call.", ""], Box("tip", "Escalation", 1, 2)),
    # MyST backtick directive, with an option line
    ("```{important}\n:class: dropdown\nThe job must run as a single instance.\n```",
     ["", "", "The job must run as a single instance.", ""], Box("important", "", 2, 3)),
    # MyST colon directive
    (":::{warning} Data loss\nA resize drops the queue.\n:::",
     ["**Data loss:**", "A resize drops the queue.", ""], Box("warning", "Data loss", 1, 2)),
    # MkDocs Material, indented body
    ('!!! warning "Status"\n    Deprecated since March.\n\nNext paragraph.',
     ["**Status:**", "Deprecated since March.", "", "Next paragraph."], Box("warning", "Status", 1, 2)),
    ("??? note\n    Collapsed text here.",
     ["", "Collapsed text here."], Box("note", "", 1, 2)),
    # Sphinx / rST directive, indented body, and a titled generic admonition
    (".. warning::\n   Never restart both nodes at once.\n\nAfter.",
     ["", "Never restart both nodes at once.", "", "After."], Box("warning", "", 1, 2)),
    (".. note:: Reads are served by the replica.\n\nAfter.",
     ["Reads are served by the replica.", "", "After."], Box("note", "", 0, 1)),
    (".. admonition:: Rollback\n\n   Redeploy the previous tag.",
     ["**Rollback:**", "", "Redeploy the previous tag."], Box("admonition", "Rollback", 1, 3)),
    # GitHub alert and Obsidian callout
    ("> [!CAUTION]\n> The printers lose their queue.",
     ["", "The printers lose their queue."], Box("caution", "", 1, 2)),
    ("> [!warning] Escalation\n> Call the vendor.",
     ["**Escalation:**", "Call the vendor."], Box("warning", "Escalation", 1, 2)),
    # GitBook hint
    ('{% hint style="danger" %}\nA label printed twice ships twice.\n{% endhint %}',
     ["", "A label printed twice ships twice.", ""], Box("danger", "", 1, 2)),
    # AsciiDoc block with a title, and a paragraph
    (".Rollback\n[WARNING]\n====\nRestore the snapshot first.\n====",
     ["", "**Rollback:**", "", "Restore the snapshot first.", ""], Box("warning", "Rollback", 3, 4)),
    ("NOTE: The cache is rebuilt nightly.",
     ["The cache is rebuilt nightly."], Box("note", "", 0, 1)),
]


@pytest.mark.parametrize(("text", "lines", "box"), FAMILIES)
def test_each_family_is_read_as_a_box(text: str, lines: list[str], box: Box) -> None:
    assert unbox(text.split("\n")) == (lines, [box])


def test_code_and_other_directives_stay_as_written() -> None:
    """A code fence, a diagram container and a directive that is no admonition are no box."""
    text = ["```{code-block} python", "x = 1", "```", "", "::: mermaid", "graph TD", ":::",
            "```markdown", ":::warning", "inside code", ":::", "```", "Note: lower case prose."]
    assert unbox(text) == (text, [])


def test_a_myst_box_is_prose_not_code() -> None:
    """A ```{important} fence was read as code: its sentence was never read."""
    page = ["# Ledger", "", "```{important}", "The ledger must run as a single instance.", "```"]
    structure = scan(page, 1)
    assert (4, "The ledger must run as a single instance.") in structure.visible
    assert 4 not in structure.code
    assert (4, 4) in structure.paragraphs


def test_a_titled_box_no_longer_merges_into_the_paragraph_above() -> None:
    """Under a line of text the title stays in the box only: a label there would join the
    paragraph above."""
    page = ["# Runbook", "", "Check the disk.", ":::danger Rollback", "Restore the volume.", ":::"]
    structure = scan(page, 1)
    assert (3, 3) in structure.paragraphs and (5, 6) not in structure.paragraphs
    assert not any(":::" in line for _, line in structure.visible)
    assert structure.boxes == [Box("danger", "Rollback", 4, 5)]


@pytest.mark.parametrize("box", [
    "!!! danger\n    Dropping the topic deletes every consumer offset.",
    ".. caution::\n   Dropping the topic deletes every consumer offset.",
    "```{warning}\nDropping the topic deletes every consumer offset.\n```",
])
def test_warning_boxes_of_more_families_are_risks(box: str) -> None:
    page = f"# Topic service\n\n## How it works\n\nThe service owns the topics.\n\n{box}\n"
    assert [text for text, _, _ in risk_boxes(scan(page.split("\n"), 1))] == [
        "Dropping the topic deletes every consumer offset."]
    result = extract_facts(page, SourceRef("x", "wiki/sources/x.md", "raw/x.md", "architecture/topics.md"))
    assert not any(mark in fact.text for fact in result.observations for mark in ("```", "!!!", ".. "))


RUNBOOK = """# Queue backlog runbook

## Symptoms

The alert QueueBacklogHigh fires when the orders queue holds over 10,000 messages.

## Mitigation

Scale the order workers to ten replicas.

:::danger Rollback
If the workers crash on start, scale them back to three replicas.
:::

!!! note "Escalation"
    Page the platform on-call through the payments rota after 30 minutes.

```{important}
The worker pool must never exceed twenty replicas: the database allows 200 connections.
```
"""


def test_a_runbooks_boxes_reach_its_readers_as_labelled_prose() -> None:
    """A box's title reads as a bold label ("Escalation"), a MyST box's rule as a constraint,
    and no observation holds the markup (before: '!!! note "Escalation" Page ...', the rule unread)."""
    result = extract_facts(RUNBOOK, SourceRef("x", "wiki/sources/x.md", "raw/x.md", "runbooks/queue.md"))
    texts = [fact.text for fact in result.observations]
    assert "Escalation: Page the platform on-call through the payments rota after 30 minutes." in texts
    assert ("Constraint: The worker pool must never exceed twenty replicas: the database allows 200 "
            "connections.") in texts
    assert "Mitigation: Rollback: If the workers crash on start, scale them back to three replicas." in texts
    assert not any(mark in text for text in texts for mark in (":::", "!!!", "```", "{important}"))


@pytest.mark.parametrize("notice", ['!!! info "Status"\n    Accepted by the architecture board.',
                                    ".. admonition:: Status\n\n   Accepted by the architecture board."])
def test_a_status_notice_of_any_family_is_the_pages_status(notice: str) -> None:
    text = (f"# Ledger compaction\n\n{notice}\n\n## Motivation\n\nThe ledger grows.\n\n"
            "## Proposal\n\nThe broker compacts the ledger nightly.\n\n## Alternatives\n\nDeleting old entries.\n")
    result = extract_facts(text, SourceRef("x", "wiki/sources/x.md", "raw/x.md", "design/compaction.md"))
    assert [fact.text for fact in result.observations if fact.kind == "status"] == ["Status: accepted"]


def test_a_box_inside_a_box_is_kept_with_its_own_kind() -> None:
    text = ["::::note Outer", "Outer text.", ":::warning", "Inner risk text here.", ":::", "::::"]
    lines, boxes = unbox(text)
    assert lines == ["**Outer:**", "Outer text.", "", "Inner risk text here.", "", ""]
    assert boxes == [Box("note", "Outer", 1, 5), Box("warning", "", 3, 4)]


def test_a_title_of_fields_is_written_as_it_stands() -> None:
    """An MkDocs box titled with the page's fields: the fields as written, no label marks that
    would cling to the last value ("14 May 2026:**")."""
    text = ['!!! info "Owner: Data team · Last updated: 14 May 2026"', "", "The pipeline ingests scans."]
    assert unbox(text)[0][0] == "Owner: Data team · Last updated: 14 May 2026"

