"""Benchmark `membank mcp` through the SDK's real client over stdio on a generated memory.

    nice .venv/bin/python benchmarks/bench_mcp.py [--pages 1000] [--calls 1000]

The memory is bench_reconcile's generated one (the one bench_search uses), its search index built
before the server starts. One server process answers every call, as an agent's would: mixed
calls (search with two phrasings, browse with and without a query, load, retrieve, show, and a
memory_write of a new proposal every 20 calls), then p50/p95 per tool and the server's RSS after
the first 100 calls and after all of them (a leak shows as growth between the two).
Goals (issue 24, on 10,000 pages): search p50 <= 25 ms, p95 <= 60 ms; retrieve p50 <= 150 ms;
one write <= 150 ms; RSS after 1,000 calls within 10 % of RSS after 100.

The server gets the bench's PYTHONPATH and MEMBANK_* variables (`PYTHONPATH=<another checkout>`
measures that code). `--dump FILE` writes every call's answer, one JSON line each, with the
server's clock fixed: two runs' dumps (before and after a change) compare byte for byte.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, get_default_environment, stdio_client

from benchmarks.bench_reconcile import generate
from benchmarks.bench_search import mixed_queries, percentile
from tasks.search.index import build_index
from tasks.store.layout import MemoryLayout

MEMBANK = str(Path(sys.executable).parent / "membank")


def server_process() -> Path | None:
    """/proc/<pid> of this process's `membank mcp` child."""
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            cmdline = (entry / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if int(stat[1]) == os.getpid() and b"mcp" in cmdline:
            return entry
    return None


def server_rss_mb() -> float:
    """RSS of this process's `membank mcp` child (from /proc)."""
    entry = server_process()
    if entry is not None:
        for line in (entry / "status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def cpu_ms(entry: Path | None) -> float:
    """The server's CPU time so far (user + system, in clock ticks of 10 ms: per-call values
    are summed over a tool's calls, never read one by one)."""
    if entry is None:
        return float("nan")
    stat = (entry / "stat").read_text().rsplit(")", 1)[1].split()
    return (int(stat[11]) + int(stat[12])) * 1000 / os.sysconf("SC_CLK_TCK")


def calls(n: int, pages: list[str]) -> list[tuple[str, dict[str, Any]]]:
    queries = mixed_queries(n)
    plan: list[tuple[str, dict[str, Any]]] = []
    for i in range(n):
        kind = i % 20
        if kind == 19:
            plan.append(("memory_write", {
                "path": f"wiki/synthesis/bench-note-{i:05d}.md", "parentHubPath": "wiki/synthesis",
                "title": f"Bench note {i:05d}", "content": f"---\ndescription: Bench note {i}.\n"
                f"type: note\n---\nA measured fact number {i} about the system.\n"}))
        elif kind in {3, 11}:
            plan.append(("memory_browse", {} if kind == 3 else {"query": queries[i]}))
        elif kind in {5, 13}:
            plan.append(("memory_load", {"path": pages[i % len(pages)]}))
        elif kind == 7:
            plan.append(("memory_retrieve", {"task": queries[i], "budget_tokens": 2000}))
        elif kind == 15:
            plan.append(("memory_show", {"entity": f"component-{i % 500:05d}"}))
        else:
            plan.append(("memory_search", {"query": queries[i], "queries": [queries[i - 1]]}))
    return plan


FIXED_CLOCK = "2026-03-24T22:40:05Z"


def server_environment(dump: bool) -> dict[str, str]:
    env = {**get_default_environment(), **{k: v for k, v in os.environ.items()
                                           if k.startswith("MEMBANK_") or k == "PYTHONPATH"}}
    if dump:
        env["MEMBANK_FIXED_CLOCK"] = FIXED_CLOCK
    return env


def answer_line(index: int, name: str, result: Any) -> str:
    """One call's answer as the dump writes it (its structured content, else its text)."""
    content = result.structured_content if result.structured_content is not None else [
        getattr(part, "text", None) for part in result.content]
    return json.dumps([index, name, result.is_error, content], sort_keys=True) + "\n"


async def drive(root: Path, n: int, pages: list[str], dump: Path | None = None) -> None:
    params = StdioServerParameters(command=MEMBANK, args=["mcp", "--root", str(root)],
                                   env=server_environment(dump is not None))
    timings: dict[str, list[float]] = {}
    cpu: dict[str, float] = {}
    rss: dict[int, float] = {}
    answers = dump.open("w", encoding="utf-8") if dump is not None else None
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        await session.call_tool("memory_search", {"query": "warm up"})
        server = server_process()
        print(f"server RSS after warm-up: {server_rss_mb():.0f} MB")
        for done, (name, args) in enumerate(calls(n, pages), 1):
            used, started = cpu_ms(server), time.perf_counter()
            result = await session.call_tool(name, args)
            timings.setdefault(name, []).append((time.perf_counter() - started) * 1000)
            if answers is not None:
                answers.write(answer_line(done, name, result))
            cpu[name] = cpu.get(name, 0.0) + cpu_ms(server) - used
            if done in {100, n}:
                rss[done] = server_rss_mb()
    if answers is not None:
        answers.close()
    for name, values in sorted(timings.items()):
        print(f"{name:18} n={len(values):4}  p50 {percentile(values, 0.5):7.1f} ms  "
              f"p95 {percentile(values, 0.95):7.1f} ms  mean {statistics.fmean(values):7.1f} ms  "
              f"server CPU mean {cpu[name] / len(values):6.1f} ms")
    for done, value in sorted(rss.items()):
        print(f"server RSS after {done} calls: {value:.0f} MB")
    if 100 in rss and n in rss and n != 100:
        print(f"growth 100 -> {n} calls: {100 * (rss[n] / rss[100] - 1):+.1f} %")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=1_000)
    parser.add_argument("--observations", type=int, default=10_000)
    parser.add_argument("--calls", type=int, default=1_000)
    parser.add_argument("--dump", type=Path, help="write every answer here (clock fixed)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-mcp-") as folder:
        root = Path(folder) / "memory"
        started = time.perf_counter()
        generate(root, args.pages, args.observations)
        layout = MemoryLayout(root.resolve())
        build_index(layout, semantic=True)
        print(f"generated {args.pages} pages and built the index in "
              f"{time.perf_counter() - started:.1f} s")
        pages = sorted(p.relative_to(root).as_posix() for p in (root / "wiki").rglob("*__*.md"))[:200]
        asyncio.run(drive(root, args.calls, pages, args.dump))


if __name__ == "__main__":
    main()
