"""Paraphrased questions over the shared ADR logs: BM25 alone against BM25 fused with
wordllama similarity (offline: the weights and tokenizer ship in its wheel).

    nice .venv/bin/python benchmarks/bench_search_paraphrases.py [--corpus ../shared/corpus]

Ingests and distills the three ADR logs with the pipeline's own functions, then asks each
question of tests/tasks/search/paraphrases.py (answers checked by hand) and prints hit@1,
hit@5 and MRR at the level of records (a record's source page or entity page both count) for
BM25 (membank search), similarity alone, reciprocal-rank fusion of the two computed here, and
membank's own hybrid search (the default ranking: MEMBANK_SEARCH_SEMANTIC).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tasks.search.query import SearchOptions, search
from tasks.store.layout import MemoryLayout
from tasks.store.pages import read_page
from tests.tasks.search.paraphrases import PARAPHRASES
from tests.tasks.search.relevance import ingest_logs

RRF_K = 60


def record_of_pages(layout: MemoryLayout) -> tuple[dict[str, str], dict[str, str]]:
    """page path -> record file name, and record file name -> the text to embed."""
    record_of, text_of = {}, {}
    for page in sorted(layout.sources.glob("*.md")):
        parsed = read_page(page)
        name = Path(str(parsed.meta.get("source_path", ""))).name
        record_of[layout.relative(page)] = name
        text_of[name] = f"{parsed.meta.get('title', '')}. {parsed.meta.get('description', '')}. {parsed.body}"
    for page in sorted(layout.entities.glob("*.md")):
        for source in read_page(page).meta.get("derived_from") or ():
            if source in record_of:
                record_of[layout.relative(page)] = record_of[source]
    return record_of, text_of


def bm25_ranking(layout: MemoryLayout, question: str, record_of: dict[str, str],
                 semantic: bool = False) -> list[str]:
    ranked: list[str] = []
    for hit in search(layout, question, SearchOptions(limit=30, semantic=semantic)).hits:
        name = record_of.get(hit.path)
        if name and name not in ranked:
            ranked.append(name)
    return ranked


def fuse(*rankings: list[str]) -> list[str]:
    scores: dict[str, float] = {}
    for ranking in rankings:
        for rank, name in enumerate(ranking, 1):
            scores[name] = scores.get(name, 0.0) + 1.0 / (RRF_K + rank)
    return sorted(scores, key=lambda n: (-scores[n], n))


def figures(rankings: list[list[str]]) -> tuple[float, float, float]:
    hit1 = hit5 = mrr = 0.0
    for ranking, (_question, answers) in zip(rankings, PARAPHRASES, strict=True):
        rank = next((i for i, name in enumerate(ranking, 1) if name in answers), None)
        hit1 += rank == 1
        hit5 += rank is not None and rank <= 5
        mrr += 1.0 / rank if rank else 0.0
    n = len(rankings)
    return hit1 / n, hit5 / n, mrr / n


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path,
                        default=Path(__file__).resolve().parent.parent.parent / "shared/corpus")
    args = parser.parse_args()
    import numpy as np
    import wordllama
    from wordllama import WordLlama

    layout = ingest_logs(Path(tempfile.mkdtemp(prefix="membank-paraphrases-")) / "mem", args.corpus)
    record_of, text_of = record_of_pages(layout)
    started = time.perf_counter()
    model = WordLlama.load(dim=256, cache_dir=Path(wordllama.__file__).parent, disable_download=True)
    names = sorted(text_of)
    vectors = model.embed([text_of[n] for n in names], norm=True)
    print(f"wordllama loaded and {len(names)} records embedded in {time.perf_counter() - started:.2f} s")
    questions = [q for q, _answers in PARAPHRASES]
    queries = model.embed(questions, norm=True)
    bm25 = [bm25_ranking(layout, q, record_of) for q in questions]
    semantic = [[names[i] for i in np.argsort(-(vectors @ query), kind="stable")] for query in queries]
    hybrid = [fuse(b, s) for b, s in zip(bm25, semantic, strict=True)]
    started = time.perf_counter()
    membank = [bm25_ranking(layout, q, record_of, semantic=True) for q in questions]
    print(f"membank hybrid search: {(time.perf_counter() - started) / len(questions) * 1000:.1f} ms"
          " per question (index with page vectors built on the first)")
    print(f"{len(questions)} paraphrased questions over {len(names)} records")
    for label, rankings in (("BM25", bm25), ("similarity", semantic), ("hybrid RRF", hybrid),
                            ("membank hybrid (search --semantic default)", membank)):
        hit1, hit5, mrr = figures(rankings)
        print(f"{label:43s} hit@1 {hit1:.3f}  hit@5 {hit5:.3f}  MRR {mrr:.3f}")


if __name__ == "__main__":
    main()
