"""wordllama's token ids of many texts, each distinct word tokenized once.

wordllama's tokenizer (Llama 2's SentencePiece BPE, as a `tokenizers` file) has no
pre-tokenizer: its normalizer turns every space into "▁" and puts one "▁" in front, and the BPE
merges run over the whole text as one word, so nothing it has seen before is reused (about 3-4 MB
of text a second: half of an index build's embedding). But no token of its vocabulary holds a
"▁" after another character (a test checks the file), so no merge ever joins the end of a word
to the "▁" that starts the next: a normalized text cut before each "▁" that follows another
character ("▁+[^▁]*": a run of "▁" with the word after it) is tokenized piece by piece into the
same ids, in the same order. Here each distinct piece is tokenized once (by the same tokenizer
without its normalizer: the pieces are normalized already) and kept; a text's ids are its
pieces' ids, put together with numpy.

The special tokens ("<s>", "</s>", "<unk>") are matched in the raw text before anything else
(they are not normalized): they cut the text into parts, each normalized on its own (its own
"▁" in front), and are ids of their own, as the tokenizer does. The ids equal
`tokenizer.encode_batch_fast(texts, add_special_tokens=False)`'s for any text
(tests/tasks/search/test_word_tokens.py compares them).
"""

from __future__ import annotations

import re
import threading
from collections.abc import Iterator
from itertools import chain
from typing import Any

SPACE = "\u2581"  # SentencePiece's "▁"
_PIECE_RE = re.compile(f"{SPACE}+[^{SPACE}]*")
# Distinct pieces kept; past it the memo starts again (a few tens of MB at most).
_MAX_PIECES = 300_000


class WordTokens:
    """The token ids of texts, through a memo of each distinct piece's ids."""

    def __init__(self, tokenizer: Any) -> None:
        self.tokenizer = tokenizer  # normalizer removed: pieces arrive normalized
        self.normalizer = tokenizer.normalizer
        tokenizer.normalizer = None
        self.lock = threading.Lock()
        self.special = {t.content: i for i, t in tokenizer.get_added_tokens_decoder().items()}
        self._special_re = re.compile("|".join(re.escape(s) for s in sorted(
            self.special, key=lambda s: (-len(s), s)))) if self.special else None
        self._start()

    def _start(self) -> None:
        import numpy as np

        self.numbers: dict[str, int] = {}  # piece -> its number (the order it was first seen)
        self.starts = np.zeros(0, dtype=np.int64)  # each number's first id in `ids`
        self.lengths = np.zeros(0, dtype=np.int64)  # its count of ids
        self.ids = np.zeros(0, dtype=np.int32)
        for content, token in self.special.items():  # (a piece never starts with "<")
            self.numbers[content] = len(self.numbers)
            self._add([[token]])

    def pieces(self, text: str) -> list[str]:
        """The text's pieces in order; a special token's string is a piece of its own."""
        if self._special_re is None or not self._special_re.search(text):
            return _pieces(text)
        out: list[str] = []
        at = 0
        for match in self._special_re.finditer(text):
            out += _pieces(text[at:match.start()])
            out.append(match.group())
            at = match.end()
        return out + _pieces(text[at:])

    def encode(self, texts: list[str]) -> tuple[Any, Any]:
        """(every text's ids one after another (int32), each text's count of ids (int64))."""
        import numpy as np

        with self.lock:  # (the memo is shared by a warm process's threads)
            if len(self.numbers) > _MAX_PIECES:
                self._start()
            numbers = self.numbers
            parts = [self.pieces(t) for t in texts]
            pieces = list(chain.from_iterable(parts))
            found = list(map(numbers.get, pieces))
            if None in found:
                new = list(dict.fromkeys(p for p, n in zip(pieces, found, strict=True) if n is None))
                for piece in new:
                    numbers[piece] = len(numbers)
                self._add([e.ids for e in self.tokenizer.encode_batch_fast(
                    new, is_pretokenized=False, add_special_tokens=False)])
                found = list(map(numbers.__getitem__, pieces))
            starts, lengths, ids = self.starts, self.lengths, self.ids
        counts = np.fromiter(map(len, parts), dtype=np.int64, count=len(parts))
        flat = np.array(found, dtype=np.int64)
        sizes = lengths[flat]
        ends = np.cumsum(sizes)
        # each piece's ids in place: its first id's place, then one more for each id after it
        at = np.repeat(starts[flat] - (ends - sizes), sizes) + np.arange(int(ends[-1]) if len(
            ends) else 0)
        token_ends = np.r_[0, ends][np.cumsum(counts)]
        return ids[at], np.diff(np.r_[0, token_ends])

    def _add(self, ids: list[list[int]]) -> None:
        """The ids of the pieces numbered next, in their order."""
        import numpy as np

        lengths = np.fromiter((len(i) for i in ids), dtype=np.int64, count=len(ids))
        starts = len(self.ids) + np.cumsum(lengths) - lengths
        self.ids = np.concatenate([self.ids, np.fromiter(
            (n for i in ids for n in i), dtype=np.int32, count=int(lengths.sum()))])
        self.starts = np.concatenate([self.starts, starts])
        self.lengths = np.concatenate([self.lengths, lengths])


def _pieces(part: str) -> list[str]:
    """A part's pieces: normalized as the tokenizer normalizes (a "▁" in front of a part that
    is not empty, each space a "▁"), cut before each "▁" that follows another character."""
    return _PIECE_RE.findall(f"{SPACE}{part.replace(' ', SPACE)}") if part else []


def split_counts(flat: Any, counts: Any) -> Iterator[Any]:
    """Each text's ids (views of `flat`)."""
    end = 0
    for count in counts.tolist():
        start, end = end, end + count
        yield flat[start:end]
