"""Backslash escapes of the link texts membank writes (catalogs, hubs, entity pages) and reads
back: its own module, with no parser behind it, because the catalog is read on every start."""

from __future__ import annotations

import re

# CommonMark: a backslash escapes ASCII punctuation only ("\n" is two characters of text).
_PUNCTUATION_ESCAPE_RE = re.compile(r"\\([!-/:-@\[-`{-~])")


def escape_link_text(text: str) -> str:
    """A name or title as the text of a link membank writes: its backslashes and brackets
    escaped, so unescape_link_text reads back exactly the name (a Windows path, a regex)."""
    return text.replace("\\", "\\\\").replace("[", "\\[").replace("]", "\\]")


def unescape_link_text(text: str) -> str:
    """A link text as CommonMark reads it: each backslash escape of punctuation undone."""
    return _PUNCTUATION_ESCAPE_RE.sub(r"\1", text) if "\\" in text else text
