"""One-shot commands run in-process without Prefect unless an orchestrator is configured; the
same job gives the same report and files both ways; a command prints only its report."""

from __future__ import annotations

import logging
import os
import subprocess
import sys
from pathlib import Path

import pytest

from flows.engine.prefect_env import _ExpectedFailureFilter, error_names, prefect_api_configured
from flows.engine.stage import StageTask, local_pool, orchestration_mode, stage_flow, stage_task, unmapped
from membank import Memory
from schemas.report import MemoryOperationReport
from tasks.store.errors import ContractError, InputError, MembankError
from tasks.store.settings import load_settings
from tests.conftest import FIXED_NOW, REPO_ROOT
from tests.snapshots import snapshot

SAMPLES = REPO_ROOT / "raw-samples"
MEMBANK = Path(sys.executable).with_name("membank")


@pytest.fixture
def no_prefect_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A Prefect home with no profile and a working directory with no prefect.toml."""
    monkeypatch.delenv("PREFECT_API_URL", raising=False)
    monkeypatch.delenv("PREFECT_PROFILE", raising=False)
    home = tmp_path / "prefect-home"
    home.mkdir()
    monkeypatch.setenv("PREFECT_HOME", str(home))
    monkeypatch.chdir(tmp_path)
    return home


def test_auto_runs_in_process_without_an_orchestrator(no_prefect_config: Path) -> None:
    assert not prefect_api_configured()
    assert orchestration_mode(load_settings()) == "local"


def test_an_api_url_in_the_environment_means_prefect(
    no_prefect_config: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PREFECT_API_URL", "http://127.0.0.1:4200/api")
    assert orchestration_mode(load_settings()) == "prefect"
    monkeypatch.setenv("MEMBANK_ORCHESTRATION", "local")  # asked for explicitly: it wins
    assert orchestration_mode(load_settings()) == "local"


def test_an_api_url_in_the_active_profile_or_prefect_toml_means_prefect(
    no_prefect_config: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (no_prefect_config / "profiles.toml").write_text(
        'active = "team"\n[profiles.team]\nPREFECT_API_URL = "http://prefect.internal:4200/api"\n'
        '[profiles.ephemeral]\n')
    assert prefect_api_configured()
    monkeypatch.setenv("PREFECT_PROFILE", "ephemeral")
    assert not prefect_api_configured()
    Path("prefect.toml").write_text('[api]\nurl = "http://127.0.0.1:4200/api"\n')
    assert prefect_api_configured()


def test_prefect_asked_for_or_dask_means_prefect(
    no_prefect_config: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MEMBANK_ORCHESTRATION", "prefect")
    assert orchestration_mode(load_settings()) == "prefect"
    monkeypatch.setenv("MEMBANK_ORCHESTRATION", "auto")
    monkeypatch.setenv("MEMBANK_TASK_RUNNER", "dask")  # a Prefect task runner
    assert orchestration_mode(load_settings()) == "prefect"
    monkeypatch.setenv("MEMBANK_ORCHESTRATION", "local")
    with pytest.raises(MembankError, match="dask"):
        orchestration_mode(load_settings())


@stage_task(name="double")
def double(value: int) -> int:
    return value * 2


def test_a_stage_task_maps_in_order_on_the_local_pool(monkeypatch: pytest.MonkeyPatch) -> None:
    assert isinstance(double, StageTask) and double(4) == 8
    with local_pool(load_settings()) as pool:
        from flows.engine import stage as orchestration

        token = orchestration._LOCAL_POOL.set(pool)
        try:
            futures = double.map(value=list(range(20)))
        finally:
            orchestration._LOCAL_POOL.reset(token)
    assert [f.result() for f in futures] == [v * 2 for v in range(20)]
    assert [f.result() for f in double.map(value=[1, 2])] == [2, 4]  # no pool: runs here


def test_a_stage_task_called_with_futures_gets_their_results() -> None:
    from concurrent.futures import Future

    @stage_task(name="add", opaque_inputs=True)
    def add(left: int, right: int) -> int:
        return left + right

    ready: Future[int] = Future()
    ready.set_result(3)
    assert add(ready, right=double.map(value=[2])[0]) == 7  # type: ignore[arg-type]


@stage_task(name="offset-unless-two")
def offset_unless_two(value: int, offset: int) -> int:
    if value == 2:
        raise ContractError("two is refused", hint="map anything but 2")
    return value + offset


@stage_task(name="total", opaque_inputs=True)
def total(first: int, second: int) -> int:
    return first + second


@stage_task(name="count-after")
def count_after(values: list[int]) -> int:
    return len(values)


@stage_flow(name="map-then-total")
def map_then_total(values: list[int], root: str | None = None) -> tuple[int, int]:
    """Prefect's call shape: the mapped list, the whole offset, futures into the next task."""
    futures = offset_unless_two.map(value=values, offset=unmapped(10))
    waited = count_after.waiting_for(futures)(values)
    return total(futures[0], futures[1]), waited


