"""Ordinary English words (issue 23 item 4, subject precision): a lower-case term made only of
dictionary words ("error", "batch job", "force-merge") names a kind of thing far more often
than one system, so it becomes a subject only on structural evidence (tasks/extract/genre_subjects.py).

The words are the `english-words` package's GCIDE dictionary (GNU's Collaborative International
Dictionary: Webster's 1913 and WordNet, 114k words, lower case, letters only; its Webster's Second
list is twice the size, slower to load and as old), plus the few computing words both predate
("upload", "backend", "timeout", "api"). It holds no product name written in lower case ("ceph",
"etcd", "kubectl", "patroni"), which is what the check is for. Loaded once, on first use (about
0.1 s), so only a distill that meets a lower-case term pays for it.

`common_word` says how often a word is written: wordfreq's small English list (the 29k words
written more than once per million words of its mixed corpus: web, subtitles, news, books,
Wikipedia), its Zipf scale (log10 of uses per billion words). "access", "observation",
"payment", "ready" are common (4 or more); the products named by a plain word are rarer
("kestrel", "hydra", "atlas", "conveyor", "unleash": below 4). Read once, on first use, from
the list's file (about 0.015 s; see common_words). Pure.
"""

from __future__ import annotations

import math
from functools import cache


@cache
def _dictionary() -> frozenset[str]:
    from english_words import get_english_words_set  # loaded only when a distill needs it

    return frozenset(get_english_words_set(["gcide"], alpha=True, lower=True)) | _COMPUTING_WORDS


# Common nouns of computing newer than the dictionary, and generic acronyms ("API node").
_COMPUTING_WORDS = frozenset(
    """upload download login logout backend frontend email website online offline workflow
    rollout rollback failover webhook timeout dashboard endpoint runtime changelog username
    api apis sdk sdks cli ui db vm vms""".split())


def ordinary_word(word: str) -> bool:
    """Is `word` (any case) an English dictionary word, or the plural of one ("uploads",
    "batches", "proxies")?"""
    lower = word.lower()
    if not lower.isalpha():
        return False
    words = _dictionary()
    if lower in words:
        return True
    if lower.endswith("ies") and lower[:-3] + "y" in words:
        return True
    if lower.endswith("es") and lower[:-2] in words:
        return True
    return lower.endswith("s") and lower[:-1] in words


def ordinary_words(term: str) -> bool:
    """Is every word of a term (spaces and hyphens between them) an ordinary English word
    ("product service", "force-merge"; not "ceph-csi", not "kube-dns")?"""
    words = term.replace("-", " ").split()
    return bool(words) and all(ordinary_word(word) for word in words)


# Zipf frequency (log10 of uses per billion words) from which a word is a common one.
COMMON_ZIPF = 4.0


@cache
def common_words() -> frozenset[str]:
    """The English words of wordfreq's small list written at least COMMON_ZIPF (Zipf) often.

    Read from the list's file (wordfreq's documented "cB" msgpack: a header, then the words of
    each centibel, 0 cB first, so bucket i holds words at Zipf 9 - i/100): importing wordfreq
    itself loads ftfy, langcodes and regex, 0.3 s of every distill's start. Another format
    falls back to wordfreq's own reader (tests hold the two to the same words)."""
    data = _cb_buckets()
    if data is None:
        return _common_by_wordfreq()
    last = round((9 - COMMON_ZIPF) * 100)
    return frozenset(word for bucket in data[: last + 1] for word in bucket)


def _cb_buckets() -> list[list[str]] | None:
    import gzip
    from importlib.util import find_spec
    from pathlib import Path

    import msgpack  # wordfreq's own dependency

    spec = find_spec("wordfreq")  # where the package is, without importing it
    folders = list(spec.submodule_search_locations or []) if spec else []
    try:
        packed = (Path(folders[0]) / "data" / "small_en.msgpack.gz").read_bytes()
        data = msgpack.unpackb(gzip.decompress(packed), raw=False)
    except (IndexError, OSError, ValueError, msgpack.ExtraData):
        return None
    if not isinstance(data, list) or not data or data[0] != {"format": "cB", "version": 1}:
        return None
    return data[1:]


def _common_by_wordfreq() -> frozenset[str]:
    from wordfreq import get_frequency_dict

    return frozenset(word for word, frequency in get_frequency_dict("en", "small").items()
                     if math.log10(frequency * 1e9) >= COMMON_ZIPF)


def common_word(word: str) -> bool:
    """Is `word` (any case) a common English word, or the plural of one: written at least ten
    times per million words ("Access", "Observation", "Payments"; not "Kestrel", "Hydra",
    "Conveyor")? A capitalised common word is a name only on more evidence than its capital
    (tasks/extract/genre_subjects.py)."""
    lower = word.lower()
    if not lower.isalpha():
        return False
    common = common_words()
    return lower in common or (lower.endswith("s") and lower[:-1] in common)
