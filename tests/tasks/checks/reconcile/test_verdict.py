"""The reconcile verdict (tasks/checks/reconcile/verdict.py): reused only over the very files it was
made on, never trusted after a hand edit, rebuilt when corrupt, same outputs as without it."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tasks.checks.reconcile import reconcile_memory
from tasks.checks.reconcile.verdict import VERDICT_FILE
from tasks.store.operation import begin_operation, writing_operation
from tasks.store.settings import load_settings
from tests.memory_builder import CONCEPT, NOW, RAW, build_healthy_memory, snapshot

GRAPH = "context/knowledge-graph.index.jsonc"


def reconcile(root: Path, *, check: bool = False):
    settings = load_settings(root, fixed_clock=NOW)
    if check:
        return reconcile_memory(begin_operation(settings, "reconcile"), check=True)
    with writing_operation(settings, "reconcile") as operation:
        return reconcile_memory(operation, check=False)


def summary_facts(summary) -> tuple:
    """What a reconcile found, without its timings."""
    return (summary.status, summary.counts.model_dump(),
            [f.model_dump() for f in summary.findings], [f.model_dump() for f in summary.repaired])


@pytest.fixture
def settled(tmp_path: Path) -> Path:
    """A memory with a dead link (a finding that is no repair), reconciled until it records a
    verdict."""
    root = tmp_path / "memory"
    build_healthy_memory(root)
    page = root / CONCEPT
    page.write_text(page.read_text() + "\nSee [the plan](missing-plan.md).\n")
    reconcile(root)
    reconcile(root)
    assert (root / VERDICT_FILE).exists()
    return root


def test_unchanged_memory_reuses_the_verdict_with_the_same_outputs(settled: Path) -> None:
    _report, full = reconcile(settled, check=True)
    assert "dead_link" in {f.code for f in full.findings}
    before = snapshot(settled, skip=("context/health",))
    report, again = reconcile(settled, check=True)
    assert report.figures["files_read"] == 0
    assert summary_facts(again) == summary_facts(full)
    report, repaired = reconcile(settled)
    assert summary_facts(repaired)[1:] == summary_facts(full)[1:]
    assert snapshot(settled, skip=("context/health",)) == before


def test_verdict_never_decides_alone(settled: Path, tmp_path: Path) -> None:
    """Outputs are byte-identical with and without the verdict (and its cache)."""
    _report, with_verdict = reconcile(settled, check=True)
    (settled / VERDICT_FILE).unlink()
    _report, without = reconcile(settled, check=True)
    assert summary_facts(with_verdict) == summary_facts(without)


def test_hand_edit_keeping_size_and_mtime_is_not_trusted(settled: Path) -> None:
    """A hand edit of the graph that keeps its size and mtime is still found (ctime, inode)."""
    graph = settled / GRAPH
    st = graph.stat()
    text = graph.read_text()
    assert '"delegates_to"' in text
    graph.write_text(text.replace('"delegates_to"', '"delegates_xx"', 1))
    os.utime(graph, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert graph.stat().st_size == st.st_size and graph.stat().st_mtime_ns == st.st_mtime_ns
    report, summary = reconcile(settled, check=True)
    assert report.figures["files_read"] >= 1
    assert any(f.path == GRAPH for f in summary.findings)


def test_changed_page_is_checked_again(settled: Path) -> None:
    page = settled / CONCEPT
    page.write_text(page.read_text().replace("missing-plan.md", "another-missing.md"))
    _report, summary = reconcile(settled, check=True)
    dead = [f.message for f in summary.findings if f.code == "dead_link"]
    assert any("another-missing.md" in m for m in dead), dead
    assert not any("missing-plan.md" in m and "another" not in m for m in dead)


def test_a_walk_with_another_probe_skips_the_fingerprint(settled: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """The verdict records its walk's probe: a check after a write (another probe) knows the
    verdict does not hold without the fingerprint, and finds what the full check finds; with
    the same probe the fingerprint still decides (a verdict with another fingerprint but the
    probe of this walk is not reused)."""
    import orjson

    from tasks.checks import walk

    _report, with_verdict = reconcile(settled, check=True)
    data = orjson.loads((settled / VERDICT_FILE).read_bytes())
    assert data["probe"] == walk.walk_root(settled).probe()
    made: list[int] = []
    real = walk.Walked.fingerprint
    monkeypatch.setattr(walk.Walked, "fingerprint", lambda self: made.append(1) or real(self))
    page = settled / CONCEPT
    page.write_text(page.read_text().replace("missing-plan.md", "another-missing.md"))
    report, summary = reconcile(settled, check=True)
    assert made == [] and report.figures["files_read"] >= 1
    assert "another-missing.md" in str([f.message for f in summary.findings])
    reconcile(settled)  # records a verdict over the edited page
    data = orjson.loads((settled / VERDICT_FILE).read_bytes())
    data["fingerprint"] = "0" * 32 + data["fingerprint"][32:]  # same probe, another walk
    (settled / VERDICT_FILE).write_bytes(orjson.dumps(data))
    report, _summary = reconcile(settled, check=True)
    assert made and report.figures["files_read"] == 0  # checked from the cache, not the verdict
    assert (settled / VERDICT_FILE).read_bytes() == orjson.dumps(data)  # a check records none


@pytest.mark.parametrize("damage", [b"{not json", b"", b'{"version": "1.9"}', b"[]"])
def test_corrupt_verdict_is_ignored_and_rebuilt(settled: Path, damage: bytes) -> None:
    _report, full = reconcile(settled, check=True)
    (settled / VERDICT_FILE).write_bytes(damage)
    report, summary = reconcile(settled, check=True)
    assert report.figures["files_read"] == 0  # the facts cache still serves
    assert summary_facts(summary) == summary_facts(full)
    reconcile(settled)  # a repair run records it again
    assert (settled / VERDICT_FILE).read_bytes() != damage
    report, summary = reconcile(settled, check=True)
    assert summary_facts(summary) == summary_facts(full)


def test_removed_cache_voids_the_verdict(settled: Path) -> None:
    """The verdict stands on the cache's baselines: without them the full check runs."""
    (settled / ".membank/reconcile-cache.json").unlink()
    report, _summary = reconcile(settled, check=True)
    assert report.figures["files_read"] > 0


