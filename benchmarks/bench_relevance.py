"""Ranking quality on public documents: BM25 alone, the default, and fusion candidates.

    nice .venv/bin/python benchmarks/bench_relevance.py [--corpus ../shared/corpus] [--sets all]

Builds one memory with the pipeline's own functions (ingest, then distill) from every folder of
../shared/corpus except large/ (ADR logs, design docs and proposals, postmortems, runbooks,
architecture pages, meeting minutes, httpx docs), the notes cut from large/*.md at their `## `
headings, and the multi-session chats of tests/fixtures/relevance/conversations and
heldout-conversations. Then asks:

- adr: paraphrased questions over the ADR logs (tests/tasks/search/paraphrases.py);
- genres: paraphrased questions over the other genres (tests/tasks/search/question_sets.py);
- chat: LoCoMo-style questions about the chat sessions (same module);
- headings: distinctive section headings of the cut notes as queries (the note is the answer);
- HELD-OUT (tests/tasks/search/heldout.py): written before the ranking was tuned, never tuned on,
  printed apart from the development sets above.

A hit counts for the document it comes from: its source page, a shard of it, or an entity page
or observation derived from it. Prints hit@1, hit@5 and MRR per set for BM25 alone, membank's
default search (tasks.search.query.search with the settings' default), and each fusion candidate
computed here from the same two rankings (plain RRF at several weights, the default's evidence
gates at other margins), plus warm query latency. `--page-weights 0,0.5` runs everything once
per value of tasks.search.query.PAGE_WEIGHT (tuning: on the development sets only).

`--models wordllama,tokenlearn,...` (benchmarks/embedding_candidates.py) runs everything once per
embedding model, the index rebuilt with it, and prints each model's install size, its index build
time on this memory and its query latency; `--build-pages 10000` also builds the index of
bench_search's generated memory with each model (cold build wall and CPU, 200 warm queries).
"""

from __future__ import annotations

import argparse
import re
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tasks.distill.apply import distill_memory
from tasks.ingest import apply_ingest, collect_inputs, prepare_batch
from tasks.search import query as q
from tasks.search import semantic
from tasks.search.index import build_index
from tasks.search.sync import read_index
from tasks.store.layout import MemoryLayout
from tasks.store.operation import writing_operation
from tasks.store.settings import load_settings
from tests.tasks.search.heldout import HELDOUT_QUESTIONS
from tests.tasks.search.paraphrases import PARAPHRASES
from tests.tasks.search.question_sets import CONVERSATION_QUESTIONS, GENRE_QUESTIONS
from tests.tasks.search.relevance import document_of_pages, documents

REPO = Path(__file__).resolve().parent.parent
CHATS = (REPO / "tests/fixtures/relevance/conversations",
         REPO / "tests/fixtures/relevance/heldout-conversations")
NOW = "2026-03-24T22:40:05Z"
DEPTH = 30
Ranked = list[tuple[q.SearchHit, int]]


def cut_notes(large: Path, out: Path) -> list[tuple[str, str]]:
    """Cut every large/*.md at its `## ` headings into notes; return (heading, note) pairs."""
    out.mkdir(parents=True)
    pairs = []
    for source in sorted(large.glob("*.md")):
        if source.name == "SOURCES.md":
            continue
        parts = re.split(r"(?m)^(?=## )", source.read_text(encoding="utf-8"))
        for number, part in enumerate(parts):
            heading = part.splitlines()[0][3:].strip() if part.startswith("## ") else ""
            name = f"{source.stem.lower()}-{number:03d}.md"
            (out / name).write_text(part if heading else f"# {source.stem}\n\n{part}", encoding="utf-8")
            pairs.append((heading, f"notes/{name}"))
    return pairs


