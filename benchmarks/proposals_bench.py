"""Proposal intake benchmark: a batch of generated proposals through the real gate and writer.

    .venv/bin/python benchmarks/proposals_bench.py [--count 1000] [--root /tmp/bench-proposals]
    .venv/bin/python benchmarks/proposals_bench.py --scale 1000,10000   # linear? (issue 19)

Seeds a bootstrapped memory with one concept page per 10 proposals, drops `count` proposals in
the inbox (new leaves, section rewrites, appends, and 5% that the gate rejects), gates them as
`membank propose` does (`process_in_chunks`: the writer lock taken per chunk of
PROPOSALS_PER_LOCK), then replays the same batch (every proposal a dedupe hit). Prints
proposals per second for both passes and the size of what was written. With --scale, only the
first pass at each count, then the time ratio against the first count's.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tasks.bootstrap import bootstrap_memory
from tasks.proposals.apply import process_in_chunks
from tasks.store.catalog import CatalogEntry, update_hub
from tasks.store.layout import INBOX_DIR, MemoryLayout
from tasks.store.operation import writing_operation
from tasks.store.page_writes import write_page
from tasks.store.pages import new_page_meta
from tasks.store.settings import load_settings
from tests.proposal_fixtures import proposal, proposal_markdown

SEED = "2026-03-20T10:00:00Z"
PARAGRAPH = (
    "Uploads that fail with a transient error are retried with exponential backoff; "
    "the budget, the jitter and the give-up rule are recorded here with their evidence. "
)


def seed(root: Path, pages: int) -> list[str]:
    with writing_operation(load_settings(root, fixed_clock=SEED), "bootstrap") as operation:
        bootstrap_memory(operation)
    paths, entries = [], []
    for i in range(pages):
        path = f"wiki/concepts/2026-03-20T10-00-00Z__topic-{i:05d}.md"
        meta = new_page_meta(
            SEED,
            type="concept",
            title=f"Topic {i:05d}",
            description=f"Concept number {i}.",
            child_of=["wiki/concepts/index.md"],
        )
        body = f"# Topic {i:05d}\n\n" + "".join(
            f"## Part {k}\n\n{PARAGRAPH * 4}\n\n" for k in range(4)
        )
        write_page(root / path, meta, body, now_iso=SEED)
        paths.append(path)
        entries.append(CatalogEntry(path, f"Topic {i:05d}", f"Concept number {i}."))
    update_hub(MemoryLayout(root), "wiki/concepts/index.md", entries, now_iso=SEED)
    return paths


def fill_inbox(root: Path, count: int, pages: list[str]) -> int:
    inbox = root / INBOX_DIR
    inbox.mkdir(parents=True, exist_ok=True)
    total = 0
    for i in range(count):
        page = pages[i % len(pages)]
        kind = i % 20
        if kind == 0:
            data = proposal(title=f"Finding {i}", memory=None)  # rejected
        elif kind % 3 == 0:
            data = proposal(
                title=f"Rewrite {i}",
                body=f"{PARAGRAPH * 3}(revision {i})\n",
                placement={"kind": "extend_section", "page": page, "section": "part-1"},
            )
        elif kind % 3 == 1:
            data = proposal(
                title=f"Appendix {i}",
                body=f"{PARAGRAPH * 2}\n",
                placement={"kind": "append_section", "page": page, "section": f"appendix-{i}"},
            )
        else:
            data = proposal(
                title=f"Finding {i}",
                body=f"# Finding {i}\n\n{PARAGRAPH * 6}\n\n## Evidence\n\n{PARAGRAPH * 3}\n",
            )
        text = proposal_markdown(data)
        (inbox / f"{i:06d}.md").write_text(text, encoding="utf-8")
        total += len(text.encode())
    return total


def run_once(root: Path, clock: str) -> tuple[float, dict[str, object]]:
    start = time.perf_counter()
    report = process_in_chunks(load_settings(root, fixed_clock=clock))
    return time.perf_counter() - start, dict(report.figures)


def scale(root: Path, counts: list[int]) -> None:
    """The first pass at each count; linear means the time ratio is about the count ratio."""
    first: tuple[int, float] | None = None
    for count in counts:
        shutil.rmtree(root, ignore_errors=True)
        fill_inbox(root, count, seed(root, max(1, count // 10)))
        seconds, figures = run_once(root, "2026-03-24T22:40:05Z")
        first = first or (count, seconds)
        print(f"{count} proposals in {seconds:.2f} s = {count / seconds:.0f} proposals/s; "
              f"x{seconds / first[1]:.1f} the time of {first[0]} for x{count / first[0]:.0f} the "
              f"proposals; {figures}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=1000)
    parser.add_argument("--root", type=Path, default=Path("/tmp/bench-proposals/.memories"))
    parser.add_argument("--scale", help="comma-separated counts, e.g. 1000,10000")
    args = parser.parse_args()
    if args.scale:
        scale(args.root, [int(c) for c in args.scale.split(",")])
        return
    shutil.rmtree(args.root, ignore_errors=True)
    pages = seed(args.root, max(1, args.count // 10))
    size = fill_inbox(args.root, args.count, pages)
    seconds, figures = run_once(args.root, "2026-03-24T22:40:05Z")
    print(
        f"first pass: {args.count} proposals ({size / 1e6:.2f} MB) in {seconds:.2f} s = "
        f"{args.count / seconds:.0f} proposals/s; {figures}"
    )
    fill_inbox(args.root, args.count, pages)
    seconds, figures = run_once(args.root, "2026-03-25T08:00:00Z")
    print(
        f"replay:     {args.count} proposals in {seconds:.2f} s = "
        f"{args.count / seconds:.0f} proposals/s; {figures}"
    )
    wiki = sum(p.stat().st_size for p in (args.root / "wiki").rglob("*.md"))
    print(f"wiki size after: {wiki / 1e6:.2f} MB")


if __name__ == "__main__":
    main()
