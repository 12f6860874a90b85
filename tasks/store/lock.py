"""One writer at a time per memory root.

The lock file (<root>/.membank/writer.lock) is never deleted on release: deleting it breaks
mutual exclusion. Who holds it (pid, host, since) is kept beside it for the timeout message.
Re-entrant within a process: an operation nested in another's hold (tasks.store.operation's
writing_operation inside a writer's phases) joins it instead of waiting for itself.

Readers (`reconcile --check`, `audit freshness`) take the same file in shared mode
(`memory_root_read_lock`: flock LOCK_SH, which filelock's LOCK_EX excludes), so they wait for a
writer's batch to finish and never read a half-written root.
"""

from __future__ import annotations

import os
import secrets
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import orjson
from filelock import FileLock, Timeout

from tasks.store.atomic import check_write_target, ensure_folder
from tasks.store.clock import Clock, iso_utc, system_clock
from tasks.store.errors import LockTimeoutError, RootError
from tasks.store.layout import STATE_DIR

_held: dict[Path, tuple[FileLock, int]] = {}
# This process in its holder records, and the record it wrote last per root (dropped when that
# hold ended in an error): while the holder file still holds it, no other process took the lock.
_PROCESS = secrets.token_hex(8)
_last_record: dict[Path, bytes] = {}
_unbroken: set[Path] = set()  # roots whose current hold follows this process's last one
# Roots whose current hold follows one (of any process) that ended without an error: its
# holder record was marked released (_RELEASED) once its work was done.
_after_clean: set[Path] = set()
_RELEASED = "released"
_owner_thread: dict[Path, int] = {}  # the thread that took the writer lock of a root
_readers: dict[tuple[Path, int], int] = {}  # (root, thread) -> depth of its shared holds
_guard = threading.RLock()


def holds_read_lock(root: Path) -> bool:
    """True when this thread holds `root`'s lock in shared mode: no writer can run, and this
    thread must not wait for the writer lock (it would wait for itself)."""
    with _guard:
        return (root.resolve(), threading.get_ident()) in _readers


def lock_paths(root: Path) -> tuple[Path, Path]:
    state = root / STATE_DIR
    return state / "writer.lock", state / "writer.holder.json"


def hold_follows_own(root: Path) -> bool:
    """True while this process holds `root`'s writer lock and no other process has held it
    since this process's previous hold, which ended without an error (the holder record
    found on taking the lock was the one this process wrote). A long-running writer (the MCP
    server) then knows nothing was left half-done in between."""
    with _guard:
        return root.resolve() in _unbroken


def follows_clean_release(root: Path) -> bool:
    """True while this process holds `root`'s writer lock and the hold before it (this or
    another process's) ended without an error: a process killed while holding the lock, or
    whose hold raised, never marks its record released."""
    with _guard:
        return root.resolve() in _after_clean


def _mark_released(holder_file: Path, record: bytes) -> bytes:
    """Mark the holder record `record` released (the hold's work is done); the record now in
    the file, or b"" when it could not be written (the next holder sweeps, as after a crash)."""
    released = orjson.dumps({**orjson.loads(record), _RELEASED: True})
    try:
        holder_file.write_bytes(released)
    except OSError:
        return b""
    return released


def _read_record(holder_file: Path) -> bytes | None:
    try:
        return holder_file.read_bytes()
    except OSError:
        return None


def _write_holder(key: Path, holder_file: Path, purpose: str, clock: Clock | None) -> bytes:
    """Record who holds the lock (for the timeout message), and note whether the record found
    there was the one this process wrote last (hold_follows_own)."""
    holder = {
        "pid": os.getpid(),
        "host": socket.gethostname(),
        "since": iso_utc((clock or system_clock()).now()),
        "purpose": purpose,
        "process": _PROCESS,
    }
    record, previous = orjson.dumps(holder), _read_record(holder_file)
    holder_file.write_bytes(record)
    try:
        clean = previous is not None and orjson.loads(previous).get(_RELEASED) is True
    except (orjson.JSONDecodeError, AttributeError):  # a torn or foreign record
        clean = False
    with _guard:
        if previous is not None and previous == _last_record.pop(key, None):
            _unbroken.add(key)
        if clean:
            _after_clean.add(key)
    return record


