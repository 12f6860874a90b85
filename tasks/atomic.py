"""Atomic writes: unique temp file in the target folder, re-parse, fsync, rename, fsync folder.

A crash leaves the complete old file or the complete new one, never half of one. A write whose
bytes equal what is on disk is skipped, so reruns change nothing.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable
from contextlib import suppress
from pathlib import Path

Validator = Callable[[bytes, Path], None]


def _fsync_dir(folder: Path) -> None:
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def default_validator(path: Path) -> Validator | None:
    """Re-parse by file kind: JSON/JSONC with the JSONC reader, markdown with its frontmatter."""
    suffix = path.suffix.lower()
    if suffix in {".json", ".jsonc"}:
        from tasks.jsonc import loads_jsonc

        return lambda data, target: loads_jsonc(data.decode("utf-8"), file=target)
    if suffix == ".md":
        from tasks.pages import split_page

        return lambda data, target: split_page(data.decode("utf-8"), file=target)
    return None


def atomic_write_bytes(
    path: Path,
    data: bytes,
    *,
    validate: Validator | None | bool = True,
    mode: int = 0o644,
) -> bool:
    """Write `data` to `path` atomically; return False when the file already held these bytes."""
    try:
        if path.read_bytes() == data:
            return False
    except FileNotFoundError:
        pass
    validator = default_validator(path) if validate is True else (validate or None)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp_name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    tmp = Path(tmp_name)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, mode)
        if validator is not None:
            validator(tmp.read_bytes(), path)
        os.replace(tmp, path)
        _fsync_dir(path.parent)
    except BaseException:
        with suppress(FileNotFoundError):
            tmp.unlink()
        raise
    return True


def atomic_write_text(
    path: Path, text: str, *, validate: Validator | None | bool = True, mode: int = 0o644
) -> bool:
    return atomic_write_bytes(path, text.encode("utf-8"), validate=validate, mode=mode)
