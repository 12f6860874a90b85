"""Decision records in the house styles real teams use (fixtures written for this project in
the shapes of public examples: tests/fixtures/distill/house-styles/sources), one row each."""

from __future__ import annotations

from pathlib import Path

import pytest

from tasks.extract import CUT_MARK, MAX_DECISION_CHARS, SourceRef, extract_facts

SOURCES = Path(__file__).resolve().parents[2] / "fixtures" / "distill" / "house-styles" / "sources"

# file -> (title, status, date, start of the decision)
STYLES = {
    "0001-record-decisions.md": (  # Nygard, ATX headings, `Date:` line
        "Record decisions", "Accepted", "2020-02-03", "We will keep a decision record"
    ),
    "0002-use-postgres-for-the-ledger.md": (  # adr-tools `Superseded by [..](..)`
        "Use Postgres for the ledger",
        "Superseded by 9. Move the ledger to Dynamo",
        "2020-02-10",
        "We will store the ledger",
    ),
    "0003-queue-for-emails.md": (  # setext headings; DD/MM/YYYY, day-first shown by 25/04
        "Queue for emails",
        'Accepted (written "Accepted (reviewed 25/04/2019)")',  # the status, the text as written kept
        "2019-04-03",
        "Outgoing email goes through a queue",
    ),
    "0004-api-gateway.md": (  # MADR 2: bullet status/date, Considered Options, Pros and Cons
        "Put an API gateway in front of the services",
        "accepted",
        "2021-01-15",
        'Chosen option: "An API gateway"',
    ),
    "0005-feature-flags.md": (  # MADR 3/4: front matter status/date/deciders
        "Use feature flags for risky releases",
        "accepted",
        "2021-06-01",
        'Chosen option: "Feature flags"',
    ),
    "0006-cache-prices.md": (  # Y-statement, no status and no date stated
        "Cache prices at the edge", None, None, "In the context of the public price pages"
    ),
    "0007-structured-logs.md": (  # emoji status, "What's proposed", a date in prose
        "Structured logs", "Accepted", "2021-03-04", "Every service writes JSON log lines"
    ),
    "0008-shared-runners.md": (  # first heading "# Context"; status at the end; Proposed Solution
        "shared runners", "Deprecated", None, "Teams move their builds to shared runners"
    ),
    "0009-move-the-ledger-to-dynamo.md": (  # log4brains: `- Status:` / `- Date:`, Links section
        "Move the ledger to Dynamo", "accepted", "2022-01-10", 'Chosen option: "Dynamo"'
    ),
    "0010-email-provider.md": (  # adr-tools `Amends [..](..)`, decision under "Outcome"
        "Email provider", "Accepted", "2022-05-02", "The worker hands email to one hosted provider"
    ),
}


def extract(name: str, text: str | None = None):
    body = text if text is not None else (SOURCES / name).read_text(encoding="utf-8")
    return extract_facts(body, SourceRef("a" * 64, "wiki/sources/x.md", "raw/x.md", f"log/{name}"))


@pytest.mark.parametrize("name", sorted(STYLES))
def test_house_style_records_give_title_status_date_and_decision(name: str) -> None:
    title, status, date, decision = STYLES[name]
    result = extract(name)
    assert result.is_decision_record and result.record_role == ""
    assert result.subject is not None
    assert result.subject.ref.display == title
    assert result.subject.ref.entity_type == "decision"
    by_kind = {o.kind: o.text for o in result.observations if o.kind != "line"}
    assert by_kind.get("status") == (f"Status: {status}" if status else None)
    assert by_kind.get("date") == (f"Date: {date}" if date else None)
    assert by_kind["decision"].startswith(f"Decision: {decision}")


@pytest.mark.parametrize(("name", "role"), [("template.md", "template"), ("index.md", "index")])
def test_templates_and_index_pages_are_recognised_and_record_nothing(name: str, role: str) -> None:
    result = extract(name)
    assert result.record_role == role
    assert result.subject is None and result.observations == [] and result.record_links == []


