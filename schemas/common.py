"""Small shared types: canonical UTC timestamps, UTC prefixes, meaningful names."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import Annotated

from pydantic import AfterValidator, BeforeValidator

# Names the naming standard rejects (spec/memory-bank.md), as their trimmed lowercase form.
NON_MEANINGFUL_NAMES = frozenset({"", "data", "info", "temp", "tmp", "item", "unknown", "empty"})
# "data, empty, info, ...": the rejected words, for messages
NON_MEANINGFUL_WORDS = ", ".join(sorted(n for n in NON_MEANINGFUL_NAMES if n))
# The UTC file-name prefix (2026-03-24T22-40-05Z): the one spelling, for every module's regex.
PREFIX_PATTERN = r"\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}Z"
_UTC_RE = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$")
_PREFIX_RE = re.compile(rf"^{PREFIX_PATTERN}$")


def _coerce_utc(value: object) -> object:
    # YAML turns an unquoted timestamp into a datetime; keep one text form either way.
    if isinstance(value, datetime):
        moment = value if value.tzinfo else value.replace(tzinfo=UTC)
        return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    return value


def _check_utc(value: str) -> str:
    if not _UTC_RE.match(value):
        raise ValueError(f"{value!r} is not a canonical UTC time like 2026-03-24T22:40:05Z")
    return value


def _check_prefix(value: str) -> str:
    if not _PREFIX_RE.match(value):
        raise ValueError(f"{value!r} is not a UTC prefix like 2026-03-24T22-40-05Z")
    return value


def is_meaningless(name: str) -> bool:
    """True for a name the naming standard rejects (empty, or one of NON_MEANINGFUL_NAMES)."""
    return name.strip().lower() in NON_MEANINGFUL_NAMES


def _check_meaningful(value: str) -> str:
    if is_meaningless(value):
        raise ValueError(
            f"{value!r} is not a meaningful name (rejected: empty names and {NON_MEANINGFUL_WORDS})"
        )
    return value


UtcTimestamp = Annotated[str, BeforeValidator(_coerce_utc), AfterValidator(_check_utc)]
UtcPrefix = Annotated[str, AfterValidator(_check_prefix)]
MeaningfulName = Annotated[str, AfterValidator(_check_meaningful)]


def name_key(name: str) -> str:
    """canonicalKey / aliasKey / entity dedup key of spec/memory-bank.md: trim, lowercase."""
    return name.strip().lower()
