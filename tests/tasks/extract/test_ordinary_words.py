"""Ordinary English words (tasks/extract/ordinary_words.py): dictionary words and their plurals,
the computing words the dictionary predates; never a product name written in lower case."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tasks.extract.ordinary_words import (
    _common_by_wordfreq,
    common_word,
    common_words,
    ordinary_word,
    ordinary_words,
)


def test_dictionary_words_plurals_and_computing_words_are_ordinary() -> None:
    assert all(ordinary_word(w) for w in ["error", "Error", "batch", "batches", "proxies", "router",
                                          "database", "upload", "uploads", "API", "backend"])


def test_product_names_in_lower_case_are_not_ordinary() -> None:
    assert not any(ordinary_word(w) for w in ["ceph", "etcd", "kubectl", "patroni", "runnerd", "csi", "k8s"])


def test_a_term_is_ordinary_when_every_word_is() -> None:
    assert ordinary_words("force-merge") and ordinary_words("product service") and ordinary_words("API node")
    assert not ordinary_words("ceph-csi") and not ordinary_words("kube-dns") and not ordinary_words("")


def test_common_words_read_from_the_list_are_wordfreqs_own() -> None:
    # The list's file is read without importing wordfreq (0.3 s of every distill's start);
    # the words must be those wordfreq's own reader gives at the same Zipf bound.
    assert common_words() == _common_by_wordfreq()
    assert all(common_word(w) for w in ["Access", "Observation", "Encounter", "Payments", "Infrastructure"])
    assert not any(common_word(w) for w in ["Kestrel", "Hydra", "Conveyor", "Unleash", "Atlas", "k8s", "v2"])


def test_reading_the_common_words_does_not_import_wordfreq() -> None:
    code = ("import sys; from tasks.extract.ordinary_words import common_words; common_words(); "
            "print('wordfreq' in sys.modules)")
    found = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                           cwd=Path(__file__).resolve().parents[3])
    assert found.stdout.strip() == "False"
