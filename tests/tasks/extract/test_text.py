"""plain_text's and wikilink_targets' fast paths (a regex pass only when its first characters occur) against the
reference that runs every pass on every text."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tasks.extract import links, text
from tasks.extract.text import joined_lines, plain_text, well_formed_subject
from tasks.markdown.code_spans import code_spans


def reference_plain_text(value: str) -> str:
    value = links._MD_IMAGE_RE.sub("", value)
    value = links.INLINE_LINK_RE.sub(lambda m: m.group(2), value)
    value = links._REFERENCE_LINK_RE.sub(lambda m: m.group(1), value)  # issue 23
    value = links._WIKILINK_RE.sub(lambda m: m.group(1).strip(), value)
    value = text._EMPHASIS_RE.sub(lambda m: m.group(2), value)
    # `*emphasis*`, tags and comments go outside code spans only (`cupsenable <printer>` is a
    # command, `ls *.md *.txt` keeps its globs)
    def outside(part: str) -> str:
        return text.strip_tags(text._SINGLE_EMPHASIS_RE.sub(r"\1", part))

    kept, position = [], 0
    for span in code_spans(value):
        kept += [outside(value[position:span.start]), value[span.start:span.end]]
        position = span.end
    value = "".join([*kept, outside(value[position:])])
    return " ".join(value.split())


MARKUP = st.sampled_from(
    ["[", "]", "(", ")", "!", "*", "_", "<", ">", "!--", "-->", "/", "a", "B", " ", "\n", "|",
     "#", "[[x]]", "**b**", "__u__", "[t](u.md)", "![i](p.png)", "<b>", "<!-- c -->", "`"]
)


@pytest.mark.filterwarnings("ignore::hypothesis.errors.HypothesisDeprecationWarning")
@settings(max_examples=1000, deadline=None)
@given(st.lists(MARKUP | st.text(max_size=5), max_size=25))
def test_plain_text_and_wikilinks_equal_the_reference(parts: list[str]) -> None:
    value = "".join(parts)
    assert plain_text(value) == reference_plain_text(value)
    assert links.wikilink_targets(value) == [
        t for t in links._WIKILINK_RE.findall(value) if t.strip().lower() not in links._MACROS]


def test_single_emphasis_is_dropped_but_not_a_glob_or_a_product() -> None:
    assert plain_text("unless the patron has *Keep my reading history* on") == (
        "unless the patron has Keep my reading history on")
    assert plain_text("views `rpt_loans_*` and rpt_*, 2 * 3 * 4") == "views `rpt_loans_*` and rpt_*, 2 * 3 * 4"
    assert plain_text("run `ls *.md *.txt` now, *really*") == "run `ls *.md *.txt` now, really"


def test_a_wikis_table_of_contents_macro_is_no_link() -> None:
    # GitLab and Azure DevOps write `[[_TOC_]]` under a runbook's title; it made an entity "_TOC_"
    line = "[[_TOC_]] [[TOC]] [[_TOSP_]] see [[Queue Service]]"
    assert links.wikilink_targets(line) == ["Queue Service"]
    assert links.links_as_text(line) == "   see Queue Service"


@pytest.mark.parametrize(
    ("written", "plain"),
    [
        ("Use **[Postgres](https://x)** and [[SQLite|sqlite]] <b>now</b> ![logo](l.png)",
         "Use Postgres and SQLite now"),
        ("*[*](u)*x** stays", "*x stays"),  # a link's text that makes "**" is then emphasis
        ("no markup at   all ", "no markup at all"),
        ("pause it with `alter_job(<job_id>)` <i>now</i>", "pause it with `alter_job(<job_id>)` now"),
    ],
)
def test_plain_text(written: str, plain: str) -> None:
    assert plain_text(written) == plain


@pytest.mark.parametrize("name", ["Kafka", "orders-kafka", "@hokafor", ".NET", "C++", "F#",
                                  "Amazon OpenSearch Service", "Route 53", "pgx (v5)"])
def test_well_formed_subjects(name: str) -> None:
    assert well_formed_subject(name)


@pytest.mark.parametrize("name", ["route-planner, picker-api", "Discussions -", "NULL", "TBD",
                                  "orders-kafka brokers out disk", "cache because it", "- Kafka", ""])
def test_lists_labels_literals_and_clauses_are_not_names(name: str) -> None:
    assert not well_formed_subject(name)


def test_a_bold_lead_in_line_is_joined_to_its_text_by_a_colon() -> None:
    # PostHog's "What went well?": "✅ **Data integrity remained intact**" over its text
    assert joined_lines(["✅ **Data integrity remained intact**", "We preserved all events."]) == (
        "✅ **Data integrity remained intact**: We preserved all events.")
    assert joined_lines(["**Deeper monitoring**", "We plan to add alerts."]) == (
        "**Deeper monitoring**: We plan to add alerts.")
    # a bold phrase that ends in punctuation, runs on, or has text beside it is no lead-in
    assert joined_lines(["**Note:**", "Read it."]) == "**Note:** Read it."
    assert joined_lines(["**Deeper monitoring**", "and alerts."]) == "**Deeper monitoring** and alerts."
    assert joined_lines(["We **must** keep", "Two copies."]) == "We **must** keep Two copies."


# word_places against the pattern it stands for, `(?<![\w-])word(?![\w-])(after)?`, on drawn
# texts of the word's own pieces, the characters beside it and the `after` patterns' text.
_PIECES = ["Ops", "Ops team", "ops", " teams", " squad", "-", "_", ":", "::", " ", "\t", "é", "1", "x", "\n"]
_AFTERS = [r"\s+(?:teams?|squads?|guilds?)\b", r":{0,2}", r"s", r"[ \t]+[a-z]+", r"\s+\w+"]


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(_PIECES), max_size=14), st.sampled_from(["Ops", "Ops team", "O", "s"]),
       st.sampled_from(_AFTERS))
def test_word_places_finds_what_the_pattern_finds(pieces: list[str], word: str, after: str) -> None:
    import re

    value = "".join(pieces)
    pattern = re.compile(rf"(?<![\w-]){re.escape(word)}(?![\w-])({after})?")
    expected = [(m.start(), m.group(1)) for m in pattern.finditer(value)]
    found = [m.group() if m else None for m in text.word_places(value, word, re.compile(after))]
    assert found == [written for _, written in expected]


def test_word_places_refuses_an_empty_word() -> None:
    import re

    with pytest.raises(ValueError, match="empty word"):
        list(text.word_places("any text", "", re.compile("x")))


def test_word_places_looks_on_behind_what_follows_a_place() -> None:
    import re

    # the pattern's next match opens behind the whole match: "Ops" inside " Ops" is no place
    assert [m.group() if m else None for m in text.word_places("Ops Ops, Ops-x Ops", "Ops", re.compile(r"\s+\w+"))
            ] == [" Ops", None]
    assert [m.group() for m in text.word_places("Web: Web:: Web", "Web", re.compile(r":{0,2}")) if m] == [":", "::", ""]
