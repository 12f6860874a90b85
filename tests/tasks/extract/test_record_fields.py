"""A record's stated date and status: which statement wins, and what is never guessed."""

from __future__ import annotations

import pytest

from tasks.extract.front_matter import split_frontmatter
from tasks.extract.model import SourceRef
from tasks.extract.record_fields import (
    document_name,
    document_title,
    is_template,
    marked_status,
    record_date,
    record_name,
    record_status,
)
from tasks.extract.structure import scan

SOURCE = SourceRef("a" * 64, "wiki/sources/x.md", "raw/2026-03-24T22-40-05Z__0007-use-x.md", "")


def stated(text: str) -> tuple[tuple[str, int] | None, tuple[str, int, int] | None]:
    meta, body, first = split_frontmatter(text)
    structure = scan(body, first)
    title, _ = document_title(meta, structure, SOURCE)
    status = record_status(meta, structure, title)
    return record_date(meta, structure, status), status


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # A Date line beats the front matter, the Date section and the preamble.
        ("---\ndate: 2020-01-01\n---\n# T\n\nDate: 3 May 2021\n\n## Date\n\n2019-02-02\n",
         ("2021-05-03", 6)),
        # A Date section beats the front matter.
        ("---\ndate: 2020-01-01\n---\n# T\n\n## Date\n\n2019-02-02\n", ("2019-02-02", 8)),
        # A YAML date in the front matter, cited on its own line.
        ("---\ntitle: T\ndate: 2020-01-01\n---\n# T\n\nText.\n", ("2020-01-01", 3)),
        # A date as text in the front matter, compact form allowed there.
        ("---\ndate: '20200102'\n---\n# T\n\nText.\n", ("2020-01-02", 2)),
        # A date in the status beats a date in the preamble.
        ("# T\n\nWritten 1 June 2018.\n\n## Status\n\nAccepted on 2 July 2019\n",
         ("2019-07-02", 7)),
        # The preamble: prose before the first section.
        ("# T\n\nWritten 1 June 2018.\n\n## Context\n\nText.\n", ("2018-06-01", 3)),
        # An ambiguous numeric date stays as written; a compact number outside a date field
        # is no date.
        ("# T\n\nDate: 05/03/2021\n", ("05/03/2021", 3)),
        ("# T\n\nBuild 20200102 shipped.\n", None),
        # a deadline row is no day of the record: the day its outcome was decided is
        ("# T\n\n| | |\n|---|---|\n| **Due date** | 29/11/2024 |\n| **Outcome** | Option B, decided 05/11/2024 |\n",
         ("2024-11-05", 6)),
        # ... but when it is the page's only day, it is the record's date (nothing better is stated)
        ("# T\n\n| | |\n|---|---|\n| **Due date** | 29/11/2024 |\n| **Outcome** | Option B |\n",
         ("2024-11-29", 5)),
    ],
)
def test_the_first_stated_date_wins_in_order(text: str, expected: tuple[str, int] | None) -> None:
    assert stated(text)[0] == expected


def test_status_from_section_line_front_matter_or_title_mark() -> None:
    assert stated("# T\n\n## Status\n\n✅ Accepted\n")[1] == ("Accepted", 5, 5)
    assert stated("# T\n\n* **Status**: Proposed\n")[1] == ("Proposed", 3, 3)
    assert stated("---\nstatus: Deprecated\n---\n# T\n")[1] == ("Deprecated", 2, 2)
    assert stated("# [superseded] Use X\n\nText.\n")[1] == ("superseded", 1, 1)  # the mark as written
    assert stated("# T\n\nText.\n")[1] is None


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # a status field by another name: a proposal process's stage, MADR-like "Decision status"
        ("# T\n\n- Stage: Accepted\n- Date: 2024-03-01\n", ("Accepted", 3, 3)),
        ("# T\n\n**Decision status:** Approved\n", ("Approved", 3, 3)),
        ("# T\n\n| | |\n|---|---|\n| Decision status | Accepted |\n| Date | 2024-03-01 |\n", ("Accepted", 5, 5)),
        # Confluence's lozenge in a page-properties table: its bar does not split the row
        ("# T\n\n| Status | {status:colour=Green|title=ACCEPTED} |\n|---|---|\n", ("ACCEPTED", 3, 3)),
        # a shields.io badge, an emoji mark
        ("# T\n\n![status](https://img.shields.io/badge/status-accepted-green)\n\nDate: 2024-03-01\n",
         ("accepted", 3, 3)),
        ("# T\n\n✅ **Accepted** · 2024-03-01\n\n## Context\n\nWhy.\n", ("Accepted", 3, 3)),
        # a title's mark, before or after it
        ("# [ACCEPTED] Use Kafka\n\nText.\n", ("ACCEPTED", 1, 1)),
        ("# Use Kafka (Draft)\n\nText.\n", ("Draft", 1, 1)),
    ],
)
def test_status_in_the_other_places_records_write_it(text: str, expected: tuple[str, int, int]) -> None:
    meta, body, first = split_frontmatter(text)
    structure = scan(body, first)
    title, _ = document_title(meta, structure, SOURCE)
    assert (record_status(meta, structure, title) or marked_status(structure, title)) == expected


