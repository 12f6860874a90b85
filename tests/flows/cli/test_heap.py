"""A one-shot command keeps the heap it frees (flows/cli/heap.py): a block freed and allocated
again costs no new page faults; the ingest command and `reconcile --check` ask for it."""

from __future__ import annotations

import platform
import subprocess
import sys
from pathlib import Path

import pytest

from flows.cli import heap, stages
from tests.conftest import REPO_ROOT

# Faults of touching a freshly allocated 8 MiB block, for a block that was allocated, touched and
# freed just before: the pages of the freed block serve the new one when the heap is kept.
SCRIPT = """
import resource, sys
from flows.cli.heap import keep_freed_heap

took = keep_freed_heap() if sys.argv[1] == "kept" else None
size = 8 * 1024 * 1024
block = bytearray(size)  # (zeroed: every page touched)
del block
before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
block = bytearray(size)
print(took, resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before)
"""


def _faults(mode: str) -> tuple[str, int]:
    done = subprocess.run([sys.executable, "-c", SCRIPT, mode], cwd=REPO_ROOT, text=True,
                          capture_output=True, timeout=60, check=True)
    took, faults = done.stdout.split()
    return took, int(faults)


@pytest.mark.skipif(platform.libc_ver()[0] != "glibc", reason="mallopt is glibc's")
def test_a_freed_block_serves_the_next_one_without_new_page_faults() -> None:
    took, kept = _faults("kept")
    _, default = _faults("default")
    assert took == "True"
    pages = 8 * 1024 * 1024 // 4096
    assert default >= pages // 2  # glibc's default: the block unmapped, its pages faulted again
    assert kept < pages // 16


@pytest.fixture
def calls(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """What a command did, in order: "heap" when it kept its freed heap, "flow" when it ran."""
    done: list[str] = []

    def kept() -> bool:
        done.append("heap")
        return True

    monkeypatch.setattr(heap, "keep_freed_heap", kept)
    monkeypatch.setattr(stages, "execute", lambda *args, **kwargs: done.append("flow"))
    return done


def test_the_ingest_command_keeps_its_heap(calls: list[str], tmp_path: Path) -> None:
    stages.ingest([tmp_path / "note.md"], root=tmp_path)
    assert calls == ["heap", "flow"]


@pytest.mark.parametrize(("check", "wanted"), [(True, ["heap", "flow"]), (False, ["flow"])])
def test_reconcile_check_keeps_its_heap_and_a_repair_run_does_not(
        calls: list[str], tmp_path: Path, check: bool, wanted: list[str]) -> None:
    stages.reconcile(root=tmp_path, check=check)
    assert calls == wanted
