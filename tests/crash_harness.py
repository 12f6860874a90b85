"""Crash injection for the writing flows: a test double of tasks.store.atomic's file system seam.

`CrashingFileSystem` counts every write, fsync, rename, link and unlink that memory writes are
made of (tasks/store/atomic.py and tasks/store/journal.py go through `tasks.store.atomic.fs`), and at step N
either ends the process on the spot (`os._exit`, a real kill: no except or finally runs) or
raises OSError(ENOSPC) (a full disk: the code's own error handling runs).

`run_killed_at` runs a command in a forked child that dies at step N; the parent then reruns
the same command and compares the root with a clean run's (files outside .membank/, log.md and
context/health/).
"""

from __future__ import annotations

import errno
import os
import shutil
import threading
from collections.abc import Callable
from pathlib import Path

from tasks.store import atomic
from tests import snapshots

KILLED = 137  # the exit status the child uses for "killed at step N"
COMPLETED = 0
FAILED = 3  # the child raised instead (only ENOSPC children are expected to)
IGNORED = (".membank", "context/health")


class CrashingFileSystem(atomic.FileSystem):
    """Counts steps; at step `crash_at` (1-based) kills the process or raises ENOSPC."""

    def __init__(self, crash_at: int | None = None, *, mode: str = "kill",
                 kinds: frozenset[str] = frozenset({"write", "fsync", "replace", "link", "unlink"})
                 ) -> None:
        self.crash_at = crash_at
        self.mode = mode
        self.kinds = kinds
        self.steps = 0
        self.trace: list[str] = []
        self._lock = threading.Lock()

    def _step(self, kind: str, where: object = "") -> None:
        if kind not in self.kinds:
            return
        with self._lock:
            self.steps += 1
            hit = self.steps == self.crash_at
            self.trace.append(f"{kind} {where}")
        if hit:
            if self.mode == "kill":
                os._exit(KILLED)
            raise OSError(errno.ENOSPC, "No space left on device (injected)", str(where))

    def write(self, fd: int, data: memoryview) -> int:
        self._step("write", fd)
        return super().write(fd, data)

    def fsync(self, fd: int) -> None:
        self._step("fsync", fd)
        super().fsync(fd)

    def replace(self, source: str | Path, target: str | Path) -> None:
        self._step("replace", target)
        super().replace(source, target)

    def link(self, source: str | Path, target: str | Path) -> None:
        self._step("link", target)
        super().link(source, target)

    def unlink(self, path: str | Path) -> None:
        self._step("unlink", path)
        super().unlink(path)


Command = Callable[[Path], object]


def tree(root: Path) -> dict[str, bytes]:
    """What a clean run and a healed run must agree on."""
    files = snapshots.snapshot(root, skip=IGNORED)
    files.pop("log.md", None)
    return files


def leftovers(root: Path) -> list[str]:
    """Temp files anywhere (our bookkeeping folder included) and an unfinished journal."""
    found = [p.relative_to(root).as_posix() for p in root.rglob(".*.tmp")
             if atomic.TEMP_NAME_RE.match(p.name)]
    state = root / ".membank"
    if state.is_dir():
        found += [f".membank/{n}" for n in os.listdir(state) if n.startswith("journal")]
    return sorted(found)


def count_steps(command: Command, root: Path, *, kinds: frozenset[str] | None = None) -> int:
    """Run `command` on `root` with a counting file system (no crash); return its step count."""
    counter = CrashingFileSystem() if kinds is None else CrashingFileSystem(kinds=kinds)
    previous, atomic.fs = atomic.fs, counter
    try:
        command(root)
    finally:
        atomic.fs = previous
    return counter.steps


def run_killed_at(command: Command, root: Path, step: int) -> int:
    """Run `command` in a forked child killed at `step`; return the child's exit status."""
    pid = os.fork()
    if pid == 0:  # the child: never returns into pytest
        code = FAILED
        try:
            atomic.fs = CrashingFileSystem(step, mode="kill")
            command(root)
            code = COMPLETED
        finally:
            os._exit(code)
    _pid, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status)


def run_out_of_space_at(command: Command, root: Path, write: int) -> BaseException | None:
    """Run `command` with ENOSPC at its `write`-th write; return what it raised, if anything."""
    previous = atomic.fs
    atomic.fs = CrashingFileSystem(write, mode="enospc", kinds=frozenset({"write"}))
    try:
        command(root)
    except (OSError, Exception) as exc:  # any error is the command's to report
        return exc
    finally:
        atomic.fs = previous
    return None


def fresh_copy(template: Path, where: Path) -> Path:
    if where.exists():
        shutil.rmtree(where)
    shutil.copytree(template, where, symlinks=True)
    return where


def sample(total: int, budget: int) -> list[int]:
    """Every step when `total` <= `budget`; else `budget` steps spread evenly, first and last
    included, plus the last four (the commit: its last write, the journal's rename)."""
    if total <= budget:
        return list(range(1, total + 1))
    stride = (total - 1) / (budget - 1)
    spread = {1 + round(i * stride) for i in range(budget)}
    return sorted(spread | set(range(max(1, total - 3), total + 1)))