# (relation type, the other record is the source, stem, number) per record
LINKS = {
    "0002-use-postgres-for-the-ledger.md": [
        ("supersedes", True, "0009-move-the-ledger-to-dynamo", 9)
    ],
    "0003-queue-for-emails.md": [("amends", True, "0010-email-provider", 10)],
    "0009-move-the-ledger-to-dynamo.md": [
        ("supersedes", False, "0002-postgres-ledger", 2),  # wrong file name: number decides
        ("partially_supersedes", False, "0004-api-gateway", 4),  # "some aspects of"
        ("relates_to", False, None, 15),  # "See also ADR 15"
    ],
    "0010-email-provider.md": [
        ("amends", False, "0003-queue-for-emails", 3),
        ("relates_to", False, None, 3),  # "ADR-003" in prose
    ],
    "0011-retire-the-old-cache.md": [
        ("relates_to", False, None, 6),  # "adr-0006"
        ("relates_to", False, None, 7),  # a bare zero-padded "0007"
    ],
    "0001-record-decisions.md": [],
    "0008-shared-runners.md": [],  # "# Context" is a heading word, never a link
}


@pytest.mark.parametrize("name", sorted(LINKS))
def test_record_links_are_typed_and_directed(name: str) -> None:
    links = extract(name).record_links
    assert [(k.relation_type, k.incoming, k.stem, k.number) for k in links] == LINKS[name]


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("Superseded by [ADR 7](0007-x.md)", ("supersedes", True)),
        ("This replaces the approach of 0006.", ("supersedes", False)),
        ("Replaced by ADR-12.", ("supersedes", True)),
        ("This ADR in part supersedes [0003](0003-x.md).", ("partially_supersedes", False)),
        ("Supersedes some aspects of ADR 3.", ("partially_supersedes", False)),
        ("Amended by [17. Data](0017-data.md)", ("amends", True)),
        ("Supplements ADR 0004.", ("amends", False)),
        ("Supplemented by adr-0009", ("amends", True)),
        ("See also [ADR 5](0005-x.md).", ("relates_to", False)),
        ("Under ADR 10 this was repeated.", ("relates_to", False)),
    ],
)
def test_relation_kinds_from_the_verb_before_the_reference(
    line: str, expected: tuple[str, bool]
) -> None:
    text = f"# 20. Twenty\n\n## Status\n\nAccepted\n\n## Context\n\nX.\n\n## Decision\n\nY.\n\n{line}\n"
    [link] = extract("0020-twenty.md", text).record_links
    assert (link.relation_type, link.incoming) == expected


@pytest.mark.parametrize(
    "line",
    [
        "We checkpoint after every 1,000 pages.",  # a number, not a record
        "Version 0.006 of the tool.",
        "See the Context section and the Decision above.",  # heading words are not records
        "This record is 0020 itself: ADR 20.",  # the record itself
        "`0007` in a code span is code.",
    ],
)
def test_no_record_link_without_an_explicit_reference(line: str) -> None:
    text = f"# 20. Twenty\n\n## Status\n\nAccepted\n\n## Decision\n\nY.\n\n{line}\n"
    assert extract("0020-twenty.md", text).record_links == []


def test_a_long_decision_is_cut_at_a_sentence_with_a_mark_and_its_full_range() -> None:
    sentence = "We will keep every event in the log for audits and replays. "
    body = "".join(f"{sentence}\n" for _ in range(MAX_DECISION_CHARS // len(sentence) + 5))
    text = f"# 3. Events\n\n## Status\n\nAccepted\n\n## Decision\n\n{body}\n## Consequences\n\nZ.\n"
    [decision] = [o for o in extract("0003-events.md", text).observations if o.kind == "decision"]
    assert decision.text.endswith("replays." + CUT_MARK)
    assert len(decision.text) <= len("Decision: ") + MAX_DECISION_CHARS
    lines = body.count("\n")
    assert (decision.line_start, decision.line_end) == (9, 9 + lines - 1)


def test_a_decision_of_a_few_paragraph_lines_is_kept_whole() -> None:
    body = " ".join(f"Sentence number {i} of the decision." for i in range(40))  # ~1,300 chars
    text = f"# 3. Events\n\n## Status\n\nAccepted\n\n## Decision\n\n{body}\n"
    [decision] = [o for o in extract("0003-events.md", text).observations if o.kind == "decision"]
    assert decision.text == f"Decision: {body}"


def test_a_decision_section_that_goes_on_is_marked_and_its_range_covers_all_of_it() -> None:
    text = (
        "# 4. Ranges\n\n## Status\n\nAccepted\n\n## Decision\n\n"  # decision from line 9
        "The VPCs get these ranges:\n\n| env | range |\n|---|---|\n| prod | 10.0.0.0/16 |\n\n"
        "```\nextra = true\n```\n\n## Consequences\n\nNone.\n"
    )
    [decision] = [o for o in extract("0004-ranges.md", text).observations if o.kind == "decision"]
    assert decision.text == "Decision: The VPCs get these ranges:" + CUT_MARK
    assert (decision.line_start, decision.line_end) == (9, 17)
