"""How each command's cost grows with the memory (issue 30): whole commands, medians, peak RSS.

    nice .venv/bin/python benchmarks/bench_growth.py [--sizes 1000,10000] [--repeat 3] [--keep]

For each size (pages; 100000 is opt-in: generation alone takes minutes), generates the memory of
benchmarks/bench_reconcile.py (10 observations per page, as its defaults), then runs the real
`membank` command in a child process for each row and reads its wall clock and its peak RSS
(os.wait4's rusage of that child alone). Rows:

- search index, cold build: `membank search --rebuild`;
- reconcile, full: the reconcile cache (.membank/) removed first, so every file is parsed;
- reconcile, nothing changed; `reconcile --check`; `distill --all`;
- index update after 100 changed pages: 100 concept pages edited by hand, then a child process
  that calls tasks.search.index.update_index on them (no command re-indexes hand edits alone:
  reconcile does it as part of its run), start-up included;
- ingest of one changed note: a note ingested once beforehand, then changed and ingested again
  (distill included, as the command does by default);
- one search, one retrieve.

Prints one markdown table: medians per size as "wall / cpu" (cpu: the child's user + sys, the
figure to trust on a loaded machine), growth from the first to the last size, and the peak RSS
of each row at the largest size. Timings include Python start-up; the machine is
shared, so the load average is printed beside each size.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import orjson

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.bench_reconcile import PREFIX
from tasks.store.layout import OBSERVATION_BASELINE_FILE, RECONCILE_CACHE_FILE

MEMBANK = str(Path(sys.executable).with_name("membank"))
TIME = "/usr/bin/time"  # GNU time: the child's own peak RSS (see timed)
ROWS = ("reconcile, full", "reconcile, nothing changed", "reconcile --check", "distill --all",
        "search index, cold build", "index update, 100 changed pages", "ingest, one changed note",
        "one search", "one retrieve")
# In a child process, so this one stays small (see timed).
GENERATE = """
import sys
from pathlib import Path
import orjson
from benchmarks.bench_reconcile import generate
root, pages = Path(sys.argv[1]), int(sys.argv[2])
shape = generate(root, pages, pages * 10)
(root.parent / f"shape-{pages}.json").write_bytes(orjson.dumps(shape))
"""
UPDATE_SNIPPET = """
import sys
from pathlib import Path
from tasks.search.index import update_index
from tasks.store.layout import MemoryLayout
root = Path(sys.argv[1])
layout = MemoryLayout(root.resolve())
update = update_index(layout, sys.argv[2:])
assert update.pages_indexed == len(sys.argv[2:]), update
"""


@dataclass
class Measured:
    seconds: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)  # user + sys of the child
    peak_mb: float = 0.0

    def add(self, seconds: float, cpu: float, peak_mb: float) -> None:
        self.seconds.append(seconds)
        self.cpu.append(cpu)
        self.peak_mb = max(self.peak_mb, peak_mb)


def timed(argv: list[str], ok: tuple[int, ...] = (0, 1)) -> tuple[float, float, float]:
    """Wall clock, CPU time (user + sys) and peak RSS (MB) of one child process.

    Measured by /usr/bin/time around the child: Linux keeps a process's peak RSS across fork
    and exec, so a child forked straight from this process (which generated the memory) would
    report at least this process's own peak. Output goes to files, so a large answer never
    blocks the child on a full pipe."""
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parent.parent)}
    with tempfile.TemporaryDirectory() as folder:
        out, err, figures = (Path(folder) / name for name in ("out", "err", "time"))
        with out.open("wb") as stdout, err.open("wb") as stderr:
            code = subprocess.call([TIME, "-q", "-f", "%e %U %S %M", "-o", str(figures), *argv],
                                   env=env, stdout=stdout, stderr=stderr)
        if code not in ok:
            raise SystemExit(f"{' '.join(argv)} exited {code}:\n{err.read_text()[-3000:]}\n"
                             f"{out.read_text()[-1000:]}")
        wall, user, system, peak_kb = figures.read_text().split()[-4:]
    return float(wall), float(user) + float(system), int(peak_kb) / 1024


def loadavg() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


def edit_pages(root: Path, count: int, round_no: int) -> list[str]:
    """Append a line to `count` concept pages (a hand edit); their root-relative paths."""
    pages = sorted((root / "wiki/concepts").glob(f"{PREFIX}__*.md"))[:count]
    for path in pages:
        with path.open("a") as handle:
            handle.write(f"\nA changed line about wombats, round {round_no}.\n")
    return [p.relative_to(root).as_posix() for p in pages]


def write_note(notes: Path, round_no: int) -> Path:
    note = notes / "team-decision-on-caching.md"
    note.write_text(
        "# Decision: cache the parsed graph\n\n"
        "## Status\n\nAccepted.\n\n## Context\n\nEvery read of the graph validated all of it.\n\n"
        f"## Decision\n\nWe cache what membank wrote, revision {round_no}.\n\n"
        "## Consequences\n\n- A hand edit is detected by its file identity and validated.\n")
    return note


def measure_size(folder: Path, pages: int, repeat: int, only: set[str]) -> dict[str, Measured]:
    root = folder / f"memory-{pages}"
    started = time.perf_counter()
    subprocess.run([sys.executable, "-c", GENERATE, str(root), str(pages)], check=True,
                   env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parent.parent)})
    shape = orjson.loads((folder / f"shape-{pages}.json").read_bytes())
    graph_mb = (root / "context/knowledge-graph.index.jsonc").stat().st_size / 1e6
    print(f"\n{pages} pages generated in {time.perf_counter() - started:.0f} s: {shape}, graph "
          f"{graph_mb:.0f} MB; load {loadavg()}", flush=True)
    r = ["--root", str(root)]
    got = {row: Measured() for row in ROWS}
    steps: list[tuple[str, Callable[[int], list[str]], tuple[int, ...]]] = [
        ("search index, cold build", lambda i: [MEMBANK, "search", "--rebuild", *r], (0,)),
        ("reconcile, full", lambda i: _no_cache(root, [MEMBANK, "reconcile", *r]), (0, 1)),
        ("reconcile, nothing changed", lambda i: [MEMBANK, "reconcile", *r], (0, 1)),
        ("reconcile --check", lambda i: [MEMBANK, "reconcile", "--check", *r], (0, 1)),
        ("distill --all", lambda i: [MEMBANK, "distill", "--all", *r], (0, 1)),
        ("index update, 100 changed pages",
         lambda i: [sys.executable, "-c", UPDATE_SNIPPET, str(root), *edit_pages(root, 100, i)],
         (0,)),
        ("ingest, one changed note",
         lambda i: [MEMBANK, "ingest", str(write_note(folder, i + 1)), *r], (0, 1)),
        ("one search", lambda i: [MEMBANK, "search", "it handles case 4242", *r], (0,)),
        ("one retrieve", lambda i: [MEMBANK, "retrieve", "what does component-00042 depend on",
                                    *r], (0,)),
    ]
    timed([MEMBANK, "ingest", str(write_note(folder, 0)), *r])  # the note's first version
    if only and "search index, cold build" not in only:
        timed([MEMBANK, "search", "--rebuild", *r], (0,))  # untimed: the rows expect an index
    for row, argv, ok in steps:
        if only and row not in only:
            continue
        for i in range(repeat):
            got[row].add(*timed(argv(i), ok))
        print(f"  {row:34s} median {statistics.median(got[row].seconds):7.2f} s  cpu "
              f"{statistics.median(got[row].cpu):7.2f} s  peak {got[row].peak_mb:6.0f} MB  "
              f"load {loadavg()}", flush=True)
    return got


def _no_cache(root: Path, argv: list[str]) -> list[str]:
    for rel in (RECONCILE_CACHE_FILE, OBSERVATION_BASELINE_FILE):
        (root / rel).unlink(missing_ok=True)
    return argv


def table(sizes: list[int], results: dict[int, dict[str, Measured]], rows: list[str]) -> str:
    first, last = sizes[0], sizes[-1]
    head = ["operation", *(f"{s:,} pages" for s in sizes), f"{first:,} -> {last:,}",
            f"peak RSS at {last:,}"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for row in rows:
        medians = [statistics.median(results[s][row].seconds) for s in sizes]
        cpus = [statistics.median(results[s][row].cpu) for s in sizes]
        growth = f"{medians[-1] / medians[0]:.1f}x / {cpus[-1] / cpus[0]:.1f}x"
        peak = results[last][row].peak_mb
        cells = [f"{m:.2f} / {c:.2f} s" for m, c in zip(medians, cpus, strict=True)]
        lines.append("| " + " | ".join([row, *cells, growth,
                                        f"{peak / 1024:.2f} GB" if peak >= 1024 else
                                        f"{peak:.0f} MB"]) + " |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1000,10000",
                        help="comma-separated page counts (100000 is opt-in: slow to generate)")
    parser.add_argument("--repeat", type=int, default=3, help="runs per row (medians)")
    parser.add_argument("--keep", action="store_true", help="keep the generated memories")
    parser.add_argument("--only", default="", help="run only these rows (';'-separated names)")
    args = parser.parse_args()
    only = {row.strip() for row in args.only.split(";") if row.strip()}
    if only - set(ROWS):
        parser.error(f"unknown rows: {sorted(only - set(ROWS))}; rows are {list(ROWS)}")
    sizes = [int(s) for s in args.sizes.split(",") if s.strip()]
    folder = Path(tempfile.mkdtemp(prefix="membank-bench-growth-"))
    print(f"membank: {MEMBANK}; cpu count {os.cpu_count()} (shared); {args.repeat} run(s) per row")
    try:
        results = {size: measure_size(folder, size, args.repeat, only) for size in sizes}
        print()
        print(table(sizes, results, [row for row in ROWS if not only or row in only]))
    finally:
        if args.keep:
            print(f"kept: {folder}")
        else:
            shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
