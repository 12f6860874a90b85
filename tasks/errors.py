"""The one error hierarchy of membank.

    MembankError                 any failure we can explain: file, cause, hint
    ├── InputError               a bad input file or argument (the run goes on with the rest)
    │   └── AmbiguousNameError   a name the naming standard rejects
    ├── ContractError            a file that breaks a contract (JSONC, frontmatter, schema)
    ├── ClockError               the canonical UTC clock cannot be read (recoverable: retry)
    ├── LockTimeoutError         another writer holds the memory root (recoverable: retry)
    └── RootError                the memory root cannot be used (missing, unreadable, escape)

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
