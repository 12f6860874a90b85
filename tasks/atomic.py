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


def _sync_filesystem(folder: Path) -> None:
    """syncfs(2) on the filesystem holding `folder` (Linux); os.sync() elsewhere."""
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        fd = os.open(folder, os.O_RDONLY)
        try:
            if libc.syncfs(fd) == 0:
                return
        finally:
            os.close(fd)
    except (OSError, AttributeError):
        pass
    os.sync()


class StagedWrites:
    """Many new files made durable with one filesystem sync instead of one fsync each.

    `stage` writes a uniquely named temp file beside its target (re-parsed like
    atomic_write_bytes); `commit` syncs the filesystem once, renames every temp file into place
    and fsyncs each folder once. A crash leaves whole files or temp files, never half a file;
    `discard` removes what a failed group staged. Only for files that do not exist yet: each
    target folder is listed once, at its first stage, and checked against that listing (one
    syscall per folder instead of a stat per file), so use it under the root lock, where no
    one else adds files to those folders meanwhile.
    """

    def __init__(self) -> None:
        self._staged: list[tuple[Path, Path]] = []
        self._targets: set[Path] = set()
        self._folders: set[Path] = set()
        self._listings: dict[Path, frozenset[str]] = {}

    def _existing_names(self, folder: Path) -> frozenset[str]:
        names = self._listings.get(folder)
        if names is None:
            try:
                names = frozenset(os.listdir(folder))
            except FileNotFoundError:
                names = frozenset()  # made by the first stage into it, after validation
            self._listings[folder] = names
        return names

    def stage(self, path: Path, data: bytes, *, validate: Validator | None | bool = True,
              mode: int = 0o644) -> None:
        if path in self._targets or path.name in self._existing_names(path.parent):
            raise FileExistsError(f"{path} already exists")
        validator = default_validator(path) if validate is True else (validate or None)
        if validator is not None:
            validator(data, path)
        if path.parent not in self._folders:
            path.parent.mkdir(parents=True, exist_ok=True)
            self._folders.add(path.parent)
        fd, tmp_name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
        try:
            try:
                os.fchmod(fd, mode)
                view = memoryview(data)
                while view:
                    view = view[os.write(fd, view):]
            finally:
                os.close(fd)
        except BaseException:
            with suppress(FileNotFoundError):
                os.unlink(tmp_name)
            raise
        self._staged.append((Path(tmp_name), path))
        self._targets.add(path)

    def mark(self) -> int:
        return len(self._staged)

    def discard(self, since: int = 0) -> None:
        for tmp, target in self._staged[since:]:
            self._targets.discard(target)
            with suppress(FileNotFoundError):
                tmp.unlink()
        del self._staged[since:]

    def commit(self) -> list[Path]:
        if not self._staged:
            return []
        _sync_filesystem(self._staged[0][1].parent)
        folders: dict[Path, None] = {}
        done: list[Path] = []
        for tmp, target in self._staged:
            os.replace(tmp, target)
            folders[target.parent] = None
            done.append(target)
        for folder in folders:
            _fsync_dir(folder)
        self._staged = []
        self._targets = set()
        return done
