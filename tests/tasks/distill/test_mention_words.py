"""The mention index: earlier sources are read only where a new name's words all are, and what
distill makes of them is what it makes when it reads every one."""

from __future__ import annotations

import filecmp
import re
import shutil
from array import array
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import tasks.distill.plan as plan_module
from tasks.distill.mention_words import WORDS_FILE, MentionWords, name_words
from tasks.extract import MentionMatcher
from tests.stored_sources import bootstrap, store_source
from tests.tasks.distill.test_distill import LATER, distill, graph_of

WORDS = ["gateway", "zürich", "ZÜRICH", "straße", "STRASSE", "Ⅻ", "api", "v2", "the", "for",
         "cache", "caches", "frobnicator", "x", "İstanbul", "ǅemal"]
SEPARATORS = [" ", "-", ", ", "\n", "_", ".", "/", "'"]


def _texts() -> st.SearchStrategy[str]:
    piece = st.tuples(st.sampled_from(WORDS), st.sampled_from(SEPARATORS))
    return st.lists(piece, max_size=12).map(lambda parts: "".join(w + s for w, s in parts))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(texts=st.lists(_texts(), min_size=1, max_size=6),
       names=st.lists(_texts(), min_size=1, max_size=4))
def test_the_sources_holding_a_names_words_include_every_one_the_matcher_finds_it_in(
        tmp_path: Path, texts: list[str], names: list[str]) -> None:
    root = tmp_path / "root"
    shutil.rmtree(root, ignore_errors=True)
    (root / ".membank").mkdir(parents=True)
    with MentionWords.open(root) as index:
        for number, text in enumerate(texts):
            index.add(f"asset-{number}", text)
    matcher = MentionMatcher({name: name for name in names})
    with MentionWords.open(root) as index:  # read back from the file
        holding = index.holding(name_words(names))
    found = {f"asset-{n}" for n, text in enumerate(texts) if matcher and matcher.find(text)}
    assert found <= holding
    # and no more than the sources holding every word of some name
    words = [set(re.findall(r"\w+", text.lower())) for text in texts]  # the matcher's tokens
    assert holding == {f"asset-{n}" for n, held in enumerate(words)
                       if any(set(name) <= held for name in name_words(names))}


def test_sources_added_in_two_runs_are_both_found(tmp_path: Path) -> None:
    (tmp_path / ".membank").mkdir()
    with MentionWords.open(tmp_path) as index:
        index.add("a", "The Frobnicator gateway")
    with MentionWords.open(tmp_path) as index:
        assert index.knows("a") and not index.knows("b")
        index.add("b", "a gateway for frobnicator caches")
    with MentionWords.open(tmp_path) as index:
        assert index.holding(name_words(["Frobnicator Gateway"])) == {"a", "b"}
        assert index.holding(name_words(["gateway", "the frobnicator"])) == {"a", "b"}
        assert index.holding(name_words(["the frobnicator"])) == {"a"}
        assert index.holding(name_words(["nothing here"])) == set()
        index.add("0-first-by-name", "the gateway")  # added last, sorted first by its id
    with MentionWords.open(tmp_path) as index:
        assert index.holding(name_words(["the gateway"])) == {"a", "0-first-by-name"}
        for (blob,) in index.conn.execute("SELECT rows FROM word"):  # (bisected: ascending)
            rows = list(array("I", blob))
            assert rows == sorted(set(rows)), rows


def test_a_damaged_index_is_removed_and_the_run_reads_every_source(tmp_path: Path) -> None:
    (tmp_path / ".membank").mkdir()
    path = tmp_path / WORDS_FILE
    path.write_bytes(b"not a database at all" * 100)
    assert MentionWords.open(tmp_path) is None
    assert not path.exists()
    with MentionWords.open(tmp_path) as index:  # started again
        index.add("a", "Gateway")
    with MentionWords.open(tmp_path) as index:
        assert index.holding(name_words(["gateway"])) == {"a"}


