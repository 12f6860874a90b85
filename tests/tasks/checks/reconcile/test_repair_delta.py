"""A repair `reconcile` right after a change goes by the change, as the check does
(tasks/checks/reconcile/full.py _delta_scan), and leaves exactly what the full repair run leaves:
the memory's files, the findings and counts, the health summary, the reconcile cache (but for the
files' identities), the observation baseline and the verdict, over many kinds of change (an
ingest, a distill, a hand edit, a removed page, a stale mark due, a repair needed). Each memory
is copied before the run: the copy's files have other identities, so its cache and baseline are
not the pair the last repair run saved, and it takes the full path."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import orjson
import pytest

from flows.distill import distill_flow
from tasks.checks.reconcile import full, reconcile_memory, verdict
from tasks.checks.reconcile.verdict import VERDICT_FILE
from tasks.checks.scan import Scan
from tasks.store.layout import OBSERVATION_BASELINE_FILE, RECONCILE_CACHE_FILE
from tasks.store.operation import begin_operation, writing_operation
from tasks.store.settings import load_settings
from tests.memory_builder import PREFIX, page_meta, write
from tests.tasks.checks.test_graph_delta import CLOCK, found, ingest, three_decisions

CONCEPT = f"wiki/concepts/{PREFIX}__queue-depth.md"
LATER = "2027-09-30T10:00:00Z"  # past the 180-day window of the observations' distills
_STAT_KEYS = ("mtime_ns", "ctime_ns", "ino")


def run(root: Path, *, check: bool = False, clock: str = CLOCK) -> Any:
    settings = load_settings(root, fixed_clock=clock)
    if check:
        return reconcile_memory(begin_operation(settings, "reconcile"), check=True)[1]
    with writing_operation(settings, "reconcile") as operation:
        return reconcile_memory(operation, check=False)[1]


@pytest.fixture
def paths(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Which path each repair run's first check took: "delta" or "full" (a repair run by delta
    whose check plans a repair then takes the full path too: "delta", "full")."""
    taken: list[str] = []
    real_delta, real_passes = full._delta_scan, full._check_and_repair

    def delta(operation, walked, cache, *, check):  # type: ignore[no-untyped-def]
        got = real_delta(operation, walked, cache, check=check)
        if got is not None:
            taken.append("delta")
        return got

    def passes(operation, scan, *, check):  # type: ignore[no-untyped-def]
        taken.append("full")
        return real_passes(operation, scan, check=check)

    monkeypatch.setattr(full, "_delta_scan", delta)
    monkeypatch.setattr(full, "_check_and_repair", passes)
    return taken