def test_a_status_by_another_name_does_not_make_a_record() -> None:
    """`State:` and `Stage:`, badges and marks are read once a page is a record; a risk
    acceptance's `State: Accepted` beside its Decision section does not make it one."""
    text = "# T\n\n**State:** Accepted\n\n## Risk\n\nOld TLS.\n\n## Decision\n\nAccept it.\n"
    assert stated(text)[1] is None
    assert stated("# [ACCEPTED] Use Kafka\n\nText.\n")[1] is None


def test_a_titles_status_mark_is_no_template_placeholder() -> None:
    source = SourceRef("a" * 64, "wiki/sources/x.md", "raw/x.md", "adr/0007-use-kafka.md")
    assert not is_template("[DRAFT] Use Kafka for events", source)
    assert is_template("[short title of solved problem]", source)
    assert record_name("[DRAFT] Use Kafka for events") == "Use Kafka for events"
    # the number and the dash that sets it apart ("ADR-0009 — Customs releases ..."): no dash left
    assert record_name("ADR-0009 — Customs releases reach the TOS") == "Customs releases reach the TOS"
    assert record_name("12 - Use Kafka") == "Use Kafka"
    assert record_name("0007. Use Kafka") == "Use Kafka"
    assert record_name("2-phase commit for payouts") == "2-phase commit for payouts"


def test_a_pep_style_header_block_gives_the_title() -> None:
    body = ("PEP: 17\nTitle: Transactional outbox for order events\nAuthor: Mei Lin Tan,\n"
            "        Rafael Costa\nStatus: Accepted\n\nAbstract\n========\n\nThis OEP ...\n").splitlines()
    source = SourceRef("a", "wiki/sources/x.md", "raw/x.md", "oep/0017-outbox.md")
    assert document_title({}, scan(body, 1), source) == ("Transactional outbox for order events", 2)
    # a line of prose before it: no header block, the heading is the title
    assert document_title({}, scan(["Some prose first.", "Title: y", "", "# Real", ""], 1), source) == ("Real", 4)


def test_a_mails_subject_is_its_title_and_no_other_header_block_has_one() -> None:
    source = SourceRef("a", "wiki/sources/x.md", "raw/x.md", "postmortems/plate-47-email.md")
    mail = ["From: Malini Fernando <m.fernando@example.org>", "To: ops@example.org",
            "Date: Fri, 16 Jan 2026 17:22:05 +0000",
            "Subject: Re: What happened with plate 47 (sample swap)", "", "Hi all,", ""]
    assert document_title({}, scan(mail, 1), source) == ("What happened with plate 47 (sample swap)", 4)
    # a Subject among fields that are no mail's headers (no From:) is a field, not the title
    fields = ["Owner: Ops", "Subject: plate 47", "", "Text.", ""]
    assert document_title({}, scan(fields, 1), source) == ("plate 47 email", 1)


