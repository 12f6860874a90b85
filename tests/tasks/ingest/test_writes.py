"""Nothing half-written: staged bulk writes and a writer that fails part way."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest

from tasks.ingest import apply as ingest_apply
from tasks.ingest import collect_inputs, prepare_batch, write_ingest
from tasks.store.atomic import StagedWrites
from tasks.store.errors import ContractError, InputError
from tasks.store.settings import load_settings


def test_staged_files_appear_only_on_commit(tmp_path: Path) -> None:
    staged = StagedWrites()
    staged.stage(tmp_path / "a" / "one.txt", b"one", validate=False, mode=0o444)
    staged.stage(tmp_path / "two.md", b"---\ntitle: x\n---\n\nbody\n")
    assert not (tmp_path / "a" / "one.txt").exists() and not (tmp_path / "two.md").exists()
    with pytest.raises(FileExistsError):
        staged.stage(tmp_path / "two.md", b"again", validate=False)
    assert staged.commit() == [tmp_path / "a" / "one.txt", tmp_path / "two.md"]
    assert (tmp_path / "a" / "one.txt").read_bytes() == b"one"
    assert stat.S_IMODE((tmp_path / "a" / "one.txt").stat().st_mode) == 0o444
    assert not list(tmp_path.rglob("*.tmp"))


def test_discard_and_validation_leave_nothing(tmp_path: Path) -> None:
    staged = StagedWrites()
    staged.stage(tmp_path / "keep.txt", b"keep", validate=False)
    mark = staged.mark()
    staged.stage(tmp_path / "drop.txt", b"drop", validate=False)
    staged.discard(mark)
    with pytest.raises(ContractError):
        staged.stage(tmp_path / "bad.md", b"---\n: [\n---\nbody\n")
    staged.commit()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["keep.txt"]


def make_sources(folder: Path) -> Path:
    folder.mkdir()
    for name in ("alpha-note", "beta-note", "gamma-note"):
        (folder / f"{name}.md").write_text(f"# {name}\n\nAbout {name}.\n", encoding="utf-8")
    return folder


def test_one_failing_source_leaves_no_trace(memory_root: Path, tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch,
                                            fixed_clock_env: str) -> None:
    folder = make_sources(tmp_path / "in")
    real = ingest_apply.render_source_page

    def failing(prepared, names, now, supersedes=None):  # type: ignore[no-untyped-def]
        if names.slug == "beta-note":
            raise InputError("simulated render failure", file=prepared.input.display)
        return real(prepared, names, now, supersedes)

    monkeypatch.setattr(ingest_apply, "render_source_page", failing)  # the writer looks it up there
    settings = load_settings(memory_root)
    inputs, problems = collect_inputs([folder])
    report = write_ingest(settings, prepare_batch(inputs, settings), problems)
    assert [p.code for p in report.problems] == ["write_failed"]
    raw = sorted(p.name for p in (memory_root / "raw").iterdir() if p.is_file())
    assert raw == ["2026-03-24T22-40-05Z__alpha-note.md", "2026-03-24T22-40-05Z__gamma-note.md"]
    assert not list(memory_root.rglob("*.tmp"))
    assert "beta-note" not in (memory_root / "index.md").read_text()


def test_a_crash_mid_batch_makes_nothing_visible(memory_root: Path, tmp_path: Path,
                                                 fixed_clock_env: str) -> None:
    folder = make_sources(tmp_path / "in")
    settings = load_settings(memory_root)
    inputs, problems = collect_inputs([folder])
    prepared = prepare_batch(inputs, settings)

    def crashing():  # type: ignore[no-untyped-def]
        yield prepared[0]
        yield prepared[1]
        raise RuntimeError("worker died")

    with pytest.raises(RuntimeError):
        write_ingest(settings, crashing(), problems)
    assert not [p for p in (memory_root / "raw").iterdir() if p.is_file()]
    assert not list((memory_root / "wiki/sources").glob("2026*"))
    assert not list(memory_root.rglob("*.tmp"))


def test_staging_refuses_a_file_that_existed_before(tmp_path: Path) -> None:
    (tmp_path / "old.txt").write_bytes(b"old")
    staged = StagedWrites()
    staged.stage(tmp_path / "new.txt", b"new", validate=False)  # lists the folder once
    with pytest.raises(FileExistsError):
        staged.stage(tmp_path / "old.txt", b"other", validate=False)
    staged.stage(tmp_path / "deep" / "er" / "x.txt", b"x", validate=False)  # folder made on stage
    assert staged.commit() == [tmp_path / "new.txt", tmp_path / "deep" / "er" / "x.txt"]
    assert (tmp_path / "old.txt").read_bytes() == b"old"
    assert (tmp_path / "deep" / "er" / "x.txt").read_bytes() == b"x"


def test_threaded_staging_commits_in_order_and_a_failed_write_leaves_nothing(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from tasks.store import atomic

    with StagedWrites(io_threads=3) as staged:
        for number in range(20):
            staged.stage(tmp_path / "d" / f"f{number:02d}.txt", str(number).encode(), validate=False)
        mark = staged.mark()
        staged.stage(tmp_path / "d" / "dropped.txt", b"x", validate=False)
        staged.discard(mark)
        done = staged.commit()
    assert done == [tmp_path / "d" / f"f{number:02d}.txt" for number in range(20)]
    assert [p.read_bytes() for p in done] == [str(n).encode() for n in range(20)]
    assert sorted(p.name for p in (tmp_path / "d").iterdir()) == [p.name for p in done]

    real = atomic._write_temp

    def failing(path: Path, data: bytes, mode: int) -> Path:
        if path.name == "bad.txt":
            raise OSError(28, "No space left on device")
        return real(path, data, mode)

    monkeypatch.setattr(atomic, "_write_temp", failing)
    with StagedWrites(io_threads=2) as staged:
        staged.stage(tmp_path / "e" / "good.txt", b"good", validate=False)
        staged.stage(tmp_path / "e" / "bad.txt", b"bad", validate=False)
        with pytest.raises(OSError, match="No space"):
            staged.commit()
    assert list((tmp_path / "e").iterdir()) == []
