"""Relevance on real ADR logs: ingest and distill them with the pipeline's own functions, then
ask for each ADR by its title without its number (shared by the test and the benchmark)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from schemas.search import SearchHit
from tasks.distill.apply import distill_memory
from tasks.ingest import apply_ingest, collect_inputs, prepare_batch
from tasks.search.query import SearchOptions, search
from tasks.store.layout import MemoryLayout
from tasks.store.operation import writing_operation
from tasks.store.pages import read_page
from tasks.store.settings import load_settings

ADR_LOGS = ("alphagov-govuk-aws-adrs", "backstage-adrs", "thomvaill-log4brains-adrs")
# An ADR file of each log (templates, indexes and SOURCES.md are not records).
_ADR_FILE_RE = re.compile(r"^(\d{4}-|adr(?!000)\d{3}-|\d{8}-).+\.md$")
_NUMBER_RE = re.compile(r"^\s*(?:ADR\s*\d+\s*[:.-]\s*|\d+\s*[.:)-]\s*)(?:\[superseded\]\s*)?",
                        re.IGNORECASE)
NOW = "2026-03-24T22:40:05Z"


@dataclass(frozen=True)
class AdrCase:
    title: str  # without its number
    source_page: str
    answers: frozenset[str]  # the source page and the entity pages derived from it


def ingest_logs(root: Path, corpus: Path) -> MemoryLayout:
    settings = load_settings(root, fixed_clock=NOW)
    with writing_operation(settings, "ingest") as operation:
        inputs, problems = collect_inputs([corpus / name for name in ADR_LOGS])
        apply_ingest(operation, prepare_batch(inputs, settings), problems)
    with writing_operation(settings, "distill") as operation:
        distill_memory(operation)
    return operation.layout


def adr_cases(layout: MemoryLayout) -> list[AdrCase]:
    entity_pages: dict[str, set[str]] = {}
    for page in sorted(layout.entities.glob("*.md")):
        for source in read_page(page).meta.get("derived_from") or ():
            entity_pages.setdefault(source, set()).add(layout.relative(page))
    cases = []
    for page in sorted(layout.sources.glob("*.md")):
        meta = read_page(page).meta
        name = Path(str(meta.get("source_path", ""))).name
        if not _ADR_FILE_RE.match(name) or "template" in name:
            continue
        rel = layout.relative(page)
        title = _NUMBER_RE.sub("", str(meta.get("title", ""))).strip()
        cases.append(AdrCase(title, rel, frozenset({rel, *entity_pages.get(rel, ())})))
    return cases


def top3_rate(layout: MemoryLayout, cases: list[AdrCase]) -> tuple[float, list[str]]:
    """Share of ADRs whose source or entity page is in the top 3, and the titles missed."""
    missed = []
    for case in cases:
        hits = search(layout, case.title, SearchOptions(limit=3)).hits
        if not {h.path for h in hits} & case.answers:
            missed.append(case.title)
    return 1 - len(missed) / len(cases), missed


def document_of_pages(layout: MemoryLayout) -> dict[str, str]:
    """page path -> the document it comes from (corpus-relative, or notes/..., conversations/...)."""
    doc_of: dict[str, str] = {}
    for page in sorted(layout.sources.rglob("*.md")):
        meta = read_page(page).meta
        # source_path is relative to the ingested folder's parent ("adr-folder/0002-x.md"); an
        # older memory kept the absolute path
        source = str(meta.get("source_path", "")).replace("\\", "/")
        for marker in ("/corpus/", "/src/"):
            source = source.split(marker, 1)[1] if marker in source else source
        if source:
            doc_of[layout.relative(page)] = source
    for page in sorted(layout.entities.glob("*.md")):
        for source in read_page(page).meta.get("derived_from") or ():
            if source in doc_of:
                doc_of.setdefault(layout.relative(page), doc_of[source])
    return doc_of


def documents(hits: Sequence[SearchHit], doc_of: dict[str, str]) -> list[str]:
    """The documents the hits come from, in rank order, each once."""
    ranked: list[str] = []
    for hit in hits:
        doc = doc_of.get(hit.part or "") or doc_of.get(hit.path) or doc_of.get(hit.source_page or "")
        if doc and doc not in ranked:
            ranked.append(doc)
    return ranked
