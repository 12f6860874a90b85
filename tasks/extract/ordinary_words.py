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
("kestrel", "hydra", "atlas", "conveyor", "unleash": below 4). Loaded once, on first use (about
0.25 s). Pure.
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
def _frequencies() -> dict[str, float]:
    from wordfreq import get_frequency_dict  # loaded only when a distill needs it

    return get_frequency_dict("en", "small")


def common_word(word: str) -> bool:
    """Is `word` (any case) a common English word, or the plural of one: written at least ten
    times per million words ("Access", "Observation", "Payments"; not "Kestrel", "Hydra",
    "Conveyor")? A capitalised common word is a name only on more evidence than its capital
    (tasks/extract/genre_subjects.py)."""
    lower = word.lower()
    if not lower.isalpha():
        return False
    frequencies = _frequencies()
    forms = [lower] + ([lower[:-1]] if lower.endswith("s") else [])
    best = max(frequencies.get(form, 0.0) for form in forms)
    return best > 0 and math.log10(best * 1e9) >= COMMON_ZIPF
