"""Resolver.mention_matcher given the texts it will search: the matcher over the entries whose
names start with a word of those texts finds what the matcher over every name finds."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from schemas.distill_inbox import TombstoneList
from schemas.graph import EntityRegistry
from tasks.distill.resolve import Forgotten, Resolver
from tasks.extract import SUBJECT_DOCUMENT_TYPE, MentionMatcher, find_mentions, mention_lines

NOW = "2026-03-24T22:40:05Z"
PIECES = ["redis", "Cache", "write", "ahead", "log", "the", "postgres", "pg", "WAL", "mode",
          "Write-Ahead", "Ünïcode", "node.js", "-", ", ", "(", "2"]
NAMES = st.lists(st.sampled_from(PIECES), min_size=1, max_size=4).map(" ".join)
CANONICAL = st.sampled_from(["Redis", "Redis Cache", "Write-Ahead Log", "Postgres", "PG Mode",
                             "The WAL", "Node.js", "Ünïcode Log", "Cache"])
ENTRY = st.fixed_dictionaries({
    "canonicalName": CANONICAL,
    "aliases": st.lists(NAMES, max_size=3),
    "entityType": st.sampled_from(["service", "technology", SUBJECT_DOCUMENT_TYPE]),
    "recordKey": st.one_of(st.none(), NAMES),
})


def resolver(entries: list[dict[str, object]], forgotten: str | None) -> Resolver:
    registry = EntityRegistry.model_validate({"registryGeneratedAtUtc": NOW, "entries": entries})
    tombstones = [] if forgotten is None else [
        {"topic": forgotten, "reason": "r", "tombstonedAtUtc": NOW}]
    return Resolver(registry, Forgotten(TombstoneList.model_validate({"tombstones": tombstones})))


@settings(max_examples=300, deadline=None)
@given(entries=st.lists(ENTRY, max_size=10),
       texts=st.lists(st.lists(st.sampled_from([*PIECES, " ", "\n"]), max_size=40).map(" ".join),
                      max_size=3),
       forgotten=st.one_of(st.none(), CANONICAL))
def test_matcher_for_the_texts_finds_what_the_whole_matcher_finds(
        entries: list[dict[str, object]], texts: list[str], forgotten: str | None) -> None:
    names = resolver(entries, forgotten)
    whole, narrow = names.mention_matcher(), names.mention_matcher(iter(texts))
    for text in texts:
        assert narrow.find(text) == whole.find(text)
    prose = list(enumerate(texts, start=1))
    assert find_mentions(prose, narrow) == find_mentions(prose, whole)


def test_only_the_entries_a_text_can_name_are_tokenized() -> None:
    names = resolver([{"canonicalName": "Redis Cache", "entityType": "service"},
                      {"canonicalName": "Postgres", "aliases": ["pg main"], "entityType": "service"},
                      {"canonicalName": "Kafka", "entityType": "service"}], None)
    matcher = names.mention_matcher(["We moved the PG main database; redis stays."])
    assert matcher.find("We moved the PG main database; redis stays.") == ["Postgres"]
    assert sorted(names._starting_with({"pg", "redis", "we"})) == ["postgres", "redis cache"]
    assert not names.mention_matcher([])


def test_mention_lines_are_the_distinct_lines_a_name_is_written_on() -> None:
    matcher = MentionMatcher({"Kafka": "Kafka", "Redis": "Redis"})
    prose = [(3, "Kafka and Kafka again"), (5, "then Redis"), (9, "Kafka once more")]
    assert mention_lines(prose, matcher) == {"Kafka": [3, 9], "Redis": [5]}


def test_new_mention_names_are_the_names_the_registry_did_not_hold() -> None:
    names = resolver([{"canonicalName": "Redis Cache", "aliases": ["rc"], "entityType": "service"}],
                     None)
    names.register("Redis Cache", "service", ["Redis L2"])  # again: only its new alias is new
    names.register("Kafka", "service", ["Redis Cache"])  # a name held by another: not an alias
    assert names.renewed == {"redis cache"}
    assert names.new_mention_names() == {"Kafka": "Kafka", "Redis L2": "Redis Cache"}
    names.register("Kafka", "service")  # registered twice in one run: still new
    assert names.renewed == {"redis cache"}
    assert "Kafka" in names.new_mention_names()


def test_a_team_registered_by_its_name_is_found_as_the_name_and_team() -> None:
    """A header's "Team | Farm Data Platform" and prose's "the Farm Data Platform team" are one
    team; a name that already says it is a group takes no "team", nor does any other kind."""
    names = resolver([], None)
    team = names.register("Farm Data Platform", "team")
    assert names.find("Farm Data Platform team") is team and team.aliases == ["Farm Data Platform team"]
    assert names.register("Payments squad", "team").aliases == []
    assert names.register("FieldLink", "system").aliases == []
    assert names.find("FieldLink team") is None
