"""extract_facts: every extraction rule on small texts (pure, no I/O)."""

from __future__ import annotations

from tasks.extract import MentionMatcher, SourceRef, extract_facts, find_mentions

SOURCE = SourceRef(
    "a" * 64, "wiki/sources/2026-03-24T22-40-05Z__notes.md", "raw/x.md", "docs/notes.md"
)


def facts(text: str, original: str = "docs/notes.md"):
    return extract_facts(text, SourceRef("a" * 64, SOURCE.source_page, "raw/x.md", original))


def test_frontmatter_names_subject_type_aliases_tags_and_entities() -> None:
    result = facts(
        "---\nentity: SQLite\nentity_type: database\naliases: [sqlite3, SQLite 3]\n"
        "tags: [storage]\nentities:\n  Redis: cache\n---\n\nBody.\n"
    )
    assert result.subject is not None
    assert result.subject.ref.names == ("SQLite",)
    assert result.subject.ref.entity_type == "database"
    assert result.subject.aliases == ("sqlite3", "SQLite 3")
    assert result.subject.tags == ("storage",)
    assert [
        (r.source.display, r.relation_type, r.target.display, r.target.entity_type)
        for r in result.relations
    ] == [("SQLite", "mentions", "Redis", "cache")]


def test_observation_lines_keep_category_and_tags_with_line_numbers() -> None:
    text = "# Storage\n\n- [decision] Use WAL mode for SQLite #database\n- plain bullet\n"
    result = facts(text)
    assert [(o.text, o.line_start, o.line_end) for o in result.observations] == [
        ("[decision] Use WAL mode for SQLite #database", 3, 3)
    ]
    assert result.subject is not None and result.subject.ref.display == "Storage"


def test_a_ticked_task_box_is_no_observation_category() -> None:
    """`- [x] Backout plan tested` in a change request's CAB checklist is a checked item, not
    the observation `[x] ...` (heldout12's change request, a document of no genre)."""
    text = ("# CR-12: upgrade the historian\n\n## CAB checklist\n\n- [x] Backout plan tested\n"
            "- [X] Service desk informed\n- [risk] The upgrade needs a 20-minute outage\n")
    assert [o.text for o in facts(text).observations if o.kind == "line"] == [
        "[risk] The upgrade needs a 20-minute outage"]


def test_relation_lines_wiki_links_and_passive_forms() -> None:
    text = (
        "# Memory Service\n\n- depends_on [[Other Entity]]\n- depends on [[Disk]]\n"
        "- used_by [[Agent]]\n- guarded_by [[Lock]]\nSee [[Index|the index]] too.\n"
    )
    result = facts(text)
    relations = [(r.source.display, r.relation_type, r.target.display) for r in result.relations]
    assert relations == [
        ("Memory Service", "depends_on", "Other Entity"),
        ("Memory Service", "depends_on", "Disk"),
        ("Agent", "uses", "Memory Service"),
        ("Memory Service", "mentions", "Index"),
    ]
    # A passive type without a known active form is a candidate, never a graph relation.
    assert [(c.kind, c.term) for c in result.candidates if c.kind == "passive_relation"] == [
        ("passive_relation", "guarded_by Lock")
    ]


def test_non_meaningful_names_are_rejected() -> None:
    result = facts("# Notes\n\n- depends_on [[data]]\nSee [[ temp ]].\n")
    assert result.relations == []
    assert result.rejected_names == ["data", "temp"]


NYGARD = """# 4. DNS definitions for hosts

Date: 2017-07-14

## Status

Superseded by [DNS Infrastructure](0015-dns-infrastructure.md)

## Context

We need names.

## Decision

Each stack will have an internal zone.
These will be private.

## Consequences

None.
"""


def test_nygard_record_is_a_decision_entity_with_status_date_decision_and_supersession() -> None:
    result = facts(NYGARD, "adrs/0004-dns-definitions.md")
    assert result.is_decision_record and result.record_superseded
    assert result.subject is not None
    assert result.subject.ref.display == "DNS definitions for hosts"
    assert result.subject.ref.entity_type == "decision"
    assert result.record_key == "0004-dns-definitions"
    assert [(o.kind, o.text, o.line_start, o.line_end) for o in result.observations] == [
        ("status", "Status: Superseded by DNS Infrastructure", 7, 7),
        ("date", "Date: 2017-07-14", 3, 3),
        (
            "decision",
            "Decision: Each stack will have an internal zone. These will be private.",
            15,
            16,
        ),
    ]
    # Record links are resolved later against the log's records; no stub entity is named here.
    assert result.relations == []
    [link] = result.record_links
    assert (link.relation_type, link.incoming, link.stem, link.number, link.line) == (
        "supersedes", True, "0015-dns-infrastructure", 15, 7
    )


