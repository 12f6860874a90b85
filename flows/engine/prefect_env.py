"""Prefect's environment: defaults set before it is imported, whether an orchestrator is
configured, the task runner the settings name, and the settings of a one-shot tracked run.

Prefect's first ephemeral-server start on a new machine can exceed its 20 s default, and its
analytics must be off so the first run works offline. Users can still override each one.
Nothing here imports Prefect at module level: in-process commands never pay for it.
"""

from __future__ import annotations

import logging
import os
import signal
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tasks.store.errors import MembankError

# ctypes, socket, subprocess, tomllib and uuid are imported where used: a one-shot command
# that runs no Prefect server (and finds no prefect.toml) never needs them.

if TYPE_CHECKING:  # annotations only: `membank --help` loads neither pydantic-settings nor Prefect
    from prefect.task_runners import TaskRunner

    from tasks.store.settings import MembankSettings

PREFECT_DEFAULTS = {
    "PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS": "180",
    "PREFECT_SERVER_ANALYTICS_ENABLED": "false",
    "DO_NOT_TRACK": "1",
    "PREFECT_UI_ENABLED": "false",
}


def apply_prefect_defaults() -> None:
    for key, value in PREFECT_DEFAULTS.items():
        os.environ.setdefault(key, value)


def _toml(path: Path) -> dict[str, object]:
    try:
        with path.open("rb") as handle:
            import tomllib

            try:
                return tomllib.load(handle)
            except tomllib.TOMLDecodeError:
                return {}
    except OSError:
        return {}


def prefect_api_configured() -> bool:
    """Whether Prefect would talk to a server of its own rather than start a temporary one:
    PREFECT_API_URL in the environment, in ./prefect.toml, or in the active Prefect profile
    (PREFECT_HOME/profiles.toml). Read without importing Prefect."""
    if os.environ.get("PREFECT_API_URL"):
        return True
    api = _toml(Path("prefect.toml")).get("api")
    if isinstance(api, dict) and api.get("url"):
        return True
    home = Path(os.environ.get("PREFECT_HOME", "~/.prefect")).expanduser()
    profiles = _toml(home / "profiles.toml")
    active = os.environ.get("PREFECT_PROFILE") or profiles.get("active") or "ephemeral"
    table = profiles.get("profiles")
    profile = table.get(str(active)) if isinstance(table, dict) else None
    return isinstance(profile, dict) and bool(profile.get("PREFECT_API_URL"))


def task_runner_for(settings: MembankSettings) -> TaskRunner[Any]:
    """The Prefect task runner the settings name, for an orchestrated flow run."""
    from prefect.task_runners import ProcessPoolTaskRunner, ThreadPoolTaskRunner

    if settings.task_runner == "threads":
        return ThreadPoolTaskRunner(max_workers=settings.task_workers)
    if settings.task_runner == "processes":
        return ProcessPoolTaskRunner(max_workers=settings.task_workers)
    try:
        from prefect_dask.task_runners import DaskTaskRunner
    except ImportError as exc:
        raise MembankError(
            "task_runner=dask needs prefect-dask, which is not installed",
            hint="pip install 'membank[dask]' or set MEMBANK_TASK_RUNNER=threads",
        ) from exc
    if settings.dask_address:
        return DaskTaskRunner(address=settings.dask_address)
    return DaskTaskRunner(
        cluster_kwargs={"n_workers": settings.task_workers, "threads_per_worker": 1,
                        "processes": True, "dashboard_address": None}
    )


