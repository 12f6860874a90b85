"""Distill: ingested sources -> entity pages, graph entities, observations and relations.

    plan         what to read (manifest + state only), reading it: plan_distill, extract_batch
    resolve      names -> registry entries; forgotten topics (pure)
    merge        extractions merged into the graph and registry, supersession (pure)
    candidates   the weaker-guesses inbox merged (pure)
    apply        the single writer (apply_distill) and the whole stage in one call
    writer       the writer as phases a flow runs as tasks (open: lock + plan; finish)

Flows, tests and benchmarks use the names below; the modules' other names are the stage's own.
"""

from tasks.distill.apply import distill_memory
from tasks.distill.plan import DistillSource, ExtractOutcome, batches, extract_batch
from tasks.distill.writer import DistillWriter

__all__ = [
    "DistillSource",
    "DistillWriter",
    "ExtractOutcome",
    "batches",
    "distill_memory",
    "extract_batch",
]
