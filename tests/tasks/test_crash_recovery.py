"""Crash injection: every writing flow, killed (or out of disk) at step N, healed by a rerun.

For each flow (bootstrap, ingest, distill, propose, reconcile repair, forget in its three modes)
a template root holds the
state before the command. A clean run on a copy gives the expected tree. Then, for each step N
(a write, fsync, rename, link or unlink of tasks.store.atomic's file system seam): a forked child runs
the command and dies at step N (os._exit: no cleanup runs), the same command runs again in this
process, and the root must equal the clean tree byte for byte (outside .membank/, log.md and
context/health/), with no temp file or journal left. The same with ENOSPC at the Nth write.

The default run samples SAMPLED_STEPS points per flow (first and last always included); the
exhaustive variant, every step, runs with `-m crash_exhaustive`. Each test prints how many
kill points it covered (`pytest -s`).
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tasks.bootstrap import bootstrap_memory
from tasks.checks.reconcile import reconcile_memory
from tasks.distill.apply import distill_memory
from tasks.ingest import collect_inputs, prepare_batch, write_ingest
from tasks.privacy.forget import ForgetRequest, Mode, forget_operation
from tasks.proposals.apply import process_proposals
from tasks.store.layout import INBOX_DIR
from tasks.store.operation import reading_operation, writing_operation
from tasks.store.settings import MembankSettings, load_settings
from tests import crash_harness as harness
from tests.memory_builder import build_healthy_memory
from tests.proposal_fixtures import EXISTING, TOPIC_HUB, proposal, proposal_markdown, seed_memory
from tests.tasks.checks.reconcile import test_reconcile as damage
from tests.tasks.privacy import forget_scenario

NOW = "2026-03-24T22:40:05Z"
LATER = "2026-03-25T09:00:00Z"
FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "distill"
SAMPLED_STEPS = 16
SAMPLED_WRITES = 8

Command = Callable[[Path], object]


def settings_for(root: Path, now: str = NOW) -> MembankSettings:
    return load_settings(root, fixed_clock=now, page_limit_chars=3000)


def bootstrap(root: Path) -> None:
    with writing_operation(settings_for(root), "bootstrap") as operation:
        bootstrap_memory(operation)


def ingest_of(*folders: Path, now: str = NOW) -> Command:
    def ingest(root: Path) -> None:
        settings = settings_for(root, now)
        inputs, problems = collect_inputs(list(folders))
        write_ingest(settings, prepare_batch(inputs, settings), problems)

    return ingest


def distill(root: Path, now: str = LATER) -> None:
    with writing_operation(settings_for(root, now), "distill") as operation:
        distill_memory(operation)


def distill_later(root: Path) -> None:
    distill(root, LATER)


def propose(root: Path) -> None:
    with writing_operation(settings_for(root, LATER), "propose") as operation:
        process_proposals(operation)


def reconcile_repair(root: Path) -> None:
    with writing_operation(settings_for(root, LATER), "reconcile") as operation:
        reconcile_memory(operation, check=False)


def findings(root: Path) -> list[tuple[str, str | None]]:
    """What `reconcile --check` finds (code, path), after the command."""
    with reading_operation(settings_for(root, LATER), "reconcile") as operation:
        _report, summary = reconcile_memory(operation, check=True)
    return sorted((f.code, f.path) for f in summary.findings)


# --------------------------------------------------------------------------- templates


def _sources(folder: Path) -> Path:
    folder.mkdir(parents=True)
    (folder / "alpha-note.md").write_text("# Alpha note\n\nAlpha uses Postgres.\n", encoding="utf-8")
    sections = "\n\n".join(f"## Part {i}\n\n" + f"Paragraph {i} of the long guide. " * 12
                           for i in range(12))
    (folder / "long-guide.md").write_text(f"# Long guide\n\n{sections}\n", encoding="utf-8")
    (folder / "gamma-log.txt").write_text("gamma started\ngamma stopped\n", encoding="utf-8")
    (folder / "changing-note.md").write_text("# Changing note\n\nFirst version.\n",
                                             encoding="utf-8")
    return folder


def _ingest_template(base: Path) -> tuple[Path, Command]:
    sources = _sources(base / "sources")
    root = base / "root"
    bootstrap(root)
    first = base / "first"
    first.mkdir()
    shutil.copy(sources / "changing-note.md", first / "changing-note.md")
    ingest_of(first)(root)  # an older version of changing-note, superseded by the command
    (first / "changing-note.md").write_text("# Changing note\n\nSecond version.\n",
                                            encoding="utf-8")
    shutil.copy(first / "changing-note.md", sources / "changing-note.md")
    return root, ingest_of(sources, now=LATER)


def _distill_template(base: Path) -> tuple[Path, Command]:
    decisions = base / "decisions"
    shutil.copytree(FIXTURES / "decisions" / "sources", decisions)
    root = base / "root"
    ingest_of(decisions)(root)
    distill(root, NOW)
    # A new version of one decision and new notes: the command distills incrementally,
    # retires what only the old version stated and updates pages written before.
    changed = decisions / "0002-use-sqlite.md"
    changed.write_text(changed.read_text(encoding="utf-8") + "\nSQLite runs in process.\n",
                       encoding="utf-8")
    ingest_of(decisions, FIXTURES / "notes" / "sources", now=LATER)(root)
    return root, distill_later


def _propose_template(base: Path) -> tuple[Path, Command]:
    root = base / "root"
    seed_memory(root)
    inbox = root / INBOX_DIR
    inbox.mkdir(parents=True, exist_ok=True)
    accepted = [
        proposal(),
        proposal(title="Budget", description="A new budget.",
                 placement={"kind": "extend_section", "page": EXISTING, "section": "budget"},
                 body="## Budget\n\nRetry five times.\n"),
        proposal(title="Resilience drills", description="Drills for failures.",
                 placement={"kind": "new_leaf", "hub": TOPIC_HUB},
                 body="# Resilience drills\n\nPull the plug weekly.\n"),
    ]
    for number, data in enumerate(accepted):
        (inbox / f"{number:02d}-proposal.md").write_text(proposal_markdown(data), encoding="utf-8")
    rejected = proposal(memory=None)
    (inbox / "09-rejected.md").write_text(proposal_markdown(rejected), encoding="utf-8")
    return root, propose


def _reconcile_template(base: Path) -> tuple[Path, Command]:
    root = base / "root"
    build_healthy_memory(root)
    reconcile_repair(root)
    for hurt in (damage._missing_index, damage._registry_unsorted, damage._unsorted_graph,
                 damage._hub_missing, damage._entity_page_missing, damage._created_at_changed):
        hurt(root)
    return root, reconcile_repair


def _revert_template(base: Path) -> tuple[Path, Command]:
    """A file back at bytes ingested before: the command reinstates that version (a revert
    event, a new source page, the intermediate page superseded) and distills it."""
    root, folder = base / "root", base / "reverting"
    bootstrap(root)
    folder.mkdir()
    note = folder / "release-train.md"
    first = "---\nentity: Release train\n---\n\n- [fact] Ships every Tuesday\n"
    note.write_text(first, encoding="utf-8")
    ingest_of(folder)(root)
    distill(root, NOW)
    note.write_text(first.replace("Tuesday", "Thursday"), encoding="utf-8")
    ingest_of(folder, now="2026-03-25T01:00:00Z")(root)
    distill(root, "2026-03-25T01:00:00Z")
    note.write_text(first, encoding="utf-8")

    def revert(root: Path) -> None:
        ingest_of(folder, now=LATER)(root)
        distill(root, LATER)

    return root, revert


def forget_of(mode: Mode) -> Command:
    def forget(root: Path) -> None:
        request = forget_scenario.confirmed(root, ForgetRequest(forget_scenario.TOPIC, mode=mode))
        with writing_operation(settings_for(root, LATER), "forget") as operation:
            forget_operation(operation, request, apply=True)

    return forget


def _forget_template(mode: Mode) -> Callable[[Path], tuple[Path, Command]]:
    """forget_scenario's memory (the topic in sources, pages, superseded history, the graph)
    plus a sharded runbook about it (its shard folder goes too), and a proposal naming it."""

    def template(base: Path) -> tuple[Path, Command]:
        root = base / "root"
        base.mkdir(parents=True, exist_ok=True)
        forget_scenario.build_memory(root, base)
        runbook = base / "runbook"
        runbook.mkdir()
        sections = "\n\n".join(f"## Falcon step {i}\n\n" + f"Falcon drains queue {i} first. " * 40
                                for i in range(60))
        (runbook / "falcon-runbook.md").write_text(f"# Falcon runbook\n\n{sections}\n")
        forget_scenario.ingest_and_distill(root, runbook, forget_scenario.EARLIER)
        inbox = root / INBOX_DIR
        inbox.mkdir(parents=True, exist_ok=True)
        (inbox / "falcon-idea.md").write_text("# Falcon idea\n\nMove Falcon to a new region.\n")
        return root, forget_of(mode)

    return template


def _bootstrap_template(base: Path) -> tuple[Path, Command]:
    root = base / "root"
    root.mkdir(parents=True)
    return root, bootstrap


TEMPLATES = {
    "bootstrap": _bootstrap_template,
    "ingest": _ingest_template,
    "distill": _distill_template,
    "propose": _propose_template,
    "reconcile": _reconcile_template,
    "revert": _revert_template,
    "forget-soft": _forget_template("soft"),
    "forget-hard": _forget_template("hard"),
    "forget-purge": _forget_template("purge"),
}


class Flow:
    """A template root, its command, the clean tree and the command's step counts."""

    def __init__(self, name: str, base: Path) -> None:
        self.name = name
        self.base = base
        self.template, self.command = TEMPLATES[name](base / "template")
        clean = harness.fresh_copy(self.template, base / "clean")
        self.steps = harness.count_steps(self.command, clean)
        self.expected = harness.tree(clean)
        assert harness.leftovers(clean) == []
        writes = harness.fresh_copy(self.template, base / "writes")
        self.writes = harness.count_steps(self.command, writes, kinds=frozenset({"write"}))
        self.command(clean)  # a rerun of a clean run changes nothing
        assert harness.tree(clean) == self.expected, f"{name}: a rerun changed the clean tree"
        self.findings = findings(clean)

    def trial_root(self) -> Path:
        return harness.fresh_copy(self.template, self.base / "trial")

    def check_healed(self, root: Path, what: str) -> None:
        assert harness.leftovers(root) == [], f"{self.name}, {what}: leftovers"
        got = harness.tree(root)
        missing = sorted(set(self.expected) - set(got))
        extra = sorted(set(got) - set(self.expected))
        differ = sorted(k for k in set(got) & set(self.expected) if got[k] != self.expected[k])
        assert not (missing or extra or differ), (
            f"{self.name}, {what}: missing {missing[:5]}, extra {extra[:5]}, differ {differ[:5]}")
        # .membank/ (reconcile's cache and baselines) agrees too: the same health findings.
        assert findings(root) == self.findings, f"{self.name}, {what}: other health findings"


