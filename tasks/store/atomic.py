"""Atomic writes: unique temp file in the target folder, re-parse, fsync, rename, fsync folder.

A crash leaves the complete old file or the complete new one, never half of one. A write whose
bytes equal what is on disk is skipped, so reruns change nothing.

The root's boundary: every write here first checks the real path of its folder
(`check_real_folder`). The memory root is resolved once (settings.resolved_root), so a folder
whose real path differs from its absolute path reaches through a symlink, which may lead out of
the root: such a write is refused with RootBoundaryError naming the symlink, as is a target
that is itself a symlink. Disk full and permission denied become typed one-line errors.

Every write, fsync, rename and removal goes through `fs` (a `FileSystem`), the seam where the
crash-injection tests kill a run at its Nth step; and every rename into place is announced to
the write journal of an open batch first (tasks/store/journal.py), so a crash can be rolled back.
"""

from __future__ import annotations

import errno
import os
import re
import stat
import tempfile
from collections.abc import Callable, Iterable
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import suppress
from pathlib import Path
from typing import Protocol

from tasks.store.errors import RootBoundaryError, from_os_error
from tasks.store.jsonc import loads_jsonc

# What a validator returns (the parsed value) is unused: it proves the bytes parse or raises.
Validator = Callable[[bytes, Path], object]
# A temp file of ours: ".<target name>.<8 random characters of mkstemp>.tmp".
TEMP_NAME_RE = re.compile(r"^\.(?P<target>.+)\.[a-z0-9_]{8}\.tmp$")
# Temp files older versions named otherwise: the search index build's
# ".search.sqlite3.<pid>.tmp" and prometheus_client's "membank-<kind>.prom.<pid>.<thread id>".
LEGACY_TEMP_NAME_RE = re.compile(r"^(\.search\.sqlite3\.\d+\.tmp|membank-[a-z]+\.prom\.\d+\.\d+)$")


def is_temp_name(name: str) -> bool:
    """A file name of an interrupted write's temp file (ours, or an older version's)."""
    return bool(TEMP_NAME_RE.match(name) or LEGACY_TEMP_NAME_RE.match(name))


class FileSystem:
    """The syscalls a memory write is made of (a test double raises or exits at step N)."""

    def write(self, fd: int, data: memoryview) -> int:
        return os.write(fd, data)

    def fsync(self, fd: int) -> None:
        os.fsync(fd)

    def replace(self, source: str | Path, target: str | Path) -> None:
        os.replace(source, target)

    def link(self, source: str | Path, target: str | Path) -> None:
        os.link(source, target)

    def unlink(self, path: str | Path) -> None:
        os.unlink(path)

    def copy_range(self, source: int, fd: int, offset: int, count: int) -> int:
        """Copy up to `count` bytes of `source` from `offset` to `fd`'s position, in the kernel
        (no pass through this process); how many were copied."""
        return os.copy_file_range(source, fd, count, offset)

    def chmod(self, path: str | Path, mode: int) -> None:
        os.chmod(path, mode)


fs = FileSystem()


class IntentRecorder(Protocol):
    """What tasks.store.journal registers: told about every effect before it happens."""

    def covers(self, path: Path) -> bool: ...

    def will_replace(self, targets: list[Path], *, new: bool) -> None: ...

    def remove(self, path: Path) -> None: ...

    def will_chmod(self, path: Path, old_mode: int) -> None: ...


_recorders: list[IntentRecorder] = []


def register_recorder(recorder: IntentRecorder) -> None:
    _recorders.append(recorder)


def unregister_recorder(recorder: IntentRecorder) -> None:
    with suppress(ValueError):
        _recorders.remove(recorder)


def _recorder_for(path: Path) -> IntentRecorder | None:
    for recorder in _recorders:
        if recorder.covers(path):
            return recorder
    return None


def _announce(targets: list[Path], *, new: bool) -> None:
    """Record the intent to put files at `targets` (write-ahead) before any rename happens."""
    if targets:
        recorder = _recorder_for(targets[0])
        if recorder is not None:
            recorder.will_replace(targets, new=new)


def announce(targets: list[Path]) -> None:
    """Journal a group of files about to be written (one record for all, instead of one per
    atomic write); a no-op outside a batch and for files already journaled."""
    _announce(targets, new=False)


