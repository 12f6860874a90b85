"""A PKF v1.1 body's metadata header, read as the page's front matter.

spec/wiki-memory-pkf.md (PKF body standard) writes a page's metadata as one JSON object in a
script element that opens the body:

    <script type="application/prismer+json">{"type":"note","title":"…","description":"…",
    "pkfVersion":"1.1","memory":{"memoryRole":"knowledge","source":"…"}}</script>
    # Title
    …

The write gate reads that object exactly as it reads YAML front matter (the same keys, the same
checks; `memory` is a top-level key, and one nested under `extra` is refused by the gate as
no block at all) and stores the page in membank's own format, Markdown with YAML front matter,
so every reader of the memory keeps working. Pure: text in, (metadata, body) out.
"""

from __future__ import annotations

import re
from typing import Any

import orjson

from tasks.store.errors import ContractError

_OPEN_RE = re.compile(
    r"\A\s*<script\b[^>]*?\btype\s*=\s*([\"'])application/prismer\+json\1[^>]*>", re.IGNORECASE
)
_CLOSE_RE = re.compile(r"</script\s*>[ \t]*(?:\r\n?|\n)?", re.IGNORECASE)
_LEADING_BLANK_LINES_RE = re.compile(r"\A(?:[ \t]*(?:\r\n?|\n))+")
_HINT = (
    'a PKF header is one JSON object: <script type="application/prismer+json">'
    '{"type": …, "title": …, "description": …}</script>, then the body'
)


def opens_pkf_header(text: str) -> bool:
    """Does the text open with a <script type="application/prismer+json"> element?"""
    return _OPEN_RE.match(text) is not None


def split_pkf_header(text: str, *, file: str | None = None) -> tuple[dict[str, Any], str]:
    """The header's JSON object and the body after it; ContractError when the element is never
    closed, its JSON cannot be read, or it is not an object. Call it on text that opens one."""
    opening = _OPEN_RE.match(text)
    if opening is None:
        raise ContractError(
            'no PKF header: the text does not open with <script type="application/prismer+json">',
            file=file,
            hint=_HINT,
        )
    closing = _CLOSE_RE.search(text, opening.end())
    if closing is None:
        raise ContractError(
            "malformed PKF header: the <script> element is never closed", file=file, hint=_HINT
        )
    raw = text[opening.end() : closing.start()].strip()
    try:
        meta = orjson.loads(raw)
    except orjson.JSONDecodeError as exc:
        raise ContractError(f"malformed PKF header: {exc}", file=file, hint=_HINT) from exc
    if not isinstance(meta, dict):
        raise ContractError(
            f"the PKF header is a JSON {type(meta).__name__}, not an object", file=file, hint=_HINT
        )
    return meta, _LEADING_BLANK_LINES_RE.sub("", text[closing.end() :], count=1)


__all__ = ["opens_pkf_header", "split_pkf_header"]
