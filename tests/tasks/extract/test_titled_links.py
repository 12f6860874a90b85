"""Pages cited by the words of their title and the noun a team calls them by, without a link
(tasks/extract/titled_links.py), and how distill resolves such a phrase (record_graph)."""

from __future__ import annotations

from schemas.graph import RegistryEntry
from tasks.distill.record_graph import RecordIndex
from tasks.extract.record_links import BY_TITLE, BY_WORDS, RecordLink
from tasks.extract.structure import scan
from tasks.extract.titled_links import kind_allows, label_phrase, title_words, titled_links

PAGE = """# Weekly platform sync

Ana walked through the token bucket proposal; the Kafka retention runbook needs step 3 updated.
The six-pager *Regional Failover* is out for comment, and "see our Search v2 doc" says Bo.
The new design is still open, the runbook template moves, and the Platform design review meets Friday.
See the [rate limiter design](../design/rate-limiter.md) and `the cache design`.

## The token bucket proposal

| Item | the billing runbook |
"""


def _phrases(text: str) -> list[str]:
    return [link.text for link in titled_links(scan(text.splitlines(), 1))]


def test_a_page_named_by_its_title_words_and_kind_is_a_reference_by_words() -> None:
    links = titled_links(scan(PAGE.splitlines(), 1))
    assert all(link.folder == BY_WORDS and link.relation_type == "relates_to" for link in links)
    assert [link.text for link in links] == [
        "token bucket | proposal", "kafka retention | runbook", "regional failover | six-pager",
        "search v2 | doc"]
    assert [link.line for link in links] == [3, 3, 4, 4]


def test_words_of_time_a_compound_noun_a_link_a_heading_a_table_name_no_title() -> None:
    # "the new design", "the runbook template", "the Platform design review", a link's own text,
    # a code span, the heading and the table row above: no reference by words
    phrases = _phrases(PAGE)
    assert not any(word in phrase for phrase in phrases for word in ("new", "template", "platform",
                                                                      "rate", "cache", "billing"))
    assert title_words("The new Stand-in Balance v2") == ("stand-in", "balance", "v2")


def test_a_noun_allows_the_kinds_of_page_it_calls() -> None:
    assert kind_allows("runbook", "runbook") and not kind_allows("runbook", "incident")
    assert kind_allows("proposal", "document") and not kind_allows("postmortem", "proposal")
    assert kind_allows("doc", "meeting")  # "the X doc": any page


def _entry(title: str, kind: str) -> RegistryEntry:
    return RegistryEntry(canonicalName=title, entityType=kind, recordKey=title.lower().replace(" ", "-")[:20])


def test_the_one_page_whose_title_holds_every_word_and_fits_the_noun_is_the_target() -> None:
    failover = _entry("Regional Failover: catalog in two regions", "proposal")
    runbook = _entry("Kafka: retention and lag alerts", "runbook")
    review = _entry("Kafka retention incident review", "incident")
    index = RecordIndex.build([failover, runbook, review])

    def resolve(phrase: str) -> RegistryEntry | None:
        return index.resolve(RecordLink("relates_to", False, phrase, None, None, 1, phrase, BY_WORDS), "docs")

    assert resolve("regional failover | six-pager") is failover
    assert resolve("kafka retention | runbook") is runbook  # the incident has the words, not the kind
    assert resolve("kafka retention | doc") is None  # two pages hold the words: no guess
    assert resolve("kafka mirror | runbook") is None  # a word no title holds


def test_a_clause_across_a_sentences_end_or_with_a_verb_is_no_title() -> None:
    assert _phrases("# Bus\n\nThis page is outdated. The current design is in the wiki.\n") == []
    assert _phrases("# Bus\n\nWe said that the queue was the design we wanted.\n") == []
    assert _phrases("# Bus\n\nSee the Event Bus v2.1 design for details.\n") == ["event bus v2 1 | design"]  # both sides read "v2.1" alike


def test_a_link_to_a_page_kept_elsewhere_names_it_by_its_title() -> None:
    """A wiki page or a shared doc linked by URL ("[Payments Runbook](https://wiki.example.com/
    display/ENG/Payments+Runbook)", "[rate limiter design doc](https://docs.google.com/...)"):
    the memory's copy of it is found by its title, or by the title words and kind of its text."""
    from tests.extraction import extract

    text = ("# Platform sync, 10 March 2026\n\n## Notes\n\n"
            "- Ana shared the [Payments Runbook](https://wiki.example.com/display/ENG/Payments+Runbook).\n"
            "- The [rate limiter design doc](https://docs.google.com/document/d/1AbC/edit) is out.\n"
            "- See [here](https://example.com/x), [RFC 19](https://github.com/o/r/pull/19) and "
            "[Kafka](https://kafka.apache.org).\n\n## Decisions\n\n- Ship the limiter in April.\n")
    titled = [(link.text, link.folder) for link in extract(text, "docs/minutes/sync.md").record_links
              if link.folder in (BY_TITLE, BY_WORDS)]
    assert titled == [("Payments Runbook", BY_TITLE), ("rate limiter design doc", BY_TITLE)]
    assert label_phrase("rate limiter design doc") == "rate limiter | design doc"
    assert label_phrase("Payments Runbook") == "payments | runbook" and label_phrase("the review is done") is None


def test_a_title_link_resolves_by_the_whole_title_then_by_its_words_and_kind() -> None:
    runbook = _entry("Payments Runbook", "runbook")
    design = _entry("Design: Rate limiter for the public API", "proposal")
    index = RecordIndex.build([runbook, design])

    def resolve(text: str) -> RegistryEntry | None:
        return index.resolve(RecordLink("relates_to", False, text, None, None, 1, text, BY_TITLE), "docs")

    assert resolve("Payments Runbook") is runbook
    assert resolve("rate limiter design doc") is design
    assert resolve("rate limiter runbook") is None  # the words are a design's, the noun a runbook's
