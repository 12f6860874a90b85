"""End to end: serve every deployment on the session's Prefect test server, trigger the ingest
deployment with parameters, and check overlapping writers cannot corrupt the memory."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import REPO_ROOT
from tests.snapshots import snapshot
from tests.tasks.store.test_lock import hold_in_subprocess


def write_sources(folder: Path, count: int, tag: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for i in range(count):
        (folder / f"{tag}-note-{i:02d}.md").write_text(
            f"# {tag} note {i}\n\nThe planner hands work to the executor. Item {i}.\n\n"
            f"- [decision] Retry uploads {i} times #uploads\n", encoding="utf-8")
    return folder


@pytest.fixture
def served(prefect_server: None, tmp_path: Path) -> Iterator[str]:
    """`membank serve` in a child process against the test server; yields its API URL."""
    from prefect.settings import PREFECT_API_URL

    api_url = PREFECT_API_URL.value()
    env = {**os.environ, "PREFECT_API_URL": api_url, "PREFECT_RUNNER_POLL_FREQUENCY": "1",
           "MEMBANK_FIXED_CLOCK": "2026-03-24T22:40:05Z", "PREFECT_LOGGING_LEVEL": "WARNING"}
    log = (tmp_path / "serve.log").open("wb")
    proc = subprocess.Popen([sys.executable, "-m", "flows.cli.app", "serve", "--root",
                             str(tmp_path / "default-root")], cwd=REPO_ROOT, env=env,
                            stdout=log, stderr=subprocess.STDOUT)
    try:
        from prefect.client.orchestration import get_client
        from prefect.exceptions import ObjectNotFound

        deadline = time.monotonic() + 120
        with get_client(sync_client=True) as client:
            while True:
                assert proc.poll() is None, (tmp_path / "serve.log").read_text()
                assert time.monotonic() < deadline, "serve did not register its deployments"
                try:
                    client.read_deployment_by_name("nightly-reconcile/nightly-reconcile")
                    client.read_deployment_by_name("ingest/ingest")
                    break
                except ObjectNotFound:
                    time.sleep(0.5)
        time.sleep(2)  # let the runner start polling
        yield api_url
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()


@pytest.mark.e2e
def test_served_ingest_deployment_runs_with_parameters(served: str, tmp_path: Path) -> None:
    from prefect.deployments import run_deployment

    folder = write_sources(tmp_path / "inbox", 3, "alpha")
    root = tmp_path / "memory"
    flow_run = run_deployment("ingest/ingest", parameters={"paths": [str(folder)], "root": str(root)},
                              timeout=240)
    assert flow_run.state is not None and flow_run.state.is_completed(), flow_run.state
    assert len(list((root / "wiki/sources").glob("*__alpha-note-*.md"))) == 3
    assert (root / "context/distill-state.jsonc").exists()  # ingest ran distill afterwards


@pytest.mark.e2e
def test_overlapping_deployment_runs_queue_and_leave_a_consistent_memory(
    served: str, tmp_path: Path
) -> None:
    """Two ingests and a nightly reconcile triggered at once: the concurrency limit queues them,
    the lock keeps writers apart, and the memory reconciles clean afterwards."""
    from prefect.deployments import run_deployment

    from flows.reconcile import reconcile_flow

    root = tmp_path / "memory"
    first = write_sources(tmp_path / "one", 4, "one")
    second = write_sources(tmp_path / "two", 4, "two")
    runs = [
        run_deployment("ingest/ingest", parameters={"paths": [str(first)], "root": str(root)}, timeout=0),
        run_deployment("ingest/ingest", parameters={"paths": [str(second)], "root": str(root)}, timeout=0),
        run_deployment("nightly-reconcile/nightly-reconcile", parameters={"root": str(root)}, timeout=0),
    ]
    from prefect.client.orchestration import get_client

    deadline = time.monotonic() + 300
    with get_client(sync_client=True) as client:
        while True:
            states = [client.read_flow_run(run.id).state for run in runs]
            if all(state is not None and state.is_final() for state in states):
                break
            assert time.monotonic() < deadline, states
            time.sleep(1)
    assert all(state.is_completed() for state in states), [(s.name, s.message) for s in states]
    assert len(list((root / "wiki/sources").glob("*.md"))) == 9  # 8 sources + the hub
    check = reconcile_flow(root=str(root), check=True)
    assert check.figures["health"] == "healthy", check.problems


@pytest.mark.e2e
def test_lock_held_past_timeout_fails_the_run_then_next_run_proceeds(
    prefect_server: None, memory_root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from flows.bootstrap import bootstrap_flow
    from flows.nightly import nightly_flow

    bootstrap_flow(root=str(memory_root))
    monkeypatch.setenv("MEMBANK_LOCK_TIMEOUT_SECONDS", "0.5")
    holder = hold_in_subprocess(memory_root, 30)
    try:
        before = snapshot(memory_root)
        state = nightly_flow.prefect(root=str(memory_root), return_state=True)
        assert state.is_failed()
        assert f"pid {holder.pid}" in (state.message or "") + str(state.result(raise_on_failure=False))
        assert snapshot(memory_root) == before
    finally:
        holder.kill()
        holder.wait()
    state = nightly_flow.prefect(root=str(memory_root), return_state=True)
    assert state.is_completed()