def heading_questions(pairs: list[tuple[str, str]], count: int = 40) -> list[tuple[str, frozenset[str]]]:
    """Distinctive headings (unique, three words or more, not a version number) as queries."""
    seen: dict[str, int] = {}
    for heading, _note in pairs:
        seen[heading.lower()] = seen.get(heading.lower(), 0) + 1
    usable = [(h, n) for h, n in pairs if h and seen[h.lower()] == 1 and len(h.split()) >= 3
              and not re.match(r"^[\[v]?\d", h)]
    step = max(1, len(usable) // count)
    return [(h, frozenset({n})) for h, n in usable[::step][:count]]


def build(where: Path, corpus: Path) -> tuple[MemoryLayout, list[tuple[str, frozenset[str]]]]:
    notes = cut_notes(corpus / "large", where / "src" / "notes")
    chat = where / "src" / "conversations"
    chat.mkdir(parents=True)
    for session in sorted(s for folder in CHATS for s in folder.glob("*.md")):
        (chat / session.name).write_bytes(session.read_bytes())
    folders = [p for p in sorted(corpus.iterdir()) if p.is_dir() and p.name != "large"]
    settings = load_settings(where / "mem", fixed_clock=NOW)
    with writing_operation(settings, "ingest") as operation:
        inputs, problems = collect_inputs([*folders, where / "src" / "notes", chat])
        apply_ingest(operation, prepare_batch(inputs, settings), problems)
    with writing_operation(settings, "distill") as operation:
        distill_memory(operation)
    return operation.layout, heading_questions(notes)


def matches(doc: str, answers: frozenset[str]) -> bool:
    return any(doc == a or doc.endswith("/" + a) for a in answers)


def figures(rankings: list[list[str]], questions: Sequence[tuple[str, frozenset[str]]]
            ) -> tuple[float, float, float]:
    hit1 = hit5 = mrr = 0.0
    for ranking, (_question, answers) in zip(rankings, questions, strict=True):
        rank = next((i for i, doc in enumerate(ranking, 1) if matches(doc, answers)), None)
        hit1 += rank == 1
        hit5 += rank is not None and rank <= 5
        mrr += 1.0 / rank if rank else 0.0
    n = len(rankings)
    return hit1 / n, hit5 / n, mrr / n


Found = tuple[list[str], list[float], dict[str, str]]


def two_rankings(layout: MemoryLayout, text: str) -> tuple[Ranked, Ranked, Found]:
    """The lexical and the (ungated) semantic ranking the default search may fuse, and what the
    default's gates read: the query's terms, the whole-page similarities and the entity pages'
    source pages (which the fusion counts an entity page for)."""
    terms = q.query_terms(text)

    def read(conn: sqlite3.Connection) -> tuple[Ranked, Ranked, Found]:
        kept, rankable = q.plan_terms(conn, terms)
        filters, params = q._filters(q.SearchOptions(limit=DEPTH))
        lookup = q._Lookup(conn, layout, q._DETAILS.format(filters=filters), params)
        lexical = q._lexical(lookup, q.fts_match(kept), DEPTH, rankable)
        semantic, whole = q.semantic_pages(lookup, " ".join(t.rstrip("*") for t in terms), DEPTH)
        return lexical, semantic, (terms, whole, q.entity_sources(conn))

    return read_index(layout, read, semantic=True)[0]


def gated(lexical_margin: float, semantic_margin: float, whole_page: bool = False
          ) -> Callable[..., list[q.SearchHit]]:
    """The default's gates with other margins (its RRF, without the supersession and period
    steps); with `whole_page`, similarity's lead is judged on the pages' whole-page vectors."""
    def fuse(lexical: Ranked, semantic: Ranked, found: Found) -> list[q.SearchHit]:
        terms, whole, sources = found
        kept = q.LEXICAL_MARGIN, q.SEMANTIC_MARGIN
        q.LEXICAL_MARGIN, q.SEMANTIC_MARGIN = lexical_margin, semantic_margin
        try:
            sure = q.lexical_is_sure(lexical, terms) or not (
                q.leads(whole) if whole_page else q.similarity_is_sure(semantic))
        finally:
            q.LEXICAL_MARGIN, q.SEMANTIC_MARGIN = kept
        if sure:  # as the default: nothing to fuse, so no source map
            return [h for h, _u in q.fuse(lexical, [])]
        return [h for h, _u in q.fuse(lexical, semantic, sources=sources)]

    return fuse


def rrf(weight: float, k: int = q.RRF_K) -> Callable[[Ranked, Ranked], list[q.SearchHit]]:
    def fuse(lexical: Ranked, semantic: Ranked) -> list[q.SearchHit]:
        scores: dict[tuple[str, str], float] = {}
        first: dict[tuple[str, str], q.SearchHit] = {}
        for w, ranking in ((1.0, lexical), (weight, semantic)):
            for rank, (hit, _unit) in enumerate(ranking, 1):
                key = (hit.kind, hit.path if hit.kind == "page" else hit.title.lower())
                scores[key] = scores.get(key, 0.0) + w / (k + rank)
                first.setdefault(key, hit)
        return [first[key] for key in sorted(scores, key=lambda key: -scores[key])]

    return fuse


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=REPO.parent / "shared/corpus")
    parser.add_argument("--page-weights", default="",
                        help="comma-separated PAGE_WEIGHT values to run the sets with (tuning)")
    parser.add_argument("--models", default="",
                        help="comma-separated embedding candidates (embedding_candidates.CANDIDATES)")
    parser.add_argument("--build-pages", type=int, default=0,
                        help="also time each model's index build on this many generated pages")
    parser.add_argument("--sets", default="all",
                        help="comma-separated: adr,genres,chat,headings,held-out (default all)")
    args = parser.parse_args()
    started = time.perf_counter()
    layout, headings = build(Path(tempfile.mkdtemp(prefix="membank-relevance-")), args.corpus)
    print(f"memory built in {time.perf_counter() - started:.1f} s")
    doc_of = document_of_pages(layout)
    sets = {"adr": list(PARAPHRASES), "genres": list(GENRE_QUESTIONS),
            "chat": list(CONVERSATION_QUESTIONS), "headings": headings,
            "HELD-OUT (never tuned on)": list(HELDOUT_QUESTIONS)}
    if args.sets != "all":
        sets = {name: qs for name, qs in sets.items() if name.split()[0].lower() in args.sets.split(",")}
    candidates: dict[str, Callable[..., list[q.SearchHit]]] = {
        "BM25 alone": lambda lexical, _semantic: [h for h, _u in lexical],
        "similarity alone": lambda _lexical, semantic: [h for h, _u in semantic],
        "RRF w=1.0 (the old default)": rrf(1.0), "RRF w=0.5": rrf(0.5), "RRF w=0.3": rrf(0.3),
    }
    for semantic_margin in (0.0, 0.01, 0.02, 0.04):
        candidates[f"gates 1.2/{semantic_margin}"] = gated(1.2, semantic_margin)
    for semantic_margin in (0.01, 0.02, 0.03, 0.04, 0.05, 0.06):
        candidates[f"whole-page gate 1.2/{semantic_margin}"] = gated(1.2, semantic_margin, True)
    if args.models:
        for name in args.models.split(","):
            run_model(layout, name, sets, candidates, doc_of)
        if args.build_pages:
            build_generated(args.build_pages, args.models.split(","))
        return
    latency: list[float] = []
    for weight in [float(w) for w in args.page_weights.split(",") if w] or [q.PAGE_WEIGHT]:
        q.PAGE_WEIGHT = weight
        print(f"\nPAGE_WEIGHT {weight}")
        latency = run_sets(layout, sets, candidates, doc_of)
    print_latency(latency)


