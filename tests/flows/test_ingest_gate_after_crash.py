"""The privacy gate holds whatever path a source takes through crash recovery (issue 29, D16).

An `--allow-secrets` ingest killed after its raw manifest was renamed in, before the batch's
commit, leaves a manifest naming sources that the rollback takes away again. A plain ingest
that follows must refuse the secret, as on a root that never saw the killed run: the stored set
is read only after the rolled-back batch is recovered, and a source that looked stored when the
run began but is not in the store under the writer lock is prepared and gated again.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from flows.ingest import ingest_flow
from schemas.report import MemoryOperationReport, Problem
from tasks.ingest import collect_inputs, find_stored_sources, prepare_batch, write_ingest
from tasks.store.settings import load_settings
from tests import crash_harness as harness

NOW = "2026-03-24T22:40:05Z"
SECRET = "AKIAZ7QX3MPL4RT2VWJD"
SECRET_NOTE = (f"# Deploy notes\n\nThe deploy user's key is {SECRET}\n"
               "aws_secret_access_key = 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\n")


def _sources(folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "secret-notes.md").write_text(SECRET_NOTE, encoding="utf-8")
    (folder / "plain-note.md").write_text("# Plain note\n\nNothing to hide.\n", encoding="utf-8")
    return folder


def _ingest(root: Path, folder: Path, *, allow_secrets: bool) -> MemoryOperationReport:
    return ingest_flow(paths=[str(folder)], root=str(root), distill=False,
                       allow_secrets=allow_secrets)


def _secret_stored(root: Path) -> bool:
    return any(SECRET in path.read_text(encoding="utf-8", errors="replace")
               for path in root.rglob("*") if path.is_file() and ".membank" not in path.parts)


def _codes(report: MemoryOperationReport) -> list[str]:
    return [problem.code for problem in report.problems]


@pytest.fixture
def fixed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMBANK_FIXED_CLOCK", NOW)


def test_a_plain_ingest_refuses_the_secret(tmp_path: Path, fixed: None) -> None:
    """The control: without a crash the gate refuses the note and stores the other."""
    report = _ingest(tmp_path / "root", _sources(tmp_path / "src"), allow_secrets=False)
    assert "secret_detected" in _codes(report)
    assert not _secret_stored(tmp_path / "root")


def _kill_points(steps: int, request: pytest.FixtureRequest) -> list[int]:
    """Every step with `-m crash_exhaustive`; by default a spread sample plus every step of the
    commit phase (the manifest, hub, index and log renames: where D16's window was)."""
    if "crash_exhaustive" in (request.config.getoption("-m") or ""):
        return list(range(1, steps + 1))
    return sorted(set(harness.sample(steps, 12)) | set(range(max(1, steps - 20), steps + 1)))



def _commit_step(command: harness.Command, root: Path) -> tuple[int, int]:
    """(the step that commits the batch: its journal's rename to journal-done, all steps)."""
    counter = harness.CrashingFileSystem()
    previous, harness.atomic.fs = harness.atomic.fs, counter
    try:
        command(root)
    finally:
        harness.atomic.fs = previous
    commits = [n for n, step in enumerate(counter.trace, 1)
               if step.startswith("replace") and "journal-done-" in step]
    assert len(commits) == 1, counter.trace
    return commits[0], counter.steps


def test_a_killed_allow_secrets_ingest_never_lets_a_plain_rerun_store_the_secret(
        tmp_path: Path, fixed: None, request: pytest.FixtureRequest) -> None:
    folder = _sources(tmp_path / "src")

    def allow_secrets_ingest(root: Path) -> None:
        _ingest(root, folder, allow_secrets=True)

    commit, steps = _commit_step(allow_secrets_ingest, tmp_path / "count")
    assert _secret_stored(tmp_path / "count")  # allowed, a whole run stores it (and says so)
    points = _kill_points(steps, request)
    assert commit in points
    for step in points:
        root = tmp_path / "trial"
        shutil.rmtree(root, ignore_errors=True)
        status = harness.run_killed_at(allow_secrets_ingest, root, step)
        assert status == harness.KILLED, f"killed at step {step} of {steps}: exited {status}"
        report = _ingest(root, folder, allow_secrets=False)
        assert harness.leftovers(root) == []
        if step > commit:  # the allowed batch was committed before the kill: a dedupe hit now
            assert "secretsAllowed" in (root / "context/raw-manifest.jsonc").read_text("utf-8")
            continue
        assert not _secret_stored(root), f"killed at step {step} of {steps}: the secret was stored"
        assert "secret_detected" in _codes(report), f"killed at step {step}: {_codes(report)}"
    print(f"allow-secrets ingest: {len(points)} of {steps} kill points; each plain rerun after an "
          "uncommitted kill refused the secret")


def test_a_source_gone_under_the_lock_is_gated_again(tmp_path: Path, fixed: None) -> None:
    """Defence in depth: a source counted as stored when the run began but not in the store
    under the writer lock goes through the whole gate (blocked, warnings), not straight in."""
    folder = _sources(tmp_path / "src")
    root = tmp_path / "root"
    settings = load_settings(root)
    inputs, problems = collect_inputs([str(folder)])
    prepared = prepare_batch(inputs, settings)
    blocked = [p for p in prepared if not isinstance(p, Problem) and p.blocked]
    assert len(blocked) == 1
    stale = find_stored_sources(inputs, {blocked[0].asset_id}, settings)  # a pre-lock view
    assert len(stale) == 1, "the secret note looks stored to the stale view"
    results = [stale.get(position, item) for position, item in enumerate(prepared)]
    report = write_ingest(settings, results, problems)
    assert "secret_detected" in _codes(report)
    assert not _secret_stored(root)
