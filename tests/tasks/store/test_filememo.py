"""A warm process's answers derived from a file are kept until the file changes."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tasks.store.filememo import while_unchanged


def test_an_answer_is_derived_again_only_when_its_file_changes(tmp_path: Path) -> None:
    file, calls = tmp_path / "index.md", []

    def count(path: Path) -> int:
        calls.append(path)
        return len(path.read_text().splitlines())

    file.write_text("a\nb\n")
    assert while_unchanged(file, "lines", count) == 2
    assert while_unchanged(file, "lines", count) == 2 and len(calls) == 1
    file.write_text("a\nb\nc\n")  # an edit in place: another size
    assert while_unchanged(file, "lines", count) == 3
    replacement = tmp_path / "new.md"
    replacement.write_text("x\ny\nz\n")  # the same size, renamed over it: another inode
    stat = file.stat()
    os.utime(replacement, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    os.replace(replacement, file)
    assert while_unchanged(file, "lines", count) == 3 and len(calls) == 3
    assert while_unchanged(file, "other kind", lambda _p: "own") == "own"


def test_a_missing_file_is_an_os_error(tmp_path: Path) -> None:
    with pytest.raises(OSError):
        while_unchanged(tmp_path / "gone.md", "lines", lambda _p: 0)
