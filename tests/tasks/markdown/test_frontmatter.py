"""Front matter is found one way (tasks.markdown.frontmatter); mdit-py-plugins' front_matter
rule is the reference, python-frontmatter's split the form pages had before. Front matter as
people write it (`title: ADR004: Module Export Structure`) is read line by line when strict
YAML fails: the Backstage ADRs of the shared corpus come in with their titles."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from frontmatter.default_handlers import YAMLHandler
from hypothesis import given, settings
from hypothesis import strategies as st

from schemas.report import Problem
from tasks.distill.apply import distill_memory
from tasks.ingest import apply_ingest, collect_inputs, prepare_batch, source_frontmatter
from tasks.ingest.shard import frontmatter_lines, line_index
from tasks.markdown.frontmatter import body_after, find_front_matter, opens_front_matter, quote_plain_values
from tasks.markdown.parser import front_matter_parser
from tasks.store.errors import ContractError
from tasks.store.operation import writing_operation
from tasks.store.pages import split_page
from tasks.store.safe_yaml import YamlAliasError, load_yaml_quoting_plain_values
from tasks.store.settings import load_settings
from tests.conftest import CORPUS, FIXED_NOW
from tests.stored_sources import bootstrap


def reference(text: str) -> tuple[int, str] | None:
    """(lines taken, YAML text) by markdown-it's front_matter rule."""
    tokens = front_matter_parser().parse(text)
    if tokens and tokens[0].type == "front_matter" and tokens[0].map:
        return tokens[0].map[1], tokens[0].content
    return None


def ours(text: str) -> tuple[int, str] | None:
    block = find_front_matter(text)
    if block is None:
        return None
    yaml_text = block.yaml(text).replace("\r\n", "\n").replace("\r", "\n")
    return block.lines, yaml_text.removesuffix("\n")


# Lines where the two readings agree by design: no dash run longer than 3 and no indented
# `---` (markdown-it closes on those, see the module docstring and the two tests below).
LINE = st.sampled_from([
    "---", "--- ", "---\t", "...", "... ", " ...", "....", "a: 1", "b: [x, y]", "", "  ",
    "text", "# heading", "- item", "```", "--", "---x", "key: '---'", "  nested: 2",
])
FIRST = st.sampled_from(["---", "--- ", "---\t", "----", "---x", "text", "", " ---"])
BREAK = st.sampled_from(["\n", "\r\n", "\r"])


@settings(max_examples=400, deadline=None)
@given(FIRST, st.lists(LINE, max_size=12), BREAK, st.booleans())
def test_front_matter_agrees_with_markdown_it(
    first: str, lines: list[str], newline: str, final_break: bool
) -> None:
    text = newline.join([first, *lines]) + (newline if final_break else "")
    expected = reference(text)
    if first.rstrip(" \t") != "---":
        # markdown-it also opens on "----" and "---x": we require the `---` line.
        assert find_front_matter(text) is None
        return
    assert ours(text) == expected
    block = find_front_matter(text)
    if block is not None:
        assert frontmatter_lines(text, line_index(text)) == block.lines
        assert opens_front_matter(text)


def test_a_longer_dash_run_or_an_indented_dash_line_does_not_close() -> None:
    text = "---\ndescription: |\n   ---\n  ----\n---\nbody\n"
    block = find_front_matter(text)
    assert block is not None and block.lines == 5
    assert block.yaml(text) == "description: |\n   ---\n  ----\n"
    assert reference(text) == (3, "description: |")  # markdown-it stops inside the scalar


def test_yaml_document_end_closes_and_end_bounds_the_search() -> None:
    text = "---\ntitle: x\n...\n\n\n  body\n"
    block = find_front_matter(text)
    assert block is not None and block.lines == 3
    assert body_after(text, block) == "  body\n"
    assert find_front_matter(text, end=10) is None
    assert find_front_matter("---\ntitle: x\n") is None
    assert opens_front_matter("---\ntitle: x\n")


_PYTHON_FRONTMATTER = YAMLHandler()
PAGE_LINE = st.sampled_from(["title: x", "n: 1", "", "   ", "body", "  indented", "## h", "\u00a0"])