def test_an_issue_forms_title_prefix_is_no_placeholder() -> None:
    """GitHub issue forms prefix every title they file ("[RFC]: Use Kafka"): a kind, not a
    template's placeholder, and no part of the name."""
    source = SourceRef("a" * 64, "wiki/sources/x.md", "raw/x.md", "rfcs/use-kafka.md")
    assert not is_template("[RFC]: Use Kafka for events", source)
    # a document's own key in brackets holds a number, which no placeholder does
    assert not is_template("[RFC-RT-004] Field activity from machinery tracks", source)
    assert not is_template("[PROJ-1234] Retry uploads", source)
    assert is_template("[ADR-NNNN] [short title]", source) and is_template("[ADR-NNNN] Title", source)
    assert record_name("[RFC]: Use Kafka for events") == "Use Kafka for events"
    assert document_name("[Proposal]: Use Kafka [Draft]") == "Use Kafka"
    assert document_name("Use [Kafka] for events") == "Use [Kafka] for events"


def test_a_trackers_key_in_brackets_is_the_records_id_not_a_placeholder() -> None:
    """heldout25's RFC template titles a page "[RFC-RT-004] Field activity ...": a key, so the
    page is no template and is read (it yielded nothing)."""
    source = SourceRef("a" * 64, "wiki/sources/x.md", "raw/x.md", "design/RFC-RT-004-field-activity.md")
    assert not is_template("[RFC-RT-004] Field activity from machinery tracks", source)
    assert not is_template("[PROJ-42] Retry uploads", source)
    assert is_template("[NNNN] [short title]", source)
    assert is_template("[ADR number] Title", source)
    assert document_name("[RFC-RT-004] Field activity from machinery tracks") == (
        "RFC-RT-004 Field activity from machinery tracks")


def test_a_titles_kind_or_number_in_capitals_is_no_placeholder() -> None:
    """HashiCorp's RFC template titles "[RFC] Enable widgets"; a numbered one "[RFC-RT-004] ...":
    what the document is, not words left to replace."""
    source = SourceRef("a" * 64, "wiki/sources/x.md", "raw/x.md", "design/rfc-rt-004.md")
    assert not is_template("[RFC-RT-004] Field activity from machinery tracks", source)
    assert not is_template("[RFC] Enable widgets in product", source)
    assert is_template("[RFC-RT-004] [short title of the change]", source)
    assert is_template("[Title]", source)
    assert is_template("[TITLE]", source)  # nothing after it: the whole title is to replace


def test_a_field_list_and_a_trackers_state_line_state_a_records_status() -> None:
    """A reStructuredText or MyST field list (":Status: Accepted", ":Date: 2026-02-17") is a
    record's fields; a GitHub issue's or discussion's state line with its close reason is its
    status; a colon inside prose is neither."""
    assert stated("# ADR 3: Queues\n\n:Status: Accepted\n:Date: 2026-02-17\n\n## Context\n\nWhy.\n") == (
        ("2026-02-17", 4), ("Accepted", 3, 3))
    text = "# Keep holds in a column #214\n\nClosed as outdated · **ana-k** started this conversation in Ideas\n"
    meta, body, first = split_frontmatter(text)
    structure = scan(body, first)
    assert marked_status(structure, "Keep holds in a column #214") == ("Closed as outdated", 3, 3)
    assert stated("# T\n\nThe status: fine, mostly.\n")[1] is None


def test_an_outline_that_starts_a_level_down_is_titled_by_its_top_heading() -> None:
    """Exported notes often title the page one level down ("📝 Notes" / the day / "## Design
    review" / "### Summary"): the one heading of the top level is the title; pages of several
    such headings, or opening with a section's name, keep their file name."""
    source = SourceRef("a" * 64, "wiki/sources/x.md", "raw/x.md", "notes/2026-10-27-review-notes.md")

    def title(text: str) -> tuple[str, int]:
        meta, body, first = split_frontmatter(text)
        return document_title(meta, scan(body, first), source)

    assert title("📝 Notes\n\nOct 27, 2026\n\n## Ledger design review\n\n### Summary\n\nAgreed.\n\n"
                 "### Next steps\n\n- Ship.\n") == ("Ledger design review", 5)
    assert title("## Ledger design review\n\n### Summary\n\nAgreed.\n\n## Follow-up\n\nLater.\n") == (
        "2026 10 27 review notes", 1)
    assert title("## Context\n\n### Forces\n\nMany.\n") == ("2026 10 27 review notes", 1)