def test_madr_status_line_and_links_section() -> None:
    text = (
        "# Use the slug as ID\n\n- Status: accepted\n- Date: 2020-10-16\n\n## Context and Problem Statement\n\n"
        'IDs clash.\n\n## Decision Outcome\n\nChosen option: "slug", because\n\n- it is unique\n- it sorts\n\n'
        "## Links\n\n- Supersedes [Use the number as ID](20200926-use-the-number.md)\n"
        "- In part supersedes [0003](0003-networking.md)\n"
    )
    result = facts(text, "adr/20201016-use-the-slug.md")
    assert 'Decision: Chosen option: "slug", because it is unique; it sorts' in [
        o.text for o in result.observations
    ]
    assert "Status: accepted" in [o.text for o in result.observations]
    assert [(k.relation_type, k.incoming, k.stem, k.number) for k in result.record_links] == [
        ("supersedes", False, "20200926-use-the-number", None),
        ("partially_supersedes", False, "0003-networking", 3),
    ]
    assert not result.record_superseded


def test_madr_front_matter_status_superseded_by_a_link_links_the_record() -> None:
    """MADR 3/4 keep the status in front matter, its template writing `superseded by
    [ADR-0005](0005-example.md)`: the record is superseded by that record, on the status's line;
    a status with no link there links nothing from it."""
    text = ('---\nstatus: "superseded by [ADR-0019](0019-use-cockroach.md)"\ndate: 2024-05-06\n---\n'
            "# Use PostgreSQL for the ledger\n\n## Context and Problem Statement\n\nWe need a store.\n\n"
            '## Decision Outcome\n\nChosen option: "PostgreSQL", because we know it.\n')
    result = facts(text, "adr/0012-use-postgresql.md")
    assert result.record_superseded
    assert [(k.relation_type, k.incoming, k.stem, k.line) for k in result.record_links] == [
        ("supersedes", True, "0019-use-cockroach", 2)]
    plain = text.replace("[ADR-0019](0019-use-cockroach.md)", "ADR-0019")
    assert [(k.relation_type, k.incoming, k.stem) for k in facts(plain, "adr/0012-use-postgresql.md").record_links] \
        == [("supersedes", True, None)]


def test_partly_superseded_record_is_not_superseded_as_a_whole() -> None:
    text = (
        "# 3. Networking\n\n## Status\n\nPartly superseded\n\n## Context\n\nX.\n\n## Decision\n\n"
        "One VPC.\n\n**These ranges have been superseded by [ADR #0033](0033-ip-ranges.md).**\n"
    )
    result = facts(text, "adr/0003-networking.md")
    assert not result.record_superseded
    assert [(k.stem, k.relation_type, k.incoming) for k in result.record_links] == [
        ("0033-ip-ranges", "partially_supersedes", True)
    ]


def test_templates_record_nothing() -> None:
    text = "# [short title]\n\n- Status: [proposed | accepted]\n\n## Context\n\n[ctx]\n\n## Decision\n\n[what]\n"
    result = facts(text, "adr/template.md")
    assert result.subject is None and result.observations == [] and result.relations == []


def test_weaker_guesses_become_candidates_not_facts() -> None:
    text = (
        "# Notes\n\nWe moved to Amazon Aurora last year. Amazon Aurora is fast.\n"
        "Run `pg_dump` nightly; `pg_dump` needs a role.\nThe Thing happened.\n"
    )
    result = facts(text)
    terms = {(c.kind, c.term, c.count) for c in result.candidates}
    assert ("capitalized_phrase", "Amazon Aurora", 2) in terms
    assert ("code_term", "pg_dump", 2) in terms
    assert not any(c.term == "Thing" for c in result.candidates)
    assert result.relations == [] and result.observations == []


def test_code_blocks_are_not_read_as_facts() -> None:
    text = "# Notes\n\n```\n- [decision] not a fact\n- depends_on [[Nothing]]\n```\n"
    result = facts(text)
    assert result.observations == [] and result.relations == []


