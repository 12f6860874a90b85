"""`membank forget` and `membank audit privacy` from the command line, without Prefect."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from tests.conftest import REPO_ROOT
from tests.tasks.privacy.forget_scenario import TOPIC, build_memory, grep

RUN = ("import sys; from flows.cli.app import app\n"
       "try:\n    app(sys.argv[1:])\n"
       "except SystemExit as exc:\n"
       "    print('prefect loaded:', 'prefect' in sys.modules, 'exit:', exc.code)\n")


def membank(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", RUN, *args], capture_output=True, text=True,
                          cwd=REPO_ROOT, timeout=120, env={"MEMBANK_FIXED_CLOCK": "2026-03-25T09:00:00Z",
                                                           "PATH": "/usr/bin:/bin"})


def test_forget_plans_then_applies_from_the_command_line(tmp_path: Path) -> None:
    root = tmp_path / ".memories"
    build_memory(root, tmp_path)
    before = grep(root, TOPIC)
    plan = membank("forget", TOPIC, "--root", str(root))
    assert plan.stdout.strip().endswith("prefect loaded: False exit: 0"), plan.stdout + plan.stderr
    assert "planned" in plan.stdout and "erasure boundary" in plan.stdout
    assert grep(root, TOPIC) == before
    unconfirmed = membank("forget", TOPIC, "--mode", "purge", "--apply", "--root", str(root))
    assert "needs --confirm-plan HASH" in unconfirmed.stderr, unconfirmed.stdout + unconfirmed.stderr
    assert unconfirmed.stdout.strip().endswith("exit: 1") and grep(root, TOPIC) == before
    shown = membank("forget", TOPIC, "--mode", "purge", "--root", str(root))
    digest = next(line.split()[1] for line in shown.stdout.splitlines() if line.startswith("plan "))
    assert f"--apply --confirm-plan {digest}" in shown.stdout
    done = membank("forget", TOPIC, "--mode", "purge", "--apply", "--confirm-plan", digest,
                   "--root", str(root))
    assert done.stdout.strip().endswith("prefect loaded: False exit: 0"), done.stdout + done.stderr
    assert grep(root, TOPIC) == []
    bad = membank("forget", "--mode", "erase", TOPIC, "--root", str(root))
    assert "--mode must be soft, hard or purge" in bad.stderr and bad.stdout.strip().endswith("exit: 2")
    audit = membank("audit", "privacy", "--root", str(root))
    assert audit.stdout.strip().endswith("prefect loaded: False exit: 0"), audit.stdout + audit.stderr
    health = membank("health", "--kind", "privacy", "--format", "prom", "--root", str(root))
    assert 'membank_secrets_found{flow="privacy"} 0.0' in health.stdout, health.stdout + health.stderr


def test_forget_through_a_symlinked_raw_folder_is_one_line_and_exit_2(tmp_path: Path) -> None:
    """D18: the purge deleted the files of an outside folder a symlinked raw/ pointed to."""
    root = tmp_path / ".memories"
    build_memory(root, tmp_path)
    outside = tmp_path / "outside-raw"
    shutil.move(str(root / "raw"), str(outside))
    os.symlink(outside, root / "raw")
    before = sorted(p.name for p in outside.rglob("*"))
    done = membank("forget", TOPIC, "--mode", "purge", "--apply", "--root", str(root))
    assert done.stdout.strip().endswith("exit: 2"), done.stdout + done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "refusing to write through a symlink" in lines[0], done.stderr
    assert sorted(p.name for p in outside.rglob("*")) == before


def test_the_plan_reads_the_root_a_killed_forget_left_recovered(tmp_path: Path) -> None:
    """A forget killed half-way leaves a journal; the plan is made after its rollback, so it
    lists the pages the killed run had already removed."""
    from flows.cli.privacy import forget_report
    from tasks.privacy.forget import ForgetRequest
    from tasks.store import atomic
    from tasks.store.journal import WriteJournal

    root = tmp_path / ".memories"
    build_memory(root, tmp_path)
    page = next((root / "wiki/entities").glob("*__falcon.md"))
    journal = WriteJournal(root)  # what a killed forget leaves: a removal nobody committed
    atomic.register_recorder(journal)
    try:
        atomic.remove_file(page)
    finally:
        atomic.unregister_recorder(journal)
    report = forget_report(str(root), ForgetRequest(TOPIC), apply=False)
    assert page.exists()
    assert page.relative_to(root).as_posix() in {a.path for a in report.artifacts}
