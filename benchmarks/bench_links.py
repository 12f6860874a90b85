"""Benchmark the link readers of tasks/markdown/links.py on every markdown file of the corpus.

    nice .venv/bin/python benchmarks/bench_links.py [--reps 5]

Times, over all corpus markdown files x reps (best of 3): the fast path reconcile runs on
every page (prose_link_targets), the typed `<a rel=...>` reader the write gate runs on every
proposal body (typed_anchor_links: on the bodies as they are, and on the same bodies with one
typed link appended, which makes it parse), and the token reference (link_targets).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tasks.markdown.links import (
    link_targets,
    prose_link_targets,
    typed_anchor_links,
)

CORPUS = Path(__file__).resolve().parent.parent.parent / "shared" / "corpus"
TYPED = '\n\nFrom <a rel="derived-from" href="prismer://asset/a1">the asset</a>.\n'


def best_ms(read: Callable[[str], object], texts: list[str], reps: int) -> float:
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        for _ in range(reps):
            for text in texts:
                read(text)
        best = min(best, time.perf_counter() - start)
    return best * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=5)
    reps = parser.parse_args().reps
    files = sorted(CORPUS.rglob("*.md"))
    if not files:
        sys.exit(f"bench_links: no markdown files under {CORPUS} (../shared/corpus beside the "
                 "repository is expected)")
    texts = [path.read_text(encoding="utf-8", errors="replace") for path in files]
    typed = [text + TYPED for text in texts]
    print(f"{len(texts)} files, {sum(map(len, texts)) / 1e6:.2f} MB, x{reps}, best of 3")
    for name, read, corpus in [
        ("prose_link_targets", prose_link_targets, texts),
        ("typed_anchor_links", typed_anchor_links, texts),
        ("typed_anchor_links, one typed link per body", typed_anchor_links, typed),
        ("link_targets (token reference)", link_targets, texts),
    ]:
        ms = best_ms(read, corpus, reps)
        print(f"{name}: {ms:.1f} ms ({ms / reps / len(texts):.3f} ms/file)")
    print("loadavg", Path("/proc/loadavg").read_text().strip())


if __name__ == "__main__":
    main()
