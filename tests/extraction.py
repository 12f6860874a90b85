"""Extraction helpers the extract tests share: a document's facts and the observations of a kind."""

from __future__ import annotations

from tasks.extract import Extraction, SourceRef, extract_facts


def extract(text: str, path: str = "docs/doc.md") -> Extraction:
    """The facts of `text`, read as the source at original path `path`."""
    return extract_facts(text, SourceRef("x", "wiki/sources/x.md", "raw/x.md", path))


def stated(result: Extraction, kind: str) -> list[str]:
    """The texts of the observations of one kind, in order."""
    return [fact.text for fact in result.observations if fact.kind == kind]
