"""Benchmark distill on a generated store of N sources (default 10,000).

Prints: sources/s of a full first distill (real flow, thread task runner), the time to merge
into and write a graph of >= 100,000 observations (first run, and an incremental run adding
100 sources to that graph), and the time of a distill run with nothing new.

    nice .venv/bin/python benchmarks/bench_distill.py [--sources 10000] [--root /tmp/bench-distill]
    nice .venv/bin/python benchmarks/bench_distill.py --corpus ../shared/corpus [--repeat 3]
    nice .venv/bin/python benchmarks/bench_distill.py --corpus ../shared/corpus --generate-mb 20

Figures before and after the speed work of issues 23/30: benchmarks/bench_distill_results.md.

With --corpus, every .md file under the folder is ingested in one run (the real ingest), then a
first distill of a fresh copy of that memory is timed --repeat times (plain, no Prefect): the
figure to compare before and after a change to extraction (issue 23: within 1.5x).

Recorded for issue 23 (every genre), ../shared/corpus (176 files, 2.42 MB), main at 2ccf9ad
-> branch genres, load 4-12 on 2 shared cores, so wall clock swung 2x between identical runs
(median of 3: 3.88 / 4.62 / 4.98 s before, 3.69 / 5.02 / 9.20 s after). CPU time
(time.process_time) of the same first distill, 3 runs each, alternating: 1.13-1.56 s (median
1.17) before, 1.24-1.57 s (median 1.30) after, about 1.1x; extraction alone 0.68-0.71 s ->
0.70-0.75 s. The graph grows from 147 entities / 262 observations to 196 / 536.

Issue 23 subjects (branch subjects, from d8e553e): the same first distill of ../shared/corpus
(176 files, 2.42 MB) now makes 399 entities (was 196: the documents' subjects, each with its
entity page). farm-bench, whole process (start-up about 1.0 s CPU included), A = subjects,
B = d8e553e alternating, 6-7 runs each, load 8-16 on 2 shared cores: cpu median 3.28 s vs 2.60 s
(A/B 1.28; an earlier call 3.58 vs 3.01, 1.18); in-process time.process_time of the distill
alone, 3 runs each twice, median about 2.5 s vs 1.74 s (about 1.4x). Extraction alone (every
corpus file, one process): 1.05-1.15 s -> 1.23-1.33 s, the subject terms about 0.25 s of it;
the rest is the writes of twice as many entity pages.

Each run prints the load average at its start and end: this machine has 2 cores shared with other
work, so read the figures with it.

Recorded (10,000 sources, Prefect thread runner, 2 cores shared; merge+write = merge_seconds +
graph_write_seconds; goal < 5 s, nothing-new goal < 2 s):

    before (main at 00e5fb9: graph loaded, merged and dumped as pydantic models):
      load 2.8 -> 7.2: first run 9.65 s (merge 6.23 + write 3.42); 100 new sources into
        111,100 observations 7.62 s (load+merge 3.42 + write 4.20); nothing new 0.13 s
      load ~1.5 -> 2.3: first run 5.71 s (merge 3.74 + write 1.97); 100 new 4.75 s
        (2.25 + 2.49); nothing new 0.15 s
    after (merge on plain dicts: load_graph_data, normalize_graph_data, save_graph_data;
    every file of the store byte-identical to the "before" run):
      load 0.8 -> 1.6: first run 2.25 s (1.71 + 0.53); 100 new 1.44 s (0.87 + 0.57); nothing new 0.49 s
      load 2.3 -> 4.3: first run 3.35 s (2.49 + 0.86); 100 new 1.29 s (0.83 + 0.46); nothing new 0.14 s
      load 2.7 -> 3.9: first run 2.89 s (2.16 + 0.73); 100 new 1.49 s (0.79 + 0.70); nothing new 0.13 s
    The first run's merge is now mostly resolution and mention matching of 10,000 extractions;
    graph normalize+write is 0.5-0.9 s for 47 MB.
    tasks/distill/ package split (issue 12; plan/apply as flow tasks), main at ee7c263 -> split,
    alternating runs, median of 5 at load 4.4-6.6 (of 9 runs in all): first run extract 4.62 ->
    4.74 s, merge 0.96 -> 0.87 s, graph normalize+write 0.74 -> 0.68 s, all writes 9.51 -> 8.35 s;
    100 new: load+merge 1.39 -> 1.46 s, graph write 0.67 -> 0.51 s. apply_distill's main-thread
    CPU time (time.thread_time, which the shared machine's load barely moves; 3 runs each):
    3.07-3.20 s both, incremental 2.43-2.53 -> 2.37-2.46 s. Nothing new: 0.10 s both in a fresh
    process (3 processes x 5 runs each); in this script it varies 0.08-0.4 s with where a full
    GC pass falls (main() keeps the parsed graph alive).
    Final branch (writer phases as tasks, main merged in) against ee7c263 at load 0.1-2.1,
    alternating, 2 runs each: extract 2.91/3.16 -> 2.90/2.88 s, merge 0.86/0.79 -> 0.85/0.85 s,
    graph write 0.77/0.69 -> 0.69/0.68 s, all writes 9.84/9.48 -> 9.95/8.90 s; 100 new:
    load+merge 1.35/1.29 -> 1.38/1.36 s (+2-5 %; its merge alone 1.26/1.19 -> 1.30/1.22 s).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from schemas.raw_manifest import RawAsset, RawManifest
from tasks.bootstrap import bootstrap_memory
from tasks.distill.apply import distill_memory
from tasks.store.graph_store import load_manifest, save_manifest
from tasks.store.layout import MemoryLayout
from tasks.store.operation import writing_operation
from tasks.store.settings import load_settings

NOW = "2026-03-24T22:40:05Z"
LATER = "2026-03-25T08:00:00Z"
PREFIX = "2026-03-24T22-40-05Z"
OBSERVATIONS_PER_SOURCE = 11


def source_text(index: int, total: int) -> str:
    name = f"Service {index:05d}"
    other = f"Service {(index * 7 + 3) % total:05d}"
    third = f"Service {(index * 13 + 5) % total:05d}"
    lines = [
        "---",
        f"entity: {name}",
        "entity_type: service",
        f"aliases: [svc-{index:05d}]",
        "tags: [generated]",
        "---",
        "",
        f"# {name}",
        "",
        f"{name} handles part {index} of the workload.",
        "",
    ]
    for n in range(OBSERVATIONS_PER_SOURCE):
        lines.append(f"- [fact] {name} setting {n} is {index * 31 + n} #config")
    lines += [
        "",
        f"- depends_on [[{other}]]",
        f"- calls [[{third}]]",
        "",
        f"It talks to {other} and sometimes to svc-{(index + 1) % total:05d} over HTTP.",
        "Traffic goes through the `edge-proxy` and the Shared Gateway; the Shared Gateway is old.",
        "",
    ]
    return "\n".join(lines)


def generate(root: Path, count: int) -> None:
    layout = MemoryLayout(root)
    with writing_operation(load_settings(root, fixed_clock=NOW), "bootstrap") as operation:
        bootstrap_memory(operation)
    assets = []
    for index in range(count):
        assets.append(add_source(root, index, count, NOW))
    save_manifest(
        layout.raw_manifest_file,
        RawManifest(manifestGeneratedAtUtc=NOW, assets=assets),
        now_iso=NOW,
    )


def add_source(root: Path, index: int, total: int, now: str) -> RawAsset:
    data = source_text(index, total).encode()
    digest = hashlib.sha256(data).hexdigest()
    slug = f"service-{index:05d}"
    raw_path, page = f"raw/{PREFIX}__{slug}.md", f"wiki/sources/{PREFIX}__{slug}.md"
    (root / raw_path).write_bytes(data)
    (root / page).write_text(
        f"---\ncreated_at: '{now}'\nupdated_at: '{now}'\nutc_datetime_prefix: '{PREFIX}'\n"
        f"type: source\ndescription: Generated source {index}.\nderived_from:\n- {raw_path}\n"
        f"raw_asset_id: {digest}\n---\n\n# {slug}\n"
    )
    return RawAsset(
        assetId=digest,
        contentHash=f"sha256:{digest}",
        sizeBytes=len(data),
        mediaType="text/markdown",
        originalPath=f"gen/{slug}.md",
        rawPath=raw_path,
        ingestedAtUtc=now,
        sourcePage=page,
    )


def timed_distill(root: Path, now: str, *, flow: bool = False) -> tuple[float, dict]:
    started = time.perf_counter()
    if flow:
        os.environ["MEMBANK_FIXED_CLOCK"] = now
        from flows.distill import distill_flow

        report = distill_flow(root=str(root))
    else:
        with writing_operation(load_settings(root, fixed_clock=now), "distill") as operation:
            report = distill_memory(operation)
    return time.perf_counter() - started, {**report.figures, **report.graph_delta.model_dump()}


# The benchmark deletes only folders it made itself (this file inside them): `--root
# /var/tmp/me/run/.memories` once wiped all of /var/tmp/me/run, a developer's scratch folder.
_SCRATCH_MARK = ".bench-distill-scratch"


def fresh_scratch(folder: Path) -> Path:
    """`folder` emptied and marked as this benchmark's; SystemExit (nothing deleted) when it
    holds anything the benchmark did not make."""
    if folder.exists() and any(folder.iterdir()) and not (folder / _SCRATCH_MARK).is_file():
        raise SystemExit(f"bench_distill: {folder} holds files this benchmark did not make; "
                         "give --root a path under a new or empty folder")
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    (folder / _SCRATCH_MARK).write_text("made by benchmarks/bench_distill.py: deleted on its next run\n")
    return folder


def corpus_distill(folder: Path, root: Path, repeat: int) -> None:
    """Ingest every .md under `folder` once, then time a first distill of a fresh copy."""
    from tasks.ingest import apply_ingest, collect_inputs, prepare_batch

    fresh_scratch(root.parent)
    seed = root.parent / "seed" / ".memories"
    with writing_operation(load_settings(seed, fixed_clock=NOW), "bootstrap") as operation:
        bootstrap_memory(operation)
    files = sorted(folder.rglob("*.md"))
    settings = load_settings(seed, fixed_clock=NOW)
    inputs, problems = collect_inputs(files)
    with writing_operation(settings, "ingest") as operation:
        apply_ingest(operation, prepare_batch(inputs, settings), problems)
    size = sum(path.stat().st_size for path in files)
    print(f"ingested {len(files)} files, {size / 1e6:.2f} MB")
    runs: list[float] = []
    cpu: list[float] = []
    for attempt in range(repeat):
        copy = root.parent / f"run-{attempt}" / ".memories"
        shutil.copytree(seed, copy)
        cpu_started = time.process_time()
        seconds, figures = timed_distill(copy, LATER)
        cpu.append(time.process_time() - cpu_started)
        runs.append(seconds)
        print(
            f"  run {attempt + 1}: {seconds:.2f} s, CPU {cpu[-1]:.2f} s (extract {figures['extract_seconds']} s, merge "
            f"{figures['merge_seconds']} s, writes {figures['write_seconds']} s), "
            f"{figures['entities_added_count']} entities, {figures['observations_added_count']} observations"
        )
    print(f"corpus distill: median {sorted(runs)[len(runs) // 2]:.2f} s, CPU (time.process_time) "
          f"median {sorted(cpu)[len(cpu) // 2]:.2f} s of {repeat} runs")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--sources", type=int, default=10_000)
    parser.add_argument("--root", type=Path, default=Path("/tmp/bench-distill/.memories"))
    parser.add_argument(
        "--no-flow", action="store_true", help="run the first distill without Prefect"
    )
    parser.add_argument("--corpus", type=Path, help="time a first distill of this folder's .md files")
    parser.add_argument("--repeat", type=int, default=3, help="--corpus runs (median printed)")
    parser.add_argument("--generate-mb", type=float, default=0.0,
                        help="with --corpus: distill N MB recombined from it instead (the 20 MB "
                             "corpus of issue 23 item 7: --generate-mb 20, bench_ingest's generator)")
    args = parser.parse_args()
    print("load average at start: {:.2f} {:.2f} {:.2f}".format(*os.getloadavg()))
    if args.corpus is not None:
        folder = args.corpus
        if args.generate_mb:
            from benchmarks.bench_ingest import generate_corpus

            folder = fresh_scratch(args.root.parent.parent / "bench-distill-generated")
            generate_corpus(args.corpus, folder, args.generate_mb)
        corpus_distill(folder, args.root, args.repeat)
        print("load average at end: {:.2f} {:.2f} {:.2f}".format(*os.getloadavg()))
        return
    root: Path = args.root
    fresh_scratch(root.parent)  # (the memory in a folder of its own, as --corpus's)
    started = time.perf_counter()
    generate(root, args.sources)
    print(f"generated {args.sources} sources in {time.perf_counter() - started:.1f} s")

    seconds, figures = timed_distill(root, NOW, flow=not args.no_flow)
    graph_file = root / "context/knowledge-graph.index.jsonc"
    graph = json.loads(graph_file.read_text())
    observations = sum(len(e["observations"]) for e in graph["entities"])
    print(
        f"first distill ({'plain' if args.no_flow else 'Prefect flow, thread runner'}): {seconds:.1f} s, "
        f"{figures['sources_read'] / seconds:.0f} sources/s end to end"
    )
    print(
        f"  extract {figures['extract_seconds']} s ({figures['sources_read'] / max(figures['extract_seconds'], 1e-9):.0f}"
        f" sources/s), merge {figures['merge_seconds']} s, writes {figures['write_seconds']} s "
        f"(graph + registry + {figures['entities_added_count']} pages + state + hub + index)"
    )
    print(
        f"  merge+write graph: {figures['merge_seconds'] + figures['graph_write_seconds']:.2f} s "
        f"(merge {figures['merge_seconds']} s, normalize+write {figures['graph_write_seconds']} s)"
    )
    print(
        "  distill pipeline itself (plan+extract+merge+write, no Prefect server start): "
        f"{figures['sources_per_second']} sources/s"
    )
    print(
        f"  graph: {len(graph['entities'])} entities, {observations} observations, {len(graph['relations'])} relations,"
        f" {graph_file.stat().st_size / 1e6:.1f} MB"
    )

    layout = MemoryLayout(root)
    manifest = load_manifest(layout.raw_manifest_file)
    extra = [add_source(root, args.sources + i, args.sources, LATER) for i in range(100)]
    manifest.assets.extend(extra)
    save_manifest(layout.raw_manifest_file, manifest, now_iso=LATER)
    seconds, figures = timed_distill(root, LATER)
    print(
        f"incremental distill of 100 new sources into that graph: {seconds:.2f} s total; "
        f"load+merge {figures['merge_seconds']} s, normalize+write graph {figures['graph_write_seconds']} s "
        f"-> merge+write graph of {figures['observations']} observations: "
        f"{figures['merge_seconds'] + figures['graph_write_seconds']:.2f} s (goal < 5 s); all writes incl. pages "
        f"{figures['write_seconds']} s"
    )

    before = {p: p.stat().st_mtime_ns for p in root.rglob("*") if p.is_file()}
    seconds, figures = timed_distill(root, "2026-03-26T00:00:00Z")
    after = {
        p: p.stat().st_mtime_ns
        for p in root.rglob("*")
        if p.is_file() and ".membank" not in p.parts
    }
    changed = [p for p, m in after.items() if before.get(p) != m]
    print(f"nothing-new distill: {seconds:.3f} s (goal < 2 s), files changed: {len(changed)}")
    print("load average at end: {:.2f} {:.2f} {:.2f}".format(*os.getloadavg()))


if __name__ == "__main__":
    main()
