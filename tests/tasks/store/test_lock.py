import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tasks.store.errors import LockTimeoutError
from tasks.store.lock import lock_paths, memory_root_lock, read_holder

REPO_ROOT = Path(__file__).resolve().parents[3]
HOLDER = """
import sys, time
from pathlib import Path
from tasks.store.lock import memory_root_lock
with memory_root_lock(Path(sys.argv[1]), timeout=5):
    print("held", flush=True)
    time.sleep(float(sys.argv[2]))
"""


def hold_in_subprocess(root: Path, seconds: float) -> subprocess.Popen[bytes]:
    proc = subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(root), str(seconds)],
        stdout=subprocess.PIPE,
        env={**os.environ, "PYTHONPATH": str(REPO_ROOT)},
    )
    assert proc.stdout is not None and proc.stdout.readline().strip() == b"held"
    return proc


def test_second_writer_times_out_naming_the_holder(tmp_path: Path) -> None:
    proc = hold_in_subprocess(tmp_path, 10)
    try:
        with pytest.raises(LockTimeoutError) as info, memory_root_lock(tmp_path, timeout=0.3):
            pass
        message = str(info.value)
        assert f"pid {proc.pid}" in message and "since" in message
        assert info.value.exit_code == 2
    finally:
        proc.kill()
        proc.wait()


def test_second_writer_waits_then_proceeds(tmp_path: Path) -> None:
    proc = hold_in_subprocess(tmp_path, 0.5)
    start = time.monotonic()
    with memory_root_lock(tmp_path, timeout=10):
        waited = time.monotonic() - start
    proc.wait()
    assert waited >= 0.2


def test_lock_is_reentrant_and_file_survives_release(tmp_path: Path) -> None:
    with memory_root_lock(tmp_path, timeout=1), memory_root_lock(tmp_path, timeout=1):
        assert read_holder(tmp_path)["pid"] == os.getpid()
    assert lock_paths(tmp_path)[0].exists()  # never deleted: that would break exclusion
    with memory_root_lock(tmp_path, timeout=1):
        pass


def test_a_hold_that_ends_cleanly_is_marked_released_for_the_next_holder(tmp_path: Path) -> None:
    from tasks.store.lock import follows_clean_release

    with memory_root_lock(tmp_path, timeout=1):
        assert not follows_clean_release(tmp_path)  # no hold before
        assert "released" not in (read_holder(tmp_path) or {})
    assert (read_holder(tmp_path) or {}).get("released") is True
    with pytest.raises(RuntimeError), memory_root_lock(tmp_path, timeout=1):
        assert follows_clean_release(tmp_path)
        raise RuntimeError("a hold that ends in an error")
    assert "released" not in (read_holder(tmp_path) or {})
    with memory_root_lock(tmp_path, timeout=1):
        assert not follows_clean_release(tmp_path)
    hold_in_subprocess(tmp_path, 0).wait()  # another process's clean hold
    with memory_root_lock(tmp_path, timeout=1):
        assert follows_clean_release(tmp_path)
    assert not follows_clean_release(tmp_path)  # (only while held)
    lock_paths(tmp_path)[1].write_bytes(b'{"released": tr')  # a torn record
    with memory_root_lock(tmp_path, timeout=1):
        assert not follows_clean_release(tmp_path)