def test_an_index_of_another_format_is_emptied(tmp_path: Path) -> None:
    (tmp_path / ".membank").mkdir()
    with MentionWords.open(tmp_path) as index:
        index.add("a", "Gateway")
    index = MentionWords.open(tmp_path)
    assert index is not None
    index.conn.execute("UPDATE meta SET value = 'mention-words 0' WHERE key = 'format'")
    index.close()
    with MentionWords.open(tmp_path) as index:
        assert not index.knows("a") and index.holding(name_words(["gateway"])) == set()


EARLIER = {  # sources distilled before the names are registered: two mention them
    "backups.md": "# Backups\n\n- [fact] Nightly at 02:00\n\nThe Frobnicator Gateway copies "
                  "the files.\n",
    "zurich.md": "# Zürich office\n\n- [fact] Opened in 2024\n\nThe ZÜRICH-LINK relay "
                 "carries the traffic.\n",
    "unrelated.md": "# Changelog\n\n- [fact] Version 2 shipped\n\nA gateway for frobs.\n",
    "words-apart.md": "# Notes\n\n- [fact] Frobnicator is a word\n\nThe gateway is elsewhere.\n",
}
NEW = {  # registered later, one per run
    "frobnicator.md": "---\nentity: Frobnicator Gateway\nentity_type: service\n---\n\n"
                      "# Frobnicator Gateway\n\n- [fact] Runs on two hosts\n",
    "relay.md": "---\nentity: Zürich-Link relay\nentity_type: service\n---\n\n"
                "# Zürich-Link relay\n\n- [fact] Carries the traffic\n",
}


def _memory(root: Path) -> None:
    bootstrap(root)
    for name, text in EARLIER.items():
        store_source(root, name, text)
    distill(root)


def _reads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    reads: list[str] = []
    read = plan_module.read_file_bytes

    def counted(path: str) -> bytes:
        reads.append(path)
        return read(path)

    monkeypatch.setattr(plan_module, "read_file_bytes", counted)
    return reads


def _same_trees(left: Path, right: Path) -> None:
    compared = filecmp.dircmp(left, right, ignore=[".membank"])
    pending = [compared]
    while pending:
        node = pending.pop()
        assert not node.left_only and not node.right_only, (node.left, node.left_only, node.right_only)
        _, mismatch, errors = filecmp.cmpfiles(node.left, node.right, node.common_files, shallow=False)
        assert not errors, errors
        for name in mismatch:  # the manifest names each root's own input folder
            texts = [(Path(side) / name).read_text().replace(str(root.parent), "ROOT")
                     for side, root in ((node.left, left), (node.right, right))]
            assert name == "raw-manifest.jsonc" and texts[0] == texts[1], (node.left, name)
        pending.extend(node.subdirs.values())


def test_distill_with_the_index_writes_what_it_writes_reading_every_source(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    indexed, without = tmp_path / "indexed/.memories", tmp_path / "without/.memories"
    for root in (indexed, without):
        _memory(root)
    reads = _reads(monkeypatch)
    for number, (name, text) in enumerate(NEW.items()):
        now = LATER.replace("08:", f"0{8 + number}:")
        for root in (indexed, without):
            with monkeypatch.context() as patched:
                if root == without:
                    patched.setattr(MentionWords, "open", classmethod(lambda cls, root: None))
                store_source(root, name, text, now_iso=now)
                reads.clear()
                distill(root, now)
                read = {Path(p).name.split("__")[-1] for p in reads}
                if root == indexed and number == 1:  # the earlier sources it knows: one read
                    assert "zurich.md" in read and not read & {"backups.md", "unrelated.md",
                                                                "words-apart.md"}, read
                else:
                    assert set(EARLIER) <= read, read
            assert (root / WORDS_FILE).exists() == (root == indexed)
        _same_trees(indexed, without)
    # (the earlier sources that name them were read again and now point at them)
    linked = {(r["sourceEntityName"], r["targetEntityName"]) for r in graph_of(indexed)["relations"]}
    assert {("Backups", "Frobnicator Gateway"), ("Zürich office", "Zürich-Link relay")} <= linked
