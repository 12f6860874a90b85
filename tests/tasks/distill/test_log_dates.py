"""A decision log's ambiguous numeric dates, settled by the log's other records (issue 23)."""

from __future__ import annotations

from tasks.distill.date_spelling import spelling_day_first
from tasks.distill.log_dates import settle_log_dates
from tasks.extract import Extraction, SourceRef, extract_facts


def _record(path: str, date: str) -> str:
    return f"# {path}\n\nDate: {date}\n\n## Status\n\nAccepted\n\n## Context\n\nWhy.\n\n## Decision\n\nWe will do it.\n"


def _extract(path: str, date: str) -> Extraction:
    return extract_facts(_record(path, date), SourceRef(path, f"wiki/sources/{path}", f"raw/{path}", path))


def _dates(extraction: Extraction) -> list[str]:
    return [o.text for o in extraction.observations if o.kind == "date"]


def test_a_day_first_date_elsewhere_in_the_log_settles_the_ambiguous_ones() -> None:
    ambiguous = _extract("log/0001-a.md", "05/02/2018")
    evidence = _extract("log/0002-b.md", "26/03/2018")
    other_log = _extract("other/0001-c.md", "05/02/2018")
    assert _dates(ambiguous) == ["Date: 05/02/2018"]  # the record alone cannot tell
    warnings = settle_log_dates([ambiguous, evidence, other_log])
    assert _dates(ambiguous) == ["Date: 2018-02-05"]
    assert _dates(evidence) == ["Date: 2018-03-26"]
    assert _dates(other_log) == ["Date: 05/02/2018"]  # another folder: no evidence there
    assert len(warnings) == 1 and warnings[0].startswith("other:")


def test_a_two_digit_year_is_read() -> None:
    record = _extract("log/0003-d.md", "10/04/18")
    evidence = _extract("log/0004-e.md", "13/04/2018")
    settle_log_dates([record, evidence])
    assert _dates(record) == ["Date: 2018-04-10"]


def _document(path: str, header: str) -> Extraction:
    text = f"# Runbook {path}\n\n{header}\n\n## Steps\n\n1. Drain the node.\n2. Restart it.\n"
    return extract_facts(text, SourceRef(path, f"wiki/sources/{path}", f"raw/{path}", path))


def test_a_documents_folder_settles_its_ambiguous_dates_too() -> None:
    """A runbook's `Last reviewed: 03/02/2025` reads both ways; a runbook beside it that writes
    18/03/2025 shows the team writes day-first; the label and the text as written stay."""
    ambiguous = _document("runbooks/rotate-keys.md", "Owner: Fares team\nLast reviewed: 03/02/2025 by Ravi")
    evidence = _document("runbooks/ingest-lag.md", "Related: [review of 18/03/2025](../pm/review.md)")
    alone = _document("other/rotate-keys.md", "Owner: Fares team\nLast reviewed: 03/02/2025 by Ravi")
    assert "Review date: 03/02/2025 (written \"03/02/2025 by Ravi\")" in _dates(ambiguous)
    warnings = settle_log_dates([ambiguous, evidence, alone])
    assert "Review date: 2025-02-03 (written \"03/02/2025 by Ravi\")" in _dates(ambiguous)
    assert all("03/02/2025 (" not in date.split("written")[0] for date in _dates(ambiguous))
    assert "Review date: 03/02/2025 (written \"03/02/2025 by Ravi\")" in _dates(alone)
    assert [w.split(":")[0] for w in warnings] == ["other"]