def print_latency(latency: list[float]) -> None:
    latency.sort()
    print(f"\nwarm query latency (default, limit {DEPTH}): p50 {statistics.median(latency) * 1000:.1f} ms, "
          f"p95 {latency[int(len(latency) * 0.95)] * 1000:.1f} ms over {len(latency)} queries")


def run_model(layout: MemoryLayout, name: str, sets: dict[str, list[tuple[str, frozenset[str]]]],
              candidates: dict[str, Callable[..., list[q.SearchHit]]], doc_of: dict[str, str]) -> None:
    """The sets with one embedding model: the index rebuilt with it, then every candidate."""
    from benchmarks.bench_search import cpu_seconds
    from benchmarks.embedding_candidates import CANDIDATES, install_size, use

    model = CANDIDATES[name]
    started = time.perf_counter()
    restore = use(model)
    print(f"\n=== {model.name}: install {install_size(model.dists):.1f} MB, "
          f"loaded in {time.perf_counter() - started:.2f} s")
    try:
        started, cpu = time.perf_counter(), cpu_seconds()
        built = build_index(layout, semantic=True)
        print(f"index build on this memory: wall {time.perf_counter() - started:.1f} s, CPU "
              f"{cpu_seconds() - cpu:.1f} s ({built.pages_indexed} pages, {vector_count(layout)} "
              f"passage vectors)  load {loadavg()}")
        texts = [text for text, _answers in sets.get("genres", [])] or ["warm up"]
        semantic.query_vector("warm up")
        started = time.perf_counter()
        for text in texts:
            semantic.query_vector(text)
        print(f"query embedding: {(time.perf_counter() - started) / len(texts) * 1000:.2f} ms each")
        print_latency(run_sets(layout, sets, candidates, doc_of))
    finally:
        restore()