@pytest.fixture(scope="module", params=sorted(TEMPLATES))
def flow(request: pytest.FixtureRequest,
         tmp_path_factory: pytest.TempPathFactory) -> Iterator[Flow]:
    mp = pytest.MonkeyPatch()  # module scope: the autouse settings isolation comes too late
    for key in [k for k in os.environ if k.startswith("MEMBANK_")]:
        mp.delenv(key)
    try:
        yield Flow(request.param, tmp_path_factory.mktemp(request.param))
    finally:
        mp.undo()


def _kill_and_heal(flow: Flow, steps: list[int]) -> None:
    for step in steps:
        root = flow.trial_root()
        status = harness.run_killed_at(flow.command, root, step)
        assert status == harness.KILLED, f"{flow.name}: the child killed at {step} exited {status}"
        flow.command(root)
        flow.check_healed(root, f"killed at step {step} of {flow.steps}")
    print(f"{flow.name}: {len(steps)} of {flow.steps} kill points healed")


def _out_of_space_and_heal(flow: Flow, writes: list[int]) -> None:
    for write in writes:
        root = flow.trial_root()
        harness.run_out_of_space_at(flow.command, root, write)
        flow.command(root)
        flow.check_healed(root, f"ENOSPC at write {write} of {flow.writes}")
    print(f"{flow.name}: {len(writes)} of {flow.writes} ENOSPC points healed")


def test_a_kill_at_sampled_steps_heals_on_rerun(flow: Flow) -> None:
    assert flow.steps > 3
    _kill_and_heal(flow, harness.sample(flow.steps, SAMPLED_STEPS))


def test_enospc_at_sampled_writes_heals_on_rerun(flow: Flow) -> None:
    assert flow.writes > 0
    _out_of_space_and_heal(flow, harness.sample(flow.writes, SAMPLED_WRITES))


@pytest.mark.crash_exhaustive
def test_a_kill_at_every_step_heals_on_rerun(flow: Flow, request: pytest.FixtureRequest) -> None:
    if "crash_exhaustive" not in (request.config.getoption("-m") or ""):
        pytest.skip("exhaustive: run with -m crash_exhaustive")
    _kill_and_heal(flow, list(range(1, flow.steps + 1)))
    _out_of_space_and_heal(flow, list(range(1, flow.writes + 1)))