def test_map_takes_prefects_call_shape() -> None:
    assert [f.result() for f in offset_unless_two.map(value=[1, 3], offset=unmapped(10))] == [11, 13]
    assert offset_unless_two.map(value=[], offset=unmapped(10)) == []
    with pytest.raises(ValueError, match="differ in length"):
        total.map(first=[1, 2], second=[1])


@pytest.mark.parametrize("mode", ["local", pytest.param("prefect", marks=pytest.mark.e2e)])
def test_an_upstream_failure_raises_its_error_in_both_modes(
    mode: str, request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Prefect leaves a run whose upstream failed NotReady and returns None; the engine raises
    the upstream run's own error instead, as the in-process mode does."""
    if mode == "prefect":
        request.getfixturevalue("orchestrated")
    else:
        monkeypatch.setenv("MEMBANK_ORCHESTRATION", "local")
    assert map_then_total([1, 3]) == (24, 2)
    with pytest.raises(ContractError, match="two is refused"):
        map_then_total([1, 2])
    with pytest.raises(ContractError, match="two is refused"):
        map_then_total([2, 1])


def test_the_console_filter_knows_the_whole_error_tree() -> None:
    """Prefect's "Finished in state Failed(...)" lines carry only text: they are matched on the
    names of the MembankError tree, read when the filter is made, so a new error class is
    covered without a list to keep; another error still reaches the terminal."""
    class LateError(InputError):
        pass

    def failed(name: str) -> logging.LogRecord:
        return logging.LogRecord("prefect.task_runs", logging.ERROR, __file__, 1,
                                 f"Finished in state Failed('Task run encountered an exception "
                                 f"{name}: no')", None, None)

    assert {"MembankError", "LockTimeoutError", "LateError"} <= error_names()
    quiet = _ExpectedFailureFilter()
    assert not quiet.filter(failed("LateError")) and not quiet.filter(failed("LockTimeoutError"))
    assert quiet.filter(failed("KeyError"))


def test_only_recoverable_errors_are_retried() -> None:
    from tasks.store.errors import ContractError, LockTimeoutError

    calls: list[int] = []

    def flaky(error: type[MembankError]) -> str:
        calls.append(1)
        if len(calls) == 1:
            raise error("held by another writer")
        return "done"

    task = StageTask(flaky, "flaky", retries=1, retry_delay_seconds=0)
    assert task(LockTimeoutError) == "done" and len(calls) == 2
    calls.clear()
    with pytest.raises(ContractError):
        task(ContractError)
    assert len(calls) == 1


def _membank(args: list[str], home: Path, **env: str) -> subprocess.CompletedProcess[str]:
    environment = {k: v for k, v in os.environ.items()
                   if not k.startswith(("MEMBANK_", "PREFECT_API"))}
    environment.update(PREFECT_HOME=str(home), MEMBANK_FIXED_CLOCK=FIXED_NOW, **env)
    return subprocess.run([str(MEMBANK), *args], capture_output=True, text=True, env=environment,
                          timeout=600, check=False)


def test_in_process_commands_never_import_prefect(tmp_path: Path) -> None:
    root = tmp_path / "memory"
    probe = (
        "import sys\nfrom flows.cli.app import app\n"
        "for args in sys.argv[1:]:\n"
        "    try:\n        app(args.split(), standalone_mode=True)\n"
        "    except SystemExit as exc:\n        assert exc.code in (0, None), (args, exc.code)\n"
        "print(sorted({m.split('.')[0] for m in sys.modules} & {'prefect', 'prefect_dask'}))\n")
    commands = [f"run {SAMPLES} --root {root}", f"reconcile --check --root {root}",
                f"audit freshness --root {root}", f"propose --root {root}",
                f"ingest {SAMPLES} --root {root}", f"distill --all --root {root}"]
    result = subprocess.run([sys.executable, "-c", probe, *commands], capture_output=True,
                            text=True, timeout=300, check=False,
                            env={**os.environ, "PREFECT_HOME": str(tmp_path / "ph")})
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().splitlines()[-1] == "[]"


def test_a_healthy_in_process_command_prints_only_its_report(tmp_path: Path) -> None:
    result = _membank(["run", str(SAMPLES), "--root", str(tmp_path / "m")], tmp_path / "ph")
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    assert result.stdout.splitlines()[0].startswith("run success")


def test_the_python_api_returns_the_report_models(tmp_path: Path, fixed_clock_env: str) -> None:
    memory = Memory(tmp_path / "m")
    report = memory.run([SAMPLES])
    assert isinstance(report, MemoryOperationReport) and report.status == "success"
    assert memory.reconcile(check=True).exit_code() == 0
    assert memory.health().status == "healthy"
    replay = memory.ingest([SAMPLES])
    assert replay.stages[0].figures["dedupe_hits"] == len([p for p in SAMPLES.rglob("*") if p.is_file()])
    with pytest.raises(MembankError):
        Memory(tmp_path / "m" / "index.md").reconcile()


TIMING_FIGURES = ("seconds", "per_s", "per_second")


def comparable(report: MemoryOperationReport) -> dict[str, object]:
    """The report without what depends on the clock on the wall (durations, throughput)."""
    data = report.model_dump(mode="json")

    def strip(node: dict[str, object]) -> None:
        figures = node.get("figures")
        if isinstance(figures, dict):
            for key in [k for k in figures if k.endswith(TIMING_FIGURES)]:
                del figures[key]
        for stage in node.get("stages") or []:  # type: ignore[attr-defined]
            strip(stage)

    strip(data)
    return data


@pytest.mark.e2e
def test_the_same_job_gives_the_same_report_and_files_in_both_modes(
    orchestrated: None, tmp_path: Path, fixed_clock_env: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    proposal = REPO_ROOT / "tests" / "fixtures" / "orchestration" / "proposal.md"

    def job(root: Path) -> tuple[list[dict[str, object]], dict[str, bytes]]:
        memory = Memory(root)
        reports = [memory.run([SAMPLES]), memory.propose([proposal]), memory.reconcile(check=True),
                   memory.ingest([SAMPLES])]
        return [comparable(r) for r in reports], snapshot(root, skip=(".membank", "context/health"))

    tracked = job(tmp_path / "tracked")
    monkeypatch.setenv("MEMBANK_ORCHESTRATION", "local")
    in_process = job(tmp_path / "in-process")
    assert tracked[0] == in_process[0]
    assert tracked[1].keys() == in_process[1].keys()
    assert tracked[1] == in_process[1]
    assert tracked[0][1]["status"] == "success"  # the proposal was applied, not rejected


@pytest.mark.e2e
def test_a_tracked_command_ends_quietly(tmp_path: Path) -> None:
    """A fresh Prefect home and a temporary server: nothing but the report, no server noise
    at exit (the task-run recorder's flush, the events worker's drain)."""
    home, root = tmp_path / "ph", tmp_path / "m"
    for args in (["ingest", str(SAMPLES), "--no-distill"], ["distill", "--all"], ["propose"]):
        result = _membank([*args, "--root", str(root)], home, MEMBANK_ORCHESTRATION="prefect")
        assert result.returncode == 0, result.stderr
        assert result.stderr == "", args
        assert result.stdout.strip()


def _children(pid: int) -> list[int]:
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            found.append(int(stat.parent.name))
    return found


@pytest.mark.e2e
@pytest.mark.skipif(sys.platform != "linux", reason="PR_SET_PDEATHSIG is Linux's")
def test_a_killed_tracked_command_leaves_no_server_behind(tmp_path: Path) -> None:
    """kill -9 of a tracked command while its temporary Prefect server runs: the server dies too."""
    import signal
    import time

    environment = {k: v for k, v in os.environ.items()
                   if not k.startswith(("MEMBANK_", "PREFECT_API"))}
    environment.update(PREFECT_HOME=str(tmp_path / "ph"), MEMBANK_ORCHESTRATION="prefect")
    command = subprocess.Popen([str(MEMBANK), "run", str(SAMPLES), "--root", str(tmp_path / "m")],
                               env=environment, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 120
    servers: list[int] = []
    while not servers and time.monotonic() < deadline and command.poll() is None:
        servers = [pid for pid in _children(command.pid)
                   if b"server" in Path(f"/proc/{pid}/cmdline").read_bytes()]
        time.sleep(0.1)
    assert servers, "the tracked command started no temporary server"
    command.send_signal(signal.SIGKILL)
    command.wait()
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and any(Path(f"/proc/{pid}").exists() for pid in servers):
        time.sleep(0.2)  # re-parented to init, which reaps it once it exits
    alive = [pid for pid in servers if Path(f"/proc/{pid}").exists()]
    assert alive == [], "the temporary Prefect server outlived its killed command"


@pytest.mark.e2e
def test_an_expected_failure_in_a_tracked_run_is_one_line(tmp_path: Path) -> None:
    """The lock held past its timeout inside a Prefect task run: Prefect's own ERROR logs of
    the failed task and flow stay off the terminal (the server keeps them); one line remains."""
    from tests.tasks.store.test_lock import hold_in_subprocess

    root = tmp_path / "m"
    assert _membank(["init", "--root", str(root)], tmp_path / "ph").returncode == 0
    holder = hold_in_subprocess(root, 900)  # killed below; outlasts a slow start on a loaded machine
    try:
        result = _membank(["reconcile", "--root", str(root)], tmp_path / "ph",
                          MEMBANK_ORCHESTRATION="prefect", MEMBANK_LOCK_TIMEOUT_SECONDS="0.5")
    finally:
        holder.kill()
        holder.wait()
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1 and "locked by another writer" in result.stderr, result.stderr
