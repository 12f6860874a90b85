"""Semantic similarity for hybrid ranking: wordllama's 256-dimension static embeddings.

The weights and tokenizer ship inside the wordllama wheel (`weights/`, `tokenizers/`); they are
read from there, so nothing is fetched at run time. wordllama's own loader and `embed` are not
used on this path (`StaticModel` computes the same vectors, bit for bit:
tests/tasks/search/test_semantic.py compares the two): importing wordllama, building its
inference object and copying its tokenizer cost about 0.4 s of CPU per process, and its `embed`
pads each batch of 64 texts to the longest one (a 64 x 1,500 x 256 float32 block for one
6,000-character passage) and pools under a mask: three quarters of an index update's embedding
time, and the peak memory of a distill (580 MB of 590 for 3 MB of sources). The tokenizer's ids
come through a memo of each distinct word's (tasks/search/word_tokens.py: the same ids; its BPE
over each whole text was half of the embedding time).

Vectors are derived data kept in the search index beside the text (float16, one per index unit:
a section or a passage of a long one, tasks/search/sections.py), so the whole page is covered and
a long page is found by its best passage; a unit's text for embedding is the page's title, the
section's heading and the passage (the first one also the page's description).
"""

from __future__ import annotations

import importlib.util
import os
import sys
from functools import lru_cache
from pathlib import Path
from typing import Any

from tasks.search.word_tokens import WordTokens, split_counts
from tasks.store.errors import MembankError

if "numpy" not in sys.modules:
    # Embedding is many small products: BLAS threads only contend (the index build already
    # runs one worker process per core). Set before numpy loads; a user's setting wins.
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

DIMENSIONS = 256
EMBED_CHARS = 6000  # a bound on one unit's text (passages are far shorter)
# Below this cosine similarity a page that matches no query word is not a hit: every page has
# some similarity to any query, and a search for a word the memory lacks should find nothing.
MIN_SIMILARITY = 0.25
# The files of wordllama's default model (`WordLlama.load(dim=256)`: config "l2_supercat") in its
# wheel; a test checks that wordllama's own loader reads the same ones.
WEIGHTS_FILE = "weights/l2_supercat_256.safetensors"
TOKENIZER_FILE = "tokenizers/l2_supercat_tokenizer_config.json"
_TENSOR = "embedding.weight"


class SemanticModelError(MembankError):
    """The embedding model cannot be loaded."""


class StaticModel:
    """wordllama's static embedding: each token's vector from the table, averaged over the
    text's tokens (no special tokens), then made unit length. `embed` gives what wordllama's
    `WordLlamaInference.embed(texts, norm=norm)` gives, the same float32 values bit for bit:
    each text's token vectors are summed in token order, as its masked sum adds them (the
    padding adds exact zeros), and divided by the same count; the float16 table's rows are
    converted to float32 as wordllama converts the whole table (exactly)."""

    def __init__(self, table: Any, tokenizer: Any) -> None:
        import numpy as np

        self.stored = table  # (vocabulary, DIMENSIONS) float16, as stored
        # The same rows as float32, each converted once when a text first uses it: converting
        # each text's gathered rows was a third of the embedding time, and the whole table at
        # once costs 0.15 s, more than a small update's texts need.
        self.table = np.empty(table.shape, dtype=np.float32)
        self.converted = np.zeros(table.shape[0], dtype=bool)
        self.words = WordTokens(tokenizer)  # (the tokenizer: no padding, no truncation)

    def convert(self, ids: Any) -> None:
        """Convert the float16 rows of these token ids not converted yet. (A mask over the
        vocabulary, not np.unique: the same ids, ascending, without np.unique's import of
        numpy.ma, ~0.05 s of CPU in a one-note ingest's process.)"""
        import numpy as np

        wanted = np.zeros(self.converted.shape[0], dtype=bool)
        wanted[ids] = True
        new = np.flatnonzero(wanted & ~self.converted)
        if len(new):
            self.table[new] = self.stored[new].astype(np.float32)
            self.converted[new] = True

    def embed(self, texts: list[str], norm: bool = True) -> Any:
        import numpy as np

        vectors = np.zeros((len(texts), self.table.shape[1]), dtype=np.float32)
        # the tokenizer's ids, each distinct word tokenized once (tasks/search/word_tokens.py)
        flat, counts = self.words.encode(texts)
        tokens = np.clip(flat, 0, self.table.shape[0] - 1)
        self.convert(tokens)
        for row, text_ids in enumerate(split_counts(tokens, counts)):
            # each text's rows added in token order, as the masked sum adds them (not
            # np.add.reduceat, whose order of additions differs); gathered a text at a
            # time, so they are summed while in the cache (a group's gather at once is
            # 32 MB, written out and read back: 2-3x the time)
            np.sum(self.table.take(text_ids, axis=0), axis=0, dtype=np.float32, out=vectors[row])
        vectors /= np.maximum(counts, 1).astype(np.float32)[:, None]
        if norm:
            vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
        return vectors


