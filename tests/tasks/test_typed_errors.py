"""Expected failures are typed one-line errors, never "internal error ... a bug": disk full
(naming the file and the space it needs), permission denied, lock timeout, a root that is a file."""

from __future__ import annotations

import errno
import os
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from flows.cli.app import app
from flows.cli.stages import execute
from schemas.report import MemoryOperationReport
from tasks.ingest import collect_inputs, prepare_batch, write_ingest
from tasks.store import atomic
from tasks.store.atomic import StagedWrites, atomic_write_bytes
from tasks.store.errors import DiskFullError, LockTimeoutError, MembankError, PermissionDeniedError
from tasks.store.operation import writing_operation
from tasks.store.settings import load_settings
from tests.tasks.store.test_lock import hold_in_subprocess

NOW = "2026-03-24T22:40:05Z"


def no_space(*_: Any, **__: Any) -> Any:
    raise OSError(errno.ENOSPC, "No space left on device")


def test_disk_full_names_the_file_and_the_space_needed(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(atomic.os, "fsync", no_space)
    target = tmp_path / "wiki" / "page.md"
    with pytest.raises(DiskFullError) as caught:
        atomic_write_bytes(target, b"x" * 5000, validate=False)
    line = caught.value.one_line()
    assert str(target) in line and "5,000 bytes needed" in line and "bytes free" in line
    assert "\n" not in line and "bug" not in line
    assert not target.exists() and not list(target.parent.iterdir())  # no temp file left


def test_disk_full_in_a_staged_ingest_leaves_nothing(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "in"
    folder.mkdir()
    for name in ("alpha-note", "beta-note"):
        (folder / f"{name}.md").write_text(f"# {name}\n\nAbout {name}.\n")
    root = tmp_path / ".memories"
    settings = load_settings(root, fixed_clock=NOW)
    inputs, problems = collect_inputs([folder])
    prepared = prepare_batch(inputs, settings)
    write_ingest(settings, [], [])  # bootstrap first, with room to spare
    monkeypatch.setattr(atomic.os, "write", no_space)
    with pytest.raises(DiskFullError) as caught:
        write_ingest(settings, prepared, problems)
    assert "raw/" in caught.value.one_line() or "wiki/" in caught.value.one_line()
    assert [p.name for p in (root / "raw").iterdir() if p.is_file()] == []
    assert not list(root.rglob("*.tmp"))


def test_permission_denied_is_typed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def denied(*_: Any, **__: Any) -> Any:
        raise PermissionError(errno.EACCES, "Permission denied", str(tmp_path))

    monkeypatch.setattr(tempfile, "mkstemp", denied)
    with pytest.raises(PermissionDeniedError, match="permission denied"):
        atomic_write_bytes(tmp_path / "page.md", b"x", validate=False)
    with StagedWrites() as staged, pytest.raises(PermissionDeniedError):
        staged.stage(tmp_path / "raw.txt", b"x", validate=False)


def one_line_exit(action: Callable[[], MemoryOperationReport],
                  capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    with pytest.raises(typer.Exit) as exited:
        execute(action, False)
    return exited.value.exit_code, capsys.readouterr().err


@pytest.mark.parametrize("error", [
    OSError(errno.ENOSPC, "No space left on device", "/m/raw/x.md"),
    PermissionError(errno.EACCES, "Permission denied", "/m/wiki/page.md"),
    OSError(errno.EROFS, "Read-only file system", "/m/log.md"),
])
def test_the_cli_prints_os_errors_as_one_line(error: OSError,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    def action() -> MemoryOperationReport:
        raise error

    code, err = one_line_exit(action, capsys)
    assert code == 2 and err.count("\n") == 1
    assert str(error.filename) in err and "bug" not in err and "internal error" not in err


def test_lock_timeout_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = tmp_path / ".memories"
    root.mkdir()
    holder = hold_in_subprocess(root, 20)
    try:
        def action() -> MemoryOperationReport:
            with writing_operation(load_settings(root, lock_timeout_seconds=0.2), "ingest"):
                raise AssertionError("the lock was not held")

        code, err = one_line_exit(action, capsys)
    finally:
        holder.kill()
        holder.wait()
    assert code == 2 and err.count("\n") == 1
    assert f"pid {holder.pid}" in err and "bug" not in err
    assert issubclass(LockTimeoutError, MembankError)


def test_health_with_a_root_that_is_a_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "not-a-folder"
    target.write_text("x")
    monkeypatch.setenv("MEMBANK_ROOT", str(target))
    result = CliRunner().invoke(app, ["health"])
    assert result.exit_code == 2
    assert result.stderr.count("\n") == 1 and "not a folder" in result.stderr
    assert str(target) in result.stderr
    assert "Traceback" not in result.output + result.stderr
    assert os.path.isfile(target)
