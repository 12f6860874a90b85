"""Distill: ingested sources -> entity pages, graph entities, observations and relations.

The stage's modules (see each one's docstring): plan (what to read, reading it), resolve
(names -> registry entries, forgotten topics), merge (the pure merge of extractions into the
graph), candidates (the weaker-guesses inbox), apply (the single writer and `distill_memory`).
"""

from tasks.distill.apply import (
    DistillPlan,
    ExtractOutcome,
    Forgotten,
    SourceInput,
    batches,
    distill_memory,
    extract_batch,
)

__all__ = [
    "DistillPlan",
    "ExtractOutcome",
    "Forgotten",
    "SourceInput",
    "batches",
    "distill_memory",
    "extract_batch",
]