@contextmanager
def one_shot_run_settings(task_runs_started: Callable[[], int]) -> Iterator[None]:
    """Prefect settings for one tracked flow run started from a command, and a quiet end.

    With a configured API URL (a server of the team's, or `membank serve`'s) the run reports
    there. Otherwise a temporary local server is started for this command alone
    (`temporary_prefect_server`): it dies with this process even when the process is killed, and
    its own log goes to a file rather than to the terminal.

    Flow-run heartbeats let a server mark runs whose process died as crashed. A temporary
    server dies with the process, so nobody would read them, and every flow and subflow would
    wait up to a second at its end for the heartbeat thread's sleep to finish: they are off.

    The end: Prefect records task runs from events, asynchronously. The client's event and log
    workers are drained first, then we wait (briefly) until the temporary server has recorded
    every task run this command started (`task_runs_started()`, all final), so the run is
    complete in its database before the server stops. A real server outlives us: draining is
    enough there.
    """
    from prefect import tags
    from prefect.settings import PREFECT_API_URL, PREFECT_FLOWS_HEARTBEAT_FREQUENCY, temporary_settings

    if PREFECT_API_URL.value():
        with expected_failures_off_the_terminal():
            try:
                yield
            finally:
                drain_prefect_workers()
        return
    import uuid

    run_tag = f"membank-one-shot-{uuid.uuid4().hex[:12]}"
    with expected_failures_off_the_terminal(), temporary_prefect_server() as api_url, temporary_settings(
            updates={PREFECT_API_URL: api_url, PREFECT_FLOWS_HEARTBEAT_FREQUENCY: None}):
        try:
            with tags(run_tag):
                yield
        finally:
            drain_prefect_workers()
            wait_until_task_runs_recorded(run_tag, task_runs_started())


def error_names(root: type[BaseException] = MembankError) -> frozenset[str]:
    """The class names of `root` and every subclass of it, however deep (the error tree)."""
    names, pending = set(), [root]
    while pending:
        cls = pending.pop()
        names.add(cls.__name__)
        pending.extend(cls.__subclasses__())
    return frozenset(names)


class _ExpectedFailureFilter(logging.Filter):
    """Drops the log records of a run that failed with an expected membank error (lock held,
    disk full, bad input...): the command prints it as one line, and the run's log on the
    server keeps the whole record. A bug (any other exception) still reaches the terminal.

    A record that carries the exception is judged by its class; Prefect's "Finished in state
    Failed(...)" lines carry only text, judged by the names of the MembankError tree, read
    when the filter is made (so a new error class is covered without a list to keep)."""

    def __init__(self) -> None:
        super().__init__()
        self._names = error_names()

    def filter(self, record: logging.LogRecord) -> bool:
        exc = record.exc_info[1] if record.exc_info else None
        if isinstance(exc, MembankError):
            return False
        if record.levelno >= logging.ERROR and record.name.startswith(("prefect.task_runs",
                                                                       "prefect.flow_runs")):
            message = record.getMessage()  # "Finished in state Failed(... LockTimeoutError: ...)"
            return not any(f"{name}:" in message or f"{name}(" in message for name in self._names)
        return True


@contextmanager
def expected_failures_off_the_terminal() -> Iterator[None]:
    """While a one-shot command runs tracked, Prefect's console handler skips expected failures
    (the API handler still sends them to the server)."""
    from prefect.logging import configuration

    if configuration.PROCESS_LOGGING_CONFIG is None:
        configuration.setup_logging()  # what the first flow run would do: its handlers exist now
    handlers = [handler for handler in logging.getLogger().handlers
                if isinstance(handler, logging.StreamHandler)]
    expected = _ExpectedFailureFilter()
    for handler in handlers:
        handler.addFilter(expected)
    try:
        yield
    finally:
        for handler in handlers:
            handler.removeFilter(expected)


SERVER_LOG_LIMIT_BYTES = 1_000_000


@contextmanager
def temporary_prefect_server(timeout_seconds: float | None = None) -> Iterator[str]:
    """A Prefect server on a free local port for one command; yields its API URL."""
    with local_prefect_server(_free_port(), ui=False, timeout_seconds=timeout_seconds) as api_url:
        yield api_url


def prefect_server_healthy(api_url: str) -> bool:
    import httpx

    try:
        return httpx.get(f"{api_url}/health", timeout=2).status_code == 200
    except httpx.HTTPError:
        return False


