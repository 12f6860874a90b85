import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tasks.store import atomic
from tasks.store.atomic import StagedWrites, atomic_write_bytes, atomic_write_text, file_holds
from tasks.store.errors import ContractError, RootBoundaryError

REPO_ROOT = Path(__file__).resolve().parents[3]


def test_write_creates_and_skips_unchanged(tmp_path: Path) -> None:
    target = tmp_path / "sub" / "page.txt"
    assert atomic_write_text(target, "one\n") is True
    mtime = target.stat().st_mtime_ns
    assert atomic_write_text(target, "one\n") is False
    assert target.stat().st_mtime_ns == mtime
    assert atomic_write_text(target, "two\n") is True
    assert target.read_text() == "two\n"
    assert [p.name for p in target.parent.iterdir()] == ["page.txt"]  # no temp left behind


def test_file_holds_compares_size_then_chunks(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                              ) -> None:
    """A file is compared with the bytes meant to replace it a chunk at a time (never read
    whole): equal only when every chunk and the size are; a difference in any chunk, the last
    byte or the length is one; no file is no match."""
    monkeypatch.setattr(atomic, "_COMPARE_CHUNK", 4)
    target = tmp_path / "cache.json"
    assert file_holds(target, b"") is False
    data = b"0123456789abcdef!"  # 17 bytes: four whole chunks and one byte
    target.write_bytes(data)
    assert file_holds(target, data) is True
    for at in (0, 5, 15, 16):
        changed = bytearray(data)
        changed[at] ^= 1
        assert file_holds(target, bytes(changed)) is False
    assert file_holds(target, data[:-1]) is False and file_holds(target, data + b"x") is False
    target.write_bytes(b"")
    assert file_holds(target, b"") is True
    target.write_bytes(data)
    assert atomic_write_bytes(target, data, validate=False) is False
    assert atomic_write_bytes(target, data[:8] + b"X" + data[9:], validate=False) is True


def test_staged_replacing_puts_whole_files_in_place_at_commit(tmp_path: Path) -> None:
    """distill's entity pages: existing pages and new ones staged, in place only at commit."""
    old, new = tmp_path / "a.md", tmp_path / "sub" / "b.md"
    old.write_text("old\n")
    with StagedWrites(2, replacing=True) as staged:
        staged.stage(old, b"---\ntitle: A\n---\nnew\n")
        staged.stage(new, b"b\n", validate=False)
        assert old.read_text() == "old\n" and not new.exists()
        assert staged.commit() == [old, new]
    assert old.read_text() == "---\ntitle: A\n---\nnew\n" and new.read_text() == "b\n"
    assert sorted(p.name for p in tmp_path.rglob("*")) == ["a.md", "b.md", "sub"]  # no temp left


def test_staged_replacing_refuses_a_symlink_and_a_broken_page(tmp_path: Path) -> None:
    real, link = tmp_path / "real.md", tmp_path / "link.md"
    real.write_text("x\n")
    link.symlink_to(real)
    with StagedWrites(replacing=True) as staged, pytest.raises(RootBoundaryError):
        staged.stage(link, b"y\n", validate=False)
    with StagedWrites(replacing=True) as staged:
        staged.stage(tmp_path / "c.md", b"c\n", validate=False)
        with pytest.raises(ContractError):
            staged.stage(real, b"---\n: [\n---\nbody\n")
        staged.discard()
    assert real.read_text() == "x\n" and sorted(p.name for p in tmp_path.iterdir()) == [
        "link.md", "real.md"]
    with StagedWrites() as staged, pytest.raises(FileExistsError):  # not replacing: refused
        staged.stage(real, b"z\n", validate=False)


def test_staged_new_files_refuse_existing_names_checked_by_lstat_then_by_listing(tmp_path: Path) -> None:
    """A target that exists (a file, a folder, a broken symlink) is refused whether its folder's
    first targets are checked one by one or the later ones against the folder's listing."""
    from tasks.store import atomic

    count = atomic.STAT_CHECKS_BEFORE_LISTING + 5
    taken = {3: "file", count - 2: "folder", count - 1: "link"}
    for number, kind in taken.items():
        target = tmp_path / f"n{number}.md"
        if kind == "file":
            target.write_text("old")
        elif kind == "folder":
            target.mkdir()
        else:
            target.symlink_to(tmp_path / "nowhere")
    refused = []
    with StagedWrites() as staged:
        for number in range(count):
            try:
                staged.stage(tmp_path / f"n{number}.md", b"# new\n")
            except FileExistsError:
                refused.append(number)
        assert staged._listings  # (the later targets: against the folder's listing)
        staged.commit()
    assert refused == sorted(taken)
    assert (tmp_path / "n3.md").read_text() == "old" and (tmp_path / "n0.md").read_text() == "# new\n"


def test_invalid_json_is_never_written(tmp_path: Path) -> None:
    target = tmp_path / "graph.jsonc"
    atomic_write_text(target, '{"ok": true}\n')
    with pytest.raises(ContractError, match="malformed JSONC"):
        atomic_write_text(target, '{"ok": tru')
    assert target.read_text() == '{"ok": true}\n'
    assert [p.name for p in tmp_path.iterdir()] == ["graph.jsonc"]


def test_broken_frontmatter_is_never_written(tmp_path: Path) -> None:
    target = tmp_path / "page.md"
    with pytest.raises(ContractError, match="frontmatter"):
        atomic_write_text(target, "---\nkey: [unclosed\n---\nbody\n")
    assert not target.exists()


def test_mode_is_applied(tmp_path: Path) -> None:
    target = tmp_path / "raw.txt"
    atomic_write_bytes(target, b"x", mode=0o444)
    assert target.stat().st_mode & 0o777 == 0o444


WRITER = """
import sys
from pathlib import Path
from tasks.store.atomic import atomic_write_text
target = Path(sys.argv[1])
versions = [("A" * 400_000) + "\\n", ("B" * 700_000) + "\\n"]
i = 0
print("ready", flush=True)
while True:
    atomic_write_text(target, versions[i % 2], validate=False)
    i += 1
"""


def test_killed_writer_leaves_complete_old_or_new_file(tmp_path: Path) -> None:
    """Kill a writer mid-write many times: the target is always one complete version."""
    target = tmp_path / "target.txt"
    target.write_text("A" * 400_000 + "\n")
    valid = {"A" * 400_000 + "\n", "B" * 700_000 + "\n"}
    rng = random.Random(7)
    env = {**os.environ, "PYTHONPATH": str(REPO_ROOT)}
    for _ in range(25):
        proc = subprocess.Popen(
            [sys.executable, "-c", WRITER, str(target)], stdout=subprocess.PIPE, env=env
        )
        assert proc.stdout is not None and proc.stdout.readline().strip() == b"ready"
        time.sleep(rng.uniform(0.0, 0.05))
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        assert target.read_text() in valid
