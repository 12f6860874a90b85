import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tasks.store.atomic import atomic_write_bytes, atomic_write_text
from tasks.store.errors import ContractError

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