def package_folder() -> Path:
    """wordllama's installed folder, found without importing it (its import alone costs about
    0.2 s, and it calls logging.basicConfig)."""
    spec = importlib.util.find_spec("wordllama")
    if spec is None or not spec.submodule_search_locations:
        raise SemanticModelError(
            "the embedding model package (wordllama) is missing",
            hint="reinstall membank (pip install -e .) or set MEMBANK_SEARCH_SEMANTIC=false")
    return Path(next(iter(spec.submodule_search_locations)))


@lru_cache(maxsize=1)
def model() -> Any:
    """The embedding model (the one seam: `embed` and `query_vector` call its `embed`)."""
    folder = package_folder()
    try:
        from safetensors import safe_open
        from tokenizers import Tokenizer

        tokenizer = Tokenizer.from_file(str(folder / TOKENIZER_FILE))
        tokenizer.no_padding()
        tokenizer.no_truncation()
        with safe_open(str(folder / WEIGHTS_FILE), framework="np", device="cpu") as weights:
            table = weights.get_tensor(_TENSOR)
    except ImportError as exc:
        raise SemanticModelError(
            f"the embedding model package is missing ({exc})",
            hint="reinstall membank (pip install -e .) or set MEMBANK_SEARCH_SEMANTIC=false") from exc
    except Exception as exc:  # tokenizers and safetensors raise their own exception types
        raise SemanticModelError(f"cannot load the wordllama model: {exc}", file=str(folder),
                                 hint="reinstall wordllama; nothing is downloaded at run time") from exc
    return StaticModel(table, tokenizer)


def passage_text(title: str, description: str, heading: str, text: str) -> str:
    return ". ".join(part for part in (title, description, heading, text) if part)[:EMBED_CHARS]


def embed(texts: list[str]) -> list[bytes]:
    """Unit-length float16 vectors, as bytes for the index."""
    import numpy as np

    if not texts:
        return []
    vectors = model().embed(texts, norm=True).astype(np.float16)
    return [row.tobytes() for row in vectors]


def query_vector(text: str) -> Any:
    import numpy as np

    return model().embed([text], norm=True)[0].astype(np.float32)


def matrix(blobs: list[bytes]) -> Any:
    import numpy as np

    if not blobs:
        return np.zeros((0, DIMENSIONS), dtype=np.float32)
    # Stored as float16 (half the size); multiplied as float32 (numpy has no fast float16 matmul).
    stored = np.frombuffer(b"".join(blobs), dtype=np.float16).reshape(len(blobs), DIMENSIONS)
    return stored.astype(np.float32)


def similarities(vectors: Any, query: Any) -> Any:
    """Cosine similarity of every (unit) row to the (unit) query. einsum, not `@`: a threaded
    BLAS matrix-vector product is 10-30x slower on a busy machine for this size of work."""
    import numpy as np

    return np.einsum("ij,j->i", vectors, query)
