"""Fuzz over ingest and the proposal gate with hostile fragments (tests/hostile_shapes.py):
no uncaught exception, no write outside the memory root, bounded time and memory."""

from __future__ import annotations

import os
import tempfile
import time
import tracemalloc
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tasks.ingest import collect_inputs, prepare_batch, write_ingest
from tasks.proposals.apply import process_proposals
from tasks.store.layout import INBOX_DIR
from tasks.store.operation import writing_operation
from tasks.store.settings import load_settings
from tests.hostile_shapes import HTML_SHAPES, PATHOLOGICAL
from tests.proposal_fixtures import EXISTING, proposal, proposal_markdown, seed_memory

NOW = "2026-03-24T22:40:05Z"
SECONDS_PER_EXAMPLE = 30
PEAK_BYTES = 300_000_000

FRONT_MATTER = st.sampled_from([
    "", "---\n", "---\ntitle: 1.10\ndescription: yes\n---\n", "---\ntitle: a\ntitle: b\n---\n",
    "---\na: &a [x, x]\nb: &b [*a, *a]\nc: [*b, *b]\n---\n", "---\n: [\n---\n", "---\n- a list\n---\n",
    "---\ndate: 2026-03-01\nstatus: Accepted\n---\n", "---\ntitle: !!python/object:os.system x\n---\n",
])
FRAGMENT = st.one_of(
    st.sampled_from(sorted(PATHOLOGICAL)).map(lambda name: PATHOLOGICAL[name](3_000)),
    st.sampled_from(["# Title\n", "## Section {#x}\n", "```\ncode\n", "~~~\n", "> > quote\n",
                     "- [link](../../../etc/passwd)\n", "[[Wiki Link]]\n", "<div><b>x", "\r\n",
                     "Status: Superseded by [ADR 2](0002.md)\n", "\u202e\u0000\ufeff", "|a|b|\n"]),
    st.text(max_size=200),
)
BODY = st.lists(FRAGMENT, max_size=6).map("".join)
EXTENSION = st.sampled_from([".md", ".txt", ".json", ".jsonl", ".html", ".log", ".bin"])


def tree(folder: Path) -> dict[str, bytes | str]:
    """Every entry under `folder` (symlinks by target, not followed)."""
    found: dict[str, bytes | str] = {}
    for dirpath, dirnames, filenames in os.walk(folder):
        for name in dirnames + filenames:
            path = Path(dirpath) / name
            rel = path.relative_to(folder).as_posix()
            if path.is_symlink():
                found[rel] = f"-> {os.readlink(path)}"
            elif path.is_file():
                found[rel] = path.read_bytes()
    return found


@contextmanager
def bounded(what: str) -> Iterator[None]:
    tracemalloc.start()
    started = time.perf_counter()
    try:
        yield
    finally:
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
    seconds = time.perf_counter() - started
    assert seconds < SECONDS_PER_EXAMPLE, f"{what} took {seconds:.1f} s"
    assert peak < PEAK_BYTES, f"{what} peaked at {peak / 1e6:.0f} MB"


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(files=st.lists(st.tuples(FRONT_MATTER, BODY, EXTENSION), min_size=1, max_size=5),
       links=st.sets(st.sampled_from(["outside", "loop", "dangling", "root"]), max_size=4))
def test_fuzz_ingest(files: list[tuple[str, str, str]], links: set[str]) -> None:
    with tempfile.TemporaryDirectory() as work:
        base = Path(work)
        outside, folder, root = base / "outside", base / "in", base / "memory" / ".memories"
        outside.mkdir()
        (outside / "secret-note.md").write_text("# Secret\n\nnot to be ingested\n")
        folder.mkdir()
        for number, (front, body, ext) in enumerate(files):
            (folder / f"note-{number}{ext}").write_bytes((front + body).encode("utf-8", "replace"))
        if "outside" in links:
            os.symlink(outside / "secret-note.md", folder / "escape.md")
            os.symlink(outside, folder / "escape-folder")
        if "loop" in links:
            os.symlink(folder / "loop-b.md", folder / "loop-a.md")
            os.symlink(folder / "loop-a.md", folder / "loop-b.md")
        if "dangling" in links:
            os.symlink(base / "missing.md", folder / "dangling.md")
        if "root" in links:
            os.symlink(root, folder / "the-root")  # ingesting the memory into itself
        before = {"outside": tree(outside), "in": tree(folder)}
        settings_ = load_settings(root, fixed_clock=NOW)
        with bounded("ingest"):
            inputs, problems = collect_inputs([folder])
            report = write_ingest(settings_, prepare_batch(inputs, settings_), problems)
        assert {"outside": tree(outside), "in": tree(folder)} == before
        assert sorted(p.name for p in base.iterdir()) == ["in", "memory", "outside"]
        assert not [p for p in report.problems if p.code in {"prepare_failed", "write_failed"}]
        assert "not to be ingested" not in "".join(
            p.read_text(errors="replace") for p in root.rglob("*.md"))


PLACEMENT = st.one_of(
    st.just({"kind": "new_leaf", "hub": "wiki/synthesis"}),
    st.sampled_from(["../outside", "/etc", "wiki/../../outside", "wiki/synthesis/../../..",
                     "wiki/escape", "wiki/synthesis\x00", "raw"]).map(
        lambda hub: {"kind": "new_leaf", "hub": hub}),
    st.sampled_from([EXISTING, "../outside/page.md", "wiki/escape/page.md", "index.md"]).map(
        lambda page: {"kind": "extend_section", "page": page, "section": "budget"}),
)


@settings(max_examples=25, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(batch=st.lists(st.tuples(FRONT_MATTER, BODY, PLACEMENT, st.booleans()),
                      min_size=1, max_size=4))
def test_fuzz_proposal_gate(batch: list[tuple[str, str, dict[str, str], bool]]) -> None:
    with tempfile.TemporaryDirectory() as work:
        base = Path(work)
        outside, root = base / "outside", base / "memory" / ".memories"
        outside.mkdir()
        (outside / "page.md").write_text("---\ntitle: outside\n---\n# Outside\n")
        seed_memory(root)
        os.symlink(outside, root / "wiki" / "escape")
        inbox = root / INBOX_DIR
        inbox.mkdir(parents=True)
        for number, (front, body, placement, as_fields) in enumerate(batch):
            if as_fields:  # a well-formed proposal carrying the hostile body and placement
                text = proposal_markdown(proposal(placement=placement, body=body or "x"))
            else:  # hostile front matter as written
                text = (front or "---\ntitle: x\n---\n") + body
            (inbox / f"{number:02d}.md").write_bytes(text.encode("utf-8", "replace"))
        before = tree(outside)
        with bounded("proposals"), writing_operation(load_settings(root, fixed_clock=NOW),
                                                     "propose") as operation:
            report = process_proposals(operation)
        assert tree(outside) == before
        assert sorted(p.name for p in base.iterdir()) == ["memory", "outside"]
        assert report.figures["proposals"] == len(batch)
        assert not list(inbox.iterdir())  # every proposal was filed somewhere


def test_the_fixture_corpus_is_generated() -> None:
    """The fixture corpus is code: every shape builds at any size, deterministically."""
    for make in [*PATHOLOGICAL.values(), *HTML_SHAPES.values()]:
        assert make(50) == make(50) and len(make(5_000)) >= 50
