"""The end of a command's process (flows/cli/process_exit.py): exit handlers and output kept,
the interpreter's teardown skipped only when nothing can need it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from flows.cli.process_exit import FULL_EXIT_VARIABLE, exit_code
from tests.conftest import REPO_ROOT

# A process that ends through finish(): its buffered output (no newline, so still in the buffer)
# and an exit handler; " normal" is written when finish() returns (the normal exit follows).
SCRIPT = """
import atexit, sys, threading, time
from flows.cli.process_exit import finish

atexit.register(lambda: sys.stdout.write(" atexit"))
mode = sys.argv[1]
if mode == "thread":
    threading.Thread(target=lambda: (time.sleep(0.3), sys.stdout.write(" thread"))).start()
if mode == "profiled":
    sys.setprofile(lambda *args: None)
sys.stdout.write("output")
try:
    raise SystemExit(int(sys.argv[2]) if len(sys.argv) > 2 else None)
except SystemExit as exc:
    finish(exc)
    sys.stdout.write(" normal")
    raise
"""


def _run(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", SCRIPT, *args], cwd=REPO_ROOT, text=True,
                          capture_output=True, timeout=60,
                          env={**os.environ, "PYTHONPATH": str(REPO_ROOT), **(env or {})})


def test_a_finished_command_exits_with_its_code_output_and_handlers_without_the_teardown() -> None:
    done = _run("plain", "3")
    assert done.returncode == 3
    assert done.stdout == "output atexit"  # ended in finish(), after the handler, flushed
    assert _run("plain").returncode == 0


@pytest.mark.parametrize(("mode", "env"), [
    ("thread", None),  # a non-daemon thread still at work is waited for, as always
    ("profiled", None),  # a profiler writes its results in the teardown or after the command
    ("plain", {FULL_EXIT_VARIABLE: "1"}),  # asked for
])
def test_the_normal_exit_runs_when_anything_may_need_it(mode: str, env: dict[str, str] | None
                                                        ) -> None:
    done = _run(mode, "4", env=env)
    assert done.returncode == 4
    assert done.stdout.startswith("output normal")
    assert "atexit" in done.stdout
    assert ("thread" in done.stdout) == (mode == "thread")


def test_exit_code_is_the_status_only_when_the_code_is_a_number() -> None:
    assert exit_code(SystemExit()) == 0
    assert exit_code(SystemExit(2)) == 2
    assert exit_code(SystemExit("a message")) is None  # printed by the normal exit, status 1
    assert exit_code(SystemExit(True)) is None


def test_the_command_line_writes_its_report_and_memory_before_it_ends(tmp_path: Path) -> None:
    """`python -m membank init` through the console script's main: the whole report reaches a
    file (buffered output flushed), the exit status is the command's, the memory is there."""
    root = tmp_path / "memory"
    out = tmp_path / "out.txt"
    env = {k: v for k, v in os.environ.items() if k != FULL_EXIT_VARIABLE}
    with out.open("w") as handle:
        done = subprocess.run([sys.executable, "-m", "membank", "init", "--root", str(root),
                               "--json"], cwd=REPO_ROOT, stdout=handle, text=True, timeout=120,
                              env={**env, "PYTHONPATH": str(REPO_ROOT)})
    assert done.returncode == 0
    report = out.read_text()
    assert report.rstrip().endswith("}") and '"mode"' in report
    assert (root / "index.md").is_file() and (root / "log.md").is_file()
