"""Benchmark .mem stores: validate and ingest + distill a generated store.

Generates a .mem store of N records (default 50,000) over D domains (default 20): every domain
file active records with realistic fields, an index line per active record, and one record in
fifty superseded (its old line in archive/<domain>.jsonl, the new one naming it in `supersedes`).
Then measures, with the real code:

    validate        read_mem_store + check_mem_store (what `membank check mem` runs)
    check CLI       `membank check mem` as a subprocess: start-up included
    ingest+distill  `membank ingest` as the one-shot CLI runs it (flows.ingest.ingest_flow,
                    in-process: no orchestrator configured), into a fresh memory root
    rerun           the same ingest + distill again: nothing new

Goals (issue 15): validate <= 3 s, ingest + distill <= 15 s.

    nice .venv/bin/python benchmarks/bench_stores.py [--records 50000] [--domains 20] [--dir /tmp/bench-stores]

The machine has 2 cores shared with other work: the load average is printed beside each figure.

Recorded (50,000 records, 20 domains, 40.2 MB; 2 cores shared by eight agents, load ~8):
    validate 2.56 s wall / 1.07 s CPU (cyclic GC paused while parsing: 5.5 s -> 1.3 s before the
      dataclass line wrapper); `membank check mem` CLI 3.17 s wall with start-up
    ingest+distill 13.96 s wall (ingest 8.9 s, 661 shards; distill extract 3.1 s, merge 0.5 s,
      graph write 0.9 s, page writes 1.2 s); rerun with nothing new 1.49 s
    at 5,000 records: validate 0.33 s, ingest+distill 2.62 s, rerun 0.44 s
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tasks.memstores.check_mem import check_mem_store
from tasks.memstores.mem_jsonl import read_mem_store

NOW = "2026-03-24T22:40:05Z"
TYPES = ("failure", "convention", "decision", "pattern")
SUPERSEDE_EVERY = 50


def _load() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


def _record(domain: str, number: int, status: str = "active", supersedes: str | None = None,
            version: int = 0) -> dict:
    ident = f"mem_{domain[:3]}{number:06d}" + (f"v{version}" if version else "")
    return {
        "id": ident, "domain": domain, "type": TYPES[number % 4],
        "title": f"{domain.title()} learning {number} revision {version}: keep the {domain} "
                 f"step {number % 97} idempotent",
        "body": f"Observed while working on src/{domain}/module_{number % 211}.ts: retrying the "
                f"step twice applied it twice. Guard it with a version check before writing.",
        "resolution": "Record the applied version in the same transaction." if number % 4 == 0 else None,
        "evidence": {"files": [f"src/{domain}/module_{number % 211}.ts"], "dirs": [f"src/{domain}"],
                     "branch": f"fix/{domain}-{number}", "issues": [f"acme/app#{number}"], "run": None},
        "provenance": {"author": "agent:claude-code", "backend": "boxd",
                       "created_at": f"2026-0{1 + number % 3}-1{number % 10}T09:00:00Z"},
        "status": status, "supersedes": supersedes, "confidence": "high", "hits": number % 5,
    }


def _line(value: dict) -> str:
    return json.dumps(value, separators=(",", ":"))


def generate(store: Path, records: int, domains: int) -> int:
    """Write the store; return its size in bytes."""
    shutil.rmtree(store, ignore_errors=True)
    (store / "domains").mkdir(parents=True)
    (store / "archive").mkdir()
    names = [f"area{d:02d}" for d in range(domains)]
    index: list[str] = []
    for domain_number, domain in enumerate(names):
        active, archived = [], []
        for number in range(domain_number, records, domains):
            if number % SUPERSEDE_EVERY == 0:
                old = _record(domain, number, status="superseded")
                archived.append(_line(old))
                new = _record(domain, number, supersedes=old["id"], version=2)
            else:
                new = _record(domain, number)
            active.append(_line(new))
            index.append(_line({"id": new["id"], "domain": domain, "type": new["type"],
                                "title": new["title"], "files": new["evidence"]["files"]}))
        (store / "domains" / f"{domain}.jsonl").write_text("\n".join(active) + "\n")
        (store / "archive" / f"{domain}.jsonl").write_text("\n".join(archived) + "\n")
    (store / "index.jsonl").write_text("\n".join(index) + "\n")
    return sum(p.stat().st_size for p in store.rglob("*.jsonl"))


def ingest_and_distill(root: Path, repo: Path) -> tuple[float, dict, dict]:
    """`membank ingest REPO --root ROOT` as the CLI runs it (in-process, no orchestrator)."""
    os.environ["MEMBANK_FIXED_CLOCK"] = NOW
    from flows.ingest import ingest_flow

    started = time.perf_counter()
    report = ingest_flow(paths=[str(repo)], root=str(root), distill=True)
    seconds = time.perf_counter() - started
    ingested, distilled = (stage.figures for stage in report.stages)
    return seconds, ingested, distilled


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--records", type=int, default=50_000)
    parser.add_argument("--domains", type=int, default=20)
    parser.add_argument("--dir", type=Path, default=Path("/tmp/bench-stores"))
    args = parser.parse_args()
    repo, root = args.dir / "repo", args.dir / "memory"
    size = generate(repo / ".mem", args.records, args.domains)
    print(f"store: {args.records} records over {args.domains} domains, {size / 1e6:.1f} MB "
          f"(load {_load()})")

    started, cpu = time.perf_counter(), time.process_time()
    store = read_mem_store(repo / ".mem")
    findings = check_mem_store(store)
    seconds, cpu = time.perf_counter() - started, time.process_time() - cpu
    print(f"validate: {seconds:.2f} s wall, {cpu:.2f} s CPU, {len(store.domains)} active + "
          f"{len(store.archive)} archived + {len(store.index)} index lines, {len(findings)} "
          f"finding(s) (goal <= 3 s; load {_load()})")
    del store

    started = time.perf_counter()
    result = subprocess.run([sys.executable, "-m", "flows.cli.app", "check", "mem", str(repo)],
                            cwd=Path(__file__).resolve().parent.parent, capture_output=True,
                            text=True, env={**os.environ})
    print(f"check CLI: {time.perf_counter() - started:.2f} s wall, exit {result.returncode}: "
          f"{result.stdout.strip().splitlines()[-1]} (load {_load()})")

    shutil.rmtree(root, ignore_errors=True)
    seconds, ingested, distilled = ingest_and_distill(root, repo)
    print(f"ingest+distill: {seconds:.2f} s wall (ingest {ingested.get('seconds')} s: "
          f"{ingested.get('files_ingested')} files, {ingested.get('shards_written')} shards; distill "
          f"{distilled.get('observations')} observations, extract {distilled.get('extract_seconds')} s, "
          f"merge {distilled.get('merge_seconds')} s, graph write {distilled.get('graph_write_seconds')} "
          f"s, writes {distilled.get('write_seconds')} s) (goal <= 15 s; load {_load()})")
    seconds, ingested, distilled = ingest_and_distill(root, repo)
    print(f"rerun, nothing new: {seconds:.2f} s ({ingested.get('dedupe_hits')} dedupe hits, "
          f"{distilled.get('sources_read')} sources read) (load {_load()})")

if __name__ == "__main__":
    main()
