"""Ingest inputs: paths, folders and globs -> SourceInput list + problems (filesystem only),
and the split of the inputs into batches."""

from __future__ import annotations

import errno
import glob
import os
import re
import stat
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path, PurePosixPath

from schemas.report import Problem
from tasks.memstores.discover import StoreRoles
from tasks.memstores.store_names import MEM_DIR, is_mem_store

_GLOB_CHARS = re.compile(r"[*?\[]")


# --------------------------------------------------------------------------------------------
# Inputs


@dataclass(frozen=True)
class SourceInput:
    """One file to ingest: where it is, what it is called in reports, and its size on disk."""

    path: str  # absolute path (symlinks not resolved): the original path recorded in the manifest
    display: str  # as the user would recognize it
    size: int
    store_role: str | None = None  # a memory store's file (tasks/memstores): `mem:<rel>`, `custodian:<rel>`
    # Its path from the ingested folder's parent (`raw-samples/decisions/a.md`; a file given
    # alone: `<its folder>/<name>`): what memory files record, so no workstation path leaks
    # into them and the same tree ingested from two places reads the same.
    relative: str = ""

    @property
    def source_path(self) -> str:
        return self.relative or self.path


def make_problem(file: str | Path, code: str, message: str, hint: str | None = None) -> Problem:
    return Problem(file=str(file), code=code, message=message, hint=hint)


def _inside(path: Path, folder: Path) -> bool:
    try:
        path.resolve().relative_to(folder.resolve())
    except (ValueError, RuntimeError, OSError):  # RuntimeError: a symlink loop (Python 3.11)
        return False
    return True


def _symlink_loop(path: Path) -> bool:
    """True when following `path` never ends (Path.resolve raises RuntimeError on 3.11,
    OSError ELOOP on later versions)."""
    try:
        path.resolve(strict=True)
    except RuntimeError:
        return True
    except OSError as exc:
        return exc.errno == errno.ELOOP
    return False


def _loop_problem(display: str, path: Path) -> Problem:
    return make_problem(display, "symlink_loop",
                        f"symlink loop: {path} -> {os.readlink(path)} never reaches a file; not stored",
                        "remove or fix the symlink")


def _check_file(path: Path, base: Path, display: str) -> SourceInput | Problem:
    if path.is_symlink() and _symlink_loop(path):
        return _loop_problem(display, path)
    if path.is_symlink() and not _inside(path, base):
        return make_problem(display, "symlink_outside",
                            f"symlink points outside {base}: {os.readlink(path)}",
                            "copy the file into the folder you ingest, or ingest its real path")
    try:
        info = path.stat()
    except FileNotFoundError:
        return make_problem(display, "not_found", "path does not exist (dangling symlink?)")
    except OSError as exc:
        return make_problem(display, "unreadable", f"cannot read file: {exc.strerror}")
    if not stat.S_ISREG(info.st_mode):
        return make_problem(display, "not_a_file", "not a regular file")
    absolute = os.path.abspath(path)
    relative = os.path.relpath(absolute, os.path.dirname(os.path.abspath(base)))
    return SourceInput(absolute, display, info.st_size,
                       relative=PurePosixPath(Path(relative).as_posix()).as_posix())


def _walk(folder: Path, display: str) -> list[SourceInput | Problem]:
    """Files under a folder, recursively, sorted by relative path; hidden names are skipped."""
    found = sorted(_walk_unsorted(folder, display),
                   key=lambda item: item.display if isinstance(item, SourceInput) else str(item.file))
    return found


def _walk_unsorted(folder: Path, display: str) -> Iterable[SourceInput | Problem]:
    unlistable: list[OSError] = []  # os.walk reports a folder it cannot list here, then goes on
    for current, dirnames, filenames in os.walk(folder, onerror=unlistable.append, followlinks=False):
        here = Path(current)
        kept = []
        for name in sorted(dirnames):
            sub = here / name
            if name.startswith(".") and not (name == MEM_DIR and is_mem_store(sub)):
                continue  # hidden, except a .mem/ store (spec/mem-jsonl.md)
            if sub.is_symlink():
                shown = os.path.join(display, os.path.relpath(sub, folder))
                if _symlink_loop(sub):
                    yield _loop_problem(shown, sub)
                elif not _inside(sub, folder):
                    yield make_problem(os.path.join(display, os.path.relpath(sub, folder)), "symlink_outside",
                                       f"symlinked folder points outside {folder}: {os.readlink(sub)}",
                                       "ingest the real folder instead")
                continue
            kept.append(name)
        dirnames[:] = kept
        for name in sorted(filenames):
            if name.startswith("."):
                continue
            shown = os.path.join(display, os.path.relpath(here / name, folder))
            yield _check_file(here / name, folder, shown)
    for exc in unlistable:
        where = Path(exc.filename) if exc.filename else folder
        yield make_problem(os.path.join(display, os.path.relpath(where, folder)), "unlistable_folder",
                           f"cannot list folder: {exc.strerror}; nothing under it was stored",
                           "give the user running membank read and execute permission on it")


def collect_inputs(paths: Sequence[str | Path]) -> tuple[list[SourceInput], list[Problem]]:
    """Expand files, folders (recursively, sorted) and globs; every miss becomes a Problem."""
    inputs: list[SourceInput] = []
    problems: list[Problem] = []
    seen: set[str] = set()

    def add(found: Iterable[SourceInput | Problem]) -> None:
        for item in found:
            if isinstance(item, Problem):
                problems.append(item)
            elif item.path not in seen:
                seen.add(item.path)
                inputs.append(item)

    for raw in paths:
        text = str(raw)
        path = Path(text).expanduser()
        if not path.exists() and not path.is_symlink() and _GLOB_CHARS.search(text):
            matches = sorted(glob.glob(str(path), recursive=True))
            if not matches:
                problems.append(make_problem(text, "not_found", "no file matches this pattern"))
            for match in matches:
                match_path = Path(match)
                add(_walk(match_path, match) if match_path.is_dir() else
                    [_check_file(match_path, match_path.parent, match)])
        elif path.is_dir() and not path.is_symlink():
            add(_walk(path, text.rstrip("/") or text))
        elif path.exists() or path.is_symlink():
            add([_check_file(path, path.absolute().parent, text)])
        else:
            problems.append(make_problem(text, "not_found", "path does not exist"))
    roles = StoreRoles()
    inputs = [replace(item, store_role=role) if (role := roles.role(item.path)) else item
              for item in inputs]
    return inputs, problems


def plan_batches(inputs: Sequence[SourceInput], batches: int) -> list[list[SourceInput]]:
    """Contiguous batches of about equal bytes (order kept, so the writer sees input order)."""
    if not inputs:
        return []
    count = max(1, min(batches, len(inputs)))
    total = sum(max(i.size, 1) for i in inputs)
    target = total / count
    result: list[list[SourceInput]] = [[]]
    filled = 0
    for item in inputs:
        if result[-1] and filled >= target * len(result) and len(result) < count:
            result.append([])
        result[-1].append(item)
        filled += max(item.size, 1)
    return result
