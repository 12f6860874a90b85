"""wordllama's token ids through the memo of pieces (tasks/search/word_tokens.py) are the
tokenizer's own, for any text: what the index's vectors are made from."""

from __future__ import annotations

import json
import re
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from tasks.search import semantic
from tasks.search.word_tokens import SPACE, WordTokens, split_counts
from tests.conftest import CORPUS


def shipped_tokenizer() -> Any:
    """The tokenizer file as wordllama ships it (its normalizer on), loaded afresh."""
    from tokenizers import Tokenizer

    tokenizer = Tokenizer.from_file(str(semantic.package_folder() / semantic.TOKENIZER_FILE))
    tokenizer.no_padding()
    tokenizer.no_truncation()
    return tokenizer


REFERENCE = shipped_tokenizer()


def theirs(texts: list[str]) -> list[list[int]]:
    return [e.ids for e in REFERENCE.encode_batch_fast(texts, is_pretokenized=False,
                                                         add_special_tokens=False)]


def ours(words: WordTokens, texts: list[str]) -> list[list[int]]:
    flat, counts = words.encode(texts)
    assert len(counts) == len(texts)
    return [ids.tolist() for ids in split_counts(flat, counts)]


def test_the_shipped_tokenizer_is_one_the_pieces_give_the_same_ids_for() -> None:
    """What the equality rests on: the normalizer is a "▁" in front and spaces as "▁", no
    pre-tokenizer, BPE whose vocabulary has no token with a "▁" after another character (so no
    merge crosses a piece's start), and added tokens that are special, matched unnormalized."""
    config = json.loads((semantic.package_folder() / semantic.TOKENIZER_FILE).read_text("utf-8"))
    assert config["normalizer"] == {"type": "Sequence", "normalizers": [
        {"type": "Prepend", "prepend": SPACE},
        {"type": "Replace", "pattern": {"String": " "}, "content": SPACE}]}
    assert config["pre_tokenizer"] is None
    assert config["model"]["type"] == "BPE" and config["model"]["dropout"] is None
    crossing = re.compile(f"[^{SPACE}]{SPACE}")
    assert not [token for token in config["model"]["vocab"] if crossing.search(token)]
    for added in config["added_tokens"]:
        assert added["special"] and not added["normalized"]
        assert not (added["lstrip"] or added["rstrip"] or added["single_word"])


def test_the_ids_are_the_tokenizers_on_every_corpus_document_cut_as_the_index_cuts_them() -> None:
    words = WordTokens(shipped_tokenizer())
    texts = []
    for path in sorted(CORPUS.rglob("*.md")):
        text = path.read_text("utf-8", errors="replace")
        texts += [text[at:at + semantic.EMBED_CHARS]
                  for at in range(0, len(text), semantic.EMBED_CHARS)]
    assert len(texts) > 500
    assert ours(words, texts) == theirs(texts)
    # and again from the memo alone (every piece known), in another batching
    assert ours(words, texts[::-1][:300]) == theirs(texts[::-1][:300])


EDGES = ["", " ", "  ", "a", " a", "a ", "a  b", "   x  ", "<s>", "a <s> b", "x</s>y",
         "<unk> <s></s>", "<<s>s>", "</s", f"{SPACE} {SPACE}{SPACE}x ", "émigré ✅ 東京 \t tabs  ",
         "\n\n  \n", "a\u3000b", "😀😀 x", "naïve café", "__init__.py `x = 1`"]


def test_the_ids_are_the_tokenizers_on_spaces_special_tokens_and_characters_out_of_vocabulary() -> None:
    words = WordTokens(shipped_tokenizer())
    assert ours(words, EDGES) == theirs(EDGES)
    assert ours(words, []) == []


ALPHABET = st.sampled_from([" ", "  ", SPACE, "a", "b", "ab", "the", "é", "東", "😀", "\n", "\t",
                            "<s>", "</s>", "<unk>", "<", ">", "/", "s", ".", "-", "`", "1"])


@given(st.lists(st.lists(ALPHABET, max_size=30).map("".join), max_size=8))
def test_the_ids_are_the_tokenizers_on_drawn_texts(texts: list[str]) -> None:
    assert ours(MODEL_WORDS, texts) == theirs(texts)


MODEL_WORDS = WordTokens(shipped_tokenizer())  # (one memo across the drawn examples)
