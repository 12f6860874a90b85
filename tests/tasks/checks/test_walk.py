"""The walk of a memory root (tasks/checks/walk.py): the same files, folders, symlinks and
stats as a plain os.walk with lstat, and a fingerprint that moves with any write."""

from __future__ import annotations

import gc
import os
from pathlib import Path

from tasks.checks.walk import Walked, walk_root


def _plain_walk(root: Path) -> dict[str, os.stat_result]:
    found: dict[str, os.stat_result] = {}
    for folder, dirs, files in os.walk(root):
        rel_folder = Path(folder).relative_to(root).as_posix()
        hidden = any(part.startswith(".") for part in Path(folder).relative_to(root).parts)
        if rel_folder in {"proposals", "context/health"} or hidden:
            dirs[:] = []
            continue
        for name in files:
            path = Path(folder) / name
            if not name.startswith(".") and not path.is_symlink():
                rel = path.relative_to(root).as_posix()
                found[rel] = os.lstat(path)
    return found


def _memory(root: Path) -> Path:
    for rel in ("wiki/concepts/a.md", "wiki/concepts/b.md", "raw/x.txt", "index.md",
                "proposals/p.md", ".membank/state.json", "context/health/latest.json",
                "wiki/.hidden.md", "deep/er/still/c.md"):
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(rel)
    (root / "wiki/link.md").symlink_to(root / "index.md")
    return root


def test_the_walk_sees_what_a_plain_walk_sees(tmp_path: Path) -> None:
    root = _memory(tmp_path / "memory")
    walked = walk_root(root)
    plain = _plain_walk(root)
    assert sorted(walked.stats) == sorted(plain)
    for rel, st in plain.items():
        got = walked.stats[rel]
        assert (got.st_ino, got.st_size, got.st_mtime_ns, got.st_ctime_ns, got.st_mode) == (
            st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_mode)
    assert walked.links == ["wiki/link.md"]
    assert walked.dirs == {"wiki", "wiki/concepts", "raw", "deep", "deep/er", "deep/er/still",
                           "context"}


def test_the_fingerprint_is_that_of_the_stats_and_moves_with_a_write(tmp_path: Path) -> None:
    root = _memory(tmp_path / "memory")
    walked = walk_root(root)
    from_stats = Walked(walked.stats, walked.dirs, walked.links, walked.temps)  # no rows
    assert walked.fingerprint() == from_stats.fingerprint() == walk_root(root).fingerprint()
    page = root / "wiki/concepts/a.md"
    st = page.stat()
    page.write_text("wiki/concepts/X.md"[: st.st_size])  # same size, mtime set back
    os.utime(page, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert walk_root(root).fingerprint() != walked.fingerprint()
    os.chmod(root / "raw/x.txt", 0o444)
    before = walk_root(root).fingerprint()
    os.chmod(root / "raw/x.txt", 0o444)
    assert walk_root(root).fingerprint() != before


def test_the_fingerprint_does_not_depend_on_the_order_of_the_stats(tmp_path: Path) -> None:
    root = _memory(tmp_path / "memory")
    walked = walk_root(root)
    backwards = dict(reversed(walked.stats.items()))
    assert list(backwards) != list(walked.stats)
    assert Walked(backwards, walked.dirs, walked.links, walked.temps).fingerprint() == \
        walked.fingerprint()
    fewer = dict(walked.stats)
    fewer.pop("index.md")
    assert Walked(fewer, walked.dirs, walked.links, walked.temps).fingerprint() != \
        walked.fingerprint()


def test_a_name_that_is_not_utf8_is_fingerprinted(tmp_path: Path) -> None:
    root = _memory(tmp_path / "memory")
    (root / os.fsdecode(b"wiki/concepts/caf\xe9.md")).write_text("x")
    walked = walk_root(root)
    assert os.fsdecode(b"wiki/concepts/caf\xe9.md") in walked.stats
    assert walked.fingerprint() == walk_root(root).fingerprint()
    (root / "index.md").write_text("changed, and longer than before")
    assert walk_root(root).fingerprint() != walked.fingerprint()


def test_the_walk_leaves_the_garbage_collector_as_it_found_it(tmp_path: Path) -> None:
    root = _memory(tmp_path / "memory")
    assert gc.isenabled()
    walk_root(root)
    assert gc.isenabled()
    gc.disable()
    try:
        walk_root(root)
        assert not gc.isenabled()
    finally:
        gc.enable()
