"""How `membank forget` finds a topic: whole words of content, never substrings of paths.

spec/memory-custodian.md (Forgetting 3): a topic is matched in what a page or a record says.
`forget WAL` must find "WAL mode" and "wal-mode" as words, and must not find "wal" inside
"walrus" nor in a `derived_from` path such as `raw/...__adr-0007-wal-mode.md`: a path names a
file, it does not state the topic. So the text is matched after its paths are taken out (link
targets, tokens with a slash, file names with an extension), case-insensitively, on word
boundaries, with any run of white space between the words of a topic. Pure functions: no I/O.
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import PurePosixPath

# A markdown link or image target: `](target)` keeps its text, loses its target.
_LINK_TARGET = re.compile(r"\]\([^)\s]*(?:\s+\"[^\"]*\")?\)")
# A token that is a path: it holds a slash or a backslash, or ends in a file extension
# (optionally with an anchor), as `adr-0007-wal-mode.md#context` does.
_PATH_TOKEN = re.compile(
    r"[^\s\"'`<>()\[\]]*[/\\][^\s\"'`<>()\[\]]*"
    r"|[^\s\"'`<>()\[\]]+\.(?:md|markdown|jsonc?|jsonl|txt|ya?ml|html?|pdf|csv|db|py|rst)"
    r"(?:#[^\s\"'`<>()\[\]]*)?(?![\w.])",
    re.IGNORECASE)
# Short topics match too much (spec: "use --allow-broad-match for short topics").
BROAD_TOPIC_CHARS = 5


def without_paths(text: str) -> str:
    """`text` with link targets and path tokens replaced by a space."""
    return _PATH_TOKEN.sub(" ", _LINK_TARGET.sub("] ", text))


@lru_cache(maxsize=64)
def topic_pattern(topic: str) -> re.Pattern[str]:
    """The topic's words, in order, on word boundaries, any white space between them."""
    words = topic.split()
    body = r"\s+".join(re.escape(word) for word in words)
    return re.compile(rf"(?<!\w){body}(?!\w)", re.IGNORECASE)


def mentions(topics: tuple[str, ...], text: str) -> bool:
    """Does the content of `text` (its paths left out) name one of the topics as words?"""
    if not topics or not text:
        return False
    folded = text.casefold()
    if not any(word.casefold() in folded for topic in topics for word in topic.split()[:1]):
        return False  # the common case: not even the first word's letters are there
    content = without_paths(text)
    return any(topic_pattern(topic).search(content) for topic in topics)


def name_words(rel: str) -> str:
    """The words of a file's name: `wiki/x/2026-..Z__adr-0007-wal-mode.md` -> "adr 0007 wal
    mode" (the UTC prefix and the folders are not its name)."""
    stem = PurePosixPath(rel).stem
    stem = stem.split("__", 1)[1] if "__" in stem else stem
    return re.sub(r"[-_.]+", " ", stem)


def named_after(topics: tuple[str, ...], rel: str) -> bool:
    """Is the file named after one of the topics (the topic's words in its name)?"""
    words = name_words(rel)
    return any(topic_pattern(" ".join(re.split(r"[-_\s]+", topic))).search(words)
               for topic in topics if topic.strip())


def is_broad(topic: str) -> bool:
    """A topic short enough to match more than the user means (`WAL`, `API`)."""
    return len(topic.strip()) < BROAD_TOPIC_CHARS
