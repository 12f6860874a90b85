"""A task list's open items that name an owner or a due day are action items on any page
(tasks/extract/cov_tasks.py, cov70); a template's review check boxes and ticked items are not."""

from __future__ import annotations

from tasks.extract import SourceRef, extract_facts

TICKET = """# LIB-88 Decide how the catalogue export is scheduled

We run the export from cron on the library host for now.

## Tasks

- [x] Move the export script into the scheduler repo — Priya
- [ ] Alert when the export has not finished by 07:00 — Tomasz
- [ ] Dana: write the restore note for the export bucket - Friday
- [ ] Add a retention rule to the export bucket by 12 March
- [ ] e2e tests for every export format

## Review checklist

- [ ] The design has been reviewed by security
- [ ] Documentation updated
"""


def _said(text: str) -> list[tuple[str, int, int]]:
    found = extract_facts(text, SourceRef("a1", "sources/x.md", "raw/x.md", "x.md")).observations
    return [(fact.text, fact.line_start, fact.line_end) for fact in found]


def test_an_open_task_with_an_owner_or_a_due_day_is_an_action_item() -> None:
    said = _said(TICKET)
    assert ("Action item: Alert when the export has not finished by 07:00 (owner: Tomasz)", 8, 8) in said
    assert any(text.startswith("Action item: Dana: write the restore note") and first == 9
               for text, first, _ in said)
    assert ("Action item: Add a retention rule to the export bucket by 12 March", 10, 10) in said


def test_a_ticked_task_and_a_review_check_box_are_no_action_items() -> None:
    texts = [text for text, _, _ in _said(TICKET)]
    assert not any("Move the export script" in text for text in texts)
    assert not any("e2e tests" in text or "reviewed by security" in text or "Documentation updated" in text
                   for text in texts)


def test_a_word_that_opens_like_a_month_is_no_due_day() -> None:
    text = "# Launch checklist\n\n- [ ] Reviewed by marketing 2 times before launch\n- [ ] Due by 3 March\n"
    texts = [text for text, _, _ in _said(text)]
    assert not any("marketing" in said for said in texts)