def build_generated(pages: int, names: list[str]) -> None:
    """Each model's cold index build and warm query latency on bench_search's generated memory."""
    from benchmarks.bench_reconcile import generate
    from benchmarks.bench_search import CPU_TIMES, cpu_seconds, mixed_queries, percentile, time_queries
    from benchmarks.embedding_candidates import CANDIDATES, use

    root = Path(tempfile.mkdtemp(prefix="membank-relevance-build-"))
    generate(root, pages, pages * 10)
    layout = MemoryLayout(root.resolve())
    for name in names:
        restore = use(CANDIDATES[name])
        try:
            started, cpu = time.perf_counter(), cpu_seconds()
            built = build_index(layout, semantic=True)
            print(f"\n{CANDIDATES[name].name}: {pages} pages cold build wall "
                  f"{time.perf_counter() - started:.1f} s, CPU {cpu_seconds() - cpu:.1f} s "
                  f"({built.pages_indexed} pages, {vector_count(layout)} passage vectors)  load {loadavg()}")
            p50, p95, _hits = time_queries(layout, mixed_queries(200))
            print(f"  200 warm queries: wall p50 {p50:.2f} ms p95 {p95:.2f} ms, CPU p50 "
                  f"{percentile(CPU_TIMES, 0.5):.2f} ms p95 {percentile(CPU_TIMES, 0.95):.2f} ms"
                  f"  load {loadavg()}")
        finally:
            restore()


def vector_count(layout: MemoryLayout) -> int:
    from tasks.search.index import index_file

    with sqlite3.connect(index_file(layout)) as conn:
        return int(conn.execute("SELECT count(*) FROM vectors").fetchone()[0])


def loadavg() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


def run_sets(layout: MemoryLayout, sets: dict[str, list[tuple[str, frozenset[str]]]],
             candidates: dict[str, Callable[..., list[q.SearchHit]]],
             doc_of: dict[str, str]) -> list[float]:
    """Print each set's figures for every candidate and the default; the default's latencies."""
    latency: list[float] = []
    for name, questions in sets.items():
        pairs = [two_rankings(layout, text) for text, _answers in questions]
        print(f"\n{name}: {len(questions)} questions")
        for label, fuse in candidates.items():
            rankings = [documents(fuse(lexical, semantic, *([terms] if "gate" in label
                                                            else [])), doc_of)
                        for lexical, semantic, terms in pairs]
            hit1, hit5, mrr = figures(rankings, questions)
            print(f"  {label:28s} hit@1 {hit1:.3f}  hit@5 {hit5:.3f}  MRR {mrr:.3f}")
        default = []
        for text, _answers in questions:
            begun = time.perf_counter()
            hits = q.search(layout, text, q.SearchOptions(limit=DEPTH, semantic=True)).hits
            latency.append(time.perf_counter() - begun)
            default.append(documents(hits, doc_of))
        hit1, hit5, mrr = figures(default, questions)
        print(f"  {'membank default':28s} hit@1 {hit1:.3f}  hit@5 {hit5:.3f}  MRR {mrr:.3f}")
    return latency


if __name__ == "__main__":
    main()