@pytest.fixture
def settled(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    """Three decisions and a concept page, reconciled until a verdict is kept."""
    root, notes = three_decisions(tmp_path, monkeypatch)
    write(root, CONCEPT, page_meta("concept", "Queue depth", "wiki/concepts/index.md"),
          "# Queue depth\n\nHow deep the queues run.\n")
    run(root)
    run(root)
    run(root)
    assert (root / VERDICT_FILE).exists()
    return root, notes


def _cache(root: Path) -> dict[str, Any]:
    cache = orjson.loads((root / RECONCILE_CACHE_FILE).read_bytes())
    for entry in cache["files"].values():
        for key in _STAT_KEYS:
            del entry[key]
    return dict(cache)


def _verdict(root: Path) -> dict[str, Any]:
    data = orjson.loads((root / VERDICT_FILE).read_bytes())
    return {key: data.get(key) for key in ("findings", "counts", "plan_empty", "pages")}


def _files(root: Path) -> dict[str, bytes]:
    """The memory's files but our bookkeeping and health output (they name the root)."""
    return {path.relative_to(root).as_posix(): path.read_bytes() for path in root.rglob("*")
            if path.is_file() and not path.relative_to(root).as_posix().startswith(
                (".membank/", "context/health/"))}


def _health(summary: Any) -> dict[str, Any]:
    """The health summary but where it ran and how long."""
    data = summary.model_dump(mode="json")
    data.pop("root"), data.pop("durations_seconds")
    return dict(data)


def same_as_full(root: Path, tmp_path: Path, paths: list[str], clock: str = CLOCK
                 ) -> tuple[Any, list[str]]:
    """Repair `root` (by the change) and a copy of it (in full); assert both leave the same;
    then a check and a no-change repair run over each find the same (the verdict). Returns
    the summary of `root`'s repair run and the paths its check took."""
    twin = tmp_path / "twin"
    shutil.rmtree(twin, ignore_errors=True)
    shutil.copytree(root, twin, symlinks=True)
    paths.clear()
    by_delta = run(root, clock=clock)
    taken = list(paths)
    whole = run(twin, clock=clock)
    assert paths[len(taken):] == ["full"]
    assert _health(by_delta) == _health(whole)
    assert _files(root) == _files(twin)
    assert _cache(root) == _cache(twin)
    assert (root / OBSERVATION_BASELINE_FILE).read_bytes() == (
        twin / OBSERVATION_BASELINE_FILE).read_bytes()
    assert _verdict(root) == _verdict(twin)
    for check in (True, False):
        assert found(run(root, check=check, clock=clock)) == found(run(twin, check=check,
                                                                       clock=clock))
    return by_delta, taken


def test_after_ingests_the_repair_run_goes_by_the_change(
        settled: tuple[Path, Path], paths: list[str], tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    root, notes = settled
    ingest(root, notes, "kafka", 1, monkeypatch)  # a new revision of a known entity
    ingest(root, notes, "pulsar", 0, monkeypatch)  # a new entity and relations
    assert same_as_full(root, tmp_path, paths)[1] == ["delta"]
    ingest(root, notes, "nats", 1, monkeypatch)  # from the cache the delta run saved
    assert same_as_full(root, tmp_path, paths)[1] == ["delta"]


def test_a_distill_after_an_ingest_without_one(
        settled: tuple[Path, Path], paths: list[str], tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    root, notes = settled
    note = notes / "decision-redis.md"
    note.write_text((notes / "decision-kafka.md").read_text().replace("kafka", "redis"))
    from flows.ingest import ingest_flow

    ingest_flow(paths=[str(note)], root=str(root), distill=False)
    distill_flow(root=str(root))
    assert same_as_full(root, tmp_path, paths)[1] == ["delta"]


def test_a_hand_edit_and_its_dead_link(settled: tuple[Path, Path], paths: list[str],
                                       tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root, notes = settled
    ingest(root, notes, "kafka", 1, monkeypatch)
    page = root / CONCEPT
    page.write_text(page.read_text() + "\nSee [the missing page](nowhere.md).\n")
    summary, taken = same_as_full(root, tmp_path, paths)
    assert "dead_link" in {f.code for f in summary.findings}
    assert taken == ["delta"]


def test_a_removed_page_is_repaired_by_the_full_path(
        settled: tuple[Path, Path], paths: list[str], tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The hub lists a page that is gone: the check by the change plans the hub's resync, so
    the run takes the full path, which plans and applies it."""
    root, notes = settled
    ingest(root, notes, "rabbit", 1, monkeypatch)
    (root / CONCEPT).unlink()
    summary, taken = same_as_full(root, tmp_path, paths)
    assert "repaired_hub_resynced" in {f.code for f in summary.repaired}
    assert taken == ["delta", "full"]


def test_a_repair_needed_after_an_ingest(settled: tuple[Path, Path], paths: list[str],
                                         tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """index.md no longer lists the concept page: repaired, as by the full path."""
    root, notes = settled
    ingest(root, notes, "nats", 1, monkeypatch)
    index = root / "index.md"
    index.write_text("".join(line for line in index.read_text().splitlines(keepends=True)
                             if CONCEPT not in line))
    summary, taken = same_as_full(root, tmp_path, paths)
    assert "repaired_index_resynced" in {f.code for f in summary.repaired}
    assert taken == ["delta", "full"]


def test_stale_marks_due_after_an_ingest(settled: tuple[Path, Path], paths: list[str],
                                         tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Past the freshness window the run marks the unconfirmed observations (a write of the
    graph after its check by the change), as the full path does; the next run clears none."""
    root, notes = settled
    ingest(root, notes, "kafka", 1, monkeypatch)
    summary, taken = same_as_full(root, tmp_path, paths, clock=LATER)
    assert "repaired_observations_marked_stale" in {f.code for f in summary.repaired}
    assert taken == ["delta"]


@pytest.mark.parametrize("change", ["log", "erased"])
def test_hand_edits_of_the_log_and_the_graph(
        settled: tuple[Path, Path], paths: list[str], tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch, change: str) -> None:
    """An edited log (a baseline that stays) and a graph edited by hand (read whole: not as
    membank wrote it, its erased fact reported) after an ingest."""
    root, notes = settled
    ingest(root, notes, "kafka", 1, monkeypatch)
    edits: dict[str, Callable[[], None]] = {
        "log": lambda: (root / "log.md").write_text(
            (root / "log.md").read_text().replace("## ", "## Edited ", 1)),
        "erased": lambda: _drop_observation(root)}
    edits[change]()
    summary, taken = same_as_full(root, tmp_path, paths)
    # the graph written by hand is rewritten as membank writes it: a repair, the full path
    assert taken == {"log": ["delta"], "erased": ["delta", "full"]}[change]
    assert {"log": "log_rewritten", "erased": "fact_erased"}[change] in {
        f.code for f in summary.findings}


def _drop_observation(root: Path) -> None:
    graph_file = root / "context/knowledge-graph.index.jsonc"
    graph = orjson.loads(graph_file.read_bytes())
    graph["entities"][0]["observations"].pop()
    graph_file.write_bytes(orjson.dumps(graph, option=orjson.OPT_INDENT_2))


def test_a_check_between_the_ingest_and_the_repair_run(
        settled: tuple[Path, Path], paths: list[str], tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """ingest, `reconcile --check`, `reconcile`, `reconcile`: the check and the repair run go
    by the change (a check writes neither the cache nor the baseline, so the pair the last
    repair run saved still holds), and the run after the repair run costs its verdict (no
    scan at all), for two revisions in a row."""
    root, notes = settled
    for rev in (1, 2):
        ingest(root, notes, "kafka", rev, monkeypatch)
        paths.clear()
        run(root, check=True)
        assert paths == ["delta"]
        assert same_as_full(root, tmp_path, paths)[1] == ["delta"]
        paths.clear()
        run(root)
        assert paths == []  # the verdict: neither scan made


def test_a_verdict_of_other_code_is_not_reused(
        settled: tuple[Path, Path], paths: list[str], tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A verdict recorded by other gates (any module of tasks/checks changed in between: its
    version) gives no PageBasis: the repair run after an ingest still goes by the change, its
    gates over every page, and leaves what the full path leaves; the verdict it records holds
    for the next run of the same code."""
    root, notes = settled
    ingest(root, notes, "nats", 1, monkeypatch)
    run(root, check=True)
    monkeypatch.setattr(verdict, "verdict_version", lambda: "0000000000000000")
    assert verdict.recorded_pages(root) is None
    assert same_as_full(root, tmp_path, paths)[1] == ["delta"]
    paths.clear()
    run(root)
    assert paths == []


def test_the_baseline_is_spliced_not_decoded(
        settled: tuple[Path, Path], paths: list[str], tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A repair run by the change after an ingest that added observations writes the new
    baseline from the saved one's bytes (digest_table.spliced_baseline): nothing decodes it,
    and it is the full path's baseline byte for byte (same_as_full)."""
    root, notes = settled
    ingest(root, notes, "pulsar", 0, monkeypatch)  # a new entity: new digests
    before = (root / OBSERVATION_BASELINE_FILE).read_bytes()
    decoded: list[Path] = []
    real = Scan.load_observation_baseline

    def load(scan: Scan) -> dict[str, str]:
        decoded.append(scan.root)
        return real(scan)

    monkeypatch.setattr(Scan, "load_observation_baseline", load)
    same_as_full(root, tmp_path, paths)
    assert (root / OBSERVATION_BASELINE_FILE).read_bytes() != before
    assert root not in decoded
