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

import operator
import re
import threading
from collections.abc import Iterator
from itertools import chain, compress, repeat
from typing import Any

SPACE = "\u2581"  # SentencePiece's "▁"
_PIECE_RE = re.compile(f"{SPACE}+[^{SPACE}]*")
# Distinct pieces kept; past it the memo starts again (a few tens of MB at most).
_MAX_PIECES = 300_000
_ENCODE_PIECES = 20_000  # new pieces tokenized in one encoding


class WordTokens:
    """The token ids of texts, through a memo of each distinct piece's ids."""

    def __init__(self, tokenizer: Any) -> None:
        self.tokenizer = tokenizer  # normalizer removed: pieces arrive normalized
        tokenizer.normalizer = None
        self.lock = threading.Lock()
        self.special = {t.content: i for i, t in tokenizer.get_added_tokens_decoder().items()}
        self._special_re = re.compile("|".join(re.escape(s) for s in sorted(
            self.special, key=lambda s: (-len(s), s)))) if self.special else None
        self._start()

    def _start(self) -> None:
        import numpy as np

        self.numbers: dict[str, int] = {}  # piece -> its number (the order it was first seen)
        # each number's first id in `ids` and its count of ids; the arrays grow by doubling
        # (a copy of the whole memo per batch, and its page faults, cost more than the memo saved)
        self.starts = np.zeros(1024, dtype=np.int64)
        self.lengths = np.zeros(1024, dtype=np.int64)
        self.ids = np.zeros(4096, dtype=np.int32)
        self.held = 0  # ids held in `ids`
        for content, token in self.special.items():  # (a piece never starts with "<")
            self._add([content], [token], [0])

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
                new = list(dict.fromkeys(compress(pieces, map(operator.is_, found, repeat(None)))))
                for first in range(0, len(new), _ENCODE_PIECES):
                    part = new[first:first + _ENCODE_PIECES]
                    # one encoding of the pieces as words (each tokenized alone, as here): a
                    # tenth of the tokenizer's cost of an encoding a piece
                    encoding = self.tokenizer.encode(part, is_pretokenized=True,
                                                     add_special_tokens=False)
                    self._add(part, encoding.ids, encoding.word_ids)
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

    def _add(self, pieces: list[str], ids: list[int], words: list[int | None]) -> None:
        """Number the pieces next, in their order, with their `ids` (one word of `words` a
        piece: the piece of each id)."""
        import numpy as np

        first = len(self.numbers)
        for piece in pieces:
            self.numbers[piece] = len(self.numbers)
        lengths = np.bincount(np.array(words, dtype=np.int64), minlength=len(pieces))
        self.starts = _room(self.starts, len(self.numbers))
        self.lengths = _room(self.lengths, len(self.numbers))
        self.ids = _room(self.ids, self.held + len(ids))
        self.starts[first:len(self.numbers)] = self.held + np.cumsum(lengths) - lengths
        self.lengths[first:len(self.numbers)] = lengths
        self.ids[self.held:self.held + len(ids)] = ids
        self.held += len(ids)


def _room(array: Any, size: int) -> Any:
    """`array`, or a copy twice as long (at least `size`) when it holds fewer than `size`."""
    import numpy as np

    if len(array) >= size:
        return array
    grown = np.zeros(max(size, 2 * len(array)), dtype=array.dtype)
    grown[:len(array)] = array
    return grown


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
