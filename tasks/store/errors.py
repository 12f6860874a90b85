"""The one error hierarchy of membank.

    MembankError                 any failure we can explain: file, cause, hint
    ├── InputError               a bad input file or argument (the run goes on with the rest)
    │   └── AmbiguousNameError   a name the naming standard rejects
    ├── ContractError            a file that breaks a contract (JSONC, frontmatter, schema)
    ├── ClockError               the canonical UTC clock cannot be read (recoverable: retry)
    ├── LockTimeoutError         another writer holds the memory root (recoverable: retry)
    ├── RootError                the memory root cannot be used (missing, unreadable, escape)
    │   └── RootBoundaryError    a write would go through a symlink inside the root
    ├── DiskFullError            no space left for a write (names the file and what it needs)
    └── PermissionDeniedError    the operating system refused a read or write

`exit_code` follows the CLI convention: 2 means the command could not run, 1 means it ran
and found problems.
"""

from __future__ import annotations

from pathlib import Path


class MembankError(Exception):
    exit_code: int = 2
    recoverable: bool = False

    def __init__(self, cause: str, *, file: str | Path | None = None, hint: str | None = None):
        self.cause = cause
        self.file = str(file) if file is not None else None
        self.hint = hint
        super().__init__(self.one_line())

    def one_line(self) -> str:
        where = f"{self.file}: " if self.file else ""
        hint = f" (hint: {self.hint})" if self.hint else ""
        return f"{where}{self.cause}{hint}"


class InputError(MembankError):
    exit_code = 1


class AmbiguousNameError(InputError):
    pass


class ContractError(MembankError):
    exit_code = 1


class ClockError(MembankError):
    recoverable = True


class LockTimeoutError(MembankError):
    recoverable = True


class RootError(MembankError):
    pass


class RootBoundaryError(RootError):
    pass


class DiskFullError(MembankError):
    pass


class PermissionDeniedError(MembankError):
    pass


def _free_bytes(path: Path) -> int | None:
    import shutil

    for folder in (path, *path.parents):
        try:
            return shutil.disk_usage(folder).free
        except OSError:
            continue
    return None


def from_os_error(exc: OSError, file: str | Path | None = None, *,
                  needed_bytes: int | None = None) -> MembankError | None:
    """The typed error of an expected operating-system failure (disk full, permission denied,
    read-only filesystem), or None when `exc` is something else."""
    import errno

    where = file if file is not None else exc.filename
    if exc.errno in (errno.ENOSPC, errno.EDQUOT):
        free = _free_bytes(Path(where)) if where is not None else None
        need = f"{needed_bytes:,} bytes needed" if needed_bytes is not None else "more space needed"
        have = f", {free:,} bytes free" if free is not None else ""
        return DiskFullError(f"disk full: {need}{have}", file=where,
                             hint="free space on that filesystem, then rerun (nothing was half-written)")
    if exc.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
        cause = "read-only filesystem" if exc.errno == errno.EROFS else "permission denied"
        return PermissionDeniedError(cause, file=where,
                                     hint="give the user running membank read and write access")
    return None
