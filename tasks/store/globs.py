"""Path globs of the memory stores' contracts (manifest area paths, .mem files, gitattributes):
`*` and `?` within one path segment, `**` across segments."""

from __future__ import annotations

import re


def glob_matches(pattern: str, path: str) -> bool:
    """`*` and `?` within one path segment, `**` across segments (zero or more)."""
    expression = ""
    parts = pattern.strip().strip("/").split("/")
    for index, part in enumerate(parts):
        last = index == len(parts) - 1
        if part == "**":
            expression += ".*" if last else "(?:[^/]+/)*"
            continue
        expression += "".join("[^/]*" if c == "*" else "[^/]" if c == "?" else re.escape(c)
                              for c in part) + ("" if last else "/")
    return re.fullmatch(expression, path) is not None


__all__ = ["glob_matches"]
