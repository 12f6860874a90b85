"""The semantic side of hybrid ranking is gated by BM25's own evidence (issue 28): a sure
lexical ranking (its best hit's title or heading is the query, or a clear score lead) is kept as
it is; an unsure one is fused with similarity. On the development sets the default is never
below BM25 alone, and above it where paraphrase matters."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from schemas.search import SearchHit
from tasks.distill.apply import distill_memory
from tasks.ingest import apply_ingest, collect_inputs, prepare_batch
from tasks.search.query import (
    LEXICAL_MARGIN,
    SEMANTIC_MARGIN,
    SearchOptions,
    leads,
    lexical_is_sure,
    query_terms,
    search,
    similarity_is_sure,
)
from tasks.store.layout import MemoryLayout
from tasks.store.operation import writing_operation
from tasks.store.settings import load_settings
from tests.conftest import CORPUS
from tests.tasks.search.question_sets import CONVERSATION_QUESTIONS, GENRE_QUESTIONS
from tests.tasks.search.relevance import document_of_pages, documents

CHAT = Path(__file__).resolve().parents[2] / "fixtures/relevance/conversations"
GENRE_FOLDERS = ("posthog-postmortems", "openshift-runbooks", "cortex-docs", "tektoncd-teps",
                 "golang-proposal-design")


def _hit(title: str, score: float, section: str = "") -> tuple[SearchHit, int]:
    return SearchHit(kind="page", path=f"wiki/concepts/{title}.md", title=title, page_type="concept",
                     section=section, snippet="", score=score), 0


def test_a_clear_lead_or_the_query_as_a_heading_makes_bm25_sure() -> None:
    terms = query_terms("chunked transfer encoding")
    assert lexical_is_sure([_hit("a", 10.0 * LEXICAL_MARGIN), _hit("b", 10.0)], terms)
    assert not lexical_is_sure([_hit("a", 10.5), _hit("b", 10.0)], terms)
    assert lexical_is_sure([_hit("a", 10.5, section="Chunked transfer encoding"), _hit("b", 10.0)],
                           terms)
    assert lexical_is_sure([_hit("Chunked Transfer-Encoding", 10.5), _hit("b", 10.0)], terms)
    assert not lexical_is_sure([], terms)


@pytest.fixture(scope="module")
def memory(tmp_path_factory: pytest.TempPathFactory) -> tuple[MemoryLayout, dict[str, str]]:
    base = tmp_path_factory.mktemp("fusion")
    chat = base / "src" / "conversations"
    shutil.copytree(CHAT, chat)
    settings = load_settings(base / "mem", fixed_clock="2026-03-24T22:40:05Z")
    with writing_operation(settings, "ingest") as operation:
        inputs, problems = collect_inputs([*(CORPUS / name for name in GENRE_FOLDERS), chat])
        apply_ingest(operation, prepare_batch(inputs, settings), problems)
    with writing_operation(settings, "distill") as operation:
        distill_memory(operation)
    layout = operation.layout
    doc_of = document_of_pages(layout)
    assert len(doc_of) > 40  # the figures below mean nothing without it
    return layout, doc_of


def _mrr(layout: MemoryLayout, doc_of: dict[str, str], questions: tuple[tuple[str, frozenset[str]], ...],
         semantic: bool) -> float:
    total = 0.0
    for question, answers in questions:
        ranked = documents(search(layout, question, SearchOptions(limit=20, semantic=semantic)).hits,
                           doc_of)
        rank = next((i for i, doc in enumerate(ranked, 1) if doc in answers), None)
        total += 1 / rank if rank else 0.0
    return total / len(questions)


@pytest.mark.parametrize("name", ["genres", "chat"])
def test_the_default_ranking_is_never_below_bm25_alone(
        memory: tuple[MemoryLayout, dict[str, str]], name: str) -> None:
    layout, doc_of = memory
    questions = GENRE_QUESTIONS if name == "genres" else CONVERSATION_QUESTIONS
    bm25 = _mrr(layout, doc_of, questions, semantic=False)
    hybrid = _mrr(layout, doc_of, questions, semantic=True)
    print(f"{name}: MRR BM25 {bm25:.3f}, default {hybrid:.3f}")
    assert bm25 > 0.5  # the answers are found at all (a broken document map reads 0 for both)
    assert hybrid >= bm25 - 0.01


def test_similarity_is_sure_only_of_a_clear_leader() -> None:
    assert similarity_is_sure([_hit("a", 0.60), _hit("b", 0.60 - 2 * SEMANTIC_MARGIN)])
    assert not similarity_is_sure([_hit("a", 0.60), _hit("b", 0.60 - SEMANTIC_MARGIN / 2)])
    assert similarity_is_sure([_hit("a", 0.40)])
    assert not similarity_is_sure([])
    # the default judges the lead on the hits' whole-page similarities, in any order
    assert leads([0.60 - 2 * SEMANTIC_MARGIN, 0.60, 0.3]) and not leads([0.60 - SEMANTIC_MARGIN / 2, 0.60])
