"""Ordinary English words (tasks/extract/ordinary_words.py): dictionary words and their plurals,
the computing words the dictionary predates; never a product name written in lower case."""

from __future__ import annotations

from tasks.extract.ordinary_words import ordinary_word, ordinary_words


def test_dictionary_words_plurals_and_computing_words_are_ordinary() -> None:
    assert all(ordinary_word(w) for w in ["error", "Error", "batch", "batches", "proxies", "router",
                                          "database", "upload", "uploads", "API", "backend"])


def test_product_names_in_lower_case_are_not_ordinary() -> None:
    assert not any(ordinary_word(w) for w in ["ceph", "etcd", "kubectl", "patroni", "runnerd", "csi", "k8s"])


def test_a_term_is_ordinary_when_every_word_is() -> None:
    assert ordinary_words("force-merge") and ordinary_words("product service") and ordinary_words("API node")
    assert not ordinary_words("ceph-csi") and not ordinary_words("kube-dns") and not ordinary_words("")