def remove_file(path: Path) -> bool:
    """Remove a memory file (kept by the open batch's journal until it commits); False if absent.

    The root's boundary holds for removals too: a folder reached through a symlink is refused
    (RootBoundaryError), and a file that is itself a symlink is removed as a link (what it
    points to is never touched)."""
    check_real_folder(path.parent)
    recorder = _recorder_for(path)
    if recorder is not None:
        if not os.path.lexists(path):
            return False
        recorder.remove(path)
        return True
    try:
        fs.unlink(path)
    except FileNotFoundError:
        return False
    return True


def change_mode(path: Path, mode: int) -> bool:
    """Set a memory file's permission bits (a rollback of the open batch restores the old ones);
    False when they already are `mode`. A symlink or a folder reached through one is refused."""
    check_write_target(path)
    try:
        old = stat.S_IMODE(os.stat(path).st_mode)
    except OSError as exc:
        raise (from_os_error(exc, path) or exc) from exc
    if old == mode:
        return False
    recorder = _recorder_for(path)
    if recorder is not None:
        recorder.will_chmod(path, old)
    try:
        fs.chmod(path, mode)
    except OSError as exc:
        raise (from_os_error(exc, path) or exc) from exc
    return True


def write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[fs.write(fd, view):]


def _fsync_dir(folder: Path) -> None:
    fd = os.open(folder, os.O_RDONLY)
    try:
        fs.fsync(fd)
    finally:
        os.close(fd)


def _first_symlink(path: Path) -> Path | None:
    """The first component of absolute `path` that is a symlink, from the top."""
    current = Path(path.anchor)
    for part in path.parts[1:]:
        current = current / part
        if os.path.islink(current):
            return current
        if not os.path.lexists(current):
            return None
    return None


def check_real_folder(folder: Path) -> None:
    """Refuse to write into `folder` when its path goes through a symlink (see module doc)."""
    absolute = os.path.abspath(folder)
    if os.path.realpath(absolute) == absolute:
        return
    link = _first_symlink(Path(absolute))
    if link is None:  # e.g. a relative path whose ".." the real path resolves differently
        return
    raise RootBoundaryError(
        f"refusing to write through a symlink: {link} -> {os.readlink(link)}",
        file=folder,
        hint="membank never writes through a symlink in the memory root; replace it with a real "
             "folder (move its content in) or pass --root the real location")


def check_write_target(path: Path) -> None:
    """The folder's real path is its path, and the file itself is not a symlink."""
    check_real_folder(path.parent)
    refuse_symlink(path)


def refuse_symlink(path: Path) -> None:
    """A target that is itself a symlink is never replaced (its folder is checked apart)."""
    if os.path.islink(path):
        raise RootBoundaryError(
            f"refusing to replace a symlink: {path} -> {os.readlink(path)}", file=path,
            hint="replace the symlink with a regular file (or remove it) and rerun")


def ensure_folder(folder: Path) -> None:
    """mkdir -p after checking that no existing part of the path is a symlink."""
    check_real_folder(folder)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise (from_os_error(exc, folder) or exc) from exc


def default_validator(path: Path) -> Validator | None:
    """Re-parse by file kind: JSON/JSONC with the JSONC reader, markdown with its frontmatter."""
    suffix = path.suffix.lower()
    if suffix in {".json", ".jsonc"}:
        return lambda data, target: loads_jsonc(data.decode("utf-8"), file=target)
    if suffix == ".md":
        from tasks.store.pages import split_page  # lazy for start-up: PyYAML, only to write pages

        return lambda data, target: split_page(data.decode("utf-8"), file=target)
    return None


_COMPARE_CHUNK = 1 << 20


def file_holds(path: Path, data: bytes) -> bool:
    """Whether the file at `path` holds exactly `data` (False when there is none): its size
    first, then its bytes a chunk at a time, so a large file is never read whole beside the
    bytes meant to replace it (the 125 MB reconcile cache at 100,000 pages: 125 MB more at a
    repair run's peak)."""
    try:
        with open(path, "rb") as handle:
            if os.fstat(handle.fileno()).st_size != len(data):
                return False
            view = memoryview(data)
            for start in range(0, len(data), _COMPARE_CHUNK):
                if handle.read(_COMPARE_CHUNK) != view[start:start + _COMPARE_CHUNK]:
                    return False
            return handle.read(1) == b""
    except FileNotFoundError:
        return False