def test_search_index_damage_is_still_found(settled: Path) -> None:
    index = settled / ".membank/search.sqlite3"
    assert index.exists()
    index.write_bytes(b"not a database at all")
    _report, summary = reconcile(settled, check=True)
    assert "search_index_corrupt" in {f.code for f in summary.findings}


def test_index_identity_is_the_search_index_s_own(settled: Path) -> None:
    """verdict.index_identity computes the index file and generation without importing the
    search index: the same values as tasks.search.index's, outside and inside a batch that
    wrote content."""
    from tasks.checks.reconcile.verdict import index_identity
    from tasks.search.index import index_file, memory_generation
    from tasks.store.atomic import atomic_write_text
    from tasks.store.filememo import file_identity

    def search_index_own(layout) -> dict:
        return {"file": file_identity(index_file(layout)), "generation": memory_generation(layout)}

    settings = load_settings(settled, fixed_clock=NOW)
    with writing_operation(settings, "reconcile") as operation:
        before = index_identity(operation.layout)
        assert before == search_index_own(operation.layout) and before["file"] is not None
        atomic_write_text(settled / CONCEPT, (settled / CONCEPT).read_text() + "\nmore\n")
        during = index_identity(operation.layout)
        assert during == search_index_own(operation.layout)
        assert during["generation"] != before["generation"]
    assert index_identity(operation.layout) == search_index_own(operation.layout)


