"""Compiled regular expressions for a command's imports, from a cache that loads faster than
compiling.

Every one-note ingest imports the extractor and the markdown reader, whose modules compile about
1,300 patterns at import (780 distinct): ~0.13-0.35 s of cpu by load, most of it `re`'s parser and
code generator in Python, paid by every command for patterns that never change. What they make
is a list of integers per pattern (the code `_sre` runs) and its group tables; `_sre.compile`
turns that into the pattern object in microseconds. So `compiled_from_cache` keeps, for one
window of imports, those tables by (kind, pattern, flags) in a marshal file beside this module's
bytecode (as Python keeps .pyc files: keyed by the interpreter's cache tag and `_sre`'s MAGIC,
never written under PYTHONDONTWRITEBYTECODE), and compiles from it: the same code for the same
pattern, so the same matches. A pattern not in the file is compiled as `re` does (the steps of
re._compiler.compile, here to keep their output) and the file is rewritten with what the window
used beside what it held (`kept_table`): a window that uses only patterns the file holds writes
nothing. Any surprise (a file of another shape, an `_sre` that takes other arguments) means `re`
compiles as before.
"""

from __future__ import annotations

import _sre  # (re's own engine)
import contextlib
import marshal
import os
import re
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from re import _compiler, _parser  # type: ignore[attr-defined]
from typing import Any

# (flags, code, groups - 1, group index, index group): _sre.compile's arguments after the pattern
Codes = tuple[int, list[int], int, dict[str, int], tuple[str | None, ...]]
CacheKey = tuple[bool, str | bytes, int]

_TAG = f"{sys.implementation.cache_tag}-{_sre.MAGIC}-{_sre.CODESIZE}"
_FORMAT = 1


def cache_file(window: str, folder: Path | None = None) -> Path:
    where = folder or Path(__file__).parent / "__pycache__"
    return where / f"regex-{window}.{_TAG}.marshal"


def codes_of(pattern: str | bytes, flags: int) -> Codes:
    """What re._compiler.compile hands _sre.compile for `pattern` (its steps, Python 3.11-3.13)."""
    tree = _parser.parse(pattern, flags)
    code = _compiler._code(tree, flags)
    index_group: list[str | None] = [None] * tree.state.groups
    for name, number in tree.state.groupdict.items():
        index_group[number] = name
    return (int(flags | tree.state.flags), [int(op) for op in code], tree.state.groups - 1,
            dict(tree.state.groupdict), tuple(index_group))


def _load(path: Path) -> dict[CacheKey, Codes]:
    try:
        data = marshal.loads(path.read_bytes())
    except (OSError, EOFError, ValueError, TypeError):
        return {}
    if not (isinstance(data, tuple) and len(data) == 3 and data[:2] == (_FORMAT, _TAG)
            and isinstance(data[2], dict)):
        return {}
    return data[2]


def _save(path: Path, table: dict[CacheKey, Codes]) -> None:
    save_marshal(path, (_FORMAT, _TAG, table))


def save_marshal(path: Path, payload: Any) -> None:  # (marshal: tuples, dicts, bytes, str, int)
    """`payload` marshalled into `path` beside the bytecode: best effort, atomic (a temp file
    renamed), so a read-only install keeps working without its cache."""
    with contextlib.suppress(OSError, ValueError):
        path.parent.mkdir(exist_ok=True)
        fd, temp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
        try:
            os.fchmod(fd, 0o644)  # (as Python's own .pyc files; mkstemp makes 0600)
            with os.fdopen(fd, "wb") as handle:
                handle.write(marshal.dumps(payload))
            os.replace(temp, path)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(temp)
            raise


@contextlib.contextmanager
def compiled_from_cache(window: str, folder: Path | None = None) -> Iterator[None]:
    """While the block runs (a command's imports, in its main thread), `re.compile` and the
    module-level functions take their code from the cache file of `window`."""
    path = cache_file(window, folder)
    table = _load(path)
    used: dict[CacheKey, Codes] = {}
    original: Callable[[Any, Any], re.Pattern[Any]] = re._compile  # type: ignore[attr-defined]
    broken = False

    def compile_cached(pattern: Any, flags: Any) -> re.Pattern[Any]:
        nonlocal broken
        if isinstance(flags, re.RegexFlag):
            flags = flags.value
        if broken or not isinstance(pattern, (str, bytes)) or not isinstance(flags, int) or (
                flags & (re.DEBUG | re.TEMPLATE if hasattr(re, "TEMPLATE") else re.DEBUG)):
            return original(pattern, flags)
        key = (isinstance(pattern, bytes), pattern, flags)
        codes = table.get(key) or used.get(key)
        if codes is None:
            try:
                codes = codes_of(pattern, flags)
            except Exception:  # (re's own error, raised by re as it always is)
                return original(pattern, flags)
        try:
            compiled: re.Pattern[Any] = _sre.compile(pattern, *codes)
        except (TypeError, ValueError, RuntimeError):  # another engine than the tag says
            broken = True
            return original(pattern, flags)
        used[key] = codes
        return compiled

    re._compile = compile_cached  # type: ignore[attr-defined]
    try:
        yield
    finally:
        re._compile = original  # type: ignore[attr-defined]
    if not broken and not used.keys() <= table.keys() and not sys.dont_write_bytecode:
        _save(path, kept_table(table, used))


def kept_table(table: dict[CacheKey, Codes], used: dict[CacheKey, Codes]) -> dict[CacheKey, Codes]:
    """What the file keeps after a window that used a pattern it lacks: the file's patterns and
    the window's, so that windows importing different modules (one command's note needs a module
    another's does not) do not rewrite it in turn; only the window's when the file's others
    outnumber them (patterns no longer in the code are let go)."""
    if len(table.keys() - used.keys()) > max(len(used), _KEEP_UNUSED):
        return used
    return {**table, **used}


_KEEP_UNUSED = 256