def atomic_write_bytes(
    path: Path,
    data: bytes,
    *,
    validate: Validator | None | bool = True,
    mode: int = 0o644,
) -> bool:
    """Write `data` to `path` atomically; return False when the file already held these bytes."""
    if file_holds(path, data):
        return False
    validator = default_validator(path) if validate is True else (validate or None)
    check = None if validator is None else (lambda tmp: validator(tmp.read_bytes(), path))
    _replace_file(path, lambda fd: write_all(fd, data), mode=mode, needed_bytes=len(data),
                  check=check)
    return True


def _replace_file(path: Path, fill: Callable[[int], None], *, mode: int,
                  needed_bytes: int | None = None, check: Callable[[Path], object] | None = None
                  ) -> None:
    """The one replace protocol: a temp file beside `path` filled by `fill(fd)`, fsynced,
    checked (`check(temp)`), announced to the journal, renamed over `path`, the folder fsynced;
    on any failure the temp file is gone and an expected OS error is typed."""
    check_write_target(path)
    ensure_folder(path.parent)
    try:
        fd, tmp_name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    except OSError as exc:
        raise (from_os_error(exc, path, needed_bytes=needed_bytes) or exc) from exc
    tmp = Path(tmp_name)
    try:
        try:
            fill(fd)
            fs.fsync(fd)
        finally:
            os.close(fd)
        os.chmod(tmp, mode)
        if check is not None:
            check(tmp)
        _announce([path], new=False)
        fs.replace(tmp, path)
        _fsync_dir(path.parent)
    except BaseException as exc:
        with suppress(FileNotFoundError):
            tmp.unlink()
        if isinstance(exc, OSError) and (typed := from_os_error(exc, path, needed_bytes=needed_bytes)):
            raise typed from exc
        raise


# A part of a file written by atomic_write_parts: new bytes, or (offset, length) of a byte range
# to copy from the file being replaced.
Part = bytes | tuple[int, int]


def _copy_all(source: int, fd: int, offset: int, count: int) -> None:
    while count > 0:
        try:
            done = fs.copy_range(source, fd, offset, count)
        except OSError as exc:  # no in-kernel copy across these files: read and write
            if exc.errno not in (errno.EXDEV, errno.ENOSYS, errno.EINVAL, errno.EOPNOTSUPP):
                raise
            done = 0
        if done <= 0:
            chunk = os.pread(source, min(count, 1 << 24), offset)
            if not chunk:
                raise OSError(errno.EIO, "the file being replaced got shorter while copied")
            write_all(fd, chunk)
            done = len(chunk)
        offset += done
        count -= done


def _write_parts(path: Path, fd: int, parts: list[Part]) -> None:
    source = path.open("rb") if any(isinstance(part, tuple) for part in parts) else None
    try:
        for part in parts:
            if isinstance(part, bytes):
                write_all(fd, part)
            elif source is not None:
                _copy_all(source.fileno(), fd, *part)
    finally:
        if source is not None:
            source.close()


def atomic_write_parts(path: Path, parts: list[Part], *, mode: int = 0o644) -> None:
    """Replace `path` atomically (temp file, fsync, journal, rename) with `parts` in order: new
    bytes, and byte ranges of the current file copied in the kernel, so a large file of which
    little changes is never read into this process. Not re-parsed: for bytes assembled from
    validated data and from ranges of a file membank wrote (tasks/store/graph_segments.py)."""
    _replace_file(path, lambda fd: _write_parts(path, fd, parts), mode=mode)


def atomic_write_chunks(path: Path, chunks: Iterable[bytes], *, mode: int = 0o644) -> None:
    """Replace `path` atomically (as atomic_write_parts) with `chunks` written as they come, so
    the whole file is never held in this process. An error raised while producing them leaves
    `path` as it was. Not re-parsed: for bytes assembled from validated data."""
    def fill(fd: int) -> None:
        for chunk in chunks:
            write_all(fd, chunk)

    _replace_file(path, fill, mode=mode)


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


def _write_temp(path: Path, data: bytes, mode: int) -> Path:
    """A uniquely named temp file beside `path` holding `data` with `mode`; removed on failure."""
    try:
        fd, tmp_name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    except OSError as exc:
        raise (from_os_error(exc, path, needed_bytes=len(data)) or exc) from exc
    try:
        try:
            os.fchmod(fd, mode)
            write_all(fd, data)
        finally:
            os.close(fd)
    except BaseException as exc:
        with suppress(FileNotFoundError):
            os.unlink(tmp_name)
        if isinstance(exc, OSError) and (typed := from_os_error(exc, path, needed_bytes=len(data))):
            raise typed from exc
        raise
    return Path(tmp_name)