def test_a_verdict_that_holds_imports_no_parser_gate_or_search_index(settled: Path) -> None:
    """`reconcile --check` over an unchanged memory needs the walk and the verdict only: the
    scan and its parsers, the gates and the search index are not even imported (start-up is
    part of every agent call)."""
    import subprocess
    import sys

    code = (
        "import sys\n"
        "from tasks.checks.reconcile import reconcile_memory\n"
        "from tasks.store.operation import begin_operation\n"
        "from tasks.store.settings import load_settings\n"
        f"settings = load_settings({str(settled)!r}, fixed_clock={NOW!r})\n"
        "report, _ = reconcile_memory(begin_operation(settings, 'reconcile'), check=True)\n"
        "assert report.figures['files_read'] == 0, report.figures\n"
        "print('\\n'.join(sorted(sys.modules)))\n")
    loaded = set(subprocess.run([sys.executable, "-c", code], check=True, capture_output=True,
                                text=True, cwd=Path(__file__).resolve().parents[4]).stdout.split())
    assert "tasks.checks.reconcile.run" in loaded and "tasks.checks.walk" in loaded
    for heavy in ("tasks.checks.scan", "tasks.checks.reconcile.gates", "tasks.checks.reconcile.full",
                  "tasks.search.index", "tasks.memstores.check", "markdown_it", "yaml"):
        assert heavy not in loaded, heavy


# --- a repair run that wrote records the verdict of the files as it left them -------------------

LATER = "2027-06-01T00:00:00Z"  # past the freshness window: the run marks stale facts


def reconcile_at(root: Path, clock: str, *, check: bool = False):
    settings = load_settings(root, fixed_clock=clock)
    if check:
        return reconcile_memory(begin_operation(settings, "reconcile"), check=True)
    with writing_operation(settings, "reconcile") as operation:
        return reconcile_memory(operation, check=False)


def full_check_facts(root: Path, clock: str) -> tuple:
    """What `reconcile --check` finds without the verdict (the gates over the cached facts),
    the verdict put back as it was."""
    kept = (root / VERDICT_FILE).read_bytes()
    (root / VERDICT_FILE).unlink()
    report, summary = reconcile_at(root, clock, check=True)
    (root / VERDICT_FILE).write_bytes(kept)
    return summary_facts(summary)


@pytest.fixture
def repaired(tmp_path: Path) -> Path:
    """A fresh memory with a finding a repair fixes (a writable raw asset) and one it cannot
    (a dead link): its first repair run repairs, and logs."""
    root = tmp_path / "memory"
    build_healthy_memory(root)
    os.chmod(root / RAW, 0o644)
    page = root / CONCEPT
    page.write_text(page.read_text() + "\nSee [the plan](missing-plan.md).\n")
    return root


@pytest.mark.parametrize("clock", [NOW, LATER])
def test_a_run_that_repaired_and_logged_records_what_a_full_check_finds(
        repaired: Path, clock: str) -> None:
    _report, first = reconcile_at(repaired, clock)
    assert first.repaired  # it wrote: a repair (and at LATER stale marks), then its log entry
    if clock == LATER:
        assert "repaired_observations_marked_stale" in {f.code for f in first.repaired}
    assert first.status and "reconcile" in (repaired / "log.md").read_text()
    assert (repaired / VERDICT_FILE).exists()
    before = snapshot(repaired, skip=("context/health",))
    report, again = reconcile_at(repaired, clock, check=True)
    assert report.figures["files_read"] == 0  # the verdict held: nothing was scanned
    assert summary_facts(again) == full_check_facts(repaired, clock)
    assert "dead_link" in {f.code for f in again.findings}
    report, next_run = reconcile_at(repaired, clock)  # the next repair run: nothing to do
    assert report.figures["files_read"] == 0 and not next_run.repaired
    assert summary_facts(next_run)[1:3] == summary_facts(again)[1:3]
    assert snapshot(repaired, skip=("context/health",)) == before


