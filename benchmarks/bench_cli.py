"""Whole-command wall clock, as an agent calling membank feels it: start-up included.

    nice .venv/bin/python benchmarks/bench_cli.py [--repeat 5] [--notes 1000] [--skip-tracked]

Each row runs the installed `membank` command as a new process, `--repeat` times, and prints
the median (min-max) in-process (the default when no orchestrator is configured) beside the
same command as a tracked Prefect run (MEMBANK_ORCHESTRATION=prefect: a temporary Prefect
server per command, as every command paid before). Rows:

- `membank --help`
- `membank reconcile --check` on the memory `membank run raw-samples/` makes
- `membank propose` of one new proposal
- `membank run raw-samples/` on a fresh root
- `membank ingest` of NOTES notes already stored (nothing new)
- `membank ingest` + distill of NOTES notes into a fresh root (cold)

The notes are ../shared/corpus's markdown cut at headings and dealt into notes of about
6.7 KB each (1,000 notes = 6.7 MB), so every note is distinct, real prose.
Goals (issue 11): reconcile --check <= 1.0 s, propose <= 1.0 s, run raw-samples <= 3 s,
no-change ingest of 1,000 notes <= 2 s, cold ingest + distill of 1,000 notes <= 10 s.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
CORPUS = REPO.parent / "shared" / "corpus"
SAMPLES = REPO / "raw-samples"
MEMBANK = Path(sys.executable).with_name("membank")
NOTE_CHARS = 5_600
HEADING = re.compile(r"^#{1,6} ", re.MULTILINE)


def corpus_sections() -> list[str]:
    if not CORPUS.is_dir():
        sys.exit(f"bench_cli: the shared corpus is expected at {CORPUS}")
    sections: list[str] = []
    for path in sorted(CORPUS.rglob("*.md")):
        text = path.read_text(encoding="utf-8")
        starts = [m.start() for m in HEADING.finditer(text)] or [0]
        if starts[0] != 0:
            starts.insert(0, 0)
        for begin, end in zip(starts, [*starts[1:], len(text)], strict=True):
            chunk = text[begin:end].strip()
            if len(chunk) > 200:
                sections.append(chunk)
    return sections


def write_notes(folder: Path, count: int) -> int:
    """`count` notes of about NOTE_CHARS characters each; returns the bytes written."""
    sections = corpus_sections()
    folder.mkdir(parents=True)
    total = 0
    for number in range(count):
        parts, size, at = [f"# Note {number:04d}\n"], 0, (number * 7) % len(sections)
        while size < NOTE_CHARS:
            section = sections[at % len(sections)]
            parts.append(section)
            size += len(section)
            at += 1
        text = "\n\n".join(parts) + "\n"
        (folder / f"note-{number:04d}.md").write_text(text, encoding="utf-8")
        total += len(text.encode())
    return total


def proposal_text(number: int) -> str:
    return (
        "---\n"
        f"title: Retry budget {number}\n"
        f"description: How many times upload kind {number} is retried, learned from failures.\n"
        "type: synthesis\n"
        "memory:\n  memoryRole: procedure\n  source: bench_cli dream leg\n"
        "placement:\n  kind: new_leaf\n  hub: wiki/synthesis\n"
        "---\n"
        f"# Retry budget {number}\n\nRetry upload kind {number} three times, then give up.\n")


def timed(args: list[str], env: dict[str, str]) -> float:
    started = time.perf_counter()
    result = subprocess.run([str(MEMBANK), *args], env=env, capture_output=True, text=True,
                            check=False)
    seconds = time.perf_counter() - started
    if result.returncode not in (0, 1):
        sys.exit(f"bench_cli: membank {' '.join(args)} failed ({result.returncode}): "
                 f"{result.stderr.strip()[:500]}")
    return seconds


def measure(repeat: int, prepare: Callable[[int], list[str]], env: dict[str, str]) -> list[float]:
    """`prepare(i)` readies run i (untimed) and returns the command's arguments."""
    return [timed(prepare(i), env) for i in range(repeat)]


