"""Reading raw files: a file that cannot be read is one Problem (one table of causes)."""

from __future__ import annotations

import gc
from pathlib import Path

from tasks.distill.plan import DistillSource, extract_batch, fewer_collections, read_problem
from tasks.extract import SourceRef


def item(path: Path) -> DistillSource:
    return DistillSource(SourceRef("a" * 64, "wiki/sources/a.md", f"raw/{path.name}"), path)


def test_unreadable_raw_files_are_problems_with_their_cause(tmp_path: Path) -> None:
    (tmp_path / "latin1.md").write_bytes(b"caf\xe9\n")
    (tmp_path / "ok.md").write_text("# Ok\n\n- [fact] Ok is fine\n")
    (tmp_path / "folder.md").mkdir()
    outcomes = extract_batch([item(tmp_path / name)
                              for name in ("missing.md", "latin1.md", "folder.md", "ok.md")])
    problems = [(o.problem.code, o.problem.message, o.problem.hint) if o.problem else None
                for o in outcomes]
    assert problems[:3] == [
        ("raw_missing", "raw file listed in the manifest is missing",
         "restore raw/ from git; raw files are never modified or deleted"),
        ("raw_not_utf8", "invalid UTF-8 at byte 3", "distill reads text sources only"),
        ("raw_unreadable", "cannot read: Is a directory", None),
    ]
    assert problems[3] is None and outcomes[3].extraction is not None
    assert all(o.problem.file == f"raw/{n}" for o, n in
               zip(outcomes, ("missing.md", "latin1.md", "folder.md"), strict=False) if o.problem)


def test_read_problem_names_the_file() -> None:
    problem = read_problem("raw/x.md", PermissionError(13, "Permission denied"))
    assert problem.one_line() == "raw/x.md: cannot read: Permission denied"


def test_fewer_collections_raises_the_threshold_and_only_its_raiser_restores_it() -> None:
    before = gc.get_threshold()
    with fewer_collections(50_000):
        assert gc.get_threshold() == (50_000, *before[1:])
        with fewer_collections(20_000):  # already higher: left as it is, not restored here
            assert gc.get_threshold()[0] == 50_000
        assert gc.get_threshold()[0] == 50_000
    assert gc.get_threshold() == before