@settings(max_examples=300, deadline=None)
@given(st.lists(PAGE_LINE, max_size=5), st.lists(PAGE_LINE, max_size=6), BREAK.filter(lambda b: b != "\r"))
def test_page_split_is_python_frontmatters_for_pages_closed_by_dashes(
    meta_lines: list[str], body_lines: list[str], newline: str
) -> None:
    text = newline.join(["---", *meta_lines, "---", *body_lines])
    yaml_text, body = _PYTHON_FRONTMATTER.split(text)
    block = find_front_matter(text)
    assert block is not None
    assert body_after(text, block) == body.lstrip("\n")
    assert block.yaml(text).strip() == yaml_text.strip()


def test_unclosed_front_matter_is_a_malformed_page() -> None:
    with pytest.raises(ContractError, match="never closed"):
        split_page("---\ntitle: x\nbody\n", file="wiki/x.md")
    assert split_page("----\ntitle: x\n").meta == {}
    page = split_page("---\r\ntitle: x\r\n...\r\n\r\nbody\r\n")
    assert (page.meta, page.body) == ({"title": "x"}, "body\r\n")


# ------------------------------------------------------------------ front matter as people write it


def test_a_plain_value_yaml_cannot_read_is_quoted_and_named() -> None:
    text = ("id: adrs-adr004\r\ntitle: ADR004: Module Export Structure\r\n# prettier-ignore\r\n"
            "note: it's \"done\": mostly\r\nn: 1.10\r\ntags: [a, b]\r\n")
    repaired, quoted = quote_plain_values(text)
    assert [(q.line, q.key, q.value) for q in quoted] == [
        (1, "title", "ADR004: Module Export Structure"), (3, "note", 'it\'s "done": mostly')]
    assert quoted[1].fix() == "note: 'it''s \"done\": mostly'"
    assert yaml.safe_load(quoted[1].fix()) == {"note": 'it\'s "done": mostly'}  # the fix is the value
    assert repaired.count("\r\n") == 6  # line ends kept
    assert yaml.safe_load(repaired) == {"id": "adrs-adr004", "title": "ADR004: Module Export Structure",
                                        "note": 'it\'s "done": mostly', "n": 1.1, "tags": ["a", "b"]}


@pytest.mark.parametrize("line", [
    "title: 'ADR: quoted' and more", "title: [a: b", "title: {a: b: c}", "title: *alias: x",
    "title: &anchor a: b", "title: !tag a: b", "title: | a: b", "  title: a: b", "- title: a: b",
])
def test_values_that_open_a_structure_or_indented_lines_are_left_as_written(line: str) -> None:
    assert quote_plain_values(line) == (line, [])


def test_strict_yaml_first_then_the_line_reading_then_the_strict_error() -> None:
    assert load_yaml_quoting_plain_values("title: 1.10\n")[2] == []  # strict YAML read it
    data, layout, quoted = load_yaml_quoting_plain_values("title: a: b\nlist:\n  - x\n  - y\n")
    assert data == {"title": "a: b", "list": ["x", "y"]} and layout.lines == {"title": 0, "list": 1}
    assert [q.line for q in quoted] == [0]
    with pytest.raises(yaml.YAMLError, match="mapping values are not allowed"):
        load_yaml_quoting_plain_values("title: a: b\nnested:\n  - x: y: z\n")  # too complex
    with pytest.raises(YamlAliasError):
        load_yaml_quoting_plain_values("base: &b x\ntitle: a: b\nother: *b\n")  # aliases stay refused


def test_a_source_keeps_its_fields_with_a_warning_naming_the_line_and_the_fix() -> None:
    warnings: list[Problem] = []
    meta = source_frontmatter("---\nid: x\ntitle: ADR004: Module Export Structure\nversion: 1.10\n---\n",
                              "adr.md", warnings)
    assert meta == {"id": "x", "title": "ADR004: Module Export Structure", "version": 1.1}
    [warning] = warnings
    assert warning.code == "unquoted_frontmatter_value" and "front matter line 3" in warning.message
    assert warning.hint == "quote the value: title: 'ADR004: Module Export Structure'"
    assert source_frontmatter("---\ntitle: 1.10\n---\n", "v.md") == {"title": "1.10"}
    broken = source_frontmatter("---\ntitle: a: b\ntags:\n  - [x\n---\n", "b.md", warnings)
    assert isinstance(broken, Problem) and broken.code == "malformed_frontmatter"  # as before


