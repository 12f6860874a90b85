"""Benchmark the ingest flow: real corpus and a generated corpus of >= 50 MB, fresh roots.

    nice .venv/bin/python benchmarks/bench_ingest.py [--mb 50] [--corpus ../shared/corpus]

Prints MB/s and files/s for: the first flow call (in-process, as commands run by default),
the same kind of run again, and the baseline of parsing the same bytes with
markdown-it-py (block level, the way ingest parses) and counting tokens with tiktoken.
The generated corpus recombines paragraphs of the real corpus into thousands of files, some
over the 64,000-character page limit; it lives in a temporary folder and is removed after.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
os.environ.setdefault("PREFECT_LOGGING_LEVEL", "WARNING")

from flows.engine.prefect_env import apply_prefect_defaults  # noqa: E402

apply_prefect_defaults()


def corpus_files(folder: Path) -> list[Path]:
    return sorted(p for p in folder.rglob("*") if p.is_file() and p.suffix in {".md", ".txt"})


def generate_corpus(source: Path, target: Path, megabytes: float, seed: int = 7) -> list[Path]:
    """Thousands of markdown files recombined from the corpus's paragraphs; ~3% are large."""
    rng = random.Random(seed)
    paragraphs = []
    for path in corpus_files(source):
        paragraphs += [p for p in path.read_text(encoding="utf-8").split("\n\n") if p.strip()]
    goal = int(megabytes * 1_000_000)
    written, number, files = 0, 0, []
    while written < goal:
        large = rng.random() < 0.03
        size = rng.randint(80_000, 400_000) if large else rng.randint(2_000, 30_000)
        parts = [f"# Generated document {number}\n", f"Recombined notes number {number} for the benchmark."]
        length = 0
        while length < size:
            if rng.random() < 0.08:
                parts.append(f"## Section {len(parts)}")
            chunk = rng.choice(paragraphs)
            parts.append(chunk)
            length += len(chunk) + 2
        text = "\n\n".join(parts) + "\n"
        folder = target / f"group-{number // 500:03d}"
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / f"generated-note-{number:05d}.md"
        path.write_text(text, encoding="utf-8")
        files.append(path)
        written += len(text.encode("utf-8"))
        number += 1
    return files


def baseline(files: list[Path], encoding_name: str) -> float:
    """Seconds to parse the bytes with markdown-it-py (block level) and count their tokens."""
    import tiktoken
    from markdown_it import MarkdownIt

    texts = [p.read_bytes().decode("utf-8") for p in files]
    started = time.perf_counter()
    parser = MarkdownIt("commonmark").enable("table").disable("inline")
    for text in texts:
        parser.parse(text)
    tiktoken.get_encoding(encoding_name).encode_ordinary_batch(texts, num_threads=2)
    return time.perf_counter() - started


def load_average() -> str:
    try:
        return " ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        return "n/a"


def total_bytes(files: list[Path]) -> int:
    return sum(p.stat().st_size for p in files)


def line(label: str, seconds: float, size: int, count: int) -> str:
    return (f"{label:<48} {seconds:8.2f} s  {size / 1e6 / seconds:7.2f} MB/s  "
            f"{count / seconds:8.1f} files/s  ({size / 1e6:.1f} MB, {count} files)")


def run_ingest(paths: list[str], root: Path, distill: bool = False) -> tuple[float, dict[str, object]]:
    """One flow call, as the `membank` command line makes it (in-process unless
    MEMBANK_ORCHESTRATION=prefect or an API URL is configured)."""
    from flows.ingest import ingest_flow

    started = time.perf_counter()
    report = ingest_flow(paths=paths, root=str(root), distill=distill)
    seconds = time.perf_counter() - started
    if report.problems:
        print(f"  {len(report.problems)} problem(s), first: {report.problems[0].one_line()}")
    return seconds, dict(report.figures)


def floor_or_generate(args: argparse.Namespace) -> None:
    """The floor of a whole-process comparison, or the generated corpus alone.

    farm-bench --vs 'python benchmarks/bench_ingest.py --floor DIR' -- membank ingest DIR --root NEW
    compares whole processes: start-up, imports, reading the files, parse and count."""
    if args.generate:
        files = generate_corpus(args.corpus, args.generate, args.mb)
        print(f"generated {len(files)} files, {total_bytes(files) / 1e6:.1f} MB in {args.generate}")
        return
    from tasks.store.settings import load_settings

    files = corpus_files(args.floor)
    seconds = baseline(files, load_settings().tokenizer_encoding)
    print(line("floor: markdown-it-py blocks + tiktoken", seconds, total_bytes(files), len(files)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=float, default=50.0, help="size of the generated corpus")
    parser.add_argument("--corpus", type=Path, default=REPO.parent / "shared" / "corpus")
    parser.add_argument("--keep", action="store_true", help="keep the temporary folder")
    parser.add_argument("--with-distill", action="store_true",
                        help="also time ingest + distill (what `membank ingest` runs by default)")
    parser.add_argument("--floor", type=Path, metavar="FOLDER",
                        help="only run the floor (block parse + token count) over FOLDER's files: "
                             "the yardstick for timing `membank ingest FOLDER` as a whole process")
    parser.add_argument("--generate", type=Path, metavar="FOLDER",
                        help="only write the generated corpus (--mb) into FOLDER and exit")
    args = parser.parse_args()
    if args.floor or args.generate:
        floor_or_generate(args)
        return
    if not args.corpus.is_dir():
        sys.exit(f"corpus folder not found: {args.corpus}")
    from tasks.store.settings import load_settings

    settings = load_settings()
    print(f"task runner: {settings.task_runner} x{settings.task_workers}, forked preparers from "
          f"{settings.parse_processes_min_bytes} bytes, cpus: {os.cpu_count()}, "
          f"tokenizer: {settings.tokenizer_encoding}, load average: {load_average()}")
    work = Path(tempfile.mkdtemp(prefix="membank-bench-"))
    try:
        generated_dir = work / "generated"
        started = time.perf_counter()
        generated = generate_corpus(args.corpus, generated_dir, args.mb)
        big = sum(1 for p in generated if p.stat().st_size > 64_000)
        print(f"generated {len(generated)} files ({big} over 64,000 bytes), "
              f"{total_bytes(generated) / 1e6:.1f} MB in {time.perf_counter() - started:.1f} s")
        real = corpus_files(args.corpus)

        seconds, figures = run_ingest([str(args.corpus)], work / "root-corpus-cold")
        print(line("corpus, first call (in-process; MEMBANK_ORCHESTRATION=prefect: incl. server start)", seconds, total_bytes(real), len(real)))
        seconds, figures = run_ingest([str(args.corpus)], work / "root-corpus-warm")
        print(line("corpus, second call", seconds, total_bytes(real), len(real)))
        seconds, figures = run_ingest([str(generated_dir)], work / "root-generated")
        size, count = total_bytes(generated), len(generated)
        print(line("generated, ingest", seconds, size, count))
        print(f"  figures: {figures}")
        base = baseline(generated, settings.tokenizer_encoding)
        print(line("baseline: markdown-it-py blocks + tiktoken", base, size, count))
        print(f"ingest / baseline time: {seconds / base:.2f}x (goal <= 2x); "
              f"ingest MB/s: {size / 1e6 / seconds:.2f} (goal >= 3)")
        if args.with_distill:
            distilled, _ = run_ingest([str(generated_dir)], work / "root-generated-distill", distill=True)
            print(line("generated, ingest + distill", distilled, size, count))
        print(f"load average at the end: {load_average()}")
    finally:
        if args.keep:
            print(f"kept {work}")
        else:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
