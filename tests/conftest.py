"""Test setup: no developer config leaks in; one Prefect test server per session for e2e tests."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from flows.engine.prefect_env import apply_prefect_defaults

# CI runs the property tests derandomized (the same examples every run: a red build is
# reproducible); developers get fresh random examples each run.
settings.register_profile("ci", derandomize=True, deadline=None, print_blob=True,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("dev", deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE") or ("ci" if os.environ.get("CI") else "dev"))

apply_prefect_defaults()
os.environ.setdefault("PREFECT_LOGGING_LEVEL", "WARNING")

FIXED_NOW = "2026-03-24T22:40:05Z"
REPO_ROOT = Path(__file__).resolve().parent.parent
CORPUS = REPO_ROOT.parent / "shared" / "corpus"


def pytest_configure(config: pytest.Config) -> None:
    """The corpus tests run on real documents beside the repository: without them the suite
    fails at once, saying where they are expected, rather than skipping tests silently."""
    if not any(CORPUS.glob("*/*.md")):
        raise pytest.UsageError(
            f"the shared corpus is expected at {CORPUS} (../shared/corpus beside the repository, "
            "as CI lays it out); the corpus tests cannot run without it")


@pytest.fixture(autouse=True)
def _isolated_settings(monkeypatch: pytest.MonkeyPatch) -> None:
    for key in list(os.environ):
        if key.startswith("MEMBANK_"):
            monkeypatch.delenv(key)


@pytest.fixture
def fixed_clock_env(monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setenv("MEMBANK_FIXED_CLOCK", FIXED_NOW)
    return FIXED_NOW


@pytest.fixture
def memory_root(tmp_path: Path) -> Path:
    return tmp_path / ".memories"


@pytest.fixture(scope="session")
def prefect_server() -> Iterator[None]:
    """One Prefect test server for the whole session (it costs 15-20 s to start)."""
    from prefect.testing.utilities import prefect_test_harness

    with prefect_test_harness(server_startup_timeout=180):
        yield


@pytest.fixture
def orchestrated(prefect_server: None, monkeypatch: pytest.MonkeyPatch) -> None:
    """Flows called in this test run as tracked Prefect flow runs on the session's server
    (without it they run in-process, as one-shot commands do)."""
    monkeypatch.setenv("MEMBANK_ORCHESTRATION", "prefect")