@contextmanager
def local_prefect_server(port: int, *, ui: bool, timeout_seconds: float | None = None
                         ) -> Iterator[str]:
    """`prefect server start` on 127.0.0.1:`port`, stopped when the block ends; yields its API
    URL (used for one tracked command, and by `membank serve`, with the UI).

    It is tied to this process: on Linux the kernel sends it SIGTERM when this process dies,
    even by SIGKILL (PR_SET_PDEATHSIG), so a killed command leaves no server behind. Its output
    goes to PREFECT_HOME/membank-server.log, not to the terminal."""
    import subprocess

    timeout = timeout_seconds or float(
        os.environ.get("PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS", "180"))
    api_url = f"http://127.0.0.1:{port}/api"
    home = Path(os.environ.get("PREFECT_HOME", "~/.prefect")).expanduser()
    home.mkdir(parents=True, exist_ok=True)
    log_path = home / "membank-server.log"
    if log_path.exists() and log_path.stat().st_size > SERVER_LOG_LIMIT_BYTES:
        log_path.unlink()
    with log_path.open("ab") as log:
        server = subprocess.Popen(
            [sys.executable, "-m", "prefect", "server", "start", "--host", "127.0.0.1",
             "--port", str(port)],
            env={**os.environ, "PREFECT_UI_ENABLED": "true" if ui else "false"},
            stdin=subprocess.DEVNULL, stdout=log, stderr=log,
            preexec_fn=_die_with_parent if sys.platform == "linux" else None)
    try:
        deadline = time.monotonic() + timeout
        while not prefect_server_healthy(api_url):
            if server.poll() is not None or time.monotonic() > deadline:
                raise MembankError(
                    f"the local Prefect server did not start on 127.0.0.1:{port}",
                    file=log_path, hint="see its log (is the port taken?); or set PREFECT_API_URL "
                    "to a running server, or MEMBANK_ORCHESTRATION=local")
            time.sleep(0.2)
        yield api_url
    finally:
        server.terminate()
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


def _free_port() -> int:
    import socket

    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _die_with_parent() -> None:
    """In the server's process before it starts: SIGTERM when the parent dies (Linux)."""
    import ctypes

    pr_set_pdeathsig = 1
    ctypes.CDLL(None, use_errno=True).prctl(pr_set_pdeathsig, signal.SIGTERM)


def drain_prefect_workers() -> None:
    """Send every buffered event and log line now, waiting for the workers to finish.

    Draining with items still queued logs a "Still processing items" warning per worker:
    that is the normal case here, not a problem, so it is not shown."""
    from prefect.events.worker import EventsWorker
    from prefect.logging.handlers import APILogWorker

    quiet = [logging.getLogger(name) for name in ("EventsWorker", "APILogWorker")]
    levels = [logger.level for logger in quiet]
    for logger in quiet:
        logger.setLevel(logging.ERROR)
    try:
        EventsWorker.drain_all()
        APILogWorker.drain_all()
    finally:
        for logger, level in zip(quiet, levels, strict=True):
            logger.setLevel(level)


def wait_until_task_runs_recorded(run_tag: str, expected: int, timeout_seconds: float = 15.0) -> bool:
    """Poll the server until `expected` task runs tagged `run_tag` exist in a final state."""
    from prefect.client.orchestration import get_client
    from prefect.client.schemas.filters import TaskRunFilter, TaskRunFilterTags

    if expected <= 0:
        return True
    deadline = time.monotonic() + timeout_seconds
    task_run_filter = TaskRunFilter(tags=TaskRunFilterTags(all_=[run_tag]))
    with get_client(sync_client=True) as client:
        while time.monotonic() < deadline:
            runs: list[Any] = []
            while True:  # pages: the server caps one read at its default limit
                page = client.read_task_runs(task_run_filter=task_run_filter, offset=len(runs))
                runs += page
                if not page or len(runs) >= expected:
                    break
            if len(runs) >= expected and all(r.state is not None and r.state.is_final() for r in runs):
                return True
            time.sleep(0.05)
    return False