# Every record of the Backstage log whose front matter strict YAML refuses (an unquoted ': ' in
# the title), with the title it states; they state no status and no date
# (tests/tasks/distill/test_corpus.py labels them so).
BACKSTAGE_UNQUOTED = {
    "adr002-default-catalog-file-format": "ADR002: Default Software Catalog File Format",
    "adr004-module-export-structure": "ADR004: Module Export Structure",
    "adr005-catalog-core-entities": "ADR005: Catalog Core Entities",
    "adr006-avoid-react-fc": "ADR006: Avoid React.FC and React.SFC",
    "adr010-luxon-date-library": "ADR010: Use the Luxon Date Library",
    "adr012-catalog-importer-editable-kind-and-type": "ADR012: Catalog importer editable kind and type",
}
# One record in the same style that states a status and a date in its front matter.
OWN_RECORD = ("---\nid: adrs-adr016\ntitle: ADR016: Use SQLite FTS5 for search\nstatus: accepted\n"
              "date: 2024-05-02\n---\n\n## Context\n\nSearch needs a ranked full-text index that ships "
              "with Python.\n\n## Decision\n\nWe will use SQLite FTS5 with BM25 ranking.\n")


def test_backstage_adrs_come_in_with_their_titles_statuses_and_dates(tmp_path: Path) -> None:
    root = tmp_path / ".memories"
    bootstrap(root, FIXED_NOW)
    own = tmp_path / "adr016-use-sqlite-fts5.md"
    own.write_text(OWN_RECORD, encoding="utf-8")
    settings = load_settings(root, fixed_clock=FIXED_NOW)
    inputs, missing = collect_inputs([*(CORPUS / "backstage-adrs" / f"{stem}.md" for stem in BACKSTAGE_UNQUOTED),
                                      own])
    assert missing == []
    with writing_operation(settings, "ingest") as operation:
        report = apply_ingest(operation, prepare_batch(inputs, settings))
    titles = {**BACKSTAGE_UNQUOTED, own.stem: "ADR016: Use SQLite FTS5 for search"}
    assert sorted((Path(p.file).stem, p.code) for p in report.problems) == sorted(
        (stem, "unquoted_frontmatter_value") for stem in titles)
    assert all("front matter line 3" in p.message and p.hint == f"quote the value: title: '{titles[Path(p.file).stem]}'"
               for p in report.problems)
    pages = {page.name.split("__", 1)[1].removesuffix(".md"): split_page(page.read_text(encoding="utf-8")).meta
             for page in (root / "wiki/sources").glob("*__*.md")}
    assert {stem: meta["title"] for stem, meta in pages.items()} == titles

    with writing_operation(settings, "distill") as operation:
        assert distill_memory(operation).status == "success"
    graph = json.loads((root / "context/knowledge-graph.index.jsonc").read_text(encoding="utf-8"))
    decisions = {e["entityName"]: e for e in graph["entities"] if e["entityType"] == "decision"}
    assert set(decisions) == set(titles.values())
    for title, entity in decisions.items():
        stated = sorted(o for o in entity["observations"] if o.startswith(("Status: ", "Date: ")))
        assert stated == (["Date: 2024-05-02", "Status: accepted"] if title.startswith("ADR016") else []), title
        assert any(o.startswith("Decision: ") for o in entity["observations"]), title
    cited = {p["observation"]: (p["lineStart"], p["lineEnd"])
             for p in decisions["ADR016: Use SQLite FTS5 for search"]["observationProvenance"]}
    assert cited["Status: accepted"] == (4, 4) and cited["Date: 2024-05-02"] == (5, 5)  # their own lines