def test_mentions_match_word_boundaries_case_insensitively() -> None:
    matcher = MentionMatcher(
        {"Redis": "Redis", "Write-ahead log": "Write-ahead log", "pg": "PostgreSQL"}
    )
    prose = [
        (3, "We cache in REDIS, not Redisson."),
        (4, "The write-ahead  log is long."),
        (5, "pg"),
    ]
    assert find_mentions(prose, matcher) == {"Redis": 3, "Write-ahead log": 4}
    assert find_mentions([(1, "Redisson only")], matcher) == {}


def test_bracketed_markdown_links_and_code_spans_are_not_wiki_links() -> None:
    text = "# Notes\n\n- [fact] x\n\nSee [[1]](a.md#x) and [[2]](b.md) and `foo[[bar]]` and [[Real Thing]].\n"
    result = facts(text)
    assert [r.target.display for r in result.relations] == ["Real Thing"]


def test_code_spans_are_read_as_commonmark_reads_them() -> None:
    text = (
        "# Notes\n\n- [fact] x\n\n"
        "A span of two holds backticks: `` a`[[Hidden]]`b `` and [[Shown]].\n"
        "An unclosed run is text: `ruff`` is no code.\n"
        "But `uv_tool` is code, and ``pip`` too.\n"
        "An escaped backtick opens nothing: \\`[[Escaped]]` is linked.\n"
    )
    result = facts(text)
    assert [r.target.display for r in result.relations] == ["Shown", "Escaped"]
    assert [c.term for c in result.candidates if c.kind == "code_term"] == ["pip", "uv_tool"]
    assert (6, "An unclosed run is text: `ruff`` is no code.") in result.prose


def test_decision_record_references_inside_a_double_backtick_span_are_not_links() -> None:
    text = (
        "# 9. Queues\n\n## Status\n\nSuperseded by ``see `0005` here`` and [ADR-0007](0007-q.md)\n\n"
        "## Decision\n\nUse a queue.\n"
    )
    result = facts(text, "adr/0009-queues.md")
    assert [(k.stem, k.number) for k in result.record_links] == [("0007-q", 7)]


import pytest  # noqa: E402
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

PIECES = st.sampled_from(
    [
        "---\n",
        "title: x\n",
        "entity: [a\n",
        "# Title\n",
        "## Status\n",
        "## Decision\n",
        "## Context\n",
        "Superseded by [x](y.md)\n",
        "- [fact] thing #tag\n",
        "- depends_on [[Other]]\n",
        "```\n",
        "- Status: superseded by\n",
        "[[",
        "]]",
        "`code`",
        "Amazon Aurora ",
        "\n",
        ":::note Superseded\n",
    ]
)


# The session's Prefect test server thread also draws from `random`; not our strategies.
@pytest.mark.filterwarnings("ignore::hypothesis.errors.HypothesisDeprecationWarning")
@settings(max_examples=300, deadline=None)
@given(st.lists(PIECES | st.text(max_size=20), max_size=30))
def test_extraction_never_fails_and_lines_stay_in_range(parts: list[str]) -> None:
    text = "".join(parts)
    result = facts(text)
    last = max(len(text.replace("\r\n", "\n").split("\n")), 1)
    for observation in result.observations:
        assert 1 <= observation.line_start <= observation.line_end <= last
        assert observation.text.strip()


def reference_mentions(matcher: MentionMatcher, text: str) -> list[str]:
    """The plain algorithm: at each position try every name length, longest first."""
    from tasks.extract.mentions import _WORD_RE

    tokens = _WORD_RE.findall(text.lower())
    sizes = sorted({len(t) for t in matcher._by_tokens}, reverse=True)
    found, position = [], 0
    while position < len(tokens):
        step = 1
        for size in sizes:
            canonical = matcher._by_tokens.get(tuple(tokens[position : position + size]))
            if position + size <= len(tokens) and canonical is not None:
                found.append(canonical)
                step = size
                break
        position += step
    return found


WORDS = st.sampled_from(["redis", "cache", "write", "ahead", "log", "the", "postgres", "pg", "wal",
                         "mode", "Redis", "Write-Ahead", "-", " ", ", ", ".", "\n"])


@settings(max_examples=300, deadline=None)
@given(
    names=st.lists(st.lists(WORDS, min_size=1, max_size=4).map(" ".join), max_size=8),
    text=st.lists(WORDS, max_size=60).map(" ".join),
)
def test_mention_matcher_agrees_with_the_plain_algorithm(names: list[str], text: str) -> None:
    matcher = MentionMatcher({name: name.upper() for name in names})
    assert matcher.find(text) == reference_mentions(matcher, text)