def show(label: str, local: list[float], tracked: list[float] | None, goal: float | None) -> None:
    def cell(values: list[float] | None) -> str:
        if not values:
            return "-"
        return f"{statistics.median(values):6.2f} s ({min(values):.2f}-{max(values):.2f})"

    verdict = "" if goal is None else ("met" if statistics.median(local) <= goal else "MISSED")
    goal_cell = f"<= {goal:g} s {verdict}" if goal is not None else ""
    print(f"| {label:<44} | {cell(local):<24} | {cell(tracked):<24} | {goal_cell:<14} |",
          flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--notes", type=int, default=1000)
    parser.add_argument("--skip-tracked", action="store_true",
                        help="only the in-process figures (tracked runs take 10-20 s each)")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="bench-cli-"))
    base = {k: v for k, v in os.environ.items() if not k.startswith(("MEMBANK_", "PREFECT_API"))}
    base["PREFECT_HOME"] = str(work / "prefect-home")
    local_env = {**base, "MEMBANK_ORCHESTRATION": "local"}
    tracked_env = {**base, "MEMBANK_ORCHESTRATION": "prefect"}
    notes = work / "notes"
    notes_bytes = write_notes(notes, args.notes)
    load = open("/proc/loadavg").read().split()[:3] if Path("/proc/loadavg").exists() else "?"
    print(f"membank bench_cli: {time.strftime('%Y-%m-%dT%H:%M:%SZ', time.gmtime())}, median of "
          f"{args.repeat}, {os.cpu_count()} cores, load average {' '.join(load)}; "
          f"{args.notes} notes = {notes_bytes / 1e6:.1f} MB\n")
    print(f"| {'command':<44} | {'in-process':<24} | {'tracked (Prefect)':<24} | {'goal':<14} |")
    print(f"|{'-' * 46}|{'-' * 26}|{'-' * 26}|{'-' * 16}|")

    def both(label: str, make: Callable[[str], Callable[[int], list[str]]], goal: float | None,
             repeat: int | None = None) -> None:
        count = repeat or args.repeat
        local = measure(count, make("local"), local_env)
        tracked = None if args.skip_tracked else measure(count, make("tracked"), tracked_env)
        show(label, local, tracked, goal)

    show("membank --help", measure(args.repeat, lambda i: ["--help"], local_env), None, None)

    samples_root = {mode: work / f"samples-{mode}" for mode in ("local", "tracked")}
    for root in samples_root.values():
        timed(["run", str(SAMPLES), "--root", str(root)], local_env)
    both("reconcile --check (raw-samples memory)",
         lambda mode: lambda i: ["reconcile", "--check", "--root", str(samples_root[mode])], 1.0)

    def propose(mode: str) -> Callable[[int], list[str]]:
        def prepare(i: int) -> list[str]:
            path = work / f"proposal-{mode}-{i}.md"
            path.write_text(proposal_text(i + (0 if mode == "local" else 1000)), encoding="utf-8")
            return ["propose", str(path), "--root", str(samples_root[mode])]
        return prepare

    both("propose (one new proposal)", propose, 1.0)

    def fresh_run(mode: str) -> Callable[[int], list[str]]:
        def prepare(i: int) -> list[str]:
            root = work / f"fresh-{mode}-{i}"
            return ["run", str(SAMPLES), "--root", str(root)]
        return prepare

    both("run raw-samples/ (fresh root)", fresh_run, 3.0)

    def cold(mode: str) -> Callable[[int], list[str]]:
        def prepare(i: int) -> list[str]:
            root = work / f"notes-{mode}-{i}"
            shutil.rmtree(root, ignore_errors=True)
            return ["ingest", str(notes), "--root", str(root)]
        return prepare

    both(f"ingest + distill, {args.notes} notes (cold)", cold, 10.0)
    stored = {mode: work / f"notes-{mode}-0" for mode in ("local", "tracked")}
    if args.skip_tracked:
        stored["tracked"] = stored["local"]
    both(f"ingest, {args.notes} notes stored (no change)",
         lambda mode: lambda i: ["ingest", str(notes), "--root", str(stored[mode])], 2.0)
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