def test_a_folder_without_evidence_is_settled_by_the_tree_it_sits_in() -> None:
    """`docs/architecture/` writes only `Reviewed on 11/08/2025`; `docs/postmortems/` beside it
    writes 14/06/2025: one team's tree, day-first. Folders side by side at the root share nothing;
    a tree whose folders disagree settles nothing."""
    page = _document("docs/architecture/catalogue.md", "Owner: Billing team\nLast reviewed: 11/08/2025")
    evidence = _document("docs/postmortems/prb-2291.md", "Related: [review of 14/06/2025](../pm/review.md)")
    assert settle_log_dates([page, evidence]) == []
    assert "Review date: 2025-08-11" in _dates(page)
    page = _document("docs/architecture/catalogue.md", "Owner: Billing team\nLast reviewed: 11/08/2025")
    other = _document("docs/minutes/sync.md", "Related: [review of 06/14/2025](../pm/review.md)")
    warnings = settle_log_dates([page, evidence, other])
    assert "Review date: 11/08/2025" in _dates(page) and warnings[0].startswith("docs/architecture:")


def test_a_sign_post_record_is_dated_and_settled_by_its_log() -> None:
    """A sign-post record (a title, `Date:`, and a link to where the record is kept) is a record
    of its log: its date is recorded, ISO or as its log's other records settle it."""
    def sign_post(path: str, date: str) -> Extraction:
        text = (f"# 12. Use Vault for secrets\n\nDate: {date}\n\nThis decision is kept in "
                "[the platform handbook](https://handbook.example.com/decisions/vault).\n")
        return extract_facts(text, SourceRef(path, f"wiki/sources/{path}", f"raw/{path}", path))

    iso = sign_post("adr/0012-use-vault.md", "2021-11-05")
    assert iso.is_decision_record and _dates(iso) == ["Date: 2021-11-05"]
    numeric = sign_post("adr/0013-use-vault-agent.md", "05/11/21")
    evidence = _extract("adr/0014-f.md", "23/11/2021")
    settle_log_dates([numeric, evidence])
    assert _dates(numeric) == ["Date: 2021-11-05"]


def _page(path: str, date: str, prose: str) -> Extraction:
    text = f"# Service page {path}\n\nOwner: Billing team\nLast reviewed: {date}\n\n## Purpose\n\n{prose}\n"
    return extract_facts(text, SourceRef(path, f"wiki/sources/{path}", f"raw/{path}", path))


def test_a_page_no_date_settles_is_read_in_the_order_its_spelling_writes() -> None:
    """Folders side by side that disagree settle nothing; then a page written in British
    spelling (twice, nothing American) reads day-first, one in American spelling month-first,
    with the text as written kept; a page that spells neither way, or both, stays as written."""
    british = _page("docs/architecture/ledger.md", "11/08/2025",
                    "The catalogue entry for the billing centre; costs are in £ per month.")
    american = _page("docs/runbooks/ledger.md", "11/08/2025",
                     "The catalog entry for the billing center and its color codes.")
    neither = _page("docs/design/ledger.md", "11/08/2025", "Rates every bill; runs weekly.")
    mixed = _page("docs/minutes/ledger.md", "11/08/2025", "The catalogue of the data center, and its colour.")
    day_first = _document("docs/postmortems/a.md", "Related: [review of 14/06/2025](../pm/review.md)")
    month_first = _document("docs/ops/b.md", "Related: [review of 06/14/2025](../pm/review.md)")
    warnings = settle_log_dates([british, american, neither, mixed, day_first, month_first])
    assert "Review date: 2025-08-11 (written \"11/08/2025\")" in _dates(british)
    assert "Review date: 2025-11-08 (written \"11/08/2025\")" in _dates(american)
    assert "Review date: 11/08/2025" in _dates(neither) and "Review date: 11/08/2025" in _dates(mixed)
    assert sorted(w.split(":")[0] for w in warnings) == ["docs/design", "docs/minutes"]


def test_words_that_only_look_like_a_spelling_say_nothing() -> None:
    """"laboratory", "literal", "organism" and "analyses" are written alike on both sides."""
    assert spelling_day_first(["The laboratory's literal analyses of an organism."]) is None
    assert spelling_day_first(["We organised the programme."]) is True
    assert spelling_day_first(["Our favorite color."]) is False
    assert spelling_day_first(["One colour only."]) is None
