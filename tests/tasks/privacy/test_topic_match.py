"""The topic matcher of forget: whole words of content, never substrings of paths."""

from __future__ import annotations

import pytest

from tasks.privacy.topic_match import is_broad, mentions, named_after, without_paths


@pytest.mark.parametrize(("text", "found"), [
    ("Open the store in WAL mode.", True),
    ("wal-mode since ADR 0007", True),  # a hyphen is a word edge
    ("- [fact] The walrus is not a log", False),
    ("derived_from:\n- raw/2026-12-01T12-00-00Z__adr-0007-wal-mode.md", False),
    ("See [ADR 0007](../sources/2026__adr-0007-wal-mode.md).", False),
    ("See [the WAL decision](../sources/2026__adr-0007-wal-mode.md).", True),
    ('{"sourcePage": "wiki/sources/x__wal-notes.md", "observation": "fast reads"}', False),
    ("ingested from /home/me/docs/wal-guide.md", False),
    ("adr-0007-wal-mode.md#context", False),
])
def test_a_topic_is_a_word_of_content_not_a_piece_of_a_path(text: str, found: bool) -> None:
    assert mentions(("WAL",), text) is found


def test_words_of_a_topic_match_across_any_white_space() -> None:
    topics = ("lock-timeout alert",)
    assert mentions(topics, "the LOCK-TIMEOUT\n  alert fired")
    assert not mentions(topics, "the lock-timeout alerts fired")  # another word
    assert not mentions(topics, "lock timeout alert")  # the hyphen is part of the topic


def test_link_text_stays_content_and_link_targets_go() -> None:
    assert without_paths("[WAL](x/y.md) and c.md") == "[WAL]  and  "


def test_a_file_is_named_after_a_topic_by_the_words_of_its_name() -> None:
    assert named_after(("WAL",), "wiki/entities/2026-12-01T12-00-00Z__wal.md")
    assert named_after(("lock-timeout alert",), "raw/2026__lock-timeout-alert-runbook.md")
    assert not named_after(("WAL",), "wiki/entities/2026-12-01T12-00-00Z__walrus-team.md")
    assert not named_after(("wiki",), "wiki/entities/2026__platform-team.md")  # folders are no name


def test_short_topics_are_broad() -> None:
    assert is_broad("WAL") and is_broad(" API ") and not is_broad("Redis") and not is_broad("lock timeout")