def read_holder(root: Path) -> dict[str, object] | None:
    try:
        holder = orjson.loads(lock_paths(root)[1].read_bytes())
    except (FileNotFoundError, orjson.JSONDecodeError):
        return None
    # A holder file that is valid JSON but not an object tells us nothing about the holder.
    return holder if isinstance(holder, dict) else None


def _describe(holder: dict[str, object] | None) -> str:
    if not holder:
        return "an unknown process"
    return f"pid {holder.get('pid')} on {holder.get('host')} since {holder.get('since')}"


@contextmanager
def memory_root_lock(
    root: Path, *, timeout: float, purpose: str = "write", clock: Clock | None = None
) -> Iterator[None]:
    """Hold the writer lock of `root`; wait up to `timeout` seconds, then raise LockTimeoutError."""
    key = root.resolve()
    with _guard:
        if key in _held:
            lock, depth = _held[key]
            _held[key] = (lock, depth + 1)
            reentered = True
        else:
            reentered = False
    if reentered:
        try:
            yield
        finally:
            with _guard:
                lock, depth = _held[key]
                if depth <= 1:
                    del _held[key]
                else:
                    _held[key] = (lock, depth - 1)
        return

    lock_file, holder_file = lock_paths(key)
    try:
        ensure_folder(lock_file.parent)  # refuses a .membank reached through a symlink
        check_write_target(lock_file)
        check_write_target(holder_file)
    except OSError as exc:
        raise RootError(f"cannot create the lock folder: {exc.strerror}", file=lock_file.parent) from exc
    lock = FileLock(str(lock_file), timeout=timeout, is_singleton=False)
    try:
        lock.acquire()
    except Timeout as exc:
        raise LockTimeoutError(
            f"memory root is locked by another writer ({_describe(read_holder(key))}); "
            f"waited {timeout:g} s",
            file=key,
            hint="wait for it to finish, or raise MEMBANK_LOCK_TIMEOUT_SECONDS",
        ) from exc
    with _guard:
        _held[key] = (lock, 1)
        _owner_thread[key] = threading.get_ident()
    try:
        record = _write_holder(key, holder_file, purpose, clock)
        yield
        record = _mark_released(holder_file, record)
        with _guard:
            _last_record[key] = record
    finally:
        with _guard:
            _held.pop(key, None)
            _owner_thread.pop(key, None)
            _unbroken.discard(key)
            _after_clean.discard(key)
        lock.release()


_READ_POLL_SECONDS = 0.05


@contextmanager
def memory_root_read_lock(root: Path, *, timeout: float) -> Iterator[None]:
    """Hold `root`'s lock in shared mode (many readers, no writer); wait up to `timeout`.

    A reader in the thread that holds the writer lock goes on under it; a reader in another
    thread of the same process waits like any other (flock locks conflict per open file)."""
    import fcntl  # POSIX only, like the flock the writer lock uses

    key = root.resolve()
    with _guard:
        held = _owner_thread.get(key) == threading.get_ident()
    if held:
        yield
        return
    lock_file, _holder = lock_paths(key)
    try:
        lock_file.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(lock_file, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as exc:
        raise RootError(f"cannot open the lock file: {exc.strerror}", file=lock_file) from exc
    try:
        deadline = time.monotonic() + timeout
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    raise LockTimeoutError(
                        f"memory root is being written ({_describe(read_holder(key))}); "
                        f"waited {timeout:g} s to read it",
                        file=key,
                        hint="wait for the writer to finish, or raise MEMBANK_LOCK_TIMEOUT_SECONDS",
                    ) from None
                time.sleep(_READ_POLL_SECONDS)
        reader = (key, threading.get_ident())
        with _guard:
            _readers[reader] = _readers.get(reader, 0) + 1
        try:
            yield
        finally:
            with _guard:
                if _readers[reader] > 1:
                    _readers[reader] -= 1
                else:
                    del _readers[reader]
    finally:
        os.close(fd)  # closing the descriptor releases the shared lock
