"""Semantic similarity for hybrid ranking: wordllama's 256-dimension static embeddings.

The weights and tokenizer ship inside the wordllama wheel; its loader looks for the tokenizer in
a `tokenizer/` folder of the package but the wheel ships it in `tokenizers/`, which is where the
loader's cache layout (`<cache_dir>/tokenizers/`) looks: so the package folder itself is passed
as the cache folder, with downloads disabled. Nothing is fetched at run time.

Vectors are derived data kept in the search index beside the text (float16, one per index unit:
a section or a passage of a long one, tasks/search/sections.py), so the whole page is covered and
a long page is found by its best passage; a unit's text for embedding is the page's title, the
section's heading and the passage (the first one also the page's description).
"""

from __future__ import annotations

import logging
import os
import sys
from functools import lru_cache
from pathlib import Path
from typing import Any

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


class SemanticModelError(MembankError):
    """The embedding model cannot be loaded."""


@lru_cache(maxsize=1)
def model() -> Any:
    root_logger = logging.getLogger()
    handlers, level = list(root_logger.handlers), root_logger.level
    try:
        import wordllama
        from wordllama import WordLlama
    except ImportError as exc:
        raise SemanticModelError(
            f"the embedding model package is missing ({exc})",
            hint="reinstall membank (pip install -e .) or set MEMBANK_SEARCH_SEMANTIC=false") from exc
    finally:
        # wordllama calls logging.basicConfig(level=INFO) when imported: every library's INFO
        # lines would then reach our stderr. The root logger is put back as it was.
        for handler in root_logger.handlers[:]:
            if handler not in handlers:
                root_logger.removeHandler(handler)
        root_logger.setLevel(level)
    try:
        return WordLlama.load(dim=DIMENSIONS, cache_dir=Path(wordllama.__file__).parent,
                              disable_download=True)
    except (OSError, ValueError) as exc:
        raise SemanticModelError(f"cannot load the wordllama model: {exc}",
                                 hint="reinstall wordllama; nothing is downloaded at run time") from exc


def passage_text(title: str, description: str, heading: str, text: str) -> str:
    return ". ".join(part for part in (title, description, heading, text) if part)[:EMBED_CHARS]


@lru_cache(maxsize=1)
def _unpadded_tokenizer() -> Any:
    """A copy of the model's tokenizer that does not pad (the model's pads every batch to its
    longest text)."""
    from tokenizers import Tokenizer

    tokenizer = Tokenizer.from_str(model().tokenizer.to_str())
    tokenizer.no_padding()
    return tokenizer


def pooled(texts: list[str]) -> Any:
    """`model().embed(texts, norm=True)`, the same float32 values bit for bit, without padding.

    wordllama pads each batch of 64 texts to its longest one and averages token vectors under
    a mask: one 6,000-character passage makes a 64 x 1,500 x 256 float32 block (about 100 MB)
    of mostly zeros, and the padded gather and pooling were three quarters of an index update's
    embedding time (tests/tasks/search/test_semantic.py compares the two). Each text's token
    vectors are summed here in token order, as the masked sum adds them (padding adds exact
    zeros), and divided by the same count."""
    import numpy as np

    table = model().embedding
    last = table.shape[0] - 1
    vectors = np.empty((len(texts), table.shape[1]), dtype=np.float32)
    for row, encoding in enumerate(_unpadded_tokenizer().encode_batch(
            texts, is_pretokenized=False, add_special_tokens=False)):
        ids = np.clip(np.asarray(encoding.ids, dtype=np.int32), 0, last)
        vectors[row] = np.sum(table[ids], axis=0, dtype=np.float32) / np.float32(max(len(ids), 1))
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    return vectors


def embed(texts: list[str]) -> list[bytes]:
    """Unit-length float16 vectors, as bytes for the index."""
    import numpy as np

    if not texts:
        return []
    return [row.tobytes() for row in pooled(texts).astype(np.float16)]


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
