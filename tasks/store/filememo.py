"""What a warm process (the MCP server) derives from a file, kept while the file is the same one.

Memory files are replaced by rename when written (a new inode) and a hand edit in place changes
their time or size, so (device, inode, mtime in ns, size) tells a changed file from the one
read before. One answer is kept per file and kind: the memory is bounded by the files asked
about, never by the number of calls.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar, cast

T = TypeVar("T")

_KEPT: dict[tuple[str, str], tuple[tuple[int, ...], Any]] = {}
_GUARD = threading.Lock()


def file_signature(path: str | os.PathLike[str]) -> tuple[int, ...]:
    """(device, inode, mtime ns, size) of `path`; OSError when it cannot be stat'ed."""
    found = os.stat(path)
    return (found.st_dev, found.st_ino, found.st_mtime_ns, found.st_size)


def file_identity(path: str | os.PathLike[str]) -> list[int] | None:
    """What tells one version of a file from another without reading it, as bookkeeping files
    record it (size, mtime ns, ctime ns, inode: a hand edit that sets mtime back still changes
    ctime); None when it cannot be stat'ed (absent)."""
    try:
        found = os.stat(path)
    except OSError:
        return None
    return [found.st_size, found.st_mtime_ns, found.st_ctime_ns, found.st_ino]


def while_unchanged(path: Path, kind: str, derive: Callable[[Path], T]) -> T:
    """`derive(path)`, computed again only when the file changed since the last call for the
    same `kind` (OSError when the file cannot be stat'ed; derive's errors pass through)."""
    signature = file_signature(path)
    key = (str(path), kind)
    with _GUARD:
        kept = _KEPT.get(key)
    if kept is not None and kept[0] == signature:
        return cast(T, kept[1])
    value = derive(path)
    with _GUARD:
        _KEPT[key] = (signature, value)
    return value