def _temp_of(entry: Path | Future[Path]) -> Path:
    return entry.result() if isinstance(entry, Future) else entry


# Targets of one folder checked by an lstat each before StagedWrites lists the folder.
STAT_CHECKS_BEFORE_LISTING = 32


class StagedWrites:
    """Many new files made durable with one filesystem sync instead of one fsync each.

    `stage` writes a uniquely named temp file beside its target (re-parsed like
    atomic_write_bytes); `commit` syncs the filesystem once, renames every temp file into place
    and fsyncs each folder once. A crash leaves whole files or temp files, never half a file;
    `discard` removes what a failed group staged. Only for files that do not exist yet: the
    first few targets of a folder are checked by an lstat each, then the folder is listed once
    and the others checked against that listing (one syscall per folder instead of a stat per
    file; a listing of raw/'s 20,000 names costs ~10 ms, for the two files a one-note ingest
    stages there), so use it under the root lock, where no one else adds files to those
    folders meanwhile. With `replacing`, a target may exist (it is
    replaced whole at commit, as atomic_write_bytes would, and announced to the journal as a
    replacement); a target that is itself a symlink is refused.

    With `io_threads`, the temp files are created and written by that many threads while the
    caller goes on rendering (file creation is syscall-bound: each call releases the GIL and
    then waits to get it back from busy threads, so several in flight hide that wait). A
    failed write then surfaces at `commit`, which removes every staged file and raises.
    Call `close` when done (the context manager does).
    """

    def __init__(self, io_threads: int = 0, *, replacing: bool = False) -> None:
        self._replacing = replacing
        self._staged: list[tuple[Path | Future[Path], Path]] = []
        self._targets: set[Path] = set()
        self._folders: set[Path] = set()
        self._listings: dict[Path, frozenset[str]] = {}
        self._checked: dict[Path, int] = {}  # folder -> targets checked by lstat
        self._pool = (ThreadPoolExecutor(io_threads, thread_name_prefix="staged-writes")
                      if io_threads > 0 else None)

    def __enter__(self) -> StagedWrites:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True)
            self._pool = None

    def _exists(self, path: Path) -> bool:
        folder = path.parent
        if folder not in self._listings:
            checked = self._checked[folder] = self._checked.get(folder, 0) + 1
            if checked <= STAT_CHECKS_BEFORE_LISTING:
                return os.path.lexists(path)
        return path.name in self._existing_names(folder)

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
        if path in self._targets or (not self._replacing and self._exists(path)):
            raise FileExistsError(f"{path} already exists")
        if self._replacing:
            refuse_symlink(path)
        validator = default_validator(path) if validate is True else (validate or None)
        if validator is not None:
            validator(data, path)
        if path.parent not in self._folders:
            ensure_folder(path.parent)  # refuses a folder reached through a symlink
            self._folders.add(path.parent)
        entry: Path | Future[Path] = (self._pool.submit(_write_temp, path, data, mode)
                                      if self._pool is not None else _write_temp(path, data, mode))
        self._staged.append((entry, path))
        self._targets.add(path)

    def mark(self) -> int:
        return len(self._staged)

    def discard(self, since: int = 0) -> None:
        for entry, target in self._staged[since:]:
            self._targets.discard(target)
            try:
                tmp = _temp_of(entry)
            except BaseException:  # that write failed and left nothing behind
                continue
            with suppress(FileNotFoundError):
                tmp.unlink()
        del self._staged[since:]

    def commit(self) -> list[Path]:
        if not self._staged:
            return []
        try:
            staged = [(_temp_of(entry), target) for entry, target in self._staged]
        except BaseException:
            self.discard()
            raise
        _sync_filesystem(staged[0][1].parent)
        _announce([target for _tmp, target in staged], new=not self._replacing)
        folders: dict[Path, None] = {}
        done: list[Path] = []
        for tmp, target in staged:
            fs.replace(tmp, target)
            folders[target.parent] = None
            done.append(target)
        for folder in folders:
            _fsync_dir(folder)
        self._staged = []
        self._targets = set()
        return done