@pytest.mark.parametrize("where", [CONCEPT, GRAPH, "log.md", "index.md"])
def test_a_hand_edit_after_a_self_logged_run_is_found(repaired: Path, where: str) -> None:
    """The recorded verdict never hides an edit made after the run, anywhere: same size and
    mtime kept."""
    reconcile(repaired)
    assert (repaired / VERDICT_FILE).exists()
    target = repaired / where
    st = target.stat()
    data = target.read_bytes()
    edited = (data.replace(b'"delegates_to"', b'"delegates_xx"', 1) if where == GRAPH
              else data[:-4] + b"XXX\n")
    assert edited != data and len(edited) == len(data)
    target.write_bytes(edited)
    os.utime(target, ns=(st.st_atime_ns, st.st_mtime_ns))
    report, summary = reconcile(repaired, check=True)
    assert report.figures["files_read"] >= 1
    assert summary_facts(summary) == full_check_facts(repaired, NOW)


def test_the_log_rescan_stats_only_the_log(repaired: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """After its log entry, a repair run stats log.md again, not the whole memory."""
    import tasks.checks.reconcile.full as full
    import tasks.checks.walk as walk

    walks: list[object] = []
    monkeypatch.setattr(full, "scan_memory", _counting_scan(full.scan_memory, walks))
    monkeypatch.setattr(walk.Walked, "restat", _logged_restat(walk.Walked.restat, walks))
    reconcile(repaired)
    assert walks[-2:][0] == ["log.md"]  # the last rescan stat-ed the log alone ...
    assert walks[-1] is not None  # ... and scanned from that walk, not a new one


def _logged_restat(restat, walks: list):
    def logged(self, root, rels):
        walks.append(list(rels))
        return restat(self, root, rels)
    return logged


def _counting_scan(scan_memory, walks: list):
    def counted(root, cache=None, walked=None, **options):
        walks.append(walked)
        return scan_memory(root, cache, walked, **options)
    return counted


@pytest.mark.parametrize("damage", [
    b"", b"{", b"\x00\xff garbage", None, b'{"version": 11, "files": []}',
    b'{"version": 11, "files": {"log.md": 3, "index.md": {"size": 1}}}',
    b'{"version": 11, "created_at": [], "log_baseline": 7, "files": {}}'])
def test_damaged_reconcile_cache_means_a_full_check_not_a_crash(settled: Path,
                                                                 damage: bytes | None) -> None:
    """A truncated, corrupt or wrongly shaped reconcile cache: the check reads everything
    again and finds what it found."""
    _report, full = reconcile(settled, check=True)
    cache = settled / ".membank/reconcile-cache.json"
    data = cache.read_bytes()
    cache.write_bytes(data[: len(data) // 2] if damage is None else damage)
    report, summary = reconcile(settled, check=True)
    assert report.figures["files_read"] > 0
    assert summary_facts(summary)[1:3] == summary_facts(full)[1:3]


@pytest.mark.parametrize("clock", [NOW, LATER])
def test_the_self_recorded_verdict_is_the_one_a_full_check_records(repaired: Path,
                                                                   clock: str) -> None:
    """Deterministic: the verdict a run records of its own writes is byte for byte the one a
    repair run that wrote nothing records over the same files (the verdict removed, so the
    gates run), and the cache it saved is left as it is."""
    reconcile_at(repaired, clock)
    verdict = repaired / VERDICT_FILE
    cache = repaired / ".membank/reconcile-cache.json"
    recorded, cached = verdict.read_bytes(), cache.read_bytes()
    verdict.unlink()
    report, _summary = reconcile_at(repaired, clock)
    assert report.figures["repairs"] == 0  # it wrote nothing: its verdict is its own finding
    assert cache.read_bytes() == cached
    assert verdict.read_bytes() == recorded


@pytest.mark.parametrize("clock", [NOW, LATER])
def test_the_next_run_check_in_a_child_records_the_verdict_made_here(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, clock: str) -> None:
    """On a large memory the check of the files as the run leaves them runs in a forked child
    (scan_pool.run_aside) beside the cache's save and the index check: the same verdict, the
    same memory, byte for byte, as when it runs here."""
    from tasks.checks import scan_pool
    from tasks.checks.reconcile import full

    forked: list[bool] = []

    def watched(call, items):
        aside = scan_pool.run_aside(call, items)
        if call.func is full._check_next_run:  # (the index's deep check goes aside too)
            forked.append(aside._child is not None)
        return aside

    monkeypatch.setattr(full, "run_aside", watched)
    may_fork = scan_pool.usable_workers(10**9) > 1  # cores, threads, start methods here
    roots = {}
    for where, threshold in (("child", 1), ("here", 10**9)):
        monkeypatch.setattr(scan_pool, "PARALLEL_MIN", threshold)
        root = roots[where] = tmp_path / where / "memory"
        build_healthy_memory(root)
        os.chmod(root / RAW, 0o644)
        page = root / CONCEPT
        page.write_text(page.read_text() + "\nSee [the plan](missing-plan.md).\n")
        _report, summary = reconcile_at(root, clock)
        assert summary.repaired and (root / VERDICT_FILE).exists()
    assert forked == [may_fork, False]  # the child ran it, if it may
    child, here = (snapshot(roots[w], skip=("context/health", VERDICT_FILE, ".membank"))
                   for w in ("child", "here"))
    assert child == here

    def verdict_facts(root: Path) -> tuple:
        import orjson

        data = orjson.loads((root / VERDICT_FILE).read_bytes())
        return data["findings"], data["counts"], data["plan_empty"]

    assert verdict_facts(roots["child"]) == verdict_facts(roots["here"])
    assert "dead_link" in {f["code"] for f in verdict_facts(roots["child"])[0]}


def test_a_lost_next_run_check_records_no_verdict(repaired: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """A child killed before it answered: no verdict (the next run checks in full), the run
    itself done."""
    from tasks.checks import scan_pool

    class Lost:
        def result(self):
            raise scan_pool.AsideLost("killed")

    from tasks.checks.reconcile import full

    monkeypatch.setattr(full, "run_aside", lambda call, items: Lost())
    _report, summary = reconcile(repaired)
    assert summary.repaired and not (repaired / VERDICT_FILE).exists()
    _report, again = reconcile(repaired, check=True)  # no verdict: the gates ran
    assert "dead_link" in {f.code for f in again.findings}
    _report, next_run = reconcile(repaired)  # and the next repair run records one
    assert (repaired / VERDICT_FILE).exists()
    assert summary_facts(next_run)[1:3] == summary_facts(again)[1:3]


def test_search_index_damage_is_found_with_its_deep_check_made_in_a_child(
        settled: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The index's deep check made ahead in a child (full._index_check_ahead) beside the first
    check pass: a damaged index is still found, and a sound one checks ok."""
    from tasks.checks import scan_pool

    monkeypatch.setattr(scan_pool, "PARALLEL_MIN", 1)
    (settled / VERDICT_FILE).unlink()
    _report, summary = reconcile(settled, check=True)
    assert "search_index_corrupt" not in {f.code for f in summary.findings}
    index = settled / ".membank/search.sqlite3"
    size = index.stat().st_size
    with index.open("r+b") as damaged:
        damaged.seek(size // 2)
        damaged.write(b"\xff" * 4096)
    _report, summary = reconcile(settled, check=True)
    assert "search_index_corrupt" in {f.code for f in summary.findings}


def test_the_verdict_stands_on_every_module_of_the_checks() -> None:
    """A gate or what it reads, in any module of tasks/checks (a repair, the stale marks, the
    entity rows), changed by an upgrade or by hand: the verdict recorded before is void."""
    from tasks.checks.reconcile import verdict

    checks = Path(verdict.__file__).resolve().parent.parent
    named = {path.relative_to(checks).as_posix() for path in verdict.verdict_code()}
    assert {"reconcile/gates.py", "reconcile/repairs.py", "reconcile/stale.py", "reconcile/drift.py",
            "entity_rows.py", "graph_delta.py", "scan.py", "cache_parts.py"} <= named
    assert named == {path.relative_to(checks).as_posix() for path in checks.rglob("*.py")}
